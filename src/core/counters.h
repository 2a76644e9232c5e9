/* counters.h - the hardware performance counters firmware reads with csrr:
 * ZERO-RISCY's PULP counters (PCER, PCMR, PCCR0-31) and the standard ones
 * (mcycle, minstret, mhpmcounter3-31, mhpmevent3-31, mcountinhibit).
 * docs/counters.md says which cycle of an instruction each event is in. */
#ifndef CY_COUNTERS_H
#define CY_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

struct cy_vm;
struct insn;

/* The PULP events, by counter index (= PCER bit): _(ID, index, name).
 * mhpmevent uses the same bit positions for the CV32E40P events it shares
 * (CYCLES .. COMP_INSTR = RVC); its LD_STALL and JMP_STALL (bits 2, 3)
 * never happen under cyclops's cost models. */
#define PC_EVENT_LIST(_)                                                                           \
	_(CYCLES, 0, "CYCLES")                                                                     \
	_(INSTR, 1, "INSTR")                                                                       \
	_(LD_STALL, 2, "LD_STALL")                                                                 \
	_(JMP_STALL, 3, "JMP_STALL")                                                               \
	_(IMISS, 4, "IMISS")                                                                       \
	_(LD, 5, "LD")                                                                             \
	_(ST, 6, "ST")                                                                             \
	_(JUMP, 7, "JUMP")                                                                         \
	_(BRANCH, 8, "BRANCH")                                                                     \
	_(BTAKEN, 9, "BTAKEN")                                                                     \
	_(RVC, 10, "RVC")                                                                          \
	_(LD_EXT, 11, "LD_EXT")                                                                    \
	_(ST_EXT, 12, "ST_EXT")                                                                    \
	_(LD_EXT_CYC, 13, "LD_EXT_CYC")                                                            \
	_(ST_EXT_CYC, 14, "ST_EXT_CYC")                                                            \
	_(TCDM_CONT, 15, "TCDM_CONT")

enum {
#define PC_ENUM(id, index, name) PC_EV_##id = index,
	PC_EVENT_LIST(PC_ENUM)
#undef PC_ENUM
	    PC_EVENTS
};

#define PC_BIT(id) (1u << PC_EV_##id)
/* PCER bits that exist: one per event (the FPGA build's counters). */
#define PC_EVENT_MASK ((1u << PC_EVENTS) - 1)
/* cyclops's own mhpmevent event, past CV32E40P's (bits 0..15): a data
 * access whose address is not a multiple of its size (Zicclsm), counted in
 * the instruction's first cycle. PCER has no such bit. */
#define HPM_EV_MISALIGNED 16
#define HPM_MISALIGNED    (1u << HPM_EV_MISALIGNED)
/* mhpmevent bits that exist: CV32E40P's CYCLES .. COMP_INSTR, MISALIGNED. */
#define HPM_EVENT_MASK (((1u << (PC_EV_RVC + 1)) - 1) | HPM_MISALIGNED)

/* PCMR bits as ZERO-RISCY's RTL and the PULP SDK have them (the reference
 * document's table swaps them: docs/counters.md). */
#define PCMR_ACTIVE   0x1u
#define PCMR_SATURATE 0x2u
#define PCMR_RESET    (PCMR_ACTIVE | PCMR_SATURATE)

#define PCCR_COUNT 32
#define PCCR_ALL   31 /* a write sets every counter */
#define HPM_FIRST  3
#define HPM_COUNT  32 /* mhpmcounter3..31; 0..2 unused */

/* mcountinhibit bits of mcycle and minstret. */
#define INHIBIT_CY 0x1u
#define INHIBIT_IR 0x4u

/* What one instruction does, as the events see it, laid out over its
 * cycles 1..cycles: head cycles (class cost, taken branch, division by
 * zero, misaligned extra), then data wait states (loads', then stores'),
 * then paging, then fetch stalls. */
struct insn_facts {
	uint32_t cycles;           /* the whole cost */
	uint32_t first;            /* events in cycle 1 */
	uint32_t second;           /* events in cycle 2: a misaligned access's second word */
	uint32_t head;             /* cycles before the wait states */
	uint32_t ld_wait, st_wait; /* external data wait states */
	uint32_t stall;            /* fetch stall cycles, the last ones */
};

/* A standard counter that follows the VM's clock: value = clock + offset,
 * or frozen while mcountinhibit stops it. */
struct clock_counter {
	uint64_t offset;
	uint64_t frozen;
};

struct counters {
	bool asic;     /* one counter for all events (--counters asic) */
	bool counting; /* some event counter runs: the detailed interpreter */
	bool repick;   /* counting changed: pick the interpreter again */
	bool pending;  /* facts holds the current instruction's, uncounted */
	struct insn_facts facts;
	uint32_t pcer, pcmr;
	uint32_t pccr[PCCR_COUNT]; /* the ASIC build uses pccr[0] only */
	uint32_t pcer_seen;        /* PCER bits ever set, for the report */
	uint32_t inhibit;          /* mcountinhibit */
	struct clock_counter mcycle, minstret;
	uint64_t hpm[HPM_COUNT];
	uint32_t hpm_event[HPM_COUNT];
	uint32_t hpm_running; /* counters with an event and not inhibited */
	uint32_t hpm_seen;    /* counters that ever had an event */
};

void counters_init(struct cy_vm *vm);
struct sio;
/* Saves or restores the counters (util/state_io.h): a checkpoint's part. */
void counters_state_io(struct sio *io, struct cy_vm *vm);

/* Whether csr is one of the counter CSRs; counters_csr then does what
 * csr_access does for it. */
bool counters_owns(uint32_t csr);
int counters_csr(struct cy_vm *vm, uint32_t csr, bool write, uint32_t value, uint32_t *old);
/* The same at XLEN 64, where cycle, instret and the hpmcounters are whole
 * 64-bit CSRs (the caller refuses their RV32 high halves). */
int counters_csr64(struct cy_vm *vm, uint32_t csr, bool write, uint64_t value, uint64_t *old);

/* The detailed interpreter's cost account hands over each instruction's
 * facts before it runs; they are counted when the next one starts, so that
 * a CSR read of a counter does not see its own instruction. */
void counters_before(struct cy_vm *vm, const struct insn_facts *f);
/* At the end of a run: counts the last instruction's facts, or drops them
 * when it faulted (did not retire). */
void counters_settle(struct cy_vm *vm, bool retired);

/* Cycles of an instruction in which at least one event of mask happens. */
uint32_t counters_cycles_with(const struct insn_facts *f, uint32_t mask);

const char *counters_event_name(unsigned event);

#endif

/* ZERO-RISCY's performance counters (PULP), with the PULP SDK's names:
 * PCER 0x7A0 (which events count), PCMR 0x7A1 (mode), PCCR0-31 0x780-0x79F
 * (the counters). Firmware written against the SDK's hal/riscv headers
 * builds unchanged with these. Under cyclops, `--counters fpga` (one
 * counter per event) or `--counters asic` (one counter for all enabled
 * events, each cycle with at least one of them counting once) selects the
 * core build; docs/counters.md defines each event exactly. qemu-riscv32
 * (user mode) has none of these CSRs: the instructions are illegal there.
 *
 *	cpu_perf_conf_events(CSR_PCER_ALL_EVENTS_MASK);
 *	cpu_perf_setall(0);
 *	cpu_perf_conf(CSR_PCMR_ACTIVE | CSR_PCMR_SATURATE);
 *	work();
 *	cpu_perf_conf(0);
 *	unsigned loads = cpu_perf_get(CSR_PCER_LD);
 *
 * The mode bits are the RTL's and the SDK's: enable is bit 0, saturate
 * bit 1 (the ZERO-RISCY user manual's table has them the other way round). */
#ifndef CYCLOPS_PULP_COUNTERS_H
#define CYCLOPS_PULP_COUNTERS_H

#define CSR_PCER_CYCLES       0  /* cycles */
#define CSR_PCER_INSTR        1  /* instructions */
#define CSR_PCER_LD_STALL     2  /* reserved on ZERO-RISCY: never counts */
#define CSR_PCER_JMP_STALL    3  /* reserved on ZERO-RISCY: never counts */
#define CSR_PCER_IMISS        4  /* cycles of instruction fetch stalls */
#define CSR_PCER_LD           5  /* loads (a misaligned one twice) */
#define CSR_PCER_ST           6  /* stores (a misaligned one twice) */
#define CSR_PCER_JUMP         7  /* jal, jalr */
#define CSR_PCER_BRANCH       8  /* branches, taken or not */
#define CSR_PCER_TAKEN_BRANCH 9  /* taken branches */
#define CSR_PCER_RVC          10 /* compressed instructions */
#define CSR_PCER_LD_EXT       11 /* loads outside the fast (TCDM) range */
#define CSR_PCER_ST_EXT       12 /* stores outside it */
#define CSR_PCER_LD_EXT_CYC   13 /* cycles waiting for those loads */
#define CSR_PCER_ST_EXT_CYC   14 /* cycles waiting for those stores */
#define CSR_PCER_TCDM_CONT    15 /* TCDM contention: 0 on a single core */
#define CSR_PCER_NB_EVENTS    16

#define CSR_PCER_EVENT_MASK(event) (1u << (event))
#define CSR_PCER_ALL_EVENTS_MASK   0xffffffffu

#define CSR_PCMR_ACTIVE   0x1
#define CSR_PCMR_SATURATE 0x2

/* The event names, by number, as cyclops's table prints them. */
#define CSR_PCER_NAMES                                                                     \
	{ "CYCLES", "INSTR",  "LD_STALL", "JMP_STALL",  "IMISS",      "LD",       "ST",     \
	  "JUMP",   "BRANCH", "BTAKEN",   "RVC",        "LD_EXT",     "ST_EXT",   "LD_EXT_CYC", \
	  "ST_EXT_CYC", "TCDM_CONT" }

static inline void cpu_perf_conf_events(unsigned int events)
{
	__asm__ volatile("csrw 0x7a0, %0" : : "r"(events));
}

static inline void cpu_perf_conf(unsigned int conf)
{
	__asm__ volatile("csrw 0x7a1, %0" : : "r"(conf));
}

/* Sets every counter (PCCR31). */
static inline void cpu_perf_setall(unsigned int value)
{
	__asm__ volatile("csrw 0x79f, %0" : : "r"(value));
}

static inline void cpu_perf_reset(void) { cpu_perf_setall(0); }

static inline void cpu_perf_start(void) { cpu_perf_conf(CSR_PCMR_ACTIVE | CSR_PCMR_SATURATE); }

static inline void cpu_perf_stop(void) { cpu_perf_conf(0); }

#define CPU_PERF_READ_(n)                                                                          \
	case n:                                                                                    \
		__asm__ volatile("csrr %0, 0x780 + " #n : "=r"(value));                            \
		break;

/* The counter of an event (on the ASIC build every number reads the one
 * counter). CSR numbers are part of the instruction, hence the switch. */
static inline unsigned int cpu_perf_get(unsigned int event)
{
	unsigned int value = 0;

	switch (event) {
		CPU_PERF_READ_(0) CPU_PERF_READ_(1) CPU_PERF_READ_(2) CPU_PERF_READ_(3)
		CPU_PERF_READ_(4) CPU_PERF_READ_(5) CPU_PERF_READ_(6) CPU_PERF_READ_(7)
		CPU_PERF_READ_(8) CPU_PERF_READ_(9) CPU_PERF_READ_(10) CPU_PERF_READ_(11)
		CPU_PERF_READ_(12) CPU_PERF_READ_(13) CPU_PERF_READ_(14) CPU_PERF_READ_(15)
	}
	return value;
}

#endif

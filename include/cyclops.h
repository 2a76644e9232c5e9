/* cyclops.h - the embedding API of the cyclops RISC-V virtual machine.
 * One opaque handle (cy_vm) runs one RV32IMAC guest program; the command line
 * tool is a client of exactly this API. See docs/api.md. */
#ifndef CYCLOPS_H
#define CYCLOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CY_VERSION "0.1.0"

/* Exit statuses of the cyclops command for its own failures. They sit at the
 * top of the 8-bit range, away from the small codes guests usually return. */
#define CY_EXIT_USAGE       250 /* bad command line */
#define CY_EXIT_BAD_PROGRAM 251 /* the ELF could not be loaded */
#define CY_EXIT_FAULT       252 /* the guest faulted (illegal instruction, ...) */
#define CY_EXIT_CYCLE_LIMIT 253 /* --max-cycles was reached */
#define CY_EXIT_INTERNAL    254 /* host resources ran out */

typedef struct cy_vm cy_vm;

/* Instruction classes: what cost models price and what events report. */
#define CY_CLASS_LIST(_)                                                                           \
	_(ALU, "alu")                                                                              \
	_(LOAD, "load")                                                                            \
	_(STORE, "store")                                                                          \
	_(BRANCH, "branch")                                                                        \
	_(JUMP, "jump")                                                                            \
	_(MUL, "mul")                                                                              \
	_(MULH, "mulh")                                                                            \
	_(DIV, "div")                                                                              \
	_(CSR, "csr")                                                                              \
	_(AMO, "amo")                                                                              \
	_(FENCE, "fence")                                                                          \
	_(ECALL, "ecall")                                                                          \
	_(EBREAK, "ebreak")                                                                        \
	_(NONE, "none")

typedef enum cy_insn_class {
#define CY_CLASS_ENUM(id, name) CY_CLASS_##id,
	CY_CLASS_LIST(CY_CLASS_ENUM)
#undef CY_CLASS_ENUM
	    CY_CLASS_COUNT
} cy_insn_class;

const char *cy_class_name(cy_insn_class cls);

/* Why cy_vm_run returned. */
typedef enum cy_stop {
	CY_STOP_NONE = 0,    /* runnable: this call's cycle budget ran out */
	CY_STOP_EXIT,        /* the guest exited (cy_vm_exit_code) */
	CY_STOP_FAULT,       /* the guest faulted (cy_vm_fault) */
	CY_STOP_CYCLE_LIMIT, /* opts.max_cycles was reached */
} cy_stop;

typedef enum cy_fault {
	CY_FAULT_NONE = 0,
	CY_FAULT_ILLEGAL_INSN, /* undecodable instruction or bad CSR use */
	CY_FAULT_FETCH,        /* execution reached unmapped memory */
	CY_FAULT_EBREAK,       /* ebreak with no debugger attached */
	CY_FAULT_MEMORY,       /* a syscall was given memory outside 4 GiB */
	CY_FAULT_HOST,         /* host resources ran out */
} cy_fault;

/* ZERO-RISCY's performance counters come in two builds (docs/counters.md):
 * the FPGA's one counter per event, the ASIC's one counter for all. */
typedef enum cy_counters_build {
	CY_COUNTERS_FPGA = 0,
	CY_COUNTERS_ASIC,
} cy_counters_build;

typedef struct cy_opts {
	uint64_t max_cycles; /* 0: no limit */
	int argc;            /* guest argv; argc 0: argv[0] = path */
	const char *const *argv;
	const char *const *envp;            /* NULL: an empty environment */
	int stdin_fd, stdout_fd, stderr_fd; /* host fds for guest fds 0, 1, 2 */
	uint32_t stack_size;                /* bytes reserved for the guest stack */
	const char *model;                  /* cost model name or path; NULL: unit */
	uint32_t segment_po2;               /* paging models: 0 keeps the model's */
	bool quiet;                         /* no warnings on stderr */
	/* The cycle-tracking protocol (docs/api.md): off by default. */
	bool cycle_tracker;               /* service cycle-tracker-* lines on stdout/stderr */
	bool cycle_tracker_quiet;         /* and leave them out of the guest's output */
	uint64_t chunk_cycles;            /* cy_vm_run_chunk's chunk; 0: the default */
	cy_counters_build counters_build; /* PCCR0-31: per event (default) or ASIC */
} cy_opts;

#define CY_DEFAULT_CHUNK_CYCLES (1ull << 22)

void cy_opts_init(cy_opts *opts);
/* Turns the cycle tracker on; returns opts. */
cy_opts *cy_opts_with_cycle_tracker(cy_opts *opts);

/* Creation reads the ELF and builds the initial stack. On failure they
 * return a negative errno-style code and write "NAME: reason" into err. */
int cy_vm_create_from_file(cy_vm **vm, const char *path, const cy_opts *opts, char *err,
			   size_t err_size);
int cy_vm_create_from_bytes(cy_vm **vm, const void *elf, size_t size, const char *name,
			    const cy_opts *opts, char *err, size_t err_size);
void cy_vm_destroy(cy_vm *vm);

/* Runs until the guest stops or `cycles` more cycles have passed (the run
 * stops at the first instruction boundary at or past the budget). */
cy_stop cy_vm_run(cy_vm *vm, uint64_t cycles);
cy_stop cy_vm_stop_reason(const cy_vm *vm);
cy_fault cy_vm_fault(const cy_vm *vm);
int cy_vm_exit_code(const cy_vm *vm);
/* One line describing a fault or the cycle limit, without "cyclops: ". */
const char *cy_vm_stop_message(const cy_vm *vm);

uint32_t cy_vm_pc(const cy_vm *vm);
uint32_t cy_vm_reg(const cy_vm *vm, unsigned n);
int cy_vm_set_reg(cy_vm *vm, unsigned n, uint32_t value);
uint64_t cy_vm_cycles(const cy_vm *vm);
uint64_t cy_vm_instret(const cy_vm *vm);
int cy_vm_read(const cy_vm *vm, uint32_t addr, void *buf, size_t len);
int cy_vm_write(cy_vm *vm, uint32_t addr, const void *buf, size_t len);
/* Resident guest memory in bytes (pages the guest touched). */
uint64_t cy_vm_touched_bytes(const cy_vm *vm);

/* "name+0x1c" for the symbol containing or preceding addr; 0 if found. */
int cy_vm_symbolize(const cy_vm *vm, uint32_t addr, char *buf, size_t size);
/* Disassembles the instruction at pc (objdump "no-aliases,numeric" style);
 * returns its length in bytes, 0 if it is not a valid instruction. */
int cy_disasm(uint32_t pc, uint32_t bits, char *buf, size_t size);

/* The active cost model's totals so far. cycles = user + paging + reserved;
 * without paging, paging and reserved are 0 and segments 1. */
typedef struct cy_cost_stats {
	const char *model;
	uint64_t cycles, instructions;
	uint64_t user, paging, reserved;
	uint64_t segments, pages_in, pages_out;
} cy_cost_stats;

void cy_vm_cost_stats(const cy_vm *vm, cy_cost_stats *out);

/* Lists the cost models that --model NAME finds (models/NAME.model): calls fn
 * with each one's name, description and file. Returns how many, or < 0. */
typedef void (*cy_model_fn)(void *ctx, const char *name, const char *description, const char *path);
int cy_models_list(cy_model_fn fn, void *ctx, char *err, size_t err_size);

/* The parts of one instruction's cost, for models whose costs depend on
 * addresses (wait states, paging, segments). Pages are the first page-size
 * aligned address of each page; the arrays hold the first CY_MAX_PAGES. */
#define CY_MAX_PAGES 8

typedef enum cy_page_reason { CY_PAGE_FETCH, CY_PAGE_LOAD, CY_PAGE_STORE } cy_page_reason;

typedef struct cy_cost_parts {
	uint32_t base;      /* class cost, taken branch, divide by zero, fetch stalls */
	uint32_t wait;      /* data wait states and the misaligned extra */
	uint32_t page_in;   /* cycles of page-ins */
	uint32_t page_out;  /* cycles of page-outs */
	uint32_t segment;   /* fixed cycles of a segment that starts here */
	bool segment_start; /* this instruction is the first of a segment */
	uint32_t n_page_in, n_page_out;
	uint32_t page_in_addr[CY_MAX_PAGES];
	uint8_t page_in_reason[CY_MAX_PAGES]; /* cy_page_reason */
	uint32_t page_out_addr[CY_MAX_PAGES];
} cy_cost_parts;

/* Events: what profilers observe. With no observer attached the VM runs an
 * interpreter compiled without any event code. */
typedef enum cy_event_kind {
	CY_EV_BLOCK,  /* a basic block is entered at pc */
	CY_EV_RETIRE, /* an instruction retired; cost = its cycles */
	CY_EV_JUMP,   /* taken branch, jal or jalr from pc to target */
	CY_EV_STORE,  /* a store of size bytes at addr */
	CY_EV_ECALL,  /* an ecall, before the VM services it */
	CY_EV_CSR,    /* a CSR access: csr, write */
	CY_EV_COUNT
} cy_event_kind;

#define CY_EV_BIT(kind) (1u << (kind))

typedef struct cy_event {
	cy_event_kind kind;
	uint32_t pc;                /* the instruction */
	uint64_t cycles;            /* clock before it (after it for RETIRE) */
	uint64_t instret;           /* instructions retired before it (after: RETIRE) */
	cy_insn_class cls;          /* RETIRE, JUMP */
	uint32_t cost;              /* RETIRE */
	uint32_t target;            /* JUMP */
	uint8_t rd, rs1;            /* JUMP: link and base registers (call/return hints) */
	uint32_t addr;              /* STORE: address; CSR: the CSR number */
	uint32_t size;              /* STORE: bytes; CSR: 1 if written */
	const cy_cost_parts *parts; /* RETIRE: what the cost is made of */
} cy_event;

typedef void (*cy_event_fn)(void *ctx, cy_vm *vm, const cy_event *ev);

/* Attaches fn for the events in mask (CY_EV_BIT(...) ORed). */
int cy_vm_add_observer(cy_vm *vm, unsigned mask, cy_event_fn fn, void *ctx);

/* Cycle tracking. With opts.cycle_tracker the guest's lines
 * "cycle-tracker-start: NAME" and "cycle-tracker-end: NAME" on stdout or
 * stderr measure the cycles between them (docs/api.md). Arrays returned
 * below belong to the VM: they stay valid until the VM runs again, the
 * same function is called again, or the VM is destroyed. */

/* One request (NAME) and its results. name holds the guest's bytes (any
 * byte but a newline, NULs included), with a NUL after them. */
typedef struct cy_tracker_entry {
	const char *name;
	size_t name_len;
	const uint64_t *cycles; /* elapsed cycles, in the order the ends came */
	size_t count;           /* entries in cycles */
	uint64_t report_total;  /* sum of the cycle-tracker-report-end results */
	uint64_t report_count;  /* and how many there were */
} cy_tracker_entry;

/* A node of the span tree: one name at one place in the nesting. */
typedef struct cy_span {
	const char *name;
	size_t name_len;
	int parent;               /* index of the parent node, -1 at the top */
	unsigned depth;           /* 0 at the top */
	uint64_t count;           /* spans ended here */
	uint64_t total, min, max; /* their cycles (min, max: 0 if count is 0) */
	bool open;                /* a start here has not ended */
} cy_span;

typedef enum cy_tracker_issue_kind {
	CY_TRACKER_UNMATCHED_END, /* an end with no start: it recorded 0 */
	CY_TRACKER_RESTARTED,     /* a start while open: the earlier one is lost */
	CY_TRACKER_NEVER_ENDED,   /* a start still open */
} cy_tracker_issue_kind;

typedef struct cy_tracker_issue {
	cy_tracker_issue_kind kind;
	const char *name;
	size_t name_len;
	uint64_t count; /* how many times (NEVER_ENDED: 1) */
	uint64_t cycle; /* clock of the first time (NEVER_ENDED: of the start) */
} cy_tracker_issue;

/* One chunk of a chunked run (cy_vm_run_chunk). */
typedef struct cy_chunk_report {
	uint64_t index;       /* 0 for the first call, then 1, 2, ... */
	uint64_t start_cycle; /* the clock when the chunk began */
	uint64_t end_cycle;   /* and when it ended */
	bool done;            /* the guest stopped: no chunk follows */
	cy_stop stop;         /* why it stopped (CY_STOP_NONE if not done) */
	/* the ends since the previous chunk only; starts carry over */
	const cy_tracker_entry *cycle_tracker;
	size_t n_cycle_tracker;
} cy_chunk_report;

/* Runs the next opts.chunk_cycles cycles (cy_vm_run) and describes them. */
cy_stop cy_vm_run_chunk(cy_vm *vm, cy_chunk_report *report);
/* Every request that ended, in the order of its first end, with all its
 * results since the start; NULL and *n = 0 when the tracker is off. */
const cy_tracker_entry *cy_vm_cycle_tracker(cy_vm *vm, size_t *n);
/* The span tree in pre-order (a node before its children). */
const cy_span *cy_vm_tracker_spans(cy_vm *vm, size_t *n);
/* What did not pair up: unmatched ends, restarts, starts never ended. */
const cy_tracker_issue *cy_vm_tracker_issues(cy_vm *vm, size_t *n);

/* Performance counters (docs/counters.md). One row per counter the guest
 * enabled at some time (a PCER bit set, an mhpmevent written non-zero),
 * plus mcycle and minstret, with their values now. */
typedef struct cy_counter {
	char name[24];   /* "pccr5", "pccr (asic)", "mhpmcounter3", "mcycle" */
	uint32_t csr;    /* the CSR that reads it (the low half) */
	uint32_t events; /* the events it counts, bits by cy_counter_event_name */
	uint64_t value;  /* PCCRs are 32 bits, the others 64 */
} cy_counter;

#define CY_MAX_COUNTERS 64

/* Fills out[0..max) and returns how many rows there are. */
size_t cy_vm_counters(const cy_vm *vm, cy_counter *out, size_t max);
/* The name of event bit i ("CYCLES", "LD", ...; the PULP numbering, which
 * mhpmevent shares for bits 0-10), or NULL. */
const char *cy_counter_event_name(unsigned i);
/* "fpga" or "asic" */
const char *cy_vm_counters_build(const cy_vm *vm);

#ifdef __cplusplus
}
#endif
#endif

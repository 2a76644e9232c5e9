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
/* Stopped by signal N (cy_vm_interrupt): 128 + N, as shells report it. */
#define CY_EXIT_SIGNAL_BASE 128

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
	CY_STOP_INTERRUPTED, /* cy_vm_interrupt was called */
} cy_stop;

typedef enum cy_fault {
	CY_FAULT_NONE = 0,
	CY_FAULT_ILLEGAL_INSN, /* undecodable instruction or bad CSR use */
	CY_FAULT_FETCH,        /* execution reached unmapped memory */
	CY_FAULT_EBREAK,       /* ebreak with no debugger attached */
	CY_FAULT_MEMORY,       /* a syscall was given memory outside 4 GiB */
	CY_FAULT_HOST,         /* host resources ran out */
	CY_FAULT_SYSCALL,      /* a zkVM syscall the ABI rejects (unknown code, bad hint) */
	CY_FAULT_MEMORY_LIMIT, /* the guest touched more than opts.max_memory */
	CY_FAULT_ACCESS,       /* bare: a load or store the trap handler at mtvec could not take;
				* SP1 v6 user mode: a page protection with no trap context */
} cy_fault;

/* ZERO-RISCY's performance counters come in two builds (docs/counters.md):
 * the FPGA's one counter per event, the ASIC's one counter for all. */
typedef enum cy_counters_build {
	CY_COUNTERS_FPGA = 0,
	CY_COUNTERS_ASIC,
} cy_counters_build;
/* The guest's system-call ABI (docs/zkvm.md). AUTO picks sp1, pico or
 * risc0 from the ELF's symbols and linux otherwise. */
typedef enum cy_abi { CY_ABI_AUTO = 0, CY_ABI_LINUX, CY_ABI_SP1, CY_ABI_PICO, CY_ABI_RISC0 } cy_abi;

/* The platform (docs/bare-metal.md): linux runs a user-mode program with
 * the Linux syscall ABI; bare runs firmware in machine mode with traps,
 * a timer and HTIF/UART consoles. AUTO picks bare when the ELF has a
 * tohost symbol, linux otherwise. */
typedef enum cy_platform { CY_PLATFORM_AUTO = 0, CY_PLATFORM_LINUX, CY_PLATFORM_BARE } cy_platform;

/* How guest code runs (docs/jit.md). DEFAULT: the translation tier where
 * the host has it (x86-64 with libgccjit), else the interpreter; INTERP:
 * the interpreter only; JIT: the tier, and a host without it is an error.
 * Either way the tier runs only what the plain and accounting interpreters
 * would (Linux or zkVM guests under a model of static costs, with or
 * without the accounting interface's profilers); the rest is interpreted,
 * and every output is the same byte for byte. */
typedef enum cy_engine { CY_ENGINE_DEFAULT = 0, CY_ENGINE_INTERP, CY_ENGINE_JIT } cy_engine;

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
	bool cycle_tracker;       /* service cycle-tracker-* lines on stdout/stderr */
	bool cycle_tracker_quiet; /* and leave them out of the guest's output */
	uint64_t chunk_cycles;    /* cy_vm_run_chunk's chunk; 0: the default */
	cy_abi abi;               /* CY_ABI_AUTO: detected from the ELF */
	/* the zkVM ABI's version (sp1: 3, 4, 5 or 6; pico: 1); 0 picks it
	 * from the ELF (docs/zkvm.md, "Versions") */
	unsigned abi_version;
	/* Channel timers (docs/timers.md): off by default. */
	bool timers;          /* watch the guest's timer channels */
	uint64_t significant; /* explain steps of at least this many cycles;
			       * 0: the model's page-in cost, or 1000 */
	/* PC sampling (docs/sampling.md). The guest's cy_sample_* calls work
	 * whatever these say, except that its saves need guest_saves. */
	bool sample;              /* start sampling at cycle 0 */
	uint64_t sample_interval; /* cycles between samples; 0: 32; at most 2^32 */
	const char *out_dir;      /* where the guest's saves go; NULL: "." */
	/* The guest's cy_sample_save writes files only when guest_saves is
	 * set: beneath out_dir (no absolute name, "..", or symbolic link), at
	 * most guest_save_files files and guest_save_bytes bytes in a run (0:
	 * CY_GUEST_SAVE_FILES and CY_GUEST_SAVE_BYTES). */
	bool guest_saves;
	uint32_t guest_save_files;
	uint64_t guest_save_bytes;
	cy_counters_build counters_build; /* PCCR0-31: per event (default) or ASIC */
	/* The bare-metal platform (docs/bare-metal.md). */
	cy_platform platform; /* CY_PLATFORM_AUTO: detected from the ELF */
	const char *ram;      /* "ADDR:SIZE[,ADDR:SIZE...]"; NULL: 0x80000000:64M */
	uint32_t uart_base;   /* the UART's registers; 0: 0x10000000 */
	/* Guest memory the host may page in (cy_vm_touched_bytes), checked
	 * between slices of 2^16 to 2^20 cycles (docs/robustness.md); 0: none. */
	uint64_t max_memory;
	/* The profilers on every instruction's events instead of the
	 * accounting interface: the slow reference their fast path is tested
	 * against (docs/architecture.md); the results are the same. */
	bool reference;
	cy_engine engine;
	/* The fast pass of a chunked run (docs/scale-out.md): the timers
	 * follow only the guest's announcement and the sampler only its
	 * phase, which is what each chunk's start needs; their tables stay
	 * empty until chunks are merged into them (cy_chunk_merge). */
	bool fast_pass;
	/* Called before each write of the guest's bytes to stdout_fd or
	 * stderr_fd, so that a front end can first erase a status line of
	 * its own (cyclops run's progress line); NULL: none. */
	void (*before_output)(void *ctx);
	void *output_ctx;
} cy_opts;

#define CY_DEFAULT_CHUNK_CYCLES (1ull << 22)
#define CY_GUEST_SAVE_FILES     64
#define CY_GUEST_SAVE_BYTES     (256ull << 20)

void cy_opts_init(cy_opts *opts);
/* Checks the options that need no program (today --ram and --uart), so
 * that a front end can tell a bad option from a bad program; 0, or
 * -EINVAL with "--ram ...: reason" in err. Creation checks them too. */
int cy_opts_check(const cy_opts *opts, char *err, size_t err_size);
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
/* One line describing a fault, the cycle limit or an interruption,
 * without "cyclops: "; printable: a symbol's control characters and bytes
 * that are not UTF-8 are in it as \xNN, a backslash as \\. */
const char *cy_vm_stop_message(const cy_vm *vm);
/* Asks a running cy_vm_run to stop within CY_INTERRUPT_CYCLES cycles, at
 * an instruction boundary, with CY_STOP_INTERRUPTED; later runs return it
 * at once. Async-signal-safe: a signal handler may call it. why is the
 * signal number (the message names it: "interrupted by SIGINT"), or 0 (or
 * anything that is not a signal number) for "interrupted". */
void cy_vm_interrupt(cy_vm *vm, int why);
#define CY_INTERRUPT_CYCLES (1ull << 20)

/* Misaligned data accesses (Zicclsm: performed, as the Ethereum zkVM target
 * requires, and counted): a load, store or AMO whose address is not a
 * multiple of its size. cy_vm_misaligned gives the total and the pcs that
 * made them, by pc (at most CY_MISALIGNED_MAX_SITES; the accesses of pcs past
 * that are in the total and in *lost). The count is exact in every engine. */
typedef struct cy_misaligned_site {
	uint32_t pc;
	uint64_t count;
} cy_misaligned_site;
#define CY_MISALIGNED_MAX_SITES (1u << 16)
uint64_t cy_vm_misaligned(const cy_vm *vm, const cy_misaligned_site **sites, size_t *n,
			  uint64_t *lost);

/* The guest's register width, from its ELF's class: 32 or 64. */
unsigned cy_vm_xlen(const cy_vm *vm);
/* pcs are 32 bits wide at both widths: code lies below 4 GiB. */
uint32_t cy_vm_pc(const cy_vm *vm);
/* Register n (x0..x31); at XLEN 32 the value is zero-extended, and
 * cy_vm_set_reg keeps the low 32 bits. */
uint64_t cy_vm_reg(const cy_vm *vm, unsigned n);
int cy_vm_set_reg(cy_vm *vm, unsigned n, uint64_t value);
uint64_t cy_vm_cycles(const cy_vm *vm);
uint64_t cy_vm_instret(const cy_vm *vm);
/* Guest memory; addresses reach 4 GiB at XLEN 32 and 1 TiB at XLEN 64.
 * -EFAULT for a range outside the space. */
int cy_vm_read(const cy_vm *vm, uint64_t addr, void *buf, size_t len);
int cy_vm_write(cy_vm *vm, uint64_t addr, const void *buf, size_t len);
/* Resident guest memory in bytes (pages the guest touched). */
uint64_t cy_vm_touched_bytes(const cy_vm *vm);

/* "name+0x1c" for the symbol containing or preceding addr; 0 if found.
 * The VM's symbols have C++ and Rust names demangled (cy_demangle); the
 * name's bytes are the ELF's, to be escaped before they are shown. */
int cy_vm_symbolize(const cy_vm *vm, uint32_t addr, char *buf, size_t size);
/* The readable form of a mangled C++ (_Z...) or Rust (_ZN...E legacy,
 * without its hash, or _R... v0) symbol, from libiberty; malloc'd, NULL
 * if name is not one, or if it or its readable form is longer than
 * CY_DEMANGLE_MAX bytes (so that a hostile name cannot make it take more
 * memory than that, nor more than a moment: docs/robustness.md). */
#define CY_DEMANGLE_MAX 4096
char *cy_demangle(const char *name);
/* Disassembles the instruction at pc (objdump "no-aliases,numeric" style);
 * returns its length in bytes, 0 if it is not a valid instruction. */
int cy_disasm(uint32_t pc, uint32_t bits, char *buf, size_t size);
/* The same for a program of XLEN xlen (32 or 64): RV64 adds the W and D
 * forms and gives some compressed encodings other meanings. */
int cy_disasm_xlen(unsigned xlen, uint32_t pc, uint32_t bits, char *buf, size_t size);

/* The active cost model's totals so far. cycles = user + paging + reserved;
 * without paging, paging and reserved are 0 and segments 1. */
typedef struct cy_cost_stats {
	const char *model;
	uint64_t cycles, instructions;
	uint64_t user, paging, reserved;
	uint64_t segments, pages_in, pages_out;
	/* SP1's memory rows (sp1-gas), part of user: their cycles, the first
	 * touches of registers and 8-byte words, the chunks, the clock bumps */
	uint64_t memory, touches, chunks, clock_bumps, state_bumps;
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
	uint32_t memory;    /* SP1's memory rows (sp1-gas): first touches, clock bumps */
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
	/* bare platform (docs/bare-metal.md): a trap or interrupt is taken
	 * before the instruction at pc (addr: mcause, target: the handler);
	 * an mret returns (addr: mcause, target: mepc) */
	CY_EV_TRAP,
	CY_EV_TRAP_RETURN,
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
	uint64_t addr;              /* STORE: address; CSR: the CSR number */
	uint32_t size;              /* STORE: bytes; CSR: 1 if written */
	const cy_cost_parts *parts; /* RETIRE: what the cost is made of (NULL when the
				     * model's costs do not depend on addresses) */
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
	/* Limits (docs/robustness.md). UNLISTED: ends past the 2^24 listed
	 * results; they count in the spans and report totals, not in NAME's
	 * cycles list. DROPPED: requests past 65536 names (16 MiB of them) or
	 * 2^20 places in the span tree, not serviced; name is the first one's. */
	CY_TRACKER_UNLISTED,
	CY_TRACKER_DROPPED,
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
/* Describes the cycles from start_cycle to now as the next chunk, as
 * cy_vm_run_chunk does after its run: for a front end that runs a chunk
 * in several cy_vm_run calls (the debugger, docs/gdb.md), ending each
 * chunk where cy_vm_run_chunk would (the first instruction boundary at or
 * past start_cycle + opts.chunk_cycles, or the guest's stop). */
void cy_vm_end_chunk(cy_vm *vm, uint64_t start_cycle, cy_chunk_report *report);
/* Every request that ended, in the order of its first end, with all its
 * results since the start; NULL and *n = 0 when the tracker is off. */
const cy_tracker_entry *cy_vm_cycle_tracker(cy_vm *vm, size_t *n);
/* The span tree in pre-order (a node before its children). */
const cy_span *cy_vm_tracker_spans(cy_vm *vm, size_t *n);
/* One span as it happened: from its start's clock to its end's, at node
 * span of cy_vm_tracker_spans, in the order they ended, then the ones still
 * open (end: the clock now). At most CY_TRACKER_MAX_INSTANCES are kept
 * (24 MiB); the spans tree counts the ones past it. For timelines. */
typedef struct cy_span_instance {
	int span;
	uint64_t start, end;
	bool open;
} cy_span_instance;
#define CY_TRACKER_MAX_INSTANCES (1u << 20)
const cy_span_instance *cy_vm_tracker_instances(cy_vm *vm, size_t *n);
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
/* zkVM guests (opts.abi sp1, pico or risc0; docs/zkvm.md). */
cy_abi cy_vm_abi(const cy_vm *vm);
const char *cy_abi_name(cy_abi abi);
/* Parses "linux", "sp1", "pico", "risc0" or "auto"; 0 if valid. */
int cy_abi_parse(const char *text, cy_abi *out);
/* The same, and "sp1@vN" / "pico@vN" with a version (*version 0 without). */
int cy_abi_parse_version(const char *text, cy_abi *out, unsigned *version);
/* The zkVM ABI's version the run uses (3..6 for SP1, 1 for Pico; 0 for
 * Linux) and, in *from if not NULL, what chose it: "option", "elf-class",
 * "elf-crate", "elf-symbols" or "default". */
unsigned cy_vm_abi_version(const cy_vm *vm, const char **from);
/* Whether the guest's output, on the stream it last wrote to (*fd: 1 or
 * 2; 0 if it wrote none), ends a line, so that what a host prints next on
 * the same terminal starts on a line of its own. */
bool cy_vm_output_ends_line(const cy_vm *vm, int *fd);
/* The name of ecall number nr under the VM's ABI ("write", "SHA_EXTEND"),
 * NULL if it has none: a Linux syscall number in a7, a zkVM code in t0. */
const char *cy_vm_syscall_name(const cy_vm *vm, uint32_t nr);
/* Appends one frame to the input queue that HINT_LEN/HINT_READ read;
 * -EINVAL for a Linux guest, -ENOMEM. */
int cy_vm_push_input(cy_vm *vm, const void *data, size_t len);
/* Encodes an --input literal as the SDKs' write (bincode) does: "u32:N",
 * "u64:N", "hex:BYTES", "str:TEXT". Returns 0 and a malloc'd frame, 1 if spec
 * has none of these prefixes (a file name), or < 0 with a message in err. */
int cy_input_encode(const char *spec, uint8_t **out, size_t *len, char *err, size_t err_size);
/* The public-values stream (WRITE to fd 3, or 13 from SP1 v4 on; a RISC
 * Zero guest's journal); NULL and *len 0 if empty. */
const uint8_t *cy_vm_public_values(const cy_vm *vm, size_t *len);

/* The words COMMIT and COMMIT_DEFERRED_PROOFS recorded; bit i of *_set says
 * word i was written. */
typedef struct cy_commits {
	uint32_t digest[8], deferred[8];
	uint8_t digest_set, deferred_set;
} cy_commits;
void cy_vm_commits(const cy_vm *vm, cy_commits *out);
/* The proofs the guest asked to verify (VERIFY_SP1_PROOF and
 * VERIFY_PICO_PROOF), in order: the verifying key's digest and the public
 * values' digest it named. A run has no proofs to check them against. */
typedef struct cy_proof_digests {
	uint32_t vkey[8], pv_digest[8];
} cy_proof_digests;
const cy_proof_digests *cy_vm_verified_proofs(const cy_vm *vm, size_t *n);

/* How often the guest called each zkVM syscall, by syscall id (byte 0); only codes
 * called at least once. NULL and *n = 0 for Linux guests. */
typedef struct cy_syscall_count {
	uint32_t code; /* the full code from t0 */
	const char *name;
	uint64_t count;
	uint32_t extra_cycles; /* byte 2 of the code: reported, never added */
} cy_syscall_count;
const cy_syscall_count *cy_vm_syscall_counts(cy_vm *vm, size_t *n);
/* Channel timers. With opts.timers the VM recognises the guest's
 * CY_TIMER_INIT announcement and watches its three channels: a write to
 * the length word opens a timer named by the message bytes, a write to the
 * signal word closes the innermost open one (docs/timers.md). A timer
 * counts from the clock before the length write (which it holds, as
 * profiler0 counts) to the clock before the signal write. Arrays belong
 * to the VM, as the tracker's do. */

/* A node of the timer tree: one label at one place in the nesting. */
typedef struct cy_timer {
	const char *label; /* the guest's bytes, with a NUL after them */
	size_t label_len;
	int parent;                    /* index of the parent node, -1 at the top */
	unsigned depth;                /* 0 at the top */
	uint64_t count;                /* timers stopped here */
	uint64_t cycles, instructions; /* their totals */
	bool open;                     /* a timer here is still open */
	uint64_t steps;                /* its explained steps (some may be dropped) */
} cy_timer;

/* One instruction inside a timer whose cost reached the threshold. */
#define CY_TIMER_MAX_WRITES 4
typedef struct cy_timer_step {
	int timer; /* the innermost open node */
	uint64_t cycle_before, cycle_after;
	uint32_t pc, bits; /* the instruction and its encoding */
	bool has_jump;     /* jump_from/jump_to: the last jump before it */
	uint32_t jump_from, jump_to;
	uint32_t n_writes; /* stores it made (the first CY_TIMER_MAX_WRITES) */
	uint64_t write_addr[CY_TIMER_MAX_WRITES];
	uint32_t write_size[CY_TIMER_MAX_WRITES];
	cy_cost_parts parts; /* pages in (with reasons), out, segment start */
} cy_timer_step;

/* One timer from its start to its stop, in the order of the starts: the
 * slices of trace exports. */
typedef struct cy_timer_slice {
	int timer;
	uint64_t start_cycle, end_cycle; /* end: the clock now if still open */
	uint64_t start_instret, end_instret;
	bool open;
} cy_timer_slice;

/* The timers' tables are bounded (docs/robustness.md#limits): a guest can
 * start as many timers with distinct labels, and as many slices, as it
 * likes. Memory at the limits: the tree at most 40 MiB (80 bytes a node,
 * its label of up to 512, 8 of hash), the slices 12 MiB (48 bytes each),
 * the steps 3 MiB (184 bytes each, room for 16384); the copies the
 * getters hand out as much again (the tree's without the labels). */
#define CY_TIMER_MAX_NODES  (1u << 16) /* timers in the tree */
#define CY_TIMER_MAX_SLICES (1u << 18) /* slices kept: one per timer run */

typedef enum cy_timer_issue_kind {
	CY_TIMER_UNMATCHED_STOP, /* a stop with no timer open: ignored */
	CY_TIMER_NEVER_STOPPED,  /* a timer still open */
	CY_TIMER_LONG_LABEL,     /* a length above 512: the label is cut */
	/* starts of a label new at its place with CY_TIMER_MAX_NODES timers
	 * in the tree, and of every timer inside one: ignored (their time
	 * stays in the enclosing timer); label: the first one's */
	CY_TIMER_TOO_MANY_TIMERS,
	/* slices past CY_TIMER_MAX_SLICES: not kept (the tree counts them) */
	CY_TIMER_TOO_MANY_SLICES,
	/* explained steps past CY_TIMER_MAX_STEPS: counted, not kept */
	CY_TIMER_TOO_MANY_STEPS,
} cy_timer_issue_kind;

typedef struct cy_timer_issue {
	cy_timer_issue_kind kind;
	const char *label; /* NEVER_STOPPED, LONG_LABEL, TOO_MANY_TIMERS; else "" */
	size_t label_len;
	uint64_t count; /* how many times (NEVER_STOPPED: 1) */
	uint64_t cycle; /* clock of the first time (NEVER_STOPPED: its start) */
} cy_timer_issue;

/* The timer tree in pre-order; NULL and *n = 0 when timers are off. */
const cy_timer *cy_vm_timers(cy_vm *vm, size_t *n);
/* The explained steps in the order they ran (at most CY_TIMER_MAX_STEPS). */
#define CY_TIMER_MAX_STEPS 10000
const cy_timer_step *cy_vm_timer_steps(cy_vm *vm, size_t *n);
const cy_timer_slice *cy_vm_timer_slices(cy_vm *vm, size_t *n);
const cy_timer_issue *cy_vm_timer_issues(cy_vm *vm, size_t *n);
/* The threshold in use, and whether the guest announced its channels
 * (then addr holds the message, length and signal addresses). */
uint64_t cy_vm_timer_threshold(const cy_vm *vm);
bool cy_vm_timer_channels(const cy_vm *vm, uint32_t addr[3]);
/* Call-stack profiles (docs/profiles.md). */

/* The program's symbols from its ELF symbol table, sorted by address (one
 * per address, a sized one preferred). size 0: a label of unknown extent. */
typedef struct cy_symbol {
	uint32_t addr, size;
	const char *name;
} cy_symbol;

/* The array belongs to the VM; NULL and *n = 0 if the ELF has none. */
const cy_symbol *cy_vm_symbols(const cy_vm *vm, size_t *n);
/* The Linux name of syscall nr ("write"), NULL if cyclops knows none. */
const char *cy_syscall_name(uint32_t nr);

/* The call-stack profiler: an observer that follows calls and returns and
 * charges every cycle to the stack that spent it, aggregated by distinct
 * stack. It belongs to its VM's life: read it while the VM exists, and free
 * it after cy_vm_destroy (the VM keeps calling it while it runs). */
typedef struct cy_callstack cy_callstack;

typedef enum cy_frame_kind {
	CY_FRAME_FUNCTION, /* a function symbol */
	CY_FRAME_UNKNOWN,  /* code outside every function symbol: "[unknown]" */
	CY_FRAME_ECALL,    /* the ecall instruction: "[ecall NAME]" */
	CY_FRAME_PAGE_IN,  /* paging models: "[page-in]" */
	CY_FRAME_PAGE_OUT, /* "[page-out]" */
	CY_FRAME_SEGMENT,  /* a segment's fixed cycles: "[segment]" */
	/* a function inlined into another (DWARF's inlined subroutines): the
	 * profile writers' stacks have them, the profiler's tree never does */
	CY_FRAME_INLINED,
} cy_frame_kind;

/* One distinct stack: a node of the call tree. */
typedef struct cy_stack_node {
	int parent;     /* the caller's node; -1 for the outermost frames */
	unsigned depth; /* 0 for the outermost frames */
	cy_frame_kind kind;
	const char *name;                        /* symbol name or "[...]" */
	uint32_t addr, size;                     /* FUNCTION: the symbol; ECALL: addr = number */
	uint64_t self_cycles, self_instructions; /* spent in this frame itself */
	uint64_t cycles, instructions;           /* inclusive: with every node under it */
	/* the call instruction in the parent's function that made the frame
	 * (a tail call's: the first call's); 0 for the outermost frames and
	 * the pseudo-frames. Calls from two sites are two nodes. */
	uint32_t call_pc;
} cy_stack_node;

/* Cycles and instructions retired at one pc. */
typedef struct cy_pc_cost {
	uint32_t pc;
	uint64_t cycles, instructions;
} cy_pc_cost;

/* Cycles and instructions retired at one pc on one stack (node). A
 * pseudo-frame's node has the pcs of the instructions that cost it. */
typedef struct cy_node_pc_cost {
	uint32_t node, pc;
	uint64_t cycles, instructions;
} cy_node_pc_cost;

/* One call, from the clock at its start to its return, on the node it ran
 * as (cy_callstack_call_spans). */
typedef struct cy_call_span {
	uint32_t node;
	uint64_t start, end;
	bool open; /* not returned: end is the clock now */
} cy_call_span;

/* Calls from one call site to one function, with the cycles from the call
 * to the return (a tail call is charged to the first call's site). */
typedef struct cy_call_edge {
	uint32_t call_pc, callee; /* callee: the function's start */
	uint64_t calls, cycles, instructions;
} cy_call_edge;

/* The profiler's tables are bounded (docs/robustness.md#limits): a guest
 * can make as many distinct stacks as it likes with function pointers, and
 * as many distinct pcs with self-modifying code. Past a limit nothing
 * fails and the tree still holds every cycle: a new stack is charged to
 * its caller's node (a new outermost one to the first outermost node), as
 * is a new ecall number's frame; a new pc's cycles are left out of
 * cy_callstack_pcs (and counted in cy_callstack_limits); a new call site
 * gets no edge. Each table warns the first time (unless opts.quiet).
 * Memory at the limits: the tree 80 MiB (64 bytes a node, 16 of hash),
 * the pcs 80 MiB (24 + 16 a pc), the call edges 48 MiB (32 + 16); the
 * sorted copies cy_callstack_pcs and cy_callstack_calls hand out 48 and
 * 32 MiB more. Real guests use a few dozen ecall numbers. */
#define CY_CALLSTACK_MAX_NODES  (1u << 20) /* distinct stacks: nodes of the tree */
#define CY_CALLSTACK_MAX_PCS    (1u << 21) /* distinct (stack, pc), then pcs */
#define CY_CALLSTACK_MAX_CALLS  (1u << 20) /* distinct call sites and callees */
#define CY_CALLSTACK_MAX_ECALLS 4096       /* distinct ecall numbers ([ecall N] frames) */

typedef struct cy_callstack_limits {
	bool nodes_full, pcs_full, calls_full; /* the table reached its limit */
	bool ecalls_full;
	/* the (stack, pc) table reached CY_CALLSTACK_MAX_PCS: from then on the
	 * costs are per pc only, and cy_callstack_node_pcs has none */
	bool per_pc;
	uint64_t lost_pc_cycles, lost_pc_instructions; /* not in cy_callstack_pcs */
} cy_callstack_limits;

/* Attaches a profiler to vm (before it runs); 0 or a negative errno. */
int cy_callstack_attach(cy_vm *vm, cy_callstack **out);
/* How a profiler follows vm (docs/scale-out.md): WHOLE is what
 * cy_callstack_attach makes; STACK_ONLY keeps the shadow stack and no
 * tables (what a chunked run's fast pass needs to start each chunk);
 * DETACHED follows nothing: chunks' results are merged into it
 * (cy_chunk_merge), and vm only gives it its symbols and the final clock. */
typedef enum cy_callstack_mode {
	CY_CALLSTACK_WHOLE,
	CY_CALLSTACK_STACK_ONLY,
	CY_CALLSTACK_DETACHED,
} cy_callstack_mode;
int cy_callstack_attach_mode(cy_vm *vm, cy_callstack_mode mode, cy_callstack **out);
void cy_callstack_free(cy_callstack *cs);
/* The call tree, a parent before its children; NULL if the profiler ran out
 * of memory (nothing it gathered can be trusted then). */
const cy_stack_node *cy_callstack_nodes(cy_callstack *cs, size_t *n);
/* Every pc that retired an instruction, by pc. */
const cy_pc_cost *cy_callstack_pcs(cy_callstack *cs, size_t *n);
/* The same per stack: every (node, pc), by node, then pc. A node's pcs
 * add up to its self cycles. Empty past the table's limit (per_pc). */
const cy_node_pc_cost *cy_callstack_node_pcs(cy_callstack *cs, size_t *n);
/* The longest calls, in the order they started: every call (and tail-call
 * frame) of at least *threshold cycles, the outermost frames included; the
 * threshold starts at CY_CALLSTACK_SPAN_MIN and doubles whenever more than
 * CY_CALLSTACK_MAX_SPANS calls reach it, so that the longest stay. */
#define CY_CALLSTACK_SPAN_MIN  1
#define CY_CALLSTACK_MAX_SPANS (1u << 16)
const cy_call_span *cy_callstack_call_spans(cy_callstack *cs, size_t *n, uint64_t *threshold);
/* Whether the profiler keeps those calls: on from the attach. Off (before
 * the VM runs), it keeps none and cy_callstack_call_spans lists none: a
 * run that writes no timeline is spared the list (up to 2 MiB) and its
 * sort. The rest of the profile is the same either way. */
void cy_callstack_keep_spans(cy_callstack *cs, bool keep);
/* Every call site and callee, by call site; calls still open count to now. */
const cy_call_edge *cy_callstack_calls(cy_callstack *cs, size_t *n);
/* Whether a table reached its limit; *out says which, and what the pcs lost. */
bool cy_callstack_truncated(cy_callstack *cs, cy_callstack_limits *out);
/* Paging models: the clock at which each segment started, in order (none
 * for other models); NULL when the profiler ran out of memory for them. */
const uint64_t *cy_callstack_segments(cy_callstack *cs, size_t *n);
/* The functions the profiler's frames are named for, by address: the
 * sized symbols, and the entry point's label when it has no size (up to
 * the next symbol); the array belongs to the profiler. */
const cy_symbol *cy_callstack_functions(const cy_callstack *cs, size_t *n);
/* PC sampling (docs/sampling.md): every opts.sample_interval cycles the
 * instruction executing gets one count in a histogram indexed by pc. */
/* Allocates and zeroes the histogram and starts sampling now. */
int cy_vm_sample_start(cy_vm *vm);
/* Whether a histogram exists (started, not stopped by the guest). */
bool cy_vm_sampling(const cy_vm *vm);
/* Writes it to path atomically (format: include/cyclops_samples.h). */
int cy_vm_sample_save(cy_vm *vm, const char *path, char *err, size_t err_size);

/* Checkpoints (docs/scale-out.md): the whole state of a VM and of its
 * profilers in one file, from which a VM created from the same program
 * with the same options goes on exactly as the first one would have. */

/* A client's own part of a checkpoint: a four-byte tag and its bytes,
 * kept as they are (cy_checkpoint_section reads them back). */
typedef struct cy_section {
	char tag[4];
	const void *data;
	size_t len;
} cy_section;

/* What a checkpoint holds, and what cutting it found. */
typedef struct cy_checkpoint_info {
	uint64_t index;           /* its number in the run */
	uint64_t base;            /* the checkpoint its memory is a delta of; 0: whole */
	uint64_t cycles, instret; /* the clock at it */
	uint64_t pages_scanned;   /* resident pages looked at (when cut) */
	uint64_t pages_written;   /* pages whose bytes it holds (when cut) */
	uint64_t pages_zeroed;    /* pages that read as zero again (when cut) */
	uint64_t raw_bytes;       /* its contents before compression */
	uint64_t file_bytes;      /* its size */
} cy_checkpoint_info;

/* Whether a checkpoint can be cut now: not inside a zkVM unconstrained
 * block (a checkpoint waits for its end). */
bool cy_vm_can_checkpoint(const cy_vm *vm);
/* Cuts a checkpoint of vm (between two runs) and of cs when not NULL,
 * with the client's sections, into a malloc'd blob: guest memory as the
 * pages changed since vm's previous checkpoint, or all of it when full (a
 * VM's first, and the first after a restore, are whole). index numbers it
 * (the next one's base). 0, or -errno with the reason in err (-EBUSY:
 * cy_vm_can_checkpoint is false). */
int cy_checkpoint_cut(cy_vm *vm, cy_callstack *cs, uint64_t index, bool full,
		      const cy_section *extra, size_t n_extra, uint8_t **blob, size_t *size,
		      cy_checkpoint_info *info, char *err, size_t err_size);
/* A checkpoint's bytes read back, checked (its name in every message: a
 * file that is not a checkpoint, of another version, cut short or
 * damaged is refused with the reason) and unpacked. */
typedef struct cy_checkpoint cy_checkpoint;
int cy_checkpoint_open(const void *blob, size_t size, const char *name, cy_checkpoint **out,
		       char *err, size_t err_size);
void cy_checkpoint_close(cy_checkpoint *ck);
void cy_checkpoint_get_info(const cy_checkpoint *ck, cy_checkpoint_info *info);
/* A client's section's bytes; NULL when the checkpoint has none. */
const void *cy_checkpoint_section(const cy_checkpoint *ck, const char tag[4], size_t *len);
/* Applies ck's memory to vm's: every page when ck is whole, the pages
 * that changed when it is a delta. Applying a whole checkpoint and the
 * deltas after it, in order, rebuilds the memory of the last one. */
int cy_vm_restore_memory(cy_vm *vm, const cy_checkpoint *ck, char *err, size_t err_size);
/* Restores everything but memory from ck: the registers, clock, ABI,
 * cost model and counters, and each profiler's state (cs's when not
 * NULL). vm must come from the same program and options as the VM that
 * was cut (a section vm has no module for is ignored; a module without a
 * section is an error). A fast pass's checkpoint (opts.fast_pass)
 * restored into a VM with whole profilers starts a chunk. */
int cy_vm_restore_state(cy_vm *vm, cy_callstack *cs, const cy_checkpoint *ck, char *err,
			size_t err_size);
/* A chunk's results: its profilers' state after it, into a malloc'd blob. */
int cy_chunk_results(cy_vm *vm, cy_callstack *cs, uint64_t index, uint8_t **blob, size_t *size);
/* Adds a chunk's results to vm's (the fast pass's, opts.fast_pass) and
 * cs's (CY_CALLSTACK_DETACHED), which hold the chunks before it: then they
 * are what profilers over the whole run would hold. 0, or -errno with the
 * reason in err (-EINVAL for a table's limit inside the chunk: its results
 * depend on what it could not know; docs/scale-out.md). */
int cy_chunk_merge(cy_vm *vm, cy_callstack *cs, const void *blob, size_t size, char *err,
		   size_t err_size);

/* The guest's host I/O in a chunked run (docs/scale-out.md): the fast pass
 * records what each of the guest's reads, writes and fstats returned (and
 * a read's bytes); a chunk replays that, so that it touches no host file
 * and its guest sees what the fast pass's saw. cy_vm_journal_take hands
 * over what was recorded since the last take (malloc'd); replaying past
 * the end, or an entry of another kind, stops the run with a host fault. */
void cy_vm_journal_record(cy_vm *vm);
int cy_vm_journal_take(cy_vm *vm, uint8_t **bytes, size_t *len);
int cy_vm_journal_replay(cy_vm *vm, const void *bytes, size_t len);
/* Bytes of the replayed journal not consumed yet (0 when a chunk did what
 * its fast pass did). */
size_t cy_vm_journal_left(const cy_vm *vm);

/* The translation tier in a chunked run (docs/scale-out.md): the fast pass
 * hands the regions it translated to the workers, which load them before
 * they fork a chunk's process, so that every chunk runs translated from
 * its start instead of interpreting until its own regions are made.
 * cy_vm_jit_take: the regions loaded since the last take, as bytes
 * (malloc'd; NULL, 0 when none or without the tier). cy_vm_jit_load: loads
 * them for vm's own interpreter, from the cache or compiled (and waited
 * for) when the cache lacks them; -EINVAL when the bytes are not a take's.
 * cy_vm_jit_compile_off: vm compiles nothing more (a chunk's process). */
int cy_vm_jit_take(cy_vm *vm, uint8_t **bytes, size_t *len);
int cy_vm_jit_load(cy_vm *vm, const void *bytes, size_t len);
void cy_vm_jit_compile_off(cy_vm *vm);

/* Bare-metal firmware (docs/bare-metal.md). */
cy_platform cy_vm_platform(const cy_vm *vm);
const char *cy_platform_name(cy_platform platform);
/* Parses "linux", "bare" or "auto"; 0 if valid. */
int cy_platform_parse(const char *text, cy_platform *out);

/* The compliance tests' signature: [begin_signature, end_signature) from
 * the ELF's symbols (riscv-arch-test, RISCOF); 0, or -ENOENT when the ELF
 * lacks one of them or they are out of order. */
int cy_vm_signature(const cy_vm *vm, uint32_t *begin, uint32_t *end);

/* Traps taken so far and the trap CSRs now; all 0 on the linux platform. */
typedef struct cy_machine_stats {
	uint64_t exceptions;          /* synchronous traps (illegal instruction, ecall, ...) */
	uint64_t interrupts;          /* timer and software interrupts taken */
	uint64_t mcause, mepc, mtval; /* XLEN bits wide */
	unsigned xlen;
} cy_machine_stats;
void cy_vm_machine_stats(const cy_vm *vm, cy_machine_stats *out);
/* "illegal instruction", "timer interrupt", ... for an mcause value;
 * "trap" for one the platform never raises. */
const char *cy_trap_name(uint64_t mcause);

#ifdef __cplusplus
}
#endif
#endif

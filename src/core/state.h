/* state.h - the inside of a cy_vm: registers, clock, memory, the block
 * cache and the hooks through which the ABI, the cost model and the
 * observers plug in. Data only: the functions are in the headers of the
 * files that own them (vm.h, block.h, exec.h, ...). Nothing here is part
 * of the embedding API (include/cyclops.h). */
#ifndef CY_STATE_H
#define CY_STATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/account.h"
#include "core/cost_model.h"
#include "core/counters.h"
#include "core/isa.h"
#include "core/journal.h"
#include "core/mem.h"
#include "core/output.h"
#include "core/symbols.h"
#include "cyclops.h"
#include "util/index_map.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cyclops keeps guest memory in host byte order: little-endian hosts only"
#endif

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* A basic block: decoded once, run many times. next[] caches the blocks that
 * followed it (0: fall-through/not taken, 1: taken/jump target). */
struct block {
	uint32_t pc;
	uint32_t end;      /* address after the last instruction */
	uint32_t n;        /* instructions, the closing pseudo-op included */
	uint32_t max_cost; /* most cycles one pass can cost, static costs only */
	/* ... with the data accesses' wait states, misaligned extras and page
	 * touches at their worst: the inline interpreters' bound */
	uint64_t max_worst;
	/* the paging epoch in which the block's code pages were all loaded
	 * (cost_state.epoch); UINT64_MAX: not known to be */
	uint64_t code_epoch;
	struct block *next[2];
	/* the accounting interpreter's counts (core/account.h): whole runs,
	 * and of them the runs whose closing branch was taken */
	uint64_t runs, taken;
	/* the sampler's (observe/sample.c): whole runs sampled at every cycle */
	uint64_t sampled;
	uint8_t flags; /* the subscribers' (acct_decoded) */
	/* control came here from another block (a jump, a branch, a fall
	 * through, a translated region's exit), not only where an
	 * interpreter's run began: a leader, where a block that starts where
	 * a run was sliced is a suffix of one (the translation tier's
	 * regions keep leaders, jit.c) */
	bool entered;
	/* the accounting interface's list of blocks that ran (struct
	 * acct_ran): the block is listed while this is the list's mark */
	uint32_t ran;
	/* the call-stack profiler's own index for the block (its known
	 * block), set when it is decoded (acct_decoded) */
	uint32_t tag;
	struct insn insns[];
};

#define BLOCK_MAX_INSNS 64
_Static_assert(BLOCK_MAX_INSNS < 255, "insn.index is a byte");

#define JUMP_CACHE_SIZE   4096
#define SINGLE_CACHE_SIZE 1024

/* Decoded blocks live in one arena, found through an open-addressing hash
 * on their start pc; both are emptied together when code changes. */
struct block_cache {
	struct block **table;
	uint32_t mask;
	uint32_t used;
	uint8_t *arena;
	size_t arena_size, arena_used;
	uint32_t generation; /* bumped by every flush */
	/* one byte per CODE_CHUNK of guest memory: CODEMAP_CODE, CODEMAP_WATCHED */
	uint8_t *codemap;
	uint32_t *marked; /* chunks with CODEMAP_CODE, to clear them fast */
	size_t n_marked, cap_marked;
	/* single-instruction blocks, for stepping near a budget */
	struct block *singles[SINGLE_CACHE_SIZE];
	/* direct-mapped pc -> block, for jumps whose target varies (returns) */
	struct block *jump_cache[JUMP_CACHE_SIZE];
	/* the interpreter's handler addresses that decoded blocks point to */
	const void *const *handlers;
};

#define CODE_CHUNK_SHIFT 10
/* the chunks that can hold code (and the one past them) */
#define CODE_CHUNKS ((MEM_CODE_LIMIT >> CODE_CHUNK_SHIFT) + 1)
/* The code map's bits: the chunk holds decoded code (a store into it
 * flushes the cache), or a range the accounting interface watches
 * (acct_watch: a store into it is reported). A store tests both at once. */
#define CODEMAP_CODE    1u
#define CODEMAP_WATCHED 2u
#define JUMP_CACHE_SIZE 4096 /* 1 KiB: code and data rarely share one */

/* SP1's memory rows (cost/touch.c, docs/cost-models.md "sp1-gas"): what
 * the current chunk has touched, SP1's clock, and the totals. */
enum touch_kind {
	TOUCH_WORDS,  /* n 8-byte words from addr */
	TOUCH_REGS,   /* the registers of the mask n */
	TOUCH_FORGET, /* n words from addr that count again (a hint rewrote them) */
	TOUCH_ENTRIES /* n more entries of SP1's trace */
};

struct touch_leaf;

struct touch_state {
	uint64_t epoch;   /* the chunk, from 1; a leaf of another is empty */
	uint64_t entries; /* the chunk's trace entries so far */
	uint32_t regs;    /* the registers it touched, bit r */
	size_t n_top;
	struct touch_leaf **top; /* per TOUCH_LEAF_SHIFT of guest memory */
	uint64_t clk;            /* SP1's clock before the next instruction */
	uint64_t cycles, touches, chunks, clock_bumps, state_bumps;
};

/* The running account of a detailed cost model (cost.c): paging state of
 * the current segment and the totals. */
struct cost_state {
	bool detailed;          /* costs depend on addresses: exec_detailed */
	uint32_t taken_extra;   /* a taken branch over a not-taken one */
	int32_t div_zero_delta; /* dividing by zero over dividing */
	uint64_t seg_start;     /* clock at the start of the current segment */
	uint64_t seg_capacity;
	uint64_t segments, paging, reserved, pages_in, pages_out;
	uint32_t page_shift;
	uint8_t *loaded, *dirty; /* Merkle tree nodes, heap-numbered bitmaps */
	/* the same leaves a byte per page (PAGE_LOADED, PAGE_DIRTY in
	 * pages.h), which translated code tests with one byte read and no bit
	 * arithmetic; NULL but under a paging model */
	uint8_t *pages;
	/* bumped whenever pages leave the bitmaps (a new segment): a block
	 * whose code pages were loaded in this epoch still has them */
	uint64_t epoch;
	size_t bitmap_bytes;
	/* the bytes of the bitmaps made non-zero since they were last cleared,
	 * so that a new segment clears those alone (a segment touches a few
	 * hundred pages of millions); past PAGING_MARKED of them, or after a
	 * restore, marked_lost: the next segment clears them whole */
	uint32_t *marked;
	size_t n_marked;
	bool marked_lost;
	cy_cost_parts parts; /* of the instruction being executed */
	/* Before each instruction of the detailed interpreter (cost/detailed.c):
	 * accounts the address-dependent costs (and starts a new segment when
	 * the instruction would not fit), fills parts, returns the cycles to
	 * add. NULL for models without them. */
	uint32_t (*before)(struct cy_vm *vm, const struct insn *in, uint64_t now);
	struct touch_state touch;
	/* What a syscall touches, for the memory rows (the ABI calls it as the
	 * call runs): returns the cycles to add. NULL without them. */
	uint64_t (*touch_hook)(struct cy_vm *vm, enum touch_kind kind, uint64_t addr, uint64_t n);
};

struct observer {
	unsigned mask;
	cy_event_fn fn;
	void *ctx;
};

#define MAX_OBSERVERS 8

struct cy_vm {
	/* the registers: x at XLEN 32, x64 at XLEN 64 (vm_reg reads either) */
	union {
		uint32_t x[REG_SINK + 1];
		uint64_t x64[REG_SINK + 1];
	};
	unsigned xlen; /* 32 or 64: the ELF's class */
	uint32_t pc;
	uint32_t last_pc; /* what the interpreter last ran before pc (exec_loop.h) */
	uint32_t entry;   /* the ELF's entry point, where the run began */
	/* the cycles of the CSR instruction being executed, its dynamic costs
	 * included: a counter written gets the value after it (counters.c) */
	uint32_t insn_cycles;
	uint64_t cycles;  /* the active cost model's clock */
	uint64_t instret; /* instructions retired */
	/* cycles run in zkVM unconstrained blocks and taken off the clock at
	 * their exit: --max-cycles bounds the clock and these together */
	uint64_t undone_cycles;
	/* misaligned data accesses, in total and by pc (vm_misaligned) */
	struct {
		uint64_t total, lost;
		struct index_map map; /* pc -> sites[i] */
		cy_misaligned_site *sites;
		cy_misaligned_site *sorted; /* by pc, made by cy_vm_misaligned */
	} misaligned;
	bool clock_moved_back; /* ends the slice: its limit was for the old clock */
	/* A stretch of guest code that no count may see: a zkVM unconstrained
	 * block (abi/syscall_zkvm.c, docs/zkvm.md). The ABI turns it on and
	 * off; meanwhile the plain interpreter runs (exec.c), so no
	 * subscriber, observer, sampler, counter or paging account hears of
	 * it, and the guest's output carries the clock the ABI says. The ABI
	 * puts the clock back when it ends; a run that stops inside one shows
	 * the clock at its start (api/session.c). */
	struct unaccounted {
		bool on;
		bool started;             /* its first run began: the clock below is set */
		uint64_t cycles, instret; /* the clock when it began */
		uint64_t output_cycles;   /* the clock the guest's output carries */
	} unacc;
	/* a subscriber (the debugger) asks cy_vm_run to return at the end of
	 * this block, as if its budget were spent (with break_loop) */
	bool pause;
	/* the highest clock before the clock last moved back, since the
	 * sampler last looked: the fast pass's sampler keeps its phase by it */
	uint64_t clock_peak;

	struct mem mem;
	struct block_cache cache;
	struct cost_model model;
	struct cost_state cost;
	struct symtab syms;
	cy_opts opts;
	char *name; /* the program's path or name, for messages */

	/* Why the interpreter loop must return at the next block boundary. */
	bool break_loop;
	bool flush_pending;
	/* set by cy_vm_interrupt, possibly from a signal handler; cy_vm_run
	 * runs in slices of CY_INTERRUPT_CYCLES and looks between them */
	volatile sig_atomic_t interrupt;
	uint64_t memory_check_at; /* the clock of the next --max-memory check */
	cy_stop stop;
	cy_fault fault;
	int exit_code;
	/* the address a faulting instruction reached for (FAULT_AT in exec.c):
	 * a data access past the space, a jump past 4 GiB */
	uint64_t fault_addr;
	bool fault_has_addr;
	char stop_message[256];

	uint64_t resv_addr; /* lr.w/lr.d reservation */
	bool resv_valid;

	/* Linux user ABI state */
	uint64_t brk_start, brk;
	uint64_t start_realtime_ns;
	uint8_t warned_syscalls[64]; /* one bit per syscall number < 512 */
	bool warned_high_syscall;

	struct observer observers[MAX_OBSERVERS];
	int n_observers;
	unsigned obs_mask;
	struct acct acct; /* the profilers' accounting interface (account.h) */
	/* the translation tier (core/jit.c); NULL when it is off */
	struct jit *jit;
	/* told of each block the cache decodes (the tier's, when it is on) */
	void (*block_decoded)(struct cy_vm *vm, struct block *b);
	/* the tier's driver (jit_run) runs the interpreter and takes a
	 * translated block's entry (jit_enter) from it; else the interpreter
	 * runs through such entries. And whether it did return there */
	bool jit_driving, jit_entered;

	/* The ABI: syscall_linux or syscall_zkvm, picked at creation. A
	 * syscall that sets ecall_redirect resumes at ecall_next_pc. */
	void (*syscall)(struct cy_vm *vm);
	struct zkvm *zkvm; /* zkVM ABI state; NULL for Linux guests */
	bool ecall_redirect;
	uint32_t ecall_next_pc;

	struct output_filter output; /* the guest's stdout/stderr pass it (output.c) */
	uint32_t out_last_fd;        /* the stream the guest's output last reached; 0: none */
	uint8_t out_last_byte;       /* and the last byte it wrote there */
	struct journal journal;      /* a chunked run's host I/O (journal.c) */
	/* ecall numbers the ABI leaves to a module (the sampler's calls):
	 * call returns what goes into a0 */
	struct ecall_extension {
		uint32_t first, last;
		int32_t (*call)(struct cy_vm *vm, uint32_t nr);
	} ecall_ext;

	struct tracker *tracker; /* the cycle-tracking protocol; NULL: off */
	struct counters ctr;     /* the performance counter CSRs (counters.c) */
	uint64_t chunks;         /* cy_vm_run_chunk calls so far */
	struct timers *timers;   /* the channel timers (timer.c); NULL: off */

	/* PC sampling (sample.c): the last instruction that retired, stored
	 * by the interpreter when a slice ends, never per instruction */
	uint32_t retired_pc;
	struct sampler *sampler;
	struct machine *machine; /* the bare platform (machine.c); NULL: linux */
	/* page protections and user-level traps (prot.c): SP1 v6's
	 * untrusted-programs mode; NULL: none */
	struct prot *prot;
	/* checkpoints (api/checkpoint.c): the page hashes of the last one cut,
	 * against which the next one's memory is a delta, and its index */
	struct mem_snapshot *memsnap;
	uint64_t memsnap_index;
	bool has_tohost; /* the ELF's HTIF symbols (elf_load.c) */
	uint32_t tohost, fromhost;
	/* begin_signature and end_signature, the compliance tests' results */
	bool has_signature_begin, has_signature_end;
	uint32_t signature_begin, signature_end;
};

#endif

/* jit.h - the translation tier: hot guest code compiled to host code with
 * libgccjit (jit_gen.c), run by a driver beside the interpreter (jit.c).
 * docs/jit.md describes it, docs/decisions.md says why it is built so. */
#ifndef CY_JIT_H
#define CY_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cy_vm;
struct block;
struct acct_hist;
struct acct_ran;

/* Why a translated region returned (jit_frame.exit). */
enum jit_exit {
	JIT_EXIT_JUMP,         /* to frame.pc, which the region does not hold */
	JIT_EXIT_BUDGET,       /* the block at frame.pc does not fit the budget */
	JIT_EXIT_BEFORE,       /* the instruction at frame.pc faults: the interpreter says how */
	JIT_EXIT_CODE_WRITTEN, /* a store changed decoded code; frame.pc is the next instruction */
	/* the instruction at frame.pc costs more than its static cost under
	 * the detailed model (JIT_COST_*): the interpreter runs it */
	JIT_EXIT_COST,
};

/* The one argument of a translated region. The generated code reads and
 * writes it through a struct of the same fields in the same order
 * (jit_gen.c), every field 8 bytes wide so that there is no padding. */
struct jit_frame {
	uint8_t *regs; /* vm->x or vm->x64 */
	uint8_t *mem;
	const uint8_t *codemap;
	struct cy_vm *vm;
	/* misaligned accesses, counted by the region's instruction index
	 * (the driver hands them to vm_misaligned_n when seen is set) */
	uint64_t *misaligned;
	uint64_t cycles, instret, budget;
	uint64_t pc;         /* in: where to start; out: where to go on */
	uint64_t last_pc;    /* out: the last instruction run (vm->last_pc) */
	uint64_t retired_pc; /* out: the last one that retired (vm->retired_pc) */
	uint64_t exit;       /* out: enum jit_exit */
	/* the accounting interface (account.h), for regions made with
	 * JIT_DESC_ACCT: the region's decoded blocks by index, vm->acct's
	 * fields the interpreter reads at a block's end, and the calls out */
	struct block **blocks;
	uint64_t events;          /* vm->acct.events when the region was entered */
	const uint64_t *deadline; /* &vm->acct.deadline */
	const uint32_t *context;  /* &vm->acct.ctx_lo (ctx_size follows) */
	bool *has_last;           /* &vm->acct.has_last */
	uint32_t *last_transfer;  /* &vm->acct.last_from (last_to follows) */
	const bool *break_loop;   /* &vm->break_loop */
	void (*transfer_fn)(struct cy_vm *vm, struct block *b, uint32_t index, uint32_t target,
			    uint64_t cycles, uint64_t instret);
	void (*flagged_fn)(struct cy_vm *vm, struct block *b, uint32_t retired, uint64_t instret);
	void (*partial_fn)(struct cy_vm *vm, struct block *b, uint32_t retired, uint64_t cycles,
			   uint64_t instret, uint64_t now);
	uint64_t misaligned_seen; /* out: a misaligned access was counted */
	/* the accounting variant: the histogram it counts samples into
	 * (&vm->acct.hist), and where the region left for the driver to make
	 * the accounting interface's calls that it does not make itself
	 * (acct_stage, enum jit_acct; the clock and instret are past the
	 * block's run, or its partial run's) */
	const struct acct_hist *hist;
	uint64_t acct_stage;
	uint64_t acct_block;   /* the block's index in the region */
	uint64_t acct_retired; /* the instructions of its run that retired */
	uint64_t acct_from;    /* the clock at its start */
	uint64_t acct_target;  /* the jump's target (JIT_ACCT_TARGET) */
	uint64_t acct_flags;   /* JIT_ACCT_TAKEN, JIT_ACCT_TARGET, JIT_ACCT_PLAIN */
	/* a paging model (JIT_COST_PAGING): the current segment's byte per
	 * page (cost_state.pages: PAGE_LOADED, PAGE_DIRTY); it does not
	 * change while a region runs */
	const uint8_t *pages;
	/* &vm->acct.ran: a block whose whole run it counts, it lists */
	struct acct_ran *ran;
	/* JIT_DESC_PHASES: the region's phase table, JIT_PHASE_ROW counts per
	 * block (the runs of block k whose first sample falls p + 1 cycles
	 * after their start are at k * JIT_PHASE_ROW + p, taken ones
	 * JIT_PHASES_MAX further) */
	uint64_t *phases;
};

/* What the driver reports when an accounting region returns
 * (jit_frame.acct_stage), in the exec_acct interpreter's order: from the
 * block end's deadline on (a sample the generated code could not count),
 * from its transfer on (the transfer is reported: an inner loop's branch,
 * whose counts wait in locals), its flagged call only (the block is
 * flagged), or a partial run (the deadline and the partial run). Other
 * transfers the generated code reports itself (jit_frame.transfer_fn):
 * calls and returns are a profiled run's most frequent edges, and a
 * return to the driver at each cost more than the registers GCC keeps in
 * memory around the call. */
enum jit_acct {
	JIT_ACCT_NONE,
	JIT_ACCT_DEADLINE,
	JIT_ACCT_TRANSFER,
	JIT_ACCT_FLAGGED,
	JIT_ACCT_PARTIAL,
};
#define JIT_ACCT_TAKEN  1u /* a taken branch: its count */
#define JIT_ACCT_TARGET 2u /* the block ends with a jump or taken branch */
#define JIT_ACCT_PLAIN  4u /* ... without a call or return hint */

/* A region as the generator sees it, flat (no pointers), so that it can be
 * hashed, written into the compiled file and compared when the file is
 * loaded again: a header, the blocks, then their instructions. */
#define JIT_DESC_MAGIC   0x4a594331u /* "1CYJ" */
#define JIT_DESC_VERSION 2u
/* The generator's own version, in the description (so in the cache's
 * keys): changed whenever jit_gen.c makes other code from the same
 * blocks. */
#define JIT_GEN_VERSION 40u

/* What of a detailed cost model the generated code depends on: the
 * accesses whose cost is not their static one leave the region before
 * them (the interpreter runs them), all the rest runs translated. Zero
 * for a model whose costs are all static. */
struct jit_desc_cost {
	uint32_t exits;            /* JIT_COST_* */
	uint32_t page_shift;       /* JIT_COST_PAGING: log2 of the page size */
	uint32_t data_lo, data_hi; /* JIT_COST_RANGE: the fast data range */
};
/* an access split over two bus words (cost_model_bus_words) leaves */
#define JIT_COST_SPLIT 1u
/* an access whose first bus word is outside [data_lo, data_hi] leaves */
#define JIT_COST_RANGE 2u
/* an access to a page not loaded (a store: not dirty) in the current
 * segment, or across two pages, leaves, and so does the run into a block
 * whose code pages are not all loaded; the region runs no further than
 * the segment's end (jit_frame.budget) */
#define JIT_COST_PAGING 4u

struct jit_desc_head {
	uint32_t magic, version;
	uint32_t xlen;
	uint32_t taken_extra;   /* a taken branch over a not-taken one */
	int32_t div_zero_delta; /* dividing by zero over dividing */
	uint32_t n_blocks, n_insns;
	uint32_t generator; /* JIT_GEN_VERSION */
	uint32_t flags;     /* JIT_DESC_ACCT */
	/* where struct block keeps what the accounting code counts: a region
	 * made by another build of cyclops never matches */
	uint32_t off_runs, off_taken, off_flags, off_ran;
	uint32_t zero; /* to a multiple of 8 bytes */
	struct jit_desc_cost cost;
};

/* The region reports to the accounting interface as the exec_acct build
 * does (the profilers are on). */
#define JIT_DESC_ACCT 1u
/* With JIT_DESC_ACCT: for subscribers that fold no counts, wait for no
 * clock and want no partial runs (a chunked run's fast pass: the call
 * stack's transfers, the timers' announcement): no deadline checks and no
 * run or taken counts, which cost as much as the guest's own work. */
#define JIT_DESC_LEAN 2u
/* With JIT_DESC_ACCT, not lean: no subscriber waits for a clock (no
 * sampler: vm->acct.deadline stays ACCT_NO_DEADLINE), so the region checks
 * no deadline and counts no samples. Their locals, live through the whole
 * region, took host registers from the guest's (--profile on kernels: a
 * loop's guest registers kept on the stack). */
#define JIT_DESC_NO_DEADLINE 4u
/* With JIT_DESC_ACCT, not lean, with deadlines: no subscriber folds counts
 * (the sampler alone, every N > 1 cycles, which reads no run counts), so
 * the region counts no runs, taken branches or blocks that ran; it still
 * checks the deadline and the flags. */
#define JIT_DESC_NO_COUNTS 8u
/* With deadlines: the sampler takes whole runs by phase (acct.phases), so
 * the region checks no deadline: each block's run adds one to its count
 * in the phase table (jit_frame.phases) at the index of the first sample
 * in it, which the driver hands to the sampler at a fold (acct_phase_runs);
 * the deadline it leaves in the frame is the first past what it counted. */
#define JIT_DESC_PHASES 16u
/* A phase table's row per block of the region: the runs by phase, for a
 * fall-through or not-taken end, then for a taken branch's (which costs
 * taken_extra more), each of JIT_PHASES_MAX phases (ACCT_PHASES_MAX: the
 * largest interval the sampler counts by phases). */
#define JIT_PHASES_MAX 64u
#define JIT_PHASE_ROW  (2u * JIT_PHASES_MAX)

struct jit_desc_block {
	uint32_t pc, max_cost, first; /* first: its first instruction's index */
	uint16_t n, flags;            /* JIT_BLOCK_* */
};

/* An entry: the run may come into the region at this block (the
 * function's start, a loop's head, the return point of a call, a block no
 * other block of the region leads to); only these the interpreter enters
 * the region through, which keeps the compiled function's graph small. */
#define JIT_BLOCK_ENTRY 1u
/* The accounting variants: a subscriber flagged the block when the region
 * was made; only such blocks make the flagged call (lean) or leave for the
 * driver to make it (the others), and the region runs only while the blocks
 * are flagged as they were. */
#define JIT_BLOCK_FLAGGED 2u

struct jit_desc_insn {
	uint32_t pc;
	int32_t imm;
	uint32_t before, after;
	uint8_t op, rd, rs1, rs2, len, index, pad[2];
};

_Static_assert(sizeof(struct jit_desc_head) == 72 && sizeof(struct jit_desc_block) == 16 &&
		   sizeof(struct jit_desc_insn) == 24,
	       "the description has no padding: it is hashed and compared as bytes");

/* The generator (jit_gen.c). Whether libgccjit could be loaded; why not in
 * why. Loaded once, on the first compilation (a run that compiles nothing
 * never maps the library). */
int jit_gen_load(char *why, size_t why_size);
/* Compiles the region described by desc (size bytes) into the shared
 * object path; 0, or -1 with the reason in why. Thread-safe: one context
 * per call. */
int jit_gen_compile(const void *desc, size_t size, const char *path, char *why, size_t why_size);
/* The symbols every compiled file has. */
#define JIT_SYM_REGION "cyclops_region"
#define JIT_SYM_DESC   "cyclops_region_desc"

/* The driver (jit.c). */
/* Whether the translation tier can run vm now: the plain interpreter would
 * (no profiler subscribed, no observer, static costs only, not the bare
 * platform, no counting) and the host has the tier. */
int jit_attach(struct cy_vm *vm, char *why, size_t why_size);
void jit_free(struct cy_vm *vm);
/* Runs vm up to budget, the interpreter and translated code taking turns;
 * false when the tier cannot run vm now (engine_run then interprets). */
_Bool jit_run(struct cy_vm *vm, uint64_t budget);
/* The block cache was emptied: translations stay (they are keyed by the
 * guest code they were made from), their entries into decoded blocks go. */
void jit_cache_flushed(struct cy_vm *vm);
/* A block was decoded: if a translation starts at its pc, the block's
 * first instruction leads the interpreter there. */
void jit_block_decoded(struct cy_vm *vm, struct block *b);

/* Chunked runs (docs/scale-out.md): the fast pass hands its regions to
 * the workers, which load them before a chunk's process is forked from
 * theirs, so that a chunk runs translated from its start. */
/* The descriptions of the regions loaded since the last call (malloc'd;
 * NULL, 0 when none), each after its size as 4 bytes. */
int jit_regions_take(struct cy_vm *vm, uint8_t **bytes, size_t *len);
/* Loads the regions of such descriptions for vm's interpreter: from the
 * cache, compiling (here, and waiting) those it does not hold. A
 * description this build could not have made is skipped; -EINVAL when
 * the bytes are not such a list. */
int jit_regions_load(struct cy_vm *vm, const uint8_t *bytes, size_t len);
/* From now on vm compiles nothing: a chunk's process ends too soon for a
 * compilation to pay, and its regions are the fast pass's. */
void jit_compile_off(struct cy_vm *vm);

#endif

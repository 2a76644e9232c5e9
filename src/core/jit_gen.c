/* jit_gen.c - turns a region of decoded guest blocks into one host function
 * with libgccjit, written to a shared object: the guest's registers become
 * the function's locals (GCC keeps the hot ones in host registers), each
 * guest block a labelled block that adds its static cost at its end, a
 * direct branch inside the region a goto. What the interpreter does for an
 * instruction, the generated code does the same way (exec_loop.h is the
 * reference; the engines' differential test compares them). libgccjit is
 * loaded with dlopen on the first compilation, so that a run that
 * compiles nothing does not map it. */
#include <dlfcn.h>
#include <libgccjit.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/account.h"
#include "core/isa.h"
#include "core/jit.h"
#include "core/mem.h"
#include "core/pages.h"
#include "core/state.h"

/* The libgccjit entry points the generator uses, found with dlsym. */
#define GCCJIT_FUNCS(_)                                                                            \
	_(context_acquire)                                                                         \
	_(context_release)                                                                         \
	_(context_set_int_option)                                                                  \
	_(context_set_bool_option)                                                                 \
	_(context_add_command_line_option)                                                         \
	_(context_compile_to_file)                                                                 \
	_(context_get_first_error)                                                                 \
	_(context_get_type)                                                                        \
	_(context_get_int_type)                                                                    \
	_(type_get_pointer)                                                                        \
	_(context_new_field)                                                                       \
	_(context_new_struct_type)                                                                 \
	_(struct_as_type)                                                                          \
	_(context_new_param)                                                                       \
	_(context_new_function)                                                                    \
	_(context_get_builtin_function)                                                            \
	_(context_new_array_type)                                                                  \
	_(context_new_function_ptr_type)                                                           \
	_(context_new_global)                                                                      \
	_(global_set_initializer)                                                                  \
	_(function_new_local)                                                                      \
	_(function_new_block)                                                                      \
	_(param_as_rvalue)                                                                         \
	_(param_as_lvalue)                                                                         \
	_(lvalue_access_field)                                                                     \
	_(lvalue_as_rvalue)                                                                        \
	_(lvalue_get_address)                                                                      \
	_(rvalue_dereference_field)                                                                \
	_(rvalue_dereference)                                                                      \
	_(context_new_rvalue_from_long)                                                            \
	_(context_new_rvalue_from_int)                                                             \
	_(context_zero)                                                                            \
	_(context_one)                                                                             \
	_(context_new_binary_op)                                                                   \
	_(context_new_unary_op)                                                                    \
	_(context_new_comparison)                                                                  \
	_(context_new_cast)                                                                        \
	_(context_new_array_access)                                                                \
	_(context_new_call)                                                                        \
	_(context_new_call_through_ptr)                                                            \
	_(context_new_case)                                                                        \
	_(block_add_assignment)                                                                    \
	_(block_add_assignment_op)                                                                 \
	_(block_add_eval)                                                                          \
	_(block_end_with_jump)                                                                     \
	_(block_end_with_conditional)                                                              \
	_(block_end_with_void_return)                                                              \
	_(block_end_with_return)                                                                   \
	_(block_end_with_switch)

#define JIT_DECLARE(name) static __typeof__(&gcc_jit_##name) p_##name;
GCCJIT_FUNCS(JIT_DECLARE)
#undef JIT_DECLARE
/* optional (libgccjit ABI 23): errors go to the run's own warning only */
static __typeof__(&gcc_jit_context_set_bool_print_errors_to_stderr) p_quiet_errors;
#define J(name) p_##name

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[200];

static void load_library(void)
{
	void *h = dlopen("libgccjit.so.0", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(load_error, sizeof(load_error), "cannot load libgccjit.so.0 (%s)",
			 dlerror());
		return;
	}
#define JIT_LOOKUP(name)                                                                           \
	if (!(p_##name = (__typeof__(p_##name))dlsym(h, "gcc_jit_" #name))) {                      \
		snprintf(load_error, sizeof(load_error), "libgccjit.so.0 lacks gcc_jit_%s",        \
			 #name);                                                                   \
		return;                                                                            \
	}
	GCCJIT_FUNCS(JIT_LOOKUP)
#undef JIT_LOOKUP
	p_quiet_errors =
	    (__typeof__(p_quiet_errors))dlsym(h, "gcc_jit_context_set_bool_print_errors_to_stderr");
}

int jit_gen_load(char *why, size_t why_size)
{
	pthread_once(&load_once, load_library);
	if (load_error[0]) {
		snprintf(why, why_size, "%s", load_error);
		return -1;
	}
	return 0;
}

/* The generator's state for one region. */
struct gen {
	gcc_jit_context *c;
	gcc_jit_function *fn;
	const struct jit_desc_head *head;
	const struct jit_desc_block *blocks;
	const struct jit_desc_insn *insns;
	unsigned xlen;
	/* types: tx a register, tsx the same signed, tw/tsw the double width */
	gcc_jit_type *tvoid, *tbool, *tu8, *tu16, *tu32, *tu64, *ti8, *ti16, *ti32, *ti64;
	gcc_jit_type *tx, *tsx, *tw, *tsw, *tu8p, *tvoidp, *tsize;
	gcc_jit_field *f_regs, *f_mem, *f_codemap, *f_vm, *f_misaligned, *f_cycles, *f_instret,
	    *f_budget, *f_pc, *f_last, *f_retired, *f_exit, *f_mis_seen;
	/* the accounting variant (JIT_DESC_ACCT), lean or not (JIT_DESC_LEAN);
	 * deadlines: not lean, and a subscriber waits for a clock (not
	 * JIT_DESC_NO_DEADLINE): the deadline is checked, samples counted */
	bool acct, lean, deadlines;
	/* the full variants (not lean): the blocks' run and taken counts and
	 * the list of those that ran are kept (not JIT_DESC_NO_COUNTS) */
	bool counts;
	gcc_jit_field *f_blocks, *f_events, *f_deadline, *f_context, *f_has_last, *f_last_transfer,
	    *f_break_loop, *f_transfer_fn, *f_flagged_fn, *f_partial_fn;
	/* the accounting variant's exits to the driver (enum jit_acct), and
	 * the histogram it counts samples into (struct acct_hist) */
	gcc_jit_field *f_hist, *f_acct_stage, *f_acct_block, *f_acct_retired, *f_acct_from,
	    *f_acct_target, *f_acct_flags;
	gcc_jit_field *h_counts, *h_lo, *h_size, *h_interval, *h_next, *h_total, *h_last_end,
	    *h_last_pc;
	/* the blocks that ran (struct acct_ran), and in locals its address
	 * and mark (read again after a transfer subscriber's call, whose
	 * hand-over may move it) */
	gcc_jit_field *f_ran, *r_mark, *r_n, *r_cap, *r_lost, *r_list;
	gcc_jit_type *ran_type;
	gcc_jit_function *ran_fn;
	gcc_jit_lvalue *ran_l, *ran_mark_l;
	/* the samples' tables, by a block's cycle (tab_base[k] + cycle - 1 for
	 * block k): the pc of the instruction occupying it, and its end in
	 * the block (UINT32_MAX for the last one: the block's end); NULL when
	 * the region has none (too large) */
	gcc_jit_lvalue *tab_pc, *tab_end;
	uint32_t *tab_base;
	gcc_jit_type *hist_type;
	gcc_jit_lvalue *s_from;
	/* the deadline, a local; the histogram's fields and what the run
	 * counted, in a local struct (st) that the samples' function
	 * (sample_fn, make_sample_fn) reads and writes */
	gcc_jit_lvalue *dl, *dl_next, *st;
	gcc_jit_field *st_dl, *st_total, *st_last_end, *st_counts, *st_interval, *st_last_pc,
	    *st_lo, *st_size;
	gcc_jit_type *st_type;
	gcc_jit_function *sample_fn;
	/* with deadlines, by phases (JIT_DESC_PHASES): no deadline is checked,
	 * each whole run counts in the phase table (ph_tbl) at the phase of
	 * its start, (ph_k - start) & ph_mask, ph_k being a deadline less one;
	 * ph_upto is the clock up to which the runs are counted, the start of
	 * the block under way (the end of the last one counted) */
	bool phases;
	gcc_jit_field *f_phases;
	gcc_jit_lvalue *ph_tbl, *ph_k, *ph_mask, *ph_upto;
	/* the last transfer (ACCT_LAST_TRANSFER): whether there was one */
	gcc_jit_lvalue *lt_any, *lt_from, *lt_to;
	gcc_jit_lvalue *bp; /* the current block's struct block, as bytes */
	/* the full variants: the frame's blocks, a local (one load fewer in
	 * the chain to every block's counts; set for the region's run) */
	gcc_jit_lvalue *blocks_l;
	unsigned k; /* the current block's index */
	/* a block whose branch goes back to its own start (an inner loop):
	 * the runs and taken counts of its runs by that branch are kept in
	 * locals (pend_runs, pend_taken) until the run leaves the block, by
	 * its other way out or out of the region (flush_loop), instead of two
	 * adds to memory per run that each run waits for the last one's.
	 * Nothing reads them meanwhile: such a block makes no call. in_block:
	 * the code made is block k's; self_edge: its branch back is made */
	bool *self_loop, in_block, self_edge;
	gcc_jit_lvalue *pend_runs, *pend_taken;
	gcc_jit_lvalue *events; /* vm->acct.events */
	gcc_jit_rvalue *frame;  /* the parameter */
	gcc_jit_lvalue *r[32];
	/* the clock as the cycles left before the budget (one register for
	 * both; the budget itself is needed at the exits only) */
	gcc_jit_lvalue *left, *instret, *budget, *next, *exit_pc, *reason, *last, *retired;
	gcc_jit_lvalue *mem, *codemap;
	/* a detailed model (the description's cost): the byte per page
	 * (jit_frame.pages) */
	const struct jit_desc_cost *cost;
	gcc_jit_field *f_pages;
	gcc_jit_lvalue *pages;
	gcc_jit_lvalue *tmp8, *tmp16, *tmp32, *tmp64;
	gcc_jit_function *memcpy_fn, *expect_fn;
	gcc_jit_block *cur;                 /* where code goes now */
	gcc_jit_block **labels;             /* one per guest block */
	gcc_jit_block *dispatch, *exit_blk; /* on next, and the common exit */
	bool written[32];                   /* registers the region writes */
	bool used[32];                      /* ... or reads */
	unsigned n_blocks;
	/* unit costs, plain variant: every instruction costs one cycle, so the
	 * instructions retired follow from the cycles and are not counted */
	bool unit;
	/* the budget is checked on the way into a block that is an entry, the
	 * target of a jump back (every loop has one) or far from the last
	 * check: reach[k], the most the run can cost from block k's start to
	 * the next check or exit */
	bool *check;
	uint64_t *reach;
	/* the block's first instruction can leave before it runs (RV64): the
	 * last pcs are kept for it */
	bool *need_prev;
	/* RV64, the block being made: the accesses through one value of a
	 * register are checked against 2^40 once, before the first of them,
	 * for the lowest and the highest offset (leaving before an access
	 * that would not fault is exact: the interpreter goes on from there);
	 * span[i] for the block's instruction i */
	struct span {
		bool first; /* the first access of its group, which checks */
		int64_t lo, hi;
	} span[BLOCK_MAX_INSNS + 1];
	uint32_t block_first; /* the block's first instruction's index */
	/* the plain variant: whether the first instruction of the block being
	 * made was checked on every way in (first_check), so that it does not
	 * leave before itself */
	bool first_checked;
	char name[32];
	unsigned serial;
};

static gcc_jit_block *new_block(struct gen *g, const char *what)
{
	snprintf(g->name, sizeof(g->name), "%s%u", what, g->serial++);
	return J(function_new_block)(g->fn, g->name);
}

static gcc_jit_rvalue *rv(gcc_jit_lvalue *l) { return J(lvalue_as_rvalue)(l); }

static gcc_jit_rvalue *konst(struct gen *g, gcc_jit_type *t, uint64_t v)
{
	return J(context_new_rvalue_from_long)(g->c, t, (long)v);
}

static gcc_jit_rvalue *cast(struct gen *g, gcc_jit_rvalue *v, gcc_jit_type *t)
{
	return J(context_new_cast)(g->c, NULL, v, t);
}

static gcc_jit_rvalue *bin(struct gen *g, enum gcc_jit_binary_op op, gcc_jit_type *t,
			   gcc_jit_rvalue *a, gcc_jit_rvalue *b)
{
	return J(context_new_binary_op)(g->c, NULL, op, t, a, b);
}

static gcc_jit_rvalue *cmp(struct gen *g, enum gcc_jit_comparison op, gcc_jit_rvalue *a,
			   gcc_jit_rvalue *b)
{
	return J(context_new_comparison)(g->c, NULL, op, a, b);
}

static void assign(struct gen *g, gcc_jit_lvalue *l, gcc_jit_rvalue *v)
{
	J(block_add_assignment)(g->cur, NULL, l, v);
}

static void add_to(struct gen *g, gcc_jit_lvalue *l, uint64_t n)
{
	if (n)
		J(block_add_assignment_op)
	(g->cur, NULL, l, GCC_JIT_BINARY_OP_PLUS, konst(g, g->tu64, n));
}

static gcc_jit_lvalue *field(struct gen *g, gcc_jit_field *f)
{
	return J(rvalue_dereference_field)(g->frame, NULL, f);
}

/* Register i's value (x0 reads 0). */
static gcc_jit_rvalue *reg(struct gen *g, unsigned i)
{
	return i == 0 || i == REG_SINK ? J(context_zero)(g->c, g->tx) : rv(g->r[i]);
}

/* Writes v to rd: a write to x0 (REG_SINK) is dropped. */
static void set_reg(struct gen *g, unsigned rd, gcc_jit_rvalue *v)
{
	if (rd == REG_SINK || rd == 0)
		return;
	assign(g, g->r[rd], cast(g, v, g->tx));
}

/* The immediate, sign-extended to XLEN. */
static gcc_jit_rvalue *imm(struct gen *g, const struct jit_desc_insn *in)
{
	return konst(g, g->tx, g->xlen == 64 ? (uint64_t)(int64_t)in->imm : (uint32_t)in->imm);
}

static gcc_jit_rvalue *sx(struct gen *g, gcc_jit_rvalue *v) { return cast(g, v, g->tsx); }

/* A 32-bit value sign-extended to XLEN (the W forms' results). */
static gcc_jit_rvalue *gen_sext32(struct gen *g, gcc_jit_rvalue *v32)
{
	return cast(g, cast(g, cast(g, v32, g->ti32), g->tsx), g->tx);
}

/* if (cond) goto then; else continue in a new block, which becomes cur. */
static gcc_jit_block *branch_to(struct gen *g, gcc_jit_rvalue *cond, const char *what)
{
	gcc_jit_block *then = new_block(g, what), *rest = new_block(g, "cont");

	J(block_end_with_conditional)(g->cur, NULL, cond, then, rest);
	g->cur = rest;
	return then;
}

/* cond, which seldom holds (__builtin_expect): GCC lays the code where it
 * holds out of the way and gives the host's registers to the rest. */
static gcc_jit_rvalue *seldom(struct gen *g, gcc_jit_rvalue *cond)
{
	gcc_jit_type *tl = J(context_get_type)(g->c, GCC_JIT_TYPE_LONG);
	gcc_jit_rvalue *args[2] = { cast(g, cond, tl), J(context_zero)(g->c, tl) };

	return cmp(g, GCC_JIT_COMPARISON_NE, J(context_new_call)(g->c, NULL, g->expect_fn, 2, args),
		   J(context_zero)(g->c, tl));
}

/* branch_to for a way out of the common path: an exit, a fault, a slow
 * case. */
static gcc_jit_block *branch_off(struct gen *g, gcc_jit_rvalue *cond, const char *what)
{
	return branch_to(g, seldom(g, cond), what);
}

/* The clock now. */
static gcc_jit_rvalue *now(struct gen *g)
{
	return bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu64, rv(g->budget), rv(g->left));
}

static void set_now(struct gen *g, gcc_jit_rvalue *cycles)
{
	assign(g, g->left, bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu64, rv(g->budget), cycles));
}

/* The clock moves by n (modulo 2^64: a negative delta moves it back). */
static void advance(struct gen *g, uint64_t n)
{
	if (n)
		J(block_add_assignment_op)
	(g->cur, NULL, g->left, GCC_JIT_BINARY_OP_MINUS, konst(g, g->tu64, n));
}

/* instret += n, unless it follows from the clock (g->unit). */
static void count_retired(struct gen *g, uint64_t n)
{
	if (!g->unit)
		add_to(g, g->instret, n);
}

static void load_bp(struct gen *g);
static gcc_jit_lvalue *block_field(struct gen *g, uint32_t offset, gcc_jit_type *t);

/* The current block's counts kept in locals go to its struct block (see
 * struct gen: self_loop), where the run leaves the block but by its
 * branch back. */
static void flush_loop(struct gen *g)
{
	if (!g->in_block || !g->self_loop[g->k])
		return;
	load_bp(g);
	J(block_add_assignment_op)
	(g->cur, NULL, block_field(g, g->head->off_runs, g->tu64), GCC_JIT_BINARY_OP_PLUS,
	 rv(g->pend_runs));
	J(block_add_assignment_op)
	(g->cur, NULL, block_field(g, g->head->off_taken, g->tu64), GCC_JIT_BINARY_OP_PLUS,
	 rv(g->pend_taken));
	assign(g, g->pend_runs, J(context_zero)(g->c, g->tu64));
	assign(g, g->pend_taken, J(context_zero)(g->c, g->tu64));
}

/* Leaves the region from block blk: the clock and the pcs as given (last
 * 0: the pcs the previous block left). */
static void leave_at(struct gen *g, gcc_jit_block *blk, enum jit_exit why, gcc_jit_rvalue *pc,
		     gcc_jit_rvalue *cycles, uint64_t instret_add, uint32_t last, uint32_t retired)
{
	gcc_jit_block *save = g->cur;

	g->cur = blk;
	flush_loop(g);
	if (cycles)
		set_now(g, cycles);
	count_retired(g, instret_add);
	assign(g, g->exit_pc, cast(g, pc, g->tu64));
	assign(g, g->reason, konst(g, g->tu64, why));
	if (last) {
		assign(g, g->last, konst(g, g->tu64, last));
		assign(g, g->retired, konst(g, g->tu64, retired));
	}
	J(block_end_with_jump)(g->cur, NULL, g->exit_blk);
	g->cur = save;
}

static void leave(struct gen *g, gcc_jit_block *blk, enum jit_exit why, uint64_t pc,
		  gcc_jit_rvalue *cycles, uint64_t instret_add, uint32_t last, uint32_t retired)
{
	leave_at(g, blk, why, konst(g, g->tu64, pc), cycles, instret_add, last, retired);
}

/* The accounting interface's calls, through the frame's pointers. */
static void call(struct gen *g, gcc_jit_field *fn, int n, gcc_jit_rvalue **args)
{
	J(block_add_eval)
	(g->cur, NULL, J(context_new_call_through_ptr)(g->c, NULL, rv(field(g, fn)), n, args));
}

/* A field of the current block (struct block, at the offset the
 * description gives), as an lvalue of type t. */
static gcc_jit_lvalue *block_field(struct gen *g, uint32_t offset, gcc_jit_type *t)
{
	gcc_jit_lvalue *byte =
	    J(context_new_array_access)(g->c, NULL, rv(g->bp), konst(g, g->tu32, offset));

	return J(rvalue_dereference)(
	    cast(g, J(lvalue_get_address)(byte, NULL), J(type_get_pointer)(t)), NULL);
}

/* Whether a subscriber flags the current block now (bp loaded). */
static gcc_jit_rvalue *block_flagged(struct gen *g)
{
	return cmp(g, GCC_JIT_COMPARISON_NE, rv(block_field(g, g->head->off_flags, g->tu8)),
		   J(context_zero)(g->c, g->tu8));
}

/* bp = the current block's struct block, where it is used (at the block's
 * end; in the lean variant only when a subscriber hears of the block). */
static void load_bp(struct gen *g)
{
	assign(g, g->bp,
	       J(lvalue_as_rvalue)(J(context_new_array_access)(
		   g->c, NULL, g->acct && !g->lean ? rv(g->blocks_l) : rv(field(g, g->f_blocks)),
		   konst(g, g->tu32, g->k))));
}

/* if (cond) { code } in the current block: returns the block to fill,
 * which must jump to *join (made here) when done. */
static gcc_jit_block *when(struct gen *g, gcc_jit_rvalue *cond, gcc_jit_block **join)
{
	gcc_jit_block *then = branch_to(g, cond, "acct");

	*join = g->cur;
	g->cur = then;
	return then;
}

static void end_when(struct gen *g, gcc_jit_block *join)
{
	J(block_end_with_jump)(g->cur, NULL, join);
	g->cur = join;
}

/* Leaves the region from blk for the driver to report the block's
 * accounting from `stage` on (enum jit_acct); the clock is past the run
 * already, the exit's pc and pcs as given. */
static void leave_acct_at(struct gen *g, gcc_jit_block *blk, enum jit_acct stage, uint32_t retired,
			  gcc_jit_rvalue *target, unsigned flags, enum jit_exit why,
			  gcc_jit_rvalue *pc, gcc_jit_rvalue *cycles, uint64_t instret_add,
			  uint32_t last, uint32_t ret)
{
	gcc_jit_block *save = g->cur;

	g->cur = blk;
	assign(g, field(g, g->f_acct_stage), konst(g, g->tu64, stage));
	assign(g, field(g, g->f_acct_block), konst(g, g->tu64, g->k));
	assign(g, field(g, g->f_acct_retired), konst(g, g->tu64, retired));
	assign(g, field(g, g->f_acct_from), rv(g->s_from));
	if (target)
		assign(g, field(g, g->f_acct_target), cast(g, target, g->tu64));
	assign(g, field(g, g->f_acct_flags), konst(g, g->tu64, flags));
	blk = g->cur;
	g->cur = save;
	leave_at(g, blk, why, pc, cycles, instret_add, last, ret);
}

static void leave_acct(struct gen *g, gcc_jit_block *blk, enum jit_acct stage, uint32_t retired,
		       gcc_jit_rvalue *target, unsigned flags, enum jit_exit why,
		       gcc_jit_rvalue *pc, uint32_t last, uint32_t ret)
{
	leave_acct_at(g, blk, stage, retired, target, flags, why, pc, NULL, 0, last, ret);
}

/* Leaves blk for the driver to report a partial run of the current block
 * (its first `retired` instructions: the deadline, then the partial run),
 * the clock and instret moved to its end. */
static void leave_partial(struct gen *g, gcc_jit_block *blk, uint32_t retired,
			  gcc_jit_rvalue *cycles, enum jit_exit why, uint64_t pc, uint32_t last,
			  uint32_t ret)
{
	J(block_add_assignment)(blk, NULL, g->s_from, now(g));
	leave_acct_at(g, blk, JIT_ACCT_PARTIAL, retired, NULL, 0, why, konst(g, g->tu64, pc),
		      cycles, retired, last, ret);
}

/* ACCT_PARTIAL: the block's run ended after `retired` instructions. */
static void gen_partial(struct gen *g, uint32_t retired, gcc_jit_rvalue *cycles,
			gcc_jit_rvalue *instret, gcc_jit_rvalue *now)
{
	if (g->lean)
		load_bp(g);
	gcc_jit_rvalue *args[6] = { rv(field(g, g->f_vm)),
				    cast(g, rv(g->bp), g->tvoidp),
				    konst(g, g->tu32, retired),
				    cycles,
				    instret,
				    now };

	call(g, g->f_partial_fn, 6, args);
}

/* instret now: counted, or moved as the clock did (g->unit). */
static gcc_jit_rvalue *instret_now(struct gen *g)
{
	if (!g->unit)
		return rv(g->instret);
	return bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, rv(g->instret),
		   bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu64, now(g), rv(field(g, g->f_cycles))));
}

/* The transfer subscribers hear of in's jump to t from the region, the
 * clock past it, bp loaded: of the guest's registers the register file
 * gets the jump's link register only, the one they read (account.h). */
static void call_transfer(struct gen *g, const struct jit_desc_insn *in, gcc_jit_rvalue *t)
{
	gcc_jit_rvalue *args[6];

	if (in->rd == 1 || in->rd == 5) {
		gcc_jit_lvalue *slot = J(context_new_array_access)(
		    g->c, NULL, cast(g, rv(field(g, g->f_regs)), J(type_get_pointer)(g->tx)),
		    konst(g, g->tu32, in->rd));
		assign(g, slot, rv(g->r[in->rd]));
	}
	args[0] = rv(field(g, g->f_vm));
	args[1] = cast(g, rv(g->bp), g->tvoidp);
	args[2] = konst(g, g->tu32, in->index);
	args[3] = t;
	args[4] = now(g);
	args[5] = instret_now(g);
	call(g, g->f_transfer_fn, 6, args);
}

/* Whether a subscriber hears of a jump to t (ACCT_TRANSFER): plain, one
 * with no call or return hint, only when t lies outside the context. */
static gcc_jit_rvalue *transfer_wanted(struct gen *g, gcc_jit_rvalue *t, bool plain)
{
	gcc_jit_rvalue *ctx = rv(field(g, g->f_context));
	gcc_jit_rvalue *want = cmp(g, GCC_JIT_COMPARISON_NE,
				   bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tu64, rv(g->events),
				       konst(g, g->tu64, ACCT_TRANSFER)),
				   J(context_zero)(g->c, g->tu64));

	if (!plain)
		return want;
	return bin(g, GCC_JIT_BINARY_OP_LOGICAL_AND, g->tbool, want,
		   cmp(g, GCC_JIT_COMPARISON_GE,
		       bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu32, t,
			   rv(J(context_new_array_access)(g->c, NULL, ctx, konst(g, g->tu32, 0)))),
		       rv(J(context_new_array_access)(g->c, NULL, ctx, konst(g, g->tu32, 1)))));
}

static void store_last(struct gen *g);

/* ACCT_TRANSFER(t, plain), the clock past the jump, in the lean variant:
 * the last transfer kept in locals until the exit or a call (store_last),
 * as the full variant keeps it. */
static void gen_transfer(struct gen *g, const struct jit_desc_insn *in, gcc_jit_rvalue *t,
			 bool plain)
{
	gcc_jit_block *join;

	assign(g, g->lt_any, J(context_one)(g->c, g->tbool));
	assign(g, g->lt_from, konst(g, g->tu32, in->pc));
	assign(g, g->lt_to, t);
	when(g, transfer_wanted(g, t, plain), &join);
	store_last(g); /* what the subscribers may read */
	load_bp(g);
	call_transfer(g, in, t);
	end_when(g, join);
}

/* ACCT_RUN: a whole run of the block; a flagged block's subscriber hears
 * of it, and may end the run at the next block (vm->break_loop). */
static void gen_run(struct gen *g, uint32_t n)
{
	gcc_jit_block *join, *stop;
	gcc_jit_rvalue *args[4];

	if (!(g->blocks[g->k].flags & JIT_BLOCK_FLAGGED))
		return; /* no count (lean), and no subscriber flagged it */
	load_bp(g);
	when(g, block_flagged(g), &join);
	store_last(g); /* the timers' step names it (sync_jump) */
	args[0] = rv(field(g, g->f_vm));
	args[1] = cast(g, rv(g->bp), g->tvoidp);
	args[2] = konst(g, g->tu32, n);
	args[3] = instret_now(g);
	call(g, g->f_flagged_fn, 4, args);
	stop = branch_off(
	    g, J(lvalue_as_rvalue)(J(rvalue_dereference)(rv(field(g, g->f_break_loop)), NULL)),
	    "stop");
	/* the budget becomes the clock now: the next block does not fit */
	J(block_add_assignment)(stop, NULL, g->budget, now(g));
	J(block_add_assignment)(stop, NULL, g->left, J(context_zero)(g->c, g->tu64));
	J(block_end_with_jump)(stop, NULL, g->cur);
	end_when(g, join);
}

static gcc_jit_rvalue *choose(struct gen *g, gcc_jit_type *t, gcc_jit_rvalue *cond,
			      gcc_jit_rvalue *a, gcc_jit_rvalue *b);

static gcc_jit_lvalue *deref(gcc_jit_rvalue *p) { return J(rvalue_dereference)(p, NULL); }

/* The samples of a whole run of the block, from clock s_from to now
 * (retired instructions, the last one's end now), counted by the region's
 * samples' function (make_sample_fn); the region leaves for the driver at
 * an instruction outside the histogram's range, the samples before it
 * counted. cur is the block that found the deadline passed; the code goes
 * on at join. Nothing but the region moves the deadline while it runs (its
 * one call, to the transfer subscribers, leaves the deadline and the
 * histogram alone: account.h): the deadline is a local, the total and the
 * last sample are in st, stored at the exit (store_samples). */
static void gen_samples(struct gen *g, uint32_t retired, gcc_jit_rvalue *target, unsigned flags,
			gcc_jit_rvalue *next_pc, uint32_t last, uint32_t ret, gcc_jit_block *join)
{
	gcc_jit_rvalue *args[5];
	gcc_jit_lvalue *next = g->dl_next;
	gcc_jit_block *out;

	if (!g->tab_pc || !retired) { /* the driver's deadline call counts them */
		leave_acct(g, g->cur, JIT_ACCT_DEADLINE, retired, target, flags, JIT_EXIT_JUMP,
			   next_pc, last, ret);
		return;
	}
	args[0] = J(lvalue_get_address)(g->st, NULL);
	args[1] = konst(g, g->tu32, g->tab_base[g->k]);
	args[2] = rv(g->s_from);
	args[3] = now(g);
	args[4] = rv(g->dl);
	assign(g, next, J(context_new_call)(g->c, NULL, g->sample_fn, 5, args));
	out = branch_off(g, cmp(g, GCC_JIT_COMPARISON_EQ, rv(next), J(context_zero)(g->c, g->tu64)),
			 "sample_out");
	J(block_add_assignment)
	(out, NULL, g->dl, rv(J(lvalue_access_field)(g->st, NULL, g->st_dl)));
	leave_acct(g, out, JIT_ACCT_DEADLINE, retired, target, flags, JIT_EXIT_JUMP, next_pc, last,
		   ret);
	assign(g, g->dl, rv(next));
	J(block_end_with_jump)(g->cur, NULL, join);
}

/* By phases: the phase of clock t, (ph_k - t) & ph_mask: how far t is
 * before the next deadline, less one, modulo the interval. */
static gcc_jit_rvalue *phase_at(struct gen *g, gcc_jit_rvalue *t)
{
	return bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tu64,
		   bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu64, rv(g->ph_k), t), rv(g->ph_mask));
}

/* By phases: the whole run of the current block that just ended (from
 * s_from to now) counts at its phase; a block flagged when the region was
 * made, if flagged still, leaves first for the driver to count its
 * samples (its deadline call: code outside the histogram's ranges, whose
 * samples are counted in the order they are taken). */
static void count_phase(struct gen *g, uint32_t retired, bool taken, gcc_jit_rvalue *target,
			unsigned flags, gcc_jit_rvalue *next_pc, uint32_t last, uint32_t ret)
{
	if (g->blocks[g->k].flags & JIT_BLOCK_FLAGGED) {
		gcc_jit_block *out;
		load_bp(g);
		out = branch_off(g, block_flagged(g), "flagged");
		leave_acct(g, out, JIT_ACCT_DEADLINE, retired, target, flags, JIT_EXIT_JUMP,
			   next_pc, last, ret);
	}
	if (retired) {
		uint32_t row =
		    g->k * JIT_PHASE_ROW + (taken && g->head->taken_extra ? JIT_PHASES_MAX : 0u);
		gcc_jit_rvalue *phase = phase_at(g, rv(g->s_from));
		J(block_add_assignment_op)
		(g->cur, NULL,
		 J(context_new_array_access)(
		     g->c, NULL, rv(g->ph_tbl),
		     bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, konst(g, g->tu64, row), phase)),
		 GCC_JIT_BINARY_OP_PLUS, J(context_one)(g->c, g->tu64));
	}
	assign(g, g->ph_upto, now(g));
}

static gcc_jit_lvalue *st_field(struct gen *g, gcc_jit_field *f)
{
	return J(lvalue_access_field)(g->st, NULL, f);
}

/* The full accounting variants' locals, at the entry: the region's blocks,
 * no last transfer yet, no loop counts pending, with counts the list of the
 * blocks that ran, and with deadlines the deadline and the histogram's
 * fields (the counts of this run start at zero). */
static void load_full_locals(struct gen *g)
{
	assign(g, g->blocks_l, rv(field(g, g->f_blocks)));
	assign(g, g->pend_runs, J(context_zero)(g->c, g->tu64));
	assign(g, g->pend_taken, J(context_zero)(g->c, g->tu64));
	if (g->counts) {
		assign(g, g->ran_l, rv(field(g, g->f_ran)));
		assign(g, g->ran_mark_l,
		       rv(J(rvalue_dereference_field)(rv(g->ran_l), NULL, g->r_mark)));
	}
	assign(g, g->lt_any, J(context_zero)(g->c, g->tbool));
	assign(g, g->lt_from, J(context_zero)(g->c, g->tu32));
	assign(g, g->lt_to, J(context_zero)(g->c, g->tu32));
	if (!g->deadlines)
		return;
	gcc_jit_lvalue *hp = J(function_new_local)(g->fn, NULL, g->hist_type, "hp");
	assign(g, hp, rv(field(g, g->f_hist)));
	if (g->phases) {
		assign(g, g->ph_tbl, rv(field(g, g->f_phases)));
		assign(g, g->ph_k,
		       bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu64,
			   rv(deref(rv(field(g, g->f_deadline)))), J(context_one)(g->c, g->tu64)));
		assign(g, g->ph_mask,
		       bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu64,
			   rv(J(rvalue_dereference_field)(rv(hp), NULL, g->h_interval)),
			   J(context_one)(g->c, g->tu64)));
		assign(g, g->ph_upto, now(g));
		return;
	}
	assign(g, g->dl, rv(deref(rv(field(g, g->f_deadline)))));
	if (!g->tab_pc)
		return;
	assign(g, st_field(g, g->st_counts),
	       rv(J(rvalue_dereference_field)(rv(hp), NULL, g->h_counts)));
	assign(g, st_field(g, g->st_lo), rv(J(rvalue_dereference_field)(rv(hp), NULL, g->h_lo)));
	assign(g, st_field(g, g->st_size),
	       rv(J(rvalue_dereference_field)(rv(hp), NULL, g->h_size)));
	assign(g, st_field(g, g->st_interval),
	       rv(J(rvalue_dereference_field)(rv(hp), NULL, g->h_interval)));
	assign(g, st_field(g, g->st_total), J(context_zero)(g->c, g->tu64));
	assign(g, st_field(g, g->st_last_pc), J(context_zero)(g->c, g->tu32));
	assign(g, st_field(g, g->st_last_end), J(context_zero)(g->c, g->tu64));
}

/* At the exit: the last jump or taken branch the run made, kept while a
 * subscriber asks for it (ACCT_LAST_TRANSFER). */
static void store_last(struct gen *g)
{
	gcc_jit_block *some = new_block(g, "last_transfer"), *done = new_block(g, "last_stored");
	gcc_jit_rvalue *lt = rv(field(g, g->f_last_transfer));

	J(block_end_with_conditional)
	(g->cur, NULL,
	 bin(g, GCC_JIT_BINARY_OP_LOGICAL_AND, g->tbool, rv(g->lt_any),
	     cmp(g, GCC_JIT_COMPARISON_NE,
		 bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tu64, rv(g->events),
		     konst(g, g->tu64, ACCT_LAST_TRANSFER)),
		 J(context_zero)(g->c, g->tu64))),
	 some, done);
	g->cur = some;
	assign(g, deref(rv(field(g, g->f_has_last))), J(context_one)(g->c, g->tbool));
	assign(g, J(context_new_array_access)(g->c, NULL, lt, konst(g, g->tu32, 0)),
	       rv(g->lt_from));
	assign(g, J(context_new_array_access)(g->c, NULL, lt, konst(g, g->tu32, 1)), rv(g->lt_to));
	J(block_end_with_jump)(g->cur, NULL, done);
	g->cur = done;
}

/* ... and at the exit: the samples the run counted go to the sampler's
 * state as on_deadline leaves it (the deadline follows next). */
static void store_samples(struct gen *g)
{
	gcc_jit_block *some, *done;
	gcc_jit_lvalue *hp = J(function_new_local)(g->fn, NULL, g->hist_type, "hp_out");

	if (g->phases) { /* the first deadline past what was counted */
		gcc_jit_lvalue *next = J(function_new_local)(g->fn, NULL, g->tu64, "ph_next");
		gcc_jit_rvalue *ahead = phase_at(g, rv(g->ph_upto));
		assign(g, next,
		       bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64,
			   bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, rv(g->ph_upto),
			       J(context_one)(g->c, g->tu64)),
			   ahead));
		assign(g, hp, rv(field(g, g->f_hist)));
		assign(g, deref(rv(field(g, g->f_deadline))), rv(next));
		assign(g, deref(rv(J(rvalue_dereference_field)(rv(hp), NULL, g->h_next))),
		       rv(next));
		return;
	}
	if (!g->tab_pc) /* none counted here */
		return;
	some = new_block(g, "samples");
	done = new_block(g, "stored");

	J(block_end_with_conditional)
	(g->cur, NULL,
	 cmp(g, GCC_JIT_COMPARISON_NE, rv(st_field(g, g->st_total)),
	     J(context_zero)(g->c, g->tu64)),
	 some, done);
	g->cur = some;
	assign(g, hp, rv(field(g, g->f_hist)));
	assign(g, deref(rv(field(g, g->f_deadline))), rv(g->dl));
	assign(g, deref(rv(J(rvalue_dereference_field)(rv(hp), NULL, g->h_next))), rv(g->dl));
	J(block_add_assignment_op)
	(g->cur, NULL, deref(rv(J(rvalue_dereference_field)(rv(hp), NULL, g->h_total))),
	 GCC_JIT_BINARY_OP_PLUS, rv(st_field(g, g->st_total)));
	assign(g, deref(rv(J(rvalue_dereference_field)(rv(hp), NULL, g->h_last_pc))),
	       rv(st_field(g, g->st_last_pc)));
	assign(g, deref(rv(J(rvalue_dereference_field)(rv(hp), NULL, g->h_last_end))),
	       rv(st_field(g, g->st_last_end)));
	J(block_end_with_jump)(g->cur, NULL, done);
	g->cur = done;
}

/* A whole run of the current block was counted: it is listed among the
 * blocks that ran unless it is already (acct_ran, without the call: the
 * list is not grown here, lost says a block did not fit). The mark is
 * the one at the region's entry: only the driver's calls move it. The
 * test is in the block, the listing in the region's function ran_append
 * (make_ran_fn), run once a block per entry at most. */
static void list_ran(struct gen *g)
{
	gcc_jit_rvalue *mark = rv(g->ran_mark_l), *args[2] = { rv(g->ran_l), rv(g->bp) };
	gcc_jit_block *join;

	when(g,
	     seldom(g, cmp(g, GCC_JIT_COMPARISON_NE, rv(block_field(g, g->head->off_ran, g->tu32)),
			   mark)),
	     &join);
	assign(g, block_field(g, g->head->off_ran, g->tu32), mark);
	J(block_add_eval)(g->cur, NULL, J(context_new_call)(g->c, NULL, g->ran_fn, 2, args));
	end_when(g, join);
}

/* The function that lists a block that ran (list_ran): at first a copy in
 * every block, which took half the time GCC spent on a `--profile`
 * region (kernels' largest: 4.6 s, 2.3 s without).
 *
 *   void ran_append(struct acct_ran *ran, uint8_t *bp);
 */
static void make_ran_fn(struct gen *g)
{
	gcc_jit_function *region = g->fn;
	gcc_jit_block *region_cur = g->cur, *room, *full;
	gcc_jit_param *p[2] = { J(context_new_param)(g->c, NULL, g->ran_type, "ran"),
				J(context_new_param)(g->c, NULL, g->tu8p, "bp") };
	gcc_jit_rvalue *ran = J(param_as_rvalue)(p[0]);
	gcc_jit_lvalue *n = J(rvalue_dereference_field)(ran, NULL, g->r_n);

	g->ran_fn = J(context_new_function)(g->c, NULL, GCC_JIT_FUNCTION_INTERNAL, g->tvoid,
					    "ran_append", 2, p, 0);
	g->fn = g->ran_fn; /* for new_block */
	g->cur = new_block(g, "entry");
	room = new_block(g, "ran_room");
	full = new_block(g, "ran_full");
	J(block_end_with_conditional)
	(g->cur, NULL,
	 cmp(g, GCC_JIT_COMPARISON_LT, rv(n), rv(J(rvalue_dereference_field)(ran, NULL, g->r_cap))),
	 room, full);
	J(block_add_assignment)
	(room, NULL,
	 J(context_new_array_access)(g->c, NULL,
				     rv(J(rvalue_dereference_field)(ran, NULL, g->r_list)), rv(n)),
	 J(param_as_rvalue)(p[1]));
	J(block_add_assignment_op)(room, NULL, n, GCC_JIT_BINARY_OP_PLUS, konst(g, g->tu32, 1));
	J(block_end_with_void_return)(room, NULL);
	J(block_add_assignment)
	(full, NULL, J(rvalue_dereference_field)(ran, NULL, g->r_lost), konst(g, g->tu32, 1));
	J(block_end_with_void_return)(full, NULL);
	g->fn = region;
	g->cur = region_cur;
}

/* The accounting variant's block end (not lean): what exec_acct does, in
 * its order, without a call: the samples (gen_samples), the taken count,
 * the transfer's record, the run count (the counts not where nobody folds
 * them: g->counts); the region leaves for the driver where a subscriber
 * must hear of the run (a transfer it reports, a flagged block), which
 * then goes on at next_pc. */
static void finish_acct(struct gen *g, const struct jit_desc_insn *in, uint32_t retired,
			uint64_t cost, bool taken, gcc_jit_rvalue *target, bool plain,
			gcc_jit_rvalue *next_pc, uint32_t last, uint32_t ret)
{
	unsigned flags = (taken ? JIT_ACCT_TAKEN : 0u) | (target ? JIT_ACCT_TARGET : 0u) |
			 (plain ? JIT_ACCT_PLAIN : 0u);
	gcc_jit_block *join, *out, *looped = NULL;

	assign(g, g->s_from, now(g));
	count_retired(g, retired);
	advance(g, cost);
	if (g->phases)
		count_phase(g, retired, taken, target, flags, next_pc, last, ret);
	else if (g->deadlines) {
		when(g, seldom(g, cmp(g, GCC_JIT_COMPARISON_GE, now(g), rv(g->dl))), &join);
		gen_samples(g, retired, target, flags, next_pc, last, ret, join);
		g->cur = join;
	}
	if (g->self_edge) {
		/* the loop's runs after its first only count: what the first
		 * checked (the transfer's context, the list, the flags) has not
		 * changed since, and the last transfer is this branch again */
		gcc_jit_block *again;

		looped = new_block(g, "loop_counted");
		again = branch_to(
		    g,
		    cmp(g, GCC_JIT_COMPARISON_NE, rv(g->pend_runs), J(context_zero)(g->c, g->tu64)),
		    "loop_again");
		J(block_add_assignment_op)
		(again, NULL, g->pend_taken, GCC_JIT_BINARY_OP_PLUS, konst(g, g->tu64, 1));
		J(block_add_assignment_op)
		(again, NULL, g->pend_runs, GCC_JIT_BINARY_OP_PLUS, konst(g, g->tu64, 1));
		J(block_end_with_jump)(again, NULL, looped);
	}
	load_bp(g); /* here, not live through the block */
	if (taken && g->self_edge)
		add_to(g, g->pend_taken, 1);
	else if (taken && g->counts)
		J(block_add_assignment_op)
	(g->cur, NULL, block_field(g, g->head->off_taken, g->tu64), GCC_JIT_BINARY_OP_PLUS,
	 konst(g, g->tu64, 1));
	if (target) {
		gcc_jit_rvalue *want = transfer_wanted(g, target, plain);
		/* the last transfer, in locals until the exit (store_last) */
		assign(g, g->lt_any, J(context_one)(g->c, g->tbool));
		assign(g, g->lt_from, konst(g, g->tu32, in->pc));
		assign(g, g->lt_to, target);
		if (g->self_loop[g->k]) { /* its counts wait in locals: the driver reports */
			out = branch_off(g, want, "transfer");
			leave_acct(g, out, JIT_ACCT_TRANSFER, retired, target, flags, JIT_EXIT_JUMP,
				   next_pc, last, ret);
		} else {
			gcc_jit_block *told;
			when(g, want, &told);
			call_transfer(g, in, target);
			/* the hand-over may have started a new list; the run goes
			 * on, as the interpreter's does after the call (a
			 * subscriber's vm->break_loop acts at the next return) */
			if (g->counts)
				assign(
				    g, g->ran_mark_l,
				    rv(J(rvalue_dereference_field)(rv(g->ran_l), NULL, g->r_mark)));
			end_when(g, told);
		}
	}
	if (g->self_edge)
		add_to(g, g->pend_runs, 1);
	else if (g->counts)
		J(block_add_assignment_op)
	(g->cur, NULL, block_field(g, g->head->off_runs, g->tu64), GCC_JIT_BINARY_OP_PLUS,
	 konst(g, g->tu64, 1));
	if (g->counts)
		list_ran(g);
	/* only a block flagged when the region was made (same_block keeps
	 * it so): the test and the exit at every block's end, in a region
	 * without one, cost a tenth of a sampled or profiled run */
	if (g->blocks[g->k].flags & JIT_BLOCK_FLAGGED) {
		out = branch_off(g, block_flagged(g), "flagged");
		leave_acct(g, out, JIT_ACCT_FLAGGED, retired, target, flags, JIT_EXIT_JUMP, next_pc,
			   last, ret);
	}
	if (looped) {
		J(block_end_with_jump)(g->cur, NULL, looped);
		g->cur = looped;
	}
}

/* The end of a block's run, as RETIRE_LAST and JUMP do it: the clock moves
 * past the instruction that ends it (index `retired` - 1, costing `cost`
 * in all), then the accounting edges when the region reports them; the
 * run goes on at next_pc (with last and ret as the last pcs). */
static void finish_block(struct gen *g, const struct jit_desc_insn *in, uint32_t retired,
			 uint64_t cost, bool taken, gcc_jit_rvalue *target, bool plain, uint32_t n,
			 gcc_jit_rvalue *next_pc, uint32_t last, uint32_t ret)
{
	if (!g->acct) {
		advance(g, cost);
		count_retired(g, retired);
		return;
	}
	if (!g->lean) {
		finish_acct(g, in, retired, cost, taken, target, plain, next_pc, last, ret);
		return;
	}
	/* the lean variant: no deadline, no counts; the calls it makes */
	count_retired(g, retired);
	advance(g, cost);
	if (target)
		gen_transfer(g, in, target, plain);
	gen_run(g, n);
}

/* The block at pc in the region, or -1. */
static int block_at(const struct gen *g, uint32_t pc)
{
	unsigned lo = 0, hi = g->n_blocks;

	while (lo < hi) { /* the blocks are by pc */
		unsigned mid = (lo + hi) / 2;
		if (g->blocks[mid].pc == pc)
			return (int)mid;
		if (g->blocks[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Whether the budget lets the run into block k: the most it can cost
 * before the next check fits. */
static gcc_jit_rvalue *over_budget(struct gen *g, unsigned k)
{
	return cmp(g, GCC_JIT_COMPARISON_GT, konst(g, g->tu64, g->reach[k]), rv(g->left));
}

static void plan_spans(struct gen *g, const struct jit_desc_block *b);
static gcc_jit_rvalue *clock_before(struct gen *g, const struct jit_desc_insn *in);
static void fetch_check(struct gen *g, unsigned k, bool from_block, uint32_t last,
			uint32_t retired);

/* The plain variant, RV64: on the way into block k (from the block before,
 * whose last pcs are last and retired, or through the switch on the
 * entries, last 0: the locals), the check that would make its first
 * instruction leave before itself (an access past 1 TiB, for the accesses
 * of its group; a jump past 4 GiB), made on the registers' same values, so
 * that the run into the block does not keep the last pcs for it in locals. */
static void first_check(struct gen *g, unsigned k, uint32_t last, uint32_t retired)
{
	const struct jit_desc_insn *in = &g->insns[g->blocks[k].first];
	gcc_jit_rvalue *bad, *r1 = reg(g, in->rs1);

	if (in->op == OP_jalr) {
		bad = cmp(g, GCC_JIT_COMPARISON_GE,
			  bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx,
			      bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, r1, imm(g, in)),
			      konst(g, g->tx, ~UINT64_C(1))),
			  konst(g, g->tx, MEM_CODE_LIMIT));
	} else {
		/* the group's lowest and highest offsets, as plan_spans finds
		 * them for the block (whose spans are made when it is) */
		struct span saved[BLOCK_MAX_INSNS + 1];
		uint32_t saved_first = g->block_first;
		int64_t lo, hi;
		memcpy(saved, g->span, sizeof(saved));
		plan_spans(g, &g->blocks[k]);
		lo = g->span[0].lo, hi = g->span[0].hi;
		memcpy(g->span, saved, sizeof(saved));
		g->block_first = saved_first;
		bad = cmp(
		    g, GCC_JIT_COMPARISON_GE,
		    bin(g, GCC_JIT_BINARY_OP_BITWISE_OR, g->tx,
			bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, r1, konst(g, g->tx, (uint64_t)lo)),
			bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, r1, konst(g, g->tx, (uint64_t)hi))),
		    konst(g, g->tx, MEM_SPACE_64));
	}
	leave(g, branch_off(g, bad, "first"), JIT_EXIT_BEFORE, in->pc, clock_before(g, in),
	      in->index, last, retired);
}

/* Goes on at pc: a goto when the region holds it (past the budget's check
 * when it has one), else an exit there. The clock has been moved past the
 * block already. */
static void go_to(struct gen *g, uint32_t pc, uint32_t last, uint32_t retired)
{
	int k = block_at(g, pc);

	if (k < 0) {
		leave(g, g->cur, JIT_EXIT_JUMP, pc, NULL, 0, last, retired);
		return;
	}
	if (g->need_prev[k] && g->acct) {
		assign(g, g->last, konst(g, g->tu64, last));
		assign(g, g->retired, konst(g, g->tu64, retired));
	}
	if (g->check[k]) /* near the budget the interpreter steps, exactly */
		leave(g, branch_off(g, over_budget(g, (unsigned)k), "budget"), JIT_EXIT_BUDGET, pc,
		      NULL, 0, last, retired);
	if (g->need_prev[k] && !g->acct)
		first_check(g, (unsigned)k, last, retired);
	fetch_check(g, (unsigned)k, true, last, retired);
	J(block_end_with_jump)(g->cur, NULL, g->labels[k]);
}

/* The clock before instruction in (the block's entry clock plus its prefix). */
static gcc_jit_rvalue *clock_before(struct gen *g, const struct jit_desc_insn *in)
{
	return bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, now(g), konst(g, g->tu64, in->before));
}

/* Leaves before in when cond holds, for why: the interpreter runs it (and
 * faults, JIT_EXIT_BEFORE, or costs what the model says, JIT_EXIT_COST). */
static void exit_before_why(struct gen *g, gcc_jit_rvalue *cond, const struct jit_desc_insn *in,
			    uint32_t prev_pc, enum jit_exit why)
{
	gcc_jit_block *out = branch_off(g, cond, "before");

	if (g->acct && !g->lean) { /* as FAULT: the run of the block ended before in */
		leave_partial(g, out, in->index, clock_before(g, in), why, in->pc, prev_pc,
			      prev_pc);
		return;
	}
	if (g->acct) { /* as FAULT: the run of the block ended before in */
		gcc_jit_block *save = g->cur;
		gcc_jit_rvalue *at = clock_before(g, in);
		g->cur = out;
		gen_partial(g, in->index, at,
			    bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, instret_now(g),
				konst(g, g->tu64, in->index)),
			    at);
		out = g->cur;
		g->cur = save;
	}
	leave(g, out, why, in->pc, clock_before(g, in), in->index, prev_pc, prev_pc);
}

static void exit_before_if(struct gen *g, gcc_jit_rvalue *cond, const struct jit_desc_insn *in,
			   uint32_t prev_pc)
{
	exit_before_why(g, cond, in, prev_pc, JIT_EXIT_BEFORE);
}

static gcc_jit_rvalue *any(struct gen *g, gcc_jit_rvalue *a, gcc_jit_rvalue *b)
{
	return a ? bin(g, GCC_JIT_BINARY_OP_LOGICAL_OR, g->tbool, a, b) : b;
}

/* Whether page (an rvalue) lacks any of need (PAGE_LOADED, PAGE_DIRTY) in
 * the byte per page. */
static gcc_jit_rvalue *page_missing(struct gen *g, gcc_jit_rvalue *page, unsigned need)
{
	gcc_jit_rvalue *byte =
	    J(lvalue_as_rvalue)(J(context_new_array_access)(g->c, NULL, rv(g->pages), page));

	return cmp(g, GCC_JIT_COMPARISON_NE,
		   bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tu8, byte, konst(g, g->tu8, need)),
		   konst(g, g->tu8, need));
}

/* A detailed model (g->cost): leaves before the access of size bytes at a
 * when it may cost more than its static cost (cost_model_access_wait, the
 * page bytes), so that the interpreter runs it and adds what it costs.
 * Leaving before an access that costs nothing is exact too: the
 * conditions are the cheap ones that hold whenever it costs. Returns the
 * conditions that only a misaligned access can meet (split over two bus
 * words, over two pages: an aligned access of a power-of-two size never
 * is), for misaligned() to test off the common path; NULL if none. */
static gcc_jit_rvalue *cost_exit(struct gen *g, const struct jit_desc_insn *in, gcc_jit_rvalue *a,
				 uint32_t size, bool store, uint32_t prev_pc)
{
	uint32_t exits = g->cost->exits;
	uint64_t word = size == 8 ? 8 : 4;
	gcc_jit_rvalue *cond = NULL, *split = NULL;
	gcc_jit_rvalue *end = bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, a, konst(g, g->tx, size - 1));

	if ((exits & JIT_COST_SPLIT) && size > 1) /* over two bus words */
		split = any(g, split,
			    cmp(g, GCC_JIT_COMPARISON_NE,
				bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx,
				    bin(g, GCC_JIT_BINARY_OP_BITWISE_XOR, g->tx, a, end),
				    konst(g, g->tx, ~(word - 1))),
				J(context_zero)(g->c, g->tx)));
	if (exits & JIT_COST_RANGE) /* the first word outside the fast range */
		cond = any(g, cond,
			   cmp(g, GCC_JIT_COMPARISON_GT,
			       bin(g, GCC_JIT_BINARY_OP_MINUS, g->tx,
				   bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx, a,
				       konst(g, g->tx, ~(word - 1))),
				   konst(g, g->tx, g->cost->data_lo)),
			       konst(g, g->tx, (uint64_t)g->cost->data_hi - g->cost->data_lo)));
	if (exits & JIT_COST_PAGING) {
		gcc_jit_rvalue *page = bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tx, a,
					   konst(g, g->tx, g->cost->page_shift));
		if (size > 1) /* over two pages */
			split = any(g, split,
				    cmp(g, GCC_JIT_COMPARISON_NE,
					bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tx,
					    bin(g, GCC_JIT_BINARY_OP_BITWISE_XOR, g->tx, a, end),
					    konst(g, g->tx, g->cost->page_shift)),
					J(context_zero)(g->c, g->tx)));
		cond = any(g, cond,
			   page_missing(g, page, store ? PAGE_LOADED | PAGE_DIRTY : PAGE_LOADED));
	}
	if (cond)
		exit_before_why(g, cond, in, prev_pc, JIT_EXIT_COST);
	return split;
}

/* The pages block k fetches from, as the interpreter finds them
 * (code_ready, core/exec_impl.h). */
static void code_pages(const struct gen *g, unsigned k, uint32_t *first, uint32_t *last)
{
	const struct jit_desc_block *b = &g->blocks[k];
	uint32_t end = b->pc;

	for (uint32_t i = 0; i < b->n; i++) {
		const struct jit_desc_insn *in = &g->insns[b->first + i];
		if (in->op != OP_block_end && in->pc + in->len > end)
			end = in->pc + in->len;
	}
	*first = b->pc >> g->cost->page_shift;
	*last = (end > b->pc ? end - 1 : b->pc + 1) >> g->cost->page_shift;
}

/* Paging: on the way into block k (from the current block, whose last pcs
 * are last and retired; from the switch on the entries, from none, last
 * 0: the locals), the region leaves when a page the block fetches from is
 * not loaded; the interpreter runs the block's first instruction, which
 * loads it. A page the current block fetches from is loaded (the bitmaps
 * do not change while the region runs). */
static void fetch_check(struct gen *g, unsigned k, bool from_block, uint32_t last, uint32_t retired)
{
	uint32_t first, end, cur_first = 1, cur_end = 0;
	gcc_jit_rvalue *cond = NULL;

	if (!(g->cost->exits & JIT_COST_PAGING))
		return;
	code_pages(g, k, &first, &end);
	if (from_block)
		code_pages(g, g->k, &cur_first, &cur_end);
	for (uint32_t pg = first;; pg++) {
		if (pg < cur_first || pg > cur_end)
			cond = any(g, cond, page_missing(g, konst(g, g->tu32, pg), PAGE_LOADED));
		if (pg == end)
			break;
	}
	if (cond)
		leave(g, branch_off(g, cond, "code"), JIT_EXIT_COST, g->blocks[k].pc, NULL, 0, last,
		      retired);
}

static void misaligned(struct gen *g, gcc_jit_rvalue *a, uint32_t size,
		       const struct jit_desc_insn *in, gcc_jit_rvalue *split, uint32_t prev_pc);

/* The effective address of a load or store of size bytes, with the checks
 * the interpreter makes: at XLEN 64 one at or past 2^40 faults (in the
 * interpreter; the region leaves before the first access of its group,
 * g->span), and a misaligned one is counted (misaligned()). */
static gcc_jit_rvalue *address(struct gen *g, const struct jit_desc_insn *in, uint32_t size,
			       uint32_t prev_pc)
{
	gcc_jit_lvalue *a = J(function_new_local)(g->fn, NULL, g->tx, "addr");
	const struct span *sp = &g->span[(in - g->insns) - g->block_first];
	gcc_jit_rvalue *split;

	bool store = insn_classes[in->op] == CY_CLASS_STORE;

	if (g->xlen == 64 && sp->first && sp->lo == sp->hi && !g->cost->exits &&
	    !(g->first_checked && in->index == 0)) {
		/* one access (or several at one address): one test for both
		 * checks, past 1 TiB or misaligned; which of them, off the
		 * common path */
		gcc_jit_block *slow, *save;
		assign(g, a, bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, reg(g, in->rs1), imm(g, in)));
		slow = branch_off(g,
				  cmp(g, GCC_JIT_COMPARISON_NE,
				      bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx, rv(a),
					  konst(g, g->tx, ~(MEM_SPACE_64 - 1) | (size - 1))),
				      J(context_zero)(g->c, g->tx)),
				  "slow");
		save = g->cur;
		g->cur = slow;
		exit_before_if(g,
			       cmp(g, GCC_JIT_COMPARISON_GE, rv(a), konst(g, g->tx, MEM_SPACE_64)),
			       in, prev_pc);
		misaligned(g, rv(a), size, in, NULL, prev_pc);
		J(block_end_with_jump)(g->cur, NULL, save);
		g->cur = save;
		return rv(a);
	}
	if (g->xlen == 64 && sp->first && !(g->first_checked && in->index == 0)) {
		gcc_jit_rvalue *lo = bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, reg(g, in->rs1),
					 konst(g, g->tx, (uint64_t)sp->lo));
		gcc_jit_rvalue *hi = bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, reg(g, in->rs1),
					 konst(g, g->tx, (uint64_t)sp->hi));
		exit_before_if(g,
			       cmp(g, GCC_JIT_COMPARISON_GE,
				   bin(g, GCC_JIT_BINARY_OP_BITWISE_OR, g->tx, lo, hi),
				   konst(g, g->tx, MEM_SPACE_64)),
			       in, prev_pc);
	}
	assign(g, a, bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, reg(g, in->rs1), imm(g, in)));
	/* before the access is counted: the interpreter counts it then */
	split = cost_exit(g, in, rv(a), size, store, prev_pc);
	misaligned(g, rv(a), size, in, split, prev_pc);
	return rv(a);
}

static gcc_jit_rvalue *misaligned_at(struct gen *g, gcc_jit_rvalue *a, uint32_t size)
{
	return cmp(g, GCC_JIT_COMPARISON_NE,
		   bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx, a, konst(g, g->tx, size - 1)),
		   J(context_zero)(g->c, g->tx));
}

/* A misaligned access is counted by pc, as in every build: here by the
 * instruction's index in the region, in memory the driver hands to
 * vm_misaligned_n (a call would make GCC keep the registers of every
 * path through it in memory). The driver runs no region when the by-pc
 * table could fill up during its run (which pcs it keeps depends on
 * their order). First, the region leaves before it when split holds
 * (cost_exit's conditions of misaligned accesses only). */
static void misaligned(struct gen *g, gcc_jit_rvalue *a, uint32_t size,
		       const struct jit_desc_insn *in, gcc_jit_rvalue *split, uint32_t prev_pc)
{
	gcc_jit_block *then, *save;
	gcc_jit_lvalue *count;

	if (size == 1)
		return;
	then = branch_off(g, misaligned_at(g, a, size), "misaligned");
	save = g->cur;
	g->cur = then;
	if (split)
		exit_before_why(g, split, in, prev_pc, JIT_EXIT_COST);
	count = J(context_new_array_access)(g->c, NULL, rv(field(g, g->f_misaligned)),
					    konst(g, g->tu32, (uint32_t)(in - g->insns)));
	J(block_add_assignment_op)
	(g->cur, NULL, count, GCC_JIT_BINARY_OP_PLUS, J(context_one)(g->c, g->tu64));
	assign(g, field(g, g->f_mis_seen), J(context_one)(g->c, g->tu64));
	J(block_end_with_jump)(g->cur, NULL, save);
	g->cur = save;
}

/* &mem[a] as a void pointer. */
static gcc_jit_rvalue *host(struct gen *g, gcc_jit_rvalue *a)
{
	gcc_jit_lvalue *byte =
	    J(context_new_array_access)(g->c, NULL, rv(g->mem), cast(g, a, g->tsize));

	return cast(g, J(lvalue_get_address)(byte, NULL), g->tvoidp);
}

static gcc_jit_lvalue *tmp_of(struct gen *g, uint32_t size)
{
	return size == 1 ? g->tmp8 : size == 2 ? g->tmp16 : size == 4 ? g->tmp32 : g->tmp64;
}

/* A load of size bytes at a, through memcpy (misaligned accesses are fine,
 * and GCC makes one move of it). */
static gcc_jit_rvalue *load_mem(struct gen *g, gcc_jit_rvalue *a, uint32_t size)
{
	gcc_jit_lvalue *t = tmp_of(g, size);
	gcc_jit_rvalue *args[3] = { cast(g, J(lvalue_get_address)(t, NULL), g->tvoidp), host(g, a),
				    konst(g, g->tsize, size) };

	J(block_add_eval)(g->cur, NULL, J(context_new_call)(g->c, NULL, g->memcpy_fn, 3, args));
	return rv(t);
}

static void store_mem(struct gen *g, gcc_jit_rvalue *a, gcc_jit_rvalue *v, uint32_t size)
{
	gcc_jit_lvalue *t = tmp_of(g, size);
	gcc_jit_rvalue *args[3];

	assign(g, t,
	       cast(g, v,
		    size == 1   ? g->tu8
		    : size == 2 ? g->tu16
		    : size == 4 ? g->tu32
				: g->tu64));
	args[0] = host(g, a);
	args[1] = cast(g, J(lvalue_get_address)(t, NULL), g->tvoidp);
	args[2] = konst(g, g->tsize, size);
	J(block_add_eval)(g->cur, NULL, J(context_new_call)(g->c, NULL, g->memcpy_fn, 3, args));
}

/* After a store into decoded code (the code map, block.c): the block ends
 * after the store and the interpreter flushes the cache. */
static void code_check(struct gen *g, gcc_jit_rvalue *a, uint32_t size,
		       const struct jit_desc_insn *in)
{
	gcc_jit_rvalue *a64 = cast(g, a, g->tu64), *first, *last, *hit;
	gcc_jit_block *out;

	/* an RV64 address is below 1 TiB here (the region left before the
	 * access otherwise), and the code map covers that (block.c): no test
	 * against 4 GiB, above which no code lies */
	/* the chunk of the first byte, and when the access is misaligned (an
	 * aligned one lies in one chunk) of the last */
	first = J(lvalue_as_rvalue)(J(context_new_array_access)(
	    g->c, NULL, rv(g->codemap),
	    bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tu64, a64, konst(g, g->tu64, CODE_CHUNK_SHIFT))));
	hit = cmp(g, GCC_JIT_COMPARISON_NE, first, J(context_zero)(g->c, g->tu8));
	out = branch_off(g, hit, "smc");
	if (size > 1) {
		gcc_jit_block *split = branch_off(g, misaligned_at(g, a, size), "split");
		gcc_jit_block *rest = g->cur;
		last = J(lvalue_as_rvalue)(J(context_new_array_access)(
		    g->c, NULL, rv(g->codemap),
		    bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tu64,
			bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, a64, konst(g, g->tu64, size - 1)),
			konst(g, g->tu64, CODE_CHUNK_SHIFT))));
		J(block_end_with_conditional)
		(split, NULL, cmp(g, GCC_JIT_COMPARISON_NE, last, J(context_zero)(g->c, g->tu8)),
		 out, rest);
	}
	if (g->acct) {
		/* as code_written: RETIRE_LAST, then the driver reports the
		 * store into a watched range, if it was one, and the partial
		 * run, in that order (both variants) */
		leave_partial(
		    g, out, in->index + 1u,
		    bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, now(g), konst(g, g->tu64, in->after)),
		    JIT_EXIT_CODE_WRITTEN, in->pc + in->len, in->pc, in->pc);
		return;
	}
	leave(g, out, JIT_EXIT_CODE_WRITTEN, in->pc + in->len,
	      bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, now(g), konst(g, g->tu64, in->after)),
	      in->index + 1u, in->pc, in->pc);
}

/* v = cond ? a : b, through blocks (libgccjit has no conditional
 * expression). */
static gcc_jit_rvalue *choose(struct gen *g, gcc_jit_type *t, gcc_jit_rvalue *cond,
			      gcc_jit_rvalue *a, gcc_jit_rvalue *b)
{
	gcc_jit_lvalue *v = J(function_new_local)(g->fn, NULL, t, "sel");
	gcc_jit_block *yes = new_block(g, "yes"), *no = new_block(g, "no"),
		      *join = new_block(g, "join");

	J(block_end_with_conditional)(g->cur, NULL, cond, yes, no);
	J(block_add_assignment)(yes, NULL, v, a);
	J(block_end_with_jump)(yes, NULL, join);
	J(block_add_assignment)(no, NULL, v, b);
	J(block_end_with_jump)(no, NULL, join);
	g->cur = join;
	return rv(v);
}

/* Division and remainder at width t (signed type st), RISC-V's rules: by
 * zero, all ones (division) or the dividend (remainder); the most negative
 * number by -1, itself (division) or 0 (remainder). The values are read
 * before anything is computed. */
static gcc_jit_rvalue *divide(struct gen *g, gcc_jit_type *t, gcc_jit_type *st, bool is_signed,
			      bool remainder, gcc_jit_rvalue *a_in, gcc_jit_rvalue *b_in)
{
	gcc_jit_lvalue *a = J(function_new_local)(g->fn, NULL, t, "dva");
	gcc_jit_lvalue *b = J(function_new_local)(g->fn, NULL, t, "dvb");
	gcc_jit_rvalue *zero = J(context_zero)(g->c, t), *q, *ok;
	uint64_t min = t == g->tu32 ? UINT64_C(0x80000000) : UINT64_C(0x8000000000000000);

	assign(g, a, a_in);
	assign(g, b, b_in);
	if (!is_signed) {
		q = bin(g, remainder ? GCC_JIT_BINARY_OP_MODULO : GCC_JIT_BINARY_OP_DIVIDE, t,
			rv(a), rv(b));
		return choose(g, t, cmp(g, GCC_JIT_COMPARISON_EQ, rv(b), zero),
			      remainder ? rv(a)
					: J(context_new_unary_op)(
					      g->c, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, t, zero),
			      q);
	}
	/* the quotient of the ordinary case, only computed there */
	gcc_jit_lvalue *v = J(function_new_local)(g->fn, NULL, t, "dvq");
	gcc_jit_block *by_zero = new_block(g, "dz"), *overflow = new_block(g, "dov"),
		      *normal = new_block(g, "dn"), *check = new_block(g, "dchk"),
		      *join = new_block(g, "dj");
	J(block_end_with_conditional)
	(g->cur, NULL, cmp(g, GCC_JIT_COMPARISON_EQ, rv(b), zero), by_zero, check);
	J(block_add_assignment)
	(by_zero, NULL, v,
	 remainder ? rv(a)
		   : J(context_new_unary_op)(g->c, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, t, zero));
	J(block_end_with_jump)(by_zero, NULL, join);
	ok =
	    bin(g, GCC_JIT_BINARY_OP_LOGICAL_AND, g->tbool,
		cmp(g, GCC_JIT_COMPARISON_EQ, rv(a), konst(g, t, min)),
		cmp(g, GCC_JIT_COMPARISON_EQ, rv(b),
		    J(context_new_unary_op)(g->c, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, t, zero)));
	J(block_end_with_conditional)(check, NULL, ok, overflow, normal);
	J(block_add_assignment)(overflow, NULL, v, remainder ? zero : rv(a));
	J(block_end_with_jump)(overflow, NULL, join);
	J(block_add_assignment)
	(normal, NULL, v,
	 cast(g,
	      bin(g, remainder ? GCC_JIT_BINARY_OP_MODULO : GCC_JIT_BINARY_OP_DIVIDE, st,
		  cast(g, rv(a), st), cast(g, rv(b), st)),
	      t));
	J(block_end_with_jump)(normal, NULL, join);
	g->cur = join;
	return rv(v);
}

/* A division by zero costs what the model says instead (the clock of the
 * instructions after it moves, as in the interpreter). The accounting
 * variants leave before it, so that the interpreter runs it and reports
 * the extra (ACCT_EXTRA) and the clocks it moves (ACCT_SHIFT): translated
 * code with subscribers makes no extra cycles. */
static void div_zero_cost(struct gen *g, gcc_jit_rvalue *divisor, gcc_jit_type *t,
			  const struct jit_desc_insn *in, uint32_t prev_pc)
{
	gcc_jit_block *then, *save;
	gcc_jit_rvalue *zero;

	if (!g->head->div_zero_delta)
		return;
	zero = cmp(g, GCC_JIT_COMPARISON_EQ, divisor, J(context_zero)(g->c, t));
	if (g->acct) {
		exit_before_why(g, zero, in, prev_pc, JIT_EXIT_COST);
		return;
	}
	then = branch_off(g, zero, "dzc");
	save = g->cur;
	g->cur = then;
	advance(g, (uint64_t)(int64_t)g->head->div_zero_delta);
	J(block_end_with_jump)(g->cur, NULL, save);
	g->cur = save;
}

/* The high half of a product: signs say which operands are signed. */
static gcc_jit_rvalue *mul_high(struct gen *g, gcc_jit_rvalue *a, gcc_jit_rvalue *b, bool sa,
				bool sb)
{
	gcc_jit_type *w = sa || sb ? g->tsw : g->tw;
	gcc_jit_rvalue *wa = cast(g, sa ? sx(g, a) : a, w), *wb = cast(g, sb ? sx(g, b) : b, w);
	gcc_jit_rvalue *p = bin(g, GCC_JIT_BINARY_OP_MULT, w, wa, wb);

	return cast(g, bin(g, GCC_JIT_BINARY_OP_RSHIFT, w, p, konst(g, w, g->xlen)), g->tx);
}

static gcc_jit_rvalue *lo32(struct gen *g, gcc_jit_rvalue *v) { return cast(g, v, g->tu32); }

/* One instruction that does not end its block. */
static void straight(struct gen *g, const struct jit_desc_insn *in, uint32_t prev_pc)
{
	gcc_jit_rvalue *a, *r1 = reg(g, in->rs1), *r2 = reg(g, in->rs2);
	gcc_jit_rvalue *shmask = konst(g, g->tx, g->xlen - 1);
	gcc_jit_rvalue *m5 = konst(g, g->tu32, 31);
	uint32_t size = insn_access_size(in->op);

	switch (in->op) {
	case OP_lui: set_reg(g, in->rd, imm(g, in)); break;
	case OP_auipc:
		/* the decoder keeps pc + imm in 32 bits; at XLEN 64 it is the
		 * sign-extended immediate added to the pc */
		set_reg(g, in->rd,
			konst(g, g->tx,
			      g->xlen == 64
				  ? (uint64_t)in->pc +
					(uint64_t)(int64_t)(int32_t)((uint32_t)in->imm - in->pc)
				  : (uint32_t)in->imm));
		break;
	case OP_lb:
	case OP_lh:
	case OP_lw:
	case OP_lbu:
	case OP_lhu:
	case OP_lwu:
	case OP_ld: {
		gcc_jit_rvalue *v;
		a = address(g, in, size, prev_pc);
		v = load_mem(g, a, size);
		if (in->op == OP_lb)
			v = cast(g, cast(g, v, g->ti8), g->tsx);
		else if (in->op == OP_lh)
			v = cast(g, cast(g, v, g->ti16), g->tsx);
		else if (in->op == OP_lw)
			v = cast(g, cast(g, v, g->ti32), g->tsx);
		set_reg(g, in->rd, v);
		break;
	}
	case OP_sb:
	case OP_sh:
	case OP_sw:
	case OP_sd:
		a = address(g, in, size, prev_pc);
		store_mem(g, a, r2, size);
		code_check(g, a, size, in);
		break;
	case OP_addi:
		set_reg(g, in->rd, bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, r1, imm(g, in)));
		break;
	case OP_slti:
		set_reg(g, in->rd, cmp(g, GCC_JIT_COMPARISON_LT, sx(g, r1), sx(g, imm(g, in))));
		break;
	case OP_sltiu: set_reg(g, in->rd, cmp(g, GCC_JIT_COMPARISON_LT, r1, imm(g, in))); break;
	case OP_xori:
		set_reg(g, in->rd, bin(g, GCC_JIT_BINARY_OP_BITWISE_XOR, g->tx, r1, imm(g, in)));
		break;
	case OP_ori:
		set_reg(g, in->rd, bin(g, GCC_JIT_BINARY_OP_BITWISE_OR, g->tx, r1, imm(g, in)));
		break;
	case OP_andi:
		set_reg(g, in->rd, bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx, r1, imm(g, in)));
		break;
	case OP_slli:
		set_reg(g, in->rd,
			bin(g, GCC_JIT_BINARY_OP_LSHIFT, g->tx, r1,
			    konst(g, g->tx, (uint32_t)in->imm)));
		break;
	case OP_srli:
		set_reg(g, in->rd,
			bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tx, r1,
			    konst(g, g->tx, (uint32_t)in->imm)));
		break;
	case OP_srai:
		set_reg(g, in->rd,
			bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tsx, sx(g, r1),
			    konst(g, g->tsx, (uint32_t)in->imm)));
		break;
	case OP_add: set_reg(g, in->rd, bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, r1, r2)); break;
	case OP_sub: set_reg(g, in->rd, bin(g, GCC_JIT_BINARY_OP_MINUS, g->tx, r1, r2)); break;
	case OP_sll:
		set_reg(g, in->rd,
			bin(g, GCC_JIT_BINARY_OP_LSHIFT, g->tx, r1,
			    bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx, r2, shmask)));
		break;
	case OP_slt: set_reg(g, in->rd, cmp(g, GCC_JIT_COMPARISON_LT, sx(g, r1), sx(g, r2))); break;
	case OP_sltu: set_reg(g, in->rd, cmp(g, GCC_JIT_COMPARISON_LT, r1, r2)); break;
	case OP_xor:
		set_reg(g, in->rd, bin(g, GCC_JIT_BINARY_OP_BITWISE_XOR, g->tx, r1, r2));
		break;
	case OP_srl:
		set_reg(g, in->rd,
			bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tx, r1,
			    bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx, r2, shmask)));
		break;
	case OP_sra:
		set_reg(g, in->rd,
			bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tsx, sx(g, r1),
			    sx(g, bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx, r2, shmask))));
		break;
	case OP_or: set_reg(g, in->rd, bin(g, GCC_JIT_BINARY_OP_BITWISE_OR, g->tx, r1, r2)); break;
	case OP_and:
		set_reg(g, in->rd, bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx, r1, r2));
		break;
	case OP_fence: break;
	case OP_mul: set_reg(g, in->rd, bin(g, GCC_JIT_BINARY_OP_MULT, g->tx, r1, r2)); break;
	case OP_mulh: set_reg(g, in->rd, mul_high(g, r1, r2, true, true)); break;
	case OP_mulhsu: set_reg(g, in->rd, mul_high(g, r1, r2, true, false)); break;
	case OP_mulhu: set_reg(g, in->rd, mul_high(g, r1, r2, false, false)); break;
	case OP_div:
	case OP_divu:
	case OP_rem:
	case OP_remu: {
		gcc_jit_lvalue *b = J(function_new_local)(g->fn, NULL, g->tx, "dvs");
		assign(g, b, r2); /* read before the result can overwrite it */
		div_zero_cost(g, rv(b), g->tx, in, prev_pc);
		set_reg(g, in->rd,
			divide(g, g->tx, g->tsx, in->op == OP_div || in->op == OP_rem,
			       in->op == OP_rem || in->op == OP_remu, r1, rv(b)));
		break;
	}
	/* RV64's W forms: 32-bit operations, results sign-extended */
	case OP_addiw:
		set_reg(g, in->rd,
			gen_sext32(g, bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu32, lo32(g, r1),
					  konst(g, g->tu32, (uint32_t)in->imm))));
		break;
	case OP_slliw:
		set_reg(g, in->rd,
			gen_sext32(g, bin(g, GCC_JIT_BINARY_OP_LSHIFT, g->tu32, lo32(g, r1),
					  konst(g, g->tu32, (uint32_t)in->imm))));
		break;
	case OP_srliw:
		set_reg(g, in->rd,
			gen_sext32(g, bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tu32, lo32(g, r1),
					  konst(g, g->tu32, (uint32_t)in->imm))));
		break;
	case OP_sraiw:
		set_reg(g, in->rd,
			gen_sext32(g, bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->ti32,
					  cast(g, lo32(g, r1), g->ti32),
					  konst(g, g->ti32, (uint32_t)in->imm))));
		break;
	case OP_addw:
		set_reg(g, in->rd,
			gen_sext32(
			    g, bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu32, lo32(g, r1), lo32(g, r2))));
		break;
	case OP_subw:
		set_reg(g, in->rd,
			gen_sext32(
			    g, bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu32, lo32(g, r1), lo32(g, r2))));
		break;
	case OP_sllw:
		set_reg(g, in->rd,
			gen_sext32(g, bin(g, GCC_JIT_BINARY_OP_LSHIFT, g->tu32, lo32(g, r1),
					  bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tu32,
					      lo32(g, r2), m5))));
		break;
	case OP_srlw:
		set_reg(g, in->rd,
			gen_sext32(g, bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tu32, lo32(g, r1),
					  bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tu32,
					      lo32(g, r2), m5))));
		break;
	case OP_sraw:
		set_reg(
		    g, in->rd,
		    gen_sext32(
			g,
			bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->ti32, cast(g, lo32(g, r1), g->ti32),
			    cast(g, bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tu32, lo32(g, r2), m5),
				 g->ti32))));
		break;
	case OP_mulw:
		set_reg(g, in->rd,
			gen_sext32(
			    g, bin(g, GCC_JIT_BINARY_OP_MULT, g->tu32, lo32(g, r1), lo32(g, r2))));
		break;
	case OP_divw:
	case OP_divuw:
	case OP_remw:
	case OP_remuw: {
		gcc_jit_lvalue *b = J(function_new_local)(g->fn, NULL, g->tu32, "dvs");
		assign(g, b, lo32(g, r2));
		div_zero_cost(g, rv(b), g->tu32, in, prev_pc);
		set_reg(g, in->rd,
			gen_sext32(g, divide(g, g->tu32, g->ti32,
					     in->op == OP_divw || in->op == OP_remw,
					     in->op == OP_remw || in->op == OP_remuw, lo32(g, r1),
					     rv(b))));
		break;
	}
	default: /* jit.c lets no other instruction into a region */ abort();
	}
}

/* The instruction that ends block k, and where the run goes from there. */
static bool is_link(unsigned r) { return r == 1 || r == 5; } /* ra, t0: call/return hints */

static void block_end(struct gen *g, const struct jit_desc_insn *in, uint32_t prev_pc, uint32_t n)
{
	gcc_jit_rvalue *r1 = reg(g, in->rs1), *r2 = reg(g, in->rs2);
	enum gcc_jit_comparison op;
	bool is_signed = false;

	switch (in->op) {
	case OP_block_end: /* not an instruction: the clock moves to its end */
		finish_block(g, in, in->index, in->after, false, NULL, false, n,
			     konst(g, g->tu64, in->pc), in->pc, prev_pc);
		go_to(g, in->pc, in->pc, prev_pc);
		return;
	case OP_jal:
		set_reg(g, in->rd, konst(g, g->tx, in->pc + in->len));
		finish_block(g, in, in->index + 1u, in->after, false,
			     konst(g, g->tu32, (uint32_t)in->imm), !is_link(in->rd), n,
			     konst(g, g->tu64, (uint32_t)in->imm), in->pc, in->pc);
		go_to(g, (uint32_t)in->imm, in->pc, in->pc);
		return;
	case OP_jalr: {
		gcc_jit_lvalue *t = J(function_new_local)(g->fn, NULL, g->tx, "target");
		assign(g, t,
		       bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx,
			   bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, r1, imm(g, in)),
			   konst(g, g->tx, g->xlen == 64 ? ~UINT64_C(1) : 0xfffffffeu)));
		if (g->xlen == 64 && !(g->first_checked && in->index == 0)) /* past 4 GiB */
			exit_before_if(
			    g,
			    cmp(g, GCC_JIT_COMPARISON_GE, rv(t), konst(g, g->tx, MEM_CODE_LIMIT)),
			    in, prev_pc);
		set_reg(g, in->rd, konst(g, g->tx, in->pc + in->len));
		finish_block(g, in, in->index + 1u, in->after, false, cast(g, rv(t), g->tu32),
			     !is_link(in->rd) && !is_link(in->rs1), n, cast(g, rv(t), g->tu64),
			     in->pc, in->pc);
		assign(g, g->last, konst(g, g->tu64, in->pc));
		assign(g, g->retired, konst(g, g->tu64, in->pc));
		assign(g, g->next, cast(g, rv(t), g->tu32));
		J(block_end_with_jump)(g->cur, NULL, g->dispatch);
		return;
	}
	case OP_beq: op = GCC_JIT_COMPARISON_EQ; break;
	case OP_bne: op = GCC_JIT_COMPARISON_NE; break;
	case OP_blt: op = GCC_JIT_COMPARISON_LT, is_signed = true; break;
	case OP_bge: op = GCC_JIT_COMPARISON_GE, is_signed = true; break;
	case OP_bltu: op = GCC_JIT_COMPARISON_LT; break;
	case OP_bgeu: op = GCC_JIT_COMPARISON_GE; break;
	default: abort();
	}
	gcc_jit_block *taken = new_block(g, "taken"), *fall = new_block(g, "fall");
	J(block_end_with_conditional)
	(g->cur, NULL, cmp(g, op, is_signed ? sx(g, r1) : r1, is_signed ? sx(g, r2) : r2), taken,
	 fall);
	g->cur = taken;
	g->self_edge = g->self_loop[g->k];
	finish_block(g, in, in->index + 1u, (uint64_t)in->after + g->head->taken_extra, true,
		     konst(g, g->tu32, (uint32_t)in->imm), true, n,
		     konst(g, g->tu64, (uint32_t)in->imm), in->pc, in->pc);
	g->self_edge = false;
	go_to(g, (uint32_t)in->imm, in->pc, in->pc);
	g->cur = fall;
	finish_block(g, in, in->index + 1u, in->after, false, NULL, false, n,
		     konst(g, g->tu64, in->pc + in->len), in->pc, in->pc);
	flush_loop(g);
	go_to(g, in->pc + in->len, in->pc, in->pc);
}

/* The blocks of the region block k goes on to (a jalr's are unknown). */
static unsigned successors(const struct gen *g, unsigned k, int out[2])
{
	const struct jit_desc_block *b = &g->blocks[k];
	const struct jit_desc_insn *in = &g->insns[b->first + b->n - 1];
	unsigned n = 0;

	if (in->op == OP_block_end) {
		out[n++] = block_at(g, in->pc);
	} else if (in->op == OP_jal) {
		out[n++] = block_at(g, (uint32_t)in->imm);
	} else if (in->op != OP_jalr) {
		out[n++] = block_at(g, (uint32_t)in->imm);
		out[n++] = block_at(g, in->pc + in->len);
	}
	return n;
}

/* How far a run can go without a budget check. */
#define JIT_REACH_MAX 1024u

/* Where the budget is checked (g->check) and how much a run may cost from
 * there (g->reach): the blocks are by pc, so the jumps forward form a graph
 * without cycles, and the most a path of them costs is found from the last
 * block back; every cycle of the region goes through a jump back, whose
 * target is checked. A translated block thus runs only when it fits the
 * budget whatever path it is on. Also which blocks' first instruction can
 * leave the region before it runs (g->need_prev). */
static void plan_checks(struct gen *g)
{
	for (unsigned k = 0; k < g->n_blocks; k++) {
		int succ[2];
		unsigned n = successors(g, k, succ);
		const struct jit_desc_insn *first = &g->insns[g->blocks[k].first];
		unsigned cls = insn_classes[first->op];
		/* the lean variant checks every block: a subscriber that
		 * wants the run back (gen_run) ends it at the next (the full
		 * one leaves for the driver at a flagged block instead) */
		if ((g->blocks[k].flags & JIT_BLOCK_ENTRY) || g->lean)
			g->check[k] = true;
		for (unsigned i = 0; i < n; i++)
			if (succ[i] >= 0 && (unsigned)succ[i] <= k)
				g->check[succ[i]] = true;
		g->need_prev[k] = g->xlen == 64 && (cls == CY_CLASS_LOAD || cls == CY_CLASS_STORE ||
						    first->op == OP_jalr);
	}
	for (unsigned k = g->n_blocks; k-- > 0;) {
		int succ[2];
		unsigned n = successors(g, k, succ);
		uint64_t most = 0;
		for (unsigned i = 0; i < n; i++)
			if (succ[i] > (int)k && !g->check[succ[i]] && g->reach[succ[i]] > most)
				most = g->reach[succ[i]];
		g->reach[k] = g->blocks[k].max_cost + most;
		if (g->reach[k] > JIT_REACH_MAX)
			g->check[k] = true;
	}
}

/* Which blocks end with a branch back to their own start (g->self_loop:
 * their counts wait in locals while they loop). */
static void plan_loops(struct gen *g)
{
	for (unsigned k = 0; k < g->n_blocks; k++) {
		const struct jit_desc_block *b = &g->blocks[k];
		const struct jit_desc_insn *in = &g->insns[b->first + b->n - 1];
		unsigned cls = insn_classes[in->op];
		g->self_loop[k] = cls == CY_CLASS_BRANCH && (uint32_t)in->imm == b->pc;
	}
}

/* Whether every instruction costs one cycle (the block's end nothing) and
 * nothing adds to that. */
static bool unit_costs(const struct gen *g)
{
	if (g->head->taken_extra || g->head->div_zero_delta)
		return false;
	for (unsigned i = 0; i < g->head->n_insns; i++) {
		const struct jit_desc_insn *in = &g->insns[i];
		if (in->before != in->index ||
		    in->after != in->index + (in->op == OP_block_end ? 0u : 1u))
			return false;
	}
	return true;
}

/* g->span for block b: its accesses grouped by the register value whose
 * sum with their offsets they access (a value lasts until an instruction
 * writes the register). */
static void plan_spans(struct gen *g, const struct jit_desc_block *b)
{
	const struct jit_desc_insn *in = &g->insns[b->first];
	int group_of[32]; /* the open group's first instruction, per register */

	g->block_first = b->first;
	for (unsigned r = 0; r < 32; r++)
		group_of[r] = -1;
	for (uint32_t i = 0; i < b->n && i <= BLOCK_MAX_INSNS; i++) {
		unsigned cls = insn_classes[in[i].op];
		g->span[i] = (struct span){ false, 0, 0 };
		if ((cls == CY_CLASS_LOAD || cls == CY_CLASS_STORE) && in[i].rs1 < 32) {
			int f = group_of[in[i].rs1];
			if (f < 0) {
				group_of[in[i].rs1] = (int)i;
				g->span[i] = (struct span){ true, in[i].imm, in[i].imm };
			} else if (in[i].imm < g->span[f].lo) {
				g->span[f].lo = in[i].imm;
			} else if (in[i].imm > g->span[f].hi) {
				g->span[f].hi = in[i].imm;
			}
		}
		if (in[i].rd < 32)
			group_of[in[i].rd] = -1;
	}
}

static void gen_block(struct gen *g, unsigned k)
{
	const struct jit_desc_block *b = &g->blocks[k];
	const struct jit_desc_insn *in = &g->insns[b->first];
	uint32_t prev_pc = 0;

	g->cur = g->labels[k];
	plan_spans(g, b);
	g->k = k;
	g->in_block = true;
	g->first_checked = g->need_prev[k] && !g->acct;
	for (uint32_t i = 0; i + 1 < b->n; i++) {
		straight(g, &in[i], prev_pc);
		prev_pc = in[i].pc;
		g->first_checked = false;
	}
	block_end(g, &in[b->n - 1], prev_pc, b->n);
	g->first_checked = false;
	g->in_block = false;
}

static void make_types(struct gen *g)
{
	gcc_jit_context *c = g->c;

	g->tvoid = J(context_get_type)(c, GCC_JIT_TYPE_VOID);
	g->tvoidp = J(context_get_type)(c, GCC_JIT_TYPE_VOID_PTR);
	g->tbool = J(context_get_type)(c, GCC_JIT_TYPE_BOOL);
	g->tsize = J(context_get_type)(c, GCC_JIT_TYPE_SIZE_T);
	g->tu8 = J(context_get_int_type)(c, 1, 0);
	g->tu16 = J(context_get_int_type)(c, 2, 0);
	g->tu32 = J(context_get_int_type)(c, 4, 0);
	g->tu64 = J(context_get_int_type)(c, 8, 0);
	g->ti8 = J(context_get_int_type)(c, 1, 1);
	g->ti16 = J(context_get_int_type)(c, 2, 1);
	g->ti32 = J(context_get_int_type)(c, 4, 1);
	g->ti64 = J(context_get_int_type)(c, 8, 1);
	g->tu8p = J(type_get_pointer)(g->tu8);
	if (g->xlen == 64) {
		g->tx = g->tu64, g->tsx = g->ti64;
		g->tw = J(context_get_int_type)(c, 16, 0);
		g->tsw = J(context_get_int_type)(c, 16, 1);
	} else {
		g->tx = g->tu32, g->tsx = g->ti32, g->tw = g->tu64, g->tsw = g->ti64;
	}
}

_Static_assert(sizeof(struct jit_frame) == 33 * 8, "jit_frame: 33 fields of 8 bytes");
_Static_assert(sizeof(struct acct_ran) == 24 && offsetof(struct acct_ran, n) == 4 &&
		   offsetof(struct acct_ran, cap) == 8 && offsetof(struct acct_ran, lost) == 12 &&
		   offsetof(struct acct_ran, list) == 16,
	       "acct_ran: four 32-bit fields, then the list");
_Static_assert(sizeof(struct acct_hist) == 7 * 8 && offsetof(struct acct_hist, lo) == 8 &&
		   offsetof(struct acct_hist, interval) == 16 &&
		   offsetof(struct acct_hist, last_pc) == 48,
	       "acct_hist: the generated code's struct of the same layout");

/* The most cycles of blocks a region's sample tables cover (8 bytes
 * each); a larger region leaves for the driver at each sample. */
#define JIT_SAMPLE_TABLE_MAX (1u << 20)

/* The samples' tables (struct gen: tab_pc, tab_end), as globals of the
 * compiled file; 0, or -1 when out of memory. */
static int make_sample_tables(struct gen *g)
{
	uint64_t total = 0;
	uint32_t *pcs, *ends;

	g->tab_base = calloc(g->n_blocks ? g->n_blocks : 1, sizeof(*g->tab_base));
	if (!g->tab_base)
		return -1;
	for (unsigned k = 0; k < g->n_blocks; k++) {
		const struct jit_desc_block *b = &g->blocks[k];
		g->tab_base[k] = (uint32_t)total;
		total += g->insns[b->first + b->n - 1].after + g->head->taken_extra;
	}
	if (total == 0 || total > JIT_SAMPLE_TABLE_MAX)
		return 0;
	pcs = malloc(total * sizeof(*pcs));
	ends = malloc(total * sizeof(*ends));
	if (!pcs || !ends) {
		free(pcs);
		free(ends);
		return -1;
	}
	for (unsigned k = 0; k < g->n_blocks; k++) {
		const struct jit_desc_block *b = &g->blocks[k];
		const struct jit_desc_insn *in = &g->insns[b->first];
		uint32_t size = in[b->n - 1].after + g->head->taken_extra;
		/* the instructions that retire when the block runs whole */
		uint32_t real = b->n - (in[b->n - 1].op == OP_block_end), i = 0;
		for (uint32_t d = 1; d <= size && real; d++) {
			/* cycle d of the block (d - 1 past its start) is the
			 * first instruction's ending at or past d; the last one's
			 * reaches the block's end */
			while (i + 1 < real && in[i].after < d)
				i++;
			pcs[g->tab_base[k] + d - 1] = in[i].pc;
			ends[g->tab_base[k] + d - 1] = i + 1 == real ? UINT32_MAX : in[i].after;
		}
	}
	gcc_jit_type *arr = J(context_new_array_type)(g->c, NULL, g->tu32, (int)total);
	g->tab_pc = J(context_new_global)(g->c, NULL, GCC_JIT_GLOBAL_INTERNAL, arr, "sample_pc");
	J(global_set_initializer)(g->tab_pc, pcs, total * sizeof(*pcs));
	g->tab_end = J(context_new_global)(g->c, NULL, GCC_JIT_GLOBAL_INTERNAL, arr, "sample_end");
	J(global_set_initializer)(g->tab_end, ends, total * sizeof(*ends));
	free(pcs);
	free(ends);
	return 0;
}

/* The samples' function, called where a block's run passes the deadline
 * (gen_samples): one for the region, not the loop in every block, which
 * made the variant's regions four times slower to compile (kernels' largest,
 * 359 blocks: 10.6 s, 2.6 s without). It counts the samples of the run from
 * clock `from` to `now` of the block whose tables start at `base`, as
 * on_deadline counts them (account.h: struct acct_hist): each on the
 * instruction whose cycles hold the deadline, the ones an instruction's
 * cycles hold counted together. It returns the next deadline, past now;
 * or 0, with the deadline in st->dl, where the run is not the one the
 * deadline belongs to (it is at or before the block's start) or the
 * sample's instruction is outside the histogram's range: the region leaves
 * for the driver there.
 *
 *   uint64_t samples(struct st *st, uint32_t base, uint64_t from,
 *                    uint64_t now, uint64_t dl);
 */
static void make_sample_fn(struct gen *g)
{
	gcc_jit_field *f[8];
	gcc_jit_param *p[5];
	gcc_jit_block *entry, *loop, *body, *more, *out;
	gcc_jit_lvalue *pos, *pc, *end, *rel, *n, *dl;
	gcc_jit_rvalue *st, *from, *now, *off, *past, *interval;

	f[0] = g->st_dl = J(context_new_field)(g->c, NULL, g->tu64, "dl");
	f[1] = g->st_total = J(context_new_field)(g->c, NULL, g->tu64, "total");
	f[2] = g->st_last_end = J(context_new_field)(g->c, NULL, g->tu64, "last_end");
	f[3] = g->st_counts =
	    J(context_new_field)(g->c, NULL, J(type_get_pointer)(g->tu64), "counts");
	f[4] = g->st_interval = J(context_new_field)(g->c, NULL, g->tu64, "interval");
	f[5] = g->st_last_pc = J(context_new_field)(g->c, NULL, g->tu32, "last_pc");
	f[6] = g->st_lo = J(context_new_field)(g->c, NULL, g->tu32, "lo");
	f[7] = g->st_size = J(context_new_field)(g->c, NULL, g->tu32, "size");
	g->st_type = J(struct_as_type)(J(context_new_struct_type)(g->c, NULL, "samples_t", 8, f));
	g->st = J(function_new_local)(g->fn, NULL, g->st_type, "st");

	p[0] = J(context_new_param)(g->c, NULL, J(type_get_pointer)(g->st_type), "st");
	p[1] = J(context_new_param)(g->c, NULL, g->tu32, "base");
	p[2] = J(context_new_param)(g->c, NULL, g->tu64, "from");
	p[3] = J(context_new_param)(g->c, NULL, g->tu64, "now");
	p[4] = J(context_new_param)(g->c, NULL, g->tu64, "dl");
	g->sample_fn = J(context_new_function)(g->c, NULL, GCC_JIT_FUNCTION_INTERNAL, g->tu64,
					       "samples", 5, p, 0);
	gcc_jit_function *region = g->fn;
	gcc_jit_block *region_cur = g->cur;
	g->fn = g->sample_fn; /* for new_block, choose and assign */
	st = J(param_as_rvalue)(p[0]);
	from = J(param_as_rvalue)(p[2]);
	now = J(param_as_rvalue)(p[3]);
	dl = J(param_as_lvalue)(p[4]);
	pos = J(function_new_local)(g->fn, NULL, g->tu32, "pos");
	pc = J(function_new_local)(g->fn, NULL, g->tu32, "pc");
	end = J(function_new_local)(g->fn, NULL, g->tu64, "end");
	rel = J(function_new_local)(g->fn, NULL, g->tu32, "rel");
	n = J(function_new_local)(g->fn, NULL, g->tu64, "n");
	entry = new_block(g, "entry");
	loop = new_block(g, "sample");
	body = new_block(g, "count");
	more = new_block(g, "more");
	out = new_block(g, "out");
#define ST(fld) J(rvalue_dereference_field)(st, NULL, g->fld)
	/* a deadline at or before the block's start is not this run's */
	J(block_end_with_conditional)
	(entry, NULL, cmp(g, GCC_JIT_COMPARISON_LE, rv(dl), from), out, loop);

	g->cur = loop;
	assign(g, pos,
	       bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu32,
		   cast(g, bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu64, rv(dl), from), g->tu32),
		   bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu32, J(param_as_rvalue)(p[1]),
		       J(context_one)(g->c, g->tu32))));
	assign(g, pc, rv(J(context_new_array_access)(g->c, NULL, rv(g->tab_pc), rv(pos))));
	off = rv(J(context_new_array_access)(g->c, NULL, rv(g->tab_end), rv(pos)));
	assign(g, end,
	       choose(g, g->tu64, cmp(g, GCC_JIT_COMPARISON_EQ, off, konst(g, g->tu32, UINT32_MAX)),
		      now, bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, from, cast(g, off, g->tu64))));
	assign(g, rel, bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu32, rv(pc), rv(ST(st_lo))));
	J(block_end_with_conditional)
	(g->cur, NULL, cmp(g, GCC_JIT_COMPARISON_GE, rv(rel), rv(ST(st_size))), out, body);

	g->cur = body;
	interval = rv(ST(st_interval));
	past = bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu64, rv(end), rv(dl));
	assign(g, n,
	       choose(g, g->tu64, cmp(g, GCC_JIT_COMPARISON_LT, past, interval),
		      J(context_one)(g->c, g->tu64),
		      bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64,
			  bin(g, GCC_JIT_BINARY_OP_DIVIDE, g->tu64, past, interval),
			  J(context_one)(g->c, g->tu64))));
	J(block_add_assignment_op)
	(g->cur, NULL,
	 J(context_new_array_access)(
	     g->c, NULL, rv(ST(st_counts)),
	     bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tu32, rv(rel), konst(g, g->tu32, 1))),
	 GCC_JIT_BINARY_OP_PLUS, rv(n));
	J(block_add_assignment_op)(g->cur, NULL, ST(st_total), GCC_JIT_BINARY_OP_PLUS, rv(n));
	J(block_add_assignment_op)
	(g->cur, NULL, dl, GCC_JIT_BINARY_OP_PLUS,
	 bin(g, GCC_JIT_BINARY_OP_MULT, g->tu64, rv(n), interval));
	assign(g, ST(st_last_pc), rv(pc));
	assign(g, ST(st_last_end), rv(end));
	J(block_end_with_conditional)
	(g->cur, NULL, cmp(g, GCC_JIT_COMPARISON_LE, rv(dl), now), loop, more);
	J(block_end_with_return)(more, NULL, rv(dl));

	J(block_add_assignment)(out, NULL, ST(st_dl), rv(dl));
	J(block_end_with_return)(out, NULL, J(context_zero)(g->c, g->tu64));
#undef ST
	g->fn = region;
	g->cur = region_cur;
}

int jit_gen_compile(const void *desc, size_t size, const char *path, char *why, size_t why_size)
{
	struct gen g = { 0 };
	gcc_jit_param *param;
	gcc_jit_struct *frame_struct;
	gcc_jit_field *fields[33], *hfields[8], *rfields[5];
	gcc_jit_type *fn_ptr_params[6];
	gcc_jit_block *entry;
	gcc_jit_case **cases;
	gcc_jit_lvalue *regs; /* the frame's, at the entry and the exit */
	int rc = -1;

	if (jit_gen_load(why, why_size) != 0)
		return -1;
	g.head = desc;
	g.blocks = (const struct jit_desc_block *)(g.head + 1);
	g.insns = (const struct jit_desc_insn *)(g.blocks + g.head->n_blocks);
	g.xlen = g.head->xlen;
	g.acct = g.head->flags & JIT_DESC_ACCT;
	g.cost = &g.head->cost;
	g.lean = g.acct && (g.head->flags & JIT_DESC_LEAN);
	g.deadlines = g.acct && !g.lean && !(g.head->flags & JIT_DESC_NO_DEADLINE);
	g.counts = g.acct && !g.lean && !(g.head->flags & JIT_DESC_NO_COUNTS);
	g.phases = g.deadlines && (g.head->flags & JIT_DESC_PHASES);
	g.n_blocks = g.head->n_blocks;
	g.c = J(context_acquire)();
	if (!g.c) {
		snprintf(why, why_size, "libgccjit: no context");
		return -1;
	}
	J(context_set_int_option)(g.c, GCC_JIT_INT_OPTION_OPTIMIZATION_LEVEL, 1);
	J(context_set_bool_option)(g.c, GCC_JIT_BOOL_OPTION_DEBUGINFO, 0);
	if (p_quiet_errors)
		p_quiet_errors(g.c, 0);
	J(context_add_command_line_option)(g.c, "-fno-strict-aliasing");
	J(context_add_command_line_option)(g.c, "-fPIC");
	/* scheduling before register allocation, to lower its pressure:
	 * fewer spills in loops that use most guest registers (sha256's
	 * rounds 5% faster, keccak 1-3%), for about 10% more compile time */
	J(context_add_command_line_option)(g.c, "-fschedule-insns");
	J(context_add_command_line_option)(g.c, "-fsched-pressure");
	make_types(&g);

	/* the frame, as a struct of the same layout as struct jit_frame; the
	 * misaligned callback's field has its function pointer type */
	fields[0] = g.f_regs = J(context_new_field)(g.c, NULL, g.tu8p, "regs");
	fields[1] = g.f_mem = J(context_new_field)(g.c, NULL, g.tu8p, "mem");
	fields[2] = g.f_codemap = J(context_new_field)(g.c, NULL, g.tu8p, "codemap");
	fields[3] = g.f_vm = J(context_new_field)(g.c, NULL, g.tvoidp, "vm");
	fields[4] = g.f_misaligned =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu64), "misaligned");
	fields[5] = g.f_cycles = J(context_new_field)(g.c, NULL, g.tu64, "cycles");
	fields[6] = g.f_instret = J(context_new_field)(g.c, NULL, g.tu64, "instret");
	fields[7] = g.f_budget = J(context_new_field)(g.c, NULL, g.tu64, "budget");
	fields[8] = g.f_pc = J(context_new_field)(g.c, NULL, g.tu64, "pc");
	fields[9] = g.f_last = J(context_new_field)(g.c, NULL, g.tu64, "last_pc");
	fields[10] = g.f_retired = J(context_new_field)(g.c, NULL, g.tu64, "retired_pc");
	fields[11] = g.f_exit = J(context_new_field)(g.c, NULL, g.tu64, "exit");
	fields[12] = g.f_blocks =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu8p), "blocks");
	fields[13] = g.f_events = J(context_new_field)(g.c, NULL, g.tu64, "events");
	fields[14] = g.f_deadline =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu64), "deadline");
	fields[15] = g.f_context =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu32), "context");
	fields[16] = g.f_has_last =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tbool), "has_last");
	fields[17] = g.f_last_transfer =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu32), "last_transfer");
	fields[18] = g.f_break_loop =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tbool), "break_loop");
	/* transfer_fn(vm, b, index, target, cycles, instret) */
	fn_ptr_params[0] = g.tvoidp, fn_ptr_params[1] = g.tvoidp, fn_ptr_params[2] = g.tu32;
	fn_ptr_params[3] = g.tu32, fn_ptr_params[4] = g.tu64, fn_ptr_params[5] = g.tu64;
	fields[19] = g.f_transfer_fn = J(context_new_field)(
	    g.c, NULL, J(context_new_function_ptr_type)(g.c, NULL, g.tvoid, 6, fn_ptr_params, 0),
	    "transfer_fn");
	/* flagged_fn(vm, b, retired, instret) */
	fn_ptr_params[3] = g.tu64;
	fields[20] = g.f_flagged_fn = J(context_new_field)(
	    g.c, NULL, J(context_new_function_ptr_type)(g.c, NULL, g.tvoid, 4, fn_ptr_params, 0),
	    "flagged_fn");
	/* partial_fn(vm, b, retired, cycles, instret, now) */
	fn_ptr_params[4] = g.tu64, fn_ptr_params[5] = g.tu64;
	fields[21] = g.f_partial_fn = J(context_new_field)(
	    g.c, NULL, J(context_new_function_ptr_type)(g.c, NULL, g.tvoid, 6, fn_ptr_params, 0),
	    "partial_fn");
	fields[22] = g.f_mis_seen = J(context_new_field)(g.c, NULL, g.tu64, "misaligned_seen");
	/* struct acct_hist */
	hfields[0] = g.h_counts =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu64), "counts");
	hfields[1] = g.h_lo = J(context_new_field)(g.c, NULL, g.tu32, "lo");
	hfields[2] = g.h_size = J(context_new_field)(g.c, NULL, g.tu32, "size");
	hfields[3] = g.h_interval = J(context_new_field)(g.c, NULL, g.tu64, "interval");
	hfields[4] = g.h_next =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu64), "next");
	hfields[5] = g.h_total =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu64), "total");
	hfields[6] = g.h_last_end =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu64), "last_end");
	hfields[7] = g.h_last_pc =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu32), "last_pc");
	gcc_jit_type *hist_type = g.hist_type = J(type_get_pointer)(
	    J(struct_as_type)(J(context_new_struct_type)(g.c, NULL, "acct_hist_t", 8, hfields)));
	fields[23] = g.f_hist = J(context_new_field)(g.c, NULL, hist_type, "hist");
	fields[24] = g.f_acct_stage = J(context_new_field)(g.c, NULL, g.tu64, "acct_stage");
	fields[25] = g.f_acct_block = J(context_new_field)(g.c, NULL, g.tu64, "acct_block");
	fields[26] = g.f_acct_retired = J(context_new_field)(g.c, NULL, g.tu64, "acct_retired");
	fields[27] = g.f_acct_from = J(context_new_field)(g.c, NULL, g.tu64, "acct_from");
	fields[28] = g.f_acct_target = J(context_new_field)(g.c, NULL, g.tu64, "acct_target");
	fields[29] = g.f_acct_flags = J(context_new_field)(g.c, NULL, g.tu64, "acct_flags");
	fields[30] = g.f_pages = J(context_new_field)(g.c, NULL, g.tu8p, "pages");
	/* struct acct_ran */
	rfields[0] = g.r_mark = J(context_new_field)(g.c, NULL, g.tu32, "mark");
	rfields[1] = g.r_n = J(context_new_field)(g.c, NULL, g.tu32, "n");
	rfields[2] = g.r_cap = J(context_new_field)(g.c, NULL, g.tu32, "cap");
	rfields[3] = g.r_lost = J(context_new_field)(g.c, NULL, g.tu32, "lost");
	rfields[4] = g.r_list =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu8p), "list");
	g.ran_type = J(type_get_pointer)(
	    J(struct_as_type)(J(context_new_struct_type)(g.c, NULL, "acct_ran_t", 5, rfields)));
	fields[31] = g.f_ran = J(context_new_field)(g.c, NULL, g.ran_type, "ran");
	fields[32] = g.f_phases =
	    J(context_new_field)(g.c, NULL, J(type_get_pointer)(g.tu64), "phases");
	frame_struct = J(context_new_struct_type)(g.c, NULL, "jit_frame_t", 33, fields);
	param = J(context_new_param)(g.c, NULL,
				     J(type_get_pointer)(J(struct_as_type)(frame_struct)), "f");
	g.fn = J(context_new_function)(g.c, NULL, GCC_JIT_FUNCTION_EXPORTED, g.tvoid,
				       JIT_SYM_REGION, 1, &param, 0);
	g.frame = J(param_as_rvalue)(param);
	g.memcpy_fn = J(context_get_builtin_function)(g.c, "__builtin_memcpy");
	g.expect_fn = J(context_get_builtin_function)(g.c, "__builtin_expect");

	/* the description, for the loader to compare with what it wants */
	{
		gcc_jit_type *arr = J(context_new_array_type)(g.c, NULL, g.tu8, (int)size);
		gcc_jit_lvalue *d =
		    J(context_new_global)(g.c, NULL, GCC_JIT_GLOBAL_EXPORTED, arr, JIT_SYM_DESC);
		J(global_set_initializer)(d, desc, size);
	}

	for (unsigned i = 1; i < 32; i++) {
		char name[8];
		snprintf(name, sizeof(name), "x%u", i);
		g.r[i] = J(function_new_local)(g.fn, NULL, g.tx, name);
	}
	g.left = J(function_new_local)(g.fn, NULL, g.tu64, "left");
	g.instret = J(function_new_local)(g.fn, NULL, g.tu64, "instret");
	g.budget = J(function_new_local)(g.fn, NULL, g.tu64, "budget");
	g.next = J(function_new_local)(g.fn, NULL, g.tu32, "next");
	g.exit_pc = J(function_new_local)(g.fn, NULL, g.tu64, "exit_pc");
	g.reason = J(function_new_local)(g.fn, NULL, g.tu64, "reason");
	g.last = J(function_new_local)(g.fn, NULL, g.tu64, "last");
	g.retired = J(function_new_local)(g.fn, NULL, g.tu64, "retired");
	g.mem = J(function_new_local)(g.fn, NULL, g.tu8p, "mem");
	g.codemap = J(function_new_local)(g.fn, NULL, g.tu8p, "codemap");
	g.pages = J(function_new_local)(g.fn, NULL, g.tu8p, "pages");
	g.tmp8 = J(function_new_local)(g.fn, NULL, g.tu8, "t8");
	g.tmp16 = J(function_new_local)(g.fn, NULL, g.tu16, "t16");
	g.tmp32 = J(function_new_local)(g.fn, NULL, g.tu32, "t32");
	g.tmp64 = J(function_new_local)(g.fn, NULL, g.tu64, "t64");
	g.bp = J(function_new_local)(g.fn, NULL, g.tu8p, "bp");
	g.blocks_l = J(function_new_local)(g.fn, NULL, J(type_get_pointer)(g.tu8p), "blocks_l");
	regs = J(function_new_local)(g.fn, NULL, J(type_get_pointer)(g.tx), "regs");
	g.events = J(function_new_local)(g.fn, NULL, g.tu64, "events");
	g.s_from = J(function_new_local)(g.fn, NULL, g.tu64, "s_from");
	g.dl = J(function_new_local)(g.fn, NULL, g.tu64, "deadline");
	g.dl_next = J(function_new_local)(g.fn, NULL, g.tu64, "dl_next");
	g.lt_any = J(function_new_local)(g.fn, NULL, g.tbool, "lt_any");
	g.lt_from = J(function_new_local)(g.fn, NULL, g.tu32, "lt_from");
	g.lt_to = J(function_new_local)(g.fn, NULL, g.tu32, "lt_to");
	g.ran_l = J(function_new_local)(g.fn, NULL, g.ran_type, "ran");
	g.ran_mark_l = J(function_new_local)(g.fn, NULL, g.tu32, "ran_mark");
	g.pend_runs = J(function_new_local)(g.fn, NULL, g.tu64, "pend_runs");
	g.pend_taken = J(function_new_local)(g.fn, NULL, g.tu64, "pend_taken");
	g.ph_tbl = J(function_new_local)(g.fn, NULL, J(type_get_pointer)(g.tu64), "ph_tbl");
	g.ph_k = J(function_new_local)(g.fn, NULL, g.tu64, "ph_k");
	g.ph_mask = J(function_new_local)(g.fn, NULL, g.tu64, "ph_mask");
	g.ph_upto = J(function_new_local)(g.fn, NULL, g.tu64, "ph_upto");

	/* the registers the region uses are loaded at its entry, those it
	 * writes go back at its exit */
	for (unsigned i = 0; i < g.head->n_insns; i++) {
		const struct jit_desc_insn *in = &g.insns[i];
		if (in->rd < 32)
			g.written[in->rd] = g.used[in->rd] = true;
		if (in->rs1 < 32)
			g.used[in->rs1] = true;
		if (in->rs2 < 32)
			g.used[in->rs2] = true;
	}

	entry = J(function_new_block)(g.fn, "entry");
	g.dispatch = J(function_new_block)(g.fn, "dispatch");
	g.exit_blk = J(function_new_block)(g.fn, "exit");
	g.labels = calloc(g.n_blocks ? g.n_blocks : 1, sizeof(*g.labels));
	cases = calloc(g.n_blocks ? g.n_blocks : 1, sizeof(*cases));
	g.check = calloc(g.n_blocks ? g.n_blocks : 1, sizeof(*g.check));
	g.need_prev = calloc(g.n_blocks ? g.n_blocks : 1, sizeof(*g.need_prev));
	g.reach = calloc(g.n_blocks ? g.n_blocks : 1, sizeof(*g.reach));
	g.self_loop = calloc(g.n_blocks ? g.n_blocks : 1, sizeof(*g.self_loop));
	if (!g.labels || !cases || !g.check || !g.need_prev || !g.reach || !g.self_loop) {
		snprintf(why, why_size, "out of memory");
		goto out;
	}
	for (unsigned k = 0; k < g.n_blocks; k++) {
		char name[24];
		snprintf(name, sizeof(name), "pc_%08x", g.blocks[k].pc);
		g.labels[k] = J(function_new_block)(g.fn, name);
	}
	plan_checks(&g);
	if (g.acct && !g.lean) /* without counts too: the loop's later runs check less */
		plan_loops(&g);
	g.unit = unit_costs(&g);
	if (g.deadlines && !g.phases && make_sample_tables(&g) != 0) {
		snprintf(why, why_size, "out of memory");
		goto out;
	}
	if (g.tab_pc)
		make_sample_fn(&g);
	if (g.counts)
		make_ran_fn(&g);

	/* entry: the frame into locals */
	g.cur = entry;
	assign(&g, regs, cast(&g, rv(field(&g, g.f_regs)), J(type_get_pointer)(g.tx)));
	for (unsigned i = 1; i < 32; i++) {
		if (!g.used[i])
			continue;
		gcc_jit_lvalue *slot =
		    J(context_new_array_access)(g.c, NULL, rv(regs), konst(&g, g.tu32, i));
		assign(&g, g.r[i], rv(slot));
	}
	assign(&g, g.budget, rv(field(&g, g.f_budget)));
	set_now(&g, rv(field(&g, g.f_cycles)));
	assign(&g, g.instret, rv(field(&g, g.f_instret)));
	assign(&g, g.last, rv(field(&g, g.f_last)));
	assign(&g, g.retired, rv(field(&g, g.f_retired)));
	assign(&g, g.mem, rv(field(&g, g.f_mem)));
	assign(&g, g.codemap, rv(field(&g, g.f_codemap)));
	if (g.cost->exits & JIT_COST_PAGING) {
		assign(&g, g.pages, rv(field(&g, g.f_pages)));
	}
	assign(&g, g.next, cast(&g, rv(field(&g, g.f_pc)), g.tu32));
	if (g.acct)
		assign(&g, g.events, rv(field(&g, g.f_events)));
	if (g.lean)
		assign(&g, g.lt_any, J(context_zero)(g.c, g.tbool));
	if (g.acct && !g.lean)
		load_full_locals(&g);
	J(block_end_with_jump)(g.cur, NULL, g.dispatch);

	/* dispatch: to the block at next (past the budget's check), or out */
	{
		gcc_jit_block *out = J(function_new_block)(g.fn, "not_here");
		int n_cases = 0;
		for (unsigned k = 0; k < g.n_blocks; k++) {
			gcc_jit_rvalue *pc = konst(&g, g.tu32, g.blocks[k].pc);
			gcc_jit_block *gate;
			if (!(g.blocks[k].flags & JIT_BLOCK_ENTRY))
				continue;
			gate = g.cur = new_block(&g, "gate");
			leave(&g, branch_off(&g, over_budget(&g, k), "budget"), JIT_EXIT_BUDGET,
			      g.blocks[k].pc, NULL, 0, 0, 0);
			if (g.need_prev[k] && !g.acct)
				first_check(&g, k, 0, 0);
			fetch_check(&g, k, false, 0, 0);
			J(block_end_with_jump)(g.cur, NULL, g.labels[k]);
			cases[n_cases++] = J(context_new_case)(g.c, pc, pc, gate);
		}
		J(block_end_with_switch)(g.dispatch, NULL, rv(g.next), out, n_cases, cases);
		J(block_add_assignment)(out, NULL, g.exit_pc, cast(&g, rv(g.next), g.tu64));
		J(block_add_assignment)(out, NULL, g.reason, konst(&g, g.tu64, JIT_EXIT_JUMP));
		J(block_end_with_jump)(out, NULL, g.exit_blk);
	}

	for (unsigned k = 0; k < g.n_blocks; k++)
		gen_block(&g, k);

	/* exit: the locals back into the frame */
	g.cur = g.exit_blk;
	if (g.deadlines)
		store_samples(&g);
	if (g.acct)
		store_last(&g);
	assign(&g, regs, cast(&g, rv(field(&g, g.f_regs)), J(type_get_pointer)(g.tx)));
	for (unsigned i = 1; i < 32; i++) {
		if (!g.written[i])
			continue;
		gcc_jit_lvalue *slot =
		    J(context_new_array_access)(g.c, NULL, rv(regs), konst(&g, g.tu32, i));
		assign(&g, slot, rv(g.r[i]));
	}
	if (g.unit) /* before the frame's clock moves: instret_now reads it */
		assign(&g, g.instret, instret_now(&g));
	assign(&g, field(&g, g.f_cycles), now(&g));
	assign(&g, field(&g, g.f_instret), rv(g.instret));
	assign(&g, field(&g, g.f_pc), rv(g.exit_pc));
	assign(&g, field(&g, g.f_last), rv(g.last));
	assign(&g, field(&g, g.f_retired), rv(g.retired));
	assign(&g, field(&g, g.f_exit), rv(g.reason));
	J(block_end_with_void_return)(g.cur, NULL);

	J(context_compile_to_file)(g.c, GCC_JIT_OUTPUT_KIND_DYNAMIC_LIBRARY, path);
	if (J(context_get_first_error)(g.c)) {
		snprintf(why, why_size, "libgccjit: %s", J(context_get_first_error)(g.c));
		goto out;
	}
	rc = 0;
out:
	free(g.labels);
	free(cases);
	free(g.check);
	free(g.need_prev);
	free(g.reach);
	free(g.self_loop);
	free(g.tab_base);
	J(context_release)(g.c);
	return rc;
}

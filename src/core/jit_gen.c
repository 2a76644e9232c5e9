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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/account.h"
#include "core/isa.h"
#include "core/jit.h"
#include "core/mem.h"

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
	    *f_budget, *f_pc, *f_last, *f_retired, *f_exit;
	/* the accounting variant (JIT_DESC_ACCT) */
	bool acct;
	gcc_jit_field *f_blocks, *f_events, *f_deadline, *f_context, *f_has_last, *f_last_transfer,
	    *f_break_loop, *f_deadline_fn, *f_transfer_fn, *f_flagged_fn, *f_partial_fn;
	gcc_jit_lvalue *bp;     /* the current block's struct block, as bytes */
	gcc_jit_lvalue *events; /* vm->acct.events */
	gcc_jit_rvalue *frame;  /* the parameter */
	gcc_jit_lvalue *r[32];
	gcc_jit_lvalue *cycles, *instret, *budget, *next, *exit_pc, *reason, *last, *retired;
	gcc_jit_lvalue *mem, *codemap;
	gcc_jit_lvalue *tmp8, *tmp16, *tmp32, *tmp64;
	gcc_jit_function *memcpy_fn;
	gcc_jit_block *cur;                 /* where code goes now */
	gcc_jit_block **labels;             /* one per guest block */
	gcc_jit_block *dispatch, *exit_blk; /* on next, and the common exit */
	bool written[32];                   /* registers the region writes */
	unsigned n_blocks;
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
static gcc_jit_block *branch_off(struct gen *g, gcc_jit_rvalue *cond, const char *what)
{
	gcc_jit_block *then = new_block(g, what), *rest = new_block(g, "cont");

	J(block_end_with_conditional)(g->cur, NULL, cond, then, rest);
	g->cur = rest;
	return then;
}

/* Leaves the region from block blk: the clock and the pcs as given. */
static void leave(struct gen *g, gcc_jit_block *blk, enum jit_exit why, uint64_t pc,
		  gcc_jit_rvalue *cycles, uint64_t instret_add, uint32_t last, uint32_t retired)
{
	gcc_jit_block *save = g->cur;

	g->cur = blk;
	if (cycles)
		assign(g, g->cycles, cycles);
	add_to(g, g->instret, instret_add);
	assign(g, g->exit_pc, konst(g, g->tu64, pc));
	assign(g, g->reason, konst(g, g->tu64, why));
	if (last) {
		assign(g, g->last, konst(g, g->tu64, last));
		assign(g, g->retired, konst(g, g->tu64, retired));
	}
	J(block_end_with_jump)(g->cur, NULL, g->exit_blk);
	g->cur = save;
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

/* if (cond) { code } in the current block: returns the block to fill,
 * which must jump to *join (made here) when done. */
static gcc_jit_block *when(struct gen *g, gcc_jit_rvalue *cond, gcc_jit_block **join)
{
	gcc_jit_block *then = branch_off(g, cond, "acct");

	*join = g->cur;
	g->cur = then;
	return then;
}

static void end_when(struct gen *g, gcc_jit_block *join)
{
	J(block_end_with_jump)(g->cur, NULL, join);
	g->cur = join;
}

/* ACCT_DEADLINE(retired, from, to): whoever waits for a clock hears of
 * the block's first `retired` instructions when it has passed. */
static void gen_deadline(struct gen *g, uint32_t retired, gcc_jit_rvalue *from, gcc_jit_rvalue *to)
{
	gcc_jit_block *join;
	gcc_jit_rvalue *args[5];

	when(g,
	     cmp(g, GCC_JIT_COMPARISON_GE, to,
		 J(lvalue_as_rvalue)(J(rvalue_dereference)(rv(field(g, g->f_deadline)), NULL))),
	     &join);
	args[0] = rv(field(g, g->f_vm));
	args[1] = cast(g, rv(g->bp), g->tvoidp);
	args[2] = konst(g, g->tu32, retired);
	args[3] = from;
	args[4] = to;
	call(g, g->f_deadline_fn, 5, args);
	end_when(g, join);
}

/* ACCT_PARTIAL: the block's run ended after `retired` instructions. */
static void gen_partial(struct gen *g, uint32_t retired, gcc_jit_rvalue *cycles,
			gcc_jit_rvalue *instret, gcc_jit_rvalue *now)
{
	gcc_jit_rvalue *args[6] = { rv(field(g, g->f_vm)),
				    cast(g, rv(g->bp), g->tvoidp),
				    konst(g, g->tu32, retired),
				    cycles,
				    instret,
				    now };

	call(g, g->f_partial_fn, 6, args);
}

/* ACCT_TRANSFER(t, plain), the clock past the jump. */
static void gen_transfer(struct gen *g, const struct jit_desc_insn *in, gcc_jit_rvalue *t,
			 bool plain)
{
	gcc_jit_block *join;
	gcc_jit_rvalue *ctx = rv(field(g, g->f_context)), *last = rv(field(g, g->f_last_transfer));
	gcc_jit_rvalue *want, *args[6];

	when(g,
	     cmp(g, GCC_JIT_COMPARISON_NE,
		 bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tu64, rv(g->events),
		     konst(g, g->tu64, ACCT_LAST_TRANSFER)),
		 J(context_zero)(g->c, g->tu64)),
	     &join);
	assign(g, J(rvalue_dereference)(rv(field(g, g->f_has_last)), NULL),
	       J(context_one)(g->c, g->tbool));
	assign(g, J(context_new_array_access)(g->c, NULL, last, konst(g, g->tu32, 0)),
	       konst(g, g->tu32, in->pc));
	assign(g, J(context_new_array_access)(g->c, NULL, last, konst(g, g->tu32, 1)), t);
	end_when(g, join);

	want = cmp(g, GCC_JIT_COMPARISON_NE,
		   bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tu64, rv(g->events),
		       konst(g, g->tu64, ACCT_TRANSFER)),
		   J(context_zero)(g->c, g->tu64));
	if (plain) /* a target inside the context changes nothing */
		want = bin(g, GCC_JIT_BINARY_OP_LOGICAL_AND, g->tbool, want,
			   cmp(g, GCC_JIT_COMPARISON_GE,
			       bin(g, GCC_JIT_BINARY_OP_MINUS, g->tu32, t,
				   J(lvalue_as_rvalue)(J(context_new_array_access)(
				       g->c, NULL, ctx, konst(g, g->tu32, 0)))),
			       J(lvalue_as_rvalue)(J(context_new_array_access)(
				   g->c, NULL, ctx, konst(g, g->tu32, 1)))));
	when(g, want, &join);
	if (in->rd == 1 || in->rd == 5) { /* the profiler reads the link register's value */
		gcc_jit_lvalue *slot = J(context_new_array_access)(
		    g->c, NULL, cast(g, rv(field(g, g->f_regs)), J(type_get_pointer)(g->tx)),
		    konst(g, g->tu32, in->rd));
		assign(g, slot, rv(g->r[in->rd]));
	}
	args[0] = rv(field(g, g->f_vm));
	args[1] = cast(g, rv(g->bp), g->tvoidp);
	args[2] = konst(g, g->tu32, in->index);
	args[3] = t;
	args[4] = rv(g->cycles);
	args[5] = rv(g->instret);
	call(g, g->f_transfer_fn, 6, args);
	end_when(g, join);
}

/* ACCT_RUN: a whole run of the block; a flagged block's subscriber hears
 * of it, and may end the run at the next block (vm->break_loop). */
static void gen_run(struct gen *g, uint32_t n)
{
	gcc_jit_block *join, *stop;
	gcc_jit_rvalue *args[4];

	J(block_add_assignment_op)
	(g->cur, NULL, block_field(g, g->head->off_runs, g->tu64), GCC_JIT_BINARY_OP_PLUS,
	 konst(g, g->tu64, 1));
	when(g,
	     cmp(g, GCC_JIT_COMPARISON_NE, rv(block_field(g, g->head->off_flags, g->tu8)),
		 J(context_zero)(g->c, g->tu8)),
	     &join);
	args[0] = rv(field(g, g->f_vm));
	args[1] = cast(g, rv(g->bp), g->tvoidp);
	args[2] = konst(g, g->tu32, n);
	args[3] = rv(g->instret);
	call(g, g->f_flagged_fn, 4, args);
	stop = branch_off(
	    g, J(lvalue_as_rvalue)(J(rvalue_dereference)(rv(field(g, g->f_break_loop)), NULL)),
	    "stop");
	J(block_add_assignment)(stop, NULL, g->budget, J(context_zero)(g->c, g->tu64));
	J(block_end_with_jump)(stop, NULL, g->cur);
	end_when(g, join);
}

/* The end of a block's run, as RETIRE_LAST and JUMP do it: the clock moves
 * past the instruction that ends it (index `retired` - 1, costing `cost`
 * in all), then the accounting edges when the region reports them. */
static void finish_block(struct gen *g, const struct jit_desc_insn *in, uint32_t retired,
			 uint64_t cost, bool taken, gcc_jit_rvalue *target, bool plain, uint32_t n)
{
	if (!g->acct) {
		add_to(g, g->cycles, cost);
		add_to(g, g->instret, retired);
		return;
	}
	gcc_jit_rvalue *to =
	    bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, rv(g->cycles), konst(g, g->tu64, cost));
	gen_deadline(g, retired, rv(g->cycles), to);
	add_to(g, g->instret, retired);
	add_to(g, g->cycles, cost);
	if (taken) {
		gcc_jit_lvalue *count = block_field(g, g->head->off_taken, g->tu64);
		J(block_add_assignment_op)
		(g->cur, NULL, count, GCC_JIT_BINARY_OP_PLUS, konst(g, g->tu64, 1));
	}
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

/* Goes on at pc: a goto when the region holds it, else an exit there. The
 * clock has been moved past the block already. */
static void go_to(struct gen *g, uint32_t pc, uint32_t last, uint32_t retired)
{
	int k = block_at(g, pc);

	assign(g, g->last, konst(g, g->tu64, last));
	assign(g, g->retired, konst(g, g->tu64, retired));
	if (k >= 0) {
		J(block_end_with_jump)(g->cur, NULL, g->labels[k]);
	} else {
		assign(g, g->exit_pc, konst(g, g->tu64, pc));
		assign(g, g->reason, konst(g, g->tu64, JIT_EXIT_JUMP));
		J(block_end_with_jump)(g->cur, NULL, g->exit_blk);
	}
}

/* The clock before instruction in (the block's entry clock plus its prefix). */
static gcc_jit_rvalue *clock_before(struct gen *g, const struct jit_desc_insn *in)
{
	return bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, rv(g->cycles),
		   konst(g, g->tu64, in->before));
}

/* Leaves before in when cond holds: the interpreter runs it (and faults). */
static void exit_before_if(struct gen *g, gcc_jit_rvalue *cond, const struct jit_desc_insn *in,
			   uint32_t prev_pc)
{
	gcc_jit_block *out = branch_off(g, cond, "before");

	if (g->acct) { /* as FAULT: the run of the block ended before in */
		gcc_jit_block *save = g->cur;
		gcc_jit_rvalue *now = clock_before(g, in);
		g->cur = out;
		gen_deadline(g, in->index, rv(g->cycles), now);
		gen_partial(g, in->index, now,
			    bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, rv(g->instret),
				konst(g, g->tu64, in->index)),
			    now);
		out = g->cur;
		g->cur = save;
	}
	leave(g, out, JIT_EXIT_BEFORE, in->pc, clock_before(g, in), in->index, prev_pc, prev_pc);
}

/* The effective address of a load or store, with the checks the
 * interpreter makes: at XLEN 64 one past 2^40 faults (in the interpreter). */
static gcc_jit_rvalue *address(struct gen *g, const struct jit_desc_insn *in, bool offset,
			       uint32_t prev_pc)
{
	gcc_jit_lvalue *a = J(function_new_local)(g->fn, NULL, g->tx, "addr");

	assign(g, a,
	       offset ? bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, reg(g, in->rs1), imm(g, in))
		      : reg(g, in->rs1));
	if (g->xlen == 64)
		exit_before_if(g,
			       cmp(g, GCC_JIT_COMPARISON_GE, rv(a), konst(g, g->tx, MEM_SPACE_64)),
			       in, prev_pc);
	return rv(a);
}

/* A misaligned access is counted by pc (vm_misaligned), as in every build. */
static void misaligned(struct gen *g, gcc_jit_rvalue *a, uint32_t size, uint32_t pc)
{
	gcc_jit_block *then, *save;
	gcc_jit_rvalue *args[2];

	if (size == 1)
		return;
	then = branch_off(
	    g,
	    cmp(g, GCC_JIT_COMPARISON_NE,
		bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx, a, konst(g, g->tx, size - 1)),
		J(context_zero)(g->c, g->tx)),
	    "misaligned");
	save = g->cur;
	g->cur = then;
	args[0] = rv(field(g, g->f_vm));
	args[1] = konst(g, g->tu32, pc);
	J(block_add_eval)
	(g->cur, NULL,
	 J(context_new_call_through_ptr)(g->c, NULL, rv(field(g, g->f_misaligned)), 2, args));
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
	gcc_jit_block *out, *after = NULL;

	if (g->xlen == 64) { /* no code above 4 GiB: only a lower address is looked up */
		gcc_jit_block *low = branch_off(
		    g, cmp(g, GCC_JIT_COMPARISON_LT, a64, konst(g, g->tu64, MEM_CODE_LIMIT)),
		    "low");
		after = g->cur;
		g->cur = low;
	}
	first = J(lvalue_as_rvalue)(J(context_new_array_access)(
	    g->c, NULL, rv(g->codemap),
	    bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tu64, a64, konst(g, g->tu64, 10))));
	last = J(lvalue_as_rvalue)(J(context_new_array_access)(
	    g->c, NULL, rv(g->codemap),
	    bin(g, GCC_JIT_BINARY_OP_RSHIFT, g->tu64,
		bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, a64, konst(g, g->tu64, size - 1)),
		konst(g, g->tu64, 10))));
	hit =
	    cmp(g, GCC_JIT_COMPARISON_NE, bin(g, GCC_JIT_BINARY_OP_BITWISE_OR, g->tu8, first, last),
		J(context_zero)(g->c, g->tu8));
	out = branch_off(g, hit, "smc");
	if (g->acct) { /* as code_written: RETIRE_LAST, then the partial run */
		gcc_jit_block *save = g->cur;
		g->cur = out;
		gen_deadline(g, in->index + 1u, rv(g->cycles),
			     bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, rv(g->cycles),
				 konst(g, g->tu64, in->after)));
		add_to(g, g->instret, in->index + 1u);
		add_to(g, g->cycles, in->after);
		gen_partial(g, in->index + 1u, rv(g->cycles), rv(g->instret), rv(g->cycles));
		out = g->cur;
		g->cur = save;
		leave(g, out, JIT_EXIT_CODE_WRITTEN, in->pc + in->len, NULL, 0, in->pc, in->pc);
		goto checked;
	}
	leave(g, out, JIT_EXIT_CODE_WRITTEN, in->pc + in->len,
	      bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, rv(g->cycles), konst(g, g->tu64, in->after)),
	      in->index + 1u, in->pc, in->pc);
checked:
	if (after) {
		J(block_end_with_jump)(g->cur, NULL, after);
		g->cur = after;
	}
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
 * instructions after it moves, as in the interpreter). */
static void div_zero_cost(struct gen *g, gcc_jit_rvalue *divisor, gcc_jit_type *t)
{
	gcc_jit_block *then, *save;

	if (!g->head->div_zero_delta)
		return;
	then =
	    branch_off(g, cmp(g, GCC_JIT_COMPARISON_EQ, divisor, J(context_zero)(g->c, t)), "dzc");
	save = g->cur;
	g->cur = then;
	add_to(g, g->cycles, (uint64_t)(int64_t)g->head->div_zero_delta);
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
		a = address(g, in, true, prev_pc);
		misaligned(g, a, size, in->pc);
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
		a = address(g, in, true, prev_pc);
		misaligned(g, a, size, in->pc);
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
		div_zero_cost(g, rv(b), g->tx);
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
		div_zero_cost(g, rv(b), g->tu32);
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
		finish_block(g, in, in->index, in->after, false, NULL, false, n);
		go_to(g, in->pc, in->pc, prev_pc);
		return;
	case OP_jal:
		set_reg(g, in->rd, konst(g, g->tx, in->pc + in->len));
		finish_block(g, in, in->index + 1u, in->after, false,
			     konst(g, g->tu32, (uint32_t)in->imm), !is_link(in->rd), n);
		go_to(g, (uint32_t)in->imm, in->pc, in->pc);
		return;
	case OP_jalr: {
		gcc_jit_lvalue *t = J(function_new_local)(g->fn, NULL, g->tx, "target");
		assign(g, t,
		       bin(g, GCC_JIT_BINARY_OP_BITWISE_AND, g->tx,
			   bin(g, GCC_JIT_BINARY_OP_PLUS, g->tx, r1, imm(g, in)),
			   konst(g, g->tx, g->xlen == 64 ? ~UINT64_C(1) : 0xfffffffeu)));
		if (g->xlen == 64) /* past 4 GiB, where no code can be */
			exit_before_if(
			    g,
			    cmp(g, GCC_JIT_COMPARISON_GE, rv(t), konst(g, g->tx, MEM_CODE_LIMIT)),
			    in, prev_pc);
		set_reg(g, in->rd, konst(g, g->tx, in->pc + in->len));
		finish_block(g, in, in->index + 1u, in->after, false, cast(g, rv(t), g->tu32),
			     !is_link(in->rd) && !is_link(in->rs1), n);
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
	finish_block(g, in, in->index + 1u, (uint64_t)in->after + g->head->taken_extra, true,
		     konst(g, g->tu32, (uint32_t)in->imm), true, n);
	go_to(g, (uint32_t)in->imm, in->pc, in->pc);
	g->cur = fall;
	finish_block(g, in, in->index + 1u, in->after, false, NULL, false, n);
	go_to(g, in->pc + in->len, in->pc, in->pc);
}

static void gen_block(struct gen *g, unsigned k)
{
	const struct jit_desc_block *b = &g->blocks[k];
	const struct jit_desc_insn *in = &g->insns[b->first];
	gcc_jit_block *over;
	uint32_t prev_pc = 0;

	g->cur = g->labels[k];
	/* near the budget the interpreter steps, exactly */
	over = branch_off(g,
			  cmp(g, GCC_JIT_COMPARISON_GT,
			      bin(g, GCC_JIT_BINARY_OP_PLUS, g->tu64, rv(g->cycles),
				  konst(g, g->tu64, b->max_cost)),
			      rv(g->budget)),
			  "budget");
	leave(g, over, JIT_EXIT_BUDGET, b->pc, NULL, 0, 0, 0);
	if (g->acct) /* this block's struct block: its counts and the edges' */
		assign(g, g->bp,
		       J(lvalue_as_rvalue)(J(context_new_array_access)(
			   g->c, NULL, rv(field(g, g->f_blocks)), konst(g, g->tu32, k))));
	for (uint32_t i = 0; i + 1 < b->n; i++) {
		straight(g, &in[i], prev_pc);
		prev_pc = in[i].pc;
	}
	block_end(g, &in[b->n - 1], prev_pc, b->n);
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

_Static_assert(sizeof(struct jit_frame) == 23 * 8, "jit_frame: 23 fields of 8 bytes");

int jit_gen_compile(const void *desc, size_t size, const char *path, char *why, size_t why_size)
{
	struct gen g = { 0 };
	gcc_jit_param *param;
	gcc_jit_struct *frame_struct;
	gcc_jit_field *fields[23];
	gcc_jit_type *fn_ptr_params[6];
	gcc_jit_block *entry;
	gcc_jit_case **cases;
	int rc = -1;

	if (jit_gen_load(why, why_size) != 0)
		return -1;
	g.head = desc;
	g.blocks = (const struct jit_desc_block *)(g.head + 1);
	g.insns = (const struct jit_desc_insn *)(g.blocks + g.head->n_blocks);
	g.xlen = g.head->xlen;
	g.acct = g.head->flags & JIT_DESC_ACCT;
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
	make_types(&g);

	/* the frame, as a struct of the same layout as struct jit_frame; the
	 * misaligned callback's field has its function pointer type */
	fn_ptr_params[0] = g.tvoidp;
	fn_ptr_params[1] = g.tu32;
	fields[0] = g.f_regs = J(context_new_field)(g.c, NULL, g.tu8p, "regs");
	fields[1] = g.f_mem = J(context_new_field)(g.c, NULL, g.tu8p, "mem");
	fields[2] = g.f_codemap = J(context_new_field)(g.c, NULL, g.tu8p, "codemap");
	fields[3] = g.f_vm = J(context_new_field)(g.c, NULL, g.tvoidp, "vm");
	fields[4] = g.f_misaligned = J(context_new_field)(
	    g.c, NULL, J(context_new_function_ptr_type)(g.c, NULL, g.tvoid, 2, fn_ptr_params, 0),
	    "misaligned");
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
	/* deadline_fn(vm, b, retired, from, to) */
	fn_ptr_params[0] = g.tvoidp, fn_ptr_params[1] = g.tvoidp, fn_ptr_params[2] = g.tu32;
	fn_ptr_params[3] = g.tu64, fn_ptr_params[4] = g.tu64;
	fields[19] = g.f_deadline_fn = J(context_new_field)(
	    g.c, NULL, J(context_new_function_ptr_type)(g.c, NULL, g.tvoid, 5, fn_ptr_params, 0),
	    "deadline_fn");
	/* transfer_fn(vm, b, index, target, cycles, instret) */
	fn_ptr_params[3] = g.tu32, fn_ptr_params[4] = g.tu64, fn_ptr_params[5] = g.tu64;
	fields[20] = g.f_transfer_fn = J(context_new_field)(
	    g.c, NULL, J(context_new_function_ptr_type)(g.c, NULL, g.tvoid, 6, fn_ptr_params, 0),
	    "transfer_fn");
	/* flagged_fn(vm, b, retired, instret) */
	fn_ptr_params[3] = g.tu64;
	fields[21] = g.f_flagged_fn = J(context_new_field)(
	    g.c, NULL, J(context_new_function_ptr_type)(g.c, NULL, g.tvoid, 4, fn_ptr_params, 0),
	    "flagged_fn");
	/* partial_fn(vm, b, retired, cycles, instret, now) */
	fn_ptr_params[4] = g.tu64, fn_ptr_params[5] = g.tu64;
	fields[22] = g.f_partial_fn = J(context_new_field)(
	    g.c, NULL, J(context_new_function_ptr_type)(g.c, NULL, g.tvoid, 6, fn_ptr_params, 0),
	    "partial_fn");
	frame_struct = J(context_new_struct_type)(g.c, NULL, "jit_frame_t", 23, fields);
	param = J(context_new_param)(g.c, NULL,
				     J(type_get_pointer)(J(struct_as_type)(frame_struct)), "f");
	g.fn = J(context_new_function)(g.c, NULL, GCC_JIT_FUNCTION_EXPORTED, g.tvoid,
				       JIT_SYM_REGION, 1, &param, 0);
	g.frame = J(param_as_rvalue)(param);
	g.memcpy_fn = J(context_get_builtin_function)(g.c, "__builtin_memcpy");

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
	g.cycles = J(function_new_local)(g.fn, NULL, g.tu64, "cycles");
	g.instret = J(function_new_local)(g.fn, NULL, g.tu64, "instret");
	g.budget = J(function_new_local)(g.fn, NULL, g.tu64, "budget");
	g.next = J(function_new_local)(g.fn, NULL, g.tu32, "next");
	g.exit_pc = J(function_new_local)(g.fn, NULL, g.tu64, "exit_pc");
	g.reason = J(function_new_local)(g.fn, NULL, g.tu64, "reason");
	g.last = J(function_new_local)(g.fn, NULL, g.tu64, "last");
	g.retired = J(function_new_local)(g.fn, NULL, g.tu64, "retired");
	g.mem = J(function_new_local)(g.fn, NULL, g.tu8p, "mem");
	g.codemap = J(function_new_local)(g.fn, NULL, g.tu8p, "codemap");
	g.tmp8 = J(function_new_local)(g.fn, NULL, g.tu8, "t8");
	g.tmp16 = J(function_new_local)(g.fn, NULL, g.tu16, "t16");
	g.tmp32 = J(function_new_local)(g.fn, NULL, g.tu32, "t32");
	g.tmp64 = J(function_new_local)(g.fn, NULL, g.tu64, "t64");
	g.bp = J(function_new_local)(g.fn, NULL, g.tu8p, "bp");
	g.events = J(function_new_local)(g.fn, NULL, g.tu64, "events");

	/* the registers the region writes go back at its exit */
	for (unsigned i = 0; i < g.head->n_insns; i++)
		if (g.insns[i].rd < 32)
			g.written[g.insns[i].rd] = true;

	entry = J(function_new_block)(g.fn, "entry");
	g.dispatch = J(function_new_block)(g.fn, "dispatch");
	g.exit_blk = J(function_new_block)(g.fn, "exit");
	g.labels = calloc(g.n_blocks ? g.n_blocks : 1, sizeof(*g.labels));
	cases = calloc(g.n_blocks ? g.n_blocks : 1, sizeof(*cases));
	if (!g.labels || !cases) {
		snprintf(why, why_size, "out of memory");
		goto out;
	}
	for (unsigned k = 0; k < g.n_blocks; k++) {
		char name[24];
		snprintf(name, sizeof(name), "pc_%08x", g.blocks[k].pc);
		g.labels[k] = J(function_new_block)(g.fn, name);
	}

	/* entry: the frame into locals */
	g.cur = entry;
	for (unsigned i = 1; i < 32; i++) {
		gcc_jit_lvalue *slot = J(context_new_array_access)(
		    g.c, NULL, cast(&g, rv(field(&g, g.f_regs)), J(type_get_pointer)(g.tx)),
		    konst(&g, g.tu32, i));
		assign(&g, g.r[i], rv(slot));
	}
	assign(&g, g.cycles, rv(field(&g, g.f_cycles)));
	assign(&g, g.instret, rv(field(&g, g.f_instret)));
	assign(&g, g.budget, rv(field(&g, g.f_budget)));
	assign(&g, g.last, rv(field(&g, g.f_last)));
	assign(&g, g.retired, rv(field(&g, g.f_retired)));
	assign(&g, g.mem, rv(field(&g, g.f_mem)));
	assign(&g, g.codemap, rv(field(&g, g.f_codemap)));
	assign(&g, g.next, cast(&g, rv(field(&g, g.f_pc)), g.tu32));
	if (g.acct)
		assign(&g, g.events, rv(field(&g, g.f_events)));
	J(block_end_with_jump)(entry, NULL, g.dispatch);

	/* dispatch: to the block at next, or out */
	{
		gcc_jit_block *out = J(function_new_block)(g.fn, "not_here");
		int n_cases = 0;
		for (unsigned k = 0; k < g.n_blocks; k++) {
			gcc_jit_rvalue *pc = konst(&g, g.tu32, g.blocks[k].pc);
			if (g.blocks[k].flags & JIT_BLOCK_ENTRY)
				cases[n_cases++] = J(context_new_case)(g.c, pc, pc, g.labels[k]);
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
	for (unsigned i = 1; i < 32; i++) {
		if (!g.written[i])
			continue;
		gcc_jit_lvalue *slot = J(context_new_array_access)(
		    g.c, NULL, cast(&g, rv(field(&g, g.f_regs)), J(type_get_pointer)(g.tx)),
		    konst(&g, g.tu32, i));
		assign(&g, slot, rv(g.r[i]));
	}
	assign(&g, field(&g, g.f_cycles), rv(g.cycles));
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
	J(context_release)(g.c);
	return rc;
}

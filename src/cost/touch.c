/* touch.c - SP1 v6's memory rows (sp1-gas; docs/cost-models.md): read from
 * SP1 v6.4.0's gas estimator (crates/core/executor/src/estimating.rs and
 * vm/gas.rs, ReportGenerator) and the minimal executor whose trace it
 * replays (minimal/arch/portable/mod.rs):
 *
 * - SP1 meters a run chunk by chunk, each chunk a shard for memory: the
 *   first access in a chunk to a register or an 8-byte word (the key: the
 *   register's number, or the address with its low 3 bits cleared when it
 *   is over 31) adds a MemoryLocal row and two Global rows. A word a
 *   HINT_READ wrote counts again (the hint resets its timestamp to 0).
 * - A chunk ends after the instruction that brings the chunk's trace
 *   entries to memory_chunk (2^27): a load or a store is one entry, a
 *   precompile's read one per word and its write two, HINT_LEN one.
 * - SP1's clock starts at 1 and moves 8 per instruction, 264 per ecall;
 *   crossing a multiple of 2^24 costs 32 MemoryBump rows, and a StateBump
 *   row is due when clk % 2^24 + (next clock - clk + 8) reaches 2^24, or
 *   when an instruction that does not jump falls through to pc + 4 in
 *   another 64 KiB.
 *
 * The account runs before each instruction of the detailed interpreter
 * (touch_account, from detailed.c) and for what a syscall touches
 * (vm->cost.touch_hook, from the ABI). Unconstrained blocks run outside it,
 * as SP1 replays none of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/isa.h"
#include "core/vm.h"
#include "cost/touch.h"
#include "util/state_io.h"

#define TOUCH_LEAF_SHIFT 21 /* 2 MiB of guest memory per leaf */
#define LEAF_WORDS       (1u << (TOUCH_LEAF_SHIFT - 3))

struct touch_leaf {
	uint64_t epoch; /* the chunk its bits are of */
	uint64_t bits[LEAF_WORDS / 64];
};

#define CLK_INSN  8
#define CLK_ECALL 256 /* more, for an ecall */
#define CLK_HIGH  24  /* MemoryBump when clk >> 24 changes */
#define PC_REGION 16  /* StateBump when pc + 4 leaves its 64 KiB */
#define REG_T0    5
#define SP1_HALT  0 /* t0 of HALT: its next pc is not pc + 4 */

int touch_init(struct cy_vm *vm, char *err, size_t err_size)
{
	struct touch_state *t = &vm->cost.touch;

	memset(t, 0, sizeof(*t));
	t->clk = 1;
	if (!vm->model.memory_touch)
		return 0;
	t->n_top =
	    (size_t)((vm->mem.size + (UINT64_C(1) << TOUCH_LEAF_SHIFT) - 1) >> TOUCH_LEAF_SHIFT);
	t->top = calloc(t->n_top, sizeof(*t->top));
	if (!t->top) {
		snprintf(err, err_size, "out of memory for the memory rows' account");
		return -1;
	}
	return 0;
}

void touch_free(struct cy_vm *vm)
{
	struct touch_state *t = &vm->cost.touch;

	for (size_t i = 0; t->top && i < t->n_top; i++)
		free(t->top[i]);
	free(t->top);
	t->top = NULL;
	t->n_top = 0;
}

/* The chunk's leaf of addr's word, emptied if it is of an earlier chunk;
 * NULL past the guest's memory or out of host memory (then nothing counts
 * there: the run faults on such an access anyway). */
static struct touch_leaf *leaf_of(struct touch_state *t, uint64_t addr, bool make)
{
	size_t i = (size_t)(addr >> TOUCH_LEAF_SHIFT);
	struct touch_leaf *l;

	if (i >= t->n_top)
		return NULL;
	l = t->top[i];
	if (!l) {
		if (!make)
			return NULL;
		l = t->top[i] = malloc(sizeof(*l));
		if (!l)
			return NULL;
		l->epoch = 0;
	}
	if (l->epoch != t->epoch) {
		memset(l->bits, 0, sizeof(l->bits));
		l->epoch = t->epoch;
	}
	return l;
}

/* Whether the key is new in this chunk (and now marks it). SP1 keys a word
 * by its address with the low 3 bits cleared, an address up to 31 as it
 * is: the registers' keys, which it then shares. */
static bool touch_word(struct touch_state *t, uint64_t addr)
{
	struct touch_leaf *l;
	uint64_t w, bit;

	if (addr <= 31) {
		bit = UINT64_C(1) << addr;
		if (t->regs & bit)
			return false;
		t->regs |= (uint32_t)bit;
		return true;
	}
	l = leaf_of(t, addr, true);
	if (!l)
		return false;
	w = (addr & ((UINT64_C(1) << TOUCH_LEAF_SHIFT) - 1)) >> 3;
	bit = UINT64_C(1) << (w & 63);
	if (l->bits[w >> 6] & bit)
		return false;
	l->bits[w >> 6] |= bit;
	return true;
}

static void forget_word(struct touch_state *t, uint64_t addr)
{
	struct touch_leaf *l = addr > 31 ? leaf_of(t, addr, false) : NULL;
	uint64_t w;

	if (!l)
		return;
	w = (addr & ((UINT64_C(1) << TOUCH_LEAF_SHIFT) - 1)) >> 3;
	l->bits[w >> 6] &= ~(UINT64_C(1) << (w & 63));
}

static unsigned touch_regs(struct touch_state *t, uint32_t mask)
{
	uint32_t fresh = mask & ~t->regs;

	t->regs |= mask;
	return (unsigned)__builtin_popcount(fresh);
}

static void new_chunk(struct touch_state *t)
{
	t->epoch++;
	t->entries = 0;
	t->regs = 0;
	t->chunks++;
}

/* The registers SP1 reads or writes for the instruction (its rows' memory
 * events): rd written, rs1 and rs2 read as the format has them; x0 is a
 * register too. An ecall's own are none (SP1 peeks at t0, a0 and a1). */
static uint32_t insn_regs(const struct insn *in)
{
	uint32_t rd = in->rd == REG_SINK ? 0 : in->rd;
	uint32_t m = 0;

	switch (insn_formats[in->op]) {
	case FMT_R:
	case FMT_AMO: m = 1u << rd | 1u << in->rs1 | 1u << in->rs2; break;
	case FMT_I:
	case FMT_L:
	case FMT_LR:
	case FMT_CSR: m = 1u << rd | 1u << in->rs1; break;
	case FMT_U:
	case FMT_J:
	case FMT_CSRI: m = 1u << rd; break;
	case FMT_B:
	case FMT_S: m = 1u << in->rs1 | 1u << in->rs2; break;
	default: break;
	}
	return m;
}

static uint64_t cost_of(struct touch_state *t, const struct cost_model *m, uint64_t fresh)
{
	uint64_t c = fresh * m->memory_touch;

	t->touches += fresh;
	t->cycles += c;
	return c;
}

uint32_t touch_account(struct cy_vm *vm, const struct insn *in, const struct data_access *a)
{
	const struct cost_model *m = &vm->model;
	struct touch_state *t = &vm->cost.touch;
	uint64_t fresh = 0, cost, clk = t->clk, next;
	unsigned cls = insn_classes[in->op];
	bool ecall = in->op == OP_ecall;

	if (m->memory_touch) {
		if (t->epoch == 0 || (m->memory_chunk && t->entries >= m->memory_chunk))
			new_chunk(t);
		fresh += touch_regs(t, insn_regs(in));
		if (a->kind != ACCESS_NONE) {
			fresh += touch_word(t, a->addr & ~UINT64_C(7));
			t->entries += a->kind == ACCESS_AMO ? 2 : 1;
		}
	}
	cost = cost_of(t, m, fresh);
	/* SP1's clock */
	next = clk + CLK_INSN + (ecall ? CLK_ECALL : 0);
	if (m->clock_bump && next >> CLK_HIGH != clk >> CLK_HIGH) {
		t->clock_bumps++;
		cost += m->clock_bump;
		t->cycles += m->clock_bump;
	}
	if (m->state_bump) {
		bool near = clk % (UINT64_C(1) << CLK_HIGH) + (next - clk + CLK_INSN) >=
			    UINT64_C(1) << CLK_HIGH;
		bool falls = cls != CY_CLASS_BRANCH && cls != CY_CLASS_JUMP && in->len == 4 &&
			     !(ecall && vm_reg(vm, REG_T0) == SP1_HALT) &&
			     (in->pc + 4) >> PC_REGION != in->pc >> PC_REGION;
		if (near || falls) {
			t->state_bumps++;
			cost += m->state_bump;
			t->cycles += m->state_bump;
		}
	}
	t->clk = next;
	return (uint32_t)cost;
}

static uint64_t touch_hook(struct cy_vm *vm, enum touch_kind kind, uint64_t addr, uint64_t n)
{
	struct touch_state *t = &vm->cost.touch;
	uint64_t fresh = 0, cost;

	switch (kind) {
	case TOUCH_WORDS:
		for (uint64_t i = 0; i < n; i++)
			fresh += touch_word(t, addr + 8 * i);
		break;
	case TOUCH_REGS: fresh = touch_regs(t, (uint32_t)n); break;
	case TOUCH_FORGET:
		for (uint64_t i = 0; i < n; i++)
			forget_word(t, addr + 8 * i);
		return 0;
	case TOUCH_ENTRIES: t->entries += n; return 0;
	}
	cost = cost_of(t, &vm->model, fresh);
	vm->cost.parts.memory += (uint32_t)cost;
	return cost;
}

void touch_plug(struct cy_vm *vm)
{
	vm->cost.touch_hook = vm->model.memory_touch ? touch_hook : NULL;
}

/* The account's part of a checkpoint: the chunk's keys (the leaves of this
 * chunk, by index), SP1's clock and the totals. */
void touch_state_io(struct sio *io, struct cy_vm *vm)
{
	struct touch_state *t = &vm->cost.touch;
	uint64_t live = 0;

	sio_tag(io, "MROW");
	sio_u64(io, &t->epoch);
	sio_u64(io, &t->entries);
	sio_u32(io, &t->regs);
	sio_u64(io, &t->clk);
	sio_u64(io, &t->cycles);
	sio_u64(io, &t->touches);
	sio_u64(io, &t->chunks);
	sio_u64(io, &t->clock_bumps);
	sio_u64(io, &t->state_bumps);
	for (size_t i = 0; !io->load && i < t->n_top; i++)
		live += t->top[i] && t->top[i]->epoch == t->epoch;
	sio_u64(io, &live);
	if (!io->load) {
		for (uint64_t i = 0; i < t->n_top; i++) {
			if (!t->top[i] || t->top[i]->epoch != t->epoch)
				continue;
			sio_u64(io, &i);
			sio_raw(io, t->top[i]->bits, sizeof(t->top[i]->bits));
		}
		return;
	}
	for (size_t i = 0; i < t->n_top; i++)
		if (t->top[i])
			t->top[i]->epoch = 0; /* empty, of no chunk */
	for (uint64_t k = 0; k < live; k++) {
		uint64_t i = 0;
		struct touch_leaf *l;

		sio_u64(io, &i);
		if (i >= t->n_top || !(l = leaf_of(t, i << TOUCH_LEAF_SHIFT, true))) {
			sio_fail(io, "its memory rows' leaf %llu is past the guest's memory",
				 (unsigned long long)i);
			return;
		}
		sio_raw(io, l->bits, sizeof(l->bits));
	}
}

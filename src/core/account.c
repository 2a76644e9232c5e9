/* account.c - hands the executor's accounting facts (account.h) to the
 * subscribers that asked for them. Nothing here runs per instruction. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/account.h"
#include "core/block.h"
#include "core/isa.h"
#include "core/state.h"

/* the list of the blocks that ran starts with room for this many */
#define ACCT_RAN_FIRST 1024u

int acct_subscribe(struct cy_vm *vm, unsigned events, const struct acct_ops *ops, void *ctx)
{
	struct acct *a = &vm->acct;

	if (!ops || a->n_subs == ACCT_MAX_SUBS || (events & a->events & ACCT_DEADLINE))
		return -EINVAL;
	if ((events & ACCT_RAN) && !a->ran.list) {
		/* CYCLOPS_ACCT_RAN_MAX=N bounds the list (tests: a list that
		 * loses blocks gives the same profile) */
		const char *env = getenv("CYCLOPS_ACCT_RAN_MAX");
		a->ran_max = env ? (uint32_t)strtoul(env, NULL, 10) : 0;
		a->ran.cap =
		    a->ran_max && a->ran_max < ACCT_RAN_FIRST ? a->ran_max : ACCT_RAN_FIRST;
		a->ran.list = malloc(a->ran.cap * sizeof(*a->ran.list));
		if (!a->ran.list)
			return -ENOMEM;
	}
	a->subs[a->n_subs++] = (struct acct_sub){ events, ops, ctx };
	if (events & ACCT_DEADLINE)
		a->deadline_sub = a->subs[a->n_subs - 1];
	a->events |= events;
	a->ctx_size = 0; /* report every transfer until the subscriber says */
	/* the accounting interpreter from the next block on; flagged blocks
	 * need decoding again */
	vm->flush_pending = true;
	vm->break_loop = true;
	return 0;
}

void acct_unsubscribe(struct cy_vm *vm, void *ctx)
{
	struct acct *a = &vm->acct;
	int k = 0;

	acct_unwatch(vm, ctx);
	a->events = 0;
	for (int i = 0; i < a->n_subs; i++)
		if (a->subs[i].ctx != ctx) {
			a->subs[k++] = a->subs[i];
			a->events |= a->subs[i].events;
		}
	a->n_subs = k;
	if (!(a->events & ACCT_DEADLINE)) {
		a->deadline = ACCT_NO_DEADLINE;
		a->deadline_sub = (struct acct_sub){ 0 };
		a->hist = (struct acct_hist){ 0 };
	}
	a->ctx_size = 0;
	vm->break_loop = true; /* pick the interpreter again */
}

void acct_set_events(struct cy_vm *vm, void *ctx, unsigned events)
{
	struct acct *a = &vm->acct;

	a->events = 0;
	for (int i = 0; i < a->n_subs; i++) {
		if (a->subs[i].ctx == ctx)
			a->subs[i].events = events;
		a->events |= a->subs[i].events;
	}
	vm->break_loop = true; /* the interpreter reads the events as it starts */
}

/* Sets (on) or clears CODEMAP_WATCHED on the code map's chunks of every
 * watched range (the marks of ranges that share a chunk are one bit); the
 * cache's flush clears only CODEMAP_CODE. */
static void mark_watched(struct cy_vm *vm, bool on)
{
	uint8_t *map = vm->cache.codemap;

	for (int k = 0; k < vm->acct.n_watch; k++) {
		uint64_t first = vm->acct.watch[k].addr, size = vm->acct.watch[k].size;
		uint64_t last = first + (size ? size - 1 : 0);
		for (uint64_t i = first >> CODE_CHUNK_SHIFT;
		     i <= last >> CODE_CHUNK_SHIFT && i < CODE_CHUNKS; i++)
			map[i] =
			    (uint8_t)(on ? map[i] | CODEMAP_WATCHED : map[i] & ~CODEMAP_WATCHED);
	}
}

int acct_watch(struct cy_vm *vm, void *ctx, uint64_t addr, uint32_t size)
{
	struct acct *a = &vm->acct;

	if (a->n_watch == ACCT_MAX_WATCH || !size || addr >= MEM_CODE_LIMIT ||
	    MEM_CODE_LIMIT - addr < size)
		return -EINVAL;
	a->watch[a->n_watch++] = (struct acct_watch){ addr, size, ctx };
	mark_watched(vm, true);
	return 0;
}

void acct_unwatch(struct cy_vm *vm, void *ctx)
{
	struct acct *a = &vm->acct;
	int k = 0;

	mark_watched(vm, false);
	for (int i = 0; i < a->n_watch; i++)
		if (a->watch[i].ctx != ctx)
			a->watch[k++] = a->watch[i];
	a->n_watch = k;
	mark_watched(vm, true);
}

void acct_set_context(struct cy_vm *vm, uint32_t lo, uint32_t size)
{
	struct acct *a = &vm->acct;
	int n = 0;

	for (int i = 0; i < a->n_subs; i++)
		n += (a->subs[i].events & ACCT_TRANSFER) != 0;
	/* one range can speak for one subscriber only */
	a->ctx_lo = lo;
	a->ctx_size = n == 1 ? size : 0;
}

/* Whether an event whose instruction ran from clock from to clock to (at
 * pc) keeps the invariant (account.h); if not, stops the run. */
static bool clock_ok(struct cy_vm *vm, uint32_t pc, uint64_t from, uint64_t to)
{
	struct acct *a = &vm->acct;

	if (likely(from <= to && to >= a->clock)) {
		a->clock = to;
		return true;
	}
	if (vm->stop == CY_STOP_NONE || vm->stop == CY_STOP_EXIT) {
		vm->stop = CY_STOP_FAULT;
		vm->fault = CY_FAULT_HOST;
		snprintf(vm->stop_message, sizeof(vm->stop_message),
			 "internal error: the accounting clock would go back (from %llu to %llu, "
			 "the last event at %llu) at 0x%08x; the profiles end before it",
			 (unsigned long long)from, (unsigned long long)to,
			 (unsigned long long)a->clock, pc);
	}
	vm->break_loop = true;
	return false;
}

#define EACH(ev)                                                                                   \
	for (int i_ = 0; i_ < vm->acct.n_subs; i_++)                                               \
		if (vm->acct.subs[i_].events & (ev))
#define SUB vm->acct.subs[i_]

void acct_transfer(struct cy_vm *vm, const struct insn *in, uint32_t target, uint64_t cycles,
		   uint64_t instret)
{
	if (!clock_ok(vm, in->pc, cycles, cycles))
		return;
	EACH(ACCT_TRANSFER) SUB.ops->transfer(SUB.ctx, vm, in, target, cycles, instret);
}

void acct_ecall(struct cy_vm *vm, const struct insn *in, uint32_t nr, uint64_t cycles,
		uint64_t instret)
{
	if (!clock_ok(vm, in->pc, cycles, cycles))
		return;
	EACH(ACCT_ECALL) SUB.ops->ecall(SUB.ctx, vm, in, nr, cycles, instret);
}

void acct_ecall_retired(struct cy_vm *vm, const struct insn *in, uint64_t before, uint64_t cycles,
			uint64_t instret)
{
	if (!clock_ok(vm, in->pc, before, cycles))
		return;
	EACH(ACCT_ECALL) SUB.ops->ecall_retired(SUB.ctx, vm, in, before, cycles, instret);
}

void acct_extra(struct cy_vm *vm, const struct insn *in, int64_t extra, const cy_cost_parts *parts,
		uint64_t before, uint64_t cycles, uint64_t instret)
{
	if (!clock_ok(vm, in->pc, before, cycles))
		return;
	EACH(ACCT_EXTRA) SUB.ops->extra(SUB.ctx, vm, in, extra, parts, before, cycles, instret);
}

/* Whether a store of size bytes at addr overlaps one of ctx's ranges. */
static bool watched_by(const struct acct *a, void *ctx, uint64_t addr, uint32_t size)
{
	for (int w = 0; w < a->n_watch; w++)
		if (a->watch[w].ctx == ctx &&
		    (addr - a->watch[w].addr < a->watch[w].size || a->watch[w].addr - addr < size))
			return true;
	return false;
}

void acct_store(struct cy_vm *vm, const struct insn *in, uint64_t addr, uint32_t size,
		uint64_t cycles, uint64_t instret)
{
	bool checked = false;

	EACH(ACCT_STORE)
	if (watched_by(&vm->acct, SUB.ctx, addr, size)) {
		if (!checked && !clock_ok(vm, in->pc, cycles, cycles))
			return;
		checked = true;
		SUB.ops->store(SUB.ctx, vm, in, addr, size, cycles, instret);
	}
}

void acct_partial(struct cy_vm *vm, const struct block *b, uint32_t retired, uint64_t cycles,
		  uint64_t instret, uint64_t now, bool resumes)
{
	if (!clock_ok(vm, b->pc, cycles, now))
		return;
	EACH(ACCT_PARTIAL) SUB.ops->partial(SUB.ctx, vm, b, retired, cycles, instret, now, resumes);
}

void acct_fold_block(struct cy_vm *vm, struct block *b)
{
	if (!b->runs && !b->sampled)
		return;
	EACH(ACCT_FOLD) SUB.ops->fold_block(SUB.ctx, vm, b);
	b->runs = b->taken = 0;
}

void acct_phase_runs(struct cy_vm *vm, const struct block *b, bool taken, uint32_t phase,
		     uint64_t runs)
{
	EACH(ACCT_DEADLINE)
	if (SUB.ops->phase_runs)
		SUB.ops->phase_runs(SUB.ctx, vm, b, taken, phase, runs);
}

void acct_ran(struct cy_vm *vm, struct block *b)
{
	struct acct_ran *r = &vm->acct.ran;

	b->ran = r->mark;
	if (!(vm->acct.events & ACCT_RAN))
		return;
	if (r->n == r->cap) {
		size_t cap = 2 * (size_t)r->cap;
		struct block **list =
		    cap <= UINT32_MAX && (!vm->acct.ran_max || cap <= vm->acct.ran_max)
			? realloc(r->list, cap * sizeof(*list))
			: NULL;
		if (!list) {
			r->lost = 1;
			return;
		}
		r->list = list;
		r->cap = (uint32_t)cap;
	}
	r->list[r->n++] = b;
}

void acct_free(struct cy_vm *vm)
{
	free(vm->acct.ran.list);
	vm->acct.ran = (struct acct_ran){ 0 };
}

uint8_t acct_decoded(struct cy_vm *vm, struct block *b)
{
	uint8_t flags = 0;

	EACH(ACCT_FLAGGED) flags |= SUB.ops->decoded(SUB.ctx, vm, b);
	return flags;
}

bool acct_split_after(struct cy_vm *vm, const struct insn *in)
{
	EACH(ACCT_FLAGGED)
	if (SUB.ops->split_after && SUB.ops->split_after(SUB.ctx, vm, in))
		return true;
	return false;
}

void acct_flagged(struct cy_vm *vm, const struct block *b, uint32_t retired, uint64_t instret)
{
	EACH(ACCT_FLAGGED) SUB.ops->flagged(SUB.ctx, vm, b, retired, instret);
}

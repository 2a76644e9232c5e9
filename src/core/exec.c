/* exec.c - the interpreter: runs cached basic blocks until the cycle budget
 * is spent or the guest stops. exec_loop.h holds the handlers; exec_builds.h
 * compiles them several times, once per width (exec_rv32.c, exec_rv64.c):
 * exec_fast (static costs only, no event code), exec_detailed
 * (address-dependent costs: wait states, paging, segments, accounted before
 * each instruction), exec_inline (the same costs, found by the data accesses
 * themselves), exec_bare (the bare platform), exec_acct, exec_acct_inline
 * and exec_acct_detailed (with the accounting interface's edges, for the
 * profilers) and exec_observed (every instruction's events), so what is off
 * costs nothing. This file picks the build a run needs. */
#include "core/exec.h"
#include "core/block.h"
#include "core/counters.h"
#include "core/vm.h"

/* Whether every instruction costs its static cost (plus a taken branch's
 * and a division by zero's difference): the plain builds. */
static bool can_plain(const struct cy_vm *vm)
{
	return !vm->machine && !vm->cost.detailed && !vm->ctr.counting && !vm->prot;
}

/* Whether the model's extra cycles can be found inline (INLINE_COST):
 * they come from data accesses (wait states) or paging, not both, and no
 * counter needs each instruction's facts. */
static bool can_inline(const struct cy_vm *vm)
{
	const struct cost_model *m = &vm->model;

	return !vm->machine && !vm->ctr.counting && !vm->opts.reference && !vm->prot &&
	       !(m->paging && (m->data_wait_states || m->misaligned_extra)) &&
	       !cost_model_has_rows(m); /* every instruction is accounted */
}

static exec_fn pick(const struct cy_vm *vm)
{
	const struct exec_builds *b = vm->xlen == 64 ? &exec_builds_rv64 : &exec_builds_rv32;

	if (vm->unacc.on) /* nothing may count it; page protections still hold */
		return vm->prot ? b->detailed : b->fast;
	if (vm->obs_mask)
		return b->observed;
	if (vm->acct.n_subs) {
		if (can_plain(vm))
			return b->acct;
		return can_inline(vm) ? b->acct_inline : b->acct_detailed;
	}
	if (vm->machine)
		return b->bare;
	if (can_plain(vm))
		return b->fast;
	/* counting events needs each instruction's facts: cost_before */
	return can_inline(vm) ? b->inline_ : b->detailed;
}

bool exec_reports_deadlines(const struct cy_vm *vm)
{
	return !vm->obs_mask && (can_plain(vm) || can_inline(vm));
}

bool exec_plain_clock(const struct cy_vm *vm) { return !vm->obs_mask && can_plain(vm); }

bool exec_costs_inline(const struct cy_vm *vm) { return !vm->obs_mask && can_inline(vm); }

const void *const *exec_handlers(const struct cy_vm *vm) { return pick(vm)(NULL, 0); }

void exec_interp(struct cy_vm *vm, uint64_t budget)
{
	exec_fn interp = pick(vm);
	const bool unacc = vm->unacc.on;

	/* an unaccounted stretch begins between two blocks (the ecall that
	 * starts it ends its run): what every count sees stays here */
	if (unacc && !vm->unacc.started) {
		vm->unacc.started = true;
		vm->unacc.cycles = vm->cycles;
		vm->unacc.instret = vm->instret;
	}
	cache_use_handlers(vm, interp(NULL, 0));
	while (vm->stop == CY_STOP_NONE && vm->cycles < budget && !vm->clock_moved_back &&
	       !vm->pause) {
		if (vm->flush_pending)
			cache_flush(vm);
		vm->break_loop = false;
		interp(vm, budget);
		if (vm->unacc.on != unacc)
			break;        /* a stretch began or ended: the caller picks again */
		if (vm->ctr.repick) { /* firmware turned event counting on or off */
			vm->ctr.repick = false;
			if (vm->acct.return_on_repick)
				break; /* the sampler must choose again how to run */
			interp = pick(vm);
			cache_use_handlers(vm, interp(NULL, 0));
			continue;
		}
		if (!vm->flush_pending || vm->jit_entered)
			break;
	}
}

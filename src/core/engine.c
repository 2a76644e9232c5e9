/* engine.c - the engines over the interpreter: a run goes to the
 * translation tier (jit.c), which interprets what it has not translated,
 * or to the interpreter alone (exec.c); both leave the same state. */
#include "core/engine.h"
#include "core/counters.h"
#include "core/exec.h"
#include "core/jit.h"

void engine_run(struct cy_vm *vm, uint64_t budget)
{
	/* no translated code in an unconstrained block (nothing may count
	 * it), nor under page protections (core/prot.h: the interpreter's
	 * detailed builds check them) */
	if (!vm->jit || vm->unacc.on || vm->prot || !jit_run(vm, budget))
		exec_interp(vm, budget); /* through translated entries (jit_driving) */
	/* an instruction that faulted did not retire: its events do not count */
	counters_settle(vm, vm->stop != CY_STOP_FAULT || vm->fault == CY_FAULT_MEMORY);
}

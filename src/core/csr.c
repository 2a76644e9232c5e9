/* csr.c - reads and writes of the CSRs in CSR_LIST.
 * time reads the VM's clock, the active cost model's cycle count
 * (docs/decisions.md: a deterministic timebase); the performance counters
 * (cycle, instret, their machine versions, the HPM and PULP counters) are
 * counters.c's. */
#include <stddef.h>

#include "core/counters.h"
#include "core/csr.h"
#include "core/machine.h"
#include "core/vm.h"

int csr_access(struct cy_vm *vm, uint32_t csr, bool write, uint32_t value, uint32_t *old)
{
	if (counters_owns(csr))
		return counters_csr(vm, csr, write, value, old);
	switch (csr) {
	case CSR_TIME: *old = (uint32_t)vm->cycles; break;
	case CSR_TIMEH: *old = (uint32_t)(vm->cycles >> 32); break;
	default: return vm->machine ? machine_csr(vm, csr, write, value, old) : -1;
	}
	/* time is read-only */
	return write ? -1 : 0;
}

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

int csr_access64(struct cy_vm *vm, uint32_t csr, bool write, uint64_t value, uint64_t *old)
{
	uint32_t lo;

	/* the RV32 high halves of the counters do not exist at XLEN 64 */
	if ((csr >= 0xb80 && csr < 0xba0) || (csr >= 0xc80 && csr < 0xca0))
		return -1;
	if (counters_owns(csr))
		return counters_csr64(vm, csr, write, value, old);
	if (csr == CSR_TIME) {
		*old = vm->cycles;
		return write ? -1 : 0;
	}
	if (vm->machine) /* the machine's CSRs are XLEN wide */
		return machine_csr(vm, csr, write, value, old);
	if (csr_access(vm, csr, write, (uint32_t)value, &lo) != 0)
		return -1;
	*old = lo;
	return 0;
}

int csr_access(struct cy_vm *vm, uint32_t csr, bool write, uint32_t value, uint32_t *old)
{
	uint64_t wide;

	if (counters_owns(csr))
		return counters_csr(vm, csr, write, value, old);
	switch (csr) {
	case CSR_TIME: *old = (uint32_t)vm->cycles; break;
	case CSR_TIMEH: *old = (uint32_t)(vm->cycles >> 32); break;
	default:
		if (!vm->machine || machine_csr(vm, csr, write, value, &wide) != 0)
			return -1;
		*old = (uint32_t)wide;
		return 0;
	}
	/* time is read-only */
	return write ? -1 : 0;
}

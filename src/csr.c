/* csr.c - reads and writes of the CSRs in CSR_LIST.
 * The counters read the VM's clock: cycle and mcycle are the active cost
 * model's cycle count, instret and minstret the instructions retired, and time the same
 * virtual clock as cycle (docs/decisions.md: a deterministic timebase). */
#include <stddef.h>

#include "csr.h"
#include "machine.h"
#include "vm_private.h"

const char *csr_name(uint32_t csr)
{
	switch (csr) {
#define CSR_CASE(id, num, name)                                                                    \
	case num: return name;
		CSR_LIST(CSR_CASE)
#undef CSR_CASE
	default: return NULL;
	}
}

int csr_access(struct cy_vm *vm, uint32_t csr, bool write, uint32_t value, uint32_t *old)
{
	(void)value;
	switch (csr) {
	case CSR_CYCLE:
	case CSR_MCYCLE:
	case CSR_TIME: *old = (uint32_t)vm->cycles; break;
	case CSR_CYCLEH:
	case CSR_MCYCLEH:
	case CSR_TIMEH: *old = (uint32_t)(vm->cycles >> 32); break;
	case CSR_INSTRET:
	case CSR_MINSTRET: *old = (uint32_t)vm->instret; break;
	case CSR_INSTRETH:
	case CSR_MINSTRETH: *old = (uint32_t)(vm->instret >> 32); break;
	default: return vm->machine ? machine_csr(vm, csr, write, value, old) : -1;
	}
	/* the user-level counters are read-only */
	return write ? -1 : 0;
}

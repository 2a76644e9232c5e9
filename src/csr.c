/* csr.c - reads and writes of the CSRs in CSR_LIST.
 * The user-level counters read the VM's clock: cycle is the active cost
 * model's cycle count, instret the instructions retired, and time the same
 * virtual clock as cycle (docs/decisions.md: a deterministic timebase). */
#include <stddef.h>

#include "csr.h"
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
	case CSR_TIME: *old = (uint32_t)vm->cycles; break;
	case CSR_CYCLEH:
	case CSR_TIMEH: *old = (uint32_t)(vm->cycles >> 32); break;
	case CSR_INSTRET: *old = (uint32_t)vm->instret; break;
	case CSR_INSTRETH: *old = (uint32_t)(vm->instret >> 32); break;
	default: return -1;
	}
	/* the user-level counters are read-only */
	return write ? -1 : 0;
}

/* vm.h - the machine's own services (vm.c): faults and the words they say,
 * warnings, the observers' events, and the ecall numbers a module takes. */
#ifndef CY_VM_H
#define CY_VM_H

#include "core/state.h"

/* Stops the run with a fault at pc; from is the jump that led there. */
void vm_fault(struct cy_vm *vm, cy_fault fault, uint32_t pc, uint32_t from);
/* "0x000101a4 <parse+0x1c>: addi x10,x10,1" (the instruction if with_insn) */
void vm_describe_at(const cy_vm *vm, uint32_t pc, bool with_insn, char *buf, size_t size);
void vm_warn(struct cy_vm *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vm_emit(struct cy_vm *vm, const cy_event *ev);
/* An ecall number a module took (vm->ecall_ext): calls it, sets *ret. */
static inline bool vm_ecall_extension(struct cy_vm *vm, uint32_t nr, int32_t *ret)
{
	if (!vm->ecall_ext.call || nr < vm->ecall_ext.first || nr > vm->ecall_ext.last)
		return false;
	*ret = vm->ecall_ext.call(vm, nr);
	return true;
}

#endif

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
/* A misaligned data access at pc (cold: the interpreter calls it only when
 * an address is not a multiple of its access's size). */
void vm_misaligned(struct cy_vm *vm, uint32_t pc) __attribute__((cold));
/* n of them at pc at once (translated code counts them by instruction) */
void vm_misaligned_n(struct cy_vm *vm, uint32_t pc, uint64_t n);
void vm_misaligned_free(struct cy_vm *vm);

/* Register n at the VM's width (an RV32 value zero-extended). */
static inline uint64_t vm_reg(const struct cy_vm *vm, unsigned n)
{
	return vm->xlen == 64 ? vm->x64[n] : vm->x[n];
}
/* Sets register n: at XLEN 32 to v's low 32 bits. */
static inline void vm_set_reg(struct cy_vm *vm, unsigned n, uint64_t v)
{
	if (vm->xlen == 64)
		vm->x64[n] = v;
	else
		vm->x[n] = (uint32_t)v;
}
/* A syscall's result in a0: at XLEN 64 sign-extended, as Linux returns it. */
static inline void vm_set_ret(struct cy_vm *vm, int64_t ret) { vm_set_reg(vm, 10, (uint64_t)ret); }

/* The clock the guest's output carries (the cycle tracker's): inside an
 * unaccounted stretch (a zkVM unconstrained block), the one its ABI set. */
static inline uint64_t vm_output_cycles(const struct cy_vm *vm)
{
	return vm->unacc.on ? vm->unacc.output_cycles : vm->cycles;
}

/* An ecall number a module took (vm->ecall_ext): calls it, sets *ret. */
static inline bool vm_ecall_extension(struct cy_vm *vm, uint32_t nr, int32_t *ret)
{
	if (!vm->ecall_ext.call || nr < vm->ecall_ext.first || nr > vm->ecall_ext.last)
		return false;
	*ret = vm->ecall_ext.call(vm, nr);
	return true;
}

#endif

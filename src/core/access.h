/* access.h - the data access a decoded instruction is about to make, worked
 * out from the registers before it runs: the cost account (cost/detailed.c)
 * and the bare machine's memory map (machine.c) both read it, so that which
 * instructions load and store what is known in one place (with the sizes
 * from the instruction table, isa.h). */
#ifndef CY_ACCESS_H
#define CY_ACCESS_H

#include "core/vm.h"

enum access_kind {
	ACCESS_NONE = 0,
	ACCESS_LOAD,  /* loads, lr */
	ACCESS_STORE, /* stores */
	ACCESS_SC,    /* sc: a store if the reservation holds */
	ACCESS_AMO,   /* read and written */
};

struct data_access {
	uint64_t addr; /* at XLEN 32, the 32-bit sum */
	uint32_t size; /* bytes; 0 for ACCESS_NONE */
	uint8_t kind;  /* enum access_kind */
};

static inline struct data_access insn_data_access(const struct cy_vm *vm, const struct insn *in)
{
	struct data_access a = { 0, insn_access_size(in->op), ACCESS_NONE };
	uint64_t base;

	if (!a.size)
		return a;
	base = vm_reg(vm, in->rs1);
	switch (insn_classes[in->op]) {
	case CY_CLASS_LOAD: a.kind = ACCESS_LOAD; break;
	case CY_CLASS_STORE: a.kind = ACCESS_STORE; break;
	default: /* AMO: no offset */
		a.kind = in->op == OP_lr_w || in->op == OP_lr_d   ? ACCESS_LOAD
			 : in->op == OP_sc_w || in->op == OP_sc_d ? ACCESS_SC
								  : ACCESS_AMO;
		a.addr = base;
		return a;
	}
	a.addr = base + (uint64_t)(int64_t)in->imm;
	if (vm->xlen != 64)
		a.addr = (uint32_t)a.addr;
	return a;
}

#endif

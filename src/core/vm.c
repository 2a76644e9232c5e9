/* vm.c - the machine's own services: its state read and written through
 * the API, the words it says when it stops, warnings, and the observers of
 * its events. Creating and running a VM with its ABI, cost model and
 * profilers is the api/ stage's (api/session.c). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/block.h"
#include "core/vm.h"
#include "util/text.h"

static const char *const class_names[CY_CLASS_COUNT] = {
#define CLASS_NAME(id, name) name,
	CY_CLASS_LIST(CLASS_NAME)
#undef CLASS_NAME
};

const char *cy_class_name(cy_insn_class cls)
{
	return (unsigned)cls < CY_CLASS_COUNT ? class_names[cls] : "?";
}

/* "0x000101a4 <parse+0x1c>: addi x10,x10,1". The symbol is the ELF's: a
 * stop message goes to terminals and into every file (callgrind's desc:
 * line among them) as one line of text, so it is made printable here. */
void vm_describe_at(const cy_vm *vm, uint32_t pc, bool with_insn, char *buf, size_t size)
{
	char sym[128], shown[128], text[64];
	int n;

	if (cy_vm_symbolize(vm, pc, sym, sizeof(sym)) == 0) {
		text_printable(shown, sizeof(shown), sym);
		n = snprintf(buf, size, "0x%08x <%s>", pc, shown);
	} else {
		n = snprintf(buf, size, "0x%08x", pc);
	}
	if (with_insn && n > 0 && (size_t)n < size && mem_is_mapped(&vm->mem, pc)) {
		cy_disasm_xlen(vm->xlen, pc, mem_ld32(vm->mem.base, pc), text, sizeof(text));
		snprintf(buf + n, size - (size_t)n, ": %s", text);
	}
}

void vm_fault(struct cy_vm *vm, cy_fault fault, uint32_t pc, uint32_t from)
{
	char at[200];
	uint32_t bits = mem_ld32(vm->mem.base, pc);
	int len = insn_length(bits & 0xffff);

	vm->stop = CY_STOP_FAULT;
	vm->fault = fault;
	vm->break_loop = true;
	vm->pc = pc;
	if (vm->fault_has_addr) { /* an address no access or jump can reach */
		vm->fault_has_addr = false;
		vm_describe_at(vm, pc, true, at, sizeof(at));
		if (fault == CY_FAULT_FETCH)
			snprintf(vm->stop_message, sizeof(vm->stop_message),
				 "jump to 0x%llx, past 4 GiB where no code can be, at %s",
				 (unsigned long long)vm->fault_addr, at);
		else
			snprintf(vm->stop_message, sizeof(vm->stop_message),
				 "access to 0x%llx, outside the guest's %s address space, at %s",
				 (unsigned long long)vm->fault_addr,
				 vm->mem.size == MEM_SPACE_64 ? "1 TiB" : "4 GiB", at);
		return;
	}
	switch (fault) {
	case CY_FAULT_ILLEGAL_INSN: {
		char text[64];
		vm_describe_at(vm, pc, false, at, sizeof(at));
		struct insn in;
		insn_decode(pc, bits, vm->xlen == 64 ? 64 : 32, &in);
		if (in.op == OP_ecall) /* bare: the handler at mtvec is an ecall */
			snprintf(vm->stop_message, sizeof(vm->stop_message),
				 "ecall at %s would trap to itself (mtvec)", at);
		else if (in.op == OP_mret || in.op == OP_wfi)
			snprintf(vm->stop_message, sizeof(vm->stop_message),
				 "illegal instruction 0x%08x at %s: %s (machine mode only; "
				 "firmware runs with --platform bare)",
				 bits, at, insn_names[in.op]);
		else if (cy_disasm_xlen(vm->xlen, pc, bits, text, sizeof(text)) == 0)
			snprintf(vm->stop_message, sizeof(vm->stop_message),
				 "illegal instruction 0x%0*x at %s", len * 2,
				 len == 2 ? bits & 0xffff : bits, at);
		else /* a valid encoding used illegally: a bad CSR access */
			snprintf(vm->stop_message, sizeof(vm->stop_message),
				 "illegal instruction 0x%0*x at %s: %s (unknown or "
				 "read-only CSR)",
				 len * 2, len == 2 ? bits & 0xffff : bits, at, text);
		break;
	}
	case CY_FAULT_FETCH:
		vm_describe_at(vm, from, true, at, sizeof(at));
		snprintf(vm->stop_message, sizeof(vm->stop_message),
			 "jump to unmapped address 0x%08x from %s", pc, at);
		break;
	case CY_FAULT_EBREAK:
		vm_describe_at(vm, pc, true, at, sizeof(at));
		snprintf(vm->stop_message, sizeof(vm->stop_message),
			 "ebreak at %s (no debugger attached)", at);
		break;
	default:
		vm_describe_at(vm, pc, true, at, sizeof(at));
		snprintf(vm->stop_message, sizeof(vm->stop_message), "out of host memory at %s",
			 at);
		break;
	}
}

void vm_warn(struct cy_vm *vm, const char *fmt, ...)
{
	va_list ap;

	if (vm->opts.quiet)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "cyclops: warning: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void vm_emit(struct cy_vm *vm, const cy_event *ev)
{
	for (int i = 0; i < vm->n_observers; i++)
		if (vm->observers[i].mask & CY_EV_BIT(ev->kind))
			vm->observers[i].fn(vm->observers[i].ctx, vm, ev);
}

int cy_vm_add_observer(cy_vm *vm, unsigned mask, cy_event_fn fn, void *ctx)
{
	if (!fn || vm->n_observers == MAX_OBSERVERS)
		return -EINVAL;
	vm->observers[vm->n_observers++] = (struct observer){ mask, fn, ctx };
	vm->obs_mask |= mask;
	return 0;
}

cy_stop cy_vm_stop_reason(const cy_vm *vm) { return vm->stop; }
cy_fault cy_vm_fault(const cy_vm *vm) { return vm->fault; }
int cy_vm_exit_code(const cy_vm *vm) { return vm->exit_code; }
const char *cy_vm_stop_message(const cy_vm *vm) { return vm->stop_message; }
uint32_t cy_vm_pc(const cy_vm *vm) { return vm->pc; }
uint64_t cy_vm_cycles(const cy_vm *vm) { return vm->cycles; }
uint64_t cy_vm_instret(const cy_vm *vm) { return vm->instret; }
uint64_t cy_vm_touched_bytes(const cy_vm *vm) { return mem_touched_bytes(&vm->mem); }

void vm_misaligned(struct cy_vm *vm, uint32_t pc) { vm_misaligned_n(vm, pc, 1); }

void vm_misaligned_n(struct cy_vm *vm, uint32_t pc, uint64_t n)
{
	void *sites = vm->misaligned.sites;
	bool added;
	int64_t i;

	vm->misaligned.total += n;
	if (!vm->misaligned.map.slots && index_map_rehash(&vm->misaligned.map, 64) != 0) {
		vm->misaligned.lost += n;
		return;
	}
	vm->misaligned.map.max = CY_MISALIGNED_MAX_SITES;
	i = index_map_get(&vm->misaligned.map, pc, 0, &sites, sizeof(cy_misaligned_site), &added);
	vm->misaligned.sites = sites;
	if (i < 0) {
		vm->misaligned.lost += n;
		return;
	}
	if (added)
		vm->misaligned.sites[i] = (cy_misaligned_site){ pc, 0 };
	vm->misaligned.sites[i].count += n;
}

void vm_misaligned_free(struct cy_vm *vm)
{
	index_map_free(&vm->misaligned.map);
	free(vm->misaligned.sites);
	free(vm->misaligned.sorted);
	memset(&vm->misaligned, 0, sizeof(vm->misaligned));
}

static int by_pc(const void *a, const void *b)
{
	uint32_t x = ((const cy_misaligned_site *)a)->pc, y = ((const cy_misaligned_site *)b)->pc;

	return x < y ? -1 : x > y;
}

uint64_t cy_vm_misaligned(const cy_vm *vm, const cy_misaligned_site **sites, size_t *n,
			  uint64_t *lost)
{
	struct cy_vm *w = (struct cy_vm *)vm; /* the sorted copy is a cache */
	size_t count = vm->misaligned.map.n;
	cy_misaligned_site *copy =
	    count ? realloc(w->misaligned.sorted, count * sizeof(*copy)) : NULL;

	if (copy) {
		memcpy(copy, vm->misaligned.sites, count * sizeof(*copy));
		qsort(copy, count, sizeof(*copy), by_pc);
		w->misaligned.sorted = copy;
	}
	if (sites)
		*sites = copy;
	if (n)
		*n = copy ? count : 0;
	if (lost)
		*lost = vm->misaligned.lost + (count && !copy ? vm->misaligned.total : 0);
	return vm->misaligned.total;
}

unsigned cy_vm_xlen(const cy_vm *vm) { return vm->xlen; }

uint64_t cy_vm_reg(const cy_vm *vm, unsigned n) { return n > 0 && n < 32 ? vm_reg(vm, n) : 0; }

int cy_vm_set_reg(cy_vm *vm, unsigned n, uint64_t value)
{
	if (n == 0 || n >= 32)
		return -EINVAL;
	vm_set_reg(vm, n, value);
	return 0;
}

int cy_vm_read(const cy_vm *vm, uint64_t addr, void *buf, size_t len)
{
	if (!mem_range_ok(&vm->mem, addr, len))
		return -EFAULT;
	memcpy(buf, vm->mem.base + addr, len);
	return 0;
}

int cy_vm_write(cy_vm *vm, uint64_t addr, const void *buf, size_t len)
{
	if (!mem_range_ok(&vm->mem, addr, len))
		return -EFAULT;
	memcpy(vm->mem.base + addr, buf, len);
	cache_memory_written(vm, addr, len);
	return 0;
}

int cy_vm_symbolize(const cy_vm *vm, uint32_t addr, char *buf, size_t size)
{
	const struct symbol *s = symtab_lookup(&vm->syms, addr);

	if (!s)
		return -ENOENT;
	if (addr == s->addr)
		snprintf(buf, size, "%s", s->name);
	else
		snprintf(buf, size, "%s+0x%x", s->name, addr - s->addr);
	return 0;
}

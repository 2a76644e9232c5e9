/* prot.c - page protections and user-level traps (prot.h): SP1 v6's user
 * mode, read from its executor (crates/core/executor/src/minimal/arch/
 * portable/mod.rs: fetch, prot_check, handle_interrupt). The table is two
 * levels over the 1 TiB space, a leaf of page bytes made when a page in it
 * first differs from the default. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/access.h"
#include "core/block.h"
#include "core/prot.h"
#include "core/vm.h"
#include "util/state_io.h"

#define LEAF_BITS  14
#define LEAF_PAGES (1u << LEAF_BITS)
/* 2^40 bytes of 4 KiB pages: 2^28 pages, 2^14 leaves of 2^14 */
#define TOP_LEAVES (1u << (40 - 12 - LEAF_BITS))
/* SP1's halt pc: a trap context whose handler is still 1 (the value SP1's
 * examples start it with) ends the run there */
#define HALT_PC 1u

struct prot {
	struct prot_setup setup;
	uint8_t *leaf[TOP_LEAVES];
	uint64_t target; /* where a trap goes on (prot_before) */
};

_Static_assert(((uint64_t)TOP_LEAVES * LEAF_PAGES) << 12 == MEM_SPACE_64,
	       "the table covers the 64-bit space");

int prot_enable(struct cy_vm *vm, const struct prot_setup *setup)
{
	struct prot *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->setup = *setup;
	vm->prot = p;
	return 0;
}

void prot_free(struct cy_vm *vm)
{
	if (!vm->prot)
		return;
	for (unsigned i = 0; i < TOP_LEAVES; i++)
		free(vm->prot->leaf[i]);
	free(vm->prot);
	vm->prot = NULL;
}

static uint8_t page_prot(const struct prot *p, uint64_t page)
{
	const uint8_t *leaf;

	if (page >= (uint64_t)TOP_LEAVES * LEAF_PAGES)
		return 0; /* past the space: nothing is allowed */
	leaf = p->leaf[page >> LEAF_BITS];
	return leaf ? leaf[page & (LEAF_PAGES - 1)] : PROT_DEFAULT;
}

uint8_t prot_get(const struct cy_vm *vm, uint64_t addr)
{
	return page_prot(vm->prot, addr / PROT_PAGE);
}

int prot_set(struct cy_vm *vm, uint64_t start, uint64_t end, uint8_t prot)
{
	struct prot *p = vm->prot;

	for (uint64_t page = start / PROT_PAGE; page * PROT_PAGE < end; page++) {
		uint8_t **leaf;
		if (page >= (uint64_t)TOP_LEAVES * LEAF_PAGES)
			break;
		leaf = &p->leaf[page >> LEAF_BITS];
		if (!*leaf) {
			if (prot == PROT_DEFAULT)
				continue;
			if (!(*leaf = malloc(LEAF_PAGES)))
				return -ENOMEM;
			memset(*leaf, PROT_DEFAULT, LEAF_PAGES);
		}
		(*leaf)[page & (LEAF_PAGES - 1)] = prot;
	}
	return 0;
}

/* The trap code for a page with bits have when want is asked: 0 if it is
 * allowed (SP1 tests execute, read, write in this order). */
static uint32_t failure(uint8_t have, uint8_t want)
{
	if ((want & PROT_X) && !(have & PROT_X))
		return PROT_FAIL_EXEC;
	if ((want & PROT_R) && !(have & PROT_R))
		return PROT_FAIL_READ;
	if ((want & PROT_W) && !(have & PROT_W))
		return PROT_FAIL_WRITE;
	return 0;
}

uint32_t prot_span(const struct cy_vm *vm, uint64_t addr, uint64_t words, uint8_t want)
{
	uint64_t first = addr / PROT_PAGE, last = (addr + (words ? words - 1 : 0) * 8) / PROT_PAGE;

	for (uint64_t page = first; page <= last; page++) {
		uint32_t code = failure(page_prot(vm->prot, page), want);
		if (code)
			return code;
	}
	return 0;
}

static const char *prot_text(uint8_t prot, char buf[4])
{
	buf[0] = prot & PROT_R ? 'r' : '-';
	buf[1] = prot & PROT_W ? 'w' : '-';
	buf[2] = prot & PROT_X ? 'x' : '-';
	buf[3] = 0;
	return buf;
}

static const char *failure_name(uint32_t code)
{
	return code == PROT_FAIL_EXEC ? "execute" : code == PROT_FAIL_READ ? "read" : "write";
}

static void stop_at(struct cy_vm *vm, uint32_t code, uint32_t pc, uint64_t addr, const char *why)
{
	char at[200], bits[4];

	vm_describe_at(vm, pc, true, at, sizeof(at));
	vm->stop = CY_STOP_FAULT;
	vm->fault = CY_FAULT_ACCESS;
	vm->break_loop = true;
	vm->pc = pc;
	snprintf(vm->stop_message, sizeof(vm->stop_message),
		 "page protection: no %s permission at 0x%llx (page %s) at %s: %s",
		 failure_name(code), (unsigned long long)addr, prot_text(prot_get(vm, addr), bits),
		 at, why);
}

bool prot_trap(struct cy_vm *vm, uint32_t code, uint32_t pc, uint64_t addr, uint64_t *target)
{
	const struct prot_setup *s = &vm->prot->setup;
	uint64_t ctx = s->trap_ctx, handler, words[2] = { code, pc };

	if (!s->has_trap_ctx || !mem_range_ok(&vm->mem, ctx, 24)) {
		stop_at(vm, code, pc, addr,
			"the program has no trap context (__SUCCINCT_TRAP_CONTEXT), and SP1 "
			"stops here too");
		return false;
	}
	handler = mem_ld64(vm->mem.base, ctx + PROT_CTX_HANDLER);
	if (handler == HALT_PC) {
		/* SP1's run is done when its pc is 1, with the exit code so far */
		char at[200];
		vm_describe_at(vm, pc, false, at, sizeof(at));
		vm_warn(vm,
			"page protection: no %s permission at 0x%llx at %s; no trap handler is "
			"installed (the trap context's is 1, SP1's halt pc), so the run ends here "
			"as SP1's does",
			failure_name(code), (unsigned long long)addr, at);
		vm->stop = CY_STOP_EXIT;
		vm->break_loop = true;
		vm->pc = pc;
		return false;
	}
	if (handler >= MEM_CODE_LIMIT || (handler & 1)) {
		stop_at(vm, code, pc, addr, "the trap context's handler is not a code address");
		return false;
	}
	mem_st64(vm->mem.base, ctx + PROT_CTX_CODE, words[0]);
	mem_st64(vm->mem.base, ctx + PROT_CTX_PC, words[1]);
	cache_memory_written(vm, ctx + PROT_CTX_CODE, 16);
	*target = handler;
	return true;
}

enum prot_result prot_before(struct cy_vm *vm, const struct insn *in)
{
	const struct prot_setup *s = &vm->prot->setup;
	struct data_access acc;
	uint32_t code = 0;
	uint64_t addr = in->pc;

	if (in->pc < s->trusted_lo || in->pc >= s->trusted_hi)
		code = failure(page_prot(vm->prot, in->pc / PROT_PAGE), PROT_R | PROT_X);
	if (!code && (acc = insn_data_access(vm, in)).kind != ACCESS_NONE) {
		/* SP1 checks the page of the access's 8-byte word */
		uint8_t want = acc.kind == ACCESS_LOAD  ? PROT_R
			       : acc.kind == ACCESS_AMO ? PROT_R | PROT_W
							: PROT_W;
		addr = acc.addr & ~(uint64_t)7;
		code = failure(page_prot(vm->prot, addr / PROT_PAGE), want);
		addr = acc.addr;
	}
	if (!code)
		return PROT_OK;
	return prot_trap(vm, code, in->pc, addr, &vm->prot->target) ? PROT_TRAPPED : PROT_STOPPED;
}

uint64_t prot_target(const struct cy_vm *vm) { return vm->prot->target; }

/* A checkpoint's part (the zkVM's, api/checkpoint.c): the leaves that
 * differ from the default, each its index and its page bytes; the setup
 * comes from the ELF again. */
void prot_state_io(struct sio *io, struct cy_vm *vm)
{
	struct prot *p = vm->prot;
	size_t n = 0;

	sio_tag(io, "PROT");
	for (unsigned i = 0; i < TOP_LEAVES && !io->load; i++)
		n += p->leaf[i] != NULL;
	sio_count(io, &n, TOP_LEAVES, LEAF_PAGES, "page-protection leaves");
	if (io->load && sio_ok(io))
		for (unsigned i = 0; i < TOP_LEAVES; i++) {
			free(p->leaf[i]);
			p->leaf[i] = NULL;
		}
	for (unsigned i = 0, k = 0; k < n && sio_ok(io); i++) {
		uint32_t at = i;
		if (!io->load && !p->leaf[i])
			continue;
		sio_u32(io, &at);
		if (io->load && (at >= TOP_LEAVES || p->leaf[at])) {
			sio_fail(io, "page-protection leaf %u is out of range or twice", at);
			break;
		}
		if (io->load && sio_ok(io) && !(p->leaf[at] = malloc(LEAF_PAGES))) {
			sio_fail(io, "out of memory for the page protections");
			break;
		}
		sio_raw(io, p->leaf[at], LEAF_PAGES);
		k++;
	}
}

/* exec_impl.h - what the interpreter's builds share: the dispatch and
 * operand macros the handlers in exec_loop.h use, the clock and fault
 * macros, and the arithmetic helpers. Private to exec_rv32.c and
 * exec_rv64.c, which include it and then exec_builds.h at their width. */
#ifndef CY_EXEC_IMPL_H
#define CY_EXEC_IMPL_H

#include <limits.h>

#include "core/account.h"
#include "core/block.h"
#include "core/csr.h"
#include "core/exec.h"
#include "core/machine.h"
#include "core/pages.h"
#include "core/prot.h"
#include "core/vm.h"

/* Dispatch: computed goto where the compiler has it (each decoded
 * instruction holds its handler's address), else a switch. The handlers only
 * use these macros, so both builds share their bodies. */
#if defined(__GNUC__) && !defined(CY_NO_COMPUTED_GOTO)
#define USE_COMPUTED_GOTO 1
#define vmdispatch()                                                                               \
	BEFORE_INSN();                                                                             \
	goto * ip->handler;
#define vmcase(id) L_##id:
#define vmnext_insn                                                                                \
	do {                                                                                       \
		BEFORE_INSN();                                                                     \
		goto * ip->handler;                                                                \
	} while (0)
#else
#define USE_COMPUTED_GOTO 0
#define vmdispatch()                                                                               \
	dispatch:                                                                                  \
	BEFORE_INSN();                                                                             \
	switch (ip->op)
#define vmcase(id)  case OP_##id:
#define vmnext_insn goto dispatch
#endif

/* Registers and operands of the current instruction. */
#define RD r[ip->rd]
#define R1 r[ip->rs1]
#define R2 r[ip->rs2]
/* XLEN (exec_loop.h sets it per build): xreg is a register, sxreg signed;
 * IMM the immediate sign-extended to XLEN */
#define IMM ((xreg)(sxreg)ip->imm)
/* A data address: at XLEN 64 one at or past the 1 TiB space faults as an
 * access outside it (BEYOND is false at XLEN 32: no address can be) */
#define EFFECTIVE(a, base)                                                                         \
	const xreg a = (base);                                                                     \
	if (unlikely(BEYOND(a)))                                                                   \
	FAULT_AT(CY_FAULT_MEMORY, a)
#define NEXT_PC (ip->pc + ip->len)

/* The locals cycles and instret hold the clock at the entry of the current
 * block; an instruction's own clock is derived from its position, so the
 * straight-line path does no counting at all. */
#define NOW_CYCLES  (cycles + ip->before)
#define NOW_INSTRET (instret + ip->index)
#define COST        (ip->after - ip->before)

/* Moves the clock before the current instruction into the VM, for code
 * outside the loop; RELOAD takes back what that code changed. */
#define SYNC()                                                                                     \
	do {                                                                                       \
		vm->pc = ip->pc;                                                                   \
		vm->cycles = NOW_CYCLES;                                                           \
		vm->instret = NOW_INSTRET;                                                         \
	} while (0)
#define RELOAD()                                                                                   \
	do {                                                                                       \
		cycles = vm->cycles - ip->before;                                                  \
		instret = vm->instret - ip->index;                                                 \
	} while (0)

/* Retires the current instruction and moves on to the next in the block. */
#define NEXT                                                                                       \
	do {                                                                                       \
		OBS_RETIRE(COST);                                                                  \
		ACCT_RETIRE(cycles + ip->after);                                                   \
		ip++;                                                                              \
		vmnext_insn;                                                                       \
	} while (0)

/* Retires the instruction that ends the block: the clock moves past it. */
#define RETIRE_LAST(extra)                                                                         \
	do {                                                                                       \
		uint32_t extra_ = (extra);                                                         \
		OBS_RETIRE(COST + extra_);                                                         \
		ACCT_RETIRE(cycles + ip->after + extra_);                                          \
		ACCT_DEADLINE(ip->index + 1u, cycles, cycles + ip->after + extra_);                \
		instret += ip->index + 1u;                                                         \
		cycles += ip->after + extra_;                                                      \
	} while (0)

/* Leaves the block for target; slot says which successor to cache. The
 * common case, a cached successor well within the budget, is handled right
 * here, so that every jump has its own indirect branch to predict. */
#define JUMP(target, slot)                                                                         \
	do {                                                                                       \
		ACCT_RUN();                                                                        \
		pc = (target);                                                                     \
		succ = &b->next[slot];                                                             \
		b = *succ;                                                                         \
		if (likely(b->pc == pc && cycles + MAX_COST(b) <= LIMIT && CODE_READY(b))) {       \
			ip = b->insns;                                                             \
			OBS_BLOCK();                                                               \
			vmnext_insn;                                                               \
		}                                                                                  \
		goto next_block;                                                                   \
	} while (0)

#define BRANCH(cond)                                                                               \
	do {                                                                                       \
		if (cond) {                                                                        \
			OBS_JUMP((uint32_t)ip->imm);                                               \
			RETIRE_LAST(taken_extra);                                                  \
			ACCT_TAKEN();                                                              \
			ACCT_TRANSFER((uint32_t)ip->imm, true);                                    \
			JUMP((uint32_t)ip->imm, 1);                                                \
		}                                                                                  \
		RETIRE_LAST(0);                                                                    \
		JUMP(NEXT_PC, 0);                                                                  \
	} while (0)

/* After a store: a write into decoded code ends the block, and the cache
 * is flushed before anything else runs; the same test finds a store into a
 * watched range's chunk (STORE_SEEN keeps it for code_written). */
#define STORED(a, size)                                                                            \
	do {                                                                                       \
		OBS_STORE(a, size);                                                                \
		ACCT_PENDING_STORE(a, size);                                                       \
		if (unlikely(cache_is_code(&vm->cache, a, size))) {                                \
			STORE_SEEN(a, size);                                                       \
			goto code_written;                                                         \
		}                                                                                  \
		NEXT;                                                                              \
	} while (0)

#define STORE(size, do_store)                                                                      \
	do {                                                                                       \
		EFFECTIVE(a, R1 + IMM);                                                            \
		ACCESS(a, size, true, 1);                                                          \
		do_store;                                                                          \
		STORED(a, size);                                                                   \
	} while (0)

/* Stops at the current instruction, which does not retire; on the bare
 * platform it traps to mtvec instead (FAULT_TRAP, exec_loop.h: nothing in the
 * Linux builds). */
#define FAULT(kind)                                                                                \
	do {                                                                                       \
		SYNC();                                                                            \
		ACCT_DEADLINE(ip->index, cycles, NOW_CYCLES);                                      \
		ACCT_PARTIAL(ip->index, RETIRED_CYCLES, NOW_INSTRET, NOW_CYCLES);                  \
		FAULT_TRAP(kind);                                                                  \
		vm_fault(vm, kind, ip->pc, last_pc);                                               \
		goto out_synced;                                                                   \
	} while (0)

/* A data access about to be made: a misaligned one (an address that is not
 * a multiple of its size; a byte never is) is counted by pc, in every build
 * (vm_misaligned), then the detailed models' costs (DATA_COST). */
#define ACCESS(a, size, store, accesses)                                                           \
	do {                                                                                       \
		if ((size) > 1 && unlikely((a) & ((size)-1)))                                      \
			vm_misaligned(vm, ip->pc);                                                 \
		DATA_COST(a, size, store, accesses);                                               \
	} while (0)

/* The same for an address the instruction reached for, which the stop
 * message names. */
#define FAULT_AT(kind, addr)                                                                       \
	do {                                                                                       \
		vm->fault_addr = (addr);                                                           \
		vm->fault_has_addr = true;                                                         \
		FAULT(kind);                                                                       \
	} while (0)

static inline uint32_t mulh(uint32_t a, uint32_t b)
{
	return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32);
}
static inline uint32_t mulhsu(uint32_t a, uint32_t b)
{
	return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)b) >> 32);
}
static inline uint32_t mulhu(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
static inline uint32_t div_s(uint32_t a, uint32_t b)
{
	if (b == 0)
		return UINT32_MAX;
	if (a == (uint32_t)INT32_MIN && b == UINT32_MAX)
		return a; /* overflow: the quotient is the dividend */
	return (uint32_t)((int32_t)a / (int32_t)b);
}
static inline uint32_t rem_s(uint32_t a, uint32_t b)
{
	if (b == 0)
		return a;
	if (a == (uint32_t)INT32_MIN && b == UINT32_MAX)
		return 0;
	return (uint32_t)((int32_t)a % (int32_t)b);
}
static inline uint64_t mulh64(uint64_t a, uint64_t b)
{
	return (uint64_t)((__int128)(int64_t)a * (__int128)(int64_t)b >> 64);
}
static inline uint64_t mulhsu64(uint64_t a, uint64_t b)
{
	return (uint64_t)((__int128)(int64_t)a * (__int128)(unsigned __int128)b >> 64);
}
static inline uint64_t mulhu64(uint64_t a, uint64_t b)
{
	return (uint64_t)((unsigned __int128)a * b >> 64);
}
static inline uint64_t div_s64(uint64_t a, uint64_t b)
{
	if (b == 0)
		return UINT64_MAX;
	if (a == (uint64_t)INT64_MIN && b == UINT64_MAX)
		return a;
	return (uint64_t)((int64_t)a / (int64_t)b);
}
static inline uint64_t rem_s64(uint64_t a, uint64_t b)
{
	if (b == 0)
		return a;
	if (a == (uint64_t)INT64_MIN && b == UINT64_MAX)
		return 0;
	return (uint64_t)((int64_t)a % (int64_t)b);
}
static inline uint64_t min_s64(uint64_t a, uint64_t b) { return (int64_t)a < (int64_t)b ? a : b; }
static inline uint64_t max_s64(uint64_t a, uint64_t b) { return (int64_t)a > (int64_t)b ? a : b; }
/* a 32-bit result of a W form, sign-extended */
static inline uint64_t sext32(uint32_t v) { return (uint64_t)(int64_t)(int32_t)v; }
static inline uint32_t min_s(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b ? a : b; }
static inline uint32_t max_s(uint32_t a, uint32_t b) { return (int32_t)a > (int32_t)b ? a : b; }

/* Event code for the observed build: fills the common fields, makes the
 * VM's clock match the event's and hands the event to the observers. */
__attribute__((unused)) /* the plain builds' file has no observed build */
static void
emit(struct cy_vm *vm, cy_event_kind kind, const struct insn *in, uint64_t cycles, uint64_t instret,
     cy_event *ev)
{
	ev->kind = kind;
	ev->pc = in->pc;
	ev->cycles = cycles;
	ev->instret = instret;
	ev->cls = (cy_insn_class)insn_classes[in->op];
	vm->pc = in->pc;
	vm->cycles = cycles;
	vm->instret = instret;
	vm_emit(vm, ev);
}

/* The inline interpreters' bound for running a whole block: the budget,
 * and with paging the end of the current segment (none yet: 0, so that the
 * first instruction is stepped and starts it). */
static inline uint64_t inline_limit(const struct cy_vm *vm, uint64_t budget)
{
	const struct cost_state *s = &vm->cost;
	uint64_t end;

	if (!vm->model.paging)
		return budget;
	if (s->segments == 0)
		return 0;
	end = s->seg_start + s->seg_capacity;
	return end < budget ? end : budget;
}

/* Whether every page block b fetches from is loaded in this segment; if
 * so, it stays so until the epoch changes. */
static bool code_ready(struct cy_vm *vm, struct block *b)
{
	const struct cost_state *s = &vm->cost;
	uint32_t depth = vm->model.merkle_depth;
	/* a block of a fetch fault alone fetches the halfword at pc */
	uint32_t last = b->end > b->pc ? b->end - 1 : b->pc + 1;

	for (uint32_t pg = b->pc >> s->page_shift;; pg++) {
		if (!page_marked(s->loaded, depth, pg))
			return false;
		if (pg == last >> s->page_shift)
			break;
	}
	b->code_epoch = s->epoch;
	return true;
}

#endif

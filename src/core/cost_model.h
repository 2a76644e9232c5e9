/* cost_model.h - cost models as data: what one instruction costs on a target
 * machine (docs/cost-models.md). The core prices each decoded instruction
 * with it; cost/model.c reads it from a models/NAME.model file. */
#ifndef CY_COST_MODEL_H
#define CY_COST_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cyclops.h"

/* A zkVM syscall's own cost (syscall NAME N): what the ABI adds to the
 * clock when the call runs, beyond its ecall's (abi/syscall_zkvm.c). */
#define COST_MAX_SYSCALLS 64
struct cost_syscall {
	char name[32];
	uint32_t cycles;   /* each call */
	uint32_t per_unit; /* and each unit of its work (a SHA block, ...) */
};

struct cost_model {
	char name[64];
	char description[200];
	char source[200];
	uint16_t class_cost[CY_CLASS_COUNT];
	/* per instruction (insn NAME N), over its class's cost; 0: the class's */
	uint16_t insn_cost[256];
	struct cost_syscall syscalls[COST_MAX_SYSCALLS];
	unsigned n_syscalls;
	uint16_t branch_taken;     /* a taken branch's whole cost */
	uint16_t div_by_zero;      /* div/divu/rem/remu with a zero divisor */
	uint16_t misaligned_extra; /* the second access of a split one */

	/* Memory timing: accesses outside the fast ranges (inclusive bounds)
	 * wait; instruction fetches outside the fast code range stall. */
	uint32_t fast_data_lo, fast_data_hi;
	uint16_t data_wait_states;
	uint32_t fast_code_lo, fast_code_hi;
	uint16_t fetch_wait_states;

	/* Paging and segments (the RISC Zero model). */
	bool paging;
	uint32_t page_size;    /* a power of two */
	uint32_t page_in;      /* cycles per page in (and again per page out) */
	uint32_t merkle_node;  /* cycles per tree node newly loaded/dirtied */
	uint32_t merkle_depth; /* levels of nodes above the pages */
	uint32_t segment_po2;
	uint32_t segment_margin;   /* a segment holds 2^po2 - margin cycles */
	uint32_t segment_reserved; /* fixed cycles of every segment */
	uint32_t segment_paging;   /* fixed paging cycles of every segment */

	/* SP1 v6's memory rows (sp1-gas; cost/touch.c): the first access in a
	 * chunk to each register and each 8-byte word costs memory_touch; a
	 * chunk ends after the instruction that brings its trace entries to
	 * memory_chunk (0: one chunk). SP1's clock (8 per instruction, 264 per
	 * ecall) costs clock_bump when it crosses a multiple of 2^24, and
	 * state_bump near one or when straight-line code crosses 64 KiB. */
	uint32_t memory_touch;
	uint64_t memory_chunk;
	uint32_t clock_bump, state_bump;
};

/* The first and last bus words a data access of size bytes at addr
 * touches: they differ when it is split in two. The words are 4 bytes wide,
 * 8 for a doubleword access (RV64's ld and sd take one word when aligned). */
static inline void cost_model_bus_words(uint64_t addr, uint32_t size, uint64_t *first,
					uint64_t *last)
{
	uint64_t word = size == 8 ? 8 : 4;

	*first = addr & ~(word - 1);
	*last = (addr + size - 1) & ~(word - 1);
}

/* The wait states and misaligned extra of one data access of size bytes
 * at addr: each bus word it touches outside the fast data range waits, and
 * an access split over two words costs the extra. */
static inline uint32_t cost_model_access_wait(const struct cost_model *m, uint64_t addr,
					      uint32_t size)
{
	uint64_t first, last;
	uint32_t wait;

	cost_model_bus_words(addr, size, &first, &last);
	wait = first < m->fast_data_lo || first > m->fast_data_hi ? m->data_wait_states : 0;
	if (first != last) /* split into two word accesses */
		wait +=
		    m->misaligned_extra +
		    (last < m->fast_data_lo || last > m->fast_data_hi ? m->data_wait_states : 0);
	return wait;
}

/* Whether the model has SP1's memory rows (touches or clock bumps): every
 * instruction is accounted (cost/touch.c). */
static inline bool cost_model_has_rows(const struct cost_model *m)
{
	return m->memory_touch || m->clock_bump || m->state_bump;
}

/* The most one page touch can cost: the page and every tree node above it. */
static inline uint64_t cost_model_page_worst(const struct cost_model *m)
{
	return m->paging ? (uint64_t)m->page_in + (uint64_t)m->merkle_depth * m->merkle_node : 0;
}

#endif

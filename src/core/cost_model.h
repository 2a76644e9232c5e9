/* cost_model.h - cost models as data: what one instruction costs on a target
 * machine (docs/cost-models.md). The core prices each decoded instruction
 * with it; cost/model.c reads it from a models/NAME.model file. */
#ifndef CY_COST_MODEL_H
#define CY_COST_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cyclops.h"

struct cost_model {
	char name[64];
	char description[200];
	char source[200];
	uint16_t class_cost[CY_CLASS_COUNT];
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
};

#endif

/* cost_model.h - cost models as data: what one instruction costs on a target
 * machine, read from a models/NAME.model file (docs/cost-models.md). */
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

/* The built-in unit model: one cycle per instruction. */
void cost_model_unit(struct cost_model *m);

/* Parses a model file's text; path and line numbers go into err. */
int cost_model_parse(struct cost_model *m, const char *text, const char *path, char *err,
		     size_t err_size);

/* Loads a model by name (searched in the model directories) or by path
 * (anything with a '/' or ending in ".model"). */
int cost_model_load(struct cost_model *m, const char *name_or_path, char *err, size_t err_size);

/* Calls fn for every model found in the model directories, by name. */
int cost_model_list(void (*fn)(void *ctx, const struct cost_model *m, const char *path), void *ctx,
		    char *err, size_t err_size);

/* Whether the model needs the detailed interpreter (costs that depend on
 * addresses: wait states, misaligned accesses, paging). */
bool cost_model_is_detailed(const struct cost_model *m);

/* Segment capacity in cycles, or 0 when 2^po2 leaves no room. */
uint64_t cost_model_segment_capacity(const struct cost_model *m);

#endif

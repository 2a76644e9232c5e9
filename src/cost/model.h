/* model.h - reading cost models from models/NAME.model files (model.c). */
#ifndef CY_MODEL_H
#define CY_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cost_model.h"

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

/* fuzz_cost_model.c - the cost-model file parser (models/NAME.model, or a
 * path given to --model): arbitrary text, which must parse or be refused
 * with a message naming the line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cost/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cost_model m;
	char err[512];
	char *text = malloc(size + 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0'; /* the loader reads whole files, NUL-terminated */
	if (cost_model_parse(&m, text, "fuzz.model", err, sizeof(err)) == 0) {
		cost_model_is_detailed(&m);
		cost_model_segment_capacity(&m);
	}
	free(text);
	return 0;
}

/* fuzz_samples.c - the saved-histogram reader (cyclops hist): arbitrary
 * bytes as a .samples file, then the lookups and the sum cyclops hist
 * makes of what was read. */
#include <stdint.h>
#include <stdlib.h>

#include "sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cy_samples *s = calloc(1, sizeof(*s)), *sum = calloc(1, sizeof(*sum));
	char why[200];

	if (!s || !sum)
		abort();
	if (samples_parse(data, size, s, why, sizeof(why)) == 0) {
		for (size_t i = 0; i < s->n_ranges; i++)
			cy_samples_at(s, s->ranges[i].start);
		if (samples_parse(data, size, sum, why, sizeof(why)) == 0)
			cy_samples_add(sum, s, why, sizeof(why));
	}
	cy_samples_free(s);
	cy_samples_free(sum);
	return 0;
}

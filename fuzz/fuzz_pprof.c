/* fuzz_pprof.c - the pprof reader (cyclops annotate, cyclops diff):
 * arbitrary bytes as a profile.proto message (not gzipped: the reader's
 * unzip is zlib's), then what annotate reads of each sample. */
#include <stdint.h>
#include <stdlib.h>

#include "export/pprof_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pprof_data d;
	char err[256];
	uint64_t sum = 0;

	if (pprof_parse(&d, data, size, err, sizeof(err)) != 0)
		return 0;
	int type = pprof_type(&d, "cycles");
	for (size_t i = 0; i < d.n_samples; i++) {
		const struct pprof_sample *s = &d.samples[i];
		sum += (uint64_t)s->values[type >= 0 ? type : 0];
		for (size_t k = 0; k < s->n_locations; k++) {
			const struct pprof_location *l = &d.locations[s->locations[k]];
			for (size_t j = 0; j < l->n_lines; j++)
				sum += (uint64_t)d.functions[l->lines[j].function].start_line;
		}
	}
	pprof_free(&d);
	return sum == 1 ? 1 : 0; /* uses sum; libFuzzer ignores the value */
}

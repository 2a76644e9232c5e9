/* fuzz_samples.c - the saved-histogram reader (cyclops hist): arbitrary
 * bytes as a .samples file, then the lookups and the sum cyclops hist
 * makes of what was read.
 *
 * The file ends in a checksum of everything before it, which random
 * mutations almost never get right, so the checks behind it would go
 * unfuzzed: when bit 0 of the first byte is set, the harness writes the
 * right checksum into the rest of the input before parsing it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "observe/elf_id.h"
#include "observe/sample.h"

#define TRAILER_BYTES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cy_samples *s = calloc(1, sizeof(*s)), *sum = calloc(1, sizeof(*sum));
	uint8_t *file = malloc(size + 1);
	char why[200];

	if (!s || !sum || !file)
		abort();
	if (size == 0)
		goto out;
	size--;
	memcpy(file, data + 1, size);
	if ((data[0] & 1) && size >= TRAILER_BYTES) {
		uint64_t h = fnv64(FNV64_INIT, file, size - TRAILER_BYTES);
		memcpy(file + size - TRAILER_BYTES, &h, TRAILER_BYTES); /* little-endian host */
	}
	if (samples_parse(file, size, s, why, sizeof(why)) == 0) {
		for (size_t i = 0; i < s->n_ranges; i++)
			cy_samples_at(s, s->ranges[i].start);
		if (samples_parse(file, size, sum, why, sizeof(why)) == 0)
			cy_samples_add(sum, s, why, sizeof(why));
	}
out:
	free(file);
	cy_samples_free(s);
	cy_samples_free(sum);
	return 0;
}

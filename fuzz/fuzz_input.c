/* fuzz_input.c - the zkVM --input literal encoder (u32:N, u64:N,
 * hex:BYTES, str:TEXT): arbitrary text as one command-line word. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cyclops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1), err[300];
	uint8_t *frame = NULL;
	size_t len = 0;

	if (!spec)
		abort();
	memcpy(spec, data, size);
	spec[size] = '\0'; /* argv words end at their first NUL */
	if (cy_input_encode(spec, &frame, &len, err, sizeof(err)) == 0 && len && !frame)
		abort(); /* a frame with bytes must have been allocated */
	free(frame);
	free(spec);
	return 0;
}

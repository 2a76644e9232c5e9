/* fuzz_timer_marker.c - the channel-timer marker recogniser: the input is
 * a stream of (pc, instruction word) pairs, 8 bytes each, as the VM feeds
 * the words it executes. When it fires the three channels must have been
 * filled in from the auipc/addi pairs it saw. */
#include <stdint.h>
#include <string.h>

#include "observe/timer_marker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct marker m;

	marker_reset(&m);
	for (size_t at = 0; at + 8 <= size; at += 8) {
		uint32_t pc, word;
		memcpy(&pc, data + at, 4);
		memcpy(&word, data + at + 4, 4);
		marker_step(&m, pc, word);
	}
	return 0;
}

/* fuzz_tracker.c - the cycle-tracker line parser: the input is cut into
 * guest writes (a length byte, a stream bit, then the bytes), fed with a
 * rising clock, quiet or not, and the results are read after every write
 * as the chunked run reads them. */
#include <stdint.h>
#include <stdlib.h>

#include "observe/tracker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tracker *t;
	uint64_t clock = 0;
	size_t at = 1, n;

	if (size < 1)
		return 0;
	t = tracker_new(data[0] & 1);
	if (!t)
		abort();
	while (at < size) {
		enum tracker_stream stream = data[at] & 0x80 ? TRACKER_STDERR : TRACKER_STDOUT;
		size_t len = data[at] & 0x7f;
		const uint8_t *echo;
		size_t echo_len;

		at++;
		if (len > size - at)
			len = size - at;
		clock += len + data[at - 1];
		if (tracker_write(t, stream, data + at, len, clock, &echo, &echo_len) != 0)
			break;
		at += len;
		tracker_chunk_results(t, &n);
	}
	tracker_results(t, &n);
	tracker_spans(t, &n);
	tracker_issues(t, &n);
	for (int s = 0; s < TRACKER_STREAMS; s++) {
		const uint8_t *held;
		tracker_take_held(t, (enum tracker_stream)s, &held, &n);
	}
	tracker_free(t);
	return 0;
}

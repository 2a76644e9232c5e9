/* tracker.h - the cycle-tracking protocol: "cycle-tracker-start: NAME" and
 * "cycle-tracker-end: NAME" lines the guest writes. Fed with the bytes of
 * each write and the clock; keeps the results the API hands out. */
#ifndef CY_TRACKER_H
#define CY_TRACKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cyclops.h"

/* The streams whose lines are read, each with its own line buffer. */
enum tracker_stream {
	TRACKER_STDOUT,
	TRACKER_STDERR,
	TRACKER_STREAMS,
};

/* A line longer than this (prefix and name) is ordinary output. */
#define TRACKER_MAX_LINE 4096

struct tracker;

/* Whose rules the requests follow (docs/api.md, "The cycle tracker"):
 * Pico's (the default, also for Linux and bare guests): lines of stdout
 * and stderr, the prefix with its space, an end keeps its start, an end
 * with no start records 0. SP1's: stdout only, each write parsed on its
 * own (v3-v5: the whole write is one request; v6: each of its lines), the
 * name trimmed, an end takes its start away, an end with no start records
 * nothing. */
enum tracker_rules { TRACKER_PICO, TRACKER_SP1_WRITE, TRACKER_SP1_LINES };
void tracker_set_rules(struct tracker *t, enum tracker_rules rules);

/* quiet: request lines are left out of what tracker_write gives back to
 * echo. NULL when out of memory. */
struct tracker *tracker_new(bool quiet);
void tracker_free(struct tracker *t);

/* The bytes one write call of the guest gave to stream, at clock (the
 * cycles before the ecall). Every complete line is serviced in order.
 * *echo and *echo_len say what to pass on to the host: buf itself, or in
 * quiet mode the output that is not part of a request (bytes held back
 * from earlier writes included, bytes of a line that may still become a
 * request held back). 0, or -ENOMEM (then nothing was recorded). */
int tracker_write(struct tracker *t, enum tracker_stream stream, const uint8_t *buf, size_t len,
		  uint64_t clock, const uint8_t **echo, size_t *echo_len);

/* Bytes held back on stream at the end of the run (quiet mode: the guest
 * stopped in the middle of a line); the tracker forgets them. */
void tracker_take_held(struct tracker *t, enum tracker_stream stream, const uint8_t **buf,
		       size_t *len);

/* The bytes the tracker holds on the heap now: every buffer it owns, at
 * its capacity. Buffers only grow, so at the end of a run this is the
 * most it ever held (the test of what a flood of output costs). */
size_t tracker_heap_bytes(const struct tracker *t);

/* Saves or restores everything the tracker holds (util/state_io.h): a
 * checkpoint's part. 0, or the error in io. */
struct sio;
int tracker_state_io(struct sio *io, struct tracker *t);

/* Results. The arrays belong to the tracker and stay valid until its next
 * tracker_write, the next call of the same function, or tracker_free. */

/* Every request that ended, in the order of its first end, with all of
 * its elapsed cycles. */
const cy_tracker_entry *tracker_results(struct tracker *t, size_t *n);
/* The ends since the previous call only (one chunk). */
const cy_tracker_entry *tracker_chunk_results(struct tracker *t, size_t *n);
/* The span tree in pre-order. */
const cy_span *tracker_spans(struct tracker *t, size_t *n);
/* Every span as it happened (cy_vm_tracker_instances), the open ones up
 * to now. */
const cy_span_instance *tracker_instances(struct tracker *t, uint64_t now, size_t *n);
/* Unmatched ends, starts given again before they ended, starts never ended. */
const cy_tracker_issue *tracker_issues(struct tracker *t, size_t *n);

#endif

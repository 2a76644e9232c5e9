/* test_tracker.c - unit tests of the cycle-tracking protocol (src/tracker.c):
 * each rule of the protocol, fed with byte strings and clocks chosen here,
 * and the quiet mode's output. Prints "ok - ..." / "not ok - ..." lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "observe/tracker.h"

static int failed;

static void check(bool cond, const char *name, const char *why)
{
	if (cond) {
		printf("ok - tracker: %s\n", name);
	} else {
		printf("not ok - tracker: %s: %s\n", name, why);
		failed++;
	}
}

/* One write of a C string (its NUL excluded) at clock. */
static void put(struct tracker *t, enum tracker_stream s, const char *text, uint64_t clock)
{
	const uint8_t *echo;
	size_t n;

	if (tracker_write(t, s, (const uint8_t *)text, strlen(text), clock, &echo, &n) != 0) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
}

/* One write to stdout of len bytes that may hold NULs. */
static void put_bytes(struct tracker *t, const char *bytes, size_t len, uint64_t clock)
{
	const uint8_t *echo;
	size_t n;

	if (tracker_write(t, TRACKER_STDOUT, (const uint8_t *)bytes, len, clock, &echo, &n) != 0) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
}

static const cy_tracker_entry *find(const cy_tracker_entry *e, size_t n, const char *name,
				    size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].name_len == len && memcmp(e[i].name, name, len) == 0)
			return &e[i];
	return NULL;
}

/* Whether name's results are exactly want[0..count). */
static bool has_cycles(struct tracker *t, const char *name, const uint64_t *want, size_t count)
{
	size_t n;
	const cy_tracker_entry *e = tracker_results(t, &n);
	const cy_tracker_entry *x = find(e, n, name, strlen(name));

	if (!x)
		return count == (size_t)-1;
	if (x->count != count)
		return false;
	return memcmp(x->cycles, want, count * sizeof(*want)) == 0;
}

#define CYCLES(...)        ((const uint64_t[]){ __VA_ARGS__ })
#define HAS(t, name, ...)  has_cycles(t, name, CYCLES(__VA_ARGS__), sizeof(CYCLES(__VA_ARGS__)) / 8)
#define ENDED_NONE(t, nam) has_cycles(t, nam, NULL, (size_t)-1)

static size_t count_issues(struct tracker *t, cy_tracker_issue_kind kind, const char *name,
			   uint64_t *count, uint64_t *cycle)
{
	size_t n, found = 0;
	const cy_tracker_issue *is = tracker_issues(t, &n);

	for (size_t i = 0; i < n; i++)
		if (is[i].kind == kind && is[i].name_len == strlen(name) &&
		    memcmp(is[i].name, name, is[i].name_len) == 0) {
			found++;
			*count = is[i].count;
			*cycle = is[i].cycle;
		}
	return found;
}

static void test_basic(void)
{
	struct tracker *t = tracker_new(false);

	put(t, TRACKER_STDOUT, "cycle-tracker-start: loop\n", 10);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: loop\n", 25);
	check(HAS(t, "loop", 15), "end minus start", "expected loop: [15]");
	tracker_free(t);
}

static void test_split(void)
{
	struct tracker *t = tracker_new(false);

	/* the request is serviced at the clock of the write with the newline */
	put(t, TRACKER_STDOUT, "cycle-tracker-start: ", 1);
	put(t, TRACKER_STDOUT, "na", 2);
	put(t, TRACKER_STDOUT, "me\n", 7);
	put(t, TRACKER_STDOUT, "cycle-tracker-", 15);
	put(t, TRACKER_STDOUT, "end: name", 16);
	put(t, TRACKER_STDOUT, "\n", 20);
	check(HAS(t, "name", 13), "a line split over three writes is one request, at the newline",
	      "expected name: [20 - 7]");
	tracker_free(t);
}

static void test_several_lines(void)
{
	struct tracker *t = tracker_new(false);

	put(t, TRACKER_STDOUT, "x\ncycle-tracker-start: a\ncycle-tracker-end: a\ny\n", 5);
	check(HAS(t, "a", 0), "several lines in one write, in order", "expected a: [0]");
	put(t, TRACKER_STDOUT, "cycle-tracker-end: b\ncycle-tracker-start: b\n", 8);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: b\n", 12);
	check(HAS(t, "b", 0, 4), "an end before a start in the same write is unmatched",
	      "expected b: [0, 4]");
	tracker_free(t);
}

static void test_streams(void)
{
	struct tracker *t = tracker_new(false);

	put(t, TRACKER_STDOUT, "cycle-tracker-start: ", 1);
	put(t, TRACKER_STDERR, "cycle-tracker-start: e\n", 2);
	put(t, TRACKER_STDOUT, "s\n", 5);
	put(t, TRACKER_STDERR, "cycle-tracker-end: s\n", 10);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: e\n", 10);
	check(HAS(t, "s", 5) && HAS(t, "e", 8),
	      "stdout and stderr: one set of starts, a line buffer each",
	      "expected s: [5], e: [8]");
	tracker_free(t);
}

static void test_prefix_exact(void)
{
	struct tracker *t = tracker_new(false);
	size_t n;

	put(t, TRACKER_STDOUT, "cycle-tracker-start:x\n", 1);
	put(t, TRACKER_STDOUT, "cycle-tracker-end:x\n", 2);
	put(t, TRACKER_STDOUT, " cycle-tracker-end: x\n", 3);
	put(t, TRACKER_STDOUT, "Cycle-tracker-end: x\n", 4);
	put(t, TRACKER_STDOUT, "cycle-tracker-end:\n", 5);
	tracker_results(t, &n);
	check(n == 0, "no space after the colon, or anything before it: not a request",
	      "a request was serviced");
	put(t, TRACKER_STDOUT, "cycle-tracker-start:  y\n", 10);
	put(t, TRACKER_STDOUT, "cycle-tracker-end:  y\n", 17);
	check(HAS(t, " y", 7) && ENDED_NONE(t, "y"),
	      "two spaces after the colon: the name begins with a space",
	      "expected ' y': [7] and no 'y'");
	put(t, TRACKER_STDOUT, "cycle-tracker-start: z\r\n", 20);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: z\n", 23);
	put(t, TRACKER_STDOUT, "cycle-tracker-start: w\r\r\n", 30);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: w\r\r\n", 31);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: w\r\n", 32);
	check(HAS(t, "z", 3) && HAS(t, "w\r", 1) && HAS(t, "w", 0),
	      "one trailing carriage return is not part of the name",
	      "expected z: [3], 'w\\r': [1], w: [0]");
	put(t, TRACKER_STDOUT, "cycle-tracker-start: \n", 40);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: \n", 45);
	check(HAS(t, "", 5), "an empty name is a name", "expected '': [5]");
	put_bytes(t, "cycle-tracker-start: na\0b\n", 26, 50);
	put_bytes(t, "cycle-tracker-end: na\0b\n", 24, 64);
	{
		const cy_tracker_entry *e = tracker_results(t, &n);
		const cy_tracker_entry *x = find(e, n, "na\0b", 4);
		check(x && x->count == 1 && x->cycles[0] == 14 && x->name[4] == '\0',
		      "names may hold NUL bytes", "expected 'na\\0b': [14]");
	}
	tracker_free(t);
}

static void test_restart(void)
{
	struct tracker *t = tracker_new(false);
	uint64_t count = 0, cycle = 0;

	put(t, TRACKER_STDOUT, "cycle-tracker-start: a\n", 1);
	put(t, TRACKER_STDOUT, "cycle-tracker-start: a\n", 5);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: a\n", 9);
	check(HAS(t, "a", 4), "a second start overwrites the first", "expected a: [4]");
	check(count_issues(t, CY_TRACKER_RESTARTED, "a", &count, &cycle) == 1 && count == 1 &&
		  cycle == 5,
	      "the overwritten start is reported", "no RESTARTED issue for a at 5");
	tracker_free(t);
}

static void test_unmatched(void)
{
	struct tracker *t = tracker_new(false);
	uint64_t count = 0, cycle = 0;

	put(t, TRACKER_STDOUT, "cycle-tracker-end: b\n", 7);
	check(HAS(t, "b", 0), "an end with no start records 0", "expected b: [0]");
	put(t, TRACKER_STDOUT, "cycle-tracker-end: b\n", 10);
	check(HAS(t, "b", 0, 3), "and leaves its clock behind as the start", "expected b: [0, 3]");
	check(count_issues(t, CY_TRACKER_UNMATCHED_END, "b", &count, &cycle) == 1 && count == 1 &&
		  cycle == 7,
	      "the unmatched end is reported", "no UNMATCHED_END issue for b at 7");
	tracker_free(t);
}

static void test_twice(void)
{
	struct tracker *t = tracker_new(false);

	put(t, TRACKER_STDOUT, "cycle-tracker-start: c\n", 0);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: c\n", 4);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: c\n", 10);
	check(HAS(t, "c", 4, 10), "ended twice: both measured from the one start",
	      "expected c: [4, 10]");
	tracker_free(t);
}

static void test_tree(void)
{
	struct tracker *t = tracker_new(false);
	const cy_span *s;
	size_t n;
	uint64_t count, cycle;

	put(t, TRACKER_STDOUT, "cycle-tracker-start: outer\n", 0);
	put(t, TRACKER_STDOUT, "cycle-tracker-start: inner\n", 2);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: inner\n", 5);
	put(t, TRACKER_STDOUT, "cycle-tracker-start: inner\n", 6);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: inner\n", 10);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: outer\n", 12);
	s = tracker_spans(t, &n);
	check(n == 2 && s[0].depth == 0 && s[0].total == 12 && s[0].count == 1 && s[1].depth == 1 &&
		  s[1].parent == 0 && s[1].count == 2 && s[1].total == 7 && s[1].min == 3 &&
		  s[1].max == 4 && !s[0].open && !s[1].open,
	      "nesting: inner under outer, with count, total, min and max", "wrong span tree");

	/* a opens, b opens, a ends, b ends: b started while a was open */
	put(t, TRACKER_STDOUT, "cycle-tracker-start: a\n", 20);
	put(t, TRACKER_STDOUT, "cycle-tracker-start: b\n", 21);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: a\n", 23);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: b\n", 26);
	put(t, TRACKER_STDOUT, "cycle-tracker-start: open\n", 30);
	s = tracker_spans(t, &n);
	check(n == 5 && s[2].name_len == 1 && s[2].name[0] == 'a' && s[2].depth == 0 &&
		  s[3].name[0] == 'b' && s[3].parent == 2 && s[3].total == 5 && s[4].depth == 0 &&
		  s[4].open && s[4].count == 0,
	      "overlapping spans nest by the order they opened; an open one shows",
	      "wrong span tree");
	check(count_issues(t, CY_TRACKER_NEVER_ENDED, "open", &count, &cycle) == 1 && cycle == 30,
	      "a start never ended is reported", "no NEVER_ENDED issue for open at 30");
	tracker_free(t);
}

static void test_report(void)
{
	struct tracker *t = tracker_new(false);
	size_t n;
	const cy_tracker_entry *e, *x;

	put(t, TRACKER_STDOUT, "cycle-tracker-report-start: r\n", 0);
	put(t, TRACKER_STDOUT, "cycle-tracker-report-end: r\n", 5);
	put(t, TRACKER_STDOUT, "cycle-tracker-report-start: r\n", 10);
	put(t, TRACKER_STDOUT, "cycle-tracker-report-end: r\n", 12);
	put(t, TRACKER_STDOUT, "cycle-tracker-start: r\n", 20);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: r\n", 21);
	e = tracker_results(t, &n);
	x = find(e, n, "r", 1);
	check(HAS(t, "r", 5, 2, 1) && x && x->report_total == 7 && x->report_count == 2,
	      "report variant: measured alike, summed with a count",
	      "expected r: [5, 2, 1], total 7, count 2");
	tracker_free(t);
}

static void test_chunks(void)
{
	struct tracker *t = tracker_new(false);
	const cy_tracker_entry *c;
	size_t n, m;
	bool ok;

	put(t, TRACKER_STDOUT, "cycle-tracker-start: long\n", 1);
	put(t, TRACKER_STDOUT, "cycle-tracker-report-start: s\n", 2);
	put(t, TRACKER_STDOUT, "cycle-tracker-report-end: s\n", 3);
	c = tracker_chunk_results(t, &n);
	ok = n == 1 && c[0].count == 1 && c[0].cycles[0] == 1 && c[0].report_count == 1;
	c = tracker_chunk_results(t, &n);
	ok = ok && n == 0;
	put(t, TRACKER_STDOUT, "cycle-tracker-report-start: s\n", 40);
	put(t, TRACKER_STDOUT, "cycle-tracker-report-end: s\n", 44);
	put(t, TRACKER_STDOUT, "cycle-tracker-end: long\n", 50);
	c = tracker_chunk_results(t, &n);
	ok = ok && n == 2 && c[0].name[0] == 's' && c[0].count == 1 && c[0].cycles[0] == 4 &&
	     c[0].report_total == 4 && c[0].report_count == 1 && c[1].name[0] == 'l' &&
	     c[1].count == 1 && c[1].cycles[0] == 49;
	tracker_results(t, &m);
	check(ok && m == 2 && HAS(t, "s", 1, 4),
	      "chunks: only the ends since the last chunk; starts carry over",
	      "wrong chunk results");
	tracker_free(t);
}

/* Quiet mode: what goes out is the output minus the request lines. */
static void test_quiet(void)
{
	struct tracker *t = tracker_new(true);
	char out[256] = "";
	const uint8_t *echo;
	size_t n;
	static const char *writes[] = {
		"hello\ncycle-tracker-start: a\nbye\n",
		"cycle-tr",
		"ack",
		"x\n",
		"cycle-tracker-start:\n",
		"cycle-tracker-end: a",
		"\r\n",
		"cycle-tracker-end: unfinished",
	};

	for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++) {
		tracker_write(t, TRACKER_STDOUT, (const uint8_t *)writes[i], strlen(writes[i]), i,
			      &echo, &n);
		strncat(out, (const char *)echo, n);
	}
	check(strcmp(out, "hello\nbye\ncycle-trackx\ncycle-tracker-start:\n") == 0,
	      "quiet: request lines are left out, everything else goes out in order", out);
	check(HAS(t, "a", 6), "quiet: requests are still serviced", "expected a: [6]");
	tracker_take_held(t, TRACKER_STDOUT, &echo, &n);
	check(n == 29 && memcmp(echo, "cycle-tracker-end: unfinished", n) == 0,
	      "quiet: an unfinished line is given back at the end", "wrong held bytes");
	tracker_free(t);
}

static void test_long_line(void)
{
	struct tracker *t = tracker_new(true);
	size_t len = TRACKER_MAX_LINE + 100, total = 0, n;
	char *line = malloc(len + 1);
	const uint8_t *echo;

	memset(line, 'n', len);
	memcpy(line, "cycle-tracker-start: ", 21);
	line[len - 1] = '\n';
	for (size_t at = 0; at < len; at += 1000) {
		size_t part = len - at < 1000 ? len - at : 1000;
		tracker_write(t, TRACKER_STDOUT, (const uint8_t *)line + at, part, 1, &echo, &n);
		total += n;
	}
	tracker_results(t, &n);
	check(n == 0 && total == len,
	      "a line longer than the limit is ordinary output, passed on whole",
	      "it was taken as a request or output was lost");
	free(line);
	tracker_free(t);
}

/* The same bytes split anywhere give the same requests and output. */
static void test_random_splits(void)
{
	static const char text[] = "a line\ncycle-tracker-start: one\ncycle-tracker-"
				   "report-start: two\npartial cycle-tracker-end: x\n"
				   "cycle-tracker-end: one\r\ncycle-tracker-report-end: two\n"
				   "cycle-tracker-end:no\nlast\n";
	static const char plain[] = "a line\npartial cycle-tracker-end: x\n"
				    "cycle-tracker-end:no\nlast\n";
	bool ok = true;

	srand(1);
	for (int round = 0; round < 2000 && ok; round++) {
		struct tracker *t = tracker_new(true);
		char out[sizeof(text)] = "";
		size_t at = 0, len = sizeof(text) - 1, n;
		const uint8_t *echo;
		const cy_tracker_entry *e;

		while (at < len) {
			size_t part = 1 + (size_t)rand() % 12;
			if (part > len - at)
				part = len - at;
			tracker_write(t, TRACKER_STDOUT, (const uint8_t *)text + at, part, 0, &echo,
				      &n);
			strncat(out, (const char *)echo, n);
			at += part;
		}
		e = tracker_results(t, &n);
		ok = strcmp(out, plain) == 0 && n == 2 && find(e, n, "one", 3) &&
		     find(e, n, "two", 3) && find(e, n, "two", 3)->report_count == 1;
		tracker_free(t);
	}
	check(ok, "2000 random splits of one stream: same requests, same output",
	      "a split changed the result");
}

/* Writes the lines "PREFIX NAME\n" in big writes, as a guest printing a lot
 * would; each line at its own clock (1, 2, ...), returned after the last. */
struct batch {
	char buf[65536];
	size_t len;
	uint64_t clock;
};

static void batch_line(struct tracker *t, struct batch *b, const char *line)
{
	size_t n = strlen(line);

	if (b->len + n > sizeof(b->buf)) {
		put_bytes(t, b->buf, b->len, b->clock);
		b->len = 0;
	}
	memcpy(b->buf + b->len, line, n);
	b->len += n;
	b->clock++;
}

static void batch_flush(struct tracker *t, struct batch *b)
{
	put_bytes(t, b->buf, b->len, b->clock);
	b->len = 0;
}

/* 65536 names fit; the 65537th and its end are dropped, said once. */
static void test_name_limit(void)
{
	struct tracker *t = tracker_new(false);
	static struct batch b;
	char line[64];
	uint64_t count = 0, cycle = 0;
	size_t n;

	b.len = 0;
	b.clock = 0;
	for (unsigned i = 0; i < 65536 + 2; i++) {
		snprintf(line, sizeof(line), "cycle-tracker-start: n%u\ncycle-tracker-end: n%u\n",
			 i, i);
		batch_line(t, &b, line);
	}
	batch_flush(t, &b);
	tracker_results(t, &n);
	check(n == 65536, "65536 names are tracked", "a different number of names");
	check(count_issues(t, CY_TRACKER_DROPPED, "n65536", &count, &cycle) == 1 && count == 4,
	      "the 2 requests of each of 2 names past the limit are dropped, said once",
	      "no single dropped issue with count 4 naming n65536");
	check(HAS(t, "n65535", 0) && ENDED_NONE(t, "n65536"),
	      "the last name in is measured, the first one out is not", "wrong results");
	tracker_free(t);
}

/* 1025 names each opened under each of 1025 others: 1025 top-level places
 * plus 1025 * 1025 nested ones, past the 2^20 places of the span tree. */
static void test_node_limit(void)
{
	struct tracker *t = tracker_new(false);
	static struct batch b;
	char line[128];
	size_t n, places = 1025 + 1025 * 1025, dropped = places - (1u << 20);

	b.len = 0;
	b.clock = 0;
	for (unsigned i = 0; i < 1025; i++) {
		snprintf(line, sizeof(line), "cycle-tracker-start: a%u\n", i);
		batch_line(t, &b, line);
		for (unsigned j = 0; j < 1025; j++) {
			snprintf(line, sizeof(line),
				 "cycle-tracker-start: b%u\ncycle-tracker-end: b%u\n", j, j);
			batch_line(t, &b, line);
		}
		snprintf(line, sizeof(line), "cycle-tracker-end: a%u\n", i);
		batch_line(t, &b, line);
	}
	batch_flush(t, &b);
	tracker_spans(t, &n);
	check(n == 1u << 20, "the span tree stops at 2^20 places", "a different node count");
	/* a dropped start's end is dropped with it */
	{
		const cy_tracker_issue *is = tracker_issues(t, &n);
		uint64_t got = 0;
		for (size_t i = 0; i < n; i++)
			if (is[i].kind == CY_TRACKER_DROPPED)
				got += is[i].count;
		check(got == 2 * dropped,
		      "every start that needed a place past the limit is dropped, with its end",
		      "the dropped count is not 2 * (1025 + 1025^2 - 2^20)");
	}
	tracker_free(t);
}

/* 2^24 results are listed; later ends count in the spans only. */
static void test_value_limit(void)
{
	struct tracker *t = tracker_new(false);
	static struct batch b;
	const uint64_t ends = (1u << 24) + 3;
	uint64_t count = 0, cycle = 0;
	size_t n;
	const cy_span *sp;
	const cy_tracker_entry *e;

	b.len = 0;
	b.clock = 0;
	/* the first end has no start and records 0; it leaves its clock as
	 * the start that the later ends measure from */
	for (uint64_t i = 0; i < ends; i++)
		batch_line(t, &b, "cycle-tracker-end: v\n");
	batch_flush(t, &b);
	e = tracker_results(t, &n);
	check(n == 1 && e[0].count == 1u << 24, "2^24 results are listed",
	      "the list is not 2^24 long");
	check(count_issues(t, CY_TRACKER_UNLISTED, "v", &count, &cycle) == 1 && count == 3,
	      "the 3 ends past it are said once", "no unlisted issue with count 3");
	sp = tracker_spans(t, &n);
	check(n == 1 && sp[0].count == ends - 1, "the span tree counts every matched end",
	      "the span's count is not 2^24 + 2");
	tracker_free(t);
}

int main(void)
{
	test_basic();
	test_split();
	test_several_lines();
	test_streams();
	test_prefix_exact();
	test_restart();
	test_unmatched();
	test_twice();
	test_tree();
	test_report();
	test_chunks();
	test_quiet();
	test_long_line();
	test_random_splits();
	test_name_limit();
	test_node_limit();
	test_value_limit();
	return failed ? 1 : 0;
}

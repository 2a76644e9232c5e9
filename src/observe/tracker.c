/* tracker.c - the cycle-tracking protocol of Pico and SP1: reads the lines
 * a guest writes to stdout and stderr, services "cycle-tracker-start: NAME"
 * and "cycle-tracker-end: NAME" at the clock of the write that completes
 * them, and keeps the elapsed cycles per name, per chunk and as a tree. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "observe/tracker.h"
#include "util/array.h"
#include "util/index_map.h"
#include "util/state_io.h"

/* The requests: _(kind, prefix). No prefix is a prefix of another. */
#define TRACKER_PREFIXES(_)                                                                        \
	_(START, "cycle-tracker-start: ")                                                          \
	_(END, "cycle-tracker-end: ")                                                              \
	_(REPORT_START, "cycle-tracker-report-start: ")                                            \
	_(REPORT_END, "cycle-tracker-report-end: ")

enum request {
	REQ_NONE,
#define REQ_ENUM(kind, text) REQ_##kind,
	TRACKER_PREFIXES(REQ_ENUM)
#undef REQ_ENUM
	    REQ_COUNT
};

static const struct {
	const char *text;
	size_t len;
} prefixes[REQ_COUNT] = {
#define REQ_PREFIX(kind, text) [REQ_##kind] = { text, sizeof(text) - 1 },
	TRACKER_PREFIXES(REQ_PREFIX)
#undef REQ_PREFIX
};

_Static_assert(sizeof("cycle-tracker-report-start: ") - 1 < TRACKER_MAX_LINE,
	       "a request line must have room for its prefix");

#define NO_NODE (-1)

/* Limits (docs/robustness.md): at most 65536 names holding 16 MiB, and 2^20
 * places in the span tree; past them a request is not serviced. At most
 * 2^24 elapsed values are listed (128 MiB); later ends still count in the
 * span tree and the report totals. */
#define MAX_NAMES      65536u
#define MAX_NAME_BYTES (16u << 20)
#define MAX_NODES      (1u << 20)
#define MAX_VALUES     (1u << 24)
#define E_LIMIT        (-ENOSPC) /* a limit was reached: drop the request */

/* The line being received on one stream. */
struct line {
	uint8_t *buf; /* the bytes so far, while they may be a request */
	size_t len, cap;
	enum request req;    /* the prefix buf starts with, once complete */
	unsigned candidates; /* while in a prefix: bit r, buf is a start of r's */
	bool skip;           /* not a request: pass bytes on up to the newline */
};

struct name {
	char *bytes; /* the request, NUL-terminated */
	size_t len;
	uint32_t hash;
	bool has_start;     /* the protocol's start clock exists */
	bool open;          /* started and not ended since: on the stack */
	bool in_chunk;      /* has ends in the current chunk (on touched) */
	uint64_t start;     /* the protocol's start clock */
	int32_t start_node; /* span node of the last start, NO_NODE if none */
	uint64_t *cycles;   /* every elapsed value, in order */
	size_t n_cycles, cap_cycles;
	uint64_t report_total, report_count;
	/* where the current chunk began in cycles and the report sums */
	size_t chunk_mark;
	uint64_t chunk_total_mark, chunk_count_mark;
	uint64_t unmatched, first_unmatched;
	uint64_t restarts, first_restart;
	uint64_t unlisted, first_unlisted; /* ends past MAX_VALUES */
	bool ended;                        /* on the ended list */
	bool drop_end;                     /* its last start was dropped */
};

/* A span tree node; children are linked in the order of their first start. */
struct node {
	uint32_t name;
	int32_t parent, first_child, last_child, next;
	unsigned depth;
	uint64_t count, total, min, max;
};

struct tracker {
	bool quiet;
	enum tracker_rules rules;
	struct line lines[TRACKER_STREAMS];
	uint8_t *echo; /* quiet mode: what a write passes on */
	size_t echo_len, echo_cap;

	struct name *names;
	size_t n_names, cap_names;
	uint32_t *table; /* open addressing on the name: id + 1, 0 if free */
	size_t table_size;

	uint32_t *ended; /* name ids in the order of their first end */
	size_t n_ended, cap_ended;
	uint32_t *touched; /* name ids with ends in the current chunk */
	size_t n_touched, cap_touched;
	uint32_t *stack; /* open names, innermost last */
	size_t n_stack, cap_stack;
	struct node *nodes; /* as many as node_map has keys: (parent + 1, name) */
	struct index_map node_map;
	int32_t roots_first, roots_last;

	/* the arrays handed out */
	cy_tracker_entry *results, *chunk;
	size_t cap_results, cap_chunk;
	cy_span *spans;
	size_t cap_spans;
	int32_t *span_index; /* node -> its index in spans */
	size_t cap_index;
	bool *visible; /* node -> whether it is shown */
	size_t cap_visible;
	cy_tracker_issue *issues;
	size_t cap_issues;

	size_t name_bytes, n_values; /* against MAX_NAME_BYTES, MAX_VALUES */
	/* each span as it happened (node: the internal one), for timelines */
	cy_span_instance *instances, *instances_out;
	size_t n_instances, cap_instances, cap_instances_out;
	/* requests dropped at a limit, and the first one's name */
	uint64_t dropped, first_dropped;
	char dropped_name[TRACKER_MAX_LINE + 1];
	size_t dropped_len;
};

struct tracker *tracker_new(bool quiet)
{
	struct tracker *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->quiet = quiet;
	t->roots_first = t->roots_last = NO_NODE;
	t->node_map.max = MAX_NODES;
	if (index_map_rehash(&t->node_map, 64) != 0) {
		free(t);
		return NULL;
	}
	return t;
}

void tracker_set_rules(struct tracker *t, enum tracker_rules rules) { t->rules = rules; }

void tracker_free(struct tracker *t)
{
	if (!t)
		return;
	for (int i = 0; i < TRACKER_STREAMS; i++)
		free(t->lines[i].buf);
	for (size_t i = 0; i < t->n_names; i++) {
		free(t->names[i].bytes);
		free(t->names[i].cycles);
	}
	free(t->echo);
	free(t->names);
	free(t->table);
	index_map_free(&t->node_map);
	free(t->ended);
	free(t->touched);
	free(t->stack);
	free(t->nodes);
	free(t->results);
	free(t->instances);
	free(t->instances_out);
	free(t->chunk);
	free(t->spans);
	free(t->span_index);
	free(t->visible);
	free(t->issues);
	free(t);
}

/* FNV-1a: names are short, and any byte may occur. */
static uint32_t hash_bytes(const uint8_t *p, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static int table_grow(struct tracker *t)
{
	size_t size = t->table_size ? t->table_size * 2 : 64;
	uint32_t *table;

	while (size < 2 * (t->n_names + 1))
		size *= 2;
	table = calloc(size, sizeof(*table));

	if (!table)
		return -ENOMEM;
	for (size_t id = 0; id < t->n_names; id++) {
		size_t i = t->names[id].hash & (size - 1);
		while (table[i])
			i = (i + 1) & (size - 1);
		table[i] = (uint32_t)id + 1;
	}
	free(t->table);
	t->table = table;
	t->table_size = size;
	return 0;
}

size_t tracker_heap_bytes(const struct tracker *t)
{
	size_t bytes = sizeof(*t) + t->echo_cap + t->cap_names * sizeof(*t->names) +
		       t->table_size * sizeof(*t->table) + t->cap_ended * sizeof(*t->ended) +
		       t->cap_touched * sizeof(*t->touched) + t->cap_stack * sizeof(*t->stack) +
		       t->node_map.cap * (sizeof(*t->nodes) + sizeof(*t->node_map.keys)) +
		       (t->node_map.slots ? ((size_t)t->node_map.mask + 1) * sizeof(uint32_t) : 0) +
		       t->cap_results * sizeof(*t->results) + t->cap_chunk * sizeof(*t->chunk) +
		       t->cap_spans * sizeof(*t->spans) + t->cap_index * sizeof(*t->span_index) +
		       t->cap_visible * sizeof(*t->visible) + t->cap_issues * sizeof(*t->issues) +
		       (t->cap_instances + t->cap_instances_out) * sizeof(*t->instances);

	for (int i = 0; i < TRACKER_STREAMS; i++)
		bytes += t->lines[i].cap;
	for (size_t id = 0; id < t->n_names; id++)
		bytes += t->names[id].len + 1 + t->names[id].cap_cycles * sizeof(uint64_t);
	return bytes;
}

/* The id of the name, added if new; -ENOMEM. */
static int64_t name_id(struct tracker *t, const uint8_t *p, size_t len)
{
	uint32_t h = hash_bytes(p, len);
	struct name *n;
	size_t i;

	if (t->table_size) {
		for (i = h & (t->table_size - 1); t->table[i]; i = (i + 1) & (t->table_size - 1)) {
			n = &t->names[t->table[i] - 1];
			if (n->hash == h && n->len == len && memcmp(n->bytes, p, len) == 0)
				return t->table[i] - 1;
		}
	}
	if (t->n_names == MAX_NAMES || t->name_bytes + len > MAX_NAME_BYTES)
		return E_LIMIT;
	if ((t->n_names + 1) * 2 > t->table_size && table_grow(t) != 0)
		return -ENOMEM;
	if (RESERVE(t->names, t->cap_names, t->n_names + 1) != 0)
		return -ENOMEM;
	n = &t->names[t->n_names];
	memset(n, 0, sizeof(*n));
	n->bytes = malloc(len + 1);
	if (!n->bytes)
		return -ENOMEM;
	memcpy(n->bytes, p, len);
	n->bytes[len] = '\0';
	n->len = len;
	t->name_bytes += len;
	n->hash = h;
	n->start_node = NO_NODE;
	for (i = h & (t->table_size - 1); t->table[i]; i = (i + 1) & (t->table_size - 1))
		;
	t->table[i] = (uint32_t)t->n_names + 1;
	return (int64_t)t->n_names++;
}

/* The child of parent (NO_NODE: the top level) for name, added if new. */
static int32_t child_node(struct tracker *t, int32_t parent, uint32_t name)
{
	bool added;
	int64_t i = index_map_get(&t->node_map, (uint32_t)(parent + 1), name, (void **)&t->nodes,
				  sizeof(*t->nodes), &added);
	int32_t c = (int32_t)i;
	struct node *n;

	if (i == INDEX_MAP_FULL)
		return E_LIMIT;
	if (i < 0)
		return -ENOMEM;
	if (!added)
		return c;
	n = &t->nodes[c];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->parent = parent;
	n->first_child = n->last_child = n->next = NO_NODE;
	n->depth = parent == NO_NODE ? 0 : t->nodes[parent].depth + 1;
	/* children are created after their parent: the tree walks rely on it */
	if (parent == NO_NODE) {
		if (t->roots_last != NO_NODE)
			t->nodes[t->roots_last].next = c;
		else
			t->roots_first = c;
		t->roots_last = c;
	} else {
		if (t->nodes[parent].last_child != NO_NODE)
			t->nodes[t->nodes[parent].last_child].next = c;
		else
			t->nodes[parent].first_child = c;
		t->nodes[parent].last_child = c;
	}
	return c;
}

/* The node of the innermost open span, NO_NODE if none is open. */
static int32_t top_node(const struct tracker *t)
{
	return t->n_stack ? t->names[t->stack[t->n_stack - 1]].start_node : NO_NODE;
}

static void stack_remove(struct tracker *t, uint32_t id)
{
	size_t i = t->n_stack;

	while (i > 0 && t->stack[i - 1] != id)
		i--;
	if (i == 0)
		return;
	memmove(&t->stack[i - 1], &t->stack[i], (t->n_stack - i) * sizeof(*t->stack));
	t->n_stack--;
	t->names[id].open = false;
}

/* start: the clock is stored for the name, over any earlier one. In the
 * tree the span opens under the innermost span open now. */
static int do_start(struct tracker *t, uint32_t id, uint64_t clock)
{
	struct name *n = &t->names[id];
	int32_t node;

	if (n->open) {
		if (n->restarts++ == 0)
			n->first_restart = clock;
		stack_remove(t, id);
	}
	if (RESERVE(t->stack, t->cap_stack, t->n_stack + 1) != 0)
		return -ENOMEM;
	node = child_node(t, top_node(t), id);
	if (node < 0)
		return node;
	n = &t->names[id];
	n->start = clock;
	n->has_start = true;
	n->open = true;
	n->start_node = node;
	t->stack[t->n_stack++] = id;
	return 0;
}

/* end: clock minus the stored start (inserting the clock if there is
 * none, so an unmatched end records 0 and leaves that start behind, as
 * the reference does), appended to the name's results. */
static int do_end(struct tracker *t, uint32_t id, uint64_t clock, bool report)
{
	struct name *n = &t->names[id];
	uint64_t elapsed;
	int32_t node;

	bool listed = t->n_values < MAX_VALUES;

	if (n->drop_end) {
		n->drop_end = false;
		return E_LIMIT;
	}
	if ((listed && RESERVE(n->cycles, n->cap_cycles, n->n_cycles + 1) != 0) ||
	    RESERVE(t->ended, t->cap_ended, t->n_ended + 1) != 0 ||
	    RESERVE(t->touched, t->cap_touched, t->n_touched + 1) != 0)
		return -ENOMEM;
	if (!n->has_start && t->rules != TRACKER_PICO) {
		/* SP1: an end with no start is reported and records nothing */
		if (n->unmatched++ == 0)
			n->first_unmatched = clock;
		return 0;
	}
	if (!n->has_start) {
		n->has_start = true;
		n->start = clock;
		if (n->unmatched++ == 0)
			n->first_unmatched = clock;
		elapsed = 0;
		node = NO_NODE; /* no span: a warning, not a node of the tree */
	} else {
		elapsed = clock - n->start;
		if (n->start_node == NO_NODE) {
			/* ended again after an unmatched end: the span began
			 * there, so it belongs where the end is now */
			node = child_node(t, top_node(t), id);
			if (node < 0)
				return node;
			n = &t->names[id];
			n->start_node = node;
		}
		node = n->start_node;
	}
	if (n->open)
		stack_remove(t, id);
	if (t->rules != TRACKER_PICO) /* SP1 takes the start away */
		n->has_start = false;
	if (node != NO_NODE && t->n_instances < CY_TRACKER_MAX_INSTANCES &&
	    RESERVE(t->instances, t->cap_instances, t->n_instances + 1) == 0)
		t->instances[t->n_instances++] =
		    (cy_span_instance){ .span = node, .start = clock - elapsed, .end = clock };
	if (node != NO_NODE) {
		struct node *s = &t->nodes[node];
		if (s->count == 0 || elapsed < s->min)
			s->min = elapsed;
		if (elapsed > s->max)
			s->max = elapsed;
		s->count++;
		s->total += elapsed;
	}
	if (!n->ended) {
		n->ended = true;
		t->ended[t->n_ended++] = id;
	}
	if (!n->in_chunk) {
		n->in_chunk = true;
		t->touched[t->n_touched++] = id;
	}
	if (listed) {
		n->cycles[n->n_cycles++] = elapsed;
		t->n_values++;
	} else if (n->unlisted++ == 0) {
		n->first_unlisted = clock;
	}
	if (report) {
		n->report_total += elapsed;
		n->report_count++;
	}
	return 0;
}

static int service(struct tracker *t, enum request req, const uint8_t *name, size_t len,
		   uint64_t clock)
{
	bool start = req == REQ_START || req == REQ_REPORT_START;
	int64_t id;
	int rc;

	if (len > 0 && name[len - 1] == '\r') /* a CRLF line end */
		len--;
	id = name_id(t, name, len);
	rc = (int)id;

	if (id >= 0)
		rc = start ? do_start(t, (uint32_t)id, clock)
			   : do_end(t, (uint32_t)id, clock, req == REQ_REPORT_END);
	if (rc != E_LIMIT)
		return rc;
	if (id >= 0 && start) /* its end goes too, not measured from an older start */
		t->names[id].drop_end = true;
	if (t->dropped++ == 0) {
		t->first_dropped = clock;
		memcpy(t->dropped_name, name, len);
		t->dropped_name[len] = '\0';
		t->dropped_len = len;
	}
	return 0;
}

static int echo_add(struct tracker *t, const void *p, size_t len)
{
	if (!t->quiet || len == 0)
		return 0;
	if (RESERVE(t->echo, t->echo_cap, t->echo_len + len) != 0)
		return -ENOMEM;
	memcpy(t->echo + t->echo_len, p, len);
	t->echo_len += len;
	return 0;
}

static int line_add(struct line *l, const uint8_t *p, size_t len)
{
	if (RESERVE(l->buf, l->cap, l->len + len) != 0)
		return -ENOMEM;
	memcpy(l->buf + l->len, p, len);
	l->len += len;
	return 0;
}

/* The line turned out not to be a request: what was held goes out. */
static int line_give_up(struct tracker *t, struct line *l)
{
	int rc = echo_add(t, l->buf, l->len);

	l->len = 0;
	l->req = REQ_NONE;
	l->skip = true;
	return rc;
}

/* What every request's prefix starts with. */
#define STEM     "cycle-tracker-"
#define STEM_LEN (sizeof(STEM) - 1)

/* Whether the line with c at position at can still become a request (of
 * the kinds in l->candidates, narrowed here); sets l->req once a whole
 * prefix is there. */
static bool prefix_goes_on(struct line *l, size_t at, uint8_t c)
{
	unsigned left = 0;

	if (at == 0)
		l->candidates = (1u << REQ_COUNT) - 2; /* every request kind */
	for (int r = REQ_NONE + 1; r < REQ_COUNT; r++)
		if ((l->candidates >> r & 1) && at < prefixes[r].len &&
		    (uint8_t)prefixes[r].text[at] == c) {
			left |= 1u << r;
			if (at + 1 == prefixes[r].len)
				l->req = (enum request)r;
		}
	l->candidates = left;
	return left != 0;
}

static int feed(struct tracker *t, struct line *l, const uint8_t *buf, size_t len, uint64_t clock)
{
	size_t i = 0;
	int rc;

	while (i < len) {
		const uint8_t *nl;
		size_t end;

		if (l->skip) { /* ordinary output: on to the next line */
			nl = memchr(buf + i, '\n', len - i);
			end = nl ? (size_t)(nl - buf) + 1 : len;
			if ((rc = echo_add(t, buf + i, end - i)) != 0)
				return rc;
			l->skip = !nl;
			i = end;
		} else if (buf[i] == '\n') { /* the line is complete */
			if (l->req != REQ_NONE) {
				size_t plen = prefixes[l->req].len;
				rc = service(t, l->req, l->buf + plen, l->len - plen, clock);
			} else { /* a newline inside a prefix */
				rc = echo_add(t, l->buf, l->len);
				if (rc == 0)
					rc = echo_add(t, "\n", 1);
			}
			if (rc != 0)
				return rc;
			l->len = 0;
			l->req = REQ_NONE;
			i++;
		} else if (l->req == REQ_NONE) { /* in the prefix: while it matches */
			size_t j = i;
			bool on = true;
			/* every request starts with the same stem: take it at once */
			if (l->len == 0 && len - i >= STEM_LEN &&
			    memcmp(buf + i, STEM, STEM_LEN) == 0) {
				l->candidates = (1u << REQ_COUNT) - 2;
				j += STEM_LEN;
			}
			while (j < len && buf[j] != '\n' && l->req == REQ_NONE &&
			       (on = prefix_goes_on(l, l->len + (j - i), buf[j])))
				j++;
			if (j > i && (rc = line_add(l, buf + i, j - i)) != 0)
				return rc;
			i = j;
			if (!on && (rc = line_give_up(t, l)) != 0)
				return rc; /* the byte that did not match goes out with the rest */
		} else {                   /* in the name: up to the newline */
			nl = memchr(buf + i, '\n', len - i);
			end = nl ? (size_t)(nl - buf) : len;
			if (l->len + (end - i) > TRACKER_MAX_LINE) {
				if ((rc = line_give_up(t, l)) != 0)
					return rc;
				continue;
			}
			if ((rc = line_add(l, buf + i, end - i)) != 0)
				return rc;
			i = end;
		}
	}
	return 0;
}

/* SP1's rules: one request, "PREFIX:NAME" with the prefix's colon and
 * NAME trimmed of white space at both ends (Rust's str::trim), or none. */
static bool is_space(uint8_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static int sp1_request(struct tracker *t, const uint8_t *p, size_t len, uint64_t clock, bool *was)
{
	*was = false;
	for (int r = REQ_NONE + 1; r < REQ_COUNT; r++) {
		size_t plen = prefixes[r].len - 1; /* without the space */
		if (len < plen || memcmp(p, prefixes[r].text, plen) != 0)
			continue;
		p += plen, len -= plen;
		while (len && is_space(*p))
			p++, len--;
		while (len && is_space(p[len - 1]))
			len--;
		*was = true;
		return len > TRACKER_MAX_LINE ? 0 : service(t, (enum request)r, p, len, clock);
	}
	return 0;
}

/* SP1 reads requests on stdout only, in each write on its own: v3-v5 the
 * whole write (its trailing newline trimmed with the name), v6 each of its
 * lines. A line split over two writes is no request. */
static int feed_sp1(struct tracker *t, enum tracker_stream stream, const uint8_t *buf, size_t len,
		    uint64_t clock)
{
	size_t i = 0;
	int rc = 0;
	bool was;

	if (stream != TRACKER_STDOUT)
		return echo_add(t, buf, len);
	if (t->rules == TRACKER_SP1_WRITE) {
		rc = sp1_request(t, buf, len, clock, &was);
		return rc == 0 && !was ? echo_add(t, buf, len) : rc;
	}
	while (i < len && rc == 0) {
		const uint8_t *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len, n = end - i;
		if (n && buf[end - 1] == '\r')
			n--;
		rc = sp1_request(t, buf + i, n, clock, &was);
		if (rc == 0 && !was)
			rc = echo_add(t, buf + i, end - i + (nl != NULL));
		i = end + 1;
	}
	return rc;
}

int tracker_write(struct tracker *t, enum tracker_stream stream, const uint8_t *buf, size_t len,
		  uint64_t clock, const uint8_t **echo, size_t *echo_len)
{
	int rc;

	t->echo_len = 0;
	if (t->rules != TRACKER_PICO)
		rc = feed_sp1(t, stream, buf, len, clock);
	else
		rc = feed(t, &t->lines[stream], buf, len, clock);
	*echo = t->quiet ? t->echo : buf;
	*echo_len = t->quiet ? t->echo_len : len;
	return rc;
}

void tracker_take_held(struct tracker *t, enum tracker_stream stream, const uint8_t **buf,
		       size_t *len)
{
	struct line *l = &t->lines[stream];

	*buf = l->buf;
	*len = t->quiet ? l->len : 0;
	l->len = 0;
	l->req = REQ_NONE;
	l->skip = false;
}

static cy_tracker_entry entry_of(const struct name *n, size_t from, uint64_t total_from,
				 uint64_t count_from)
{
	return (cy_tracker_entry){
		.name = n->bytes,
		.name_len = n->len,
		.cycles = n->cycles + from,
		.count = n->n_cycles - from,
		.report_total = n->report_total - total_from,
		.report_count = n->report_count - count_from,
	};
}

const cy_tracker_entry *tracker_results(struct tracker *t, size_t *n)
{
	*n = 0;
	if (RESERVE(t->results, t->cap_results, t->n_ended) != 0)
		return NULL;
	for (size_t i = 0; i < t->n_ended; i++)
		t->results[i] = entry_of(&t->names[t->ended[i]], 0, 0, 0);
	*n = t->n_ended;
	return t->results;
}

const cy_tracker_entry *tracker_chunk_results(struct tracker *t, size_t *n)
{
	*n = 0;
	if (RESERVE(t->chunk, t->cap_chunk, t->n_touched) != 0)
		return NULL;
	for (size_t i = 0; i < t->n_touched; i++) {
		struct name *nm = &t->names[t->touched[i]];
		t->chunk[i] =
		    entry_of(nm, nm->chunk_mark, nm->chunk_total_mark, nm->chunk_count_mark);
		nm->chunk_mark = nm->n_cycles;
		nm->chunk_total_mark = nm->report_total;
		nm->chunk_count_mark = nm->report_count;
		nm->in_chunk = false;
	}
	*n = t->n_touched;
	t->n_touched = 0;
	return t->chunk;
}

const cy_span *tracker_spans(struct tracker *t, size_t *n)
{
	size_t out = 0;
	int32_t c;

	*n = 0;
	if (t->node_map.n == 0 || RESERVE(t->spans, t->cap_spans, t->node_map.n) != 0)
		return NULL;
	if (RESERVE(t->span_index, t->cap_index, t->node_map.n) != 0 ||
	    RESERVE(t->visible, t->cap_visible, t->node_map.n) != 0)
		return NULL;
	memset(t->visible, 0, t->node_map.n * sizeof(*t->visible));
	/* a node shows if spans ended there, one is open there, or below it;
	 * children come after their parent, so one backward pass does it */
	for (size_t i = 0; i < t->n_stack; i++)
		t->visible[t->names[t->stack[i]].start_node] = true;
	for (size_t i = t->node_map.n; i-- > 0;) {
		if (t->nodes[i].count)
			t->visible[i] = true;
		if (t->visible[i] && t->nodes[i].parent != NO_NODE)
			t->visible[t->nodes[i].parent] = true;
	}
	/* pre-order, without recursion: the nesting is the guest's to choose */
	for (c = t->roots_first; c != NO_NODE;) {
		const struct node *nd = &t->nodes[c];
		if (t->visible[c]) {
			const struct name *nm = &t->names[nd->name];
			t->span_index[c] = (int32_t)out;
			t->spans[out++] = (cy_span){
				.name = nm->bytes,
				.name_len = nm->len,
				.parent = nd->parent == NO_NODE ? -1 : t->span_index[nd->parent],
				.depth = nd->depth,
				.count = nd->count,
				.total = nd->total,
				.min = nd->min,
				.max = nd->max,
				.open = nm->open && nm->start_node == c,
			};
			if (nd->first_child != NO_NODE) {
				c = nd->first_child;
				continue;
			}
		}
		while (c != NO_NODE && t->nodes[c].next == NO_NODE)
			c = t->nodes[c].parent;
		if (c != NO_NODE)
			c = t->nodes[c].next;
	}
	*n = out;
	return t->spans;
}

const cy_span_instance *tracker_instances(struct tracker *t, uint64_t now, size_t *n)
{
	size_t n_spans, out = 0;

	*n = 0;
	if (!tracker_spans(t, &n_spans) && t->node_map.n)
		return NULL;
	if (RESERVE(t->instances_out, t->cap_instances_out, t->n_instances + t->n_stack + 1) != 0)
		return NULL;
	/* the tree's nodes by their index in tracker_spans (span_index) */
	for (size_t i = 0; i < t->n_instances; i++) {
		cy_span_instance in = t->instances[i];
		in.span = t->span_index[in.span];
		t->instances_out[out++] = in;
	}
	for (size_t i = 0; i < t->n_stack; i++) {
		const struct name *nm = &t->names[t->stack[i]];
		if (nm->start_node != NO_NODE)
			t->instances_out[out++] =
			    (cy_span_instance){ .span = t->span_index[nm->start_node],
						.start = nm->start,
						.end = now,
						.open = true };
	}
	*n = out;
	return t->instances_out;
}

const cy_tracker_issue *tracker_issues(struct tracker *t, size_t *n)
{
	size_t out = 0;

	*n = 0;
	for (size_t id = 0; id < t->n_names; id++) {
		const struct name *nm = &t->names[id];
		size_t need = out + (nm->unmatched > 0) + (nm->restarts > 0) + (nm->unlisted > 0);
		if (RESERVE(t->issues, t->cap_issues, need) != 0)
			return NULL;
		if (nm->unmatched)
			t->issues[out++] =
			    (cy_tracker_issue){ CY_TRACKER_UNMATCHED_END, nm->bytes, nm->len,
						nm->unmatched, nm->first_unmatched };
		if (nm->restarts)
			t->issues[out++] =
			    (cy_tracker_issue){ CY_TRACKER_RESTARTED, nm->bytes, nm->len,
						nm->restarts, nm->first_restart };
		if (nm->unlisted)
			t->issues[out++] =
			    (cy_tracker_issue){ CY_TRACKER_UNLISTED, nm->bytes, nm->len,
						nm->unlisted, nm->first_unlisted };
	}
	if (RESERVE(t->issues, t->cap_issues, out + t->n_stack + 1) != 0)
		return NULL;
	if (t->dropped)
		t->issues[out++] =
		    (cy_tracker_issue){ CY_TRACKER_DROPPED, t->dropped_name, t->dropped_len,
					t->dropped, t->first_dropped };
	for (size_t i = 0; i < t->n_stack; i++) {
		const struct name *nm = &t->names[t->stack[i]];
		t->issues[out++] =
		    (cy_tracker_issue){ CY_TRACKER_NEVER_ENDED, nm->bytes, nm->len, 1, nm->start };
	}
	*n = out;
	return t->issues;
}

/* The tracker in a checkpoint: the lines being received, every name with
 * its results and chunk marks, the open spans and the span tree. The
 * lookup tables are rebuilt; what a restore reads is checked index by
 * index before the tracker uses it. */
static void line_io(struct sio *io, struct line *l)
{
	int req = l->req;

	sio_blob(io, (void **)&l->buf, &l->len, TRACKER_MAX_LINE + 1, "bytes of a line");
	if (io->load)
		l->cap = l->len + 1;
	sio_int(io, &req, REQ_NONE, REQ_COUNT - 1, "a line's request");
	l->req = (enum request)req;
	sio_unsigned(io, &l->candidates);
	sio_bool(io, &l->skip);
}

static void name_io(struct sio *io, struct name *n)
{
	sio_blob(io, (void **)&n->bytes, &n->len, TRACKER_MAX_LINE, "bytes of a name");
	sio_bool(io, &n->has_start);
	sio_bool(io, &n->open);
	sio_bool(io, &n->in_chunk);
	sio_u64(io, &n->start);
	sio_i32(io, &n->start_node);
	sio_count(io, &n->n_cycles, MAX_VALUES, 8, "results of a name");
	if (io->load && sio_alloc(io, (void **)&n->cycles, n->n_cycles, sizeof(*n->cycles)))
		n->cap_cycles = n->n_cycles + 1;
	if (n->n_cycles)
		sio_raw(io, n->cycles, n->n_cycles * sizeof(*n->cycles));
	sio_u64(io, &n->report_total);
	sio_u64(io, &n->report_count);
	sio_size(io, &n->chunk_mark);
	sio_u64(io, &n->chunk_total_mark);
	sio_u64(io, &n->chunk_count_mark);
	sio_u64(io, &n->unmatched);
	sio_u64(io, &n->first_unmatched);
	sio_u64(io, &n->restarts);
	sio_u64(io, &n->first_restart);
	sio_u64(io, &n->unlisted);
	sio_u64(io, &n->first_unlisted);
	sio_bool(io, &n->ended);
	sio_bool(io, &n->drop_end);
	if (io->load) {
		n->hash = hash_bytes((const uint8_t *)n->bytes, n->len);
		if (n->chunk_mark > n->n_cycles)
			sio_fail(io, "a name's chunk begins past its results");
	}
}

static void node_io(struct sio *io, struct node *nd)
{
	sio_u32(io, &nd->name);
	sio_i32(io, &nd->parent);
	sio_i32(io, &nd->first_child);
	sio_i32(io, &nd->last_child);
	sio_i32(io, &nd->next);
	sio_unsigned(io, &nd->depth);
	sio_u64(io, &nd->count);
	sio_u64(io, &nd->total);
	sio_u64(io, &nd->min);
	sio_u64(io, &nd->max);
}

/* A list of name ids (the ended, touched and open ones). */
static void ids_io(struct sio *io, uint32_t **ids, size_t *n, size_t *cap, const char *what)
{
	sio_count(io, n, MAX_NAMES, 4, what);
	if (io->load && sio_alloc(io, (void **)ids, *n, sizeof(**ids)))
		*cap = *n + 1;
	if (*n)
		sio_raw(io, *ids, *n * sizeof(**ids));
}

static bool node_ok(const struct tracker *t, int32_t i)
{
	return i == NO_NODE || (i >= 0 && (size_t)i < t->node_map.n);
}

/* Whether what a restore read holds together: every index in range, every
 * node after its parent (the tree walks rely on it). */
static void tracker_check(struct sio *io, struct tracker *t)
{
	for (size_t i = 0; i < t->n_ended; i++)
		if (t->ended[i] >= t->n_names)
			sio_fail(io, "an ended name is %u of %zu", t->ended[i], t->n_names);
	for (size_t i = 0; i < t->n_touched; i++)
		if (t->touched[i] >= t->n_names)
			sio_fail(io, "a name of the chunk is %u of %zu", t->touched[i], t->n_names);
	for (size_t i = 0; i < t->n_stack; i++)
		if (t->stack[i] >= t->n_names || t->names[t->stack[i]].start_node < 0)
			sio_fail(io, "an open span's name is %u of %zu", t->stack[i], t->n_names);
	for (size_t i = 0; i < t->n_names; i++)
		if (!node_ok(t, t->names[i].start_node))
			sio_fail(io, "a name's span is node %d", t->names[i].start_node);
	for (size_t i = 0; i < t->node_map.n; i++) {
		const struct node *nd = &t->nodes[i];
		if (nd->name >= t->n_names || !node_ok(t, nd->parent) || nd->parent >= (int32_t)i ||
		    !node_ok(t, nd->first_child) || !node_ok(t, nd->last_child) ||
		    !node_ok(t, nd->next) || (nd->next != NO_NODE && nd->next <= (int32_t)i) ||
		    (nd->first_child != NO_NODE && nd->first_child <= (int32_t)i))
			sio_fail(io, "span node %zu does not fit the tree", i);
	}
	/* the links must make a tree, or its walks would not end */
	for (size_t i = 0; i < t->node_map.n && sio_ok(io); i++) {
		struct node *nd = &t->nodes[i];
		if ((nd->first_child != NO_NODE &&
		     t->nodes[nd->first_child].parent != (int32_t)i) ||
		    (nd->last_child != NO_NODE && (t->nodes[nd->last_child].parent != (int32_t)i ||
						   t->nodes[nd->last_child].next != NO_NODE)) ||
		    (nd->next != NO_NODE && t->nodes[nd->next].parent != nd->parent) ||
		    ((nd->first_child == NO_NODE) != (nd->last_child == NO_NODE)))
			sio_fail(io, "span node %zu is linked to nodes of another parent", i);
		nd->depth = nd->parent == NO_NODE ? 0 : t->nodes[nd->parent].depth + 1;
	}
	if (!node_ok(t, t->roots_first) || !node_ok(t, t->roots_last) ||
	    (t->roots_first == NO_NODE) != (t->roots_last == NO_NODE) ||
	    (t->roots_first != NO_NODE && (t->nodes[t->roots_first].parent != NO_NODE ||
					   t->nodes[t->roots_last].parent != NO_NODE ||
					   t->nodes[t->roots_last].next != NO_NODE)))
		sio_fail(io, "the span tree's roots are not its top nodes");
}

int tracker_state_io(struct sio *io, struct tracker *t)
{
	bool quiet = t->quiet;

	sio_tag(io, "TRCK");
	sio_bool(io, &quiet);
	if (io->load && quiet != t->quiet)
		return sio_fail(io, "its cycle tracker was %squiet", quiet ? "" : "not "), io->err;
	for (int i = 0; i < TRACKER_STREAMS; i++)
		line_io(io, &t->lines[i]);
	if (io->load) {
		for (size_t i = 0; i < t->n_names; i++) {
			free(t->names[i].bytes);
			free(t->names[i].cycles);
		}
		t->n_names = 0;
	}
	size_t n_names = t->n_names;
	sio_count(io, &n_names, MAX_NAMES, 16, "names");
	if (io->load && sio_alloc(io, (void **)&t->names, n_names, sizeof(*t->names))) {
		t->cap_names = n_names + 1;
		t->n_names = n_names;
	}
	t->name_bytes = 0;
	for (size_t i = 0; i < t->n_names && sio_ok(io); i++) {
		name_io(io, &t->names[i]);
		t->name_bytes += t->names[i].len;
	}
	ids_io(io, &t->ended, &t->n_ended, &t->cap_ended, "ended names");
	ids_io(io, &t->touched, &t->n_touched, &t->cap_touched, "names of the chunk");
	ids_io(io, &t->stack, &t->n_stack, &t->cap_stack, "open spans");
	index_map_state_io(io, &t->node_map, (void **)&t->nodes, sizeof(*t->nodes));
	for (size_t i = 0; i < t->node_map.n && sio_ok(io); i++)
		node_io(io, &t->nodes[i]);
	/* the spans as they happened (the timeline's), by internal node */
	sio_count(io, &t->n_instances, CY_TRACKER_MAX_INSTANCES, 20, "span instances");
	if (io->load &&
	    sio_alloc(io, (void **)&t->instances, t->n_instances, sizeof(*t->instances)))
		t->cap_instances = t->n_instances + 1;
	for (size_t i = 0; i < t->n_instances && sio_ok(io); i++) {
		cy_span_instance *in = &t->instances[i];
		sio_i32(io, &in->span);
		sio_u64(io, &in->start);
		sio_u64(io, &in->end);
		if (io->load && (in->span < 0 || (size_t)in->span >= t->node_map.n))
			sio_fail(io, "span instance %zu is of node %d of %zu", i, in->span,
				 t->node_map.n);
	}
	if (io->load && !sio_ok(io))
		t->n_instances = 0;
	sio_i32(io, &t->roots_first);
	sio_i32(io, &t->roots_last);
	sio_size(io, &t->n_values);
	sio_u64(io, &t->dropped);
	sio_u64(io, &t->first_dropped);
	sio_size(io, &t->dropped_len);
	if (io->load && t->dropped_len > TRACKER_MAX_LINE)
		sio_fail(io, "the first dropped name is %zu bytes long", t->dropped_len);
	if (sio_ok(io))
		sio_raw(io, t->dropped_name, t->dropped_len);
	t->dropped_name[t->dropped_len] = '\0';
	if (io->load && sio_ok(io)) {
		tracker_check(io, t);
		free(t->table);
		t->table = NULL;
		t->table_size = 0;
		if (sio_ok(io) && table_grow(t) != 0)
			sio_fail(io, "out of host memory");
	}
	return io->err;
}

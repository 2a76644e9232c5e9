/* diff.h - two runs compared (diff.c): each side a cyclops profile or
 * report file, read into what it holds per function, source line, stack
 * and cycle-tracker span; the changes written as tables for people, as an
 * HTML page with a differential flame graph, and as a pprof profile of
 * the difference. cyclops diff's engine. */
#ifndef CY_DIFF_H
#define CY_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "export/pprof_read.h"

/* One table: costs by key (a function, "file:line", "a;b;c", a span's
 * path "parse/lex"), sorted by key once read. */
struct diff_entry {
	char *key;
	int64_t v;
};

struct diff_table {
	struct diff_entry *e;
	size_t n, cap;
	bool present; /* the file has this kind of information */
};

enum diff_what { DIFF_FUNCTIONS, DIFF_LINES, DIFF_STACKS, DIFF_SPANS, DIFF_TABLES };

struct diff_side {
	const char *path;
	const char *format; /* "pprof", "folded", ... */
	uint64_t total;
	bool has_total;
	struct diff_table t[DIFF_TABLES];
	struct pprof_data pprof; /* a pprof file's, for the difference profile */
	bool is_pprof;
};

/* Reads a file of any format cyclops writes that it can compare (pprof,
 * folded, callgrind, speedscope, the JSON report); 0, or -1 with "PATH:
 * reason" in err. */
int diff_read(struct diff_side *s, const char *path, char *err, size_t err_size);
void diff_side_free(struct diff_side *s);

/* The tables both sides have, each change ranked by its size, at most top
 * rows a table (0: all); colour for a terminal. */
void diff_write_text(FILE *f, const struct diff_side *base, const struct diff_side *new_,
		     size_t top, bool colour);
/* The same as a self-contained HTML page with a differential flame graph
 * (the stacks of both, each frame as wide as its larger side, red where it
 * grew, blue where it shrank); 0 or a negative errno. */
int diff_write_html(FILE *f, const struct diff_side *base, const struct diff_side *new_);
/* NEW's samples and BASE's negated (labelled pprof::base, as pprof's own
 * -diff_base does): go tool pprof -top shows the change. Both pprof. */
int diff_write_pprof(FILE *f, const struct diff_side *base, const struct diff_side *new_);

#endif

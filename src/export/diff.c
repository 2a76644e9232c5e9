/* diff.c - two runs compared (diff.h). Each file is read into tables of
 * costs by function, line, stack and span, whatever its format; the
 * changes are the differences of those tables, key by key. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/diff.h"
#include "export/pb_write.h"
#include "export/profile.h"
#include "util/file.h"
#include "util/json.h"
#include "util/text.h"

#define DIFF_MAX_BYTES ((size_t)256 << 20)

static const char *const table_names[DIFF_TABLES] = { "functions (self cycles)",
						      "source lines (self cycles)",
						      "stacks (self cycles)",
						      "cycle-tracker spans (total cycles)" };
static const char *const key_names[DIFF_TABLES] = { "function", "file:line", "stack", "span" };

/* Adds key (copied, len bytes) with v. */
static int table_add(struct diff_table *t, const char *key, size_t len, int64_t v)
{
	t->present = true;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct diff_entry *e = realloc(t->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		t->e = e;
		t->cap = cap;
	}
	char *k = malloc(len + 1);
	if (!k)
		return -ENOMEM;
	memcpy(k, key, len);
	k[len] = 0;
	t->e[t->n++] = (struct diff_entry){ k, v };
	return 0;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct diff_entry *)a)->key, ((const struct diff_entry *)b)->key);
}

/* Sorted by key, one entry a key. */
static void table_finish(struct diff_table *t)
{
	size_t k = 0;

	if (!t->n)
		return;
	qsort(t->e, t->n, sizeof(*t->e), by_key);
	for (size_t i = 0; i < t->n; i++) {
		if (k && strcmp(t->e[k - 1].key, t->e[i].key) == 0) {
			t->e[k - 1].v += t->e[i].v;
			free(t->e[i].key);
		} else {
			t->e[k++] = t->e[i];
		}
	}
	t->n = k;
}

/* A growing string, for stacks. */
struct sbuf {
	char *s;
	size_t len, cap;
};

static int sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *t = realloc(b->s, cap);
		if (!t)
			return -ENOMEM;
		b->s = t;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
	return 0;
}

/* pprof: a sample's cost goes to its innermost function (the first line of
 * its first location), its line (that line's file and number) and its
 * stack (every location's lines, the outermost first). */
static int read_pprof(struct diff_side *s, char *err, size_t err_size)
{
	struct pprof_data *d = &s->pprof;
	struct sbuf sb = { 0 };
	int type, rc = 0;
	char line[64];

	if (pprof_read(d, s->path, err, err_size) != 0)
		return -1;
	s->is_pprof = true;
	s->format = "pprof";
	type = pprof_type(d, "cycles");
	if (type < 0)
		type = 0;
	s->has_total = true;
	for (size_t i = 0; i < d->n_samples && rc == 0; i++) {
		const struct pprof_sample *sm = &d->samples[i];
		int64_t v = sm->values[type];
		bool first = true;
		s->total += (uint64_t)v;
		sb.len = 0;
		if (sb.s)
			sb.s[0] = 0;
		for (size_t k = sm->n_locations; k-- > 0 && rc == 0;) {
			const struct pprof_location *l = &d->locations[sm->locations[k]];
			for (size_t j = l->n_lines; j-- > 0 && rc == 0;) {
				const char *name = d->functions[l->lines[j].function].name;
				rc = sb_put(&sb, ";", first ? 0 : 1);
				rc = rc ? rc : sb_put(&sb, name, strlen(name));
				first = false;
			}
		}
		if (rc || first)
			continue;
		rc = table_add(&s->t[DIFF_STACKS], sb.s, sb.len, v);
		const struct pprof_location *leaf = &d->locations[sm->locations[0]];
		const struct pprof_function *fn =
		    leaf->n_lines ? &d->functions[leaf->lines[0].function] : NULL;
		if (fn && rc == 0)
			rc = table_add(&s->t[DIFF_FUNCTIONS], fn->name, strlen(fn->name), v);
		if (fn && *fn->file && rc == 0) {
			snprintf(line, sizeof(line), ":%lld", (long long)leaf->lines[0].line);
			sb.len = 0;
			rc = sb_put(&sb, fn->file, strlen(fn->file));
			rc = rc ? rc : sb_put(&sb, line, strlen(line));
			rc = rc ? rc : table_add(&s->t[DIFF_LINES], sb.s, sb.len, v);
		}
	}
	free(sb.s);
	if (rc)
		snprintf(err, err_size, "%s: out of memory", s->path);
	return rc ? -1 : 0;
}

/* Folded stacks: "a;b;c N" a line. */
static int read_folded(struct diff_side *s, char *text, char *err, size_t err_size)
{
	size_t n = 0;

	s->format = "folded";
	s->has_total = true;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		n++;
		if (!*line)
			continue;
		char *sp = strrchr(line, ' '), *end;
		long long v = sp ? strtoll(sp + 1, &end, 10) : 0;
		if (!sp || sp == line || !sp[1] || *end || v < 0) {
			snprintf(err, err_size, "%s: line %zu is not 'STACK COUNT' (folded stacks)",
				 s->path, n);
			return -1;
		}
		const char *leaf = sp;
		while (leaf > line && leaf[-1] != ';')
			leaf--;
		s->total += (uint64_t)v;
		if (table_add(&s->t[DIFF_STACKS], line, (size_t)(sp - line), v) != 0 ||
		    table_add(&s->t[DIFF_FUNCTIONS], leaf, (size_t)(sp - leaf), v) != 0) {
			snprintf(err, err_size, "%s: out of memory", s->path);
			return -1;
		}
	}
	return 0;
}

/* Callgrind: each cost line's first event under its fn= (self), and under
 * its file (fl=, fi=, fe=) and line; a call's inclusive line is not self.
 * Names compressed as "(N) name" are expanded. */
struct cg_names {
	char **name;
	size_t n;
};

static const char *cg_name(struct cg_names *t, char *v)
{
	if (v[0] != '(')
		return v;
	char *end;
	unsigned long id = strtoul(v + 1, &end, 10);
	if (*end != ')' || id > 1000000)
		return v;
	end++;
	while (*end == ' ')
		end++;
	if (id >= t->n) {
		char **n = realloc(t->name, (id + 1) * sizeof(*n));
		if (!n)
			return v;
		memset(n + t->n, 0, (id + 1 - t->n) * sizeof(*n));
		t->name = n;
		t->n = id + 1;
	}
	if (*end) {
		free(t->name[id]);
		t->name[id] = strdup(end);
	}
	return t->name[id] ? t->name[id] : v;
}

static int read_callgrind(struct diff_side *s, char *text, char *err, size_t err_size)
{
	struct cg_names fns = { 0 }, fls = { 0 };
	char fn[4096] = "", file[4096] = "", key[8300];
	bool call = false;
	int rc = 0;

	s->format = "callgrind";
	for (char *line = text, *next; line && *line && rc == 0; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (strncmp(line, "fn=", 3) == 0) {
			snprintf(fn, sizeof(fn), "%s", cg_name(&fns, line + 3));
		} else if (strncmp(line, "fl=", 3) == 0 || strncmp(line, "fi=", 3) == 0 ||
			   strncmp(line, "fe=", 3) == 0) {
			snprintf(file, sizeof(file), "%s", cg_name(&fls, line + 3));
		} else if (strncmp(line, "cfn=", 4) == 0 || strncmp(line, "cfl=", 4) == 0 ||
			   strncmp(line, "cfi=", 4) == 0) {
			cg_name(strncmp(line, "cfn=", 4) == 0 ? &fns : &fls, line + 4);
		} else if (strncmp(line, "calls=", 6) == 0) {
			call = true;
		} else if (strncmp(line, "totals:", 7) == 0 || strncmp(line, "summary:", 8) == 0) {
			s->total = strtoull(strchr(line, ':') + 1, NULL, 10);
			s->has_total = true;
		} else if ((line[0] >= '0' && line[0] <= '9') || line[0] == '+' || line[0] == '-' ||
			   line[0] == '*') {
			/* positions: instr line; then the events */
			char *p = line, *end;
			strtoull(p, &end, 0);
			long line_no = strtol(end, &end, 10);
			long long v = strtoll(end, &end, 10);
			if (call) {
				call = false;
				continue;
			}
			if (*fn)
				rc = table_add(&s->t[DIFF_FUNCTIONS], fn, strlen(fn), v);
			if (*file && strcmp(file, "???") != 0 && line_no > 0 && rc == 0) {
				int n = snprintf(key, sizeof(key), "%s:%ld", file, line_no);
				rc = table_add(&s->t[DIFF_LINES], key, (size_t)n, v);
			}
		}
	}
	for (size_t i = 0; i < fns.n; i++)
		free(fns.name[i]);
	for (size_t i = 0; i < fls.n; i++)
		free(fls.name[i]);
	free(fns.name);
	free(fls.name);
	if (rc)
		snprintf(err, err_size, "%s: out of memory", s->path);
	return rc ? -1 : 0;
}

/* speedscope: the first (the cycles) profile's samples, frames root first. */
static int read_speedscope(struct diff_side *s, const struct json *doc, char *err, size_t err_size)
{
	const struct json *frames = json_get(json_get(doc, "shared"), "frames");
	const struct json *profiles = json_get(doc, "profiles");
	const struct json *p =
	    profiles && profiles->type == JSON_ARRAY && profiles->n ? &profiles->items[0] : NULL;
	const struct json *samples = json_get(p, "samples"), *weights = json_get(p, "weights");
	struct sbuf sb = { 0 };
	int rc = 0;

	s->format = "speedscope";
	if (!frames || frames->type != JSON_ARRAY || !samples || !weights ||
	    samples->type != JSON_ARRAY || weights->type != JSON_ARRAY ||
	    samples->n != weights->n) {
		snprintf(err, err_size, "%s: not a speedscope profile cyclops wrote", s->path);
		return -1;
	}
	s->has_total = true;
	for (size_t i = 0; i < samples->n && rc == 0; i++) {
		const struct json *st = &samples->items[i];
		int64_t v = (int64_t)json_number(&weights->items[i], 0);
		const char *leaf = NULL;
		sb.len = 0;
		for (size_t k = 0; st->type == JSON_ARRAY && k < st->n && rc == 0; k++) {
			double x = json_number(&st->items[k], -1);
			const char *name =
			    x >= 0 && x < (double)frames->n
				? json_string(json_get(&frames->items[(size_t)x], "name"))
				: NULL;
			if (!name) {
				snprintf(err, err_size,
					 "%s: a sample names a frame it does not have", s->path);
				free(sb.s);
				return -1;
			}
			rc = sb_put(&sb, ";", k ? 1 : 0);
			rc = rc ? rc : sb_put(&sb, name, strlen(name));
			leaf = name;
		}
		s->total += (uint64_t)v;
		if (leaf && rc == 0)
			rc = table_add(&s->t[DIFF_STACKS], sb.s, sb.len, v);
		if (leaf && rc == 0)
			rc = table_add(&s->t[DIFF_FUNCTIONS], leaf, strlen(leaf), v);
	}
	free(sb.s);
	if (rc)
		snprintf(err, err_size, "%s: out of memory", s->path);
	return rc ? -1 : 0;
}

/* The JSON report: the run's cycles, and each span's total by its path
 * in the tree ("outer/inner"). */
static int read_report(struct diff_side *s, const struct json *doc, char *err, size_t err_size)
{
	const struct json *spans = json_get(doc, "spans");
	char **path = NULL;
	int rc = 0;

	s->format = "report";
	s->total = (uint64_t)json_number(json_get(doc, "cycles"), 0);
	s->has_total = true;
	s->t[DIFF_SPANS].present = true;
	if (!spans || spans->type != JSON_ARRAY)
		return 0; /* a report without the tracker: the total only */
	path = calloc(spans->n + 1, sizeof(*path));
	if (!path)
		goto out_nomem;
	for (size_t i = 0; i < spans->n && rc == 0; i++) {
		const struct json *sp = &spans->items[i];
		const char *name = json_string(json_get(sp, "name"));
		double parent = json_number(json_get(sp, "parent"), -1);
		if (!name || parent >= (double)i) {
			snprintf(err, err_size, "%s: span %zu is not one cyclops wrote", s->path,
				 i);
			rc = -1;
			break;
		}
		if (parent >= 0 && asprintf(&path[i], "%s/%s", path[(size_t)parent], name) < 0)
			path[i] = NULL;
		else if (parent < 0)
			path[i] = strdup(name);
		if (!path[i])
			goto out_nomem;
		rc = table_add(&s->t[DIFF_SPANS], path[i], strlen(path[i]),
			       (int64_t)json_number(json_get(sp, "total"), 0));
		if (rc)
			goto out_nomem;
	}
	goto out_free;
out_nomem:
	snprintf(err, err_size, "%s: out of memory", s->path);
	rc = -1;
out_free:
	for (size_t i = 0; path && i < spans->n; i++)
		free(path[i]);
	free(path);
	return rc;
}

int diff_read(struct diff_side *s, const char *path, char *err, size_t err_size)
{
	static const struct file_rules rules = { .max = DIFF_MAX_BYTES, .streams = true };
	char why[256], *text = NULL;
	size_t len = 0;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	s->path = path;
	if (file_read(path, &rules, (void **)&text, &len, why, sizeof(why)) != 0) {
		snprintf(err, err_size, "%s: %s", path, why);
		return -1;
	}
	text[len] = 0; /* file_read leaves a spare byte */
	if (len >= 2 && (uint8_t)text[0] == 0x1f && (uint8_t)text[1] == 0x8b) {
		free(text);
		rc = read_pprof(s, err, err_size);
		goto out_done;
	}
	size_t at = 0;
	while (at < len && (text[at] == ' ' || text[at] == '\n' || text[at] == '\t'))
		at++;
	if (strncmp(text, "# callgrind format", 18) == 0 || strncmp(text, "version:", 8) == 0 ||
	    strncmp(text, "events:", 7) == 0) {
		rc = read_callgrind(s, text, err, err_size);
	} else if (at < len && text[at] == '{') {
		struct json doc;
		if (json_parse(&doc, text, len, why, sizeof(why)) != 0) {
			snprintf(err, err_size, "%s: not JSON (%s)", path, why);
		} else if (json_get(&doc, "$schema") && json_get(&doc, "profiles")) {
			rc = read_speedscope(s, &doc, err, err_size);
		} else if (json_get(&doc, "cyclops") && json_get(&doc, "cycles")) {
			rc = read_report(s, &doc, err, err_size);
		} else if (json_get(&doc, "traceEvents")) {
			snprintf(
			    err, err_size,
			    "%s: a trace (a timeline) is not compared: give the runs' profiles "
			    "or reports",
			    path);
		} else {
			snprintf(err, err_size,
				 "%s: JSON, but neither a cyclops report nor a speedscope profile",
				 path);
		}
		json_free(&doc);
	} else if (memchr(text, 0, len) || (at < len && text[at] == '<')) {
		snprintf(err, err_size,
			 "%s: not a profile or report cyclops diff reads (pprof, folded, "
			 "callgrind, speedscope, report JSON)",
			 path);
	} else {
		rc = read_folded(s, text, err, err_size);
	}
	free(text);
out_done:
	for (int k = 0; k < DIFF_TABLES && rc == 0; k++)
		table_finish(&s->t[k]);
	if (rc != 0)
		diff_side_free(s);
	return rc;
}

void diff_side_free(struct diff_side *s)
{
	for (int k = 0; k < DIFF_TABLES; k++) {
		for (size_t i = 0; i < s->t[k].n; i++)
			free(s->t[k].e[i].key);
		free(s->t[k].e);
	}
	if (s->is_pprof)
		pprof_free(&s->pprof);
	memset(s->t, 0, sizeof(s->t));
	s->is_pprof = false;
}

/* A changed key: its costs on both sides. */
struct change {
	const char *key;
	int64_t base, new_;
};

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

static int by_change(const void *a, const void *b)
{
	const struct change *x = a, *y = b;
	int64_t dx = abs64(x->new_ - x->base), dy = abs64(y->new_ - y->base);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* The keys of two tables whose costs differ, by the size of the change;
 * *n of them (malloc'd). */
static struct change *changes(const struct diff_table *a, const struct diff_table *b, size_t *n)
{
	struct change *c = calloc(a->n + b->n + 1, sizeof(*c));
	size_t i = 0, j = 0, k = 0;

	*n = 0;
	if (!c)
		return NULL;
	while (i < a->n || j < b->n) {
		int cmp = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->e[i].key, b->e[j].key);
		struct change x = { cmp <= 0 ? a->e[i].key : b->e[j].key, cmp <= 0 ? a->e[i].v : 0,
				    cmp >= 0 ? b->e[j].v : 0 };
		i += cmp <= 0;
		j += cmp >= 0;
		if (x.base != x.new_)
			c[k++] = x;
	}
	qsort(c, k, sizeof(*c), by_change);
	*n = k;
	return c;
}

static void put_pct(FILE *f, int64_t base, int64_t new_)
{
	if (base)
		fprintf(f, " %+8.2f%%", 100.0 * (double)(new_ - base) / (double)base);
	else
		fprintf(f, " %9s", new_ ? "new" : "");
}

void diff_write_text(FILE *f, const struct diff_side *base, const struct diff_side *new_,
		     size_t top, bool colour)
{
	fputs("cyclops diff: ", f);
	text_put_printable(f, base->path, strlen(base->path));
	fprintf(f, " (%s) -> ", base->format);
	text_put_printable(f, new_->path, strlen(new_->path));
	fprintf(f, " (%s)\n", new_->format);
	if (base->has_total && new_->has_total) {
		fprintf(f, "total cycles: %llu -> %llu (%+lld", (unsigned long long)base->total,
			(unsigned long long)new_->total,
			(long long)new_->total - (long long)base->total);
		if (base->total)
			fprintf(f, ", %+.2f%%",
				100.0 * ((double)new_->total - (double)base->total) /
				    (double)base->total);
		fputs(")\n", f);
	}
	for (int t = 0; t < DIFF_TABLES; t++) {
		const struct diff_table *a = &base->t[t], *b = &new_->t[t];
		size_t n;
		if (!a->present || !b->present) {
			if (a->present != b->present)
				fprintf(f, "\n%s: only in %s\n", table_names[t],
					a->present ? "BASE" : "NEW");
			continue;
		}
		struct change *c = changes(a, b, &n);
		if (!c)
			continue;
		fprintf(f, "\n%s%s, by change: %zu changed%s\n", colour ? "\033[1m" : "",
			table_names[t], n, colour ? "\033[0m" : "");
		if (n)
			fprintf(f, "%14s %14s %14s %9s  %s\n", "base", "new", "change", "",
				key_names[t]);
		for (size_t i = 0; i < n && (!top || i < top); i++) {
			int64_t d = c[i].new_ - c[i].base;
			fprintf(f, "%s%14lld %14lld %+14lld",
				colour ? (d > 0 ? "\033[31m" : "\033[34m") : "",
				(long long)c[i].base, (long long)c[i].new_, (long long)d);
			put_pct(f, c[i].base, c[i].new_);
			fputs("  ", f);
			text_put_printable(f, c[i].key, strlen(c[i].key));
			fprintf(f, "%s\n", colour ? "\033[0m" : "");
		}
		if (top && n > top)
			fprintf(f, "%14s  (%zu more)\n", "...", n - top);
		free(c);
	}
}

/* The differential flame graph's tree: a node per (parent, frame). */
struct dnode {
	const char *name;
	size_t name_len;
	int parent;
	unsigned depth;
	int64_t base, new_; /* inclusive, once summed */
	uint64_t x;         /* where it starts, in units of the larger total */
};

struct dtree {
	struct dnode *n;
	size_t count, cap;
};

/* The child of parent named name[0..len), made if new (a linear look among
 * the last ones: stacks come sorted, so siblings are made together). */
static int dtree_child(struct dtree *t, int parent, const char *name, size_t len)
{
	for (size_t i = t->count; i-- > 0;) {
		if (t->n[i].parent == parent && t->n[i].name_len == len &&
		    memcmp(t->n[i].name, name, len) == 0)
			return (int)i;
		if (parent >= 0 && (int)i <= parent)
			break;
	}
	if (t->count == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		struct dnode *n = realloc(t->n, cap * sizeof(*n));
		if (!n)
			return -2;
		t->n = n;
		t->cap = cap;
	}
	t->n[t->count] =
	    (struct dnode){ name, len, parent, parent < 0 ? 0 : t->n[parent].depth + 1, 0, 0, 0 };
	return (int)t->count++;
}

static void xml_text(FILE *f, const char *s, size_t n) { text_put_xml(f, s, n); }

#define DIFF_WIDTH 1200
#define DIFF_ROW   17

int diff_write_html(FILE *f, const struct diff_side *base, const struct diff_side *new_)
{
	const struct diff_table *a = &base->t[DIFF_STACKS], *b = &new_->t[DIFF_STACKS];
	struct dtree t = { 0 };
	size_t n;
	unsigned max_depth = 0;
	uint64_t whole = 0, x = 0;
	int rc = -ENOMEM;

	/* every stack of either side, in key order (a parent before its
	 * children, siblings together): merged as changes() does, equal ones
	 * too */
	size_t i = 0, j = 0;
	while (i < a->n || j < b->n) {
		int cmp = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->e[i].key, b->e[j].key);
		const char *key = cmp <= 0 ? a->e[i].key : b->e[j].key;
		int64_t vb = cmp <= 0 ? a->e[i].v : 0, vn = cmp >= 0 ? b->e[j].v : 0;
		int node = -1;
		i += cmp <= 0;
		j += cmp >= 0;
		for (const char *s = key; *s;) {
			const char *e = strchr(s, ';');
			size_t len = e ? (size_t)(e - s) : strlen(s);
			node = dtree_child(&t, node, s, len);
			if (node == -2)
				goto out_free;
			s += len + (e != NULL);
		}
		if (node >= 0) {
			t.n[node].base += vb;
			t.n[node].new_ += vn;
		}
	}
	for (size_t k = t.count; k-- > 0;)
		if (t.n[k].parent >= 0) {
			t.n[t.n[k].parent].base += t.n[k].base;
			t.n[t.n[k].parent].new_ += t.n[k].new_;
		}
	/* a frame is as wide as its larger side; children from their
	 * parent's start, in the order they were made */
	uint64_t *next = calloc(t.count + 1, sizeof(*next));
	if (!next)
		goto out_free;
	for (size_t k = 0; k < t.count; k++) {
		struct dnode *d = &t.n[k];
		uint64_t w = (uint64_t)(d->base > d->new_ ? d->base : d->new_);
		if (d->parent < 0) {
			d->x = x;
			x += w;
		} else {
			d->x = t.n[d->parent].x + next[d->parent];
			next[d->parent] += w;
		}
		if (d->depth > max_depth)
			max_depth = d->depth;
	}
	free(next);
	whole = x ? x : 1;
	unsigned rows = max_depth + 2;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>cyclops "
	      "diff",
	      f);
	fputs("</title>\n<style>\nbody { font-family: sans-serif; margin: 1.5em; color: #222; }\n"
	      "g.f text { pointer-events: none; } g.f:hover rect { stroke: #000; } g.f { cursor: "
	      "pointer; }\n"
	      "table { border-collapse: collapse; } td, th { padding: 2px 8px; text-align: right; "
	      "border-bottom: 1px solid #ddd; } td.name { text-align: left; font-family: "
	      "monospace; }\n.grew { color: #b00; } .shrank { color: #03b; }\n"
	      "svg { max-width: 100%; height: auto; }\n</style>\n</head><body>\n<h1>cyclops "
	      "diff</h1>\n<p>",
	      f);
	xml_text(f, base->path, strlen(base->path));
	fputs(" &#8594; ", f);
	xml_text(f, new_->path, strlen(new_->path));
	fprintf(f, "</p>\n<p id=\"total\">total cycles: %llu &#8594; %llu (%+lld)</p>\n",
		(unsigned long long)base->total, (unsigned long long)new_->total,
		(long long)new_->total - (long long)base->total);
	fputs("<h2>Differential flame graph</h2>\n<p>Each frame as wide as the larger of its two "
	      "sides; <span class=\"grew\">red</span> where it grew, <span "
	      "class=\"shrank\">blue</span> where it shrank, grey where it stayed. Click to zoom, "
	      "click <i>all</i> to zoom out.</p>\n",
	      f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"flame\" width=\"%d\" height=\"%u\" "
		"viewBox=\"0 0 %d %u\" data-width=\"%d\" font-family=\"monospace\" "
		"font-size=\"11\">\n",
		DIFF_WIDTH, rows * DIFF_ROW, DIFF_WIDTH, rows * DIFF_ROW, DIFF_WIDTH);
	fprintf(f,
		"<g class=\"f\" data-x=\"0\" data-w=\"%llu\" data-name=\"all\"><title>all</title>"
		"<rect x=\"0\" y=\"%u\" width=\"%d\" height=\"%u\" fill=\"rgb(200,200,200)\"/>"
		"<text x=\"3\" y=\"%u\">all</text></g>\n",
		(unsigned long long)whole, (rows - 1) * DIFF_ROW, DIFF_WIDTH, DIFF_ROW - 1,
		rows * DIFF_ROW - 5);
	for (size_t k = 0; k < t.count; k++) {
		const struct dnode *d = &t.n[k];
		uint64_t w = (uint64_t)(d->base > d->new_ ? d->base : d->new_);
		double px = (double)d->x * DIFF_WIDTH / (double)whole;
		double pw = (double)w * DIFF_WIDTH / (double)whole;
		unsigned y = (rows - 2 - d->depth) * DIFF_ROW;
		int64_t delta = d->new_ - d->base;
		double ratio = w ? (double)delta / (double)w : 0;
		int shade = (int)(200 - 150 * (ratio < 0 ? -ratio : ratio));
		char colour[32];
		if (pw < 0.1)
			continue;
		if (!delta)
			snprintf(colour, sizeof(colour), "rgb(205,205,205)");
		else if (delta > 0)
			snprintf(colour, sizeof(colour), "rgb(255,%d,%d)", shade, shade);
		else
			snprintf(colour, sizeof(colour), "rgb(%d,%d,255)", shade, shade);
		fprintf(f,
			"<g class=\"f\" data-x=\"%llu\" data-w=\"%llu\" data-delta=\"%lld\" "
			"data-name=\"",
			(unsigned long long)d->x, (unsigned long long)w, (long long)delta);
		xml_text(f, d->name, d->name_len);
		fputs("\"><title>", f);
		xml_text(f, d->name, d->name_len);
		fprintf(f, ": %lld -> %lld (%+lld", (long long)d->base, (long long)d->new_,
			(long long)delta);
		if (d->base)
			fprintf(f, ", %+.2f%%", 100.0 * (double)delta / (double)d->base);
		fprintf(
		    f,
		    ")</title><rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"%s\"/>"
		    "<text x=\"%.2f\" y=\"%u\"></text></g>\n",
		    px, y, pw, DIFF_ROW - 1, colour, px + 3, y + DIFF_ROW - 5);
	}
	fputs("</svg>\n", f);
	/* the tables */
	for (int k = 0; k < DIFF_TABLES; k++) {
		const struct diff_table *ta = &base->t[k], *tb = &new_->t[k];
		if (!ta->present || !tb->present)
			continue;
		struct change *ch = changes(ta, tb, &n);
		if (!ch)
			goto out_free;
		fprintf(f,
			"<h2>%s, by change</h2>\n<table id=\"diff-%s\"><tr><th>base</th>"
			"<th>new</th><th>change</th><th>%%</th><th>%s</th></tr>\n",
			table_names[k],
			k == DIFF_FUNCTIONS ? "functions"
			: k == DIFF_LINES   ? "lines"
			: k == DIFF_STACKS  ? "stacks"
					    : "spans",
			key_names[k]);
		for (size_t r = 0; r < n && r < 200; r++) {
			int64_t d = ch[r].new_ - ch[r].base;
			fprintf(f, "<tr class=\"%s\"><td>%lld</td><td>%lld</td><td>%+lld</td><td>",
				d > 0 ? "grew" : "shrank", (long long)ch[r].base,
				(long long)ch[r].new_, (long long)d);
			if (ch[r].base)
				fprintf(f, "%+.2f%%", 100.0 * (double)d / (double)ch[r].base);
			fputs("</td><td class=\"name\">", f);
			xml_text(f, ch[r].key, strlen(ch[r].key));
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
		free(ch);
	}
	/* labels fitted to the frames by the flame graph's own script */
	fprintf(f,
		"<script>\n%s"
		"(function () { var svg = document.getElementById('flame'); cyFlameInit(svg);\n"
		"  cyFlameZoom(svg, svg.querySelector('g.f')); })();\n</script>\n",
		profile_flame_js);
	fputs("</body></html>\n", f);
	rc = 0;
out_free:
	free(t.n);
	return rc;
}

/* One pprof file's mappings, functions and locations into the output,
 * numbered from the given offsets; then its samples, negated for BASE. */
static void pprof_copy(struct pbuf *b, struct strings *st, const struct pprof_data *d,
		       uint64_t id_base, bool negate)
{
	struct pbuf m = { 0 }, sub = { 0 };

	for (size_t i = 0; i < d->n_mappings; i++) {
		const struct pprof_mapping *mp = &d->mappings[i];
		pb_uint(&m, MAPPING_ID, id_base + i + 1);
		pb_uint(&m, MAPPING_MEMORY_START, mp->start);
		pb_uint(&m, MAPPING_MEMORY_LIMIT, mp->limit);
		pb_uint(&m, MAPPING_FILE_OFFSET, mp->offset);
		pb_uint(&m, MAPPING_FILENAME, (uint64_t)str_add(st, mp->file));
		pb_uint(&m, MAPPING_BUILD_ID, (uint64_t)str_add(st, mp->build_id));
		pb_uint(&m, MAPPING_HAS_FUNCTIONS, 1);
		pb_uint(&m, MAPPING_HAS_FILENAMES, 1);
		pb_uint(&m, MAPPING_HAS_LINE_NUMBERS, 1);
		pb_uint(&m, MAPPING_HAS_INLINE_FRAMES, 1);
		pb_sub(b, PROFILE_MAPPING, &m);
	}
	for (size_t i = 0; i < d->n_functions; i++) {
		const struct pprof_function *fn = &d->functions[i];
		uint64_t name = (uint64_t)str_add(st, fn->name);
		pb_uint(&m, FUNCTION_ID, id_base + i + 1);
		pb_uint(&m, FUNCTION_NAME, name);
		pb_uint(&m, FUNCTION_SYSTEM_NAME, name);
		pb_uint(&m, FUNCTION_FILENAME, (uint64_t)str_add(st, fn->file));
		pb_uint(&m, FUNCTION_START_LINE, (uint64_t)fn->start_line);
		pb_sub(b, PROFILE_FUNCTION, &m);
	}
	for (size_t i = 0; i < d->n_locations; i++) {
		const struct pprof_location *l = &d->locations[i];
		/* the mapping by its index in the file */
		uint64_t mapping = 0;
		for (size_t k = 0; k < d->n_mappings; k++)
			if (d->mappings[k].id == l->mapping)
				mapping = id_base + k + 1;
		pb_uint(&m, LOCATION_ID, id_base + i + 1);
		if (mapping)
			pb_uint(&m, LOCATION_MAPPING_ID, mapping);
		pb_uint(&m, LOCATION_ADDRESS, l->address);
		for (size_t k = 0; k < l->n_lines; k++) {
			pb_uint(&sub, LINE_FUNCTION_ID, id_base + l->lines[k].function + 1);
			pb_uint(&sub, LINE_LINE, (uint64_t)l->lines[k].line);
			pb_sub(&m, LOCATION_LINE, &sub);
		}
		pb_sub(b, PROFILE_LOCATION, &m);
	}
	int cyc = pprof_type(d, "cycles"), ins = pprof_type(d, "instructions");
	int64_t s_key = str_add(st, "pprof::base"), s_true = str_add(st, "true");
	for (size_t i = 0; i < d->n_samples; i++) {
		const struct pprof_sample *s = &d->samples[i];
		for (size_t k = 0; k < s->n_locations; k++)
			pb_varint(&sub, id_base + s->locations[k] + 1);
		pb_sub(&m, SAMPLE_LOCATION_ID, &sub);
		int64_t v[2] = { cyc >= 0 ? s->values[cyc] : s->values[0],
				 ins >= 0 ? s->values[ins] : 0 };
		for (int k = 0; k < 2; k++)
			pb_varint(&sub, (uint64_t)(negate ? -v[k] : v[k]));
		pb_sub(&m, SAMPLE_VALUE, &sub);
		if (negate) {
			struct pbuf lab = { 0 };
			pb_uint(&lab, LABEL_KEY, (uint64_t)s_key);
			pb_uint(&lab, LABEL_STR, (uint64_t)s_true);
			pb_sub(&m, SAMPLE_LABEL, &lab);
			free(lab.data);
		}
		pb_sub(b, PROFILE_SAMPLE, &m);
	}
	b->failed |= m.failed || sub.failed;
	free(m.data);
	free(sub.data);
}

int diff_write_pprof(FILE *f, const struct diff_side *base, const struct diff_side *new_)
{
	struct pbuf b = { 0 }, m = { 0 };
	struct strings st = { .out = &b };
	int rc;

	if (!base->is_pprof || !new_->is_pprof)
		return -EINVAL;
	str_add(&st, "");
	int64_t s_cycles = str_add(&st, "cycles"), s_insns = str_add(&st, "instructions");
	int64_t s_count = str_add(&st, "count");
	value_type(&b, &m, PROFILE_SAMPLE_TYPE, s_cycles, s_count);
	value_type(&b, &m, PROFILE_SAMPLE_TYPE, s_insns, s_count);
	value_type(&b, &m, PROFILE_PERIOD_TYPE, s_cycles, s_count);
	pb_uint(&b, PROFILE_PERIOD, 1);
	pb_uint(&b, PROFILE_DEFAULT_SAMPLE_TYPE, (uint64_t)s_cycles);
	pb_uint(&b, PROFILE_COMMENT, (uint64_t)str_add(&st, "cyclops diff: NEW minus BASE"));
	pprof_copy(&b, &st, &new_->pprof, 0, false);
	/* BASE's ids after NEW's: 2^32 apart */
	pprof_copy(&b, &st, &base->pprof, (uint64_t)1 << 32, true);
	rc = b.failed || m.failed || st.failed ? -ENOMEM : gzip_out(f, &b);
	free(b.data);
	free(m.data);
	strings_free(&st);
	return rc;
}

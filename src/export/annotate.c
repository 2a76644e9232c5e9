/* annotate.c - costs per source line and per instruction, for people
 * (annotate.h): the function table, each hot function's source with its
 * lines' costs, and its disassembly (asm_text.c) with the source line
 * above each stretch of instructions. Names, paths and source text come
 * from the ELF and the disk: they are printed made safe for a terminal. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/annotate.h"
#include "export/asm_text.h"
#include "util/text.h"

#define SOURCE_CONTEXT 2  /* lines shown around a line that cost something */
#define COLD_RUN       6  /* never-run instructions in a row that are collapsed */
#define MAX_SOURCE     80 /* columns of source text shown */

/* ANSI colours, only when asked for */
#define C_BOLD "\033[1m"
#define C_HOT  "\033[1;31m"
#define C_WARM "\033[33m"
#define C_DIM  "\033[2m"
#define C_OFF  "\033[0m"

static const char *heat(const struct annot *a, uint64_t v)
{
	double s = text_percent(v, a->total);

	if (!a->colour)
		return "";
	return s >= 10 ? C_HOT : s >= 1 ? C_WARM : "";
}

static const char *off(const struct annot *a) { return a->colour ? C_OFF : ""; }

static void put_text(FILE *f, const char *s) { text_put_printable(f, s, strlen(s)); }

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

int annotate_prepare(struct annot *a)
{
	a->func_v = calloc(a->pg->n_funcs + 1, sizeof(*a->func_v));
	a->func_v2 = calloc(a->pg->n_funcs + 1, sizeof(*a->func_v2));
	if (!a->func_v || !a->func_v2)
		return -ENOMEM;
	if (!a->max_insns)
		a->max_insns = 400;
	for (size_t i = 0; i < a->n_pcs; i++) {
		int fn = program_func_at(a->pg, a->pcs[i].pc);
		if (fn < 0) {
			a->outside += a->pcs[i].v;
			a->outside2 += a->pcs[i].v2;
			continue;
		}
		a->func_v[fn] += a->pcs[i].v;
		a->func_v2[fn] += a->pcs[i].v2;
	}
	return 0;
}

void annotate_free(struct annot *a)
{
	free(a->func_v);
	free(a->func_v2);
	a->func_v = a->func_v2 = NULL;
}

size_t *annotate_hot(const struct annot *a, size_t *n)
{
	size_t *out = calloc(a->pg->n_funcs + 1, sizeof(*out)), k = 0;

	*n = 0;
	if (!out)
		return NULL;
	for (size_t i = 0; i < a->pg->n_funcs; i++)
		if (a->func_v[i])
			out[k++] = i;
	for (size_t i = 1; i < k; i++) { /* insertion sort: stable, by address */
		size_t v = out[i], j = i;
		while (j > 0 && a->func_v[out[j - 1]] < a->func_v[v]) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = v;
	}
	*n = k;
	return out;
}

void annotate_table(FILE *f, const struct annot *a, const size_t *hot, size_t n_hot,
		    double min_share, size_t max)
{
	uint64_t cumul = 0, rest = 0;
	size_t shown = 0;

	fprintf(f, "%s%12s %7s %7s", a->colour ? C_BOLD : "", a->unit, "share", "cumul");
	if (a->unit2)
		fprintf(f, " %12s", a->unit2);
	fprintf(f, "  function%s\n", off(a));
	for (size_t i = 0; i < n_hot; i++) {
		uint64_t v = a->func_v[hot[i]];
		if (shown == max || (shown && text_percent(v, a->total) < min_share)) {
			rest += v;
			continue;
		}
		cumul += v;
		fprintf(f, "%s%12llu %6.2f%% %6.2f%%", heat(a, v), (unsigned long long)v,
			text_percent(v, a->total), text_percent(cumul, a->total));
		if (a->unit2)
			fprintf(f, " %12llu", (unsigned long long)a->func_v2[hot[i]]);
		fputs("  ", f);
		put_text(f, a->pg->funcs[hot[i]].name);
		fprintf(f, "%s\n", off(a));
		shown++;
	}
	if (shown < n_hot)
		fprintf(f,
			"%12llu %6.2f%% %7s  (%zu more functions, each under %.2f%%: not shown)\n",
			(unsigned long long)rest, text_percent(rest, a->total), "", n_hot - shown,
			shown == max ? 100.0 : min_share);
	if (a->outside)
		fprintf(f, "%12llu %6.2f%% %7s  [no symbol]\n", (unsigned long long)a->outside,
			text_percent(a->outside, a->total), "");
}

/* A source file's lines, read once. */
struct source {
	const char *path;
	char *text;
	const char **lines; /* lines[i] is line i + 1 */
	size_t n;
};

static void source_load(struct source *s, const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 0;
	char buf[4096];

	memset(s, 0, sizeof(*s));
	s->path = path;
	if (!f)
		return;
	for (size_t k; (k = fread(buf, 1, sizeof(buf), f)) > 0 && len < ((size_t)16 << 20);) {
		if (len + k + 1 > cap) {
			cap = (len + k + 1) * 2;
			char *t = realloc(s->text, cap);
			if (!t)
				break;
			s->text = t;
		}
		memcpy(s->text + len, buf, k);
		len += k;
	}
	fclose(f);
	if (!s->text)
		return;
	s->text[len] = 0;
	for (size_t i = 0; i < len; i++)
		s->n += s->text[i] == '\n';
	s->lines = calloc(s->n + 2, sizeof(*s->lines));
	if (!s->lines)
		return;
	s->n = 0;
	for (char *p = s->text; *p;) {
		char *nl = strchr(p, '\n');
		s->lines[s->n++] = p;
		if (!nl)
			break;
		*nl = 0;
		p = nl + 1;
	}
}

static void source_free(struct source *s)
{
	free(s->text);
	free(s->lines);
}

/* Line n of s, tabs as spaces, cut to MAX_SOURCE columns, safe. */
static void put_source_line(FILE *f, const struct source *s, int n)
{
	char buf[MAX_SOURCE * 4 + 8];
	size_t k = 0, col = 0;

	if (n < 1 || (size_t)n > s->n || !s->lines)
		return;
	for (const char *p = s->lines[n - 1]; *p && col < MAX_SOURCE && k + 8 < sizeof(buf); p++) {
		if (*p == '\t') {
			do
				buf[k++] = ' ';
			while (++col % 8 && col < MAX_SOURCE);
		} else if (*p != '\r') {
			buf[k++] = *p;
			col++;
		}
	}
	text_put_printable(f, buf, k);
}

/* One line's costs. */
struct line_cost {
	const char *file;
	int line;
	uint64_t v, v2;
	const char *inlined; /* the function inlined there, NULL: fn's own */
};

static int by_file_line(const void *x, const void *y)
{
	const struct line_cost *a = x, *b = y;
	int c = strcmp(a->file, b->file);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

void annotate_source(FILE *f, const struct annot *a, size_t fn)
{
	const struct prog_func *func = &a->pg->funcs[fn];
	struct line_cost *lc = calloc(a->n_pcs + 2, sizeof(*lc));
	size_t n = 0, k = 0;
	const char *decl_file = NULL;
	int decl_line = 0;

	if (!lc || !a->src) {
		free(lc);
		return;
	}
	/* the declaration's line, so that the function's head shows */
	if (srcinfo_decl(a->src, func->start, &decl_file, &decl_line))
		lc[n++] = (struct line_cost){ decl_file, decl_line, 0, 0, NULL };
	for (size_t i = 0; i < a->n_pcs; i++) {
		const struct annot_pc *c = &a->pcs[i];
		const char *file;
		int line;
		if (c->pc < func->start || c->pc >= func->end ||
		    !srcinfo_line(a->src, c->pc, &file, &line))
			continue;
		uint32_t e = srcinfo_inline_at(a->src, c->pc);
		lc[n++] =
		    (struct line_cost){ file, line, c->v, c->v2,
					e == UINT32_MAX ? NULL : srcinfo_inline(a->src, e)->name };
	}
	qsort(lc, n, sizeof(*lc), by_file_line);
	for (size_t i = 0; i < n; i++) { /* one row per line */
		if (k && lc[k - 1].file == lc[i].file && lc[k - 1].line == lc[i].line) {
			lc[k - 1].v += lc[i].v;
			lc[k - 1].v2 += lc[i].v2;
			if (!lc[k - 1].inlined)
				lc[k - 1].inlined = lc[i].inlined;
		} else {
			lc[k++] = lc[i];
		}
	}
	for (size_t i = 0; i < k;) {
		struct source src;
		size_t j = i;
		int shown_to = 0;
		while (j < k && lc[j].file == lc[i].file)
			j++;
		source_load(&src, lc[i].file);
		fputs("  ", f);
		put_text(f, lc[i].file);
		fputs(src.lines ? "\n" : " (not found: the lines without their text)\n", f);
		fprintf(f, "%s  %10s %7s", a->colour ? C_DIM : "", a->unit, "share");
		if (a->unit2)
			fprintf(f, " %12s", a->unit2);
		fprintf(f, " %6s  source%s\n", "line", off(a));
		for (size_t r = i; r < j; r++) {
			int from = lc[r].line - SOURCE_CONTEXT, to = lc[r].line + SOURCE_CONTEXT;
			if (from <= shown_to)
				from = shown_to + 1;
			else if (shown_to && from > shown_to + 1)
				fprintf(f, "  %10s\n", "...");
			if (from < 1)
				from = 1;
			for (int line = from; line <= to; line++) {
				const struct line_cost *c = NULL;
				for (size_t q = r; q < j && lc[q].line <= line; q++)
					if (lc[q].line == line)
						c = &lc[q];
				if (src.lines && (size_t)line > src.n)
					break;
				if (!src.lines && !c)
					continue;
				if (c && (c->v || c->v2)) {
					fprintf(f, "%s  %10llu %6.2f%%", heat(a, c->v),
						(unsigned long long)c->v,
						text_percent(c->v, a->total));
					if (a->unit2)
						fprintf(f, " %12llu", (unsigned long long)c->v2);
				} else {
					fprintf(f, "  %10s %7s", ".", "");
					if (a->unit2)
						fprintf(f, " %12s", ".");
				}
				fprintf(f, " %6d  ", line);
				put_source_line(f, &src, line);
				if (c && c->inlined && (c->v || c->v2)) {
					fputs("  [", f);
					put_text(f, c->inlined);
					fputs(", inlined]", f);
				}
				fprintf(f, "%s\n", c && c->v ? off(a) : "");
				shown_to = line;
			}
		}
		source_free(&src);
		i = j;
	}
	free(lc);
}

/* Where a listing is: the source line shown last, and its file. */
struct listing {
	const char *file;
	int line;
	struct source src;
};

/* The instruction at pc (len bytes, its text) with its costs (none: it
 * never ran), after the source line it starts, if that changed. */
static void put_row(FILE *f, const struct annot *a, size_t fn, struct listing *l, uint32_t pc,
		    const char *text, uint64_t v, uint64_t v2, bool ran)
{
	const char *file = NULL;
	int line = 0;

	if (a->src && srcinfo_line(a->src, pc, &file, &line) &&
	    (file != l->file || line != l->line)) {
		if (file != l->file) {
			source_free(&l->src);
			source_load(&l->src, file);
		}
		fprintf(f, "%s%28s", a->colour ? C_DIM : "", "");
		if (a->unit2)
			fprintf(f, "%13s", "");
		put_text(f, base_name(file));
		fprintf(f, ":%d", line);
		if (l->src.lines) {
			fputs("  ", f);
			put_source_line(f, &l->src, line);
		}
		fprintf(f, "%s\n", off(a));
		l->file = file;
		l->line = line;
	}
	if (ran) {
		/* the share of the function, as annotated listings show it */
		fprintf(f, "%s  %6.2f%% %10llu", heat(a, v), text_percent(v, a->func_v[fn]),
			(unsigned long long)v);
		if (a->unit2)
			fprintf(f, " %12llu", (unsigned long long)v2);
	} else {
		fprintf(f, "  %7s %10s", "", "");
		if (a->unit2)
			fprintf(f, " %12s", "");
	}
	fprintf(f, "  %08x:  ", pc);
	put_text(f, text);
	fprintf(f, "%s\n", ran ? off(a) : "");
}

/* Instructions from..to that never ran: listed if few, else one line. */
static void put_cold(FILE *f, const struct annot *a, size_t fn, struct listing *l, uint32_t from,
		     uint32_t to, size_t n)
{
	if (n >= COLD_RUN) {
		fprintf(f, "%s  %17s", a->colour ? C_DIM : "", "");
		if (a->unit2)
			fprintf(f, " %12s", "");
		fprintf(f, "  %08x..%08x: %zu instructions that never ran%s\n", from, to, n,
			off(a));
		return;
	}
	for (uint32_t q = from; q < to;) {
		uint32_t b;
		char t[160];
		int len;
		if (!program_code_at(a->pg, q, &b))
			break;
		len = asm_text(a->pg, q, b, t, sizeof(t));
		put_row(f, a, fn, l, q, t, 0, 0, false);
		q += (uint32_t)(len ? len : (b & 3) == 3 ? 4 : 2);
	}
}

void annotate_disasm(FILE *f, const struct annot *a, size_t fn)
{
	const struct prog_func *func = &a->pg->funcs[fn];
	struct listing l = { .line = -1 };
	size_t k = 0, shown = 0, cold = 0;
	uint32_t pc = func->start, cold_from = 0;

	while (k < a->n_pcs && a->pcs[k].pc < func->start)
		k++;
	while (pc < func->end && shown < a->max_insns) {
		char text[160];
		uint32_t bits;
		uint64_t v = 0, v2 = 0;
		int len;
		if (!program_code_at(a->pg, pc, &bits))
			break;
		len = asm_text(a->pg, pc, bits, text, sizeof(text));
		if (len == 0)
			len = (bits & 3) == 3 ? 4 : 2;
		for (; k < a->n_pcs && a->pcs[k].pc < pc + (uint32_t)len; k++) {
			v += a->pcs[k].v;
			v2 += a->pcs[k].v2;
		}
		if (!v && !v2) { /* collapsed with its neighbours if there are many */
			if (!cold++)
				cold_from = pc;
			pc += (uint32_t)len;
			shown++;
			continue;
		}
		if (cold) {
			put_cold(f, a, fn, &l, cold_from, pc, cold);
			cold = 0;
		}
		put_row(f, a, fn, &l, pc, text, v, v2, true);
		pc += (uint32_t)len;
		shown++;
	}
	if (cold)
		put_cold(f, a, fn, &l, cold_from, pc, cold);
	if (pc < func->end && shown == a->max_insns)
		fprintf(f, "  ... (%u more bytes)\n", func->end - pc);
	source_free(&l.src);
}

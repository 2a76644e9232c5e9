/* cli_hist.c - "cyclops hist": the analysis of saved PC histograms. Sums the
 * files, checks they were taken from the given ELF, and maps the counts to
 * its functions and source lines, and annotates the hottest functions'
 * instructions with the code cyclops annotate uses (export/annotate.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cyclops_samples.h"
#include "export/annotate.h"
#include "util/text.h"

#define DEFAULT_TOP  10
#define ANNOTATE_MAX 3 /* hottest functions disassembled */

/* One pc with samples, with its line. */
struct hit {
	uint32_t pc;
	uint64_t samples;
	int func; /* index in the program's functions, -1: no symbol */
	const char *file;
	int line;
};

struct line_sum {
	const char *file;
	int line;
	uint64_t samples;
};

struct hist {
	struct program pg;
	struct srcinfo *src;
	cy_samples *samples;
	struct hit *hits;
	size_t n_hits;
	struct annot_pc *pcs;
	struct line_sum *lines;
	size_t n_lines;
	struct annot an;
};

static int add_hit(struct hist *h, size_t *cap, uint32_t pc, uint64_t samples)
{
	struct hit *hit;

	if (!samples)
		return 0;
	if (h->n_hits == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		hit = realloc(h->hits, *cap * sizeof(*hit));
		if (!hit)
			return -ENOMEM;
		h->hits = hit;
	}
	hit = &h->hits[h->n_hits++];
	hit->pc = pc;
	hit->samples = samples;
	hit->func = program_func_at(&h->pg, pc);
	hit->file = NULL;
	hit->line = 0;
	if (h->src)
		srcinfo_line(h->src, pc, &hit->file, &hit->line);
	return 0;
}

static int cmp_hit_pc(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int cmp_line_key(const void *a, const void *b)
{
	const struct line_sum *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int cmp_line_samples(const void *a, const void *b)
{
	const struct line_sum *x = a, *y = b;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return cmp_line_key(a, b);
}

static int attribute(struct hist *h)
{
	const cy_samples *s = h->samples;
	size_t cap = 0, n = 0;

	for (size_t i = 0; i < s->n_ranges; i++)
		for (uint32_t pc = s->ranges[i].start; pc < s->ranges[i].end; pc += 2)
			if (add_hit(h, &cap, pc,
				    s->ranges[i].counts[(pc - s->ranges[i].start) / 2]))
				return -ENOMEM;
	for (size_t i = 0; i < s->n_other; i++)
		if (add_hit(h, &cap, s->other_pc[i], s->other_count[i]))
			return -ENOMEM;
	if (h->n_hits) /* an empty histogram has no array to sort */
		qsort(h->hits, h->n_hits, sizeof(*h->hits), cmp_hit_pc);
	h->lines = calloc(h->n_hits + 1, sizeof(*h->lines));
	h->pcs = calloc(h->n_hits + 1, sizeof(*h->pcs));
	if (!h->lines || !h->pcs)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_hits; i++) {
		h->pcs[i] = (struct annot_pc){ h->hits[i].pc, h->hits[i].samples, 0 };
		if (h->hits[i].file)
			h->lines[n++] = (struct line_sum){ h->hits[i].file, h->hits[i].line,
							   h->hits[i].samples };
	}
	qsort(h->lines, n, sizeof(*h->lines), cmp_line_key);
	h->n_lines = 0;
	for (size_t i = 0; i < n; i++) {
		if (h->n_lines && cmp_line_key(&h->lines[h->n_lines - 1], &h->lines[i]) == 0)
			h->lines[h->n_lines - 1].samples += h->lines[i].samples;
		else
			h->lines[h->n_lines++] = h->lines[i];
	}
	if (h->n_lines)
		qsort(h->lines, h->n_lines, sizeof(*h->lines), cmp_line_samples);
	/* the functions' sums and the annotations: the shared code's */
	h->an = (struct annot){ .pg = &h->pg,
				.src = h->src,
				.unit = "samples",
				.total = s->total,
				.pcs = h->pcs,
				.n_pcs = h->n_hits };
	return annotate_prepare(&h->an);
}

/* Samples the sampler's full table put at CY_SAMPLES_OVERFLOW_PC. */
static uint64_t overflow(const struct hist *h)
{
	const cy_samples *s = h->samples;

	for (size_t i = 0; i < s->n_other; i++)
		if (s->other_pc[i] == CY_SAMPLES_OVERFLOW_PC)
			return s->other_count[i];
	return 0;
}

/* Samples at pcs no function contains (the overflow excluded). */
static uint64_t unattributed(const struct hist *h) { return h->an.outside - overflow(h); }

/* Names and file names come from the ELF: made safe for a terminal. */
static void put_text(FILE *f, const char *s) { text_put_printable(f, s, strlen(s)); }

static void print_text(FILE *f, const struct hist *h, int n_files, size_t top)
{
	const cy_samples *s = h->samples;
	uint64_t cumul = 0, none = unattributed(h);
	size_t n_hot, *order = annotate_hot(&h->an, &n_hot);
	char id[120];

	cy_elf_identity_format(&s->id, id, sizeof(id));
	fprintf(f,
		"%llu samples, one every %llu cycles of model %s (%llu cycles sampled, %d "
		"file%s)\n",
		(unsigned long long)s->total, (unsigned long long)s->interval, s->model,
		(unsigned long long)s->cycles, n_files, n_files == 1 ? "" : "s");
	fprintf(f, "program %s (%s)\n", h->pg.path, id);
	if (!s->total) {
		free(order);
		return;
	}
	fprintf(f, "\n%10s %7s %7s  %s\n", "samples", "share", "cumul", "function");
	for (size_t i = 0; i < n_hot && i < top; i++) {
		const struct prog_func *fn = &h->pg.funcs[order[i]];
		uint64_t v = h->an.func_v[order[i]];
		cumul += v;
		fprintf(f, "%10llu %6.1f%% %6.1f%%  ", (unsigned long long)v,
			text_percent(v, s->total), text_percent(cumul, s->total));
		put_text(f, fn->name);
		fputc('\n', f);
	}
	if (n_hot > top)
		fprintf(f, "%10s  (%zu more functions)\n", "...", n_hot - top);
	if (none)
		fprintf(f, "%10llu %6.1f%% %7s  [no symbol]\n", (unsigned long long)none,
			text_percent(none, s->total), "");
	if (overflow(h))
		fprintf(f, "%10llu %6.1f%% %7s  [table full: new pcs outside the code ranges]\n",
			(unsigned long long)overflow(h), text_percent(overflow(h), s->total), "");
	if (h->n_lines) {
		fprintf(f, "\n%10s %7s  %s\n", "samples", "share", "source line");
		for (size_t i = 0; i < h->n_lines && i < top; i++) {
			fprintf(f, "%10llu %6.1f%%  ", (unsigned long long)h->lines[i].samples,
				text_percent(h->lines[i].samples, s->total));
			put_text(f, h->lines[i].file);
			fprintf(f, ":%d\n", h->lines[i].line);
		}
		if (h->n_lines > top)
			fprintf(f, "%10s  (%zu more lines)\n", "...", h->n_lines - top);
	} else {
		fprintf(f, "\n(no DWARF line table in %s: build it with -g for per-line counts)\n",
			h->pg.path);
	}
	for (size_t i = 0; i < n_hot && i < top && i < ANNOTATE_MAX; i++) {
		const struct prog_func *fn = &h->pg.funcs[order[i]];
		fputc('\n', f);
		put_text(f, fn->name);
		fprintf(f, ": %llu samples (%.1f%%), 0x%08x..0x%08x\n",
			(unsigned long long)h->an.func_v[order[i]],
			text_percent(h->an.func_v[order[i]], s->total), fn->start, fn->end);
		annotate_disasm(f, &h->an, order[i]);
	}
	free(order);
}

/* A JSON string (the report's escaping: invalid UTF-8 becomes U+FFFD). */
static void json_str(FILE *f, const char *s) { text_json_string(f, s, strlen(s)); }

static void print_json(FILE *f, const struct hist *h, char **files, int n_files, size_t top)
{
	const cy_samples *s = h->samples;
	size_t n_hot, *order = annotate_hot(&h->an, &n_hot);
	char id[120];

	cy_elf_identity_format(&s->id, id, sizeof(id));
	fputs("{\n  \"elf\": ", f);
	json_str(f, h->pg.path);
	fputs(",\n  \"files\": [", f);
	for (int i = 0; i < n_files; i++) {
		fputs(i ? ", " : "", f);
		json_str(f, files[i]);
	}
	fputs("],\n  \"identity\": ", f);
	json_str(f, id);
	fputs(",\n  \"model\": ", f);
	json_str(f, s->model);
	fprintf(f, ",\n  \"interval\": %llu,\n  \"cycles\": %llu,\n  \"total\": %llu,\n",
		(unsigned long long)s->interval, (unsigned long long)s->cycles,
		(unsigned long long)s->total);
	fprintf(f, "  \"unattributed\": %llu,\n  \"overflow\": %llu,\n  \"functions\": [",
		(unsigned long long)unattributed(h), (unsigned long long)overflow(h));
	for (size_t i = 0; i < n_hot && i < top; i++) {
		const struct prog_func *fn = &h->pg.funcs[order[i]];
		uint64_t v = h->an.func_v[order[i]];
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, fn->name);
		fprintf(f, ", \"address\": %u, \"size\": %u, \"samples\": %llu, \"share\": %.4f}",
			fn->start, fn->end - fn->start, (unsigned long long)v,
			text_percent(v, s->total));
	}
	fputs("\n  ],\n  \"lines\": [", f);
	for (size_t i = 0; i < h->n_lines && i < top; i++) {
		fprintf(f, "%s\n    {\"file\": ", i ? "," : "");
		json_str(f, h->lines[i].file);
		fprintf(f, ", \"line\": %d, \"samples\": %llu, \"share\": %.4f}", h->lines[i].line,
			(unsigned long long)h->lines[i].samples,
			text_percent(h->lines[i].samples, s->total));
	}
	fputs("\n  ],\n  \"instructions\": [", f);
	for (size_t i = 0; i < h->n_hits; i++) {
		const struct hit *hit = &h->hits[i];
		fprintf(f,
			"%s\n    {\"address\": %u, \"samples\": %llu, \"function\": ", i ? "," : "",
			hit->pc, (unsigned long long)hit->samples);
		if (hit->func >= 0)
			json_str(f, h->pg.funcs[hit->func].name);
		else
			fputs("null", f);
		fputs(", \"file\": ", f);
		if (hit->file)
			json_str(f, hit->file);
		else
			fputs("null", f);
		fprintf(f, ", \"line\": %d}", hit->line);
	}
	fputs("\n  ]\n}\n", f);
	free(order);
}

static void hist_free(struct hist *h)
{
	annotate_free(&h->an);
	srcinfo_close(h->src);
	program_close(&h->pg);
	cy_samples_free(h->samples);
	free(h->hits);
	free(h->pcs);
	free(h->lines);
}

/* A histogram saved when the run stopped early covers only that much. */
static void warn_partial(const char *file, const cy_samples *s)
{
	const char *sig = s->signal ? sigabbrev_np(s->signal) : NULL;

	switch (s->partial) {
	case CY_SAMPLES_FAULT: cli_error("hist: %s: partial: the guest faulted", file); break;
	case CY_SAMPLES_CYCLE_LIMIT:
		cli_error("hist: %s: partial: the cycle limit was reached", file);
		break;
	case CY_SAMPLES_INTERRUPTED:
		if (sig)
			cli_error("hist: %s: partial: interrupted by SIG%s", file, sig);
		else
			cli_error("hist: %s: partial: interrupted", file);
		break;
	default: cli_error("hist: %s: partial (reason %u)", file, s->partial); break;
	}
}

int cli_load_samples(const char *cmd, const struct program *pg, char **files, int n_files,
		     cy_samples **out)
{
	char err[512], want[120], got[120];

	*out = NULL;
	for (int i = 0; i < n_files; i++) {
		cy_samples *s;
		if (cy_samples_read(&s, files[i], err, sizeof(err)) != 0) {
			cli_error("%s: %s", cmd, err);
			return -1;
		}
		if (s->partial != CY_SAMPLES_COMPLETE)
			warn_partial(files[i], s);
		if (!cy_elf_identity_equal(&s->id, &pg->id)) {
			cy_elf_identity_format(&s->id, got, sizeof(got));
			cy_elf_identity_format(&pg->id, want, sizeof(want));
			cli_error("%s: %s: taken from another program (%s), not %s (%s)", cmd,
				  files[i], got, pg->path, want);
			cy_samples_free(s);
			return -1;
		}
		if (!*out) {
			*out = s;
			continue;
		}
		if (cy_samples_add(*out, s, err, sizeof(err)) != 0) {
			cli_error("%s: %s: cannot be added to %s: %s", cmd, files[i], files[0],
				  err);
			cy_samples_free(s);
			return -1;
		}
		cy_samples_free(s);
	}
	return 0;
}

int cli_hist(int argc, char **argv)
{
	struct hist h = { 0 };
	struct src_paths paths = { 0 };
	uint64_t top = DEFAULT_TOP;
	const char *elf_path = NULL;
	char err[512];
	bool json = false;
	char **files = calloc((size_t)argc + 1, sizeof(*files));
	int n_files = 0, status = CY_EXIT_USAGE;

	if (!files) {
		cli_error("out of host memory");
		return CY_EXIT_INTERNAL;
	}
	for (int i = 1; i < argc; i++) {
		const char *v;
		int id;
		if (argv[i][0] != '-' || !argv[i][1]) {
			files[n_files++] = argv[i];
			continue;
		}
		id = cli_next_option(&cli_hist_command, argc, argv, &i, &v);
		if (id < 0)
			goto out_free;
		switch (id) {
		case HIST_HELP:
			cli_print_help(stdout, &cli_hist_command);
			status = 0;
			goto out_free;
		case HIST_JSON: json = true; break;
		case HIST_ELF:
			elf_path = v;
			if (!v || !*v) {
				cli_error("hist: --elf needs the program's ELF file");
				goto out_free;
			}
			break;
		case HIST_TOP:
			if (!v || cli_parse_count(v, &top) != 0 || top == 0) {
				cli_error("hist: --top needs a positive number, got '%s'",
					  v ? v : "");
				goto out_free;
			}
			break;
		case HIST_TRIM_PATH:
		case HIST_SOURCE_ROOT:
			if (!v || !*v) {
				cli_error("hist: --%s needs %s",
					  id == HIST_TRIM_PATH ? "trim-path" : "source-root",
					  id == HIST_TRIM_PATH ? "a path prefix" : "a directory");
				goto out_free;
			}
			*(id == HIST_TRIM_PATH ? &paths.trim : &paths.root) = v;
			break;
		}
	}
	if (n_files == 0 || !elf_path) {
		cli_error("hist: %s (see cyclops hist --help)",
			  n_files ? "--elf PROGRAM.elf is required" : "no histogram file given");
		goto out_free;
	}
	status = 1;
	if (program_open(&h.pg, elf_path, err, sizeof(err)) != 0) {
		cli_error("hist: %s", err);
		goto out_free;
	}
	if (cli_load_samples("hist", &h.pg, files, n_files, &h.samples) != 0)
		goto out_free;
	h.src = srcinfo_open(elf_path, &paths, true);
	if (attribute(&h) != 0) {
		cli_error("hist: %s: out of memory", elf_path);
		goto out_free;
	}
	if (json)
		print_json(stdout, &h, files, n_files, (size_t)top);
	else
		print_text(stdout, &h, n_files, (size_t)top);
	status = fflush(stdout) == 0 ? 0 : 1;
out_free:
	hist_free(&h);
	free(files);
	return status;
}

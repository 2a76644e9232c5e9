/* cli_hist.c - "cyclops hist": the analysis of saved PC histograms. Sums the
 * files, checks they were taken from the given ELF, and maps the counts to
 * its functions (symbol table), source lines (DWARF line tables, libdw) and
 * instructions (an annotated disassembly of the hottest functions). */
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cyclops_samples.h"
#include "util/file.h"

#define DEFAULT_TOP        10
#define ANNOTATE_MAX       3   /* hottest functions disassembled */
#define ANNOTATE_MAX_INSNS 400 /* instructions shown of one function */

struct func {
	const char *name; /* in the ELF's string table, or readable */
	char *readable;   /* the demangled name, owned */
	uint32_t start, end;
	uint32_t section_end; /* a function never runs past its section */
	uint64_t samples;
};

struct line_row {
	uint32_t addr;
	bool end_sequence;
	size_t order;
	const char *file;
	int line;
};

/* One pc with samples, with where it belongs. */
struct hit {
	uint32_t pc;
	uint64_t samples;
	int func; /* index in funcs, -1: no symbol */
	const char *file;
	int line;
};

struct line_sum {
	const char *file;
	int line;
	uint64_t samples;
};

struct hist {
	const char *elf_path;
	uint8_t *elf_data;
	size_t elf_size;
	Elf *elf;
	Dwarf *dwarf;
	cy_samples *samples;
	struct func *funcs;
	size_t n_funcs;
	struct line_row *rows;
	size_t n_rows;
	struct hit *hits;
	size_t n_hits;
	struct line_sum *lines;
	size_t n_lines;
};

static int cmp_func(const void *a, const void *b)
{
	const struct func *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Functions: STT_FUNC symbols, and the labels of hand-written assembly
 * (STT_NOTYPE in executable sections), without local .L labels and
 * mapping symbols; one per address. */
static int load_symbols(struct hist *h)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	while ((scn = elf_nextscn(h->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			GElf_Shdr target;
			Elf_Scn *ts;
			const char *name;
			int type;
			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			type = GELF_ST_TYPE(sym.st_info);
			name = elf_strptr(h->elf, sh.sh_link, sym.st_name);
			if ((type != STT_FUNC && type != STT_NOTYPE) || !name || !*name ||
			    name[0] == '$' || strncmp(name, ".L", 2) == 0 ||
			    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
				continue;
			ts = elf_getscn(h->elf, sym.st_shndx);
			if (!ts || !gelf_getshdr(ts, &target) || !(target.sh_flags & SHF_EXECINSTR))
				continue;
			if (h->n_funcs == cap) {
				struct func *f;
				cap = cap ? 2 * cap : 256;
				f = realloc(h->funcs, cap * sizeof(*f));
				if (!f)
					return -ENOMEM;
				h->funcs = f;
			}
			h->funcs[h->n_funcs++] =
			    (struct func){ name,
					   NULL,
					   (uint32_t)sym.st_value,
					   (uint32_t)(sym.st_value + sym.st_size),
					   (uint32_t)(target.sh_addr + target.sh_size),
					   0 };
		}
	}
	if (h->n_funcs)
		qsort(h->funcs, h->n_funcs, sizeof(*h->funcs), cmp_func);
	/* one per address (the first after sorting), none at the end of its
	 * section; a function without a size ends where the next one starts
	 * or its section ends */
	size_t n = 0;
	for (size_t i = 0; i < h->n_funcs; i++)
		if ((n == 0 || h->funcs[n - 1].start != h->funcs[i].start) &&
		    h->funcs[i].start < h->funcs[i].section_end)
			h->funcs[n++] = h->funcs[i];
	h->n_funcs = n;
	for (size_t i = 0; i < n; i++) {
		struct func *f = &h->funcs[i];
		uint32_t next = i + 1 < n ? h->funcs[i + 1].start : UINT32_MAX;
		if (f->end <= f->start || f->end > next)
			f->end = next < f->section_end ? next : f->section_end;
		if ((f->readable = cy_demangle(f->name)))
			f->name = f->readable;
	}
	return 0;
}

static int find_func(const struct hist *h, uint32_t pc)
{
	size_t lo = 0, hi = h->n_funcs;

	while (lo < hi) { /* the last function starting at or before pc */
		size_t mid = (lo + hi) / 2;
		if (h->funcs[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || pc >= h->funcs[lo - 1].end)
		return -1;
	return (int)(lo - 1);
}

static int cmp_row(const void *a, const void *b)
{
	const struct line_row *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->end_sequence != y->end_sequence) /* a sequence's end first */
		return x->end_sequence ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Every row of every compilation unit's line table, sorted by address. */
static int load_lines(struct hist *h)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;

	h->dwarf = dwarf_begin_elf(h->elf, DWARF_C_READ, NULL);
	if (!h->dwarf)
		return 0; /* no debug information: no line table */
	while (dwarf_nextcu(h->dwarf, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t n;
		if (dwarf_offdie(h->dwarf, off + hsize, &cu) &&
		    dwarf_getsrclines(&cu, &lines, &n) == 0) {
			for (size_t i = 0; i < n; i++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, i);
				Dwarf_Addr addr;
				bool end;
				int lineno;
				if (!l || dwarf_lineaddr(l, &addr) != 0 ||
				    dwarf_lineno(l, &lineno) != 0 || dwarf_lineendsequence(l, &end))
					continue;
				if (h->n_rows == cap) {
					struct line_row *r;
					cap = cap ? 2 * cap : 1024;
					r = realloc(h->rows, cap * sizeof(*r));
					if (!r)
						return -ENOMEM;
					h->rows = r;
				}
				h->rows[h->n_rows] =
				    (struct line_row){ (uint32_t)addr, end, h->n_rows,
						       dwarf_linesrc(l, NULL, NULL), lineno };
				h->n_rows++;
			}
		}
		off = next;
	}
	if (h->n_rows)
		qsort(h->rows, h->n_rows, sizeof(*h->rows), cmp_row);
	return 0;
}

static const struct line_row *find_line(const struct hist *h, uint32_t pc)
{
	size_t lo = 0, hi = h->n_rows;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (h->rows[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || h->rows[lo - 1].end_sequence || !h->rows[lo - 1].file)
		return NULL;
	return &h->rows[lo - 1];
}

static int add_hit(struct hist *h, size_t *cap, uint32_t pc, uint64_t samples)
{
	const struct line_row *row;
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
	hit->func = find_func(h, pc);
	row = find_line(h, pc);
	hit->file = row ? row->file : NULL;
	hit->line = row ? row->line : 0;
	if (hit->func >= 0)
		h->funcs[hit->func].samples += samples;
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
	if (!h->lines)
		return -ENOMEM;
	for (size_t i = 0; i < h->n_hits; i++)
		if (h->hits[i].file)
			h->lines[n++] = (struct line_sum){ h->hits[i].file, h->hits[i].line,
							   h->hits[i].samples };
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
	return 0;
}

/* Function indices by samples, hottest first; those with none left out. */
static size_t hot_funcs(const struct hist *h, size_t **out)
{
	size_t n = 0;

	*out = calloc(h->n_funcs + 1, sizeof(**out));
	if (!*out)
		return 0;
	for (size_t i = 0; i < h->n_funcs; i++)
		if (h->funcs[i].samples)
			(*out)[n++] = i;
	for (size_t i = 1; i < n; i++) { /* insertion sort: stable, by address */
		size_t v = (*out)[i], k = i;
		while (k > 0 && h->funcs[(*out)[k - 1]].samples < h->funcs[v].samples) {
			(*out)[k] = (*out)[k - 1];
			k--;
		}
		(*out)[k] = v;
	}
	return n;
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
static uint64_t unattributed(const struct hist *h)
{
	uint64_t n = 0;

	for (size_t i = 0; i < h->n_hits; i++)
		if (h->hits[i].func < 0)
			n += h->hits[i].samples;
	return n - overflow(h);
}

/* The instruction bits at pc from the ELF's loadable segments. */
static bool code_at(const struct hist *h, uint32_t pc, uint32_t *bits)
{
	size_t phnum = 0;

	if (elf_getphdrnum(h->elf, &phnum) != 0)
		return false;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		uint8_t b[4] = { 0 };
		if (!gelf_getphdr(h->elf, (int)i, &ph) || ph.p_type != PT_LOAD || pc < ph.p_vaddr ||
		    pc + 2 > ph.p_vaddr + ph.p_filesz)
			continue;
		size_t off = ph.p_offset + (pc - ph.p_vaddr);
		size_t n = pc + 4 <= ph.p_vaddr + ph.p_filesz ? 4 : 2;
		if (off + n > h->elf_size)
			return false;
		memcpy(b, h->elf_data + off, n);
		*bits = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			(uint32_t)b[3] << 24;
		return true;
	}
	return false;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Names and file names come from the ELF: made safe for a terminal. */
static void put_text(FILE *f, const char *s) { text_put_printable(f, s, strlen(s)); }

static void print_annotated(FILE *f, const struct hist *h, const struct func *fn)
{
	const char *last_file = NULL;
	int last_line = -1;
	size_t k = 0, shown = 0;
	uint32_t pc = fn->start;

	fputc('\n', f);
	put_text(f, fn->name);
	fprintf(f, ": %llu samples (%.1f%%), 0x%08x..0x%08x\n", (unsigned long long)fn->samples,
		pct(fn->samples, h->samples->total), fn->start, fn->end);
	while (k < h->n_hits && h->hits[k].pc < fn->start)
		k++;
	while (pc < fn->end && shown < ANNOTATE_MAX_INSNS) {
		char text[64];
		uint32_t bits;
		uint64_t n = 0;
		const struct line_row *row = find_line(h, pc);
		int len;
		if (!code_at(h, pc, &bits))
			break;
		len = cy_disasm(pc, bits, text, sizeof(text));
		if (len == 0) {
			snprintf(text, sizeof(text), ".2byte 0x%04x", bits & 0xffff);
			len = 2;
		}
		for (; k < h->n_hits && h->hits[k].pc < pc + (uint32_t)len; k++)
			n += h->hits[k].samples;
		if (row && (row->file != last_file || row->line != last_line)) {
			fputs("                          ", f);
			put_text(f, base_name(row->file));
			fprintf(f, ":%d\n", row->line);
			last_file = row->file;
			last_line = row->line;
		}
		if (n)
			fprintf(f, "  %6.2f%% %10llu  %08x:  %s\n", pct(n, fn->samples),
				(unsigned long long)n, pc, text);
		else
			fprintf(f, "  %7s %10s  %08x:  %s\n", "", "", pc, text);
		pc += (uint32_t)len;
		shown++;
	}
	if (pc < fn->end && shown == ANNOTATE_MAX_INSNS)
		fprintf(f, "  ... (%u more bytes)\n", fn->end - pc);
}

static void print_text(FILE *f, const struct hist *h, int n_files, size_t top)
{
	const cy_samples *s = h->samples;
	uint64_t cumul = 0, none = unattributed(h);
	size_t *order, n_hot = hot_funcs(h, &order);
	char id[120];

	cy_elf_identity_format(&s->id, id, sizeof(id));
	fprintf(f,
		"%llu samples, one every %llu cycles of model %s (%llu cycles sampled, %d "
		"file%s)\n",
		(unsigned long long)s->total, (unsigned long long)s->interval, s->model,
		(unsigned long long)s->cycles, n_files, n_files == 1 ? "" : "s");
	fprintf(f, "program %s (%s)\n", h->elf_path, id);
	if (!s->total) {
		free(order);
		return;
	}
	fprintf(f, "\n%10s %7s %7s  %s\n", "samples", "share", "cumul", "function");
	for (size_t i = 0; i < n_hot && i < top; i++) {
		const struct func *fn = &h->funcs[order[i]];
		cumul += fn->samples;
		fprintf(f, "%10llu %6.1f%% %6.1f%%  ", (unsigned long long)fn->samples,
			pct(fn->samples, s->total), pct(cumul, s->total));
		put_text(f, fn->name);
		fputc('\n', f);
	}
	if (n_hot > top)
		fprintf(f, "%10s  (%zu more functions)\n", "...", n_hot - top);
	if (none)
		fprintf(f, "%10llu %6.1f%% %7s  [no symbol]\n", (unsigned long long)none,
			pct(none, s->total), "");
	if (overflow(h))
		fprintf(f, "%10llu %6.1f%% %7s  [table full: new pcs outside the code ranges]\n",
			(unsigned long long)overflow(h), pct(overflow(h), s->total), "");
	if (h->n_lines) {
		fprintf(f, "\n%10s %7s  %s\n", "samples", "share", "source line");
		for (size_t i = 0; i < h->n_lines && i < top; i++) {
			fprintf(f, "%10llu %6.1f%%  ", (unsigned long long)h->lines[i].samples,
				pct(h->lines[i].samples, s->total));
			put_text(f, h->lines[i].file);
			fprintf(f, ":%d\n", h->lines[i].line);
		}
		if (h->n_lines > top)
			fprintf(f, "%10s  (%zu more lines)\n", "...", h->n_lines - top);
	} else {
		fprintf(f, "\n(no DWARF line table in %s: build it with -g for per-line counts)\n",
			h->elf_path);
	}
	for (size_t i = 0; i < n_hot && i < top && i < ANNOTATE_MAX; i++)
		print_annotated(f, h, &h->funcs[order[i]]);
	free(order);
}

/* A JSON string (the report's escaping: invalid UTF-8 becomes U+FFFD). */
static void json_str(FILE *f, const char *s) { text_json_string(f, s, strlen(s)); }

static void print_json(FILE *f, const struct hist *h, char **files, int n_files, size_t top)
{
	const cy_samples *s = h->samples;
	size_t *order, n_hot = hot_funcs(h, &order);
	char id[120];

	cy_elf_identity_format(&s->id, id, sizeof(id));
	fputs("{\n  \"elf\": ", f);
	json_str(f, h->elf_path);
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
		const struct func *fn = &h->funcs[order[i]];
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, fn->name);
		fprintf(f, ", \"address\": %u, \"size\": %u, \"samples\": %llu, \"share\": %.4f}",
			fn->start, fn->end - fn->start, (unsigned long long)fn->samples,
			pct(fn->samples, s->total));
	}
	fputs("\n  ],\n  \"lines\": [", f);
	for (size_t i = 0; i < h->n_lines && i < top; i++) {
		fprintf(f, "%s\n    {\"file\": ", i ? "," : "");
		json_str(f, h->lines[i].file);
		fprintf(f, ", \"line\": %d, \"samples\": %llu, \"share\": %.4f}", h->lines[i].line,
			(unsigned long long)h->lines[i].samples,
			pct(h->lines[i].samples, s->total));
	}
	fputs("\n  ],\n  \"instructions\": [", f);
	for (size_t i = 0; i < h->n_hits; i++) {
		const struct hit *hit = &h->hits[i];
		fprintf(f,
			"%s\n    {\"address\": %u, \"samples\": %llu, \"function\": ", i ? "," : "",
			hit->pc, (unsigned long long)hit->samples);
		if (hit->func >= 0)
			json_str(f, h->funcs[hit->func].name);
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
	if (h->dwarf)
		dwarf_end(h->dwarf);
	if (h->elf)
		elf_end(h->elf);
	cy_samples_free(h->samples);
	free(h->elf_data);
	for (size_t i = 0; i < h->n_funcs; i++)
		free(h->funcs[i].readable);
	free(h->funcs);
	free(h->rows);
	free(h->hits);
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

/* Reads and sums the files, refusing any taken from another program. */
static int load_samples(struct hist *h, char **files, int n_files)
{
	cy_elf_identity id;
	char err[512], want[120], got[120];

	if (cy_elf_identity_of(h->elf_data, h->elf_size, &id, err, sizeof(err)) != 0) {
		cli_error("hist: %s: %s", h->elf_path, err);
		return -1;
	}
	for (int i = 0; i < n_files; i++) {
		cy_samples *s;
		if (cy_samples_read(&s, files[i], err, sizeof(err)) != 0) {
			cli_error("hist: %s", err);
			return -1;
		}
		if (s->partial != CY_SAMPLES_COMPLETE)
			warn_partial(files[i], s);
		if (!cy_elf_identity_equal(&s->id, &id)) {
			cy_elf_identity_format(&s->id, got, sizeof(got));
			cy_elf_identity_format(&id, want, sizeof(want));
			cli_error("hist: %s: taken from another program (%s), not %s (%s)",
				  files[i], got, h->elf_path, want);
			cy_samples_free(s);
			return -1;
		}
		if (!h->samples) {
			h->samples = s;
			continue;
		}
		if (cy_samples_add(h->samples, s, err, sizeof(err)) != 0) {
			cli_error("hist: %s: cannot be added to %s: %s", files[i], files[0], err);
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
	uint64_t top = DEFAULT_TOP;
	char why[200];
	bool json = false;
	char **files = calloc((size_t)argc + 1, sizeof(*files));
	int n_files = 0, status = CY_EXIT_USAGE, rc;

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
			h.elf_path = v;
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
		}
	}
	if (n_files == 0 || !h.elf_path) {
		cli_error("hist: %s (see cyclops hist --help)",
			  n_files ? "--elf PROGRAM.elf is required" : "no histogram file given");
		goto out_free;
	}
	status = 1;
	rc = file_read(h.elf_path, &file_rules_elf, (void **)&h.elf_data, &h.elf_size, why,
		       sizeof(why));
	if (rc != 0) {
		cli_error("hist: %s: %s", h.elf_path, why);
		goto out_free;
	}
	if (load_samples(&h, files, n_files) != 0)
		goto out_free;
	elf_version(EV_CURRENT);
	h.elf = elf_memory((char *)h.elf_data, h.elf_size);
	if (!h.elf || load_symbols(&h) != 0 || load_lines(&h) != 0 || attribute(&h) != 0) {
		cli_error("hist: %s: %s", h.elf_path, h.elf ? "out of memory" : elf_errmsg(-1));
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

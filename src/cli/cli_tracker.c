/* cli_tracker.c - the cycle tracker's results for people: after the run, a
 * tree of the tracked spans (nested as they were open) with calls, total,
 * mean, min, max and share of the run, then what did not pair up. */
#include <string.h>

#include "cli/cli.h"
#include "util/text.h"

#define INDENT        2  /* columns per nesting level */
#define NAME_COLS_MIN 4  /* the name column's width: at least ... */
#define NAME_COLS_MAX 48 /* ... and at most (longer names push their line out) */
#define COLOUR_NAME   "\033[1m"
#define COLOUR_DIM    "\033[2m"
#define COLOUR_WARN   "\033[33m"
#define COLOUR_OFF    "\033[0m"

/* Names are guest bytes, shown made safe for a terminal: this wide. */
static size_t name_width(const char *name, size_t len)
{
	return text_put_printable(NULL, name, len);
}

static void print_tree(FILE *f, const cy_span *s, size_t n, uint64_t run, bool colour)
{
	size_t width = NAME_COLS_MIN;

	for (size_t i = 0; i < n; i++) {
		size_t w = INDENT * s[i].depth + name_width(s[i].name, s[i].name_len);
		if (s[i].count == 0)
			w += strlen(" (open)");
		if (w > width)
			width = w < NAME_COLS_MAX ? w : NAME_COLS_MAX;
	}
	fprintf(f, "%s%-*s %8s %12s %14s %12s %12s %7s%s\n", colour ? COLOUR_DIM : "", (int)width,
		"span", "calls", "total", "mean", "min", "max", "share", colour ? COLOUR_OFF : "");
	for (size_t i = 0; i < n; i++) {
		size_t w = INDENT * s[i].depth;
		fprintf(f, "%*s%s", (int)w, "", colour ? COLOUR_NAME : "");
		w += text_put_printable(f, s[i].name, s[i].name_len);
		fputs(colour ? COLOUR_OFF : "", f);
		if (s[i].count == 0) {
			/* opened here and never ended: only its children counted */
			fputs(" (open)", f);
			w += strlen(" (open)");
			fprintf(f, "%*s %8s %12s %14s %12s %12s %7s\n",
				(int)(width > w ? width - w : 0), "", "0", "-", "-", "-", "-", "-");
			continue;
		}
		fprintf(f, "%*s %8llu %12llu %14.1f %12llu %12llu %6.1f%%\n",
			(int)(width > w ? width - w : 0), "", (unsigned long long)s[i].count,
			(unsigned long long)s[i].total, (double)s[i].total / (double)s[i].count,
			(unsigned long long)s[i].min, (unsigned long long)s[i].max,
			text_percent(s[i].total, run));
	}
}

/* cycle-tracker-report-* results: a total and a count per name. */
static void print_report_totals(FILE *f, const cy_tracker_entry *e, size_t n, uint64_t run,
				bool colour)
{
	size_t width = strlen("report span"), shown = 0;

	for (size_t i = 0; i < n; i++)
		if (e[i].report_count) {
			size_t w = name_width(e[i].name, e[i].name_len);
			if (w > width)
				width = w < NAME_COLS_MAX ? w : NAME_COLS_MAX;
			shown++;
		}
	if (!shown)
		return;
	fprintf(f, "%s%-*s %8s %12s %7s%s\n", colour ? COLOUR_DIM : "", (int)width, "report span",
		"calls", "total", "share", colour ? COLOUR_OFF : "");
	for (size_t i = 0; i < n; i++) {
		size_t w;
		if (!e[i].report_count)
			continue;
		fputs(colour ? COLOUR_NAME : "", f);
		w = text_put_printable(f, e[i].name, e[i].name_len);
		fputs(colour ? COLOUR_OFF : "", f);
		fprintf(f, "%*s %8llu %12llu %6.1f%%\n", (int)(width > w ? width - w : 0), "",
			(unsigned long long)e[i].report_count,
			(unsigned long long)e[i].report_total,
			text_percent(e[i].report_total, run));
	}
}

/* "once, at cycle C" or "N times, first at cycle C" */
static void put_times(FILE *f, uint64_t count, uint64_t cycle)
{
	if (count == 1)
		fprintf(f, "once, at cycle %llu", (unsigned long long)cycle);
	else
		fprintf(f, "%llu times, first at cycle %llu", (unsigned long long)count,
			(unsigned long long)cycle);
}

static void print_issue(FILE *f, const cy_tracker_issue *is, bool colour, bool sp1)
{
	fprintf(f, "cyclops: %swarning:%s ", colour ? COLOUR_WARN : "", colour ? COLOUR_OFF : "");
	switch (is->kind) {
	case CY_TRACKER_UNMATCHED_END:
		fputs("cycle-tracker-end: ", f);
		text_put_printable(f, is->name, is->name_len);
		fputs(" with no start (", f);
		put_times(f, is->count, is->cycle);
		/* SP1's rules record nothing for it, Pico's a 0 (docs/api.md) */
		fputs(sp1 ? "): recorded nothing\n" : "): recorded 0\n", f);
		break;
	case CY_TRACKER_RESTARTED:
		fputs("cycle-tracker-start: ", f);
		text_put_printable(f, is->name, is->name_len);
		fputs(" again before it ended (", f);
		put_times(f, is->count, is->cycle);
		fputs("): the earlier start was dropped\n", f);
		break;
	case CY_TRACKER_NEVER_ENDED:
		fputs("cycle-tracker-start: ", f);
		text_put_printable(f, is->name, is->name_len);
		fprintf(f, " at cycle %llu never ended\n", (unsigned long long)is->cycle);
		break;
	case CY_TRACKER_UNLISTED:
		fputs("cycle-tracker-end: ", f);
		text_put_printable(f, is->name, is->name_len);
		fputs(" past the limit of 16777216 listed results (", f);
		put_times(f, is->count, is->cycle);
		fputs("): in the span totals, not in its list\n", f);
		break;
	case CY_TRACKER_DROPPED:
		fputs(
		    "cycle-tracker: requests past the limits of 65536 names and 1048576 places in "
		    "the span tree were not serviced (",
		    f);
		put_times(f, is->count, is->cycle);
		fputs(", first ", f);
		text_put_printable(f, is->name, is->name_len);
		fputs(")\n", f);
		break;
	}
}

void cli_print_tracker(FILE *f, cy_vm *vm, bool colour)
{
	uint64_t run = cy_vm_cycles(vm);
	size_t n_spans, n_entries, n_issues;
	const cy_span *spans = cy_vm_tracker_spans(vm, &n_spans);
	const cy_tracker_entry *entries = cy_vm_cycle_tracker(vm, &n_entries);
	const cy_tracker_issue *issues = cy_vm_tracker_issues(vm, &n_issues);

	if (n_spans == 0 && n_issues == 0) {
		fprintf(f, "cyclops: cycle tracker: no spans\n");
		return;
	}
	fprintf(f, "cyclops: cycle tracker: spans nested as they were open, share of %llu cycles\n",
		(unsigned long long)run);
	if (n_spans)
		print_tree(f, spans, n_spans, run, colour);
	print_report_totals(f, entries, n_entries, run, colour);
	for (size_t i = 0; i < n_issues; i++)
		print_issue(f, &issues[i], colour, cy_vm_abi(vm) == CY_ABI_SP1);
}

/* cli_timers.c - the channel timers' results for people: after the run, the
 * tree of timers (cycles, instructions, share of the parent) and under each
 * timer the steps whose cost reached the threshold, with what explains
 * them: the jump that led there, the writes, the pages paged in (and why),
 * the pages made dirty and the start of a segment. */
#include <string.h>

#include "cli/cli.h"
#include "util/text.h"

#define INDENT        2  /* columns per nesting level */
#define NAME_COLS_MIN 5  /* the label column's width: at least ... */
#define NAME_COLS_MAX 48 /* ... and at most */
#define LIST_HEAD     4  /* a long address list shows this many, "...", the last */
#define STEPS_SHOWN   8  /* steps shown per timer (the report has them all) */
#define COLOUR_NAME   "\033[1m"
#define COLOUR_DIM    "\033[2m"
#define COLOUR_WARN   "\033[33m"
#define COLOUR_HOT    "\033[31m"
#define COLOUR_OFF    "\033[0m"

static const char *reason_name(uint8_t reason)
{
	switch (reason) {
	case CY_PAGE_FETCH: return "fetch";
	case CY_PAGE_LOAD: return "load";
	case CY_PAGE_STORE: return "store";
	}
	return "?";
}

/* "0x00010000 (fetch), ..."; known: how many addresses the arrays hold. */
static void put_addrs(FILE *f, const uint64_t *addr, const uint8_t *reason, uint32_t n,
		      uint32_t known)
{
	for (uint32_t i = 0; i < n && i < known; i++) {
		if (n > LIST_HEAD + 1 && i == LIST_HEAD) {
			fputs(", ...", f);
			i = n - 1; /* the last, if known */
			if (i >= known)
				break;
		}
		fprintf(f, "%s0x%08llx", i ? ", " : "", (unsigned long long)addr[i]);
		if (reason)
			fprintf(f, " (%s)", reason_name(reason[i]));
	}
	if (n > known)
		fprintf(f, " (%u in all)", n);
}

/* The pages of a cost's parts (32-bit: paging models run RV32 guests). */
static void put_pages(FILE *f, const uint32_t *page, const uint8_t *reason, uint32_t n,
		      uint32_t known)
{
	uint64_t addr[CY_MAX_PAGES];

	for (uint32_t i = 0; i < n && i < CY_MAX_PAGES; i++)
		addr[i] = page[i];
	put_addrs(f, addr, reason, n, known < CY_MAX_PAGES ? known : CY_MAX_PAGES);
}

static void put_where(FILE *f, cy_vm *vm, uint32_t pc)
{
	char sym[128];

	fprintf(f, "0x%08x", pc);
	if (cy_vm_symbolize(vm, pc, sym, sizeof(sym)) == 0) {
		fputs(" <", f); /* the ELF's name, made safe for a terminal */
		text_put_printable(f, sym, strlen(sym));
		fputc('>', f);
	}
}

static void print_step(FILE *f, cy_vm *vm, const cy_timer_step *s, unsigned depth, bool colour)
{
	const cy_cost_parts *p = &s->parts;
	int pad = (int)(INDENT * (depth + 1));
	char text[96];

	if (cy_disasm(s->pc, s->bits, text, sizeof(text)) == 0)
		snprintf(text, sizeof(text), "(0x%08x)", s->bits);
	fprintf(f, "%*s%s! %llu cycles%s at %llu..%llu: ", pad, "",
		colour ? (p->segment_start ? COLOUR_WARN : COLOUR_HOT) : "",
		(unsigned long long)(s->cycle_after - s->cycle_before), colour ? COLOUR_OFF : "",
		(unsigned long long)s->cycle_before, (unsigned long long)s->cycle_after);
	put_where(f, vm, s->pc);
	fprintf(f, ": %s\n", text);
	pad += 4;
	if (s->has_jump) {
		fprintf(f, "%*sreached by the jump at ", pad, "");
		put_where(f, vm, s->jump_from);
		fputs(" to ", f);
		put_where(f, vm, s->jump_to);
		fputc('\n', f);
	}
	if (s->n_writes) {
		fprintf(f, "%*swrote ", pad, "");
		put_addrs(f, s->write_addr, NULL, s->n_writes, CY_TIMER_MAX_WRITES);
		fputc('\n', f);
	}
	if (p->segment_start)
		fprintf(f, "%*s%sfirst instruction of a new segment%s: %u cycles\n", pad, "",
			colour ? COLOUR_WARN : "", colour ? COLOUR_OFF : "", p->segment);
	if (p->n_page_in) {
		fprintf(f, "%*spaged in %u page%s, %u cycles: ", pad, "", p->n_page_in,
			p->n_page_in == 1 ? "" : "s", p->page_in);
		put_pages(f, p->page_in_addr, p->page_in_reason, p->n_page_in, CY_MAX_PAGES);
		fputc('\n', f);
	}
	if (p->n_page_out) {
		fprintf(f, "%*smade %u page%s dirty, %u cycles: ", pad, "", p->n_page_out,
			p->n_page_out == 1 ? "" : "s", p->page_out);
		put_pages(f, p->page_out_addr, NULL, p->n_page_out, CY_MAX_PAGES);
		fputc('\n', f);
	}
	if (p->wait)
		fprintf(f, "%*swaited %u cycles for data\n", pad, "", p->wait);
	if (!p->segment_start && !p->n_page_in && !p->n_page_out && !p->wait)
		fprintf(f, "%*sits own cost (the model's price of this instruction)\n", pad, "");
}

static void print_issue(FILE *f, const cy_timer_issue *is, bool colour)
{
	fprintf(f, "cyclops: %swarning:%s ", colour ? COLOUR_WARN : "", colour ? COLOUR_OFF : "");
	switch (is->kind) {
	case CY_TIMER_UNMATCHED_STOP:
		fprintf(f, "timer stop with no timer open (%llu time%s, first at cycle %llu)\n",
			(unsigned long long)is->count, is->count == 1 ? "" : "s",
			(unsigned long long)is->cycle);
		break;
	case CY_TIMER_NEVER_STOPPED:
		fputs("timer ", f);
		text_put_printable(f, is->label, is->label_len);
		fprintf(f, " started at cycle %llu never stopped\n", (unsigned long long)is->cycle);
		break;
	case CY_TIMER_LONG_LABEL:
		fprintf(f,
			"timer label longer than the 512-byte channel (%llu time%s, first at "
			"cycle %llu): cut to 512 bytes\n",
			(unsigned long long)is->count, is->count == 1 ? "" : "s",
			(unsigned long long)is->cycle);
		break;
	case CY_TIMER_TOO_MANY_TIMERS:
		fprintf(
		    f,
		    "%llu timer start%s ignored past the limit of %u timers (first at cycle %llu: ",
		    (unsigned long long)is->count, is->count == 1 ? "" : "s", CY_TIMER_MAX_NODES,
		    (unsigned long long)is->cycle);
		text_put_printable(f, is->label, is->label_len);
		fputs("): their time is in the enclosing timer\n", f);
		break;
	case CY_TIMER_TOO_MANY_SLICES:
		fprintf(f,
			"%llu timer slice%s not kept past the limit of %u (first at cycle %llu): "
			"the tree's totals include them\n",
			(unsigned long long)is->count, is->count == 1 ? "" : "s",
			CY_TIMER_MAX_SLICES, (unsigned long long)is->cycle);
		break;
	case CY_TIMER_TOO_MANY_STEPS:
		fprintf(
		    f,
		    "%llu explained step%s not kept past the limit of %u (first at cycle %llu)\n",
		    (unsigned long long)is->count, is->count == 1 ? "" : "s", CY_TIMER_MAX_STEPS,
		    (unsigned long long)is->cycle);
		break;
	}
}

void cli_print_timers(FILE *f, cy_vm *vm, bool colour)
{
	uint64_t run = cy_vm_cycles(vm);
	size_t n, n_steps, n_issues, width = NAME_COLS_MIN;
	const cy_timer *t = cy_vm_timers(vm, &n);
	const cy_timer_step *steps = cy_vm_timer_steps(vm, &n_steps);
	const cy_timer_issue *issues = cy_vm_timer_issues(vm, &n_issues);
	uint32_t chan[3];
	bool all_steps = true; /* the report has every step */

	if (!cy_vm_timer_channels(vm, chan)) {
		fprintf(f, "cyclops: timers: the guest never announced its channels "
			   "(CY_TIMER_INIT)\n");
		return;
	}
	fprintf(f,
		"cyclops: timers: share of the parent (top level: of %llu cycles); steps of %llu "
		"cycles or more explained\n",
		(unsigned long long)run, (unsigned long long)cy_vm_timer_threshold(vm));
	for (size_t i = 0; i < n; i++) {
		size_t w =
		    INDENT * t[i].depth + text_put_printable(NULL, t[i].label, t[i].label_len);
		if (w > width)
			width = w < NAME_COLS_MAX ? w : NAME_COLS_MAX;
	}
	for (size_t i = 0; i < n_issues; i++)
		all_steps &= issues[i].kind != CY_TIMER_TOO_MANY_STEPS;
	if (n)
		fprintf(f, "%s%-*s %8s %14s %14s %7s%s\n", colour ? COLOUR_DIM : "", (int)width,
			"timer", "count", "cycles", "instructions", "share",
			colour ? COLOUR_OFF : "");
	for (size_t i = 0; i < n; i++) {
		uint64_t whole = t[i].parent < 0 ? run : t[t[i].parent].cycles;
		size_t w = INDENT * t[i].depth, shown = 0;
		fprintf(f, "%*s%s", (int)w, "", colour ? COLOUR_NAME : "");
		w += text_put_printable(f, t[i].label, t[i].label_len);
		fputs(colour ? COLOUR_OFF : "", f);
		fprintf(f, "%*s %8llu %14llu %14llu %6.1f%%%s\n", (int)(width > w ? width - w : 0),
			"", (unsigned long long)t[i].count, (unsigned long long)t[i].cycles,
			(unsigned long long)t[i].instructions, text_percent(t[i].cycles, whole),
			t[i].open ? " (open)" : "");
		for (size_t k = 0; k < n_steps && shown < STEPS_SHOWN; k++)
			if (steps[k].timer == (int)i) {
				print_step(f, vm, &steps[k], t[i].depth, colour);
				shown++;
			}
		if (t[i].steps > shown)
			fprintf(
			    f,
			    "%*s... and %llu more steps of %llu cycles or more (--report has %s)\n",
			    (int)(INDENT * (t[i].depth + 1)), "",
			    (unsigned long long)(t[i].steps - shown),
			    (unsigned long long)cy_vm_timer_threshold(vm),
			    all_steps ? "them" : "those among the run's first 10000");
	}
	if (n == 0)
		fprintf(f, "cyclops: timers: no timer started\n");
	for (size_t i = 0; i < n_issues; i++)
		print_issue(f, &issues[i], colour);
}

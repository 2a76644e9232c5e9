/* monitor.c - GDB's "monitor" commands: the cycle-aware questions a
 * debugger cannot ask a plain stub (docs/gdb.md, "Monitor commands"). The
 * numbers come from the same API the command line's outputs read. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pages.h"
#include "debug/session.h"
#include "util/text.h"

#define PROFILE_DEFAULT_TOP 10

static void say(gdb_out_fn out, void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(gdb_out_fn out, void *ctx, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	out(ctx, line);
}

static void cmd_cycles(struct debug *d, gdb_out_fn out, void *ctx)
{
	cy_cost_stats s;

	cy_vm_cost_stats(d->vm, &s);
	say(out, ctx, "cycles %llu\ninstructions %llu\nmodel %s\n", (unsigned long long)s.cycles,
	    (unsigned long long)s.instructions, s.model);
	if (d->vm->model.paging)
		say(out, ctx, "user %llu\npaging %llu\nreserved %llu\nsegments %llu\n",
		    (unsigned long long)s.user, (unsigned long long)s.paging,
		    (unsigned long long)s.reserved, (unsigned long long)s.segments);
}

struct fn_total {
	const cy_stack_node *node; /* the first node of the function */
	uint64_t cycles, instructions;
};

/* Functions by their frame: a symbol or an ecall number by address, the
 * other pseudo-frames by kind. */
static int by_function(const void *a, const void *b)
{
	const cy_stack_node *x = ((const struct fn_total *)a)->node;
	const cy_stack_node *y = ((const struct fn_total *)b)->node;
	bool by_addr = x->kind == CY_FRAME_FUNCTION || x->kind == CY_FRAME_ECALL;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (by_addr && x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

static int by_cycles(const void *a, const void *b)
{
	const struct fn_total *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles < y->cycles ? 1 : -1;
	return strcmp(x->node->name, y->node->name);
}

/* The top functions by self cycles so far: every stack node's own cycles
 * added up per function. */
static int cmd_profile(struct debug *d, const char *arg, gdb_out_fn out, void *ctx)
{
	cy_callstack *cs = d->opts.callstack ? d->opts.callstack : d->cs;
	unsigned long top = PROFILE_DEFAULT_TOP;
	struct fn_total *fns;
	size_t n = 0, n_fns = 0;
	uint64_t total = 0;
	char *end;

	if (*arg) {
		errno = 0;
		top = strtoul(arg, &end, 10);
		if (errno || *end || top == 0) {
			say(out, ctx, "monitor profile: N must be a positive number, not \"%s\"\n",
			    arg);
			return 0;
		}
	}
	const cy_stack_node *nodes = cs ? cy_callstack_nodes(cs, &n) : NULL;
	if (!nodes) {
		say(out, ctx, "monitor profile: no call-stack profile (out of memory)\n");
		return 0;
	}
	fns = calloc(n ? n : 1, sizeof(*fns));
	if (!fns) {
		say(out, ctx, "monitor profile: out of host memory\n");
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		fns[i] = (struct fn_total){ &nodes[i], nodes[i].self_cycles,
					    nodes[i].self_instructions };
	qsort(fns, n, sizeof(*fns), by_function);
	for (size_t i = 0; i < n; i++) {
		total += fns[i].cycles;
		if (n_fns && by_function(&fns[n_fns - 1], &fns[i]) == 0) {
			fns[n_fns - 1].cycles += fns[i].cycles;
			fns[n_fns - 1].instructions += fns[i].instructions;
		} else {
			fns[n_fns++] = fns[i];
		}
	}
	qsort(fns, n_fns, sizeof(*fns), by_cycles);
	say(out, ctx, "%14s %7s %14s  %s\n", "self cycles", "%", "instructions", "function");
	for (size_t k = 0; k < n_fns && k < top; k++)
		say(out, ctx, "%14llu %6.2f%% %14llu  %.400s\n", (unsigned long long)fns[k].cycles,
		    text_percent(fns[k].cycles, total), (unsigned long long)fns[k].instructions,
		    fns[k].node->name);
	say(out, ctx, "%14llu cycles in all\n", (unsigned long long)total);
	free(fns);
	return 0;
}

/* A tracker name (the guest's bytes), safe for GDB's console. */
static void print_name(gdb_out_fn out, void *ctx, const char *name)
{
	char buf[300];

	text_printable(buf, sizeof(buf), name);
	out(ctx, buf);
}

static void cmd_tracker(struct debug *d, gdb_out_fn out, void *ctx)
{
	size_t n_spans, n_issues, open = 0;
	const cy_span *spans = cy_vm_tracker_spans(d->vm, &n_spans);
	const cy_tracker_issue *issues = cy_vm_tracker_issues(d->vm, &n_issues);

	if (!spans && !d->vm->tracker) {
		say(out, ctx, "the cycle tracker is off (run with --cycle-tracker or --report)\n");
		return;
	}
	for (size_t i = 0; i < n_issues; i++) {
		if (issues[i].kind != CY_TRACKER_NEVER_ENDED)
			continue;
		out(ctx, "open ");
		print_name(out, ctx, issues[i].name);
		say(out, ctx, " since cycle %llu (%llu cycles so far)\n",
		    (unsigned long long)issues[i].cycle,
		    (unsigned long long)(d->vm->cycles - issues[i].cycle));
		open++;
	}
	for (size_t i = 0; i < n_spans; i++) {
		say(out, ctx, "%*sspan ", 2 * (int)spans[i].depth, "");
		print_name(out, ctx, spans[i].name);
		say(out, ctx, ": %llu ended, %llu cycles%s\n", (unsigned long long)spans[i].count,
		    (unsigned long long)spans[i].total, spans[i].open ? ", open" : "");
	}
	say(out, ctx, "%zu open\n", open);
}

static void cmd_pages(struct debug *d, gdb_out_fn out, void *ctx)
{
	const cy_vm *vm = d->vm;
	const struct cost_state *s = &vm->cost;
	uint32_t depth = vm->model.merkle_depth;
	uint64_t loaded = 0, dirty = 0, pages;
	cy_cost_stats st;

	if (!vm->model.paging) {
		say(out, ctx, "the %s model has no paging (try --model risc0)\n", vm->model.name);
		return;
	}
	cy_vm_cost_stats(vm, &st);
	pages = s->segments ? (uint64_t)1 << depth : 0;
	for (uint64_t p = 0; p < pages; p++) {
		loaded += page_marked(s->loaded, depth, (uint32_t)p);
		dirty += page_marked(s->dirty, depth, (uint32_t)p);
	}
	say(out, ctx,
	    "segment %llu: %llu pages paged in, %llu dirty (pages of %u bytes)\n"
	    "so far: %llu pages in, %llu pages out, %llu paging cycles\n",
	    (unsigned long long)st.segments, (unsigned long long)loaded, (unsigned long long)dirty,
	    vm->model.page_size, (unsigned long long)st.pages_in, (unsigned long long)st.pages_out,
	    (unsigned long long)st.paging);
}

static void cmd_until(struct debug *d, const char *arg, gdb_out_fn out, void *ctx)
{
	uint64_t now = d->vm->cycles, n;
	char *end;

	errno = 0;
	n = strtoull(arg, &end, 0);
	if (!*arg || errno || *end) {
		say(out, ctx, "monitor until-cycle: N must be a number, not \"%s\"\n", arg);
		return;
	}
	if (n > now) {
		d->sh->until_cycle = n;
		say(out, ctx,
		    "the next continue stops at the first instruction boundary at or past cycle "
		    "%llu (or at a breakpoint before it)\n",
		    (unsigned long long)n);
	} else if (n < now && d->sh->history) {
		d->sh->until_cycle = n;
		say(out, ctx,
		    "the next reverse-continue goes back to the first instruction boundary at or "
		    "past cycle %llu\n",
		    (unsigned long long)n);
	} else if (n < now) {
		say(out, ctx,
		    "monitor until-cycle: cycle %llu has passed, and there is no history "
		    "(--gdb-history 0)\n",
		    (unsigned long long)n);
	} else {
		d->sh->until_cycle = 0;
		say(out, ctx, "the clock is at cycle %llu\n", (unsigned long long)n);
	}
}

static const char help[] =
    "cyclops monitor commands:\n"
    "  cycles          cycles and instructions so far, under the active cost model\n"
    "  profile [N]     the N functions (default 10) with the most self cycles so far\n"
    "  tracker         the cycle tracker's open and ended spans\n"
    "  pages           pages paged in and dirty in this segment (paging models)\n"
    "  until-cycle N   the next continue (or reverse-continue, for N in the past)\n"
    "                  stops at the first instruction boundary at or past cycle N\n"
    "  history         the reverse-execution snapshots and the input log\n"
    "  help            this list\n";

int monitor_command(struct debug *d, const char *cmd, gdb_out_fn out, void *ctx)
{
	char word[32];
	size_t n = 0;

	while (*cmd == ' ')
		cmd++;
	while (cmd[n] && cmd[n] != ' ' && n < sizeof(word) - 1)
		n++;
	memcpy(word, cmd, n);
	word[n] = 0;
	cmd += n;
	while (*cmd == ' ')
		cmd++;
	if (!strcmp(word, "help") || !*word)
		out(ctx, help);
	else if (!strcmp(word, "cycles"))
		cmd_cycles(d, out, ctx);
	else if (!strcmp(word, "profile"))
		cmd_profile(d, cmd, out, ctx);
	else if (!strcmp(word, "tracker"))
		cmd_tracker(d, out, ctx);
	else if (!strcmp(word, "pages"))
		cmd_pages(d, out, ctx);
	else if (!strcmp(word, "until-cycle"))
		cmd_until(d, cmd, out, ctx);
	else if (!strcmp(word, "history"))
		history_describe(d, out, ctx);
	else
		return -1;
	return 0;
}

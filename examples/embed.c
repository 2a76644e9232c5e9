/* embed.c - the smallest useful embedding of cyclops: runs a program in
 * slices of cycles through include/cyclops.h and, with --observe, counts
 * retired instructions per class through an observer. make bench uses it to
 * show what an attached observer costs. With --track it turns the cycle
 * tracker on and, with --chunk=N, runs in chunks of N cycles and prints each
 * chunk's results, then the whole run's (tests/run.sh compares the two). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclops.h"

struct class_counts {
	uint64_t insns[CY_CLASS_COUNT];
	uint64_t cycles[CY_CLASS_COUNT];
	uint64_t base, wait, page_in, page_out, segment; /* the cost's parts */
};

/* One line per request: "embed: WHERE "NAME" cycles... [report T/C]". */
static void print_tracker(const char *where, const cy_tracker_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(stderr, "embed: %s \"%.*s\"", where, (int)e[i].name_len, e[i].name);
		for (size_t k = 0; k < e[i].count; k++)
			fprintf(stderr, " %llu", (unsigned long long)e[i].cycles[k]);
		if (e[i].report_count)
			fprintf(stderr, " report %llu/%llu", (unsigned long long)e[i].report_total,
				(unsigned long long)e[i].report_count);
		fputc('\n', stderr);
	}
}

static void count_retired(void *ctx, cy_vm *vm, const cy_event *ev)
{
	struct class_counts *c = ctx;

	(void)vm;
	c->insns[ev->cls]++;
	c->cycles[ev->cls] += ev->cost;
	if (ev->parts) {
		c->base += ev->parts->base;
		c->wait += ev->parts->wait;
		c->page_in += ev->parts->page_in;
		c->page_out += ev->parts->page_out;
		c->segment += ev->parts->segment;
	}
}

/* Firmware's traps, interrupts and returns from them (bare platform). */
struct trap_counts {
	uint64_t traps, interrupts, returns;
	uint32_t last_cause;
};

static void count_traps(void *ctx, cy_vm *vm, const cy_event *ev)
{
	struct trap_counts *t = ctx;

	(void)vm;
	if (ev->kind == CY_EV_TRAP_RETURN) {
		t->returns++;
		return;
	}
	t->traps++;
	t->interrupts += ev->addr >> (cy_vm_xlen(vm) - 1) & 1; /* mcause's interrupt bit */
	t->last_cause = ev->addr;
}

int main(int argc, char **argv)
{
	struct trap_counts traps = { 0 };
	struct class_counts counts = { 0 };
	uint64_t slice = 1000000, slices = 0, chunk = 0;
	bool observe = false, track = false;
	const char *model = NULL;
	uint32_t po2 = 0;
	char err[512];
	cy_opts opts;
	cy_vm *vm;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--observe") == 0)
			observe = true;
		else if (strncmp(argv[i], "--slice=", 8) == 0)
			slice = strtoull(argv[i] + 8, NULL, 10);
		else if (strncmp(argv[i], "--model=", 8) == 0)
			model = argv[i] + 8;
		else if (strncmp(argv[i], "--segment-po2=", 14) == 0)
			po2 = (uint32_t)strtoul(argv[i] + 14, NULL, 10);
		else if (strcmp(argv[i], "--track") == 0)
			track = true;
		else if (strncmp(argv[i], "--chunk=", 8) == 0)
			slice = chunk = strtoull(argv[i] + 8, NULL, 10);
		else
			break;
	}
	if (i >= argc || slice == 0) {
		fprintf(stderr,
			"usage: embed [--observe] [--slice=CYCLES] [--model=NAME] "
			"[--segment-po2=N] [--track [--chunk=CYCLES]] PROGRAM.elf [ARGS]\n");
		return 2;
	}
	cy_opts_init(&opts);
	opts.argc = argc - i;
	opts.argv = (const char *const *)(argv + i);
	opts.model = model;
	opts.segment_po2 = po2;
	if (track)
		cy_opts_with_cycle_tracker(&opts);
	if (chunk)
		opts.chunk_cycles = chunk;
	if (cy_vm_create_from_file(&vm, argv[i], &opts, err, sizeof(err)) != 0) {
		fprintf(stderr, "embed: %s\n", err);
		return 1;
	}
	if (observe) {
		cy_vm_add_observer(vm, CY_EV_BIT(CY_EV_RETIRE), count_retired, &counts);
		cy_vm_add_observer(vm, CY_EV_BIT(CY_EV_TRAP) | CY_EV_BIT(CY_EV_TRAP_RETURN),
				   count_traps, &traps);
	}
	if (chunk) {
		cy_chunk_report report;
		char where[64];
		do {
			cy_vm_run_chunk(vm, &report);
			fprintf(stderr, "embed: chunk %llu cycles %llu..%llu%s\n",
				(unsigned long long)report.index,
				(unsigned long long)report.start_cycle,
				(unsigned long long)report.end_cycle, report.done ? " done" : "");
			snprintf(where, sizeof(where), "chunk %llu",
				 (unsigned long long)report.index);
			print_tracker(where, report.cycle_tracker, report.n_cycle_tracker);
			slices += !report.done;
		} while (!report.done);
	} else {
		while (cy_vm_run(vm, slice) == CY_STOP_NONE)
			slices++;
	}
	fprintf(stderr,
		"embed: %s after %llu slices of %llu cycles: pc 0x%08x, a0 %llu, "
		"%llu instructions, %llu cycles\n",
		cy_vm_stop_reason(vm) == CY_STOP_EXIT ? "exited" : cy_vm_stop_message(vm),
		(unsigned long long)slices, (unsigned long long)slice, cy_vm_pc(vm),
		(unsigned long long)cy_vm_reg(vm, 10), (unsigned long long)cy_vm_instret(vm),
		(unsigned long long)cy_vm_cycles(vm));
	if (track) {
		size_t n;
		const cy_tracker_entry *e = cy_vm_cycle_tracker(vm, &n);
		print_tracker("run", e, n);
	}
	if (observe)
		fprintf(stderr,
			"embed: parts: base %llu, wait %llu, page-in %llu, page-out %llu, "
			"segment %llu\n",
			(unsigned long long)counts.base, (unsigned long long)counts.wait,
			(unsigned long long)counts.page_in, (unsigned long long)counts.page_out,
			(unsigned long long)counts.segment);
	if (observe)
		for (int c = 0; c < CY_CLASS_COUNT; c++)
			if (counts.insns[c])
				fprintf(stderr, "embed: %-6s %12llu instructions %12llu cycles\n",
					cy_class_name((cy_insn_class)c),
					(unsigned long long)counts.insns[c],
					(unsigned long long)counts.cycles[c]);
	if (observe && traps.traps + traps.returns)
		fprintf(stderr,
			"embed: traps %llu (%llu interrupts), returns %llu, last [trap %s]\n",
			(unsigned long long)traps.traps, (unsigned long long)traps.interrupts,
			(unsigned long long)traps.returns, cy_trap_name(traps.last_cause));
	i = cy_vm_stop_reason(vm) == CY_STOP_EXIT ? cy_vm_exit_code(vm) : 1;
	cy_vm_destroy(vm);
	return i;
}

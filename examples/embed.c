/* embed.c - the smallest useful embedding of cyclops: runs a program in
 * slices of cycles through include/cyclops.h and, with --observe, counts
 * retired instructions per class through an observer. make bench uses it to
 * show what an attached observer costs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclops.h"

struct class_counts {
	uint64_t insns[CY_CLASS_COUNT];
	uint64_t cycles[CY_CLASS_COUNT];
	uint64_t base, wait, page_in, page_out, segment; /* the cost's parts */
};

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

int main(int argc, char **argv)
{
	struct class_counts counts = { 0 };
	uint64_t slice = 1000000, slices = 0;
	bool observe = false;
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
		else
			break;
	}
	if (i >= argc || slice == 0) {
		fprintf(stderr, "usage: embed [--observe] [--slice=CYCLES] [--model=NAME] "
				"[--segment-po2=N] PROGRAM.elf [ARGS]\n");
		return 2;
	}
	cy_opts_init(&opts);
	opts.argc = argc - i;
	opts.argv = (const char *const *)(argv + i);
	opts.model = model;
	opts.segment_po2 = po2;
	if (cy_vm_create_from_file(&vm, argv[i], &opts, err, sizeof(err)) != 0) {
		fprintf(stderr, "embed: %s\n", err);
		return 1;
	}
	if (observe)
		cy_vm_add_observer(vm, CY_EV_BIT(CY_EV_RETIRE), count_retired, &counts);
	while (cy_vm_run(vm, slice) == CY_STOP_NONE)
		slices++;
	fprintf(stderr,
		"embed: %s after %llu slices of %llu cycles: pc 0x%08x, a0 %u, "
		"%llu instructions, %llu cycles\n",
		cy_vm_stop_reason(vm) == CY_STOP_EXIT ? "exited" : cy_vm_stop_message(vm),
		(unsigned long long)slices, (unsigned long long)slice, cy_vm_pc(vm),
		cy_vm_reg(vm, 10), (unsigned long long)cy_vm_instret(vm),
		(unsigned long long)cy_vm_cycles(vm));
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
	i = cy_vm_stop_reason(vm) == CY_STOP_EXIT ? cy_vm_exit_code(vm) : 1;
	cy_vm_destroy(vm);
	return i;
}

/* test_callstack.c - unit tests of the call-stack profiler through the API
 * (cy_callstack_*): the tree, the pc table and the call sites of
 * tests/profile/recursion.S, whose numbers are derived by hand there:
 * sum(3) recursing to sum(0), 11 cycles per level above 0 and 2 at 0.
 * Prints "ok - ..." / "not ok - ..." lines. */
#include <stdio.h>
#include <string.h>

#include "cyclops.h"

#define ELF "tests/profile/build/recursion.elf"
/* from `nm`: _start at 0x10000 (its jal sum at +4), sum at 0x10010 (its
 * beqz first, its jal sum the sixth instruction, at +20) */
#define SUM        0x10010u
#define START_CALL 0x10004u
#define SUM_CALL   0x10024u

static int failed;

static void check(bool cond, const char *name)
{
	printf("%s - callstack: %s\n", cond ? "ok" : "not ok", name);
	failed += !cond;
}

int main(void)
{
	cy_opts opts;
	cy_vm *vm;
	cy_callstack *cs;
	char err[256];
	size_t n;

	cy_opts_init(&opts);
	opts.quiet = true;
	if (cy_vm_create_from_file(&vm, ELF, &opts, err, sizeof(err)) != 0) {
		printf("not ok - callstack: %s (make guest builds it)\n", err);
		return 1;
	}
	check(cy_callstack_attach(vm, &cs) == 0, "attaches");
	check(cy_vm_run(vm, UINT64_MAX) == CY_STOP_EXIT && cy_vm_exit_code(vm) == 6,
	      "recursion.elf exits 6");

	/* the tree: _start 39 inclusive (3 self), sum levels 35, 24, 13, 2 */
	const cy_stack_node *nd = cy_callstack_nodes(cs, &n);
	static const uint64_t level_total[] = { 35, 24, 13, 2 };
	int levels = 0;
	uint64_t self_sum = 0;
	for (size_t i = 0; nd && i < n; i++) {
		self_sum += nd[i].self_cycles;
		if (nd[i].kind == CY_FRAME_FUNCTION && strcmp(nd[i].name, "sum") == 0) {
			unsigned d = nd[i].depth - 1;
			char name[80];
			snprintf(name, sizeof(name), "sum at depth %u: %llu inclusive, %u self",
				 d + 1, d < 4 ? (unsigned long long)level_total[d] : 0ull,
				 d == 3 ? 2u : 11u);
			check(d < 4 && nd[i].cycles == level_total[d] &&
				  nd[i].self_cycles == (d == 3 ? 2u : 11u) && nd[i].addr == SUM,
			      name);
			levels++;
		}
		if (strcmp(nd[i].name, "_start") == 0)
			check(nd[i].depth == 0 && nd[i].cycles == 39 && nd[i].self_cycles == 3 &&
				  nd[i].instructions == 39,
			      "_start: 39 inclusive, 3 self");
		if (nd[i].kind == CY_FRAME_ECALL)
			check(nd[i].addr == 93 && strcmp(nd[i].name, "[ecall exit]") == 0 &&
				  nd[i].self_cycles == 1,
			      "the exit ecall is [ecall exit] with its 1 cycle");
	}
	check(levels == 4, "four sum nodes, one per recursion level");
	check(self_sum == cy_vm_cycles(vm), "self cycles add up to the run's");

	/* pcs: sum's beqz ran at every level */
	const cy_pc_cost *pcs = cy_callstack_pcs(cs, &n);
	bool found = false;
	for (size_t i = 0; pcs && i < n; i++)
		if (pcs[i].pc == SUM)
			found = pcs[i].cycles == 4 && pcs[i].instructions == 4;
	check(found, "sum's first instruction: 4 cycles, 4 times");

	/* call sites: _start -> sum once (35 cycles to its return); sum -> sum
	 * three times (24 + 13 + 2) */
	const cy_call_edge *ce = cy_callstack_calls(cs, &n);
	check(ce && n == 2, "two call sites");
	if (ce && n == 2) {
		check(ce[0].call_pc == START_CALL && ce[0].callee == SUM && ce[0].calls == 1 &&
			  ce[0].cycles == 35,
		      "_start's call of sum: 1 call, 35 cycles");
		check(ce[1].call_pc == SUM_CALL && ce[1].callee == SUM && ce[1].calls == 3 &&
			  ce[1].cycles == 39,
		      "sum's call of sum: 3 calls, 39 cycles");
	}
	cy_vm_destroy(vm);
	cy_callstack_free(cs);
	return failed ? 1 : 0;
}

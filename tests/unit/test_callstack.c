/* test_callstack.c - unit tests of the call-stack profiler through the API
 * (cy_callstack_*): the tree, the pc table and the call sites of
 * tests/profile/recursion.S, whose numbers are derived by hand there:
 * sum(3) recursing to sum(0), 11 cycles per level above 0 and 2 at 0;
 * then the same run with each table's limit lowered (callstack.h) to
 * where this small guest goes past it. Prints "ok - ..." / "not ok - ..."
 * lines. */
#include <stdio.h>
#include <string.h>

#include "cyclops.h"
#include "observe/callstack.h"

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

/* recursion.elf run with the given limits; NULL if it could not run */
static cy_callstack *run_limited(cy_vm **vm, size_t nodes, size_t pcs, size_t calls)
{
	cy_opts opts;
	cy_callstack *cs;
	char err[256];

	cy_opts_init(&opts);
	opts.quiet = true;
	if (cy_vm_create_from_file(vm, ELF, &opts, err, sizeof(err)) != 0)
		return NULL;
	if (cy_callstack_attach(*vm, &cs) != 0) {
		cy_vm_destroy(*vm);
		return NULL;
	}
	callstack_set_limits(cs, nodes, pcs, calls);
	if (cy_vm_run(*vm, UINT64_MAX) != CY_STOP_EXIT) {
		cy_vm_destroy(*vm);
		cy_callstack_free(cs);
		return NULL;
	}
	return cs;
}

static void done(cy_vm *vm, cy_callstack *cs)
{
	cy_vm_destroy(vm);
	cy_callstack_free(cs);
}

/* The limits, one table at a time. Nodes are made in the order the stacks
 * first run: _start, sum at depths 1 to 4, then _start's [ecall exit]. */
static void limits(void)
{
	cy_callstack_limits lim;
	cy_callstack *cs;
	cy_vm *vm;
	size_t n;

	/* 3 nodes: _start, sum, sum;sum. The calls of sum at depths 3 and 4
	 * reuse their caller's node (11 + 2 more cycles there), the exit ecall
	 * is charged to _start itself (its 3 + 1). */
	if (!(cs = run_limited(&vm, 3, CY_CALLSTACK_MAX_PCS, CY_CALLSTACK_MAX_CALLS))) {
		check(false, "limits: recursion.elf runs");
		return;
	}
	const cy_stack_node *nd = cy_callstack_nodes(cs, &n);
	check(nd && n == 3, "3 nodes at a limit of 3");
	if (nd && n == 3)
		check(nd[0].self_cycles == 4 && nd[0].cycles == 39 && nd[1].depth == 1 &&
			  nd[1].self_cycles == 11 && nd[1].cycles == 35 && nd[2].depth == 2 &&
			  nd[2].self_cycles == 24 && nd[2].cycles == 24,
		      "past the limit: a call charged to its caller (sum;sum 24 self), the "
		      "exit ecall to _start (4 self), 39 in all");
	check(cy_callstack_truncated(cs, &lim) && lim.nodes_full && !lim.pcs_full &&
		  !lim.calls_full && !lim.ecalls_full && lim.lost_pc_cycles == 0,
	      "cy_callstack_truncated: the tree only");
	const cy_call_edge *ce = cy_callstack_calls(cs, &n);
	check(ce && n == 2 && ce[1].calls == 3 && ce[1].cycles == 39,
	      "the calls past the node limit still have their edges (sum -> sum: 3, 39 cycles)");
	done(vm, cs);

	/* 1 node: everything is _start's */
	if ((cs = run_limited(&vm, 1, CY_CALLSTACK_MAX_PCS, CY_CALLSTACK_MAX_CALLS))) {
		nd = cy_callstack_nodes(cs, &n);
		check(nd && n == 1 && nd[0].self_cycles == 39 && nd[0].self_instructions == 39,
		      "a limit of 1 node: _start has all 39 cycles");
		done(vm, cs);
	} else {
		check(false, "limits: recursion.elf runs with 1 node");
	}

	/* 4 (stack, pc) pairs: the fifth turns the table into one of pcs,
	 * which keeps the (at most 4) pcs it had and loses the others' cycles;
	 * which ones depends on the order the pairs came in */
	if ((cs = run_limited(&vm, CY_CALLSTACK_MAX_NODES, 4, CY_CALLSTACK_MAX_CALLS))) {
		const cy_pc_cost *pcs = cy_callstack_pcs(cs, &n);
		uint64_t kept = 0;
		for (size_t i = 0; pcs && i < n; i++)
			kept += pcs[i].cycles;
		check(pcs && n == 4, "4 pcs at a limit of 4");
		check(cy_callstack_truncated(cs, &lim) && lim.pcs_full && lim.per_pc &&
			  !lim.nodes_full && lim.lost_pc_cycles > 0 &&
			  kept + lim.lost_pc_cycles == 39 &&
			  lim.lost_pc_instructions == lim.lost_pc_cycles,
		      "per pc from the limit on; the kept and the lost cycles add up to 39");
		size_t m;
		cy_callstack_node_pcs(cs, &m);
		check(m == 0, "no per-stack pcs past the limit");
		nd = cy_callstack_nodes(cs, &n);
		uint64_t self = 0;
		for (size_t i = 0; nd && i < n; i++)
			self += nd[i].self_cycles;
		check(n == 6 && self == 39, "the tree is whole: 6 nodes, 39 cycles");
		done(vm, cs);
	} else {
		check(false, "limits: recursion.elf runs with 4 pcs");
	}

	/* 1 call edge: _start -> sum; sum's calls of itself have none */
	if ((cs = run_limited(&vm, CY_CALLSTACK_MAX_NODES, CY_CALLSTACK_MAX_PCS, 1))) {
		const cy_call_edge *e = cy_callstack_calls(cs, &n);
		check(e && n == 1 && e[0].call_pc == START_CALL && e[0].calls == 1 &&
			  e[0].cycles == 35,
		      "1 call edge at a limit of 1: _start's call of sum, 35 cycles");
		check(cy_callstack_truncated(cs, &lim) && lim.calls_full && !lim.nodes_full &&
			  !lim.pcs_full,
		      "cy_callstack_truncated: the call edges only");
		nd = cy_callstack_nodes(cs, &n);
		check(nd && n == 6 && nd[0].cycles == 39, "the tree is whole without the edges");
		done(vm, cs);
	} else {
		check(false, "limits: recursion.elf runs with 1 call edge");
	}
}

/* The pcs of each stack, derived by hand from recursion.S (4 bytes an
 * instruction): _start's li, jal and li (once each) and the exit ecall on
 * its [ecall exit] node; each sum above 0 runs its 11 instructions once,
 * sum(0) its beqz and ret; sum's outermost call comes from _start's jal,
 * the others from sum's. Under both engines. */
static void per_stack(bool reference)
{
	cy_opts opts;
	cy_vm *vm;
	cy_callstack *cs;
	char err[256], name[120];
	size_t n, m;
	bool good = true;

	cy_opts_init(&opts);
	opts.quiet = true;
	opts.reference = reference;
	if (cy_vm_create_from_file(&vm, ELF, &opts, err, sizeof(err)) != 0 ||
	    cy_callstack_attach(vm, &cs) != 0) {
		check(false, "per stack: recursion.elf runs");
		return;
	}
	cy_vm_run(vm, UINT64_MAX);
	const cy_stack_node *nd = cy_callstack_nodes(cs, &n);
	const cy_node_pc_cost *pc = cy_callstack_node_pcs(cs, &m);
	size_t k = 0;
	for (size_t i = 0; nd && pc && i < n; i++) {
		uint32_t want[11];
		size_t w = 0;
		if (nd[i].kind == CY_FRAME_ECALL) {
			want[w++] = 0x1000c;
		} else if (strcmp(nd[i].name, "_start") == 0) {
			want[w++] = 0x10000;
			want[w++] = 0x10004;
			want[w++] = 0x10008;
		} else if (nd[i].depth == 4) {
			want[w++] = SUM;
			want[w++] = SUM + 40;
		} else {
			for (; w < 11; w++)
				want[w] = SUM + 4 * (uint32_t)w;
		}
		if (nd[i].kind == CY_FRAME_FUNCTION && strcmp(nd[i].name, "sum") == 0)
			good &= nd[i].call_pc == (nd[i].depth == 1 ? START_CALL : SUM_CALL);
		for (size_t j = 0; j < w; j++, k++)
			good &= k < m && pc[k].node == i && pc[k].pc == want[j] &&
				pc[k].cycles == 1 && pc[k].instructions == 1;
	}
	snprintf(name, sizeof(name),
		 "per stack (%s): each node's pcs and call site as derived by hand, %zu pairs",
		 reference ? "reference" : "interp", m);
	check(nd && pc && good && k == m && m == 3 + 1 + 3 * 11 + 2, name);
	cy_vm_destroy(vm);
	cy_callstack_free(cs);
}

/* The longest calls: kept by default, every call of recursion.elf (the
 * threshold stays at 1 cycle): _start still open at the exit (the run's
 * 39 cycles), then sum's four levels as they nest (35, 24, 13, 2, the
 * levels' inclusive cycles above). Not kept (cy_callstack_keep_spans),
 * none, and the tree the same. */
static void spans(bool keep)
{
	static const uint64_t len[] = { 39, 35, 24, 13, 2 };
	cy_opts opts;
	cy_vm *vm;
	cy_callstack *cs;
	char err[256], name[120];
	size_t n, n_nodes;
	uint64_t threshold, self = 0;
	bool good = true;

	cy_opts_init(&opts);
	opts.quiet = true;
	if (cy_vm_create_from_file(&vm, ELF, &opts, err, sizeof(err)) != 0 ||
	    cy_callstack_attach(vm, &cs) != 0) {
		check(false, "spans: recursion.elf runs");
		return;
	}
	if (!keep)
		cy_callstack_keep_spans(cs, false);
	cy_vm_run(vm, UINT64_MAX);
	const cy_call_span *sp = cy_callstack_call_spans(cs, &n, &threshold);
	for (size_t i = 0; sp && keep && i < n && i < 5; i++)
		good &= sp[i].end - sp[i].start == len[i] && sp[i].open == (i == 0) &&
			(i == 0 || sp[i].start > sp[i - 1].start);
	const cy_stack_node *nd = cy_callstack_nodes(cs, &n_nodes);
	for (size_t i = 0; nd && i < n_nodes; i++)
		self += nd[i].self_cycles;
	snprintf(name, sizeof(name), "%s: %zu calls (threshold %llu), the tree's %llu cycles",
		 keep ? "calls kept by default: _start open (39), sum 35, 24, 13, 2 as they nest"
		      : "calls not kept: none",
		 n, (unsigned long long)threshold, (unsigned long long)self);
	check(sp && good && n == (keep ? 5u : 0u) && threshold == 1 && nd && n_nodes == 6 &&
		  self == 39,
	      name);
	cy_vm_destroy(vm);
	cy_callstack_free(cs);
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
	cy_callstack_limits lim;
	check(!cy_callstack_truncated(cs, &lim) && lim.lost_pc_cycles == 0,
	      "no limit reached: not truncated");
	cy_vm_destroy(vm);
	cy_callstack_free(cs);
	per_stack(false);
	per_stack(true);
	spans(true);
	spans(false);
	limits();
	return failed ? 1 : 0;
}

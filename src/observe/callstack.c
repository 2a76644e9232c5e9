/* callstack.c - the call-stack profiler: follows calls and returns from the
 * RISC-V return-address hints and charges every retired cycle to the
 * current stack, aggregated in a tree of distinct stacks.
 *
 * It runs on the accounting interface (core/account.h): the cycles and
 * instructions between two context changes go to the top frame at once,
 * from the clock; per-pc costs are the blocks' run counts times their
 * instructions' static costs, plus the extras reported when they occur.
 * With opts.reference it runs on every instruction's events instead (the
 * reference the differential test holds the fast path to). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/account.h"
#include "core/block.h"
#include "core/vm.h"
#include "observe/callstack.h"
#include "util/index_map.h"
#include "util/state_io.h"

_Static_assert(sizeof(struct symbol) == sizeof(cy_symbol) &&
		   offsetof(struct symbol, addr) == offsetof(cy_symbol, addr) &&
		   offsetof(struct symbol, size) == offsetof(cy_symbol, size) &&
		   offsetof(struct symbol, name) == offsetof(cy_symbol, name),
	       "cy_symbol is the symbol table's own layout");

const cy_symbol *cy_vm_symbols(const cy_vm *vm, size_t *n)
{
	*n = vm->syms.n;
	return vm->syms.n ? (const cy_symbol *)vm->syms.syms : NULL;
}

/* A guest that recurses without returning would grow the shadow stack
 * forever; past this depth calls are charged to the deepest frame. */
#define MAX_DEPTH 10000
#define NO_FUNC   UINT32_MAX

/* the link registers of the calling convention: ra and t0 */
enum { LINK_RA = 1, LINK_T0 = 5 };

/* A frame of the shadow stack. */
struct frame {
	uint32_t node;    /* its node in the tree */
	uint32_t func;    /* index in cs->funcs, NO_FUNC when unknown */
	uint32_t ret;     /* the return address its call left in the link register */
	uint32_t edge;    /* its call edge, UINT32_MAX if none */
	uint32_t call_pc; /* the edge's call site (0: none), for a tail call */
	uint64_t entry_cycles, entry_instret;
};

/* What a jal/jalr/taken branch asks for, applied after it retires (its own
 * cycles belong to the stack it leaves). */
enum action { ACT_NONE, ACT_JUMP, ACT_CALL, ACT_RETURN, ACT_RETURN_CALL };

/* Each table is bounded (CY_CALLSTACK_MAX_* in cyclops.h say why and what
 * memory that is): the limits are powers of two so that the arrays, doubled
 * from 256 entries, stop growing exactly at them, and the hash slots at
 * twice as many (half load). */
_Static_assert((CY_CALLSTACK_MAX_NODES & (CY_CALLSTACK_MAX_NODES - 1)) == 0 &&
		   (CY_CALLSTACK_MAX_PCS & (CY_CALLSTACK_MAX_PCS - 1)) == 0 &&
		   (CY_CALLSTACK_MAX_CALLS & (CY_CALLSTACK_MAX_CALLS - 1)) == 0 &&
		   (CY_CALLSTACK_MAX_ECALLS & (CY_CALLSTACK_MAX_ECALLS - 1)) == 0 &&
		   CY_CALLSTACK_MAX_ECALLS >= 256,
	       "the limits are powers of two of at least 256");

struct cy_callstack {
	cy_vm *vm;
	const struct symbol *funcs; /* the VM's sized symbols, by address */
	size_t n_funcs;

	/* each array is as long as its map's keys: node_map.n and so on */
	cy_stack_node *nodes; /* keys: parent + 1, frame id */
	struct index_map node_map;
	cy_pc_cost *pcs; /* keys: pc, 0 */
	struct index_map pc_map;
	uint32_t last_pc, last_pc_index; /* a loop retires one pc many times */
	cy_call_edge *edges;             /* keys: call pc, callee */
	struct index_map edge_map;

	struct frame *stack;
	size_t depth, cap_depth;

	enum action pending;
	uint32_t target, link;
	bool ecall_pending;
	uint32_t ecall_nr;

	char **ecall_names; /* "[ecall NAME]"; keys: ecall number, 0 */
	struct index_map ecall_map;

	/* what the tables' limits left out: the cycles of pcs past the limit */
	uint64_t lost_pc_cycles, lost_pc_instructions;

	/* the sorted copies the getters hand out */
	cy_pc_cost *pcs_out;
	cy_call_edge *edges_out;
	bool failed;

	/* the accounting interface: the clock up to which the top frame has
	 * been charged, the cycles of pseudo-frames charged since (carved out
	 * of the top frame's share), where the run started */
	bool reference;
	/* only the shadow stack, no tables: the fast pass of a chunked run
	 * (docs/scale-out.md) keeps it for the chunks' start */
	bool stack_only;
	/* subscribed to nothing: chunks are merged into it (callstack_merge) */
	bool detached;
	uint64_t last_cycles, last_instret, carved;
	uint32_t start_pc;
	/* the extra of the instruction that retired last (an ecall's own) */
	uint64_t extra_instret;
	int64_t extra;

	/* the clock at the start of each segment (paging models) */
	uint64_t *segments;
	size_t n_segments, cap_segments;
	bool segments_failed;
};

/* Frame identifiers in the tree's keys: a function index, or a kind. */
#define FRAME_KIND_SHIFT  28
#define FRAME_ID(kind, n) (((uint32_t)(kind) << FRAME_KIND_SHIFT) | (n))

static int grow(void **p, size_t *cap, size_t size)
{
	size_t n = *cap ? *cap * 2 : 256;
	void *q = realloc(*p, n * size);

	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

/* The index of ecall nr's "[ecall NAME]", made if new; INDEX_MAP_FULL, or
 * INDEX_MAP_NO_MEMORY. */
static char *ecall_label(const cy_vm *vm, uint32_t nr)
{
	const char *known = cy_vm_syscall_name(vm, nr);
	char buf[64];

	if (known)
		snprintf(buf, sizeof(buf), "[ecall %s]", known);
	else
		snprintf(buf, sizeof(buf), "[ecall %u]", (unsigned)nr);
	return strdup(buf);
}

static int64_t ecall_name(struct cy_callstack *cs, uint32_t nr)
{
	bool added;
	int64_t i = index_map_get(&cs->ecall_map, nr, 0, (void **)&cs->ecall_names,
				  sizeof(*cs->ecall_names), &added);

	if (i < 0 || !added)
		return i;
	if (!(cs->ecall_names[i] = ecall_label(cs->vm, nr)))
		return INDEX_MAP_NO_MEMORY; /* the profiler has failed: nothing reads it */
	return i;
}

/* The tree node for frame under parent (-1: outermost), made if new;
 * UINT32_MAX when out of memory. A new stack past the limit is charged to
 * its caller: the node returned is parent itself, as for calls past
 * MAX_DEPTH (so the pseudo-frames of a node charge the node); an outermost
 * one is charged to the first outermost frame of the run, node 0 (the
 * entry point, where the run started). */
static uint32_t node_child(struct cy_callstack *cs, int parent, cy_frame_kind kind, uint32_t n)
{
	uint32_t id = kind == CY_FRAME_FUNCTION ? n : FRAME_ID(kind, n);
	int64_t name = 0, i;
	bool added;

	if (cs->stack_only)
		return 0;
	if (kind == CY_FRAME_ECALL) {
		/* keyed by the name's index: the number may use the kind's bits */
		name = ecall_name(cs, n);
		if (name == INDEX_MAP_FULL) {
			if (index_map_first_full(&cs->ecall_map))
				vm_warn(
				    cs->vm,
				    "call-stack profile: more than %zu distinct ecall numbers; the "
				    "cycles of a new one are charged to its caller from here on",
				    cs->ecall_map.max);
			return parent >= 0 ? (uint32_t)parent : 0;
		}
		if (name < 0)
			goto out_failed;
		id = FRAME_ID(kind, (uint32_t)name);
	}
	i = index_map_get(&cs->node_map, (uint32_t)(parent + 1), id, (void **)&cs->nodes,
			  sizeof(*cs->nodes), &added);
	if (i == INDEX_MAP_FULL) {
		if (index_map_first_full(&cs->node_map))
			vm_warn(cs->vm,
				"call-stack profile: more than %zu distinct stacks; a new one is "
				"charged to its caller from here on",
				cs->node_map.max);
		return parent >= 0 ? (uint32_t)parent : 0;
	}
	if (i < 0)
		goto out_failed;
	if (!added)
		return (uint32_t)i;
	cy_stack_node *nd = &cs->nodes[i];
	memset(nd, 0, sizeof(*nd));
	nd->parent = parent;
	nd->depth = parent < 0 ? 0 : cs->nodes[parent].depth + 1;
	nd->kind = kind;
	switch (kind) {
	case CY_FRAME_FUNCTION:
		nd->name = cs->funcs[n].name;
		nd->addr = cs->funcs[n].addr;
		nd->size = cs->funcs[n].size;
		break;
	case CY_FRAME_UNKNOWN: nd->name = "[unknown]"; break;
	case CY_FRAME_ECALL:
		nd->addr = n;
		nd->name = cs->ecall_names[name];
		break;
	case CY_FRAME_PAGE_IN: nd->name = "[page-in]"; break;
	case CY_FRAME_PAGE_OUT: nd->name = "[page-out]"; break;
	case CY_FRAME_SEGMENT: nd->name = "[segment]"; break;
	}
	return (uint32_t)i;
out_failed:
	cs->failed = true;
	return UINT32_MAX;
}

/* The function that contains addr, NO_FUNC if none. */
static uint32_t func_containing(const struct cy_callstack *cs, uint32_t addr)
{
	size_t lo = 0, hi = cs->n_funcs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cs->funcs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr - cs->funcs[lo - 1].addr >= cs->funcs[lo - 1].size)
		return NO_FUNC;
	return (uint32_t)(lo - 1);
}

static bool in_func(const struct cy_callstack *cs, uint32_t func, uint32_t addr)
{
	return func != NO_FUNC && addr - cs->funcs[func].addr < cs->funcs[func].size;
}

static uint32_t frame_node(struct cy_callstack *cs, int parent, uint32_t func)
{
	return func == NO_FUNC ? node_child(cs, parent, CY_FRAME_UNKNOWN, 0)
			       : node_child(cs, parent, CY_FRAME_FUNCTION, func);
}

static int parent_node(const struct cy_callstack *cs, size_t depth)
{
	return depth ? (int)cs->stack[depth - 1].node : -1;
}

/* The edge from call_pc to callee, made if new (with no call yet);
 * UINT32_MAX when the table is full or out of memory. */
static uint32_t edge_get(struct cy_callstack *cs, uint32_t call_pc, uint32_t callee)
{
	bool added;
	int64_t e;

	if (cs->stack_only)
		return UINT32_MAX;
	e = index_map_get(&cs->edge_map, call_pc, callee, (void **)&cs->edges, sizeof(*cs->edges),
			  &added);
	if (e == INDEX_MAP_FULL) { /* the call has no edge: callgrind shows no calls= for it */
		if (index_map_first_full(&cs->edge_map))
			vm_warn(cs->vm,
				"call-stack profile: more than %zu distinct call sites; a new one "
				"gets no call edge from here on",
				cs->edge_map.max);
		return UINT32_MAX;
	}
	if (e < 0) {
		cs->failed = true;
		return UINT32_MAX;
	}
	if (added)
		cs->edges[e] = (cy_call_edge){ .call_pc = call_pc, .callee = callee };
	return (uint32_t)e;
}

static uint32_t callee_of(const struct cy_callstack *cs, uint32_t func)
{
	return func == NO_FUNC ? 0 : cs->funcs[func].addr;
}

static uint32_t edge_open(struct cy_callstack *cs, uint32_t call_pc, uint32_t func)
{
	uint32_t e = edge_get(cs, call_pc, callee_of(cs, func));

	if (e != UINT32_MAX)
		cs->edges[e].calls++;
	return e;
}

static void edge_close(struct cy_callstack *cs, const struct frame *f, uint64_t now, uint64_t ins)
{
	if (f->edge == UINT32_MAX)
		return;
	cs->edges[f->edge].cycles += now - f->entry_cycles;
	cs->edges[f->edge].instructions += ins - f->entry_instret;
}

static void push(struct cy_callstack *cs, uint32_t func, uint32_t ret, uint32_t call_pc,
		 uint64_t now, uint64_t ins)
{
	if (cs->depth == MAX_DEPTH)
		return;
	if (cs->depth == cs->cap_depth &&
	    grow((void **)&cs->stack, &cs->cap_depth, sizeof(*cs->stack)) != 0) {
		cs->failed = true;
		return;
	}
	struct frame *f = &cs->stack[cs->depth];
	f->node = frame_node(cs, parent_node(cs, cs->depth), func);
	f->func = func;
	f->ret = ret;
	f->edge = call_pc ? edge_open(cs, call_pc, func) : UINT32_MAX;
	/* a tail call from this frame keeps its call site only if it has an
	 * edge (the edge table may be full); the stack alone keeps it all */
	f->call_pc = f->edge != UINT32_MAX || cs->stack_only ? call_pc : 0;
	f->entry_cycles = now;
	f->entry_instret = ins;
	if (f->node != UINT32_MAX)
		cs->depth++;
}

static void pop_to(struct cy_callstack *cs, size_t depth, uint64_t now, uint64_t ins)
{
	while (cs->depth > depth)
		edge_close(cs, &cs->stack[--cs->depth], now, ins);
}

/* The top frame runs func from now on (a tail call, or code reached by a
 * jump): its caller and return address stay, its call site calls func. */
static void replace_top(struct cy_callstack *cs, uint32_t func, uint64_t now, uint64_t ins)
{
	struct frame *f = &cs->stack[cs->depth - 1];
	uint32_t call_pc = f->call_pc;
	uint32_t ret = f->ret;

	pop_to(cs, cs->depth - 1, now, ins);
	push(cs, func, ret, call_pc, now, ins);
}

/* Control went to target without a call or a return (or after one that
 * did not land where the stack expected). */
static void jump_to(struct cy_callstack *cs, uint32_t target, uint64_t now, uint64_t ins)
{
	uint32_t func;

	if (cs->depth && in_func(cs, cs->stack[cs->depth - 1].func, target))
		return;
	func = func_containing(cs, target);
	if (cs->depth == 0) {
		push(cs, func, 0, 0, now, ins);
		return;
	}
	if (func != NO_FUNC && cs->funcs[func].addr != target) {
		/* into the middle of a function: an outer frame's (longjmp)? */
		for (size_t k = cs->depth - 1; k-- > 0;)
			if (cs->stack[k].func == func) {
				pop_to(cs, k + 1, now, ins);
				return;
			}
	}
	replace_top(cs, func, now, ins);
}

static void return_to(struct cy_callstack *cs, uint32_t target, uint64_t now, uint64_t ins)
{
	for (size_t k = cs->depth; k-- > 0;)
		if (cs->stack[k].ret == target) {
			pop_to(cs, k, now, ins);
			jump_to(cs, target, now, ins);
			return;
		}
	/* a return no call on the stack made (longjmp's, or tracking lost) */
	if (cs->depth)
		pop_to(cs, cs->depth - 1, now, ins);
	jump_to(cs, target, now, ins);
}

static void call(struct cy_callstack *cs, uint32_t pc, uint32_t target, uint32_t ret, uint64_t now,
		 uint64_t ins)
{
	uint32_t func = func_containing(cs, target);

	if (func == NO_FUNC || cs->funcs[func].addr != target) {
		jump_to(cs, target, now, ins); /* not a function: a plain jump */
		return;
	}
	push(cs, func, ret, pc, now, ins);
}

static bool is_link(uint8_t r) { return r == LINK_RA || r == LINK_T0; }

/* What a jump or taken branch asks for, from its class and registers. */
static void on_jump(struct cy_callstack *cs, cy_vm *vm, cy_insn_class cls, uint8_t ev_rd,
		    uint8_t ev_rs1, uint32_t target)
{
	cs->target = target;
	if (cls != CY_CLASS_JUMP) {
		cs->pending = ACT_JUMP;
		return;
	}
	/* The hints of the RISC-V unprivileged specification (jal has no rs1) */
	bool rd = is_link(ev_rd), rs = is_link(ev_rs1);
	cs->link = rd ? cy_vm_reg(vm, ev_rd) : 0;
	if (rd && rs && ev_rd != ev_rs1)
		cs->pending = ACT_RETURN_CALL;
	else if (rd)
		cs->pending = ACT_CALL;
	else if (rs)
		cs->pending = ACT_RETURN;
	else
		cs->pending = ACT_JUMP;
}

/* Adds cycles and n retired instructions to pc's cost. */
static void pc_add(struct cy_callstack *cs, uint32_t pc, uint64_t cycles, uint64_t n)
{
	if (cs->stack_only)
		return;
	if (pc != cs->last_pc || cs->last_pc_index == UINT32_MAX) {
		bool added;
		int64_t i =
		    index_map_get(&cs->pc_map, pc, 0, (void **)&cs->pcs, sizeof(*cs->pcs), &added);
		if (i == INDEX_MAP_FULL) { /* the stacks have the cycles; the pcs only count them */
			if (index_map_first_full(&cs->pc_map))
				vm_warn(
				    cs->vm,
				    "call-stack profile: more than %zu distinct pcs; the cycles of "
				    "a new one are left out of the per-pc costs from here on",
				    cs->pc_map.max);
			cs->lost_pc_cycles += cycles;
			cs->lost_pc_instructions += n;
			cs->last_pc_index = UINT32_MAX;
			return;
		}
		if (i < 0) {
			cs->failed = true;
			return;
		}
		if (added)
			cs->pcs[i] = (cy_pc_cost){ .pc = pc };
		cs->last_pc = pc;
		cs->last_pc_index = (uint32_t)i;
	}
	cs->pcs[cs->last_pc_index].cycles += cycles;
	cs->pcs[cs->last_pc_index].instructions += n;
}

static void charge(struct cy_callstack *cs, uint32_t node, uint64_t cycles, uint64_t insns)
{
	if (node == UINT32_MAX || cs->stack_only)
		return;
	cs->nodes[node].self_cycles += cycles;
	cs->nodes[node].self_instructions += insns;
}

static void segment_add(struct cy_callstack *cs, uint64_t clock)
{
	if (cs->segments_failed || cs->stack_only)
		return;
	if (cs->n_segments == cs->cap_segments &&
	    grow((void **)&cs->segments, &cs->cap_segments, sizeof(*cs->segments)) != 0) {
		cs->segments_failed = true;
		return;
	}
	cs->segments[cs->n_segments++] = clock;
}

/* Charges an instruction's paging and segment cycles to the pseudo-frames
 * under node; returns how many cycles that was. */
static uint32_t charge_parts(struct cy_callstack *cs, uint32_t node, const cy_cost_parts *p)
{
	if (!p || !(p->page_in | p->page_out | p->segment))
		return 0;
	if (p->page_in)
		charge(cs, node_child(cs, (int)node, CY_FRAME_PAGE_IN, 0), p->page_in, 0);
	if (p->page_out)
		charge(cs, node_child(cs, (int)node, CY_FRAME_PAGE_OUT, 0), p->page_out, 0);
	if (p->segment)
		charge(cs, node_child(cs, (int)node, CY_FRAME_SEGMENT, 0), p->segment, 0);
	return p->page_in + p->page_out + p->segment;
}

/* Carries out what the jump that just retired at pc asked for. */
static void apply_pending(struct cy_callstack *cs, uint32_t pc, uint64_t now, uint64_t ins);

static void on_retire(struct cy_callstack *cs, const cy_event *ev)
{
	uint64_t now = ev->cycles, ins = ev->instret;
	uint32_t cost = ev->cost, node;
	const cy_cost_parts *p = ev->parts;

	if (p && p->segment_start)
		segment_add(cs, now - cost); /* the clock before it */
	if (cs->depth == 0)
		jump_to(cs, ev->pc, now - cost, ins - 1);
	if (cs->depth == 0 || cs->failed)
		return;
	node = cs->stack[cs->depth - 1].node;
	pc_add(cs, ev->pc, cost, 1);
	cost -= charge_parts(cs, node, p);
	if (cs->ecall_pending) {
		cs->ecall_pending = false;
		charge(cs, node_child(cs, (int)node, CY_FRAME_ECALL, cs->ecall_nr), cost, 1);
	} else {
		charge(cs, node, cost, 1);
	}
	apply_pending(cs, ev->pc, now, ins);
}

static void apply_pending(struct cy_callstack *cs, uint32_t pc, uint64_t now, uint64_t ins)
{
	switch (cs->pending) {
	case ACT_NONE: break;
	case ACT_JUMP: jump_to(cs, cs->target, now, ins); break;
	case ACT_CALL: call(cs, pc, cs->target, cs->link, now, ins); break;
	case ACT_RETURN: return_to(cs, cs->target, now, ins); break;
	case ACT_RETURN_CALL:
		/* a coroutine switch: leave the frame, then call */
		if (cs->depth)
			pop_to(cs, cs->depth - 1, now, ins);
		call(cs, pc, cs->target, cs->link, now, ins);
		break;
	}
	cs->pending = ACT_NONE;
}

static void on_event(void *ctx, cy_vm *vm, const cy_event *ev)
{
	struct cy_callstack *cs = ctx;

	switch (ev->kind) {
	case CY_EV_JUMP: on_jump(cs, vm, ev->cls, ev->rd, ev->rs1, ev->target); break;
	case CY_EV_ECALL:
		cs->ecall_pending = true;
		cs->ecall_nr = ev->addr;
		break;
	case CY_EV_RETIRE: on_retire(cs, ev); break;
	default: break;
	}
}

/* The accounting interface's side (core/account.h). */

/* Keeps the interpreter from reporting plain jumps that stay in the top
 * frame's function: jump_to would do nothing with them. */
static void update_context(struct cy_callstack *cs)
{
	uint32_t f = cs->depth ? cs->stack[cs->depth - 1].func : NO_FUNC;

	if (cs->detached)
		return;
	if (f == NO_FUNC || cs->failed)
		acct_set_context(cs->vm, 0, 0);
	else
		acct_set_context(cs->vm, cs->funcs[f].addr, cs->funcs[f].size);
}

/* The first frame, once an instruction has retired: the one at the pc the
 * run started from (as the first RETIRE would push it). */
static bool has_frame(struct cy_callstack *cs, uint64_t ins)
{
	if (cs->depth == 0 && !cs->failed && ins != cs->last_instret)
		jump_to(cs, cs->start_pc, cs->last_cycles, cs->last_instret);
	return cs->depth != 0 && !cs->failed;
}

/* Charges what retired since the last settle, up to (now, ins), to the top
 * frame, less the pseudo-frames' cycles already charged under it. */
static void settle(struct cy_callstack *cs, uint64_t now, uint64_t ins)
{
	if (!has_frame(cs, ins))
		return;
	charge(cs, cs->stack[cs->depth - 1].node, now - cs->last_cycles - cs->carved,
	       ins - cs->last_instret);
	cs->carved = 0;
	cs->last_cycles = now;
	cs->last_instret = ins;
}

static void acct_on_transfer(void *ctx, cy_vm *vm, const struct insn *in, uint32_t target,
			     uint64_t now, uint64_t ins)
{
	struct cy_callstack *cs = ctx;

	settle(cs, now, ins);
	if (cs->depth == 0 || cs->failed)
		return;
	on_jump(cs, vm, (cy_insn_class)insn_classes[in->op], in->rd == REG_SINK ? 0 : in->rd,
		in->rs1, target);
	apply_pending(cs, in->pc, now, ins);
	update_context(cs);
}

static void acct_on_ecall(void *ctx, cy_vm *vm, const struct insn *in, uint32_t nr, uint64_t now,
			  uint64_t ins)
{
	struct cy_callstack *cs = ctx;

	(void)vm;
	(void)in;
	settle(cs, now, ins);
	cs->ecall_nr = nr;
	update_context(cs);
}

/* The ecall's cycles go to its pseudo-frame. They are the clock's move
 * over it, which the ABI may have changed (as the per-instruction events
 * see it); its pc gets the static cost from the fold, an extra from the
 * extra event, and whatever else the clock says here. */
static void acct_on_ecall_retired(void *ctx, cy_vm *vm, const struct insn *in, uint64_t before,
				  uint64_t now, uint64_t ins)
{
	struct cy_callstack *cs = ctx;
	uint32_t cost = (uint32_t)(now - before);
	int64_t known = (int64_t)(in->after - in->before);

	(void)vm;
	if (has_frame(cs, ins)) {
		uint32_t node = cs->stack[cs->depth - 1].node;
		if (cs->extra_instret == ins)
			known += cs->extra;
		if ((int64_t)cost != known)
			pc_add(cs, in->pc, (uint64_t)((int64_t)cost - known), 0);
		charge(cs, node_child(cs, (int)node, CY_FRAME_ECALL, cs->ecall_nr),
		       cost - (uint32_t)cs->carved, 1);
	}
	cs->carved = 0;
	cs->last_cycles = now;
	cs->last_instret = ins;
	update_context(cs);
}

static void acct_on_extra(void *ctx, cy_vm *vm, const struct insn *in, int64_t extra,
			  const cy_cost_parts *p, uint64_t before, uint64_t now, uint64_t ins)
{
	struct cy_callstack *cs = ctx;

	(void)vm;
	(void)now;
	if (p && p->segment_start)
		segment_add(cs, before);
	if (!has_frame(cs, ins))
		return;
	pc_add(cs, in->pc, (uint64_t)extra, 0);
	cs->carved += charge_parts(cs, cs->stack[cs->depth - 1].node, p);
	cs->extra_instret = ins;
	cs->extra = extra;
	update_context(cs);
}

static void acct_on_partial(void *ctx, cy_vm *vm, const struct block *b, uint32_t retired,
			    uint64_t cycles, uint64_t ins, uint64_t now)
{
	struct cy_callstack *cs = ctx;

	(void)vm;
	settle(cs, cycles, ins);
	if (cs->depth && !cs->failed)
		for (uint32_t i = 0; i < retired; i++)
			if (!insn_is_pseudo(&b->insns[i]))
				pc_add(cs, b->insns[i].pc, b->insns[i].after - b->insns[i].before,
				       1);
	/* cycles of an instruction that did not retire belong to nobody */
	cs->last_cycles = now;
	update_context(cs);
}

/* A block's whole runs: each instruction's static cost, and the taken
 * branch's extra for the runs that took it. */
static void acct_on_fold_block(void *ctx, cy_vm *vm, struct block *b)
{
	struct cy_callstack *cs = ctx;

	(void)vm;
	if (!b->runs)
		return;
	/* a run of b retired instructions: the first frame exists */
	if (cs->depth == 0 && !cs->failed)
		jump_to(cs, cs->start_pc, cs->last_cycles, cs->last_instret);
	if (cs->depth && !cs->failed) {
		for (uint32_t i = 0; i < b->n; i++) {
			const struct insn *in = &b->insns[i];
			if (!insn_is_pseudo(in))
				pc_add(cs, in->pc, b->runs * (in->after - in->before), b->runs);
		}
		const struct insn *last = &b->insns[b->n - 1];
		if (b->taken && insn_classes[last->op] == CY_CLASS_BRANCH)
			pc_add(cs, last->pc, b->taken * cs->vm->cost.taken_extra, 0);
	}
}

static const struct acct_ops callstack_ops = {
	.transfer = acct_on_transfer,
	.ecall = acct_on_ecall,
	.ecall_retired = acct_on_ecall_retired,
	.extra = acct_on_extra,
	.partial = acct_on_partial,
	.fold_block = acct_on_fold_block,
};

/* Brings the tables up to the VM's clock: before anything reads them. */
static void profile_sync(struct cy_callstack *cs)
{
	if (cs->reference || cs->detached)
		return;
	cache_fold(cs->vm);
	settle(cs, cs->vm->cycles, cs->vm->instret);
}

/* The run's root frame when the entry point is a label with no size (the
 * zkVM SDKs' _start, written in global assembly): a function reaching to
 * the next symbol, or to the end of the segment holding it, unless a
 * sized function already covers the entry. The ELF's entry, not the pc:
 * a chunk's profiler is made where the chunk starts. */
static bool entry_label(const cy_vm *vm, size_t i, struct symbol *out)
{
	const struct symbol *s = &vm->syms.syms[i];
	uint64_t end = 0;

	if (s->addr != vm->entry || s->size || !*s->name)
		return false;
	for (size_t k = 0; k < vm->syms.n; k++) {
		const struct symbol *o = &vm->syms.syms[k];
		if (o->size && vm->entry - o->addr < o->size)
			return false;
		if (k > i && o->addr > s->addr && !end)
			end = o->addr;
	}
	for (int r = 0; !end && r < vm->mem.n_regions; r++)
		if (vm->mem.regions[r].start <= s->addr && s->addr < vm->mem.regions[r].end)
			end = vm->mem.regions[r].end;
	if (!end || end - s->addr > UINT32_MAX)
		return false;
	*out = *s;
	out->size = (uint32_t)(end - s->addr);
	return true;
}

/* A profiler for vm: subscribed as a whole profiler, as the shadow stack
 * alone (the fast pass of a chunked run), or not at all (the one chunks are
 * merged into). */
static int callstack_new(cy_vm *vm, cy_callstack_mode mode, cy_callstack **out)
{
	struct cy_callstack *cs = calloc(1, sizeof(*cs));
	struct symbol *funcs;
	int rc = -ENOMEM;

	*out = NULL;
	if (!cs)
		return -ENOMEM;
	cs->vm = vm;
	cs->last_pc_index = UINT32_MAX;
	/* functions are the sized symbols: labels do not start calls; but
	 * for the entry point's, below */
	funcs = malloc((vm->syms.n + 1) * sizeof(*funcs));
	if (!funcs)
		goto out_free;
	for (size_t i = 0; i < vm->syms.n; i++) {
		if (vm->syms.syms[i].size)
			funcs[cs->n_funcs++] = vm->syms.syms[i];
		else if (entry_label(vm, i, &funcs[cs->n_funcs]))
			cs->n_funcs++;
	}
	cs->funcs = funcs;
	cs->node_map.max = CY_CALLSTACK_MAX_NODES;
	cs->pc_map.max = CY_CALLSTACK_MAX_PCS;
	cs->edge_map.max = CY_CALLSTACK_MAX_CALLS;
	cs->ecall_map.max = CY_CALLSTACK_MAX_ECALLS;
	if (index_map_rehash(&cs->node_map, 1024) != 0 ||
	    index_map_rehash(&cs->pc_map, 1024) != 0 ||
	    index_map_rehash(&cs->edge_map, 1024) != 0 || index_map_rehash(&cs->ecall_map, 64) != 0)
		goto out_free;
	cs->reference = vm->opts.reference && mode == CY_CALLSTACK_WHOLE;
	cs->stack_only = mode == CY_CALLSTACK_STACK_ONLY;
	cs->detached = mode == CY_CALLSTACK_DETACHED;
	cs->start_pc = vm->pc;
	cs->last_cycles = vm->cycles;
	cs->last_instret = vm->instret;
	if (mode == CY_CALLSTACK_DETACHED)
		rc = 0;
	else if (cs->reference)
		rc = cy_vm_add_observer(
		    vm, CY_EV_BIT(CY_EV_JUMP) | CY_EV_BIT(CY_EV_RETIRE) | CY_EV_BIT(CY_EV_ECALL),
		    on_event, cs);
	else if (cs->stack_only)
		rc = acct_subscribe(vm, ACCT_TRANSFER, &callstack_ops, cs);
	else
		rc = acct_subscribe(
		    vm, ACCT_TRANSFER | ACCT_ECALL | ACCT_EXTRA | ACCT_PARTIAL | ACCT_FOLD,
		    &callstack_ops, cs);
	if (rc != 0)
		goto out_free;
	*out = cs;
	return 0;
out_free:
	cy_callstack_free(cs);
	return rc;
}

int cy_callstack_attach(cy_vm *vm, cy_callstack **out)
{
	return callstack_new(vm, CY_CALLSTACK_WHOLE, out);
}

int cy_callstack_attach_mode(cy_vm *vm, cy_callstack_mode mode, cy_callstack **out)
{
	if ((unsigned)mode > CY_CALLSTACK_DETACHED)
		return -EINVAL;
	return callstack_new(vm, mode, out);
}

void cy_callstack_free(cy_callstack *cs)
{
	if (!cs)
		return;
	for (size_t i = 0; i < cs->ecall_map.n; i++)
		free(cs->ecall_names[i]);
	free(cs->ecall_names);
	index_map_free(&cs->ecall_map);
	free((void *)cs->funcs);
	free(cs->nodes);
	index_map_free(&cs->node_map);
	free(cs->pcs);
	index_map_free(&cs->pc_map);
	free(cs->pcs_out);
	free(cs->edges);
	index_map_free(&cs->edge_map);
	free(cs->edges_out);
	free(cs->stack);
	free(cs->segments);
	free(cs);
}

void callstack_set_limits(cy_callstack *cs, size_t nodes, size_t pcs, size_t calls)
{
	cs->node_map.max = nodes;
	cs->pc_map.max = pcs;
	cs->edge_map.max = calls;
}

bool cy_callstack_truncated(cy_callstack *cs, cy_callstack_limits *out)
{
	profile_sync(cs);
	*out = (cy_callstack_limits){ .nodes_full = cs->node_map.full,
				      .pcs_full = cs->pc_map.full,
				      .calls_full = cs->edge_map.full,
				      .ecalls_full = cs->ecall_map.full,
				      .lost_pc_cycles = cs->lost_pc_cycles,
				      .lost_pc_instructions = cs->lost_pc_instructions };
	return out->nodes_full || out->pcs_full || out->calls_full || out->ecalls_full;
}

const cy_stack_node *cy_callstack_nodes(cy_callstack *cs, size_t *n)
{
	profile_sync(cs);
	*n = 0;
	if (cs->failed)
		return NULL;
	for (size_t i = 0; i < cs->node_map.n; i++) {
		cs->nodes[i].cycles = cs->nodes[i].self_cycles;
		cs->nodes[i].instructions = cs->nodes[i].self_instructions;
	}
	/* children come after their parents: one backward pass sums them */
	for (size_t i = cs->node_map.n; i-- > 0;)
		if (cs->nodes[i].parent >= 0) {
			cs->nodes[cs->nodes[i].parent].cycles += cs->nodes[i].cycles;
			cs->nodes[cs->nodes[i].parent].instructions += cs->nodes[i].instructions;
		}
	*n = cs->node_map.n;
	return cs->nodes ? cs->nodes : (const cy_stack_node *)"";
}

static int by_pc(const void *a, const void *b)
{
	const cy_pc_cost *x = a, *y = b;
	return (x->pc > y->pc) - (x->pc < y->pc);
}

const cy_pc_cost *cy_callstack_pcs(cy_callstack *cs, size_t *n)
{
	profile_sync(cs);
	*n = 0;
	free(cs->pcs_out);
	cs->pcs_out = NULL;
	if (cs->failed || !(cs->pcs_out = malloc((cs->pc_map.n + 1) * sizeof(*cs->pcs_out))))
		return NULL;
	if (cs->pc_map.n) /* no pc yet (a fault at the first instruction): cs->pcs is NULL */
		memcpy(cs->pcs_out, cs->pcs, cs->pc_map.n * sizeof(*cs->pcs));
	qsort(cs->pcs_out, cs->pc_map.n, sizeof(*cs->pcs_out), by_pc);
	*n = cs->pc_map.n;
	return cs->pcs_out;
}

static int by_site(const void *a, const void *b)
{
	const cy_call_edge *x = a, *y = b;
	if (x->call_pc != y->call_pc)
		return x->call_pc < y->call_pc ? -1 : 1;
	return (x->callee > y->callee) - (x->callee < y->callee);
}

const cy_call_edge *cy_callstack_calls(cy_callstack *cs, size_t *n)
{
	uint64_t now = cy_vm_cycles(cs->vm), ins = cy_vm_instret(cs->vm);

	profile_sync(cs);
	*n = 0;
	free(cs->edges_out);
	cs->edges_out = NULL;
	if (cs->failed || !(cs->edges_out = malloc((cs->edge_map.n + 1) * sizeof(*cs->edges_out))))
		return NULL;
	if (cs->edge_map.n)
		memcpy(cs->edges_out, cs->edges, cs->edge_map.n * sizeof(*cs->edges));
	for (size_t k = 0; k < cs->depth; k++) {
		const struct frame *f = &cs->stack[k];
		if (f->edge == UINT32_MAX)
			continue;
		cs->edges_out[f->edge].cycles += now - f->entry_cycles;
		cs->edges_out[f->edge].instructions += ins - f->entry_instret;
	}
	qsort(cs->edges_out, cs->edge_map.n, sizeof(*cs->edges_out), by_site);
	*n = cs->edge_map.n;
	return cs->edges_out;
}

const uint64_t *cy_callstack_segments(cy_callstack *cs, size_t *n)
{
	static const uint64_t none[1];

	*n = cs->segments_failed ? 0 : cs->n_segments;
	if (cs->segments_failed)
		return NULL;
	return cs->segments ? cs->segments : none;
}

/* Checkpoints and chunks (docs/scale-out.md). The state holds the shadow
 * stack by function, and, unless it is the stack alone, the tables by
 * their keys; the frames' nodes and edges are looked up again along the
 * stack when it is restored. A stack alone restored into a whole profiler
 * is the start of a chunk: the nodes of its frames are made afresh (with
 * no cycles), and the chunk's results are merged into the whole run's by
 * callstack_merge, which makes the same nodes in the same order as one
 * profiler over the whole run would. */
static void frame_io(struct sio *io, struct frame *f)
{
	sio_u32(io, &f->func);
	sio_u32(io, &f->ret);
	sio_u32(io, &f->call_pc);
	sio_u64(io, &f->entry_cycles);
	sio_u64(io, &f->entry_instret);
}

/* A node restored from its key: its parent, kind, name and symbol. */
static void node_from_key(struct sio *io, struct cy_callstack *cs, size_t i)
{
	const struct map_key *k = &cs->node_map.keys[i];
	cy_stack_node *nd = &cs->nodes[i];
	int64_t parent = (int64_t)k->a - 1;
	uint32_t kind = k->b >> FRAME_KIND_SHIFT, n = k->b & ((1u << FRAME_KIND_SHIFT) - 1);

	if (parent >= (int64_t)i) {
		sio_fail(io, "stack node %zu comes before its caller", i);
		return;
	}
	nd->parent = (int)parent;
	nd->depth = parent < 0 ? 0 : cs->nodes[parent].depth + 1;
	nd->kind = (cy_frame_kind)kind;
	nd->addr = nd->size = 0;
	switch (kind) {
	case CY_FRAME_FUNCTION:
		if (n >= cs->n_funcs)
			break;
		nd->name = cs->funcs[n].name;
		nd->addr = cs->funcs[n].addr;
		nd->size = cs->funcs[n].size;
		return;
	case CY_FRAME_ECALL:
		if (n >= cs->ecall_map.n)
			break;
		nd->name = cs->ecall_names[n];
		nd->addr = cs->ecall_map.keys[n].a;
		return;
	case CY_FRAME_UNKNOWN: nd->name = "[unknown]"; return;
	case CY_FRAME_PAGE_IN: nd->name = "[page-in]"; return;
	case CY_FRAME_PAGE_OUT: nd->name = "[page-out]"; return;
	case CY_FRAME_SEGMENT: nd->name = "[segment]"; return;
	default: break;
	}
	nd->name = "[unknown]";
	sio_fail(io, "stack node %zu is of kind %u, number %u, which this program has not", i, kind,
		 n);
}

static void tables_io(struct sio *io, struct cy_callstack *cs)
{
	if (io->load) {
		for (size_t i = 0; i < cs->ecall_map.n; i++)
			free(cs->ecall_names[i]);
		cs->ecall_map.n = 0;
	}
	index_map_state_io(io, &cs->ecall_map, (void **)&cs->ecall_names, sizeof(*cs->ecall_names));
	for (size_t i = 0; io->load && i < cs->ecall_map.n && sio_ok(io); i++)
		if (!(cs->ecall_names[i] = ecall_label(cs->vm, cs->ecall_map.keys[i].a)))
			sio_fail(io, "out of host memory");
	if (io->load && !sio_ok(io)) {
		for (size_t i = 0; i < cs->ecall_map.n; i++)
			free(cs->ecall_names[i]);
		cs->ecall_map.n = 0;
	}
	index_map_state_io(io, &cs->node_map, (void **)&cs->nodes, sizeof(*cs->nodes));
	for (size_t i = 0; i < cs->node_map.n && sio_ok(io); i++) {
		if (io->load)
			node_from_key(io, cs, i);
		sio_u64(io, &cs->nodes[i].self_cycles);
		sio_u64(io, &cs->nodes[i].self_instructions);
	}
	index_map_state_io(io, &cs->pc_map, (void **)&cs->pcs, sizeof(*cs->pcs));
	for (size_t i = 0; i < cs->pc_map.n && sio_ok(io); i++) {
		cs->pcs[i].pc = cs->pc_map.keys[i].a;
		sio_u64(io, &cs->pcs[i].cycles);
		sio_u64(io, &cs->pcs[i].instructions);
	}
	index_map_state_io(io, &cs->edge_map, (void **)&cs->edges, sizeof(*cs->edges));
	for (size_t i = 0; i < cs->edge_map.n && sio_ok(io); i++) {
		cs->edges[i].call_pc = cs->edge_map.keys[i].a;
		cs->edges[i].callee = cs->edge_map.keys[i].b;
		sio_u64(io, &cs->edges[i].calls);
		sio_u64(io, &cs->edges[i].cycles);
		sio_u64(io, &cs->edges[i].instructions);
	}
	sio_u64(io, &cs->lost_pc_cycles);
	sio_u64(io, &cs->lost_pc_instructions);
	sio_bool(io, &cs->failed);
	sio_count(io, &cs->n_segments, SIZE_MAX, 8, "segment starts");
	if (io->load && sio_alloc(io, (void **)&cs->segments, cs->n_segments, 8))
		cs->cap_segments = cs->n_segments + 1;
	if (cs->n_segments)
		sio_raw(io, cs->segments, cs->n_segments * 8);
	sio_bool(io, &cs->segments_failed);
	if (io->load && !sio_ok(io)) /* an empty profiler is one the VM may go on with */
		cs->node_map.n = cs->pc_map.n = cs->edge_map.n = cs->n_segments = 0;
}

/* The restored stack's nodes and edges, from its functions and call sites. */
static void stack_link(struct sio *io, struct cy_callstack *cs)
{
	for (size_t k = 0; k < cs->depth && sio_ok(io); k++) {
		struct frame *f = &cs->stack[k];
		if (f->func != NO_FUNC && f->func >= cs->n_funcs) {
			sio_fail(io, "frame %zu runs function %u of %zu", k, f->func, cs->n_funcs);
			break;
		}
		f->node = frame_node(cs, parent_node(cs, k), f->func);
		f->edge =
		    f->call_pc ? edge_get(cs, f->call_pc, callee_of(cs, f->func)) : UINT32_MAX;
		if (f->node == UINT32_MAX)
			sio_fail(io, "out of host memory");
	}
	if (!sio_ok(io))
		cs->depth = 0;
}

int callstack_state_io(struct sio *io, struct cy_callstack *cs)
{
	bool stack_only = cs->stack_only;
	int pending = cs->pending;
	size_t depth = cs->depth;

	sio_tag(io, "CSTK");
	if (!io->load)
		profile_sync(cs); /* every cycle charged, every block's runs counted */
	sio_bool(io, &stack_only);
	sio_u32(io, &cs->start_pc);
	sio_int(io, &pending, ACT_NONE, ACT_RETURN_CALL, "a pending jump");
	cs->pending = (enum action)pending;
	sio_u32(io, &cs->target);
	sio_u32(io, &cs->link);
	sio_bool(io, &cs->ecall_pending);
	sio_u32(io, &cs->ecall_nr);
	sio_u64(io, &cs->extra_instret);
	sio_i64(io, &cs->extra);
	if (!stack_only)
		tables_io(io, cs);
	sio_count(io, &depth, MAX_DEPTH, 8, "frames");
	if (io->load && sio_ok(io)) {
		cs->depth = 0;
		if (depth > cs->cap_depth &&
		    !sio_alloc(io, (void **)&cs->stack, depth, sizeof(*cs->stack)))
			return io->err;
		if (depth > cs->cap_depth)
			cs->cap_depth = depth + 1;
	}
	for (size_t k = 0; k < depth && sio_ok(io); k++)
		frame_io(io, &cs->stack[k]);
	if (!io->load)
		return io->err;
	cs->depth = depth;
	stack_link(io, cs);
	/* charged up to the clock the state was saved at; a stack alone was
	 * not charged at all: the chunk it starts is charged from its start */
	cs->last_cycles = cs->vm->cycles;
	cs->last_instret = cs->vm->instret;
	cs->carved = 0;
	cs->last_pc_index = UINT32_MAX;
	update_context(cs);
	return io->err;
}

int callstack_merge(struct cy_callstack *acc, struct cy_callstack *chunk)
{
	uint32_t *map = malloc((chunk->node_map.n + 1) * sizeof(*map));

	if (!map)
		return -ENOMEM;
	for (size_t i = 0; i < chunk->node_map.n; i++) {
		const cy_stack_node *nd = &chunk->nodes[i];
		uint32_t n = nd->kind == CY_FRAME_FUNCTION ? chunk->node_map.keys[i].b
			     : nd->kind == CY_FRAME_ECALL  ? nd->addr
							   : 0;
		map[i] = node_child(acc, nd->parent < 0 ? -1 : (int)map[nd->parent], nd->kind, n);
		if (map[i] == UINT32_MAX) {
			free(map);
			return -ENOMEM;
		}
		charge(acc, map[i], nd->self_cycles, nd->self_instructions);
	}
	for (size_t i = 0; i < chunk->pc_map.n; i++)
		pc_add(acc, chunk->pcs[i].pc, chunk->pcs[i].cycles, chunk->pcs[i].instructions);
	acc->lost_pc_cycles += chunk->lost_pc_cycles;
	acc->lost_pc_instructions += chunk->lost_pc_instructions;
	for (size_t i = 0; i < chunk->edge_map.n; i++) {
		const cy_call_edge *e = &chunk->edges[i];
		uint32_t g = edge_get(acc, e->call_pc, e->callee);
		if (g == UINT32_MAX)
			continue;
		acc->edges[g].calls += e->calls;
		acc->edges[g].cycles += e->cycles;
		acc->edges[g].instructions += e->instructions;
	}
	for (size_t i = 0; i < chunk->n_segments; i++)
		segment_add(acc, chunk->segments[i]);
	acc->segments_failed |= chunk->segments_failed;
	acc->failed |= chunk->failed;
	/* the stack as the chunk left it, in the whole run's nodes */
	acc->depth = 0;
	for (size_t k = 0; k < chunk->depth; k++) {
		if (acc->depth == acc->cap_depth &&
		    grow((void **)&acc->stack, &acc->cap_depth, sizeof(*acc->stack)) != 0) {
			free(map);
			return -ENOMEM;
		}
		struct frame *f = &acc->stack[acc->depth++];
		*f = chunk->stack[k];
		f->node = map[f->node];
		f->edge =
		    f->call_pc ? edge_get(acc, f->call_pc, callee_of(acc, f->func)) : UINT32_MAX;
	}
	free(map);
	acc->start_pc = chunk->start_pc;
	acc->last_cycles = chunk->last_cycles;
	acc->last_instret = chunk->last_instret;
	acc->carved = chunk->carved;
	acc->pending = chunk->pending;
	acc->target = chunk->target;
	acc->link = chunk->link;
	acc->ecall_pending = chunk->ecall_pending;
	acc->ecall_nr = chunk->ecall_nr;
	acc->extra_instret = chunk->extra_instret;
	acc->extra = chunk->extra;
	return 0;
}

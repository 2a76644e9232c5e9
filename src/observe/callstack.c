/* callstack.c - the call-stack profiler: follows calls and returns from the
 * RISC-V return-address hints and charges every retired cycle to the
 * current stack, aggregated in a tree of distinct stacks.
 *
 * It runs on the accounting interface (core/account.h): the cycles and
 * instructions between two context changes go to the top frame at once,
 * from the clock; per-pc costs are the blocks' run counts times their
 * instructions' static costs, plus the extras reported when they occur.
 * Per-pc costs are kept per stack (node, pc): a function's blocks run on
 * one stack at a time, so their counts are handed to that stack (the
 * function's owner) before they run on another (claim). With
 * opts.reference it runs on every instruction's events instead (the
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
	uint32_t call_pc; /* the call that made it, 0 if none */
	uint64_t entry_cycles, entry_instret;
};

/* A frame's node and call edge as push found them in the maps, kept by
 * the frame's key (its parent's node, function, site and call), so that a
 * loop calling a function, or calling it from a few sites in turn, takes
 * them without the maps. The maps never lose a key, so the answer stays
 * right until the tables are replaced (a restored state). */
struct site_memo {
	uint32_t parent, func, site, call_pc;
	uint32_t node, edge;
	bool valid;
};

#define SITE_MEMO 1024 /* entries, a power of two */

/* A decoded block the profiler has heard of (acct_decoded), in the order
 * they were decoded, which is their order in the cache's arena: how many
 * of its runs have been handed to a stack already. */
struct known_block {
	const struct block *b;
	uint32_t func;        /* the function its start pc is in (n_funcs: none) */
	uint32_t next;        /* the next known block of that function; UINT32_MAX ends */
	uint32_t pos;         /* its place among that function's known blocks */
	uint64_t runs, taken; /* counted so far */
};

/* Counts handed to a stack but not yet spread over its pcs (deferred
 * folds): a hand-over adds a block's new runs here, one add per block, and
 * fold_flush multiplies them out into the (node, pc) table before anything
 * reads it. A block's pairs are made in the table when it is first handed
 * to the stack, as an immediate fold would make them, so the table's order,
 * its limits and their warnings come out the same. */
struct fold_pend {
	uint64_t runs, taken;
	uint32_t at; /* its pcs in cs->fold_costs; NO_PEND: no pairs made yet */
	uint16_t n;  /* how many */
	bool branch; /* the last of them closes it: a taken run adds taken_extra */
};

/* A pc's pair in the (node, pc) table, and its cycles per run. */
struct fold_cost {
	uint32_t index, cycles;
};

/* The deferred folds of one stack node and one function (slot): its known
 * blocks' fold_pend, by their pos, in cs->fold_pends[at .. at + n). */
struct fold_group {
	uint32_t slot, next; /* the node's next group; UINT32_MAX ends */
	uint32_t at, n;
};

#define NO_PEND UINT32_MAX

/* entries of the cache in front of func_containing (a power of two) */
#define FUNC_CACHE 256

#define NO_NODE  UINT32_MAX
#define ANY_NODE (UINT32_MAX - 1) /* a pc's cost on every stack (per_pc) */

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
	cy_stack_node *nodes; /* keys: parent + 1, frame id, call pc */
	struct index_map node_map;
	cy_node_pc_cost *pcs; /* keys: pc, node */
	struct index_map pc_map;
	/* a loop retires one pc many times */
	uint32_t last_pc, last_pc_node, last_pc_index;
	cy_call_edge *edges; /* keys: call pc, callee */
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
	/* the (node, pc) table reached its limit: it became a table of pcs
	 * (node ANY_NODE), which is what every run past the limit ends with */
	bool per_pc;

	/* the sorted copies the getters hand out */
	cy_pc_cost *pcs_out;
	cy_node_pc_cost *node_pcs_out;
	cy_call_edge *edges_out;
	bool failed;

	/* Whose the blocks' run counts are (the accounting interface): per
	 * function (n_funcs + 1 of them, the last for code outside every
	 * function), the node its blocks' counts not yet handed out belong
	 * to; valid when owner_epoch says the current epoch, else every
	 * function's owner is default_owner (after a trap, for example, any
	 * code may have run on the stack then on top). */
	uint32_t *owner;
	uint32_t *owner_epoch, epoch, default_owner;
	/* the functions whose code lies in another's range (overlapping
	 * symbols: libgcc's __riscv_save_N share one body), which a jump
	 * inside that range reaches unreported: claimed with it. Function f's
	 * are inner[inner_at[f] .. inner_at[f + 1]). */
	uint32_t *inner, *inner_at;
	/* how many frames of each function the stack holds (n_funcs + 1) */
	uint32_t *on_stack;
	/* the known blocks of the cache's current generation, and each
	 * function's first one (valid when head_gen is that generation + 1) */
	struct known_block *known;
	size_t n_known, cap_known;
	uint32_t *head, *head_gen, *n_head, generation;
	struct site_memo site_memo[SITE_MEMO];
	/* the last answers of func_containing, by address (key: address + 2^32) */
	struct {
		uint64_t key;
		uint32_t func;
	} func_cache[FUNC_CACHE];

	/* the deferred folds (struct fold_pend), of the known blocks only:
	 * emptied with them. node_fold[node] is the node's first group when
	 * node_fold_gen[node] is fold_gen. */
	struct fold_group *fold_groups;
	size_t n_fold_groups, cap_fold_groups;
	struct fold_pend *fold_pends;
	size_t n_fold_pends, cap_fold_pends;
	struct fold_cost *fold_costs;
	size_t n_fold_costs, cap_fold_costs;
	uint32_t *node_fold, *node_fold_gen, fold_gen;
	size_t cap_node_fold;

	/* the longest calls (cy_callstack_call_spans); none when !keep_spans */
	cy_call_span *spans, *spans_out;
	size_t n_spans, cap_spans;
	uint64_t span_threshold;
	bool keep_spans;

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
static uint32_t node_child(struct cy_callstack *cs, int parent, cy_frame_kind kind, uint32_t n,
			   uint32_t site, uint32_t call_pc)
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
	i = index_map_get3(&cs->node_map, (uint32_t)(parent + 1), id, site, (void **)&cs->nodes,
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
	nd->call_pc = call_pc;
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
	case CY_FRAME_INLINED: break; /* never made here */
	}
	return (uint32_t)i;
out_failed:
	cs->failed = true;
	return UINT32_MAX;
}

/* The function that contains addr, NO_FUNC if none: the functions never
 * change, so an answer is kept (a call site calls the same function again
 * and again). */
static uint32_t func_containing(struct cy_callstack *cs, uint32_t addr)
{
	size_t lo = 0, hi = cs->n_funcs;
	uint32_t at = (addr >> 1) & (FUNC_CACHE - 1), f;

	if (cs->func_cache[at].key == ((uint64_t)1 << 32 | addr))
		return cs->func_cache[at].func;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cs->funcs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr - cs->funcs[lo - 1].addr >= cs->funcs[lo - 1].size)
		f = NO_FUNC;
	else
		f = (uint32_t)(lo - 1);
	cs->func_cache[at].key = (uint64_t)1 << 32 | addr;
	cs->func_cache[at].func = f;
	return f;
}

static bool in_func(const struct cy_callstack *cs, uint32_t func, uint32_t addr)
{
	return func != NO_FUNC && addr - cs->funcs[func].addr < cs->funcs[func].size;
}

/* A frame's node: one per call site, but a function that is already on
 * the stack (recursion) has one for all its call sites there (site
 * RECURSIVE_SITE, the first call's call_pc), or a recursion from two call
 * sites would make 2^depth nodes. */
#define RECURSIVE_SITE 1u /* no call is at an odd address */

static uint32_t frame_site(const struct cy_callstack *cs, uint32_t func, uint32_t call_pc)
{
	uint32_t slot = func == NO_FUNC ? (uint32_t)cs->n_funcs : func;

	return call_pc && cs->on_stack[slot] ? RECURSIVE_SITE : call_pc;
}

static uint32_t frame_node(struct cy_callstack *cs, int parent, uint32_t func, uint32_t site,
			   uint32_t call_pc)
{
	return func == NO_FUNC ? node_child(cs, parent, CY_FRAME_UNKNOWN, 0, site, call_pc)
			       : node_child(cs, parent, CY_FRAME_FUNCTION, func, site, call_pc);
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
	uint32_t parent = (uint32_t)parent_node(cs, cs->depth);
	uint32_t site = frame_site(cs, func, call_pc);
	struct site_memo *m =
	    &cs->site_memo[((parent * 0x9e3779b1u) ^ (call_pc >> 1)) & (SITE_MEMO - 1)];
	if (m->valid && m->parent == parent && m->call_pc == call_pc && m->func == func &&
	    m->site == site) {
		f->node = m->node;
		f->edge = m->edge;
		if (f->edge != UINT32_MAX)
			cs->edges[f->edge].calls++;
	} else {
		f->node = frame_node(cs, (int)parent, func, site, call_pc);
		f->edge = call_pc ? edge_open(cs, call_pc, func) : UINT32_MAX;
		*m = (struct site_memo){ .parent = parent,
					 .func = func,
					 .site = site,
					 .call_pc = call_pc,
					 .node = f->node,
					 .edge = f->edge,
					 .valid = f->node != UINT32_MAX && !cs->failed };
	}
	f->func = func;
	f->call_pc = call_pc;
	f->ret = ret;
	f->entry_cycles = now;
	f->entry_instret = ins;
	if (f->node != UINT32_MAX) {
		cs->depth++;
		cs->on_stack[func == NO_FUNC ? cs->n_funcs : func]++;
	}
}

/* Keeps the call of node from start to end if it is one of the longest. */
static void span_add(struct cy_callstack *cs, uint32_t node, uint64_t start, uint64_t end)
{
	if (end - start < cs->span_threshold || cs->failed || cs->stack_only || !cs->keep_spans)
		return;
	while (cs->n_spans == CY_CALLSTACK_MAX_SPANS) { /* keep the longer half or more */
		size_t k = 0;
		cs->span_threshold *= 2;
		for (size_t i = 0; i < cs->n_spans; i++)
			if (cs->spans[i].end - cs->spans[i].start >= cs->span_threshold)
				cs->spans[k++] = cs->spans[i];
		cs->n_spans = k;
		if (end - start < cs->span_threshold)
			return;
	}
	if (cs->n_spans == cs->cap_spans &&
	    grow((void **)&cs->spans, &cs->cap_spans, sizeof(*cs->spans)) != 0) {
		cs->failed = true;
		return;
	}
	cs->spans[cs->n_spans++] = (cy_call_span){ .node = node, .start = start, .end = end };
}

static void pop_to(struct cy_callstack *cs, size_t depth, uint64_t now, uint64_t ins)
{
	while (cs->depth > depth) {
		const struct frame *f = &cs->stack[--cs->depth];
		cs->on_stack[f->func == NO_FUNC ? cs->n_funcs : f->func]--;
		edge_close(cs, f, now, ins);
		span_add(cs, f->node, f->entry_cycles, now);
	}
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

static int by_pc_node(const void *a, const void *b);

/* Spreads the deferred folds over their pcs: before anything reads the
 * (node, pc) table, and before its pairs move (to_per_pc). */
static void fold_flush(struct cy_callstack *cs)
{
	for (size_t i = 0; i < cs->n_fold_pends; i++) {
		struct fold_pend *p = &cs->fold_pends[i];
		if (p->at == NO_PEND || !(p->runs | p->taken))
			continue;
		for (uint32_t j = 0; j < p->n; j++) {
			const struct fold_cost *c = &cs->fold_costs[p->at + j];
			cs->pcs[c->index].cycles += p->runs * c->cycles;
			cs->pcs[c->index].instructions += p->runs;
		}
		if (p->branch)
			cs->pcs[cs->fold_costs[p->at + p->n - 1].index].cycles +=
			    p->taken * cs->vm->cost.taken_extra;
		p->runs = p->taken = 0;
	}
}

/* Forgets the deferred folds (flushed, or their table replaced). */
static void fold_clear(struct cy_callstack *cs)
{
	cs->n_fold_groups = cs->n_fold_pends = cs->n_fold_costs = 0;
	if (++cs->fold_gen == 0) { /* wrapped: no node's group may look current */
		if (cs->node_fold_gen)
			memset(cs->node_fold_gen, 0,
			       cs->cap_node_fold * sizeof(*cs->node_fold_gen));
		cs->fold_gen = 1;
	}
}

/* The (node, pc) table is full: its costs become per pc, for good. Every
 * run past the limit ends so, whatever order the pairs came in (the
 * reference engine's and the interpreter's differ), and its pcs fit, as
 * there are no more of them than pairs. */
static void to_per_pc(struct cy_callstack *cs)
{
	size_t n = cs->pc_map.n, k = 0;
	bool added;

	vm_warn(cs->vm,
		"call-stack profile: more than %zu distinct pcs on distinct stacks; the costs "
		"are kept per pc from here on, and the profiles share each function's pcs out "
		"among its stacks in proportion",
		cs->pc_map.max);
	/* the pairs move: the deferred folds go in first, and none is
	 * deferred from here on (claim_one) */
	fold_flush(cs);
	fold_clear(cs);
	cs->per_pc = true;
	qsort(cs->pcs, n, sizeof(*cs->pcs), by_pc_node);
	for (size_t i = 0; i < n; i++) {
		if (k && cs->pcs[k - 1].pc == cs->pcs[i].pc) {
			cs->pcs[k - 1].cycles += cs->pcs[i].cycles;
			cs->pcs[k - 1].instructions += cs->pcs[i].instructions;
		} else {
			cs->pcs[k] = cs->pcs[i];
			cs->pcs[k++].node = ANY_NODE;
		}
	}
	cs->pc_map.n = 0;
	cs->pc_map.full = false;
	memset(cs->pc_map.slots, 0, ((size_t)cs->pc_map.mask + 1) * sizeof(*cs->pc_map.slots));
	for (size_t i = 0; i < k; i++) {
		cy_node_pc_cost c = cs->pcs[i];
		int64_t at = index_map_get(&cs->pc_map, c.pc, ANY_NODE, (void **)&cs->pcs,
					   sizeof(*cs->pcs), &added);
		if (at < 0) { /* no room is made here: the map held more */
			cs->failed = true;
			return;
		}
		cs->pcs[at] = c;
	}
	cs->last_pc_index = UINT32_MAX;
}

/* Adds cycles and n retired instructions to pc's cost on node's stack. */
static void pc_add(struct cy_callstack *cs, uint32_t node, uint32_t pc, uint64_t cycles, uint64_t n)
{
	if (node == UINT32_MAX || cs->stack_only)
		return;
	if (cs->per_pc)
		node = ANY_NODE;
	if (pc != cs->last_pc || node != cs->last_pc_node || cs->last_pc_index == UINT32_MAX) {
		bool added;
		int64_t i = index_map_get(&cs->pc_map, pc, node, (void **)&cs->pcs,
					  sizeof(*cs->pcs), &added);
		if (i == INDEX_MAP_FULL && !cs->per_pc) {
			to_per_pc(cs);
			pc_add(cs, node, pc, cycles, n);
			return;
		}
		if (i == INDEX_MAP_FULL) { /* the stacks have the cycles; the pcs only count them */
			if (index_map_first_full(&cs->pc_map))
				vm_warn(
				    cs->vm,
				    "call-stack profile: more than %zu distinct pcs; the cycles "
				    "of a new one are left out of the per-pc costs from here on",
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
			cs->pcs[i] = (cy_node_pc_cost){ .node = node, .pc = pc };
		cs->last_pc = pc;
		cs->last_pc_node = node;
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

/* Charges the paging and segment cycles of the instruction at pc to the
 * pseudo-frames under node; returns how many cycles that was. */
static uint32_t charge_parts(struct cy_callstack *cs, uint32_t node, uint32_t pc,
			     const cy_cost_parts *p)
{
	static const struct {
		cy_frame_kind kind;
		size_t offset;
	} parts[] = {
		{ CY_FRAME_PAGE_IN, offsetof(cy_cost_parts, page_in) },
		{ CY_FRAME_PAGE_OUT, offsetof(cy_cost_parts, page_out) },
		{ CY_FRAME_SEGMENT, offsetof(cy_cost_parts, segment) },
	};
	uint32_t sum = 0;

	if (!p || !(p->page_in | p->page_out | p->segment))
		return 0;
	for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
		uint32_t v;
		memcpy(&v, (const char *)p + parts[k].offset, sizeof(v));
		if (!v)
			continue;
		uint32_t child = node_child(cs, (int)node, parts[k].kind, 0, 0, 0);
		charge(cs, child, v, 0);
		pc_add(cs, child, pc, v, 0);
		sum += v;
	}
	return sum;
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
	cost -= charge_parts(cs, node, ev->pc, p);
	if (cs->ecall_pending) {
		cs->ecall_pending = false;
		node = node_child(cs, (int)node, CY_FRAME_ECALL, cs->ecall_nr, 0, 0);
	}
	charge(cs, node, cost, 1);
	pc_add(cs, node, ev->pc, cost, 1);
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

static void unlist(void *ctx, struct block *b)
{
	(void)ctx;
	b->ran = 0;
}

/* Empties the list of the blocks that ran (core/account.h: ACCT_RAN), as
 * its one subscriber does after each hand-over and when it subscribes:
 * every block is unlisted at once by a new mark. */
static void ran_reset(struct cy_vm *vm)
{
	struct acct_ran *r = &vm->acct.ran;
	int subs = 0;

	for (int i = 0; i < vm->acct.n_subs; i++)
		subs += (vm->acct.subs[i].events & ACCT_RAN) != 0;
	/* translated code lists no more than cap: room for what it lost */
	if (r->lost && subs <= 1 && r->cap < UINT32_MAX / 2 &&
	    (!vm->acct.ran_max || 2 * r->cap <= vm->acct.ran_max)) {
		struct block **list = realloc(r->list, 2 * (size_t)r->cap * sizeof(*list));
		if (list) {
			r->list = list;
			r->cap *= 2;
		}
	}
	r->n = 0;
	/* one list cannot serve two subscribers that each empty it: with a
	 * second, it is lost for good (each of them visits every block) */
	r->lost = subs > 1;
	/* a new mark unlists every block; a decoded block has mark 0 */
	if (++r->mark == 0) {
		cache_each_block(vm, unlist, NULL);
		r->mark = 1;
	}
}

/* The function index a block or pc belongs to for ownership: n_funcs for
 * code outside every function. */
static uint32_t owner_slot(struct cy_callstack *cs, uint32_t pc)
{
	uint32_t f = func_containing(cs, pc);
	return f == NO_FUNC ? (uint32_t)cs->n_funcs : f;
}

static uint32_t owner_of(const struct cy_callstack *cs, uint32_t slot)
{
	return cs->owner_epoch[slot] == cs->epoch ? cs->owner[slot] : cs->default_owner;
}

/* The known blocks belong to the cache's current generation only: a flush
 * (whose fold has handed out every count) empties the list. */
static void known_sync(struct cy_callstack *cs)
{
	if (cs->generation == cs->vm->cache.generation)
		return;
	cs->generation = cs->vm->cache.generation;
	cs->n_known = 0;
	/* the deferred folds are by known block */
	fold_flush(cs);
	fold_clear(cs);
}

/* Hands the runs of kb's block not yet counted to node. cur is the block
 * whose run is under way (its jump or ecall is being reported): that run
 * is not in its count yet, but it ran on node's stack too. With rec, the
 * pairs its pcs were added to go there (fold_defer), and their count is
 * returned. */
static uint32_t known_fold(struct cy_callstack *cs, struct known_block *kb, uint32_t node,
			   const struct block *cur, struct fold_cost *rec)
{
	const struct block *b = kb->b;
	uint64_t runs = b->runs + (b == cur), taken = b->taken;
	uint32_t n_rec = 0;

	if (runs > kb->runs) {
		uint64_t d = runs - kb->runs;
		/* a block's pairs were made one after the other when it first
		 * ran on node: the next one is guessed, and checked */
		uint32_t key = cs->per_pc ? ANY_NODE : node, guess = UINT32_MAX;
		for (uint32_t i = 0; i < b->n; i++) {
			const struct insn *in = &b->insns[i];
			/* an ecall's cycles are all counted when it retires */
			if (insn_is_pseudo(in) || in->op == OP_ecall)
				continue;
			uint32_t cost = in->after - in->before;
			uint64_t cycles = d * cost;
			if (guess < cs->pc_map.n && cs->pcs[guess].pc == in->pc &&
			    cs->pcs[guess].node == key) {
				cs->pcs[guess].cycles += cycles;
				cs->pcs[guess].instructions += d;
				if (rec)
					rec[n_rec++] = (struct fold_cost){ guess, cost };
				guess++;
				continue;
			}
			pc_add(cs, node, in->pc, cycles, d);
			guess =
			    cs->last_pc_index == UINT32_MAX ? UINT32_MAX : cs->last_pc_index + 1;
			if (rec)
				rec[n_rec++] = (struct fold_cost){ cs->last_pc_index, cost };
		}
		kb->runs = runs;
	}
	if (taken > kb->taken) {
		const struct insn *last = &b->insns[b->n - 1];
		if (insn_classes[last->op] == CY_CLASS_BRANCH)
			pc_add(cs, node, last->pc, (taken - kb->taken) * cs->vm->cost.taken_extra,
			       0);
		kb->taken = taken;
	}
	return n_rec;
}

/* Room for n more entries of size bytes in *p, which holds *len of *cap. */
static bool room(void **p, size_t *len, size_t *cap, size_t n, size_t size)
{
	while (*len + n > *cap)
		if (grow(p, cap, size) != 0)
			return false;
	return true;
}

/* The deferred folds of node's stack for function slot, with room for the
 * function's known blocks; UINT32_MAX when the folds are not deferred: out of
 * memory, or the node's first hand-over (most stacks have only one: a call
 * that returns; a recursion's hand the same function over again and
 * again). */
static uint32_t fold_group(struct cy_callstack *cs, uint32_t node, uint32_t slot)
{
	uint32_t want = cs->n_head[slot], g;

	if (node >= cs->cap_node_fold) {
		size_t cap = cs->cap_node_fold;
		while (node >= cap)
			cap = cap ? cap * 2 : 256;
		uint32_t *f = realloc(cs->node_fold, cap * sizeof(*f));
		if (!f)
			return UINT32_MAX;
		cs->node_fold = f;
		f = realloc(cs->node_fold_gen, cap * sizeof(*f));
		if (!f)
			return UINT32_MAX;
		memset(f + cs->cap_node_fold, 0, (cap - cs->cap_node_fold) * sizeof(*f));
		cs->node_fold_gen = f;
		cs->cap_node_fold = cap;
	}
	if (cs->node_fold_gen[node] != cs->fold_gen) {
		cs->node_fold_gen[node] = cs->fold_gen;
		cs->node_fold[node] = UINT32_MAX;
		return UINT32_MAX;
	}
	for (g = cs->node_fold[node]; g != UINT32_MAX; g = cs->fold_groups[g].next)
		if (cs->fold_groups[g].slot == slot)
			break;
	if (g != UINT32_MAX && cs->fold_groups[g].n >= want)
		return g;
	/* a new group, or one the function's new blocks outgrew: moved to the
	 * end, twice as long (what it leaves behind is freed with the rest) */
	if (g != UINT32_MAX && want < 2 * cs->fold_groups[g].n)
		want = 2 * cs->fold_groups[g].n;
	if (cs->n_fold_pends + want >= UINT32_MAX ||
	    !room((void **)&cs->fold_pends, &cs->n_fold_pends, &cs->cap_fold_pends, want,
		  sizeof(*cs->fold_pends)))
		return UINT32_MAX;
	struct fold_pend *p = &cs->fold_pends[cs->n_fold_pends];
	uint32_t had = 0;
	if (g != UINT32_MAX) {
		struct fold_pend *old = &cs->fold_pends[cs->fold_groups[g].at];
		had = cs->fold_groups[g].n;
		memcpy(p, old, had * sizeof(*p));
		for (uint32_t i = 0; i < had; i++) /* fold_flush passes it by */
			old[i].at = NO_PEND;
	} else {
		if (!room((void **)&cs->fold_groups, &cs->n_fold_groups, &cs->cap_fold_groups, 1,
			  sizeof(*cs->fold_groups)))
			return UINT32_MAX;
		g = (uint32_t)cs->n_fold_groups++;
		cs->fold_groups[g] =
		    (struct fold_group){ .slot = slot, .next = cs->node_fold[node] };
		cs->node_fold[node] = g;
	}
	for (uint32_t i = had; i < want; i++)
		p[i] = (struct fold_pend){ .at = NO_PEND };
	cs->fold_groups[g].at = (uint32_t)cs->n_fold_pends;
	cs->fold_groups[g].n = want;
	cs->n_fold_pends += want;
	return g;
}

/* fold_defer's first hand-over of kb to group g's node, and its fold
 * when the folds are not deferred (g UINT32_MAX, or per_pc). */
static void fold_defer_first(struct cy_callstack *cs, struct known_block *kb, uint32_t node,
			     uint32_t g, const struct block *cur)
{
	const struct block *b = kb->b;
	uint64_t runs = b->runs + (b == cur);

	if (g == UINT32_MAX || cs->per_pc) { /* out of memory, or no longer deferred */
		known_fold(cs, kb, node, cur, NULL);
		return;
	}
	/* its pairs are made only by a run (as known_fold makes them) */
	if (runs <= kb->runs || cs->n_fold_costs + b->n >= UINT32_MAX ||
	    !room((void **)&cs->fold_costs, &cs->n_fold_costs, &cs->cap_fold_costs, b->n,
		  sizeof(*cs->fold_costs))) {
		known_fold(cs, kb, node, cur, NULL);
		return;
	}
	uint32_t at = (uint32_t)cs->n_fold_costs;
	uint32_t n = known_fold(cs, kb, node, cur, &cs->fold_costs[at]);
	if (cs->per_pc || cs->failed) /* the pairs moved: to_per_pc cleared the groups */
		return;
	const struct insn *last = &b->insns[b->n - 1];
	struct fold_pend *p = &cs->fold_pends[cs->fold_groups[g].at + kb->pos];
	p->at = at;
	p->n = n;
	p->branch = insn_classes[last->op] == CY_CLASS_BRANCH && n;
	cs->n_fold_costs += n;
}

/* Hands the runs of known block kb not yet counted to node, deferred in
 * group g (UINT32_MAX: not deferred): a block already handed to node before
 * adds its runs to its fold_pend; one never handed to it is folded now,
 * which makes its pairs in the table in the order an immediate fold makes
 * them, and remembers them. cur: as for known_fold. The first case is
 * the common one (a hand-over runs it for every block that ran): inline. */
static inline void fold_defer(struct cy_callstack *cs, struct known_block *kb, uint32_t node,
			      uint32_t g, const struct block *cur)
{
	const struct block *b = kb->b;
	uint64_t runs = b->runs + (b == cur), taken = b->taken;

	if (runs <= kb->runs && taken <= kb->taken)
		return;
	struct fold_pend *p =
	    g == UINT32_MAX || cs->per_pc ? NULL : &cs->fold_pends[cs->fold_groups[g].at + kb->pos];
	if (!p || p->at == NO_PEND) {
		fold_defer_first(cs, kb, node, g, cur);
		return;
	}
	/* as known_fold would count them */
	if (runs > kb->runs) {
		p->runs += runs - kb->runs;
		kb->runs = runs;
	}
	if (taken > kb->taken) {
		p->taken += taken - kb->taken;
		kb->taken = taken;
	}
}

/* The known block of b, NULL if the profiler never heard of it: the
 * index it left in the block when it was decoded (acct_on_decoded). */
static struct known_block *known_of(struct cy_callstack *cs, const struct block *b)
{
	if (b->tag < cs->n_known && cs->known[b->tag].b == b)
		return &cs->known[b->tag];
	return NULL;
}

/* The group a hand-over to owner of function slot's blocks defers into
 * (fold_group), UINT32_MAX: none; memo keeps the last one of this hand-out
 * (a function's blocks run together). */
struct group_memo {
	uint32_t owner, slot, g;
};

static inline uint32_t group_for(struct cy_callstack *cs, uint32_t owner, uint32_t slot,
				 struct group_memo *memo)
{
	if (memo->owner == owner && memo->slot == slot)
		return memo->g;
	memo->owner = owner;
	memo->slot = slot;
	memo->g = !cs->per_pc && !cs->failed && owner < cs->node_map.n ? fold_group(cs, owner, slot)
								       : UINT32_MAX;
	return memo->g;
}

/* Hands kb's runs not yet counted to its function's owner; false when the
 * function has none yet (they go to the first one it gets). cur: counted
 * ahead when its function is slot (the one whose owner changes). */
__attribute__((always_inline)) static inline bool hand_one(struct cy_callstack *cs,
							   struct known_block *kb, uint32_t slot,
							   const struct block *cur,
							   struct group_memo *memo)
{
	uint32_t owner = owner_of(cs, kb->func);

	if (owner == NO_NODE)
		return false;
	fold_defer(cs, kb, owner, group_for(cs, owner, kb->func, memo),
		   kb->func == slot ? cur : NULL);
	return true;
}

/* Hands the runs of every block that ran since the last hand-out to the
 * owner of its function (which has not changed since: a change hands them
 * out first), and empties the list of the blocks that ran (core/account.h:
 * struct acct_ran). So a hand-over costs what ran, not every block the
 * function has: a recursion's blocks change owners at every call and
 * return. Blocks of a function with no owner yet stay listed. slot: the
 * function whose owner is about to change (n_funcs + 1: none), whose block
 * cur has a run under way (counted ahead, as known_fold says). */
static void hand_out(struct cy_callstack *cs, uint32_t slot, const struct block *cur)
{
	struct acct_ran *r = &cs->vm->acct.ran;
	struct group_memo memo = { .owner = NO_NODE };
	struct known_block *kb;
	uint32_t keep = 0;

	known_sync(cs);
	if (r->lost) { /* a block that ran may be missing: every one */
		for (size_t k = 0; k < cs->n_known; k++)
			hand_one(cs, &cs->known[k], slot, cur, &memo);
		ran_reset(cs->vm);
		for (size_t k = 0; k < cs->n_known; k++) {
			kb = &cs->known[k];
			if (owner_of(cs, kb->func) == NO_NODE &&
			    (kb->b->runs > kb->runs || kb->b->taken > kb->taken))
				acct_ran(cs->vm, (struct block *)kb->b);
		}
		return;
	}
	/* cur, not listed yet (its first run is the one under way) */
	if (cur && cur->ran != r->mark && (kb = known_of(cs, cur)) && kb->func == slot)
		hand_one(cs, kb, slot, cur, &memo);
	for (uint32_t i = 0; i < r->n; i++) {
		struct block *b = r->list[i];
		if ((kb = known_of(cs, b)) && !hand_one(cs, kb, slot, cur, &memo))
			r->list[keep++] = b;
	}
	ran_reset(cs->vm);
	/* listed again: acct_ran writes list[n++], never past i */
	for (uint32_t i = 0; i < keep; i++)
		acct_ran(cs->vm, r->list[i]);
}

/* A function of at most this many known blocks is handed over by a walk
 * over them (as quick as listing them: qsort's comparison function); one
 * of more by the list of the blocks that ran (list_sort's recursion). */
#define WALK_MAX 16

/* Hands the runs of function slot's known blocks not yet counted to
 * owner, walking them all (the blocks of slot that the executor listed
 * stay listed, and have nothing more to hand out then). */
static void hand_walk(struct cy_callstack *cs, uint32_t slot, uint32_t owner,
		      const struct block *cur)
{
	struct group_memo memo = { .owner = NO_NODE };
	uint32_t g = group_for(cs, owner, slot, &memo);

	for (uint32_t k = cs->head[slot]; k != UINT32_MAX; k = cs->known[k].next)
		fold_defer(cs, &cs->known[k], owner, g, cur);
}

static void claim_one(struct cy_callstack *cs, uint32_t slot, uint32_t node,
		      const struct block *cur)
{
	uint32_t owner = owner_of(cs, slot);

	if (owner == node)
		return;
	if (owner != NO_NODE && cs->head_gen[slot] == cs->generation + 1u) {
		if (cs->n_head[slot] > WALK_MAX)
			hand_out(cs, slot, cur);
		else
			hand_walk(cs, slot, owner, cur);
	}
	cs->owner[slot] = node;
	cs->owner_epoch[slot] = cs->epoch;
}

/* The blocks of function slot (and of those in its range) will run on
 * node's stack from now on: what they ran before goes to their owner. */
static void claim(struct cy_callstack *cs, uint32_t slot, uint32_t node, const struct block *cur)
{
	if (node == UINT32_MAX)
		return;
	/* the inner ones may have other owners than slot's own */
	if (owner_of(cs, slot) == node &&
	    (slot >= cs->n_funcs || cs->inner_at[slot] == cs->inner_at[slot + 1]))
		return;
	known_sync(cs);
	claim_one(cs, slot, node, cur);
	if (slot < cs->n_funcs)
		for (uint32_t k = cs->inner_at[slot]; k < cs->inner_at[slot + 1]; k++)
			claim_one(cs, cs->inner[k], node, cur);
}

/* Code may have been reached without a report (a trap to its handler):
 * every block's counts go to their owners, and every function is the top
 * frame's until it is claimed again. */
static void claim_all(struct cy_callstack *cs)
{
	hand_out(cs, (uint32_t)cs->n_funcs + 1, NULL);
	cs->epoch++;
	cs->default_owner = cs->depth && !cs->failed ? cs->stack[cs->depth - 1].node : NO_NODE;
}

/* Keeps the interpreter from reporting plain jumps that stay in the top
 * frame's function: jump_to would do nothing with them. The top frame's
 * function is its own from here on (cur: as for claim). */
static void update_context(struct cy_callstack *cs, const struct block *cur)
{
	uint32_t f = cs->depth ? cs->stack[cs->depth - 1].func : NO_FUNC;

	if (cs->detached)
		return;
	if (cs->depth && !cs->failed)
		claim(cs, f == NO_FUNC ? (uint32_t)cs->n_funcs : f, cs->stack[cs->depth - 1].node,
		      cur);
	uint32_t lo = f == NO_FUNC || cs->failed ? 0 : cs->funcs[f].addr;
	uint32_t size = f == NO_FUNC || cs->failed ? 0 : cs->funcs[f].size;
	/* (a range that speaks for no one reads as size 0: set again) */
	if (cs->vm->acct.ctx_lo != lo || cs->vm->acct.ctx_size != size)
		acct_set_context(cs->vm, lo, size);
}

/* The first frame, once an instruction has retired: the one at the pc the
 * run started from (as the first RETIRE would push it). Whatever ran
 * before ran on it. */
static bool has_frame(struct cy_callstack *cs, uint64_t ins)
{
	if (cs->depth == 0 && !cs->failed && ins != cs->last_instret) {
		jump_to(cs, cs->start_pc, cs->last_cycles, cs->last_instret);
		if (cs->depth)
			claim(cs, owner_slot(cs, cs->start_pc), cs->stack[cs->depth - 1].node,
			      NULL);
	}
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

static const struct block *block_of(const struct insn *in)
{
	return (const struct block *)((const char *)(in - in->index) -
				      offsetof(struct block, insns));
}

static void acct_on_transfer(void *ctx, cy_vm *vm, const struct insn *in, uint32_t target,
			     uint64_t now, uint64_t ins)
{
	struct cy_callstack *cs = ctx;
	const struct block *cur = block_of(in);

	settle(cs, now, ins);
	if (cs->depth == 0 || cs->failed)
		return;
	on_jump(cs, vm, (cy_insn_class)insn_classes[in->op], in->rd == REG_SINK ? 0 : in->rd,
		in->rs1, target);
	apply_pending(cs, in->pc, now, ins);
	if (cs->depth && !cs->failed) {
		const struct frame *top = &cs->stack[cs->depth - 1];
		/* the target is mostly in the top frame's function (claimed
		 * below), and that one mostly has no other in its range */
		if (!in_func(cs, top->func, target) ||
		    cs->inner_at[top->func] != cs->inner_at[top->func + 1])
			claim(cs, owner_slot(cs, target), top->node, cur);
	}
	update_context(cs, cur);
}

static void acct_on_ecall(void *ctx, cy_vm *vm, const struct insn *in, uint32_t nr, uint64_t now,
			  uint64_t ins)
{
	struct cy_callstack *cs = ctx;

	(void)vm;
	settle(cs, now, ins);
	cs->ecall_nr = nr;
	update_context(cs, block_of(in));
}

/* The ecall's cycles go to its pseudo-frame. They are the clock's move
 * over it, which the ABI may have changed (as the per-instruction events
 * see it): all of them but its paging (already charged) go to its pc on
 * the pseudo-frame's stack here; the folds leave ecalls out. */
static void acct_on_ecall_retired(void *ctx, cy_vm *vm, const struct insn *in, uint64_t before,
				  uint64_t now, uint64_t ins)
{
	struct cy_callstack *cs = ctx;
	uint32_t cost = (uint32_t)(now - before);

	if (has_frame(cs, ins)) {
		uint32_t node = cs->stack[cs->depth - 1].node;
		uint32_t ecall = node_child(cs, (int)node, CY_FRAME_ECALL, cs->ecall_nr, 0, 0);
		charge(cs, ecall, cost - (uint32_t)cs->carved, 1);
		pc_add(cs, ecall, in->pc, cost - (uint32_t)cs->carved, 1);
		/* a syscall that resumes elsewhere: that code runs on this stack */
		if (vm->ecall_redirect)
			claim(cs, owner_slot(cs, vm->ecall_next_pc), node, block_of(in));
	}
	cs->carved = 0;
	cs->last_cycles = now;
	cs->last_instret = ins;
	update_context(cs, block_of(in));
}

static void acct_on_extra(void *ctx, cy_vm *vm, const struct insn *in, int64_t extra,
			  const cy_cost_parts *p, uint64_t before, uint64_t now, uint64_t ins)
{
	struct cy_callstack *cs = ctx;
	uint32_t node, parts;

	(void)vm;
	(void)now;
	if (p && p->segment_start)
		segment_add(cs, before);
	if (!has_frame(cs, ins))
		return;
	node = cs->stack[cs->depth - 1].node;
	parts = charge_parts(cs, node, in->pc, p);
	cs->carved += parts;
	/* an ecall's own cycles are counted when it retires */
	if (in->op != OP_ecall)
		pc_add(cs, node, in->pc, (uint64_t)(extra - (int64_t)parts), 0);
	update_context(cs, NULL);
}

static void acct_on_partial(void *ctx, cy_vm *vm, const struct block *b, uint32_t retired,
			    uint64_t cycles, uint64_t ins, uint64_t now, bool resumes)
{
	struct cy_callstack *cs = ctx;

	(void)vm;
	settle(cs, cycles, ins);
	if (cs->depth && !cs->failed)
		for (uint32_t i = 0; i < retired; i++)
			if (!insn_is_pseudo(&b->insns[i]))
				pc_add(cs, cs->stack[cs->depth - 1].node, b->insns[i].pc,
				       b->insns[i].after - b->insns[i].before, 1);
	/* cycles of an instruction that did not retire belong to nobody */
	cs->last_cycles = now;
	/* a trap, or a stop, may follow: its handler runs without a report.
	 * Not after a budget's cut (the sampler's slices when every
	 * instruction is watched: walking every known block at each was 90%
	 * of such a run); the runs of the blocks stay with their owners, to be
	 * handed out at the next hand-over or read */
	if (!resumes)
		claim_all(cs);
	update_context(cs, NULL);
}

/* The known block of b (a binary search: they are known in arena order),
 * NULL if the profiler never heard of it. */
static struct known_block *known_find(struct cy_callstack *cs, const struct block *b)
{
	size_t lo = 0, hi;

	known_sync(cs);
	hi = cs->n_known;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((uintptr_t)cs->known[mid].b < (uintptr_t)b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cs->n_known && cs->known[lo].b == b ? &cs->known[lo] : NULL;
}

/* A block's counts are about to be zeroed (a flush, or a read): what was
 * not handed out goes to its owner. */
static void acct_on_fold_block(void *ctx, cy_vm *vm, struct block *b)
{
	struct cy_callstack *cs = ctx;
	struct known_block *kb, lone;

	(void)vm;
	if (!b->runs && !b->taken)
		return;
	/* a run of b retired instructions: the first frame exists */
	if (cs->depth == 0 && !cs->failed) {
		jump_to(cs, cs->start_pc, cs->last_cycles, cs->last_instret);
		if (cs->depth)
			claim(cs, owner_slot(cs, cs->start_pc), cs->stack[cs->depth - 1].node,
			      NULL);
	}
	if (!cs->depth || cs->failed)
		return;
	kb = known_find(cs, b);
	if (!kb) {
		lone = (struct known_block){ .b = b, .func = owner_slot(cs, b->pc) };
		kb = &lone;
	}
	uint32_t owner = owner_of(cs, kb->func);
	known_fold(cs, kb, owner != NO_NODE ? owner : cs->stack[cs->depth - 1].node, NULL, NULL);
	/* the counts start again from 0; a run under way (counted ahead) stays */
	kb->runs = kb->runs > b->runs ? kb->runs - b->runs : 0;
	kb->taken = 0;
}

/* A block was decoded: known from now on; flagged when it may fall
 * through into another function. */
static uint8_t acct_on_decoded(void *ctx, cy_vm *vm, struct block *b)
{
	struct cy_callstack *cs = ctx;
	const struct insn *last = &b->insns[b->n - 1];
	struct known_block *kb;
	uint32_t slot = owner_slot(cs, b->pc);

	(void)vm;
	known_sync(cs);
	/* a block whose decoding failed left its place to the next one */
	if (cs->n_known && cs->known[cs->n_known - 1].b == b)
		cs->n_known--;
	if (cs->n_known == cs->cap_known &&
	    grow((void **)&cs->known, &cs->cap_known, sizeof(*cs->known)) != 0) {
		cs->failed = true;
		return 0;
	}
	kb = &cs->known[cs->n_known];
	*kb = (struct known_block){ .b = b, .func = slot, .next = UINT32_MAX };
	b->tag = (uint32_t)cs->n_known; /* known_of */
	if (cs->head_gen[slot] == cs->generation + 1u)
		kb->next = cs->head[slot];
	else
		cs->n_head[slot] = 0;
	kb->pos = cs->n_head[slot]++;
	cs->head[slot] = (uint32_t)cs->n_known++;
	cs->head_gen[slot] = cs->generation + 1u;
	if (last->op == OP_jal || last->op == OP_jalr || last->op == OP_fetch_fault ||
	    owner_slot(cs, b->end) == slot)
		return 0;
	return ACCT_FLAG_CALLSTACK;
}

/* A block that may fall through into another function ran: that code runs
 * on the top frame's stack. */
static void acct_on_flagged(void *ctx, cy_vm *vm, const struct block *b, uint32_t retired,
			    uint64_t ins)
{
	struct cy_callstack *cs = ctx;

	(void)vm;
	(void)retired;
	if (!(b->flags & ACCT_FLAG_CALLSTACK) || !has_frame(cs, ins))
		return;
	claim(cs, owner_slot(cs, b->end), cs->stack[cs->depth - 1].node, NULL);
}

static const struct acct_ops callstack_ops = {
	.transfer = acct_on_transfer,
	.ecall = acct_on_ecall,
	.ecall_retired = acct_on_ecall_retired,
	.extra = acct_on_extra,
	.partial = acct_on_partial,
	.fold_block = acct_on_fold_block,
	.decoded = acct_on_decoded,
	.flagged = acct_on_flagged,
};

/* Brings the tables up to the VM's clock: before anything reads them. */
static void profile_sync(struct cy_callstack *cs)
{
	if (cs->reference || cs->detached)
		return;
	cache_fold(cs->vm);
	settle(cs, cs->vm->cycles, cs->vm->instret);
	fold_flush(cs);
}

/* Each function's inner ones (cs->inner): those starting in its range,
 * and the code outside every function if its range has any (their ends
 * may leave gaps that no function contains). */
static int find_inner(struct cy_callstack *cs)
{
	size_t n = 0, cap = 0;

	cs->inner_at = calloc(cs->n_funcs + 1, sizeof(*cs->inner_at));
	if (!cs->inner_at)
		return -ENOMEM;
	for (size_t f = 0; f < cs->n_funcs; f++) {
		uint64_t end = (uint64_t)cs->funcs[f].addr + cs->funcs[f].size;
		cs->inner_at[f] = (uint32_t)n;
		for (size_t g = f + 1; g < cs->n_funcs && cs->funcs[g].addr < end; g++) {
			if (n + 2 > cap && grow((void **)&cs->inner, &cap, sizeof(*cs->inner)) != 0)
				return -ENOMEM;
			cs->inner[n++] = (uint32_t)g;
		}
		if (n > cs->inner_at[f])
			cs->inner[n++] = (uint32_t)cs->n_funcs;
	}
	cs->inner_at[cs->n_funcs] = (uint32_t)n;
	return 0;
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
	cs->owner = calloc(cs->n_funcs + 1, sizeof(*cs->owner));
	cs->owner_epoch = calloc(cs->n_funcs + 1, sizeof(*cs->owner_epoch));
	cs->head = calloc(cs->n_funcs + 1, sizeof(*cs->head));
	cs->head_gen = calloc(cs->n_funcs + 1, sizeof(*cs->head_gen));
	cs->n_head = calloc(cs->n_funcs + 1, sizeof(*cs->n_head));
	cs->on_stack = calloc(cs->n_funcs + 1, sizeof(*cs->on_stack));
	if (!cs->owner || !cs->owner_epoch || !cs->head || !cs->head_gen || !cs->n_head ||
	    !cs->on_stack || find_inner(cs) != 0)
		goto out_free;
	cs->epoch = 1; /* no function has an owner yet */
	cs->fold_gen = 1;
	cs->default_owner = NO_NODE;
	cs->generation = vm->cache.generation;
	cs->span_threshold = CY_CALLSTACK_SPAN_MIN;
	cs->keep_spans = true;
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
		rc = acct_subscribe(vm,
				    ACCT_TRANSFER | ACCT_ECALL | ACCT_EXTRA | ACCT_PARTIAL |
					ACCT_FOLD | ACCT_FLAGGED | ACCT_RAN,
				    &callstack_ops, cs);
	if (rc != 0)
		goto out_free;
	/* every block unlisted: what runs from here on is listed */
	if (!cs->reference && !cs->stack_only && mode != CY_CALLSTACK_DETACHED)
		ran_reset(vm);
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
	free(cs->node_pcs_out);
	free(cs->owner);
	free(cs->owner_epoch);
	free(cs->head);
	free(cs->head_gen);
	free(cs->n_head);
	free(cs->fold_groups);
	free(cs->fold_pends);
	free(cs->fold_costs);
	free(cs->node_fold);
	free(cs->node_fold_gen);
	free(cs->inner);
	free(cs->inner_at);
	free(cs->on_stack);
	free(cs->known);
	free(cs->spans);
	free(cs->spans_out);
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
				      .per_pc = cs->per_pc,
				      .calls_full = cs->edge_map.full,
				      .ecalls_full = cs->ecall_map.full,
				      .lost_pc_cycles = cs->lost_pc_cycles,
				      .lost_pc_instructions = cs->lost_pc_instructions };
	return out->nodes_full || out->pcs_full || out->calls_full || out->ecalls_full ||
	       out->per_pc;
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

static int by_node_pc(const void *a, const void *b)
{
	const cy_node_pc_cost *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->pc > y->pc) - (x->pc < y->pc);
}

static int by_pc_node(const void *a, const void *b)
{
	const cy_node_pc_cost *x = a, *y = b;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* A sorted copy of the (node, pc) table into cs->node_pcs_out. */
static const cy_node_pc_cost *node_pcs_sorted(struct cy_callstack *cs,
					      int (*cmp)(const void *, const void *))
{
	profile_sync(cs);
	free(cs->node_pcs_out);
	cs->node_pcs_out = NULL;
	if (cs->failed ||
	    !(cs->node_pcs_out = malloc((cs->pc_map.n + 1) * sizeof(*cs->node_pcs_out))))
		return NULL;
	if (cs->pc_map.n) /* no pc yet (a fault at the first instruction): cs->pcs is NULL */
		memcpy(cs->node_pcs_out, cs->pcs, cs->pc_map.n * sizeof(*cs->pcs));
	qsort(cs->node_pcs_out, cs->pc_map.n, sizeof(*cs->node_pcs_out), cmp);
	return cs->node_pcs_out;
}

const cy_node_pc_cost *cy_callstack_node_pcs(cy_callstack *cs, size_t *n)
{
	static const cy_node_pc_cost none[1];
	const cy_node_pc_cost *out = node_pcs_sorted(cs, by_node_pc);

	*n = out && !cs->per_pc ? cs->pc_map.n : 0;
	return out && cs->per_pc ? none : out;
}

const cy_pc_cost *cy_callstack_pcs(cy_callstack *cs, size_t *n)
{
	const cy_node_pc_cost *all = node_pcs_sorted(cs, by_pc_node);
	size_t k = 0;

	*n = 0;
	free(cs->pcs_out);
	cs->pcs_out = NULL;
	if (!all || !(cs->pcs_out = malloc((cs->pc_map.n + 1) * sizeof(*cs->pcs_out))))
		return NULL;
	for (size_t i = 0; i < cs->pc_map.n; i++) {
		if (k && cs->pcs_out[k - 1].pc == all[i].pc) {
			cs->pcs_out[k - 1].cycles += all[i].cycles;
			cs->pcs_out[k - 1].instructions += all[i].instructions;
		} else {
			cs->pcs_out[k++] =
			    (cy_pc_cost){ all[i].pc, all[i].cycles, all[i].instructions };
		}
	}
	*n = k;
	return cs->pcs_out;
}

static int by_start(const void *a, const void *b)
{
	const cy_call_span *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end) /* the outer first */
		return x->end > y->end ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

const cy_call_span *cy_callstack_call_spans(cy_callstack *cs, size_t *n, uint64_t *threshold)
{
	uint64_t now = cy_vm_cycles(cs->vm);
	size_t k;

	profile_sync(cs);
	*n = 0;
	*threshold = cs->span_threshold;
	free(cs->spans_out);
	cs->spans_out = NULL;
	if (cs->failed ||
	    !(cs->spans_out = malloc((cs->n_spans + cs->depth + 1) * sizeof(*cs->spans_out))))
		return NULL;
	k = cs->n_spans;
	if (k)
		memcpy(cs->spans_out, cs->spans, k * sizeof(*cs->spans));
	/* the frames still open, as if they returned now */
	for (size_t d = 0; d < cs->depth && cs->keep_spans; d++)
		if (now - cs->stack[d].entry_cycles >= cs->span_threshold)
			cs->spans_out[k++] = (cy_call_span){ .node = cs->stack[d].node,
							     .start = cs->stack[d].entry_cycles,
							     .end = now,
							     .open = true };
	qsort(cs->spans_out, k, sizeof(*cs->spans_out), by_start);
	*n = k;
	return cs->spans_out;
}

void cy_callstack_keep_spans(cy_callstack *cs, bool keep) { cs->keep_spans = keep; }

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

const cy_symbol *cy_callstack_functions(const cy_callstack *cs, size_t *n)
{
	*n = cs->n_funcs;
	return cs->n_funcs ? (const cy_symbol *)cs->funcs : NULL;
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
		sio_u32(io, &cs->nodes[i].call_pc); /* the first call's, when merged */
		sio_u64(io, &cs->nodes[i].self_cycles);
		sio_u64(io, &cs->nodes[i].self_instructions);
	}
	/* the (node, pc) pairs, or the pcs alone (ANY_NODE) past the limit */
	sio_bool(io, &cs->per_pc);
	index_map_state_io(io, &cs->pc_map, (void **)&cs->pcs, sizeof(*cs->pcs));
	for (size_t i = 0; i < cs->pc_map.n && sio_ok(io); i++) {
		cs->pcs[i].pc = cs->pc_map.keys[i].a;
		cs->pcs[i].node = cs->pc_map.keys[i].b;
		if (io->load &&
		    (cs->per_pc ? cs->pcs[i].node != ANY_NODE : cs->pcs[i].node >= cs->node_map.n))
			sio_fail(io, "the cost of pc 0x%x is on stack node %u of %zu",
				 cs->pcs[i].pc, cs->pcs[i].node, cs->node_map.n);
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
	/* the longest calls that returned, and the threshold they reached */
	sio_u64(io, &cs->span_threshold);
	if (io->load && (cs->span_threshold < CY_CALLSTACK_SPAN_MIN ||
			 cs->span_threshold & (cs->span_threshold - 1)))
		sio_fail(io, "the calls' threshold is %llu cycles",
			 (unsigned long long)cs->span_threshold);
	sio_count(io, &cs->n_spans, CY_CALLSTACK_MAX_SPANS, 20, "calls");
	if (io->load && sio_alloc(io, (void **)&cs->spans, cs->n_spans, sizeof(*cs->spans)))
		cs->cap_spans = cs->n_spans + 1;
	for (size_t i = 0; i < cs->n_spans && sio_ok(io); i++) {
		cy_call_span *sp = &cs->spans[i];
		sio_u32(io, &sp->node);
		sio_u64(io, &sp->start);
		sio_u64(io, &sp->end);
		/* (a zkVM's unconstrained block moves the clock back: end may
		 * come before start) */
		if (io->load && sp->node >= cs->node_map.n)
			sio_fail(io, "call %zu is on stack node %u of %zu", i, sp->node,
				 cs->node_map.n);
	}
	if (io->load && !sio_ok(io)) { /* an empty profiler is one the VM may go on with */
		cs->node_map.n = cs->pc_map.n = cs->edge_map.n = cs->n_segments = 0;
		cs->n_spans = 0;
		cs->per_pc = false;
	}
}

/* The restored stack's nodes and edges, from its functions and call sites. */
static void stack_link(struct sio *io, struct cy_callstack *cs)
{
	memset(cs->on_stack, 0, (cs->n_funcs + 1) * sizeof(*cs->on_stack));
	for (size_t k = 0; k < cs->depth && sio_ok(io); k++) {
		struct frame *f = &cs->stack[k];
		if (f->func != NO_FUNC && f->func >= cs->n_funcs) {
			sio_fail(io, "frame %zu runs function %u of %zu", k, f->func, cs->n_funcs);
			break;
		}
		/* as push made it: the frames below are the same */
		f->node = frame_node(cs, parent_node(cs, k), f->func,
				     frame_site(cs, f->func, f->call_pc), f->call_pc);
		f->edge =
		    f->call_pc ? edge_get(cs, f->call_pc, callee_of(cs, f->func)) : UINT32_MAX;
		if (f->node == UINT32_MAX)
			sio_fail(io, "out of host memory");
		else
			cs->on_stack[f->func == NO_FUNC ? cs->n_funcs : f->func]++;
	}
	if (!sio_ok(io)) {
		cs->depth = 0;
		memset(cs->on_stack, 0, (cs->n_funcs + 1) * sizeof(*cs->on_stack));
	}
}

int callstack_state_io(struct sio *io, struct cy_callstack *cs)
{
	bool stack_only = cs->stack_only;
	int pending = cs->pending;
	size_t depth = cs->depth;

	sio_tag(io, "CSTK");
	if (!io->load)
		profile_sync(cs); /* every cycle charged, every block's runs counted */
	else {
		fold_clear(cs); /* the deferred folds were the tables' being replaced */
		/* and so were the maps the frames' nodes and edges were found in */
		memset(cs->site_memo, 0, sizeof(cs->site_memo));
	}
	sio_bool(io, &stack_only);
	sio_u32(io, &cs->start_pc);
	sio_int(io, &pending, ACT_NONE, ACT_RETURN_CALL, "a pending jump");
	cs->pending = (enum action)pending;
	sio_u32(io, &cs->target);
	sio_u32(io, &cs->link);
	sio_bool(io, &cs->ecall_pending);
	sio_u32(io, &cs->ecall_nr);
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
	/* the blocks' counts were all handed out when the state was saved:
	 * whatever runs next runs on the top frame's stack until claimed */
	claim_all(cs);
	update_context(cs, NULL);
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
		/* the same key (call site, or RECURSIVE_SITE) as in the chunk; a
		 * node new to acc keeps the chunk's first call */
		map[i] = node_child(acc, nd->parent < 0 ? -1 : (int)map[nd->parent], nd->kind, n,
				    chunk->node_map.keys[i].c, nd->call_pc);
		if (map[i] == UINT32_MAX) {
			free(map);
			return -ENOMEM;
		}
		charge(acc, map[i], nd->self_cycles, nd->self_instructions);
	}
	/* past the limit in the chunk, past it in the whole run */
	if (chunk->per_pc && !acc->per_pc)
		to_per_pc(acc);
	for (size_t i = 0; i < chunk->pc_map.n; i++) {
		const cy_node_pc_cost *c = &chunk->pcs[i];
		pc_add(acc, c->node == ANY_NODE ? ANY_NODE : map[c->node], c->pc, c->cycles,
		       c->instructions);
	}
	/* the chunk kept its calls of at least its threshold: none shorter
	 * can be among the whole run's longest (docs/scale-out.md) */
	if (chunk->span_threshold > acc->span_threshold) {
		size_t k = 0;
		acc->span_threshold = chunk->span_threshold;
		for (size_t i = 0; i < acc->n_spans; i++)
			if (acc->spans[i].end - acc->spans[i].start >= acc->span_threshold)
				acc->spans[k++] = acc->spans[i];
		acc->n_spans = k;
	}
	for (size_t i = 0; i < chunk->n_spans; i++)
		span_add(acc, map[chunk->spans[i].node], chunk->spans[i].start,
			 chunk->spans[i].end);
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
	memcpy(acc->on_stack, chunk->on_stack, (acc->n_funcs + 1) * sizeof(*acc->on_stack));
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
	return 0;
}

/* timer.c - the channel timers: an observer of retired instructions, stores
 * and jumps. It feeds every executed instruction word to the announcement
 * recogniser (timer_marker.c); once the channels are known, a store to the
 * length word opens a timer named by the message bytes and a store to the
 * signal word closes the innermost one. Inside timers, every instruction
 * whose cost reaches the threshold is kept with what explains its cost.
 *
 * Nothing of this costs anything per instruction: the recogniser reads
 * only the blocks that hold a word it could use (the accounting
 * interface's flagged blocks, core/account.h; it ignores every other
 * word), and each such block ends after a nop, the sequence's last word.
 * Once the announcement is seen, the timers watch the two channel words
 * (acct_watch: the code map's test that every store makes finds the stores
 * into them) and take the steps from the instructions that can cost more
 * than their static cost (ecalls, and the extra events: a division by
 * zero) -- exactly the per-instruction answer where no instruction's
 * static cost reaches the threshold and the model adds no address-
 * dependent cycles (exact_on_accounting). Elsewhere they watch every
 * instruction's events from the next block on, as opts.reference does
 * from the start. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/account.h"
#include "core/block.h"
#include "core/exec.h"
#include "core/vm.h"
#include "observe/timer.h"
#include "observe/timer_marker.h"
#include "util/array.h"
#include "util/state_io.h"

#define MSG_CHANNEL_BYTES 512 /* the message buffer's size */
#define NO_NODE           (-1)
#define NODE_FULL         (-2) /* CY_TIMER_MAX_NODES timers: no new one */
/* In a chunk (docs/scale-out.md): the j-th timer that was open below the
 * chunk's start, innermost first, which the chunk does not know */
#define ANCHOR(j)       (-3 - (int32_t)(j))
#define IS_ANCHOR(n)    ((n) <= -3)
#define ANCHOR_DEPTH(n) ((size_t)(-3 - (int64_t)(n)))
#define NO_SLICE        SIZE_MAX
/* The hash from (parent, label) to a node: twice as many slots as nodes,
 * so that it is at most half full. */
#define CHILD_SLOTS (2 * CY_TIMER_MAX_NODES)
_Static_assert((CHILD_SLOTS & (CHILD_SLOTS - 1)) == 0, "a power of two, for the mask");

/* A timer tree node; children are linked in the order of their first start. */
struct node {
	char *label;
	size_t len;
	int32_t parent, first_child, last_child, next;
	unsigned depth;
	uint64_t count, cycles, instructions, steps;
	unsigned n_open;
};

/* An open timer: its node, its slice (NO_SLICE past the limit) and its
 * start, which the node's totals need whether the slice is kept or not. */
struct open_timer {
	int32_t node;
	size_t slice;
	uint64_t start_cycle, start_instret;
};

/* A chunk's close of a timer open below its start: the j-th of them, j
 * the index in timers.pops. */
struct prefix_close {
	uint64_t cycle, instret;
};

/* Steps a chunk dropped at the limit inside the j-th timer below its start. */
struct anchor_drops {
	uint64_t count, first;
};

struct timers {
	cy_vm *vm;
	/* the fast pass of a chunked run: only the announcement is followed
	 * (from flagged blocks, for the whole run); the tables stay empty */
	bool boundary;
	/* a chunk's timers, started from a boundary: the open timers below the
	 * chunk's start are unknown; closes of them are recorded in pops, and
	 * what happens inside them is put under ANCHOR(j), for the merge
	 * (timers_merge) to resolve */
	bool chunk;
	struct prefix_close *pops;
	size_t n_pops, cap_pops;
	bool jump_known;       /* chunk: a jump retired in it */
	size_t steps_inherit;  /* chunk: its first steps, before any jump */
	uint64_t anchor_steps; /* chunk: steps under anchors, kept or not */
	/* chunk: steps kept under anchors; they have a limit of their own, so
	 * that steps where no timer was open (known only at the merge) cannot
	 * take the places of steps in the chunk's own timers */
	size_t n_anchor_kept;
	struct anchor_drops *anchor_drops; /* chunk: by anchor depth */
	size_t n_anchor_drops;
	struct marker marker;
	bool announced;
	/* announced, on the accounting interface (exact_on_accounting): the
	 * last jump is the interface's (vm->acct.has_last), not has_jump */
	bool watching;
	uint64_t ecall_instret; /* the ecall being serviced: instret before it */
	uint64_t extra_instret; /* instret after the latest extra's instruction */
	uint32_t chan[MARKER_CHANNELS];
	uint64_t threshold;

	struct node *nodes;
	size_t n_nodes, cap_nodes;
	int32_t roots_first, roots_last;
	uint32_t *child_slots; /* (parent, label) -> node + 1; 0 is free */
	/* open timers; the ignored ones (past the node limit, and those
	 * inside them) are only counted: they are all above the others */
	struct open_timer *stack;
	size_t n_stack, cap_stack;
	uint64_t n_ignored_open;
	cy_timer_slice *slices; /* .timer is a node id until handed out */
	size_t n_slices, cap_slices;
	cy_timer_step *steps; /* likewise */
	size_t n_steps, cap_steps;

	/* the instruction being executed: what its store and jump events said */
	bool open_pending, close_pending;
	uint32_t n_writes, write_size[CY_TIMER_MAX_WRITES];
	uint64_t write_addr[CY_TIMER_MAX_WRITES];
	bool jump_pending, has_jump;
	uint32_t pending_from, pending_to, jump_from, jump_to;

	uint64_t unmatched, first_unmatched;
	uint64_t long_labels, first_long;
	int32_t long_node;
	/* what the limits left out, from when (docs/robustness.md#limits) */
	uint64_t ignored, first_ignored;
	char ignored_label[MSG_CHANNEL_BYTES + 1]; /* the first ignored start's */
	size_t ignored_len;
	uint64_t slices_dropped, first_slice_dropped;
	uint64_t steps_dropped, first_step_dropped;

	/* the arrays handed out */
	cy_timer *pub;
	size_t cap_pub;
	int32_t *pub_index; /* node -> its index in pub */
	size_t cap_index;
	cy_timer_step *pub_steps;
	size_t cap_pub_steps;
	cy_timer_slice *pub_slices;
	size_t cap_pub_slices;
	cy_timer_issue *issues;
	size_t cap_issues;
};

void timers_free(struct timers *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_nodes; i++)
		free(t->nodes[i].label);
	free(t->nodes);
	free(t->child_slots);
	free(t->stack);
	free(t->slices);
	free(t->steps);
	free(t->pub);
	free(t->pub_index);
	free(t->pub_steps);
	free(t->pub_slices);
	free(t->issues);
	free(t->pops);
	free(t->anchor_drops);
	free(t);
}

static bool hits(uint64_t addr, uint32_t size, uint32_t word)
{
	return word - addr < size || addr - word < 4;
}

/* FNV-1a over the parent and the label */
static uint32_t child_hash(int32_t parent, const uint8_t *label, size_t len)
{
	uint32_t h = 2166136261u ^ (uint32_t)parent;

	h *= 16777619u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ label[i]) * 16777619u;
	return h;
}

/* The child of parent labelled label, created if new; NODE_FULL if new
 * with the tree at its limit, NO_NODE if out of memory. */
static int32_t child(struct timers *t, int32_t parent, const uint8_t *label, size_t len)
{
	uint32_t h = child_hash(parent, label, len) & (CHILD_SLOTS - 1);
	int32_t id;
	struct node *n;

	for (; t->child_slots[h]; h = (h + 1) & (CHILD_SLOTS - 1)) {
		id = (int32_t)t->child_slots[h] - 1;
		n = &t->nodes[id];
		if (n->parent == parent && n->len == len && memcmp(n->label, label, len) == 0)
			return id;
	}
	if (t->n_nodes == CY_TIMER_MAX_NODES)
		return NODE_FULL;
	if (RESERVE(t->nodes, t->cap_nodes, t->n_nodes + 1) != 0)
		return NO_NODE;
	id = (int32_t)t->n_nodes;
	n = &t->nodes[id];
	*n = (struct node){ .parent = parent,
			    .first_child = NO_NODE,
			    .last_child = NO_NODE,
			    .next = NO_NODE,
			    .len = len };
	if (!(n->label = malloc(len + 1)))
		return NO_NODE;
	memcpy(n->label, label, len);
	n->label[len] = '\0';
	t->n_nodes++;
	t->child_slots[h] = (uint32_t)id + 1;
	if (parent < 0) { /* a root, or under an anchor */
		if (t->roots_last != NO_NODE)
			t->nodes[t->roots_last].next = id;
		else
			t->roots_first = id;
		t->roots_last = id;
	} else {
		struct node *p = &t->nodes[parent];
		n->depth = p->depth + 1;
		if (p->last_child != NO_NODE)
			t->nodes[p->last_child].next = id;
		else
			p->first_child = id;
		p->last_child = id;
	}
	return id;
}

/* A start that the node limit refuses (or inside one it refused). */
static void ignore_start(struct timers *t, cy_vm *vm, uint64_t clock, const uint8_t *label,
			 size_t len)
{
	t->n_ignored_open++;
	if (t->ignored++)
		return;
	t->first_ignored = clock;
	memcpy(t->ignored_label, label, len);
	t->ignored_label[len] = '\0';
	t->ignored_len = len;
	vm_warn(vm,
		"timers: more than %u timers; a start with a new label is ignored from here on, "
		"with every timer inside it: their time stays in the enclosing timer",
		CY_TIMER_MAX_NODES);
}

/* A length write retired; clock is the one before it: opens a timer. */
static void open_timer(struct timers *t, cy_vm *vm, uint64_t clock, uint64_t instret)
{
	uint8_t label[MSG_CHANNEL_BYTES];
	uint32_t len = 0;
	bool first_cut = false;
	int32_t node;
	size_t slice = NO_SLICE;

	cy_vm_read(vm, t->chan[MARKER_LEN], &len, sizeof(len));
	if (len > MSG_CHANNEL_BYTES) {
		first_cut = t->long_labels++ == 0;
		if (first_cut)
			t->first_long = clock;
		len = MSG_CHANNEL_BYTES;
	}
	if (cy_vm_read(vm, t->chan[MARKER_MSG], label, len) != 0)
		len = 0;
	if (t->n_ignored_open) { /* inside an ignored timer */
		ignore_start(t, vm, clock, label, len);
		return;
	}
	node = child(t,
		     t->n_stack ? t->stack[t->n_stack - 1].node
		     : t->chunk ? ANCHOR(t->n_pops)
				: NO_NODE,
		     label, len);
	if (node == NODE_FULL) {
		ignore_start(t, vm, clock, label, len);
		return;
	}
	if (node == NO_NODE || RESERVE(t->stack, t->cap_stack, t->n_stack + 1) != 0 ||
	    (t->n_slices < CY_TIMER_MAX_SLICES &&
	     RESERVE(t->slices, t->cap_slices, t->n_slices + 1) != 0)) {
		vm_warn(vm, "timers: out of host memory, timer dropped");
		return;
	}
	if (first_cut)
		t->long_node = node;
	if (t->n_slices < CY_TIMER_MAX_SLICES) {
		t->slices[t->n_slices] = (cy_timer_slice){
			.timer = node, .start_cycle = clock, .start_instret = instret, .open = true
		};
		slice = t->n_slices++;
	} else if (t->slices_dropped++ == 0) {
		t->first_slice_dropped = clock;
		vm_warn(vm,
			"timers: more than %u timer slices; later ones are not kept, the tree's "
			"totals stay exact",
			CY_TIMER_MAX_SLICES);
	}
	t->stack[t->n_stack++] = (struct open_timer){ node, slice, clock, instret };
	t->nodes[node].n_open++;
}

/* A signal write is about to run at clock (before it): closes a timer. */
static void close_timer(struct timers *t, uint64_t clock, uint64_t instret)
{
	struct open_timer *o;
	cy_timer_slice *s;
	struct node *n;

	if (t->n_ignored_open) { /* the innermost open timer is an ignored one */
		t->n_ignored_open--;
		return;
	}
	if (t->n_stack == 0 && t->chunk) { /* one open below the chunk's start, if any */
		if (RESERVE(t->pops, t->cap_pops, t->n_pops + 1) == 0)
			t->pops[t->n_pops++] = (struct prefix_close){ clock, instret };
		return;
	}
	if (t->n_stack == 0) {
		if (t->unmatched++ == 0)
			t->first_unmatched = clock;
		return;
	}
	o = &t->stack[--t->n_stack];
	if (o->slice != NO_SLICE) {
		s = &t->slices[o->slice];
		s->end_cycle = clock;
		s->end_instret = instret;
		s->open = false;
	}
	n = &t->nodes[o->node];
	n->count++;
	n->cycles += clock - o->start_cycle;
	n->instructions += instret - o->start_instret;
	n->n_open--;
}

/* The instruction word at pc (a compressed one in its low 16 bits). */
static uint32_t word_at(cy_vm *vm, uint32_t pc)
{
	uint16_t half = 0;
	uint32_t word;

	cy_vm_read(vm, pc, &half, sizeof(half));
	word = half;
	if ((half & 3) == 3)
		cy_vm_read(vm, pc, &word, sizeof(word));
	return word;
}

/* A chunk's step dropped at the limit inside the timer below its start at
 * depth j: counted by depth, since whether that timer was open is known
 * only when the chunk is merged. */
static void drop_anchor_step(struct timers *t, size_t j, uint64_t cycle)
{
	if (j >= t->n_anchor_drops) {
		struct anchor_drops *d = realloc(t->anchor_drops, (j + 1) * sizeof(*d));
		if (!d)
			return;
		memset(d + t->n_anchor_drops, 0, (j + 1 - t->n_anchor_drops) * sizeof(*d));
		t->anchor_drops = d;
		t->n_anchor_drops = j + 1;
	}
	if (t->anchor_drops[j].count++ == 0)
		t->anchor_drops[j].first = cycle;
}

/* Keeps the instruction at pc, which ran from clock before to after, as a
 * step of the innermost timer (a chunk's: of the one below its start). */
static void keep_step(struct timers *t, cy_vm *vm, uint32_t pc, uint64_t before, uint64_t after,
		      const cy_cost_parts *parts)
{
	int32_t timer = t->n_stack ? t->stack[t->n_stack - 1].node : ANCHOR(t->n_pops);
	cy_timer_step *s;

	if (timer >= 0)
		t->nodes[timer].steps++;
	else
		t->anchor_steps++;
	if (timer < 0 && t->n_anchor_kept >= CY_TIMER_MAX_STEPS) {
		drop_anchor_step(t, ANCHOR_DEPTH(timer), before);
		return;
	}
	if (timer >= 0 && t->n_steps - t->n_anchor_kept >= CY_TIMER_MAX_STEPS) {
		if (t->steps_dropped++ == 0) {
			t->first_step_dropped = before;
			vm_warn(vm,
				"timers: more than %u explained steps; later ones are counted but "
				"not kept",
				CY_TIMER_MAX_STEPS);
		}
		return;
	}
	if (RESERVE(t->steps, t->cap_steps, t->n_steps + 1) != 0)
		return;
	s = &t->steps[t->n_steps++];
	if (timer < 0)
		t->n_anchor_kept++;
	*s = (cy_timer_step){ .timer = timer,
			      .cycle_before = before,
			      .cycle_after = after,
			      .pc = pc,
			      .bits = word_at(vm, pc),
			      .has_jump = t->has_jump,
			      .jump_from = t->jump_from,
			      .jump_to = t->jump_to,
			      .n_writes = t->n_writes };
	if (t->chunk && !t->jump_known)
		t->steps_inherit = t->n_steps;
	for (uint32_t i = 0; i < t->n_writes && i < CY_TIMER_MAX_WRITES; i++) {
		s->write_addr[i] = t->write_addr[i];
		s->write_size[i] = t->write_size[i];
	}
	if (parts)
		s->parts = *parts;
}

static void on_retire(struct timers *t, cy_vm *vm, const cy_event *ev)
{
	if (marker_step(&t->marker, ev->pc, word_at(vm, ev->pc))) {
		memcpy(t->chan, t->marker.addr, sizeof(t->chan));
		t->announced = true;
	}
	if (t->close_pending)
		close_timer(t, ev->cycles - ev->cost, ev->instret - 1);
	/* a timer holds its start's length store, as profiler0 counts it
	 * (its host marks the clock at the store's InstructionStart): the
	 * store's cost, and its step if significant, are the new timer's */
	if (t->open_pending)
		open_timer(t, vm, ev->cycles - ev->cost, ev->instret - 1);
	if ((t->n_stack || t->chunk) && ev->cost >= t->threshold)
		keep_step(t, vm, ev->pc, ev->cycles - ev->cost, ev->cycles, ev->parts);
	t->open_pending = t->close_pending = false;
	t->n_writes = 0;
	if (t->jump_pending) {
		t->has_jump = true;
		t->jump_known = true;
		t->jump_from = t->pending_from;
		t->jump_to = t->pending_to;
		t->jump_pending = false;
	}
}

static void on_event(void *ctx, cy_vm *vm, const cy_event *ev)
{
	struct timers *t = ctx;

	switch (ev->kind) {
	case CY_EV_RETIRE: on_retire(t, vm, ev); break;
	case CY_EV_JUMP:
		t->jump_pending = true;
		t->pending_from = ev->pc;
		t->pending_to = ev->target;
		break;
	case CY_EV_STORE:
		if (t->n_writes < CY_TIMER_MAX_WRITES) {
			t->write_addr[t->n_writes] = ev->addr;
			t->write_size[t->n_writes] = ev->size;
		}
		t->n_writes++;
		if (!t->announced)
			break;
		if (hits(ev->addr, ev->size, t->chan[MARKER_SIGNAL]))
			t->close_pending = true;
		if (hits(ev->addr, ev->size, t->chan[MARKER_LEN]))
			t->open_pending = true;
		break;
	default: break;
	}
}

/* The accounting interface's side: the recogniser on flagged blocks. */

static uint8_t timers_decoded(void *ctx, cy_vm *vm, struct block *b)
{
	(void)ctx;
	for (uint32_t i = 0; i < b->n; i++)
		if (!insn_is_pseudo(&b->insns[i]) && marker_word(word_at(vm, b->insns[i].pc)))
			return ACCT_FLAG_TIMERS;
	return 0;
}

static bool timers_split_after(void *ctx, cy_vm *vm, const struct insn *in)
{
	(void)ctx;
	return marker_last_word(word_at(vm, in->pc));
}

static void on_event(void *ctx, cy_vm *vm, const cy_event *ev);

/* The events the attached timers ask for until the announcement (the
 * recogniser, and the last jump a step names), and once on the accounting
 * interface after it. */
#define EVENTS_BEFORE    (ACCT_FLAGGED | ACCT_LAST_TRANSFER)
#define EVENTS_ANNOUNCED (EVENTS_BEFORE | ACCT_STORE | ACCT_ECALL | ACCT_EXTRA)

/* The last jump before the current instruction, from the interface. */
static void sync_jump(struct timers *t, cy_vm *vm)
{
	t->has_jump = vm->acct.has_last;
	t->jump_from = vm->acct.last_from;
	t->jump_to = vm->acct.last_to;
	if (t->chunk && t->has_jump) /* has_last was cleared at its start */
		t->jump_known = true;
}

/* From the next block on, every instruction's events: with the last jump
 * so far, as the events would have told it (in a chunk, one before its
 * start is not known here: the merge gives it). */
static void watch_every_instruction(struct timers *t, cy_vm *vm)
{
	sync_jump(t, vm);
	t->watching = false;
	acct_unsubscribe(vm, t);
	if (cy_vm_add_observer(
		vm, CY_EV_BIT(CY_EV_RETIRE) | CY_EV_BIT(CY_EV_STORE) | CY_EV_BIT(CY_EV_JUMP),
		on_event, t) != 0)
		vm_fault(vm, CY_FAULT_HOST, vm->pc, vm->pc);
	vm->break_loop = true;
}

/* Whether the accounting interface gives every instruction's answer
 * exactly: an instruction is a step when its cost reaches the threshold,
 * and costs other than its static cost arrive as events (an ecall's
 * charge; an extra, with what the instruction stored and, under a paging
 * model, the cost's parts its RETIRE event would carry). Not so under
 * event counting, the bare platform or page protections (their accounts
 * run before each instruction), nor under a detailed model the
 * interpreter accounts instruction by instruction (memory rows, paging
 * with wait states: there the extras are as many as the events), nor when
 * a paging model's division by zero costs apart (a second extra for an
 * instruction that paged). And no instruction may reach the threshold
 * whose cost no event announces or whose event lacks the parts: no static
 * cost (a taken branch's and the fetch's wait states included), nor,
 * under wait states found inline, a static cost with the most an
 * instruction's accesses wait (an AMO's two, each split over two bus
 * words with wait states on both) or with a division by zero's extra. */
static bool exact_on_accounting(const struct timers *t, const cy_vm *vm)
{
	const struct cost_model *m = &vm->model;
	uint64_t most = 0, extra = 0;

	if (vm->machine || vm->ctr.counting || vm->prot)
		return false;
	if (vm->cost.detailed) {
		if (!exec_costs_inline(vm) || (m->paging && vm->cost.div_zero_delta))
			return false;
		if (!m->paging) {
			extra = 2 * (2 * (uint64_t)m->data_wait_states + m->misaligned_extra);
			if (vm->cost.div_zero_delta > 0 &&
			    (uint64_t)vm->cost.div_zero_delta > extra)
				extra = (uint64_t)vm->cost.div_zero_delta;
		}
	}
	for (int c = 0; c < CY_CLASS_COUNT; c++)
		most = m->class_cost[c] > most ? m->class_cost[c] : most;
	for (size_t i = 0; i < sizeof(m->insn_cost) / sizeof(m->insn_cost[0]); i++)
		most = m->insn_cost[i] > most ? m->insn_cost[i] : most;
	most += (uint64_t)vm->cost.taken_extra + m->fetch_wait_states + extra;
	return most < t->threshold;
}

/* The channels' length and signal words, watched (their stores are what
 * opens and closes timers; the message buffer is read at an open). */
static int watch_channels(struct timers *t, cy_vm *vm)
{
	acct_unwatch(vm, t);
	if (acct_watch(vm, t, t->chan[MARKER_LEN], 4) != 0 ||
	    acct_watch(vm, t, t->chan[MARKER_SIGNAL], 4) != 0)
		return -EINVAL;
	return 0;
}

/* Announced: on the accounting interface if it is exact here, else every
 * instruction's events. */
static void start_watching(struct timers *t, cy_vm *vm)
{
	if (!exact_on_accounting(t, vm) || watch_channels(t, vm) != 0) {
		watch_every_instruction(t, vm);
		return;
	}
	t->watching = true;
	acct_set_events(vm, t, EVENTS_ANNOUNCED);
}

/* A step, if the instruction at pc that ran from before for cost cycles
 * reaches the threshold inside a timer (on_retire's test). */
static void step_if_significant(struct timers *t, cy_vm *vm, uint32_t pc, uint64_t before,
				uint32_t cost, const cy_cost_parts *parts)
{
	if (!(t->n_stack || t->chunk) || cost < t->threshold)
		return;
	sync_jump(t, vm);
	keep_step(t, vm, pc, before, before + cost, parts);
}

/* A store into a channel word: the clock is before its instruction, as
 * on_retire's (close before open). */
static void timers_store(void *ctx, cy_vm *vm, const struct insn *in, uint64_t addr, uint32_t size,
			 uint64_t cycles, uint64_t instret)
{
	struct timers *t = ctx;

	(void)in;
	if (hits(addr, size, t->chan[MARKER_SIGNAL]))
		close_timer(t, cycles, instret);
	if (hits(addr, size, t->chan[MARKER_LEN]))
		open_timer(t, vm, cycles, instret);
}

static void timers_ecall(void *ctx, cy_vm *vm, const struct insn *in, uint32_t nr, uint64_t cycles,
			 uint64_t instret)
{
	struct timers *t = ctx;

	(void)vm, (void)in, (void)nr, (void)cycles;
	t->ecall_instret = instret;
}

/* The ecall's cost: its static cost and what the ABI charged, unless the
 * ABI moved the clock back, far forward or moved instret (the interpreter
 * then takes the ABI's clock, and the ecall costs its static cost, below
 * the threshold); in 32 bits, as the RETIRE event carries it. Under a
 * detailed model the event carries the account's parts too: for an ecall
 * that cost no extra (one that did made its step as the extra), its static
 * cost alone (a paging model's account: no data access, nothing paged). */
static void timers_ecall_retired(void *ctx, cy_vm *vm, const struct insn *in, uint64_t before,
				 uint64_t cycles, uint64_t instret)
{
	struct timers *t = ctx;
	uint32_t cost = in->after - in->before;
	uint64_t charged = cycles - before - cost;
	const cy_cost_parts parts = { .base = cost };

	if (instret != t->ecall_instret + 1 || charged > UINT32_MAX || instret == t->extra_instret)
		return; /* an extra of the ecall's (a page-in) made the step */
	step_if_significant(t, vm, in->pc, before, (uint32_t)(cost + charged),
			    vm->cost.detailed ? &parts : NULL);
}

/* The step's cost is the instruction's whole (an ecall's charge included:
 * its step is this one); its writes, what it stored, as its STORE event
 * would say. */
static void timers_extra(void *ctx, cy_vm *vm, const struct insn *in, int64_t extra,
			 const cy_cost_parts *parts, uint64_t before, uint64_t cycles,
			 uint64_t instret)
{
	struct timers *t = ctx;
	uint32_t cost = (uint32_t)(cycles - before);

	(void)extra;
	t->extra_instret = instret;
	t->n_writes = 0;
	if (vm->acct.extra_store_size) {
		t->write_addr[0] = vm->acct.extra_store_addr;
		t->write_size[0] = vm->acct.extra_store_size;
		t->n_writes = 1;
	}
	step_if_significant(t, vm, in->pc, cycles - cost, cost, parts);
	t->n_writes = 0;
}

static void timers_flagged(void *ctx, cy_vm *vm, const struct block *b, uint32_t retired,
			   uint64_t instret)
{
	struct timers *t = ctx;
	bool moved = false;

	(void)instret;
	if (!(b->flags & ACCT_FLAG_TIMERS))
		return; /* another subscriber's */
	/* the announcements are followed for the whole run (a second one
	 * moves the channels) but by the timers on every instruction's
	 * events; the recogniser ignores the words of unflagged blocks, so
	 * this is what every instruction would say */
	for (uint32_t i = 0; i < retired; i++) {
		if (insn_is_pseudo(&b->insns[i]) ||
		    !marker_step(&t->marker, b->insns[i].pc, word_at(vm, b->insns[i].pc)))
			continue;
		memcpy(t->chan, t->marker.addr, sizeof(t->chan));
		t->announced = true;
		moved = true;
	}
	if (!moved || t->boundary)
		return;
	/* the block ends after the announcement's last word: the channels
	 * are the new ones from the next instruction on */
	if (!t->watching)
		start_watching(t, vm);
	else if (watch_channels(t, vm) != 0)
		watch_every_instruction(t, vm);
}

static const struct acct_ops timer_ops = {
	.decoded = timers_decoded,
	.split_after = timers_split_after,
	.flagged = timers_flagged,
	.store = timers_store,
	.ecall = timers_ecall,
	.ecall_retired = timers_ecall_retired,
	.extra = timers_extra,
};

/* Timers not attached to a VM (a chunk's results, before they are merged). */
static struct timers *timers_new(cy_vm *vm, uint64_t threshold)
{
	struct timers *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->vm = vm;
	t->roots_first = t->roots_last = NO_NODE;
	t->long_node = NO_NODE;
	t->threshold = threshold;
	if (!(t->child_slots = calloc(CHILD_SLOTS, sizeof(*t->child_slots)))) {
		timers_free(t);
		return NULL;
	}
	return t;
}

int timers_attach(cy_vm *vm, uint64_t threshold, bool boundary, struct timers **out)
{
	struct timers *t = timers_new(vm, threshold);
	int rc;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->boundary = boundary;
	if (vm->opts.reference && !boundary)
		rc = cy_vm_add_observer(
		    vm, CY_EV_BIT(CY_EV_RETIRE) | CY_EV_BIT(CY_EV_STORE) | CY_EV_BIT(CY_EV_JUMP),
		    on_event, t);
	else
		rc = acct_subscribe(vm, boundary ? ACCT_FLAGGED : EVENTS_BEFORE, &timer_ops, t);
	if (rc != 0) {
		timers_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

/* Numbers the nodes in pre-order into t->pub_index. */
static size_t number(struct timers *t, int32_t id, size_t at)
{
	for (; id != NO_NODE; id = t->nodes[id].next) {
		t->pub_index[id] = (int32_t)at++;
		at = number(t, t->nodes[id].first_child, at);
	}
	return at;
}

const cy_timer *cy_vm_timers(cy_vm *vm, size_t *n)
{
	struct timers *t = vm->timers;

	*n = 0;
	if (!t || RESERVE(t->pub, t->cap_pub, t->n_nodes) != 0 ||
	    RESERVE(t->pub_index, t->cap_index, t->n_nodes) != 0)
		return NULL;
	number(t, t->roots_first, 0);
	for (size_t id = 0; id < t->n_nodes; id++) {
		const struct node *nd = &t->nodes[id];
		t->pub[t->pub_index[id]] = (cy_timer){
			.label = nd->label,
			.label_len = nd->len,
			.parent = nd->parent == NO_NODE ? -1 : t->pub_index[nd->parent],
			.depth = nd->depth,
			.count = nd->count,
			.cycles = nd->cycles,
			.instructions = nd->instructions,
			.open = nd->n_open > 0,
			.steps = nd->steps,
		};
	}
	*n = t->n_nodes;
	return t->pub;
}

const cy_timer_step *cy_vm_timer_steps(cy_vm *vm, size_t *n)
{
	struct timers *t = vm->timers;
	size_t n_nodes;

	*n = 0;
	if (!t || !cy_vm_timers(vm, &n_nodes) ||
	    RESERVE(t->pub_steps, t->cap_pub_steps, t->n_steps) != 0)
		return NULL;
	for (size_t i = 0; i < t->n_steps; i++) {
		t->pub_steps[i] = t->steps[i];
		t->pub_steps[i].timer = t->pub_index[t->steps[i].timer];
	}
	*n = t->n_steps;
	return t->pub_steps;
}

const cy_timer_slice *cy_vm_timer_slices(cy_vm *vm, size_t *n)
{
	struct timers *t = vm->timers;
	size_t n_nodes;

	*n = 0;
	if (!t || !cy_vm_timers(vm, &n_nodes) ||
	    RESERVE(t->pub_slices, t->cap_pub_slices, t->n_slices) != 0)
		return NULL;
	for (size_t i = 0; i < t->n_slices; i++) {
		cy_timer_slice *s = &t->pub_slices[i];
		*s = t->slices[i];
		s->timer = t->pub_index[s->timer];
		if (s->open) {
			s->end_cycle = cy_vm_cycles(vm);
			s->end_instret = cy_vm_instret(vm);
		}
	}
	*n = t->n_slices;
	return t->pub_slices;
}

const cy_timer_issue *cy_vm_timer_issues(cy_vm *vm, size_t *n)
{
	struct timers *t = vm->timers;
	size_t k = 0;

	*n = 0;
	if (!t || RESERVE(t->issues, t->cap_issues, t->n_stack + 5) != 0)
		return NULL;
	if (t->unmatched)
		t->issues[k++] = (cy_timer_issue){ CY_TIMER_UNMATCHED_STOP, "", 0, t->unmatched,
						   t->first_unmatched };
	if (t->long_labels) {
		const struct node *nd = t->long_node != NO_NODE ? &t->nodes[t->long_node] : NULL;
		t->issues[k++] =
		    (cy_timer_issue){ CY_TIMER_LONG_LABEL, nd ? nd->label : "", nd ? nd->len : 0,
				      t->long_labels, t->first_long };
	}
	if (t->ignored)
		t->issues[k++] = (cy_timer_issue){ CY_TIMER_TOO_MANY_TIMERS, t->ignored_label,
						   t->ignored_len, t->ignored, t->first_ignored };
	if (t->slices_dropped)
		t->issues[k++] = (cy_timer_issue){ CY_TIMER_TOO_MANY_SLICES, "", 0,
						   t->slices_dropped, t->first_slice_dropped };
	if (t->steps_dropped)
		t->issues[k++] = (cy_timer_issue){ CY_TIMER_TOO_MANY_STEPS, "", 0, t->steps_dropped,
						   t->first_step_dropped };
	for (size_t i = 0; i < t->n_stack; i++) {
		const struct node *nd = &t->nodes[t->stack[i].node];
		t->issues[k++] = (cy_timer_issue){ CY_TIMER_NEVER_STOPPED, nd->label, nd->len, 1,
						   t->stack[i].start_cycle };
	}
	*n = k;
	return t->issues;
}

uint64_t cy_vm_timer_threshold(const cy_vm *vm) { return vm->timers ? vm->timers->threshold : 0; }

bool cy_vm_timer_channels(const cy_vm *vm, uint32_t addr[3])
{
	if (!vm->timers || !vm->timers->announced)
		return false;
	memcpy(addr, vm->timers->chan, sizeof(vm->timers->chan));
	return true;
}

/* Checkpoints and chunks (docs/scale-out.md). The fast pass's timers save
 * the announcement only; restored into whole timers they start a chunk,
 * whose open timers below its start are unknown (ANCHOR). Whole timers
 * save everything, a chunk's records included. */
static void node_io(struct sio *io, struct node *n)
{
	sio_blob(io, (void **)&n->label, &n->len, MSG_CHANNEL_BYTES, "bytes of a label");
	sio_i32(io, &n->parent);
	sio_i32(io, &n->first_child);
	sio_i32(io, &n->last_child);
	sio_i32(io, &n->next);
	sio_u64(io, &n->count);
	sio_u64(io, &n->cycles);
	sio_u64(io, &n->instructions);
	sio_u64(io, &n->steps);
}

static void parts_io(struct sio *io, cy_cost_parts *p)
{
	sio_u32(io, &p->base);
	sio_u32(io, &p->wait);
	sio_u32(io, &p->memory);
	sio_u32(io, &p->page_in);
	sio_u32(io, &p->page_out);
	sio_u32(io, &p->segment);
	sio_bool(io, &p->segment_start);
	sio_u32(io, &p->n_page_in);
	sio_u32(io, &p->n_page_out);
	sio_raw(io, p->page_in_addr, sizeof(p->page_in_addr));
	sio_raw(io, p->page_in_reason, sizeof(p->page_in_reason));
	sio_raw(io, p->page_out_addr, sizeof(p->page_out_addr));
}

static void step_io(struct sio *io, cy_timer_step *st)
{
	sio_i32(io, &st->timer);
	sio_u64(io, &st->cycle_before);
	sio_u64(io, &st->cycle_after);
	sio_u32(io, &st->pc);
	sio_u32(io, &st->bits);
	sio_bool(io, &st->has_jump);
	sio_u32(io, &st->jump_from);
	sio_u32(io, &st->jump_to);
	sio_u32(io, &st->n_writes);
	sio_raw(io, st->write_addr, sizeof(st->write_addr));
	sio_raw(io, st->write_size, sizeof(st->write_size));
	parts_io(io, &st->parts);
}

static void slice_io(struct sio *io, cy_timer_slice *sl)
{
	sio_i32(io, &sl->timer);
	sio_u64(io, &sl->start_cycle);
	sio_u64(io, &sl->end_cycle);
	sio_u64(io, &sl->start_instret);
	sio_u64(io, &sl->end_instret);
	sio_bool(io, &sl->open);
}

static void open_io(struct sio *io, struct open_timer *o)
{
	sio_i32(io, &o->node);
	sio_size(io, &o->slice);
	sio_u64(io, &o->start_cycle);
	sio_u64(io, &o->start_instret);
}

/* A node of a chunk's tree may hang under an anchor; whole timers' do not. */
static bool parent_ok(const struct timers *t, int32_t p, size_t i)
{
	return p == NO_NODE || (p >= 0 && (size_t)p < i) || (t->chunk && IS_ANCHOR(p));
}

static bool index_ok(const struct timers *t, int32_t n)
{
	return n == NO_NODE || (n >= 0 && (size_t)n < t->n_nodes);
}

/* Whether the restored tables hold together (every index in range, the
 * links a tree whose walks end), and the hash of labels rebuilt. */
static void timers_check(struct sio *io, struct timers *t)
{
	for (size_t i = 0; i < t->n_nodes && sio_ok(io); i++) {
		struct node *n = &t->nodes[i];
		if (!parent_ok(t, n->parent, i) || !index_ok(t, n->first_child) ||
		    !index_ok(t, n->last_child) || !index_ok(t, n->next) ||
		    (n->next != NO_NODE && n->next <= (int32_t)i) ||
		    (n->first_child != NO_NODE && n->first_child <= (int32_t)i) ||
		    ((n->first_child == NO_NODE) != (n->last_child == NO_NODE)))
			sio_fail(io, "timer node %zu does not fit the tree", i);
	}
	for (size_t i = 0; i < t->n_nodes && sio_ok(io); i++) {
		struct node *n = &t->nodes[i];
		int32_t up = n->parent < 0 ? NO_NODE : n->parent;
		if ((n->first_child != NO_NODE && t->nodes[n->first_child].parent != (int32_t)i) ||
		    (n->last_child != NO_NODE && (t->nodes[n->last_child].parent != (int32_t)i ||
						  t->nodes[n->last_child].next != NO_NODE)) ||
		    (n->next != NO_NODE &&
		     (t->nodes[n->next].parent < 0 ? NO_NODE : t->nodes[n->next].parent) != up))
			sio_fail(io, "timer node %zu is linked to nodes of another parent", i);
		n->depth = n->parent < 0 ? 0 : t->nodes[n->parent].depth + 1;
		n->n_open = 0;
	}
	if (!index_ok(t, t->roots_first) || !index_ok(t, t->roots_last) ||
	    (t->roots_first == NO_NODE) != (t->roots_last == NO_NODE) ||
	    (t->roots_first != NO_NODE &&
	     (t->nodes[t->roots_first].parent >= 0 || t->nodes[t->roots_last].parent >= 0 ||
	      t->nodes[t->roots_last].next != NO_NODE)))
		sio_fail(io, "the timer tree's roots are not its top nodes");
	for (size_t i = 0; i < t->n_stack && sio_ok(io); i++) {
		struct open_timer *o = &t->stack[i];
		if (o->node < 0 || (size_t)o->node >= t->n_nodes ||
		    (o->slice != NO_SLICE && o->slice >= t->n_slices))
			sio_fail(io, "open timer %zu is not a node and slice", i);
		else
			t->nodes[o->node].n_open++;
	}
	for (size_t i = 0; i < t->n_slices && sio_ok(io); i++)
		if (t->slices[i].timer < 0 || (size_t)t->slices[i].timer >= t->n_nodes)
			sio_fail(io, "slice %zu is of no timer", i);
	for (size_t i = 0; i < t->n_steps && sio_ok(io); i++)
		if (!(t->steps[i].timer >= 0 && (size_t)t->steps[i].timer < t->n_nodes) &&
		    !(t->chunk && IS_ANCHOR(t->steps[i].timer)))
			sio_fail(io, "step %zu is in no timer", i);
	if (!index_ok(t, t->long_node) || t->steps_inherit > t->n_steps)
		sio_fail(io, "the timers' warnings name no timer");
	/* the labels' hash, from the nodes in the order they were made */
	memset(t->child_slots, 0, CHILD_SLOTS * sizeof(*t->child_slots));
	for (size_t i = 0; i < t->n_nodes && sio_ok(io); i++) {
		struct node *n = &t->nodes[i];
		uint32_t h =
		    child_hash(n->parent, (const uint8_t *)n->label, n->len) & (CHILD_SLOTS - 1);
		while (t->child_slots[h])
			h = (h + 1) & (CHILD_SLOTS - 1);
		t->child_slots[h] = (uint32_t)i + 1;
	}
}

/* The tables: whole timers' (a chunk's records included). */
static void tables_io(struct sio *io, struct timers *t)
{
	if (io->load) {
		for (size_t i = 0; i < t->n_nodes; i++)
			free(t->nodes[i].label);
		t->n_nodes = 0;
	}
	size_t n_nodes = t->n_nodes;
	sio_bool(io, &t->chunk);
	sio_count(io, &n_nodes, CY_TIMER_MAX_NODES, 40, "timers");
	if (io->load && sio_alloc(io, (void **)&t->nodes, n_nodes, sizeof(*t->nodes))) {
		t->cap_nodes = n_nodes + 1;
		t->n_nodes = n_nodes;
	}
	for (size_t i = 0; i < t->n_nodes && sio_ok(io); i++)
		node_io(io, &t->nodes[i]);
	sio_i32(io, &t->roots_first);
	sio_i32(io, &t->roots_last);
	sio_count(io, &t->n_stack, CY_TIMER_MAX_NODES, 32, "open timers");
	if (io->load && sio_alloc(io, (void **)&t->stack, t->n_stack, sizeof(*t->stack)))
		t->cap_stack = t->n_stack + 1;
	for (size_t i = 0; i < t->n_stack && sio_ok(io); i++)
		open_io(io, &t->stack[i]);
	sio_u64(io, &t->n_ignored_open);
	sio_count(io, &t->n_slices, CY_TIMER_MAX_SLICES, 37, "timer slices");
	if (io->load && sio_alloc(io, (void **)&t->slices, t->n_slices, sizeof(*t->slices)))
		t->cap_slices = t->n_slices + 1;
	for (size_t i = 0; i < t->n_slices && sio_ok(io); i++)
		slice_io(io, &t->slices[i]);
	sio_count(io, &t->n_steps, 2 * CY_TIMER_MAX_STEPS, 64, "explained steps");
	sio_size(io, &t->n_anchor_kept);
	if (io->load && t->n_anchor_kept > t->n_steps)
		sio_fail(io, "%zu steps under unknown timers of %zu", t->n_anchor_kept, t->n_steps);
	if (io->load && sio_alloc(io, (void **)&t->steps, t->n_steps, sizeof(*t->steps)))
		t->cap_steps = t->n_steps + 1;
	for (size_t i = 0; i < t->n_steps && sio_ok(io); i++)
		step_io(io, &t->steps[i]);
	sio_bool(io, &t->open_pending);
	sio_bool(io, &t->close_pending);
	sio_u32(io, &t->n_writes);
	sio_raw(io, t->write_size, sizeof(t->write_size));
	sio_raw(io, t->write_addr, sizeof(t->write_addr));
	sio_bool(io, &t->jump_pending);
	sio_bool(io, &t->has_jump);
	sio_u32(io, &t->pending_from);
	sio_u32(io, &t->pending_to);
	sio_u32(io, &t->jump_from);
	sio_u32(io, &t->jump_to);
	sio_u64(io, &t->unmatched);
	sio_u64(io, &t->first_unmatched);
	sio_u64(io, &t->long_labels);
	sio_u64(io, &t->first_long);
	sio_i32(io, &t->long_node);
	sio_u64(io, &t->ignored);
	sio_u64(io, &t->first_ignored);
	sio_size(io, &t->ignored_len);
	if (io->load && t->ignored_len > MSG_CHANNEL_BYTES)
		sio_fail(io, "an ignored label of %zu bytes", t->ignored_len);
	if (sio_ok(io))
		sio_raw(io, t->ignored_label, t->ignored_len);
	t->ignored_label[sio_ok(io) ? t->ignored_len : 0] = '\0';
	sio_u64(io, &t->slices_dropped);
	sio_u64(io, &t->first_slice_dropped);
	sio_u64(io, &t->steps_dropped);
	sio_u64(io, &t->first_step_dropped);
	/* a chunk's records */
	sio_count(io, &t->n_pops, SIZE_MAX, 16, "closes below a chunk");
	if (io->load && sio_alloc(io, (void **)&t->pops, t->n_pops, sizeof(*t->pops)))
		t->cap_pops = t->n_pops + 1;
	for (size_t i = 0; i < t->n_pops && sio_ok(io); i++) {
		sio_u64(io, &t->pops[i].cycle);
		sio_u64(io, &t->pops[i].instret);
	}
	sio_bool(io, &t->jump_known);
	sio_size(io, &t->steps_inherit);
	sio_u64(io, &t->anchor_steps);
	sio_count(io, &t->n_anchor_drops, SIZE_MAX, 16, "depths of dropped steps");
	if (io->load)
		sio_alloc(io, (void **)&t->anchor_drops, t->n_anchor_drops,
			  sizeof(*t->anchor_drops));
	for (size_t i = 0; i < t->n_anchor_drops && sio_ok(io); i++) {
		sio_u64(io, &t->anchor_drops[i].count);
		sio_u64(io, &t->anchor_drops[i].first);
	}
	if (io->load && sio_ok(io))
		timers_check(io, t);
	if (io->load && !sio_ok(io)) { /* empty timers are ones the VM may go on with */
		t->n_stack = t->n_slices = t->n_steps = t->n_pops = t->n_anchor_drops = 0;
		t->roots_first = t->roots_last = t->long_node = NO_NODE;
		memset(t->child_slots, 0, CHILD_SLOTS * sizeof(*t->child_slots));
		for (size_t i = 0; i < t->n_nodes; i++)
			free(t->nodes[i].label);
		t->n_nodes = 0;
	}
}

int timers_state_io(struct sio *io, struct timers *t)
{
	bool tables = !t->boundary;
	uint64_t threshold = t->threshold;

	if (!io->load && t->watching && t->vm) /* the jump the tables name */
		sync_jump(t, t->vm);
	sio_tag(io, "TIMR");
	sio_u64(io, &threshold);
	if (io->load && threshold != t->threshold)
		return sio_fail(io, "its timers explain steps from %llu cycles, not %llu",
				(unsigned long long)threshold, (unsigned long long)t->threshold),
		       io->err;
	sio_unsigned(io, &t->marker.state);
	sio_u32(io, &t->marker.magic_hi);
	sio_u32(io, &t->marker.auipc);
	for (int i = 0; i < MARKER_CHANNELS; i++)
		sio_u32(io, &t->marker.addr[i]);
	if (io->load && t->marker.state >= MARKER_STATES)
		sio_fail(io, "the announcement recogniser is in state %u", t->marker.state);
	sio_bool(io, &t->announced);
	for (int i = 0; i < MARKER_CHANNELS; i++)
		sio_u32(io, &t->chan[i]);
	sio_bool(io, &tables);
	if (tables && !(io->load && t->boundary))
		tables_io(io, t);
	else if (tables) /* a whole state into the fast pass's: its tables are not followed */
		return sio_fail(io, "its timers' tables cannot go on in a fast pass"), io->err;
	if (!io->load || !sio_ok(io) || t->boundary)
		return io->err;
	if (!tables && !t->vm)
		return sio_fail(io, "its timers hold no results"), io->err;
	if (!tables) { /* the start of a chunk */
		t->chunk = true;
		t->jump_known = false;
		t->has_jump = false;
		t->vm->acct.has_last = false; /* a jump before the chunk is not known here */
	}
	/* announced: the channels watched (or every instruction's events)
	 * from here on, as the whole run has them, with the last jump the
	 * tables name (attached, these timers read flagged blocks) */
	if (t->announced && t->vm && !t->vm->opts.reference) {
		bool has = t->has_jump, known = t->jump_known;
		uint32_t from = t->jump_from, to = t->jump_to;
		if (t->watching) /* a restore into watching timers: the new channels */
			t->watching = false;
		start_watching(t, t->vm);
		t->has_jump = has, t->jump_known = known;
		t->jump_from = from, t->jump_to = to;
		if (t->watching) {
			t->vm->acct.has_last = has;
			t->vm->acct.last_from = from;
			t->vm->acct.last_to = to;
		}
	} else if (t->watching) { /* a restore from before the announcement */
		t->watching = false;
		acct_unwatch(t->vm, t);
		acct_set_events(t->vm, t, EVENTS_BEFORE);
	}
	return io->err;
}

struct timers *timers_unattached(uint64_t threshold) { return timers_new(NULL, threshold); }

/* The node of the timer open at anchor depth j below a chunk's start, whose
 * stack (before the chunk) was open[0..depth); NO_NODE: none was open. */
static int32_t anchor_node(const struct open_timer *open, size_t depth, int32_t anchor)
{
	size_t j = ANCHOR_DEPTH(anchor);

	return j < depth ? open[depth - 1 - j].node : NO_NODE;
}

int timers_merge(struct timers *acc, const struct timers *c)
{
	size_t depth = acc->n_stack, popped = c->n_pops < depth ? c->n_pops : depth;
	struct open_timer *below = NULL;
	int32_t *map = NULL;
	size_t *slice_map = NULL;
	int rc = -ENOMEM;

	/* what the whole run would have ignored or dropped, a chunk cannot
	 * know: such chunks are not merged (docs/scale-out.md) */
	if (acc->n_ignored_open || c->ignored)
		return -ERANGE;
	below = malloc((depth + 1) * sizeof(*below));
	map = malloc((c->n_nodes + 1) * sizeof(*map));
	slice_map = malloc((c->n_slices + 1) * sizeof(*slice_map));
	if (!below || !map || !slice_map)
		goto out;
	if (depth)
		memcpy(below, acc->stack, depth * sizeof(*below));
	for (size_t i = 0; i < c->n_nodes; i++) {
		const struct node *n = &c->nodes[i];
		int32_t parent = n->parent >= 0         ? map[n->parent]
				 : IS_ANCHOR(n->parent) ? anchor_node(below, depth, n->parent)
							: NO_NODE;
		map[i] = child(acc, parent, (const uint8_t *)n->label, n->len);
		if (map[i] == NODE_FULL) {
			rc = -ERANGE;
			goto out;
		}
		if (map[i] == NO_NODE)
			goto out;
		struct node *g = &acc->nodes[map[i]];
		g->count += n->count;
		g->cycles += n->cycles;
		g->instructions += n->instructions;
		g->steps += n->steps;
	}
	/* the chunk's slices, as many as the limit leaves room for */
	for (size_t i = 0; i < c->n_slices; i++) {
		slice_map[i] = NO_SLICE;
		if (acc->n_slices < CY_TIMER_MAX_SLICES) {
			if (RESERVE(acc->slices, acc->cap_slices, acc->n_slices + 1) != 0)
				goto out;
			acc->slices[acc->n_slices] = c->slices[i];
			acc->slices[acc->n_slices].timer = map[c->slices[i].timer];
			slice_map[i] = acc->n_slices++;
		} else if (acc->slices_dropped++ == 0) {
			acc->first_slice_dropped = c->slices[i].start_cycle;
		}
	}
	if (c->slices_dropped) { /* the chunk's own, after all it kept */
		if (acc->slices_dropped == 0)
			acc->first_slice_dropped = c->first_slice_dropped;
		acc->slices_dropped += c->slices_dropped;
	}
	/* closes of timers open below the chunk's start: the innermost first;
	 * past the last of them, a close with none open */
	for (size_t j = 0; j < c->n_pops; j++) {
		if (j >= depth) {
			if (acc->unmatched++ == 0)
				acc->first_unmatched = c->pops[j].cycle;
			continue;
		}
		struct open_timer *o = &below[depth - 1 - j];
		struct node *g = &acc->nodes[o->node];
		g->count++;
		g->cycles += c->pops[j].cycle - o->start_cycle;
		g->instructions += c->pops[j].instret - o->start_instret;
		if (o->slice != NO_SLICE) {
			acc->slices[o->slice].end_cycle = c->pops[j].cycle;
			acc->slices[o->slice].end_instret = c->pops[j].instret;
			acc->slices[o->slice].open = false;
		}
	}
	/* the open timers now: those below the chunk it did not close, then
	 * the chunk's own */
	acc->n_stack = depth - popped;
	if (RESERVE(acc->stack, acc->cap_stack, acc->n_stack + c->n_stack) != 0)
		goto out;
	for (size_t i = 0; i < c->n_stack; i++) {
		struct open_timer o = c->stack[i];
		o.node = map[o.node];
		o.slice = o.slice == NO_SLICE ? NO_SLICE : slice_map[o.slice];
		acc->stack[acc->n_stack++] = o;
	}
	for (size_t i = 0; i < acc->n_nodes; i++)
		acc->nodes[i].n_open = 0;
	for (size_t i = 0; i < acc->n_stack; i++)
		acc->nodes[acc->stack[i].node].n_open++;
	/* the explained steps: under an anchor only where a timer was open;
	 * each kind kept its first ones, of which the whole run keeps as many
	 * as its limit leaves, in the order they ran */
	uint64_t dropped = 0, first = UINT64_MAX;
	for (size_t i = 0; i < c->n_steps; i++) {
		cy_timer_step st = c->steps[i];
		int32_t node = st.timer >= 0 ? map[st.timer] : anchor_node(below, depth, st.timer);
		if (node == NO_NODE)
			continue; /* no timer was open there: not a step */
		if (st.timer < 0)
			acc->nodes[node].steps++;
		if (i < c->steps_inherit) { /* before the chunk's first jump */
			st.has_jump = acc->has_jump;
			st.jump_from = acc->jump_from;
			st.jump_to = acc->jump_to;
		}
		st.timer = node;
		if (acc->n_steps >= CY_TIMER_MAX_STEPS) {
			dropped++;
			if (st.cycle_before < first)
				first = st.cycle_before;
			continue;
		}
		if (RESERVE(acc->steps, acc->cap_steps, acc->n_steps + 1) != 0)
			goto out;
		acc->steps[acc->n_steps++] = st;
	}
	if (c->steps_dropped) {
		dropped += c->steps_dropped;
		if (c->first_step_dropped < first)
			first = c->first_step_dropped;
	}
	for (size_t j = 0; j < c->n_anchor_drops; j++) {
		int32_t node = anchor_node(below, depth, ANCHOR(j));
		if (node == NO_NODE || !c->anchor_drops[j].count)
			continue;
		acc->nodes[node].steps += c->anchor_drops[j].count;
		dropped += c->anchor_drops[j].count;
		if (c->anchor_drops[j].first < first)
			first = c->anchor_drops[j].first;
	}
	if (dropped && acc->steps_dropped == 0) {
		acc->first_step_dropped = first;
		vm_warn(acc->vm,
			"timers: more than %u explained steps; later ones are counted but not kept",
			CY_TIMER_MAX_STEPS);
	}
	acc->steps_dropped += dropped;
	if (c->long_labels) {
		if (acc->long_labels == 0) {
			acc->first_long = c->first_long;
			acc->long_node = c->long_node == NO_NODE ? NO_NODE : map[c->long_node];
		}
		acc->long_labels += c->long_labels;
	}
	if (c->jump_known) {
		acc->has_jump = c->has_jump;
		acc->jump_from = c->jump_from;
		acc->jump_to = c->jump_to;
	}
	rc = 0;
out:
	free(below);
	free(map);
	free(slice_map);
	return rc;
}

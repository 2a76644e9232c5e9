/* timer.c - the channel timers: an observer of retired instructions, stores
 * and jumps. It feeds every executed instruction word to the announcement
 * recogniser (timer_marker.c); once the channels are known, a store to the
 * length word opens a timer named by the message bytes and a store to the
 * signal word closes the innermost one. Inside timers, every instruction
 * whose cost reaches the threshold is kept with what explains its cost.
 *
 * Until the guest announces its channels nothing of this costs anything
 * per instruction: the recogniser reads only the blocks that hold a word
 * it could use (the accounting interface's flagged blocks, core/account.h;
 * it ignores every other word), and each such block ends after a nop, the
 * sequence's last word. Once the announcement is seen, the timers watch
 * every instruction's events from the next block on. With opts.reference
 * they watch every instruction from the start. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/account.h"
#include "core/block.h"
#include "core/vm.h"
#include "observe/timer.h"
#include "observe/timer_marker.h"
#include "util/array.h"

#define MSG_CHANNEL_BYTES 512 /* the message buffer's size */
#define NO_NODE           (-1)
#define NODE_FULL         (-2) /* CY_TIMER_MAX_NODES timers: no new one */
#define NO_SLICE          SIZE_MAX
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

struct timers {
	struct marker marker;
	bool announced;
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
	if (parent == NO_NODE) {
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
	node = child(t, t->n_stack ? t->stack[t->n_stack - 1].node : NO_NODE, label, len);
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

static void keep_step(struct timers *t, cy_vm *vm, const cy_event *ev)
{
	struct node *n = &t->nodes[t->stack[t->n_stack - 1].node];
	cy_timer_step *s;

	n->steps++;
	if (t->n_steps >= CY_TIMER_MAX_STEPS) {
		if (t->steps_dropped++ == 0) {
			t->first_step_dropped = ev->cycles - ev->cost;
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
	*s = (cy_timer_step){ .timer = t->stack[t->n_stack - 1].node,
			      .cycle_before = ev->cycles - ev->cost,
			      .cycle_after = ev->cycles,
			      .pc = ev->pc,
			      .bits = word_at(vm, ev->pc),
			      .has_jump = t->has_jump,
			      .jump_from = t->jump_from,
			      .jump_to = t->jump_to,
			      .n_writes = t->n_writes };
	for (uint32_t i = 0; i < t->n_writes && i < CY_TIMER_MAX_WRITES; i++) {
		s->write_addr[i] = t->write_addr[i];
		s->write_size[i] = t->write_size[i];
	}
	if (ev->parts)
		s->parts = *ev->parts;
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
	if (t->n_stack && ev->cost >= t->threshold)
		keep_step(t, vm, ev);
	t->open_pending = t->close_pending = false;
	t->n_writes = 0;
	if (t->jump_pending) {
		t->has_jump = true;
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

static uint8_t timers_decoded(void *ctx, cy_vm *vm, const struct block *b)
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

static void timers_flagged(void *ctx, cy_vm *vm, const struct block *b, uint32_t retired,
			   uint64_t instret)
{
	struct timers *t = ctx;

	(void)instret;
	if (!(b->flags & ACCT_FLAG_TIMERS))
		return; /* another subscriber's */
	for (uint32_t i = 0; i < retired && !t->announced; i++) {
		if (insn_is_pseudo(&b->insns[i]) ||
		    !marker_step(&t->marker, b->insns[i].pc, word_at(vm, b->insns[i].pc)))
			continue;
		memcpy(t->chan, t->marker.addr, sizeof(t->chan));
		t->announced = true;
	}
	if (!t->announced)
		return;
	/* from the next block on, every instruction: with the last jump so far,
	 * as the events would have told it */
	t->has_jump = vm->acct.has_last;
	t->jump_from = vm->acct.last_from;
	t->jump_to = vm->acct.last_to;
	acct_unsubscribe(vm, t);
	if (cy_vm_add_observer(
		vm, CY_EV_BIT(CY_EV_RETIRE) | CY_EV_BIT(CY_EV_STORE) | CY_EV_BIT(CY_EV_JUMP),
		on_event, t) != 0)
		vm_fault(vm, CY_FAULT_HOST, vm->pc, vm->pc);
	vm->break_loop = true;
}

static const struct acct_ops timer_ops = {
	.decoded = timers_decoded,
	.split_after = timers_split_after,
	.flagged = timers_flagged,
};

int timers_attach(cy_vm *vm, uint64_t threshold, struct timers **out)
{
	struct timers *t = calloc(1, sizeof(*t));
	int rc;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->roots_first = t->roots_last = NO_NODE;
	t->long_node = NO_NODE;
	t->threshold = threshold;
	if (!(t->child_slots = calloc(CHILD_SLOTS, sizeof(*t->child_slots)))) {
		timers_free(t);
		return -ENOMEM;
	}
	if (vm->opts.reference)
		rc = cy_vm_add_observer(
		    vm, CY_EV_BIT(CY_EV_RETIRE) | CY_EV_BIT(CY_EV_STORE) | CY_EV_BIT(CY_EV_JUMP),
		    on_event, t);
	else
		rc = acct_subscribe(vm, ACCT_FLAGGED | ACCT_LAST_TRANSFER, &timer_ops, t);
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

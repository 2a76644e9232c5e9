/* cost.c - accounts what each instruction costs under the active model when
 * the cost depends on addresses: data wait states, misaligned accesses, and
 * the RISC Zero paging and segment rules (docs/cost-models.md). The detailed
 * interpreter calls cost_before() before every instruction, which also
 * hands the performance counters their events when they count. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/access.h"
#include "core/counters.h"
#include "core/mem.h"
#include "core/pages.h"
#include "core/vm.h"
#include "cost/cost.h"
#include "cost/model.h"
#include "cost/touch.h"
#include "util/state_io.h"

#define REG_A0 10

static uint32_t cost_before(struct cy_vm *vm, const struct insn *in, uint64_t now);

/* how many bitmap bytes a segment may set before its end clears them whole */
#define PAGING_MARKED 16384

/* The pages of the 32-bit address space: cost_state.pages's bytes. */
static size_t page_count(const struct cost_state *s)
{
	return (size_t)((UINT64_C(1) << 32) >> s->page_shift);
}

int cost_init(struct cy_vm *vm, char *err, size_t err_size)
{
	const struct cost_model *m = &vm->model;
	struct cost_state *s = &vm->cost;

	memset(s, 0, sizeof(*s));
	s->detailed = cost_model_is_detailed(m);
	s->taken_extra = (uint32_t)(m->branch_taken - m->class_cost[CY_CLASS_BRANCH]);
	s->div_zero_delta = (int32_t)m->div_by_zero - (int32_t)m->class_cost[CY_CLASS_DIV];
	s->before = cost_before;
	if (touch_init(vm, err, err_size) != 0)
		return -ENOMEM;
	touch_plug(vm);
	if (!m->paging)
		return 0;
	s->seg_capacity = cost_model_segment_capacity(m);
	if (!s->seg_capacity) {
		snprintf(err, err_size, "model %s: segments of 2^%u cycles leave no room after %u",
			 m->name, m->segment_po2, m->segment_margin);
		return -EINVAL;
	}
	s->page_shift = (uint32_t)__builtin_ctz(m->page_size);
	s->bitmap_bytes = ((size_t)2 << m->merkle_depth) / 8;
	s->loaded = calloc(1, s->bitmap_bytes);
	s->dirty = calloc(1, s->bitmap_bytes);
	s->pages = calloc(1, page_count(s)); /* what no page uses stays unmapped */
	s->marked = malloc(PAGING_MARKED * sizeof(*s->marked));
	if (!s->loaded || !s->dirty || !s->pages || !s->marked) {
		cost_free(vm);
		snprintf(err, err_size, "out of memory for the paging model");
		return -ENOMEM;
	}
	return 0;
}

/* cost_state.pages again from the bitmaps' leaves (a restored state); a
 * byte that is right already is not written, so that the pages no page
 * uses stay unmapped (4 MiB under risc0, in every worker of a chunked
 * run). */
static void pages_from_leaves(struct cy_vm *vm)
{
	struct cost_state *s = &vm->cost;
	uint32_t depth = vm->model.merkle_depth;

	for (size_t p = 0; p < page_count(s); p++) {
		uint8_t v =
		    (uint8_t)((page_marked(s->loaded, depth, (uint32_t)p) ? PAGE_LOADED : 0u) |
			      (page_marked(s->dirty, depth, (uint32_t)p) ? PAGE_DIRTY : 0u));
		if (s->pages[p] != v)
			s->pages[p] = v;
	}
}

/* The cost account's part of a checkpoint: the current segment's start,
 * its paging bitmaps and the totals. The model itself is loaded again from
 * the options; its name must be the one the checkpoint was cut under. */
void cost_state_io(struct sio *io, struct cy_vm *vm)
{
	struct cost_state *s = &vm->cost;
	char model[sizeof(vm->model.name)];
	size_t bytes = s->bitmap_bytes;

	sio_tag(io, "COST");
	memcpy(model, vm->model.name, sizeof(model));
	sio_raw(io, model, sizeof(model));
	model[sizeof(model) - 1] = '\0';
	if (io->load && strcmp(model, vm->model.name) != 0)
		sio_fail(io, "it was cut under the model %s, not %s", model, vm->model.name);
	sio_u64(io, &s->seg_start);
	sio_u64(io, &s->segments);
	sio_u64(io, &s->paging);
	sio_u64(io, &s->reserved);
	sio_u64(io, &s->pages_in);
	sio_u64(io, &s->pages_out);
	sio_u64(io, &s->epoch);
	sio_size(io, &bytes);
	if (io->load && bytes != s->bitmap_bytes) {
		sio_fail(io, "its paging bitmaps are %zu bytes, the model's %zu", bytes,
			 s->bitmap_bytes);
		return;
	}
	if (bytes) {
		sio_raw(io, s->loaded, bytes);
		sio_raw(io, s->dirty, bytes);
		s->marked_lost |= io->load; /* which bytes the file set is not known */
		if (io->load)
			pages_from_leaves(vm);
	}
	if (cost_model_has_rows(&vm->model))
		touch_state_io(io, vm);
}

void cost_free(struct cy_vm *vm)
{
	free(vm->cost.loaded);
	free(vm->cost.dirty);
	free(vm->cost.pages);
	free(vm->cost.marked);
	vm->cost.loaded = vm->cost.dirty = vm->cost.pages = NULL;
	vm->cost.marked = NULL;
	touch_free(vm);
}

static bool outside(uint64_t a, uint32_t lo, uint32_t hi) { return a < lo || a > hi; }

/* Marks a page loaded (or dirty: bits and flag say which) in this segment
 * and returns what it cost: the page itself plus every tree node on its way
 * to the root that was not yet loaded (dirty). */
static uint32_t touch_page(struct cy_vm *vm, uint8_t *bits, unsigned flag, uint32_t page)
{
	const struct cost_model *m = &vm->model;
	uint64_t id = ((uint64_t)1 << m->merkle_depth) + page;
	uint32_t cost;

	if (bits[id >> 3] & (1u << (id & 7)))
		return 0;
	vm->cost.pages[page] |= (uint8_t)flag;
	cost = m->page_in;
	for (; id >= 1; id >>= 1) {
		if (bits[id >> 3] & (1u << (id & 7)))
			break; /* its ancestors are marked too */
		if (!bits[id >> 3]) {
			struct cost_state *s = &vm->cost;
			if (s->n_marked < PAGING_MARKED)
				s->marked[s->n_marked++] = (uint32_t)(id >> 3);
			else
				s->marked_lost = true;
		}
		bits[id >> 3] |= (uint8_t)(1u << (id & 7));
		if (id != ((uint64_t)1 << m->merkle_depth) + page)
			cost += m->merkle_node;
	}
	return cost;
}

/* One memory range an instruction touches. */
struct access {
	uint64_t addr;
	uint32_t size;
	uint8_t reason; /* cy_page_reason */
};

static int data_accesses(const struct cy_vm *vm, struct data_access a, struct access *acc)
{
	switch (a.kind) {
	case ACCESS_LOAD: acc[0] = (struct access){ a.addr, a.size, CY_PAGE_LOAD }; return 1;
	case ACCESS_STORE: acc[0] = (struct access){ a.addr, a.size, CY_PAGE_STORE }; return 1;
	case ACCESS_SC:
		if (!vm->resv_valid || vm->resv_addr != a.addr) /* fails: no store */
			return 0;
		acc[0] = (struct access){ a.addr, a.size, CY_PAGE_STORE };
		return 1;
	case ACCESS_AMO:
		acc[0] = (struct access){ a.addr, a.size, CY_PAGE_LOAD };
		acc[1] = (struct access){ a.addr, a.size, CY_PAGE_STORE };
		return 2;
	default: return 0;
	}
}

/* Whether the instruction is a branch that will be taken. */
static inline bool branch_taken(const struct cy_vm *vm, const struct insn *in)
{
	uint64_t a = vm_reg(vm, in->rs1), b = vm_reg(vm, in->rs2);
	/* signed at the register's width: an RV32 value sign-extended */
	int64_t sa = vm->xlen == 64 ? (int64_t)a : (int32_t)a;
	int64_t sb = vm->xlen == 64 ? (int64_t)b : (int32_t)b;

	switch (in->op) {
	case OP_beq: return a == b;
	case OP_bne: return a != b;
	case OP_blt: return sa < sb;
	case OP_bge: return sa >= sb;
	case OP_bltu: return a < b;
	case OP_bgeu: return a >= b;
	default: return false;
	}
}

/* The dynamic part of the instruction's own cost: a taken branch, a
 * division by zero. Used only to decide whether it fits the segment; the
 * interpreter charges these itself. */
static int32_t own_extra(const struct cy_vm *vm, const struct insn *in)
{
	if (insn_classes[in->op] == CY_CLASS_BRANCH)
		return branch_taken(vm, in) ? (int32_t)vm->cost.taken_extra : 0;
	if (insn_classes[in->op] == CY_CLASS_DIV) {
		uint64_t divisor = vm_reg(vm, in->rs2);
		/* the W forms divide by the low 32 bits */
		if (in->op == OP_divw || in->op == OP_divuw || in->op == OP_remw ||
		    in->op == OP_remuw)
			divisor = (uint32_t)divisor;
		return divisor == 0 ? vm->cost.div_zero_delta : 0;
	}
	return 0;
}

/* Wait states and the misaligned extra of the data accesses. */
static uint32_t data_wait(const struct cost_model *m, const struct access *acc, int n)
{
	uint32_t wait = 0;

	for (int i = 0; i < n; i++)
		wait += cost_model_access_wait(m, acc[i].addr, acc[i].size);
	return wait;
}

static void note_page(uint32_t *addrs, uint8_t *reasons, uint32_t *n, uint64_t addr, uint8_t reason)
{
	if (*n < CY_MAX_PAGES) {
		addrs[*n] = addr;
		if (reasons)
			reasons[*n] = reason;
	}
	(*n)++;
}

/* Pages in (and, for stores, out) every page the instruction touches. */
static void page_all(struct cy_vm *vm, const struct access *acc, int n, cy_cost_parts *p)
{
	struct cost_state *s = &vm->cost;

	p->page_in = p->page_out = 0;
	p->n_page_in = p->n_page_out = 0;
	for (int i = 0; i < n; i++) {
		/* paging models run RV32 guests only: page numbers fit 32 bits */
		uint32_t first = (uint32_t)(acc[i].addr >> s->page_shift);
		uint32_t last = (uint32_t)((acc[i].addr + acc[i].size - 1) >> s->page_shift);
		for (uint32_t pg = first;; pg++) {
			uint32_t c = touch_page(vm, s->loaded, PAGE_LOADED, pg);
			if (c) {
				p->page_in += c;
				note_page(p->page_in_addr, p->page_in_reason, &p->n_page_in,
					  (uint64_t)pg << s->page_shift, acc[i].reason);
			}
			if (acc[i].reason == CY_PAGE_STORE) {
				c = touch_page(vm, s->dirty, PAGE_DIRTY, pg);
				if (c) {
					p->page_out += c;
					note_page(p->page_out_addr, NULL, &p->n_page_out,
						  pg << s->page_shift, 0);
				}
			}
			if (pg == last)
				break;
		}
	}
}

/* Whether every page the accesses touch is loaded (and, for stores, dirty)
 * already: the common case, which costs nothing. */
static bool all_present(const struct cy_vm *vm, const struct access *acc, int n)
{
	for (int i = 0; i < n; i++)
		if (!pages_present(&vm->cost, vm->model.merkle_depth, acc[i].addr, acc[i].size,
				   acc[i].reason == CY_PAGE_STORE))
			return false;
	return true;
}

static void start_segment(struct cy_vm *vm, uint64_t now, cy_cost_parts *p)
{
	struct cost_state *s = &vm->cost;

	/* a tree of fewer than 8 leaves (pages of 2^30 bytes or more) shares
	 * its bytes with inner nodes: its few pages are cleared whole */
	bool whole = s->marked_lost || vm->model.merkle_depth < 3;

	if (whole)
		memset(s->pages, 0, page_count(s));
	if (s->marked_lost) {
		memset(s->loaded, 0, s->bitmap_bytes);
		memset(s->dirty, 0, s->bitmap_bytes);
	} else {
		size_t leaves = ((size_t)1 << vm->model.merkle_depth) / 8;
		for (size_t i = 0; i < s->n_marked; i++) {
			uint32_t byte = s->marked[i];
			s->loaded[byte] = s->dirty[byte] = 0;
			if (!whole && byte >= leaves) /* a leaf byte: its 8 pages' */
				memset(s->pages + (byte - leaves) * 8, 0, 8);
		}
	}
	s->n_marked = 0;
	s->marked_lost = false;
	s->epoch++;
	s->seg_start = now;
	s->segments++;
	p->segment_start = true;
	p->segment = vm->model.segment_reserved + vm->model.segment_paging;
}

/* The performance counters' view of the instruction (counters.h): its
 * events and where its cycles go. extra is what cost_before adds. */
static void count_events(struct cy_vm *vm, const struct insn *in, const struct access *acc, int n,
			 uint32_t extra)
{
	const struct cost_model *m = &vm->model;
	const cy_cost_parts *p = &vm->cost.parts;
	uint32_t cls = insn_classes[in->op];
	struct insn_facts f = { 0 };

	if (in->op == OP_block_end) /* not an instruction */
		return;
	f.cycles = p->base + extra;
	f.stall = outside(in->pc, m->fast_code_lo, m->fast_code_hi) ? m->fetch_wait_states : 0;
	f.first = PC_BIT(INSTR);
	if (in->len == 2)
		f.first |= PC_BIT(RVC);
	if (cls == CY_CLASS_JUMP)
		f.first |= PC_BIT(JUMP);
	if (cls == CY_CLASS_BRANCH)
		f.first |= PC_BIT(BRANCH) | (branch_taken(vm, in) ? PC_BIT(BTAKEN) : 0);
	for (int i = 0; i < n; i++) {
		bool store = acc[i].reason == CY_PAGE_STORE;
		uint64_t first, last;
		uint32_t ev = store ? PC_BIT(ST) : PC_BIT(LD);
		uint32_t ext = store ? PC_BIT(ST_EXT) : PC_BIT(LD_EXT);
		uint32_t *wait = store ? &f.st_wait : &f.ld_wait;
		bool first_ext;

		cost_model_bus_words(acc[i].addr, acc[i].size, &first, &last);
		first_ext = outside(first, m->fast_data_lo, m->fast_data_hi);

		f.first |= ev | (first_ext ? ext : 0);
		if (acc[i].size > 1 && (acc[i].addr & (acc[i].size - 1)))
			f.first |= HPM_MISALIGNED;
		*wait += first_ext ? m->data_wait_states : 0;
		if (first != last) { /* the second word: in cycle 2 */
			bool last_ext = outside(last, m->fast_data_lo, m->fast_data_hi);
			f.second |= ev | (last_ext ? ext : 0);
			*wait += last_ext ? m->data_wait_states : 0;
		}
	}
	/* the misaligned extras are head cycles, before the wait states */
	f.head = p->base - f.stall + (p->wait - f.ld_wait - f.st_wait);
	counters_before(vm, &f);
}

/* Accounts the instruction's address-dependent costs; the accesses it
 * makes go to acc[0..*n_acc) (the fetch first). */
static uint32_t account(struct cy_vm *vm, const struct insn *in, uint64_t now, struct access *acc,
			int *n_acc)
{
	const struct cost_model *m = &vm->model;
	struct cost_state *s = &vm->cost;
	cy_cost_parts *p = &s->parts;
	struct data_access a = insn_data_access(vm, in);
	int n = 0;

	/* an RV64 address past the space: the instruction faults before its
	 * access (EFFECTIVE, core/exec_impl.h), which costs nothing */
	if (vm->xlen == 64 && a.kind != ACCESS_NONE && a.addr >= MEM_SPACE_64)
		a.kind = ACCESS_NONE;
	acc[n++] = (struct access){ in->pc, in->len ? in->len : 2, CY_PAGE_FETCH };
	n += data_accesses(vm, a, acc + n);
	*n_acc = n;
	p->base = (uint32_t)((int32_t)(in->after - in->before) + own_extra(vm, in));
	p->wait = data_wait(m, acc + 1, n - 1);
	p->memory = cost_model_has_rows(m) && !insn_is_pseudo(in) ? touch_account(vm, in, &a) : 0;
	p->segment = 0;
	p->segment_start = false;
	if (!m->paging) {
		p->page_in = p->page_out = 0;
		p->n_page_in = p->n_page_out = 0;
		return p->wait + p->memory;
	}
	if (s->segments == 0)
		start_segment(vm, now, p);
	if (likely(all_present(vm, acc, n))) {
		p->page_in = p->page_out = 0;
		p->n_page_in = p->n_page_out = 0;
	} else {
		page_all(vm, acc, n, p);
	}
	/* an instruction that does not fit ends the segment before it */
	if (!p->segment_start &&
	    now - s->seg_start + p->base + p->wait + p->page_in + p->page_out > s->seg_capacity) {
		start_segment(vm, now, p);
		page_all(vm, acc, n, p);
	}
	s->paging += p->page_in + p->page_out + (p->segment_start ? m->segment_paging : 0);
	s->reserved += p->segment_start ? m->segment_reserved : 0;
	s->pages_in += p->n_page_in;
	s->pages_out += p->n_page_out;
	return p->wait + p->memory + p->page_in + p->page_out + p->segment;
}

static uint32_t cost_before(struct cy_vm *vm, const struct insn *in, uint64_t now)
{
	struct access acc[3];
	int n;
	uint32_t extra = account(vm, in, now, acc, &n);

	if (unlikely(vm->ctr.counting))
		count_events(vm, in, acc + 1, n - 1, extra);
	return extra;
}

void cy_vm_cost_stats(const cy_vm *vm, cy_cost_stats *out)
{
	const struct cost_state *s = &vm->cost;

	memset(out, 0, sizeof(*out));
	out->model = vm->model.name;
	out->cycles = vm->cycles;
	out->instructions = vm->instret;
	out->paging = s->paging;
	out->reserved = s->reserved;
	out->user = vm->cycles - s->paging - s->reserved;
	out->segments = vm->model.paging ? s->segments : 1;
	out->pages_in = s->pages_in;
	out->pages_out = s->pages_out;
	out->memory = s->touch.cycles;
	out->touches = s->touch.touches;
	out->chunks = s->touch.chunks;
	out->clock_bumps = s->touch.clock_bumps;
	out->state_bumps = s->touch.state_bumps;
}

struct list_ctx {
	cy_model_fn fn;
	void *ctx;
};

static void list_one(void *ctx, const struct cost_model *m, const char *path)
{
	struct list_ctx *l = ctx;

	l->fn(l->ctx, m->name, m->description, path);
}

int cy_models_list(cy_model_fn fn, void *ctx, char *err, size_t err_size)
{
	struct list_ctx l = { fn, ctx };

	return cost_model_list(list_one, &l, err, err_size);
}

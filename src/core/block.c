/* block.c - decodes basic blocks once and caches them by start address.
 * The code map marks every 1 KiB chunk that holds decoded code, so a store
 * there (self-modifying code) can flush the cache before stale code runs. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "core/block.h"
#include "core/exec.h"
#include "core/vm.h"

#define TABLE_SIZE (1u << 16)
#define ARENA_SIZE (32u << 20)
/* code lies below 4 GiB, but translated RV64 code looks up any address
 * below 1 TiB without testing it against 4 GiB first (jit_gen.c:
 * code_check): the map covers 1 TiB, and its pages past the code's are
 * never written (a read of one maps the zero page); the extra chunk is for
 * an access that crosses the end */
#define CODEMAP_SIZE ((MEM_SPACE_64 >> CODE_CHUNK_SHIFT) + 1)
/* What an unfilled successor slot points to: its odd pc matches no pc. */
struct block no_block = { .pc = 1 };

#define BLOCK_BYTES(n) (sizeof(struct block) + (n) * sizeof(struct insn))

_Static_assert((TABLE_SIZE & (TABLE_SIZE - 1)) == 0, "table size: power of 2");

static bool outside(uint32_t a, uint32_t lo, uint32_t hi) { return a < lo || a > hi; }

/* The static cost of an instruction at its pc under the active model: its
 * class's cost, and the fetch wait states outside the fast code range. */
static uint32_t cost_static(const struct cy_vm *vm, const struct insn *in)
{
	const struct cost_model *m = &vm->model;
	uint32_t cost =
	    m->insn_cost[in->op] ? m->insn_cost[in->op] : m->class_cost[insn_classes[in->op]];

	if (insn_classes[in->op] != CY_CLASS_NONE &&
	    outside(in->pc, m->fast_code_lo, m->fast_code_hi))
		cost += m->fetch_wait_states;
	return cost;
}

/* Zeroed memory the kernel backs only where it is touched: a VM that
 * decodes little costs little to make and to free (the fuzzers make one
 * per input), which malloc of 32 MiB is not under a sanitizer. */
static void *lazy_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void lazy_free(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

int cache_init(struct block_cache *c)
{
	memset(c, 0, sizeof(*c));
	c->table = lazy_alloc(TABLE_SIZE * sizeof(*c->table));
	c->arena = lazy_alloc(ARENA_SIZE);
	/* only the chunks near code are touched */
	c->codemap = lazy_alloc(CODEMAP_SIZE);
	if (!c->table || !c->arena || !c->codemap) {
		cache_free(c);
		return -ENOMEM;
	}
	c->mask = TABLE_SIZE - 1;
	c->arena_size = ARENA_SIZE;
	return 0;
}

void cache_free(struct block_cache *c)
{
	lazy_free(c->table, TABLE_SIZE * sizeof(*c->table));
	lazy_free(c->arena, ARENA_SIZE);
	lazy_free(c->codemap, CODEMAP_SIZE);
	free(c->marked);
	memset(c, 0, sizeof(*c));
}

void cache_flush(struct cy_vm *vm)
{
	struct block_cache *c = &vm->cache;

	cache_fold(vm); /* the blocks' run counts go with them */
	/* ... so the list of the blocks that ran is void */
	vm->acct.ran.n = 0;
	vm->acct.ran.lost = 0;

	/* a cache that never held a block is empty already: a VM's first
	 * flush touches none of the table's 512 KiB */
	if (c->used || c->arena_used) {
		memset(c->table, 0, TABLE_SIZE * sizeof(*c->table));
		memset(c->jump_cache, 0, sizeof(c->jump_cache));
		memset(c->singles, 0, sizeof(c->singles));
	}
	for (size_t i = 0; i < c->n_marked; i++) /* the watched bits stay */
		c->codemap[c->marked[i]] &= (uint8_t)~CODEMAP_CODE;
	c->n_marked = 0;
	c->used = 0;
	c->arena_used = 0;
	c->generation++;
	vm->flush_pending = false;
}

void cache_memory_written(struct cy_vm *vm, uint64_t addr, uint64_t len)
{
	struct block_cache *c = &vm->cache;
	uint64_t first = addr >> CODE_CHUNK_SHIFT;
	uint64_t last = (addr + (len ? len - 1 : 0)) >> CODE_CHUNK_SHIFT;

	for (uint64_t i = first; i <= last && i < CODE_CHUNKS; i++) {
		if (c->codemap[i] & CODEMAP_CODE) {
			vm->flush_pending = true;
			vm->break_loop = true;
			return;
		}
	}
}

static int mark_code(struct block_cache *c, uint32_t start, uint32_t end)
{
	for (uint32_t i = start >> CODE_CHUNK_SHIFT; i <= (end - 1) >> CODE_CHUNK_SHIFT; i++) {
		if (c->codemap[i] & CODEMAP_CODE)
			continue;
		if (c->n_marked == c->cap_marked) {
			size_t cap = c->cap_marked ? c->cap_marked * 2 : 64;
			uint32_t *m = realloc(c->marked, cap * sizeof(*m));
			if (!m)
				return -ENOMEM;
			c->marked = m;
			c->cap_marked = cap;
		}
		c->marked[c->n_marked++] = i;
		c->codemap[i] |= CODEMAP_CODE;
	}
	return 0;
}

/* At least 1, so that a run at its budget stops before any instruction in
 * every interpreter (the detailed ones check before each): an illegal
 * instruction costs nothing of its own, and a model may price one at 0. */
static uint32_t insn_max_cost(const struct cy_vm *vm, const struct insn *in)
{
	uint32_t cost = in->after - in->before;

	if (cost == 0)
		cost = 1;

	if (insn_classes[in->op] == CY_CLASS_BRANCH)
		cost += vm->cost.taken_extra;
	if (insn_classes[in->op] == CY_CLASS_DIV && vm->cost.div_zero_delta > 0)
		cost += (uint32_t)vm->cost.div_zero_delta;
	return cost;
}

/* The most cycles the instruction's data accesses can add beyond its static
 * cost: each access's wait states and misaligned extra, and each page it
 * touches loaded (and for a store, dirtied) with its whole path in the
 * tree. The fetch is not counted: the inline interpreters run a block only
 * when its code pages are loaded (exec_loop.h). */
static uint64_t insn_worst_extra(const struct cost_model *m, const struct insn *in)
{
	uint64_t access = 2u * m->data_wait_states + m->misaligned_extra;
	uint64_t page = cost_model_page_worst(m);

	switch (insn_classes[in->op]) {
	case CY_CLASS_LOAD: return access + 2 * page;
	case CY_CLASS_STORE: return access + 4 * page;
	case CY_CLASS_AMO: return 2 * access + 4 * page; /* a load and a store */
	default: return 0;
	}
}

void cache_use_handlers(struct cy_vm *vm, const void *const *handlers)
{
	if (vm->cache.handlers != handlers) {
		cache_flush(vm);
		vm->cache.handlers = handlers;
	}
}

/* Fills what the interpreter needs beyond the decoding: handler, position
 * and costs. */
static void prepare(const struct cy_vm *vm, struct insn *in, uint32_t index, uint32_t before)
{
	const void *const *h = vm->cache.handlers;

	in->handler = h ? h[in->op] : NULL;
	in->index = (uint8_t)index;
	in->before = before;
	in->after = before + cost_static(vm, in);
}

static void set_pseudo(const struct cy_vm *vm, struct insn *in, int op, uint32_t pc, uint32_t index,
		       uint32_t before)
{
	memset(in, 0, sizeof(*in));
	in->op = (uint8_t)op;
	in->pc = pc;
	prepare(vm, in, index, before);
}

/* Decodes up to max instructions from pc into b. Stops after an instruction
 * that ends a block, and before one whose bytes are not all mapped. */
static void decode_block(struct cy_vm *vm, uint32_t pc, struct block *b, uint32_t max)
{
	const uint8_t *base = vm->mem.base;
	uint32_t n = 0, cost = 0, before = 0, at = pc;
	uint64_t worst = 0;

	b->pc = pc;
	b->code_epoch = UINT64_MAX;
	b->next[0] = b->next[1] = &no_block;
	b->runs = b->taken = b->sampled = 0;
	b->ran = 0; /* not listed (acct_ran) */
	b->tag = UINT32_MAX;
	b->flags = 0;
	if (!mem_is_mapped(&vm->mem, pc)) {
		set_pseudo(vm, &b->insns[n], OP_fetch_fault, pc, n, 0);
		n++;
		cost = 1; /* see below */
		goto out;
	}
	while (n < max) {
		struct insn *in = &b->insns[n];
		uint32_t lo = mem_ld16(base, at);
		if (insn_length(lo) == 4 && !mem_is_mapped(&vm->mem, at + 2)) {
			/* a block of nothing would jump to itself for ever: the
			 * first instruction's upper half is a fetch fault */
			if (n == 0) {
				set_pseudo(vm, in, OP_fetch_fault, pc, 0, 0);
				n++;
				cost = 1; /* see below */
				goto out;
			}
			break;
		}
		insn_decode(at, mem_ld32(base, at), vm->xlen == 64 ? 64 : 32, in);
		prepare(vm, in, n, before);
		before = in->after;
		cost += insn_max_cost(vm, in);
		worst += insn_worst_extra(&vm->model, in);
		n++;
		at += in->len;
		if (insn_flags[in->op] & INSN_END)
			goto out;
		/* a CSR write can change how the VM runs (performance
		 * counters): the block ends after it, so the run can return */
		if (insn_classes[in->op] == CY_CLASS_CSR)
			break;
		if ((vm->acct.events & ACCT_FLAGGED) && acct_split_after(vm, in))
			break;
		if (!mem_is_mapped(&vm->mem, at))
			break;
	}
	/* the block falls through into the next one */
	set_pseudo(vm, &b->insns[n], OP_block_end, at, n, before);
	n++;
out:
	b->n = n;
	b->end = at;
	/* A fetch fault costs nothing, but counts as a cycle here: a run that
	 * reaches the budget stops before it, as before any instruction, in
	 * every interpreter (the detailed ones check before each one). */
	b->max_cost = cost;
	b->max_worst = cost + worst;
	if (vm->acct.events & ACCT_FLAGGED)
		b->flags = acct_decoded(vm, b);
}

/* Blocks lie one after the other in the arena, each 16-byte aligned. */
static size_t block_size(const struct block *b) { return (BLOCK_BYTES(b->n) + 15) & ~(size_t)15; }

void cache_each_block(struct cy_vm *vm, void (*fn)(void *ctx, struct block *b), void *ctx)
{
	struct block_cache *c = &vm->cache;

	for (size_t at = 0; at < c->arena_used; at += block_size((struct block *)(c->arena + at)))
		fn(ctx, (struct block *)(c->arena + at));
}

static void fold_counts(void *ctx, struct block *b) { acct_fold_block(ctx, b); }

void cache_fold(struct cy_vm *vm)
{
	if (vm->acct.fold_phases) /* translated code's runs by phase (jit.c) */
		vm->acct.fold_phases(vm);
	if (vm->acct.events & ACCT_FOLD)
		cache_each_block(vm, fold_counts, vm);
}

/* The table's slot for pc: its low bits as they are, so that neighbouring
 * code shares a page of the table (512 slots, 1 KiB of code): a run that
 * decodes 150 blocks touches a few pages, not 128, and each first touch of
 * a page costs a fault (5-15 us on a virtual machine). The bits above the
 * table's reach are scrambled in by XOR, which keeps that locality, so that
 * code 128 KiB apart does not share slots. */
static uint32_t hash_pc(uint32_t pc) { return (pc >> 1) ^ ((pc >> 17) * 0x9e3779b1u >> 16); }

struct block *cache_find(struct cy_vm *vm, uint32_t pc)
{
	struct block_cache *c = &vm->cache;

	for (uint32_t h = hash_pc(pc) & c->mask; c->table[h]; h = (h + 1) & c->mask)
		if (c->table[h]->pc == pc)
			return c->table[h];
	return NULL;
}

struct block *cache_get(struct cy_vm *vm, uint32_t pc)
{
	struct block_cache *c = &vm->cache;
	uint32_t h = hash_pc(pc) & c->mask;
	struct block *b;

	for (; c->table[h]; h = (h + 1) & c->mask)
		if (c->table[h]->pc == pc) {
			c->jump_cache[jump_cache_index(pc)] = c->table[h];
			return c->table[h];
		}
	/* keep the table at most half full and the arena from overflowing */
	if (c->used >= TABLE_SIZE / 2 ||
	    c->arena_used + BLOCK_BYTES(BLOCK_MAX_INSNS + 1) > c->arena_size) {
		cache_flush(vm);
		h = hash_pc(pc) & c->mask;
	}
	b = (struct block *)(c->arena + c->arena_used);
	decode_block(vm, pc, b, BLOCK_MAX_INSNS);
	if (b->end > b->pc && mark_code(c, b->pc, b->end) != 0)
		return NULL;
	c->arena_used += BLOCK_BYTES(b->n);
	c->arena_used = (c->arena_used + 15) & ~(size_t)15;
	c->table[h] = b;
	c->used++;
	c->jump_cache[jump_cache_index(pc)] = b;
	if (vm->block_decoded) /* the translation tier's */
		vm->block_decoded(vm, b);
	return b;
}

struct block *cache_single(struct cy_vm *vm, uint32_t pc)
{
	struct block_cache *c = &vm->cache;
	uint32_t i = (pc >> 1) & (SINGLE_CACHE_SIZE - 1);
	struct block *b = c->singles[i];

	/* cached too: sampling and slicing step near every budget */
	if (b && b->pc == pc)
		return b;
	if (c->arena_used + BLOCK_BYTES(2) > c->arena_size)
		cache_flush(vm);
	b = (struct block *)(c->arena + c->arena_used);
	decode_block(vm, pc, b, 1);
	if (b->end > b->pc && mark_code(c, b->pc, b->end) != 0)
		return NULL;
	c->arena_used = (c->arena_used + BLOCK_BYTES(b->n) + 15) & ~(size_t)15;
	c->singles[i] = b;
	return b;
}

/* block.h - the block cache (block.c): basic blocks decoded once, found by
 * their start pc, and thrown away together when the code they hold changes. */
#ifndef CY_BLOCK_H
#define CY_BLOCK_H

#include "core/state.h"

/* The pseudo-block every successor slot points to until it is known. */
extern struct block no_block;

int cache_init(struct block_cache *c);
void cache_free(struct block_cache *c);
void cache_flush(struct cy_vm *vm);
struct block *cache_get(struct cy_vm *vm, uint32_t pc);
/* Decoded blocks point at one interpreter's handlers: switching between the
 * plain and the observed interpreter flushes the cache. */
void cache_use_handlers(struct cy_vm *vm, const void *const *handlers);

static inline uint32_t jump_cache_index(uint32_t pc) { return (pc >> 1) & (JUMP_CACHE_SIZE - 1); }

/* The block at pc, decoding it on a miss; NULL only when out of memory. */
static inline struct block *cache_lookup(struct cy_vm *vm, uint32_t pc)
{
	struct block *b = vm->cache.jump_cache[jump_cache_index(pc)];

	if (likely(b && b->pc == pc))
		return b;
	return cache_get(vm, pc);
}
struct block *cache_single(struct cy_vm *vm, uint32_t pc);
/* The block decoded at pc, or NULL: nothing is decoded. */
struct block *cache_find(struct cy_vm *vm, uint32_t pc);
/* Tells the cache that guest memory [addr, addr+len) was written from outside
 * the interpreter's stores (syscalls, the API); flushes if it held code. */
void cache_memory_written(struct cy_vm *vm, uint64_t addr, uint64_t len);
/* Calls fn for every decoded block. */
void cache_each_block(struct cy_vm *vm, void (*fn)(void *ctx, struct block *b), void *ctx);
/* Hands every block's run counts to the accounting interface's fold
 * (acct_fold_block), which zeroes them: before they are lost or read. */
void cache_fold(struct cy_vm *vm);

/* Whether a store of size bytes at addr touches a chunk of decoded code or
 * of a watched range (CODEMAP_*): the one test on every store's path; the
 * slow path tells the two apart (cache_holds_code). Code lies below 4 GiB
 * (an RV32 address always does, so the test folds away there). */
static inline bool cache_is_code(const struct block_cache *c, uint64_t addr, uint32_t size)
{
	if (addr >= MEM_CODE_LIMIT)
		return false;
	return c->codemap[addr >> CODE_CHUNK_SHIFT] |
	       c->codemap[(addr + size - 1) >> CODE_CHUNK_SHIFT];
}

/* Whether such a store touches a chunk of decoded code itself. */
static inline bool cache_holds_code(const struct block_cache *c, uint64_t addr, uint32_t size)
{
	if (addr >= MEM_CODE_LIMIT)
		return false;
	return (c->codemap[addr >> CODE_CHUNK_SHIFT] |
		c->codemap[(addr + size - 1) >> CODE_CHUNK_SHIFT]) &
	       CODEMAP_CODE;
}

#endif

/* pages.h - the paging model's bitmaps (cost_state): which pages, and
 * which nodes of the Merkle tree above them, the current segment has loaded
 * and dirtied. Read by the cost account (cost/detailed.c) and by the
 * interpreter's inline check (exec_loop.h), which calls the account only
 * when a page is missing; translated code reads the same pages a byte each
 * (cost_state.pages; the interpreter reading those was 1.7x slower under
 * risc0: GCC laid out its loop worse). */
#ifndef CY_PAGES_H
#define CY_PAGES_H

#include "core/state.h"

/* A page's byte in cost_state.pages: its leaf in the loaded and in the
 * dirty bitmap. */
#define PAGE_LOADED 1u
#define PAGE_DIRTY  2u

/* Whether node `page` of the tree's leaves is marked in bits. */
static inline bool page_marked(const uint8_t *bits, uint32_t depth, uint32_t page)
{
	uint64_t id = ((uint64_t)1 << depth) + page;

	return bits[id >> 3] & (1u << (id & 7));
}

/* Whether the pages of [addr, addr + size) are loaded (and, for a store,
 * dirty) in the current segment; size is at most a page. Paging models
 * run RV32 guests only (docs/decisions.md, 64-bit guests), so every page
 * number fits 32 bits. */
static inline bool pages_present(const struct cost_state *s, uint32_t depth, uint64_t addr,
				 uint32_t size, bool store)
{
	uint32_t first = (uint32_t)(addr >> s->page_shift);
	uint32_t last = (uint32_t)((addr + size - 1) >> s->page_shift);

	if (!page_marked(s->loaded, depth, first) || !page_marked(s->loaded, depth, last))
		return false;
	return !store ||
	       (page_marked(s->dirty, depth, first) && page_marked(s->dirty, depth, last));
}

#endif

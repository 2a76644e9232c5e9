/* mem.h - the guest's 4 GiB address space.
 * One host reservation covers all of it; the host pages in what the guest
 * touches. Accesses go through the memcpy helpers below, never pointer
 * casts, so misaligned accesses are fine and the compiler emits plain moves. */
#ifndef CY_MEM_H
#define CY_MEM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define MEM_SPACE (UINT64_C(1) << 32)
/* Past the top, so a misaligned access at 0xffffffff stays inside. */
#define MEM_GUARD       4096
#define MEM_MAX_REGIONS 32
#define MEM_PAGE        4096u

/* A range the guest may execute from: loaded segments, stack, heap. */
struct mem_region {
	uint32_t start;
	uint64_t end; /* exclusive */
	char name[16];
};

struct mem {
	uint8_t *base;
	struct mem_region regions[MEM_MAX_REGIONS];
	int n_regions;
};

int mem_init(struct mem *m);
void mem_free(struct mem *m);
/* Adds or, if name exists, moves a region. */
int mem_set_region(struct mem *m, const char *name, uint32_t start, uint64_t end);
bool mem_is_mapped(const struct mem *m, uint32_t addr);
/* [start, end) reads as zero again, its pages given back to the host. */
void mem_zero(struct mem *m, uint32_t start, uint64_t end);
/* Bytes of guest memory the host has paged in. */
uint64_t mem_touched_bytes(const struct mem *m);

static inline uint32_t mem_ld32(const uint8_t *base, uint32_t a)
{
	uint32_t v;
	memcpy(&v, base + a, 4);
	return v;
}
static inline uint16_t mem_ld16(const uint8_t *base, uint32_t a)
{
	uint16_t v;
	memcpy(&v, base + a, 2);
	return v;
}
static inline void mem_st32(uint8_t *base, uint32_t a, uint32_t v) { memcpy(base + a, &v, 4); }
static inline void mem_st16(uint8_t *base, uint32_t a, uint16_t v) { memcpy(base + a, &v, 2); }

#endif

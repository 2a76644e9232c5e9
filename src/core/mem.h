/* mem.h - the guest's address space: 4 GiB at XLEN 32, 1 TiB at XLEN 64.
 * One host reservation covers all of it; the host pages in what the guest
 * touches. Accesses go through the memcpy helpers below, never pointer
 * casts, so misaligned accesses are fine and the compiler emits plain moves. */
#ifndef CY_MEM_H
#define CY_MEM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* An RV32 address cannot leave 4 GiB; an RV64 one must be below 2^40, as in
 * SP1's native executor (docs/decisions.md, 64-bit guests): SP1 v6 guests
 * keep their inputs at 2^37 - 2^34, above 4 GiB. Code lies below 4 GiB at
 * both widths (pcs are 32 bits wide everywhere). */
#define MEM_SPACE_32   (UINT64_C(1) << 32)
#define MEM_SPACE_64   (UINT64_C(1) << 40)
#define MEM_CODE_LIMIT MEM_SPACE_32
/* Past the top, so a misaligned access at the last byte stays inside. */
#define MEM_GUARD       4096
#define MEM_MAX_REGIONS 32
#define MEM_PAGE        4096u

/* A range the guest may execute from: loaded segments, stack, heap. */
struct mem_region {
	uint64_t start;
	uint64_t end; /* exclusive */
	char name[16];
};

struct mem {
	uint8_t *base;
	uint64_t size; /* MEM_SPACE_32 or MEM_SPACE_64 */
	struct mem_region regions[MEM_MAX_REGIONS];
	int n_regions;
	/* [0, backing_size) lives in the file backing_fd, mapped shared (the
	 * zkVM's copy-on-write, abi/syscall_zkvm.c); -1: anonymous memory
	 * only. Checkpoints read such pages from the file's allocated ranges. */
	int backing_fd;
	uint64_t backing_size;
};

/* Reserves a space of size bytes (MEM_SPACE_32 or MEM_SPACE_64). */
int mem_init(struct mem *m, uint64_t size);
void mem_free(struct mem *m);
/* Adds or, if name exists, moves a region. */
int mem_set_region(struct mem *m, const char *name, uint64_t start, uint64_t end);
bool mem_is_mapped(const struct mem *m, uint32_t addr);
/* [start, end) reads as zero again, its pages given back to the host. */
void mem_zero(struct mem *m, uint64_t start, uint64_t end);
/* Whether a child the host process forks gets the guest's memory (it does
 * by default); the translation tier's compiler process needs none of it,
 * and without it the run's writes cost no copy-on-write faults. */
void mem_fork_copies(const struct mem *m, bool copies);
/* Bytes of guest memory the host has paged in. */
uint64_t mem_touched_bytes(const struct mem *m);
/* Copies [addr, addr + len) to out, taking zeros for the pages the host
 * never backed rather than reading them: on some kernels reading an
 * untouched page backs it (they map no shared zero page), so that a guest
 * that writes out gigabytes it never touched would cost the host as much
 * memory. Returns whether some page was such; when none was, or pagemap_fd
 * (mem_pagemap_open) cannot tell, it copies nothing and the caller reads
 * the memory itself. len is at most 64 host pages. */
bool mem_copy_sparse(const struct mem *m, int pagemap_fd, uint64_t addr, uint64_t len,
		     uint8_t *out);
/* /proc/self/pagemap for mem_copy_sparse, or -1; the caller closes it
 * (a child process must open its own). */
int mem_pagemap_open(void);

/* Whether [addr, addr + len) lies inside the space. */
static inline bool mem_range_ok(const struct mem *m, uint64_t addr, uint64_t len)
{
	return addr <= m->size && len <= m->size - addr;
}

static inline uint32_t mem_ld32(const uint8_t *base, uint64_t a)
{
	uint32_t v;
	memcpy(&v, base + a, 4);
	return v;
}
static inline uint16_t mem_ld16(const uint8_t *base, uint64_t a)
{
	uint16_t v;
	memcpy(&v, base + a, 2);
	return v;
}
static inline void mem_st32(uint8_t *base, uint64_t a, uint32_t v) { memcpy(base + a, &v, 4); }
static inline uint64_t mem_ld64(const uint8_t *base, uint64_t a)
{
	uint64_t v;
	memcpy(&v, base + a, 8);
	return v;
}
static inline void mem_st64(uint8_t *base, uint64_t a, uint64_t v) { memcpy(base + a, &v, 8); }
static inline void mem_st16(uint8_t *base, uint64_t a, uint16_t v) { memcpy(base + a, &v, 2); }

#endif

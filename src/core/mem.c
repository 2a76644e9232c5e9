/* mem.c - reserves the guest address space and keeps the list of regions
 * that hold something (segments, stack, heap), which execution may enter. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/mem.h"

/* The reservation is fenced by an inaccessible page on each side, so that
 * the kernel never merges it with a neighbouring mapping of the same kind
 * (the block cache's): its resident size is then its own (touched_from_smaps). */
#define MEM_FENCE 4096

int mem_init(struct mem *m, uint64_t size)
{
	uint64_t total = MEM_FENCE + size + MEM_GUARD + MEM_FENCE;
	uint8_t *p =
	    mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	memset(m, 0, sizeof(*m));
	m->backing_fd = -1;
	if (p == MAP_FAILED)
		return -errno;
	if (mprotect(p + MEM_FENCE, size + MEM_GUARD, PROT_READ | PROT_WRITE) != 0) {
		int rc = -errno;
		munmap(p, total);
		return rc;
	}
	m->base = p + MEM_FENCE;
	m->size = size;
	m->backing_fd = -1;
	return 0;
}

void mem_free(struct mem *m)
{
	if (m->base)
		munmap(m->base - MEM_FENCE, MEM_FENCE + m->size + MEM_GUARD + MEM_FENCE);
	m->base = NULL;
}

int mem_set_region(struct mem *m, const char *name, uint64_t start, uint64_t end)
{
	struct mem_region *r = NULL;

	for (int i = 0; i < m->n_regions; i++)
		if (strcmp(m->regions[i].name, name) == 0)
			r = &m->regions[i];
	if (!r) {
		if (m->n_regions == MEM_MAX_REGIONS)
			return -ENOSPC;
		r = &m->regions[m->n_regions++];
		snprintf(r->name, sizeof(r->name), "%s", name);
	}
	r->start = start;
	r->end = end;
	return 0;
}

void mem_zero(struct mem *m, uint64_t start, uint64_t end)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t first = (start + page - 1) / page * page, last = end / page * page;

	if (first >= last) {
		memset(m->base + start, 0, end - start);
		return;
	}
	/* whole host pages go back to the kernel, which gives zeros when they
	 * are touched again: neither time nor memory for what was never used */
	memset(m->base + start, 0, first - start);
	if (madvise(m->base + first, last - first, MADV_DONTNEED) != 0)
		memset(m->base + first, 0, last - first);
	memset(m->base + last, 0, end - last);
}

void mem_fork_copies(const struct mem *m, bool copies)
{
	if (m->base)
		madvise(m->base - MEM_FENCE, MEM_FENCE + m->size + MEM_GUARD + MEM_FENCE,
			copies ? MADV_DOFORK : MADV_DONTFORK);
}

bool mem_is_mapped(const struct mem *m, uint32_t addr)
{
	for (int i = 0; i < m->n_regions; i++)
		if (addr >= m->regions[i].start && addr < m->regions[i].end)
			return true;
	return false;
}

/* The resident bytes of the mappings inside the reservation, from the
 * kernel's per-mapping accounting: it walks only the page tables that
 * exist, so it costs the same for 4 GiB and 1 TiB spaces. -1 when /proc
 * cannot be read. */
static int64_t touched_from_smaps(const struct mem *m)
{
	uintptr_t lo = (uintptr_t)m->base, hi = lo + m->size + MEM_GUARD, start = 0, end = 0;
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[256];
	int64_t total = 0;
	bool inside = false;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long kb;
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &start, &end) == 2 &&
		    strchr(line, '-') < strchr(line, ' '))
			inside = start >= lo && end <= hi;
		else if (inside && sscanf(line, "Rss: %llu kB", &kb) == 1)
			total += (int64_t)kb * 1024;
	}
	fclose(f);
	return total;
}

uint64_t mem_touched_bytes(const struct mem *m)
{
	enum { CHUNK_PAGES = 65536 };
	static unsigned char vec[CHUNK_PAGES];
	long page = sysconf(_SC_PAGESIZE);
	uint64_t chunk = (uint64_t)CHUNK_PAGES * (uint64_t)page, total = 0;
	int64_t rss = touched_from_smaps(m);

	if (rss >= 0)
		return (uint64_t)rss;
	for (uint64_t off = 0; off < m->size; off += chunk) {
		if (mincore(m->base + off, chunk, vec) != 0)
			continue;
		for (int i = 0; i < CHUNK_PAGES; i++)
			total += vec[i] & 1;
	}
	return total * (uint64_t)page;
}

int mem_pagemap_open(void) { return open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC); }

/* A pagemap entry's bits: the page is in memory, or in swap. */
#define PAGEMAP_PRESENT (1ull << 63)
#define PAGEMAP_SWAPPED (1ull << 62)

bool mem_copy_sparse(const struct mem *m, int pagemap_fd, uint64_t addr, uint64_t len, uint8_t *out)
{
	enum { MOST = 64 };
	uint64_t entries[MOST];
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), from = (uintptr_t)(m->base + addr);
	uintptr_t first = from / page, n = (from + len + page - 1) / page - first;
	bool sparse = false;

	/* a shared file's pages hold data while unmapped: only the
	 * anonymous memory's absent pages are zeros */
	if (pagemap_fd < 0 || len == 0 || n > MOST ||
	    (m->backing_fd >= 0 && addr < m->backing_size))
		return false;
	if (pread(pagemap_fd, entries, n * sizeof(entries[0]),
		  (off_t)(first * sizeof(entries[0]))) != (ssize_t)(n * sizeof(entries[0])))
		return false;
	for (uintptr_t i = 0; i < n && !sparse; i++)
		sparse = !(entries[i] & (PAGEMAP_PRESENT | PAGEMAP_SWAPPED));
	for (uintptr_t i = 0, at = from; sparse && i < n; i++) {
		uintptr_t end =
		    (first + i + 1) * page < from + len ? (first + i + 1) * page : from + len;
		if (entries[i] & (PAGEMAP_PRESENT | PAGEMAP_SWAPPED))
			memcpy(out + (at - from), (const uint8_t *)at, end - at);
		else
			memset(out + (at - from), 0, end - at);
		at = end;
	}
	return sparse;
}

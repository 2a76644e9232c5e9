/* mem.c - reserves the guest address space and keeps the list of regions
 * that hold something (segments, stack, heap), which execution may enter. */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/mem.h"

int mem_init(struct mem *m)
{
	void *p = mmap(NULL, MEM_SPACE + MEM_GUARD, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	memset(m, 0, sizeof(*m));
	if (p == MAP_FAILED)
		return -errno;
	m->base = p;
	return 0;
}

void mem_free(struct mem *m)
{
	if (m->base)
		munmap(m->base, MEM_SPACE + MEM_GUARD);
	m->base = NULL;
}

int mem_set_region(struct mem *m, const char *name, uint32_t start, uint64_t end)
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

void mem_zero(struct mem *m, uint32_t start, uint64_t end)
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

bool mem_is_mapped(const struct mem *m, uint32_t addr)
{
	for (int i = 0; i < m->n_regions; i++)
		if (addr >= m->regions[i].start && addr < m->regions[i].end)
			return true;
	return false;
}

uint64_t mem_touched_bytes(const struct mem *m)
{
	enum { CHUNK_PAGES = 65536 };
	static unsigned char vec[CHUNK_PAGES];
	long page = sysconf(_SC_PAGESIZE);
	uint64_t chunk = (uint64_t)CHUNK_PAGES * (uint64_t)page, total = 0;

	for (uint64_t off = 0; off < MEM_SPACE; off += chunk) {
		if (mincore(m->base + off, chunk, vec) != 0)
			continue;
		for (int i = 0; i < CHUNK_PAGES; i++)
			total += vec[i] & 1;
	}
	return total * (uint64_t)page;
}

/* mem_snapshot.c - guest memory in checkpoints: the pages that changed since
 * the previous checkpoint, found without looking at the whole space (an RV64
 * guest's is 1 TiB): the kernel lists the resident pages (the PAGEMAP_SCAN
 * ioctl of /proc/self/pagemap walks only the page tables that exist; mincore
 * in chunks where the kernel is older than 6.7), and each resident page's
 * hash is compared with the one it had at the previous checkpoint. A page
 * that changed is stored XORed with its previous bytes (a copy is kept, up
 * to a budget), so that a few changed words cost a few bytes once
 * compressed; pages that read as zero are never stored, and a page that
 * held bytes and reads as zero now is a zero record. docs/scale-out.md gives the measurements that
 * chose this over soft-dirty bits (which the kernel may lack) and over
 * reading /proc/self/pagemap whole (1.7 s for 1 TiB). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/vm_state.h"
#include "util/state_io.h"

/* The PAGEMAP_SCAN ioctl (linux/fs.h of Linux 6.7; bookworm's headers are
 * older, the ABI is stable). */
struct pm_page_region {
	uint64_t start, end, categories;
};
struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PM_PAGEMAP_SCAN    _IOWR('f', 16, struct pm_scan_arg)
#define PM_PAGE_IS_PRESENT (1u << 3)
#define PM_PAGE_IS_SWAPPED (1u << 4)

#define PAGE_SHIFT_4K 12
_Static_assert(MEM_PAGE == 1u << PAGE_SHIFT_4K, "checkpoints store 4 KiB pages");

/* The records of a memory section: a run of pages' bytes, a run of pages
 * that read as zero, or one page as its bytes XORed with what it held at
 * the previous checkpoint (mostly zeros where few words changed, which
 * zstd makes small). */
enum { REC_END = 0, REC_DATA = 1, REC_ZERO = 2, REC_XOR = 3 };
#define REC_MAX_RUN 256 /* pages per data record */
/* The copies of the pages, kept for the next checkpoint's XOR records:
 * at most this much (past it, changed pages are stored whole). */
#define COPY_BUDGET ((size_t)1 << 30)

struct page_hash {
	uint64_t page; /* page number + 1; 0 is a free slot */
	uint64_t hash;
	uint8_t *copy; /* its bytes at the checkpoint, or NULL */
	bool seen;
};

struct mem_snapshot {
	struct page_hash *slots;
	size_t cap, used;  /* cap a power of two, at most half full */
	size_t copy_bytes; /* of the copies it holds */
};

void mem_snapshot_free(struct mem_snapshot *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->cap; i++)
		free(s->slots[i].copy);
	free(s->slots);
	free(s);
}

static inline uint64_t rotl(uint64_t x, int r) { return x << r | x >> (64 - r); }

/* A page's 64-bit hash: four independent multiply-rotate lanes over its
 * words (so that the multiplications overlap), mixed at the end. */
static uint64_t page_hash(const uint8_t *p)
{
	const uint64_t k1 = 0x9e3779b185ebca87ull, k2 = 0xc2b2ae3d27d4eb4full;
	uint64_t a = k1, b = k2, c = ~k1, d = ~k2, w[4];

	for (size_t i = 0; i < MEM_PAGE; i += 32) {
		memcpy(w, p + i, 32);
		a = rotl(a + w[0] * k2, 31) * k1;
		b = rotl(b + w[1] * k2, 31) * k1;
		c = rotl(c + w[2] * k2, 31) * k1;
		d = rotl(d + w[3] * k2, 31) * k1;
	}
	uint64_t h = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18);
	h ^= h >> 33;
	h *= k2;
	h ^= h >> 29;
	h *= k1;
	return h ^ h >> 32;
}

static bool page_is_zero(const uint8_t *p)
{
	uint64_t w[8];

	for (size_t i = 0; i < MEM_PAGE; i += sizeof(w)) {
		memcpy(w, p + i, sizeof(w));
		if (w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7])
			return false;
	}
	return true;
}

static struct page_hash *slot_of(struct mem_snapshot *s, uint64_t page)
{
	size_t i = (size_t)((page * 0x9e3779b97f4a7c15ull) >> 20) & (s->cap - 1);

	while (s->slots[i].page && s->slots[i].page != page + 1)
		i = (i + 1) & (s->cap - 1);
	return &s->slots[i];
}

static int snapshot_put(struct mem_snapshot *s, uint64_t page, uint64_t hash)
{
	struct page_hash *e;

	if (2 * (s->used + 1) > s->cap) {
		struct mem_snapshot bigger = { calloc(s->cap ? 2 * s->cap : 1024,
						      sizeof(*s->slots)),
					       s->cap ? 2 * s->cap : 1024, 0, 0 };
		if (!bigger.slots)
			return -ENOMEM;
		for (size_t i = 0; i < s->cap; i++)
			if (s->slots[i].page)
				*slot_of(&bigger, s->slots[i].page - 1) = s->slots[i];
		bigger.used = s->used;
		bigger.copy_bytes = s->copy_bytes;
		free(s->slots);
		*s = bigger;
	}
	e = slot_of(s, page);
	if (!e->page)
		s->used++;
	*e = (struct page_hash){ page + 1, hash, NULL, false };
	return 0;
}

/* The copy of page p for the next checkpoint's XOR records: the previous
 * one's (was), refreshed when the page changed, or a new one while the
 * budget lasts. */
static void keep_copy(struct mem_snapshot *now, struct page_hash *was, uint64_t page,
		      const uint8_t *p, bool changed)
{
	struct page_hash *e = slot_of(now, page);
	uint8_t *copy = was ? was->copy : NULL;

	if (was)
		was->copy = NULL; /* the new snapshot's now */
	if (!copy && now->copy_bytes < COPY_BUDGET && (copy = malloc(MEM_PAGE)))
		changed = true;
	if (!copy)
		return;
	if (changed)
		memcpy(copy, p, MEM_PAGE);
	e->copy = copy;
	now->copy_bytes += MEM_PAGE;
}

/* Where a scan writes: the section, the old hashes and the new ones, and a
 * run of data pages waiting to be written as one record. */
struct delta {
	struct cy_vm *vm;
	struct sio *io;
	struct mem_snapshot *old, *now;
	bool full;
	uint64_t run_first, run_n;
	struct mem_delta_stats *stats;
	int rc;
	uint8_t x[MEM_PAGE]; /* a page's XOR with its copy */
};

static void flush_run(struct delta *d)
{
	uint8_t kind = REC_DATA;
	uint32_t n = (uint32_t)d->run_n;

	if (!d->run_n)
		return;
	sio_u8(d->io, &kind);
	sio_u64(d->io, &d->run_first);
	sio_u32(d->io, &n);
	sio_raw(d->io, d->vm->mem.base + (d->run_first << PAGE_SHIFT_4K),
		(size_t)d->run_n << PAGE_SHIFT_4K);
	d->stats->pages_written += d->run_n;
	d->run_n = 0;
}

static void zero_record(struct delta *d, uint64_t page)
{
	uint8_t kind = REC_ZERO;
	uint32_t n = 1;

	sio_u8(d->io, &kind);
	sio_u64(d->io, &page);
	sio_u32(d->io, &n);
	d->stats->pages_zeroed++;
}

/* The page's XOR with its copy into x; whether that is worth storing
 * instead of the page: when at least a quarter of its words did not
 * change (a page rewritten whole, a sort's, compresses better as itself). */
static bool xor_pays(const uint8_t *p, const uint8_t *copy, uint8_t *x)
{
	unsigned same = 0;
	uint64_t a, b;

	for (size_t i = 0; i < MEM_PAGE; i += 8) {
		memcpy(&a, p + i, 8);
		memcpy(&b, copy + i, 8);
		a ^= b;
		same += a == 0;
		memcpy(x + i, &a, 8);
	}
	return same >= MEM_PAGE / 8 / 4;
}

/* One resident page: written when it is new or changed. */
static void visit_page(struct delta *d, uint64_t page)
{
	const uint8_t *p = d->vm->mem.base + (page << PAGE_SHIFT_4K);
	struct page_hash *was = NULL;
	uint64_t h;

	if (d->rc)
		return;
	d->stats->pages_scanned++;
	if (d->old && d->old->cap) {
		was = slot_of(d->old, page);
		if (!was->page)
			was = NULL;
		else
			was->seen = true;
	}
	if (page_is_zero(p)) {
		if (was) { /* it held bytes at the previous checkpoint */
			flush_run(d);
			zero_record(d, page);
		}
		return;
	}
	h = page_hash(p);
	if (snapshot_put(d->now, page, h) != 0) {
		d->rc = -ENOMEM;
		return;
	}
	if (was && was->hash == h && !d->full) { /* unchanged */
		keep_copy(d->now, was, page, p, false);
		return;
	}
	if (was && was->copy && !d->full && xor_pays(p, was->copy, d->x)) {
		uint8_t kind = REC_XOR;
		uint32_t one = 1;
		flush_run(d);
		sio_u8(d->io, &kind);
		sio_u64(d->io, &page);
		sio_u32(d->io, &one);
		sio_raw(d->io, d->x, MEM_PAGE);
		d->stats->pages_written++;
		keep_copy(d->now, was, page, p, true);
		return;
	}
	keep_copy(d->now, was, page, p, true);
	if (d->run_n && (d->run_first + d->run_n != page || d->run_n == REC_MAX_RUN))
		flush_run(d);
	if (!d->run_n)
		d->run_first = page;
	d->run_n++;
}

/* Resident pages of [lo, hi) (page-aligned host addresses) by PAGEMAP_SCAN;
 * -ENOTTY (or -EINVAL) when the kernel does not have it. */
static int scan_pagemap(struct delta *d, int fd, uintptr_t lo, uintptr_t hi)
{
	struct pm_page_region vec[512];
	uintptr_t base = (uintptr_t)d->vm->mem.base;

	while (lo < hi && !d->rc) {
		struct pm_scan_arg a = {
			.size = sizeof(a),
			.start = lo,
			.end = hi,
			.vec = (uintptr_t)vec,
			.vec_len = sizeof(vec) / sizeof(vec[0]),
			.category_anyof_mask = PM_PAGE_IS_PRESENT | PM_PAGE_IS_SWAPPED,
			.return_mask = PM_PAGE_IS_PRESENT | PM_PAGE_IS_SWAPPED,
		};
		long n = ioctl(fd, PM_PAGEMAP_SCAN, &a);
		if (n < 0)
			return -errno;
		for (long i = 0; i < n; i++)
			for (uintptr_t at = vec[i].start; at < vec[i].end; at += MEM_PAGE)
				visit_page(d, (at - base) >> PAGE_SHIFT_4K);
		if (a.walk_end <= lo)
			break;
		lo = a.walk_end;
	}
	return 0;
}

/* The same by mincore, a chunk of the space at a time (older kernels). */
static void scan_mincore(struct delta *d, uintptr_t lo, uintptr_t hi)
{
	enum { CHUNK_PAGES = 1 << 18 };
	static unsigned char vec[CHUNK_PAGES];
	uintptr_t base = (uintptr_t)d->vm->mem.base;
	size_t host = (size_t)sysconf(_SC_PAGESIZE);

	for (uintptr_t at = lo; at < hi && !d->rc;) {
		size_t len = hi - at < (uintptr_t)CHUNK_PAGES * host ? hi - at : CHUNK_PAGES * host;
		if (mincore((void *)at, len, vec) == 0)
			for (size_t i = 0; i < (len + host - 1) / host; i++)
				if (vec[i] & 1)
					for (size_t k = 0; k < host; k += MEM_PAGE)
						visit_page(d, (at + i * host + k - base) >>
								  PAGE_SHIFT_4K);
		at += len;
	}
}

/* The pages of the file behind [0, backing_size): its allocated ranges
 * (SEEK_DATA), read through the mapping, which allocates nothing there. */
static void scan_backing(struct delta *d)
{
	const struct mem *m = &d->vm->mem;
	off_t at = 0, end;

	while (!d->rc && (uint64_t)at < m->backing_size &&
	       (at = lseek(m->backing_fd, at, SEEK_DATA)) >= 0) {
		end = lseek(m->backing_fd, at, SEEK_HOLE);
		if (end < 0 || (uint64_t)end > m->backing_size)
			end = (off_t)m->backing_size;
		for (off_t p = at & ~(off_t)(MEM_PAGE - 1); p < end; p += MEM_PAGE)
			visit_page(d, (uint64_t)p >> PAGE_SHIFT_4K);
		at = end;
	}
}

int mem_snapshot_save(struct cy_vm *vm, struct mem_snapshot **snap, bool full, struct sio *io,
		      struct mem_delta_stats *stats)
{
	const struct mem *m = &vm->mem;
	struct mem_snapshot *now = calloc(1, sizeof(*now));
	struct delta d = {
		.vm = vm, .io = io, .old = *snap, .now = now, .full = full, .stats = stats
	};
	uintptr_t lo = (uintptr_t)m->base, hi = lo + m->size + MEM_GUARD;
	uint8_t end = REC_END;
	int fd;

	memset(stats, 0, sizeof(*stats));
	if (!now)
		return -ENOMEM;
	if (m->backing_fd >= 0) {
		scan_backing(&d);
		lo += m->backing_size;
	}
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || scan_pagemap(&d, fd, lo, hi) != 0)
		scan_mincore(&d, lo, hi);
	if (fd >= 0)
		close(fd);
	flush_run(&d);
	/* pages that held bytes and are not resident now read as zero */
	for (size_t i = 0; d.old && i < d.old->cap && !d.rc; i++)
		if (d.old->slots[i].page && !d.old->slots[i].seen)
			zero_record(&d, d.old->slots[i].page - 1);
	sio_u8(io, &end);
	stats->bytes = io->len;
	if (d.rc || !sio_ok(io)) {
		mem_snapshot_free(now);
		return d.rc ? d.rc : io->err;
	}
	mem_snapshot_free(*snap);
	*snap = now;
	return 0;
}

int mem_snapshot_load(struct cy_vm *vm, struct sio *io, bool full)
{
	struct mem *m = &vm->mem;
	uint64_t pages = (m->size + MEM_GUARD) >> PAGE_SHIFT_4K;

	if (full)
		mem_zero(m, 0, m->size + MEM_GUARD);
	for (;;) {
		uint8_t kind = REC_END;
		uint64_t first = 0;
		uint32_t n = 0;
		sio_u8(io, &kind);
		if (!sio_ok(io) || kind == REC_END)
			break;
		sio_u64(io, &first);
		sio_u32(io, &n);
		if (!sio_ok(io))
			break;
		if ((kind != REC_DATA && kind != REC_ZERO && kind != REC_XOR) || n == 0 ||
		    first >= pages || n > pages - first || (kind == REC_XOR && (n != 1 || full))) {
			sio_fail(io,
				 "a memory record is malformed (kind %u, %u pages at page 0x%llx)",
				 kind, n, (unsigned long long)first);
			break;
		}
		if (kind == REC_ZERO) {
			mem_zero(m, first << PAGE_SHIFT_4K, (first + n) << PAGE_SHIFT_4K);
		} else if (kind == REC_XOR) {
			uint8_t x[MEM_PAGE], *p = m->base + (first << PAGE_SHIFT_4K);
			uint64_t a, b;
			sio_raw(io, x, MEM_PAGE);
			for (size_t i = 0; i < MEM_PAGE && sio_ok(io); i += 8) {
				memcpy(&a, p + i, 8);
				memcpy(&b, x + i, 8);
				a ^= b;
				memcpy(p + i, &a, 8);
			}
		} else {
			sio_raw(io, m->base + (first << PAGE_SHIFT_4K), (size_t)n << PAGE_SHIFT_4K);
		}
	}
	return io->err;
}

/* ckpt_size.c - how big checkpoints are against what they must at least
 * hold (bench/scale.py, docs/scale-out.md): runs a program in slices of N
 * cycles and, after each, cuts a checkpoint and compresses with zstd, at
 * the checkpoint's level, the pages the guest stored to since the previous
 * one. Those pages are found by an observer of every store, not by the
 * checkpoint's own way of finding changed pages, so the two sizes are
 * measured independently.
 *
 *	ckpt_size PROGRAM.elf N
 *
 * prints a line per checkpoint (index, its bytes, the pages stored to, their
 * compressed bytes) and the totals of the deltas (every checkpoint but the
 * first, which holds the whole memory, the loaded program's too). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "cyclops.h"

#define PAGE 4096u

struct touched {
	uint64_t *pages;
	size_t n, cap;
};

static void add_page(struct touched *t, uint64_t page)
{
	for (size_t i = t->n; i-- > 0 && i + 8 >= t->n;) /* stores come in runs */
		if (t->pages[i] == page)
			return;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->pages = realloc(t->pages, t->cap * sizeof(*t->pages));
		if (!t->pages)
			exit(1);
	}
	t->pages[t->n++] = page;
}

static void on_store(void *ctx, cy_vm *vm, const cy_event *ev)
{
	struct touched *t = ctx;

	(void)vm;
	add_page(t, ev->addr / PAGE);
	add_page(t, (ev->addr + ev->size - 1) / PAGE);
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* zstd (level 3, as checkpoints) of the distinct pages' bytes now. */
static size_t compressed(cy_vm *vm, struct touched *t, size_t *distinct)
{
	size_t n = 0, bound, size;
	uint8_t *raw, *out;

	qsort(t->pages, t->n, sizeof(*t->pages), by_value);
	for (size_t i = 0; i < t->n; i++)
		if (i == 0 || t->pages[i] != t->pages[i - 1])
			t->pages[n++] = t->pages[i];
	raw = malloc(n * PAGE + 1);
	bound = ZSTD_compressBound(n * PAGE);
	out = malloc(bound);
	if (!raw || !out)
		exit(1);
	for (size_t i = 0; i < n; i++)
		if (cy_vm_read(vm, t->pages[i] * PAGE, raw + i * PAGE, PAGE) != 0)
			memset(raw + i * PAGE, 0, PAGE);
	size = ZSTD_compress(out, bound, raw, n * PAGE, 3);
	free(raw);
	free(out);
	*distinct = n;
	t->n = 0;
	return ZSTD_isError(size) ? 0 : size;
}

int main(int argc, char **argv)
{
	struct touched t = { 0 };
	uint64_t every, deltas = 0, refs = 0;
	cy_opts opts;
	cy_vm *vm;
	char err[512];

	if (argc != 3 || !(every = strtoull(argv[2], NULL, 0))) {
		fprintf(stderr, "usage: ckpt_size PROGRAM.elf CYCLES\n");
		return 2;
	}
	cy_opts_init(&opts);
	opts.quiet = true;
	opts.stdout_fd = open("/dev/null", O_WRONLY);
	if (cy_vm_create_from_file(&vm, argv[1], &opts, err, sizeof(err)) != 0 ||
	    cy_vm_add_observer(vm, CY_EV_BIT(CY_EV_STORE), on_store, &t) != 0) {
		fprintf(stderr, "ckpt_size: %s\n", err);
		return 1;
	}
	printf("# index checkpoint_bytes pages_written pages_stored_to stored_compressed_bytes\n");
	for (uint64_t index = 1;; index++) {
		cy_stop stop = cy_vm_run(vm, every);
		cy_checkpoint_info info;
		uint8_t *blob;
		size_t size, distinct, ref = compressed(vm, &t, &distinct);
		if (stop != CY_STOP_NONE)
			break;
		if (cy_checkpoint_cut(vm, NULL, index, false, NULL, 0, &blob, &size, &info, err,
				      sizeof(err)) != 0) {
			fprintf(stderr, "ckpt_size: %s\n", err);
			return 1;
		}
		free(blob);
		printf("%llu %zu %llu %zu %zu\n", (unsigned long long)index, size,
		       (unsigned long long)info.pages_written, distinct, ref);
		if (index > 1) {
			deltas += size;
			refs += ref;
		}
	}
	printf("# deltas: %llu bytes; the pages stored to, compressed: %llu bytes\n",
	       (unsigned long long)deltas, (unsigned long long)refs);
	cy_vm_destroy(vm);
	free(t.pages);
	return 0;
}

/* Sorting as a guest benchmark: branchy compare-and-swap loops, recursion and
 * calls through function pointers. Sorts the same pseudo-random array with a
 * hand-written quicksort, a merge sort and libc qsort, and checks they agree. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT 40000
/* Small partitions go to insertion sort: fewer calls, and it tests a third loop. */
#define INSERTION_CUTOFF 16

typedef void sort_fn(int32_t *a, size_t n);

static void insertion_sort(int32_t *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int32_t x = a[i];
		size_t j = i;
		for (; j > 0 && a[j - 1] > x; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

static void swap(int32_t *a, int32_t *b)
{
	int32_t t = *a;
	*a = *b;
	*b = t;
}

/* Median of three as pivot keeps sorted or reversed input from going
 * quadratic; recursing into the smaller side bounds the stack depth. */
static void quick_sort(int32_t *a, size_t n)
{
	while (n > INSERTION_CUTOFF) {
		size_t mid = n / 2;
		if (a[mid] < a[0])
			swap(&a[mid], &a[0]);
		if (a[n - 1] < a[0])
			swap(&a[n - 1], &a[0]);
		if (a[n - 1] < a[mid])
			swap(&a[n - 1], &a[mid]);
		int32_t pivot = a[mid];

		size_t i = 0, j = n - 1;
		for (;;) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i >= j)
				break;
			swap(&a[i], &a[j]);
			i++;
			j--;
		}
		size_t left = j + 1;
		if (left < n - left) {
			quick_sort(a, left);
			a += left;
			n -= left;
		} else {
			quick_sort(a + left, n - left);
			n = left;
		}
	}
	insertion_sort(a, n);
}

static void merge_sort_rec(int32_t *a, int32_t *tmp, size_t n)
{
	if (n <= INSERTION_CUTOFF) {
		insertion_sort(a, n);
		return;
	}
	size_t half = n / 2;
	merge_sort_rec(a, tmp, half);
	merge_sort_rec(a + half, tmp, n - half);

	size_t i = 0, j = half, k = 0;
	while (i < half && j < n)
		tmp[k++] = a[j] < a[i] ? a[j++] : a[i++];
	while (i < half)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof *a);
}

static int32_t *merge_tmp;

static void merge_sort(int32_t *a, size_t n)
{
	merge_sort_rec(a, merge_tmp, n);
}

static int compare_int32(const void *pa, const void *pb)
{
	int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
	return (a > b) - (a < b);
}

static void libc_qsort(int32_t *a, size_t n)
{
	qsort(a, n, sizeof *a, compare_int32);
}

static const struct {
	const char *name;
	sort_fn *sort;
} sorters[] = {
	{ "quicksort", quick_sort },
	{ "mergesort", merge_sort },
	{ "qsort", libc_qsort },
};

/* xorshift32: cheap, deterministic, and full of both signs once shifted. */
static uint32_t next_random(uint32_t *state)
{
	uint32_t x = *state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

static int is_sorted(const int32_t *a, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (a[i - 1] > a[i])
			return 0;
	return 1;
}

/* Position-weighted, so two arrays with the same elements in a different
 * order get different checksums. Uses the M extension's multiply. */
static uint32_t checksum(const int32_t *a, size_t n)
{
	uint32_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum = sum * 31u + (uint32_t)a[i] * (uint32_t)(i + 1);
	return sum;
}

int main(void)
{
	size_t nsorters = sizeof sorters / sizeof sorters[0];
	int32_t *input = malloc(COUNT * sizeof *input);
	int32_t *results[sizeof sorters / sizeof sorters[0]];
	int ok = 1;

	merge_tmp = malloc(COUNT * sizeof *merge_tmp);
	if (!input || !merge_tmp) {
		fprintf(stderr, "sort: out of memory\n");
		return 1;
	}

	uint32_t state = 2463534242u;
	for (size_t i = 0; i < COUNT; i++)
		input[i] = (int32_t)next_random(&state) % 100000;	/* duplicates too */
	printf("sorting %d numbers, input checksum %08lx\n", COUNT,
	       (unsigned long)checksum(input, COUNT));

	for (size_t s = 0; s < nsorters; s++) {
		results[s] = malloc(COUNT * sizeof *results[s]);
		if (!results[s]) {
			fprintf(stderr, "sort: out of memory\n");
			return 1;
		}
		memcpy(results[s], input, COUNT * sizeof *input);
		sorters[s].sort(results[s], COUNT);

		int sorted = is_sorted(results[s], COUNT);
		int same = memcmp(results[s], results[0], COUNT * sizeof *input) == 0;
		printf("%-10s sorted=%s same-as-%s=%s checksum %08lx\n", sorters[s].name,
		       sorted ? "yes" : "NO", sorters[0].name, same ? "yes" : "NO",
		       (unsigned long)checksum(results[s], COUNT));
		ok &= sorted && same;
	}

	/* Already sorted input is the classic quicksort trap. */
	quick_sort(results[0], COUNT);
	ok &= memcmp(results[0], results[1], COUNT * sizeof *input) == 0;

	printf("min %ld median %ld max %ld\n", (long)results[0][0],
	       (long)results[0][COUNT / 2], (long)results[0][COUNT - 1]);
	for (size_t s = 0; s < nsorters; s++)
		free(results[s]);
	free(merge_tmp);
	free(input);

	if (!ok) {
		printf("sort: self-check FAILED\n");
		return 1;
	}
	printf("sort: self-check passed\n");
	return 0;
}

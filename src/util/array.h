/* array.h - growing arrays: the one helper the modules that keep tables
 * (tracker.c, timer.c) use to make room, doubling the capacity. */
#ifndef CY_ARRAY_H
#define CY_ARRAY_H

#include <errno.h>
#include <stdlib.h>

/* Makes room for need elements of size elem in the array *p of capacity
 * *cap; 0, or -ENOMEM with the array unchanged. */
static inline int array_reserve(void *p, size_t *cap, size_t need, size_t elem)
{
	void **ptr = p;
	size_t n = *cap ? *cap : 8;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*ptr, n * elem);
	if (!q)
		return -ENOMEM;
	*ptr = q;
	*cap = n;
	return 0;
}

#define RESERVE(arr, cap, need) array_reserve(&(arr), &(cap), (need), sizeof(*(arr)))

#endif

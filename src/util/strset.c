/* strset.c - strings found by their text (strset.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/strset.h"

/* 32-bit FNV-1a */
static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

int64_t strset_find(struct strset *t, const char *s, size_t n, size_t *slot)
{
	size_t h;

	if (n * 2 >= t->n_slots) { /* room for one more, at most half full */
		size_t cap = t->n_slots ? 2 * t->n_slots : 1024;
		uint32_t *slots = calloc(cap, sizeof(*slots));
		if (!slots)
			return -2;
		for (size_t i = 0; i < n; i++) {
			h = hash(t->text(t->owner, i)) & (cap - 1);
			while (slots[h])
				h = (h + 1) & (cap - 1);
			slots[h] = (uint32_t)i + 1;
		}
		free(t->slots);
		t->slots = slots;
		t->n_slots = cap;
	}
	for (h = hash(s) & (t->n_slots - 1); t->slots[h]; h = (h + 1) & (t->n_slots - 1)) {
		const char *x = t->text(t->owner, t->slots[h] - 1);
		if (x == s || strcmp(x, s) == 0)
			return t->slots[h] - 1;
	}
	*slot = h;
	return -1;
}

void strset_add(struct strset *t, size_t slot, size_t i) { t->slots[slot] = (uint32_t)i + 1; }

void strset_free(struct strset *t)
{
	free(t->slots);
	t->slots = NULL;
	t->n_slots = 0;
}

/* strset.h - a set of strings by their text (strset.c): open addressing
 * over the strings an owner keeps and numbers 0, 1, 2, ...; the set only
 * holds the numbers, and asks the owner for a number's text. The pprof
 * string table, the profile's frames by name and the DWARF reader's
 * interned paths use it. */
#ifndef CY_STRSET_H
#define CY_STRSET_H

#include <stddef.h>
#include <stdint.h>

struct strset {
	uint32_t *slots; /* number + 1; 0 is free */
	size_t n_slots;
	const char *(*text)(const void *owner, size_t i); /* string i's text */
	const void *owner;
};

/* The number of the string whose text is s among the n the owner has,
 * -1 if none (then *slot is where strset_add puts it); -2 when out of
 * memory. Keeps the set at most half full. */
int64_t strset_find(struct strset *t, const char *s, size_t n, size_t *slot);
/* String number i (the owner's newest) is at slot, from strset_find. */
void strset_add(struct strset *t, size_t slot, size_t i);
void strset_free(struct strset *t);

#endif

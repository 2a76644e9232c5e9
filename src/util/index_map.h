/* index_map.h - open addressing from two or three 32-bit words to the index
 * of an entry in an array kept beside the map (the call-stack profiler's
 * nodes, pcs, edges and ecalls; the cycle tracker's span tree). The map
 * grows that array with its keys, so entry i of the array belongs to key i;
 * it holds at most max keys and is never more than half full. */
#ifndef CY_INDEX_MAP_H
#define CY_INDEX_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct index_map {
	uint32_t *slots; /* index + 1; 0 is free */
	uint32_t mask;
	struct map_key {
		uint32_t a, b, c;
	} * keys;
	size_t n, cap, max;
	bool full; /* a new key has been refused */
};

/* index_map_get's answers that are not an index */
#define INDEX_MAP_NO_MEMORY (-1)
#define INDEX_MAP_FULL      (-2)

/* Rebuilds the slots with cap of them (a power of two); the first call
 * makes the map usable. 0 or -ENOMEM. */
int index_map_rehash(struct index_map *m, uint32_t cap);
/* The index of (a, b); a new one (*added) if it was not there, which the
 * caller fills in its array, grown to m->cap entries of size bytes.
 * INDEX_MAP_FULL if it was not there and the map holds max keys;
 * INDEX_MAP_NO_MEMORY. */
int64_t index_map_get(struct index_map *m, uint32_t a, uint32_t b, void **array, size_t size,
		      bool *added);
/* The same with a third word in the key (index_map_get is c = 0). */
int64_t index_map_get3(struct index_map *m, uint32_t a, uint32_t b, uint32_t c, void **array,
		       size_t size, bool *added);
/* The index of (a, b), or -1 if the map does not hold it. */
int64_t index_map_find(const struct index_map *m, uint32_t a, uint32_t b);
/* Whether the map refused a key for the first time (to warn once). */
bool index_map_first_full(struct index_map *m);
void index_map_free(struct index_map *m);
/* Saves or restores the keys (util/state_io.h); a restore rebuilds the
 * slots and makes *array (entries of size bytes) as long as the keys, for
 * the caller to fill, at most m->max of them. 0 or the error in io. */
struct sio;
int index_map_state_io(struct sio *io, struct index_map *m, void **array, size_t size);

#endif

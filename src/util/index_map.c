/* index_map.c - open addressing from two or three words to an array index
 * (index_map.h). */
#include <errno.h>
#include <stdlib.h>

#include "util/index_map.h"
#include "util/state_io.h"

static uint32_t hash_key(uint32_t a, uint32_t b, uint32_t c)
{
	uint64_t h = ((uint64_t)a << 32 | b) * 0x9e3779b97f4a7c15ull;
	h = (h ^ c) * 0xc2b2ae3d27d4eb4full;
	return (uint32_t)(h >> 32);
}

int index_map_rehash(struct index_map *m, uint32_t cap)
{
	uint32_t *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		uint32_t h = hash_key(m->keys[i].a, m->keys[i].b, m->keys[i].c) & (cap - 1);
		while (slots[h])
			h = (h + 1) & (cap - 1);
		slots[h] = (uint32_t)i + 1;
	}
	free(m->slots);
	m->slots = slots;
	m->mask = cap - 1;
	return 0;
}

int64_t index_map_find(const struct index_map *m, uint32_t a, uint32_t b)
{
	if (!m->slots)
		return -1;
	for (uint32_t h = hash_key(a, b, 0) & m->mask;; h = (h + 1) & m->mask) {
		uint32_t s = m->slots[h];
		if (!s)
			return -1;
		if (m->keys[s - 1].a == a && m->keys[s - 1].b == b && m->keys[s - 1].c == 0)
			return s - 1;
	}
}

int64_t index_map_get(struct index_map *m, uint32_t a, uint32_t b, void **array, size_t size,
		      bool *added)
{
	return index_map_get3(m, a, b, 0, array, size, added);
}

int64_t index_map_get3(struct index_map *m, uint32_t a, uint32_t b, uint32_t c, void **array,
		       size_t size, bool *added)
{
	uint32_t h = hash_key(a, b, c) & m->mask;

	*added = false;
	for (;; h = (h + 1) & m->mask) {
		uint32_t s = m->slots[h];
		if (!s)
			break;
		if (m->keys[s - 1].a == a && m->keys[s - 1].b == b && m->keys[s - 1].c == c)
			return s - 1;
	}
	if (m->n == m->max)
		return INDEX_MAP_FULL;
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 256;
		void *keys = realloc(m->keys, cap * sizeof(*m->keys));
		if (!keys)
			return INDEX_MAP_NO_MEMORY;
		m->keys = keys;
		void *arr = realloc(*array, cap * size);
		if (!arr)
			return INDEX_MAP_NO_MEMORY;
		*array = arr;
		m->cap = cap;
	}
	m->keys[m->n] = (struct map_key){ a, b, c };
	m->slots[h] = (uint32_t)++m->n;
	*added = true;
	/* at most half full: a full table of max keys has 2 * max slots */
	if (m->n * 2 > (size_t)m->mask + 1 && index_map_rehash(m, (m->mask + 1) * 2) != 0) {
		m->slots[h] = 0; /* as it was: the caller never sees the new key */
		m->n--;
		*added = false;
		return INDEX_MAP_NO_MEMORY;
	}
	return (int64_t)m->n - 1;
}

bool index_map_first_full(struct index_map *m)
{
	if (m->full)
		return false;
	m->full = true;
	return true;
}

void index_map_free(struct index_map *m)
{
	free(m->slots);
	free(m->keys);
}

int index_map_state_io(struct sio *io, struct index_map *m, void **array, size_t size)
{
	size_t n = m->n, cap = 256;
	uint32_t slots = 64;

	sio_count(io, &n, m->max, 8, "keys of a table");
	sio_bool(io, &m->full);
	if (io->load && sio_ok(io)) {
		while (cap < n)
			cap *= 2;
		while (slots < 2 * n)
			slots *= 2;
		if (!sio_alloc(io, (void **)&m->keys, cap, sizeof(*m->keys)) ||
		    !sio_alloc(io, array, cap, size))
			return io->err;
		m->cap = cap;
		m->n = n;
	}
	for (size_t i = 0; i < n && sio_ok(io); i++) {
		sio_u32(io, &m->keys[i].a);
		sio_u32(io, &m->keys[i].b);
		sio_u32(io, &m->keys[i].c);
	}
	if (io->load && sio_ok(io) && index_map_rehash(m, slots) != 0)
		sio_fail(io, "out of host memory");
	if (io->load && !sio_ok(io))
		m->n = 0;
	return io->err;
}

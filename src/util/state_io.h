/* state_io.h - saving and restoring a module's state with one function: each
 * field is one call (sio_u64(io, &x->cycles)) that writes the field when the
 * state is saved and reads it back when it is restored, so that a new field
 * is one line in one place. Values are little-endian and fixed-width; the
 * checkpoint file (api/checkpoint.c) frames, compresses and checks them.
 * Restoring trusts nothing: every count is bounded by the bytes left, and a
 * module checks what it read (sio_fail) before it uses it. */
#ifndef CY_STATE_IO_H
#define CY_STATE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sio {
	bool load; /* restoring (else saving) */
	/* saving: the bytes so far */
	uint8_t *buf;
	size_t len, cap;
	/* restoring: the bytes left */
	const uint8_t *p;
	size_t left;
	int err;       /* the first error: -ENOMEM, or -EBADMSG for bad bytes */
	char why[200]; /* what was wrong with them */
};

void sio_save_init(struct sio *io);
void sio_load_init(struct sio *io, const void *p, size_t len);
/* The saved bytes, handed over (the caller frees them); NULL after an error. */
uint8_t *sio_take(struct sio *io, size_t *len);
void sio_free(struct sio *io);

/* Marks the state bad with a reason (the first one is kept); returns false. */
bool sio_fail(struct sio *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline bool sio_ok(const struct sio *io) { return io->err == 0; }

/* n bytes at p, as they are. */
void sio_raw(struct sio *io, void *p, size_t n);
void sio_u8(struct sio *io, uint8_t *v);
void sio_u16(struct sio *io, uint16_t *v);
void sio_u32(struct sio *io, uint32_t *v);
void sio_u64(struct sio *io, uint64_t *v);
void sio_i32(struct sio *io, int32_t *v);
void sio_i64(struct sio *io, int64_t *v);
void sio_bool(struct sio *io, bool *v);
void sio_size(struct sio *io, size_t *v);
void sio_unsigned(struct sio *io, unsigned *v);
/* An enum or int held in an int, restored only if lo <= v <= hi. */
void sio_int(struct sio *io, int *v, int lo, int hi, const char *what);
/* A count of things each taking at least min_bytes in the state: restored
 * only if at most max and if the bytes left can hold them, so that a
 * forged count cannot make a restore allocate without bound. */
void sio_count(struct sio *io, size_t *n, size_t max, size_t min_bytes, const char *what);
/* When restoring, *p becomes a zeroed array of n elements (the old one
 * freed); nothing when saving. false when out of memory or after an error. */
bool sio_alloc(struct sio *io, void **p, size_t n, size_t elem);
/* A length and that many bytes; restored into a malloc'd buffer with a NUL
 * after it (the old one freed), at most max bytes. */
void sio_blob(struct sio *io, void **p, size_t *len, size_t max, const char *what);
/* A fixed tag, written when saving and checked when restoring: says which
 * state follows, so that bytes of one module are never read as another's. */
void sio_tag(struct sio *io, const char tag[4]);

#endif

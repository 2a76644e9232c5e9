/* state_io.c - the bytes of saved state (state_io.h): written to a growing
 * buffer when saving, read with bounds checks when restoring. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/state_io.h"

void sio_save_init(struct sio *io) { memset(io, 0, sizeof(*io)); }

void sio_load_init(struct sio *io, const void *p, size_t len)
{
	memset(io, 0, sizeof(*io));
	io->load = true;
	io->p = p;
	io->left = len;
}

uint8_t *sio_take(struct sio *io, size_t *len)
{
	uint8_t *b = io->buf;

	*len = io->len;
	if (io->err) {
		free(b);
		b = NULL;
		*len = 0;
	}
	io->buf = NULL;
	io->len = io->cap = 0;
	return b ? b : (io->err ? NULL : malloc(1));
}

void sio_free(struct sio *io)
{
	free(io->buf);
	io->buf = NULL;
	io->len = io->cap = 0;
}

bool sio_fail(struct sio *io, const char *fmt, ...)
{
	va_list ap;

	if (io->err)
		return false;
	io->err = -EBADMSG;
	va_start(ap, fmt);
	vsnprintf(io->why, sizeof(io->why), fmt, ap);
	va_end(ap);
	return false;
}

static void out_of_memory(struct sio *io)
{
	if (io->err)
		return;
	io->err = -ENOMEM;
	snprintf(io->why, sizeof(io->why), "out of host memory");
}

void sio_raw(struct sio *io, void *p, size_t n)
{
	if (io->err || n == 0)
		return;
	if (io->load) {
		if (n > io->left) {
			sio_fail(io, "it ends in the middle of a value");
			memset(p, 0, n);
			return;
		}
		memcpy(p, io->p, n);
		io->p += n;
		io->left -= n;
		return;
	}
	if (io->len + n > io->cap) {
		size_t cap = io->cap ? io->cap : 256;
		uint8_t *b;
		while (cap < io->len + n)
			cap *= 2;
		if (!(b = realloc(io->buf, cap))) {
			out_of_memory(io);
			return;
		}
		io->buf = b;
		io->cap = cap;
	}
	memcpy(io->buf + io->len, p, n);
	io->len += n;
}

/* Little-endian hosts only (core/state.h refuses others): values are
 * stored as they lie in memory. */
void sio_u8(struct sio *io, uint8_t *v) { sio_raw(io, v, 1); }
void sio_u16(struct sio *io, uint16_t *v) { sio_raw(io, v, 2); }
void sio_u32(struct sio *io, uint32_t *v) { sio_raw(io, v, 4); }
void sio_u64(struct sio *io, uint64_t *v) { sio_raw(io, v, 8); }
void sio_i32(struct sio *io, int32_t *v) { sio_raw(io, v, 4); }
void sio_i64(struct sio *io, int64_t *v) { sio_raw(io, v, 8); }

void sio_bool(struct sio *io, bool *v)
{
	uint8_t b = *v;

	sio_u8(io, &b);
	if (io->load) {
		if (b > 1)
			sio_fail(io, "a flag is %u, not 0 or 1", b);
		*v = b == 1;
	}
}

void sio_size(struct sio *io, size_t *v)
{
	uint64_t x = *v;

	sio_u64(io, &x);
	if (io->load) {
		if (x > SIZE_MAX)
			sio_fail(io, "a size does not fit this host");
		*v = (size_t)x;
	}
}

void sio_unsigned(struct sio *io, unsigned *v)
{
	uint32_t x = *v;

	sio_u32(io, &x);
	*v = x;
}

void sio_int(struct sio *io, int *v, int lo, int hi, const char *what)
{
	int32_t x = *v;

	sio_i32(io, &x);
	if (io->load) {
		if (x < lo || x > hi)
			sio_fail(io, "%s is %d, outside %d..%d", what, (int)x, lo, hi);
		*v = x < lo || x > hi ? lo : x;
	}
}

void sio_count(struct sio *io, size_t *n, size_t max, size_t min_bytes, const char *what)
{
	sio_size(io, n);
	if (!io->load || io->err)
		return;
	if (*n > max)
		sio_fail(io, "%zu %s, more than the %zu there can be", *n, what, max);
	else if (min_bytes && *n > io->left / min_bytes)
		sio_fail(io, "%zu %s, more than the bytes left can hold", *n, what);
	if (io->err)
		*n = 0;
}

bool sio_alloc(struct sio *io, void **p, size_t n, size_t elem)
{
	void *q;

	if (io->err)
		return false;
	if (!io->load)
		return true;
	if (elem && n > SIZE_MAX / elem - 1) {
		sio_fail(io, "an array too large for this host");
		return false;
	}
	if (!(q = calloc(n + 1, elem ? elem : 1))) {
		out_of_memory(io);
		return false;
	}
	free(*p);
	*p = q;
	return true;
}

void sio_blob(struct sio *io, void **p, size_t *len, size_t max, const char *what)
{
	sio_count(io, len, max, 1, what);
	if (io->load && !sio_alloc(io, p, *len + 1, 1))
		return;
	if (*len)
		sio_raw(io, *p, *len);
}

void sio_tag(struct sio *io, const char tag[4])
{
	char got[4];

	memcpy(got, tag, 4);
	sio_raw(io, got, 4);
	if (io->load && !io->err && memcmp(got, tag, 4) != 0)
		sio_fail(io, "'%.4s' state where '%.4s' state belongs", got, tag);
}

/* pprof_read.c - a pprof profile read back (pprof_read.h): gunzipped with
 * zlib, profile.proto decoded field by field, every reference checked. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "export/pprof_read.h"
#include "util/file.h"

#define PPROF_MAX_BYTES ((size_t)1 << 30) /* unzipped: a larger file is refused */

/* A message being read: [p, end). */
struct pb {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t pb_varint(struct pb *b)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		if (b->p >= b->end) {
			b->bad = true;
			return 0;
		}
		uint8_t c = *b->p++;
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	b->bad = true;
	return 0;
}

/* The next field: its number and wire type, and its value (varint) or
 * bytes (length-delimited). false at the end or on damage. */
struct field {
	unsigned num, wire;
	uint64_t v;
	struct pb sub;
};

static bool pb_next(struct pb *b, struct field *f)
{
	if (b->bad || b->p >= b->end)
		return false;
	uint64_t key = pb_varint(b);
	f->num = (unsigned)(key >> 3);
	f->wire = key & 7;
	f->sub = (struct pb){ b->p, b->p, false }; /* empty unless length-delimited */
	switch (f->wire) {
	case 0: f->v = pb_varint(b); break;
	case 1:
		if (b->end - b->p < 8)
			b->bad = true;
		else
			b->p += 8;
		break;
	case 2: {
		uint64_t n = pb_varint(b);
		if (n > (uint64_t)(b->end - b->p)) {
			b->bad = true;
			break;
		}
		f->sub = (struct pb){ b->p, b->p + n, false };
		b->p += n;
		break;
	}
	case 5:
		if (b->end - b->p < 4)
			b->bad = true;
		else
			b->p += 4;
		break;
	default: b->bad = true; break;
	}
	return !b->bad;
}

/* A repeated integer field's values: one (varint) or packed (bytes). */
static size_t pb_ints(const struct field *f, uint64_t *out, bool *bad)
{
	size_t n = 0;

	if (f->wire == 0) {
		if (out)
			out[0] = f->v;
		return 1;
	}
	if (f->wire != 2) {
		*bad = true;
		return 0;
	}
	struct pb s = f->sub;
	while (s.p < s.end && !s.bad) {
		uint64_t v = pb_varint(&s);
		if (out)
			out[n] = v;
		n++;
	}
	*bad |= s.bad;
	return n;
}

static int unzip(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len)
{
	z_stream z;
	size_t cap = len * 4 + 4096, n = 0;
	uint8_t *buf = malloc(cap);
	int rc;

	if (!buf)
		return -ENOMEM;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		free(buf);
		return -ENOMEM;
	}
	z.next_in = (uint8_t *)in;
	z.avail_in = (uInt)len;
	do {
		if (n == cap) {
			if (cap >= PPROF_MAX_BYTES) {
				rc = Z_BUF_ERROR;
				break;
			}
			cap *= 2;
			uint8_t *b = realloc(buf, cap);
			if (!b) {
				rc = Z_MEM_ERROR;
				break;
			}
			buf = b;
		}
		z.next_out = buf + n;
		z.avail_out = (uInt)(cap - n);
		rc = inflate(&z, Z_NO_FLUSH);
		n = cap - z.avail_out;
	} while (rc == Z_OK);
	inflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(buf);
		return rc == Z_MEM_ERROR ? -ENOMEM : -EINVAL;
	}
	*out = buf;
	*out_len = n;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* id -> index through a sorted table of (id, index); UINT32_MAX if none. */
static uint32_t find_id(const uint64_t (*t)[2], size_t n, uint64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t[mid][0] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && t[lo][0] == id ? (uint32_t)t[lo][1] : UINT32_MAX;
}

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		snprintf(err, err_size, __VA_ARGS__);                                              \
		goto out_fail;                                                                     \
	} while (0)

int pprof_parse(struct pprof_data *d, const uint8_t *data, size_t len, char *err, size_t err_size)
{
	struct pb top;
	struct field f, g;
	size_t n_locs = 0, n_vals = 0, n_lines = 0, n_comments = 0;
	uint64_t(*loc_ids)[2] = NULL, (*fn_ids)[2] = NULL;
	uint64_t *ints = NULL;
	bool bad = false;

	memset(d, 0, sizeof(*d));
	d->raw = malloc(len + 1);
	if (!d->raw)
		FAIL("out of memory");
	memcpy(d->raw, data, len);
	/* pass 1: how many of each */
	top = (struct pb){ d->raw, d->raw + len, false };
	while (pb_next(&top, &f)) {
		switch (f.num) {
		case 1: d->n_types++; break;
		case 2: {
			d->n_samples++;
			struct pb s = f.sub;
			while (pb_next(&s, &g)) {
				if (g.num == 1)
					n_locs += pb_ints(&g, NULL, &bad);
				else if (g.num == 2)
					n_vals += pb_ints(&g, NULL, &bad);
			}
			bad |= s.bad;
			break;
		}
		case 3: d->n_mappings++; break;
		case 4: {
			d->n_locations++;
			struct pb s = f.sub;
			while (pb_next(&s, &g))
				n_lines += g.num == 4;
			bad |= s.bad;
			break;
		}
		case 5: d->n_functions++; break;
		case 6: d->n_strings++; break;
		case 13: n_comments += pb_ints(&f, NULL, &bad); break;
		}
	}
	if (top.bad || bad)
		FAIL("not a pprof profile (damaged protocol buffer)");
	if (!d->n_strings || !d->n_types)
		FAIL("not a pprof profile (no string table or sample types)");
	d->strings = calloc(d->n_strings, sizeof(*d->strings));
	d->types = calloc(d->n_types, sizeof(*d->types));
	d->units = calloc(d->n_types, sizeof(*d->units));
	d->mappings = calloc(d->n_mappings + 1, sizeof(*d->mappings));
	d->locations = calloc(d->n_locations + 1, sizeof(*d->locations));
	d->functions = calloc(d->n_functions + 1, sizeof(*d->functions));
	d->samples = calloc(d->n_samples + 1, sizeof(*d->samples));
	d->comments = calloc(n_comments + 1, sizeof(*d->comments));
	d->loc_store = calloc(n_locs + 1, sizeof(*d->loc_store));
	d->value_store = calloc(d->n_samples * d->n_types + 1, sizeof(*d->value_store));
	d->line_store = calloc(n_lines + 1, sizeof(*d->line_store));
	loc_ids = calloc(d->n_locations + 1, sizeof(*loc_ids));
	fn_ids = calloc(d->n_functions + 1, sizeof(*fn_ids));
	ints = calloc(n_locs + n_vals + n_comments + 1, sizeof(*ints));
	if (!d->strings || !d->types || !d->units || !d->mappings || !d->locations ||
	    !d->functions || !d->samples || !d->comments || !d->loc_store || !d->value_store ||
	    !d->line_store || !loc_ids || !fn_ids || !ints)
		FAIL("out of memory");

	/* pass 2: the strings first (every other field refers to them) */
	size_t k = 0;
	top = (struct pb){ d->raw, d->raw + len, false };
	while (pb_next(&top, &f))
		if (f.num == 6) {
			if (f.wire != 2)
				FAIL("not a pprof profile (a string is not bytes)");
			char *str = malloc((size_t)(f.sub.end - f.sub.p) + 1);
			if (!str)
				FAIL("out of memory");
			memcpy(str, f.sub.p, (size_t)(f.sub.end - f.sub.p));
			str[f.sub.end - f.sub.p] = 0;
			d->strings[k++] = str;
		}
#define STR(i, out)                                                                                \
	do {                                                                                       \
		if ((i) >= d->n_strings)                                                           \
			FAIL("damaged pprof profile (string %llu of %zu)",                         \
			     (unsigned long long)(i), d->n_strings);                               \
		(out) = d->strings[i];                                                             \
	} while (0)
	size_t t = 0, m = 0, l = 0, fn = 0, li = 0;
	top = (struct pb){ d->raw, d->raw + len, false };
	while (pb_next(&top, &f)) {
		struct pb s = f.sub;
		switch (f.num) {
		case 1:
			d->types[t] = d->units[t] = "";
			while (pb_next(&s, &g)) {
				if (g.num == 1)
					STR(g.v, d->types[t]);
				else if (g.num == 2)
					STR(g.v, d->units[t]);
			}
			t++;
			break;
		case 3: {
			struct pprof_mapping *mp = &d->mappings[m++];
			mp->file = mp->build_id = "";
			while (pb_next(&s, &g)) {
				switch (g.num) {
				case 1: mp->id = g.v; break;
				case 2: mp->start = g.v; break;
				case 3: mp->limit = g.v; break;
				case 4: mp->offset = g.v; break;
				case 5: STR(g.v, mp->file); break;
				case 6: STR(g.v, mp->build_id); break;
				}
			}
			break;
		}
		case 4: {
			struct pprof_location *lc = &d->locations[l];
			lc->lines = &d->line_store[li];
			while (pb_next(&s, &g)) {
				switch (g.num) {
				case 1: lc->id = g.v; break;
				case 2: lc->mapping = g.v; break;
				case 3: lc->address = g.v; break;
				case 4: {
					struct pprof_line *ln = &d->line_store[li++];
					struct field h;
					struct pb ls = g.sub;
					ln->function = UINT32_MAX;
					while (pb_next(&ls, &h)) {
						if (h.num == 1)
							ln->function =
							    (uint32_t)(h.v > UINT32_MAX - 1
									   ? UINT32_MAX - 1
									   : h.v);
						else if (h.num == 2)
							ln->line = (int64_t)h.v;
					}
					lc->n_lines++;
					break;
				}
				}
			}
			loc_ids[l][0] = lc->id;
			loc_ids[l][1] = l;
			l++;
			break;
		}
		case 5: {
			struct pprof_function *fu = &d->functions[fn];
			fu->name = fu->file = "";
			while (pb_next(&s, &g)) {
				switch (g.num) {
				case 1: fu->id = g.v; break;
				case 2: STR(g.v, fu->name); break;
				case 4: STR(g.v, fu->file); break;
				case 5: fu->start_line = (int64_t)g.v; break;
				}
			}
			fn_ids[fn][0] = fu->id;
			fn_ids[fn][1] = fn;
			fn++;
			break;
		}
		case 13: {
			size_t c = pb_ints(&f, ints, &bad);
			for (size_t i = 0; i < c; i++)
				STR(ints[i], d->comments[d->n_comments++]);
			break;
		}
		}
		if (s.bad)
			FAIL("damaged pprof profile (a message is cut)");
	}
	qsort(loc_ids, d->n_locations, sizeof(*loc_ids), by_id);
	qsort(fn_ids, d->n_functions, sizeof(*fn_ids), by_id);
	/* lines name functions by id: by index from here on */
	for (size_t i = 0; i < li; i++) {
		uint64_t id = d->line_store[i].function;
		d->line_store[i].function = find_id(fn_ids, d->n_functions, id);
		if (d->line_store[i].function == UINT32_MAX)
			FAIL("damaged pprof profile (a line of function %llu, which is not in it)",
			     (unsigned long long)id);
	}
	/* the samples, locations by index */
	size_t s_i = 0, at = 0;
	top = (struct pb){ d->raw, d->raw + len, false };
	while (pb_next(&top, &f)) {
		if (f.num != 2)
			continue;
		struct pprof_sample *sm = &d->samples[s_i];
		struct pb s = f.sub;
		size_t nv = 0;
		sm->locations = &d->loc_store[at];
		sm->values = &d->value_store[s_i * d->n_types];
		while (pb_next(&s, &g)) {
			if (g.num == 1) {
				size_t c = pb_ints(&g, ints, &bad);
				for (size_t i = 0; i < c; i++) {
					uint32_t x = find_id(loc_ids, d->n_locations, ints[i]);
					if (x == UINT32_MAX)
						FAIL("damaged pprof profile (a sample at location "
						     "%llu, "
						     "which is not in it)",
						     (unsigned long long)ints[i]);
					d->loc_store[at++] = x;
					sm->n_locations++;
				}
			} else if (g.num == 2) {
				size_t c = pb_ints(&g, ints, &bad);
				for (size_t i = 0; i < c; i++) {
					if (nv == d->n_types)
						FAIL("damaged pprof profile (a sample with more "
						     "values "
						     "than types)");
					sm->values[nv++] = (int64_t)ints[i];
				}
			}
		}
		if (nv != d->n_types)
			FAIL("damaged pprof profile (a sample with %zu values for %zu types)", nv,
			     d->n_types);
		s_i++;
	}
	if (bad)
		FAIL("damaged pprof profile");
	free(loc_ids);
	free(fn_ids);
	free(ints);
	return 0;
out_fail:
	free(loc_ids);
	free(fn_ids);
	free(ints);
	pprof_free(d);
	return -1;
}

int pprof_read(struct pprof_data *d, const char *path, char *err, size_t err_size)
{
	static const struct file_rules rules = { .max = (size_t)256 << 20, .streams = true };
	void *data = NULL;
	uint8_t *plain = NULL;
	size_t len = 0, plain_len = 0;
	char why[256];
	int rc;

	memset(d, 0, sizeof(*d));
	rc = file_read(path, &rules, &data, &len, why, sizeof(why));
	if (rc != 0) {
		snprintf(err, err_size, "%s: %s", path, why);
		return -1;
	}
	if (len >= 2 && ((uint8_t *)data)[0] == 0x1f && ((uint8_t *)data)[1] == 0x8b) {
		rc = unzip(data, len, &plain, &plain_len);
		free(data);
		if (rc != 0) {
			snprintf(err, err_size, "%s: %s", path,
				 rc == -ENOMEM ? "out of memory"
					       : "not a pprof profile (damaged gzip data)");
			return -1;
		}
		data = plain;
		len = plain_len;
	}
	rc = pprof_parse(d, data, len, why, sizeof(why));
	free(data);
	if (rc != 0)
		snprintf(err, err_size, "%s: %s", path, why);
	return rc;
}

void pprof_free(struct pprof_data *d)
{
	for (size_t i = 0; d->strings && i < d->n_strings; i++)
		free(d->strings[i]);
	free(d->strings);
	free(d->types);
	free(d->units);
	free(d->mappings);
	free(d->locations);
	free(d->functions);
	free(d->samples);
	free(d->comments);
	free(d->loc_store);
	free(d->value_store);
	free(d->line_store);
	free(d->raw);
	memset(d, 0, sizeof(*d));
}

int pprof_type(const struct pprof_data *d, const char *name)
{
	for (size_t i = 0; i < d->n_types; i++)
		if (strcmp(d->types[i], name) == 0)
			return (int)i;
	return -1;
}

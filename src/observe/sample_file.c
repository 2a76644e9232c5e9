/* sample_file.c - the saved histogram file (docs/sampling.md): encoded in
 * memory and written whole or not at all (util/text.c); read back with every size checked before it
 * is trusted. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "observe/elf_id.h"
#include "observe/sample.h"
#include "util/file.h"
#include "util/text.h"

/* Offsets of the fixed header's fields (all little-endian). */
#define HDR_MAGIC      0
#define HDR_VERSION    8
#define HDR_SIZE       12
#define HDR_INTERVAL   16
#define HDR_CYCLES     24
#define HDR_TOTAL      32
#define HDR_MODEL      40
#define HDR_ID_KIND    72
#define HDR_ID_LEN     73
#define HDR_ID         76
#define HDR_N_RANGES   108
#define HDR_N_OTHER    112
#define HDR_PARTIAL    116
#define HDR_SIGNAL     117
#define HEADER_BYTES   128
#define RANGE_BYTES    8  /* start, end */
#define OTHER_BYTES    16 /* pc, 0, count */
#define TRAILER_BYTES  8  /* FNV-1a of everything before it */
#define MAX_RANGE_SIZE (256u << 20)

/* The largest file cyclops writes holds 64 MiB of counts and 16 MiB of
 * other pcs; older or other writers' files are read up to 1 GiB. */
static const struct file_rules sample_file_rules = { .max = (size_t)1 << 30 };

_Static_assert(HDR_ID + CY_ELF_ID_MAX <= HDR_N_RANGES, "identity fits the header");
_Static_assert(HDR_MODEL + sizeof(((cy_samples *)0)->model) <= HDR_ID_KIND, "model fits");

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}
static uint64_t get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static size_t range_slots(uint32_t start, uint32_t end) { return (end - start) / 2; }

static size_t file_size(size_t n_ranges, const uint32_t *start, const uint32_t *end, size_t n_other)
{
	size_t n = HEADER_BYTES + n_ranges * RANGE_BYTES + n_other * OTHER_BYTES + TRAILER_BYTES;

	for (size_t i = 0; i < n_ranges; i++)
		n += range_slots(start[i], end[i]) * 8;
	return n;
}

uint8_t *samples_encode(const cy_samples *s, size_t *size)
{
	uint32_t start[ELF_ID_MAX_RANGES], end[ELF_ID_MAX_RANGES];
	size_t at = HEADER_BYTES;
	uint8_t *buf;

	if (s->n_ranges > ELF_ID_MAX_RANGES)
		return NULL;
	for (size_t i = 0; i < s->n_ranges; i++) {
		start[i] = s->ranges[i].start;
		end[i] = s->ranges[i].end;
	}
	*size = file_size(s->n_ranges, start, end, s->n_other);
	if (!(buf = calloc(1, *size)))
		return NULL;
	memcpy(buf + HDR_MAGIC, CY_SAMPLES_MAGIC, 8);
	put32(buf + HDR_VERSION, CY_SAMPLES_VERSION);
	put32(buf + HDR_SIZE, HEADER_BYTES);
	put64(buf + HDR_INTERVAL, s->interval);
	put64(buf + HDR_CYCLES, s->cycles);
	put64(buf + HDR_TOTAL, s->total);
	memcpy(buf + HDR_MODEL, s->model, strnlen(s->model, sizeof(s->model) - 1));
	buf[HDR_ID_KIND] = s->id.kind;
	buf[HDR_ID_LEN] = s->id.len;
	memcpy(buf + HDR_ID, s->id.bytes, CY_ELF_ID_MAX);
	put32(buf + HDR_N_RANGES, (uint32_t)s->n_ranges);
	put32(buf + HDR_N_OTHER, (uint32_t)s->n_other);
	buf[HDR_PARTIAL] = s->partial;
	buf[HDR_SIGNAL] = s->signal;
	for (size_t i = 0; i < s->n_ranges; i++, at += RANGE_BYTES) {
		put32(buf + at, start[i]);
		put32(buf + at + 4, end[i]);
	}
	for (size_t i = 0; i < s->n_ranges; i++) {
		size_t n = range_slots(start[i], end[i]) * 8;
		memcpy(buf + at, s->ranges[i].counts, n);
		at += n;
	}
	for (size_t i = 0; i < s->n_other; i++, at += OTHER_BYTES) {
		put32(buf + at, s->other_pc[i]);
		put64(buf + at + 8, s->other_count[i]);
	}
	put64(buf + at, fnv64(FNV64_INIT, buf, at));
	return buf;
}

int samples_write(const cy_samples *s, const char *path, char *err, size_t err_size)
{
	struct text_bytes b;
	int rc;

	if (!(b.p = samples_encode(s, &b.len))) {
		snprintf(err, err_size, "%s: out of memory", path);
		return -ENOMEM;
	}
	rc = text_write_file(path, text_bytes_body, &b);
	if (rc != 0)
		snprintf(err, err_size, "%s: %s", path, strerror(-rc));
	free((void *)b.p);
	return rc;
}

void cy_samples_free(cy_samples *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_ranges; i++)
		free(s->ranges[i].counts);
	free(s->ranges);
	free(s->other_pc);
	free(s->other_count);
	free(s);
}

/* Checks the header and the sizes it implies against the file's. */
static int check_layout(const uint8_t *d, size_t size, char *why, size_t why_size)
{
	uint32_t n_ranges, n_other;
	size_t want;

	if (size < 8 || memcmp(d, CY_SAMPLES_MAGIC, 8) != 0) {
		snprintf(why, why_size, "not a cyclops sample file (no %s magic)",
			 CY_SAMPLES_MAGIC);
		return -EINVAL;
	}
	if (size < HEADER_BYTES) {
		snprintf(why, why_size, "truncated: %zu bytes, shorter than the %d-byte header",
			 size, HEADER_BYTES);
		return -EINVAL;
	}
	if (get32(d + HDR_VERSION) != CY_SAMPLES_VERSION) {
		snprintf(why, why_size, "format version %u, this cyclops reads version %d",
			 get32(d + HDR_VERSION), CY_SAMPLES_VERSION);
		return -EINVAL;
	}
	n_ranges = get32(d + HDR_N_RANGES);
	n_other = get32(d + HDR_N_OTHER);
	if (get32(d + HDR_SIZE) != HEADER_BYTES || n_ranges > ELF_ID_MAX_RANGES ||
	    n_other > (1u << 26) || get64(d + HDR_INTERVAL) == 0 || d[HDR_ID_LEN] > CY_ELF_ID_MAX) {
		snprintf(why, why_size, "damaged header");
		return -EINVAL;
	}
	want = HEADER_BYTES + (size_t)n_ranges * RANGE_BYTES;
	if (size < want) {
		snprintf(why, why_size, "truncated: %zu bytes, the ranges need %zu", size, want);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < n_ranges; i++) {
		uint32_t s = get32(d + HEADER_BYTES + i * RANGE_BYTES);
		uint32_t e = get32(d + HEADER_BYTES + i * RANGE_BYTES + 4);
		if ((s | e) & 1 || e < s || e - s > MAX_RANGE_SIZE) {
			snprintf(why, why_size, "damaged range %u (0x%08x..0x%08x)", i, s, e);
			return -EINVAL;
		}
		want += range_slots(s, e) * 8;
	}
	want += (size_t)n_other * OTHER_BYTES + TRAILER_BYTES;
	if (size != want) {
		snprintf(why, why_size, "%s: %zu bytes, the header says %zu",
			 size < want ? "truncated" : "damaged (trailing bytes)", size, want);
		return -EINVAL;
	}
	if (get64(d + size - TRAILER_BYTES) != fnv64(FNV64_INIT, d, size - TRAILER_BYTES)) {
		snprintf(why, why_size, "damaged: the checksum does not match the contents");
		return -EINVAL;
	}
	return 0;
}

int samples_parse(const uint8_t *d, size_t size, cy_samples *s, char *why, size_t why_size)
{
	size_t at = HEADER_BYTES;
	uint64_t total = 0;
	int rc = check_layout(d, size, why, why_size);

	if (rc != 0)
		return rc;
	s->interval = get64(d + HDR_INTERVAL);
	s->cycles = get64(d + HDR_CYCLES);
	s->total = get64(d + HDR_TOTAL);
	memcpy(s->model, d + HDR_MODEL, sizeof(s->model) - 1);
	s->id.kind = d[HDR_ID_KIND];
	s->id.len = d[HDR_ID_LEN];
	memcpy(s->id.bytes, d + HDR_ID, CY_ELF_ID_MAX);
	s->n_ranges = get32(d + HDR_N_RANGES);
	s->n_other = get32(d + HDR_N_OTHER);
	s->partial = d[HDR_PARTIAL];
	s->signal = d[HDR_SIGNAL];
	s->ranges = calloc(s->n_ranges + 1, sizeof(*s->ranges));
	s->other_pc = calloc(s->n_other + 1, sizeof(*s->other_pc));
	s->other_count = calloc(s->n_other + 1, sizeof(*s->other_count));
	if (!s->ranges || !s->other_pc || !s->other_count)
		goto out_nomem;
	for (size_t i = 0; i < s->n_ranges; i++, at += RANGE_BYTES) {
		s->ranges[i].start = get32(d + at);
		s->ranges[i].end = get32(d + at + 4);
	}
	for (size_t i = 0; i < s->n_ranges; i++) {
		size_t n = range_slots(s->ranges[i].start, s->ranges[i].end);
		s->ranges[i].counts = calloc(n + 1, 8);
		if (!s->ranges[i].counts)
			goto out_nomem;
		memcpy(s->ranges[i].counts, d + at, n * 8);
		for (size_t k = 0; k < n; k++)
			total += s->ranges[i].counts[k];
		at += n * 8;
	}
	for (size_t i = 0; i < s->n_other; i++, at += OTHER_BYTES) {
		s->other_pc[i] = get32(d + at);
		s->other_count[i] = get64(d + at + 8);
		total += s->other_count[i];
		if (i && s->other_pc[i] <= s->other_pc[i - 1]) { /* merging relies on it */
			snprintf(why, why_size,
				 "damaged: pc 0x%08x outside the ranges is not after 0x%08x",
				 s->other_pc[i], s->other_pc[i - 1]);
			return -EINVAL;
		}
	}
	if (total != s->total) {
		snprintf(why, why_size, "damaged: the counts add up to %llu, the header says %llu",
			 (unsigned long long)total, (unsigned long long)s->total);
		return -EINVAL;
	}
	return 0;
out_nomem:
	snprintf(why, why_size, "out of memory");
	return -ENOMEM;
}

int cy_samples_read(cy_samples **out, const char *path, char *err, size_t err_size)
{
	char why[200] = "";
	void *data = NULL;
	size_t size;
	cy_samples *s = NULL;
	int rc;

	*out = NULL;
	rc = file_read(path, &sample_file_rules, &data, &size, why, sizeof(why));
	if (rc == 0 && !(s = calloc(1, sizeof(*s)))) {
		snprintf(why, sizeof(why), "out of memory");
		rc = -ENOMEM;
	}
	if (rc == 0)
		rc = samples_parse(data, size, s, why, sizeof(why));
	free(data);
	if (rc != 0) {
		snprintf(err, err_size, "%s: %s", path, why);
		cy_samples_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

uint64_t cy_samples_at(const cy_samples *s, uint32_t pc)
{
	for (size_t i = 0; i < s->n_ranges; i++)
		if (pc >= s->ranges[i].start && pc < s->ranges[i].end)
			return (pc & 1) ? 0 : s->ranges[i].counts[(pc - s->ranges[i].start) / 2];
	for (size_t i = 0; i < s->n_other; i++)
		if (s->other_pc[i] == pc)
			return s->other_count[i];
	return 0;
}

/* Merges more's pcs outside the ranges into sum's; both lists are sorted
 * (the reader checks it), so the merge is linear. */
static int merge_other(cy_samples *sum, const cy_samples *more)
{
	size_t cap = sum->n_other + more->n_other, i = 0, k = 0, n = 0;
	uint32_t *pc = malloc(cap * sizeof(*pc));
	uint64_t *count = malloc(cap * sizeof(*count));

	if (!pc || !count) {
		free(pc);
		free(count);
		return -ENOMEM;
	}
	while (i < sum->n_other || k < more->n_other) {
		bool from_sum = k == more->n_other ||
				(i < sum->n_other && sum->other_pc[i] <= more->other_pc[k]);
		bool both = from_sum && k < more->n_other && sum->other_pc[i] == more->other_pc[k];
		pc[n] = from_sum ? sum->other_pc[i] : more->other_pc[k];
		count[n] = (from_sum ? sum->other_count[i] : 0) +
			   (!from_sum || both ? more->other_count[k] : 0);
		i += from_sum;
		k += !from_sum || both;
		n++;
	}
	free(sum->other_pc);
	free(sum->other_count);
	sum->other_pc = pc;
	sum->other_count = count;
	sum->n_other = n;
	return 0;
}

int cy_samples_add(cy_samples *sum, const cy_samples *more, char *err, size_t err_size)
{
	if (!cy_elf_identity_equal(&sum->id, &more->id) || sum->n_ranges != more->n_ranges) {
		snprintf(err, err_size, "taken from a different program");
		return -EINVAL;
	}
	if (sum->interval != more->interval || strcmp(sum->model, more->model) != 0) {
		snprintf(err, err_size,
			 "sampled every %llu cycles of model %s, the first file every %llu of %s",
			 (unsigned long long)more->interval, more->model,
			 (unsigned long long)sum->interval, sum->model);
		return -EINVAL;
	}
	for (size_t i = 0; i < sum->n_ranges; i++) {
		if (sum->ranges[i].start != more->ranges[i].start ||
		    sum->ranges[i].end != more->ranges[i].end) {
			snprintf(err, err_size, "taken from a different program (other ranges)");
			return -EINVAL;
		}
		for (size_t k = 0; k < range_slots(sum->ranges[i].start, sum->ranges[i].end); k++)
			sum->ranges[i].counts[k] += more->ranges[i].counts[k];
	}
	if (more->n_other && merge_other(sum, more) != 0) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	sum->total += more->total;
	sum->cycles += more->cycles;
	return 0;
}

/* cyclops_samples.h - saved PC histograms: reading the files that
 * `cyclops run --sample` and a guest's cy_sample_save write, summing them,
 * and the identity of the program they were taken from. The file format is
 * described in docs/sampling.md. */
#ifndef CYCLOPS_SAMPLES_H
#define CYCLOPS_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CY_SAMPLES_MAGIC   "CYSAMPLE"
#define CY_SAMPLES_VERSION 1

/* How the run stood when the file was saved (header byte 116): complete
 * also covers a guest's own cy_sample_save and files from before it. */
#define CY_SAMPLES_COMPLETE    0
#define CY_SAMPLES_FAULT       1
#define CY_SAMPLES_CYCLE_LIMIT 2
#define CY_SAMPLES_INTERRUPTED 3

/* How a program is identified: its GNU build-id (up to 32 bytes), or else
 * the 64-bit FNV-1a hash of its loadable segments (8 bytes). */
#define CY_ELF_ID_BUILD_ID     1
#define CY_ELF_ID_SEGMENT_HASH 2
#define CY_ELF_ID_MAX          32

typedef struct cy_elf_identity {
	uint8_t kind; /* CY_ELF_ID_... */
	uint8_t len;
	uint8_t bytes[CY_ELF_ID_MAX];
} cy_elf_identity;

/* One executable segment's counts: counts[(pc - start) / 2] for the
 * 2-byte aligned pc in [start, end). */
typedef struct cy_sample_range {
	uint32_t start, end;
	uint64_t *counts;
} cy_sample_range;

/* Where the sampler counts the samples at new pcs outside the ranges once
 * its table of such pcs is full (docs/robustness.md): an odd address, which
 * no instruction can have. */
#define CY_SAMPLES_OVERFLOW_PC 0xffffffffu

typedef struct cy_samples {
	uint64_t interval; /* cycles between samples */
	uint64_t cycles;   /* cycles during which sampling was on */
	uint64_t total;    /* the sum of all counts */
	char model[32];    /* the cost model's name */
	uint8_t partial;   /* CY_SAMPLES_*: saved at a stop before the guest's end */
	uint8_t signal;    /* CY_SAMPLES_INTERRUPTED: the signal, 0 if none */
	cy_elf_identity id;
	size_t n_ranges;
	cy_sample_range *ranges;
	size_t n_other; /* pcs outside the ranges, with their counts */
	uint32_t *other_pc;
	uint64_t *other_count;
} cy_samples;

/* Reads a saved histogram; on failure a negative code and "PATH: reason"
 * in err (not a sample file, truncated, damaged, ...). */
int cy_samples_read(cy_samples **out, const char *path, char *err, size_t err_size);
/* Adds more's counts into sum: same program, interval and model only. */
int cy_samples_add(cy_samples *sum, const cy_samples *more, char *err, size_t err_size);
void cy_samples_free(cy_samples *s);
/* The count of one pc. */
uint64_t cy_samples_at(const cy_samples *s, uint32_t pc);

/* The identity of an ELF image (what a histogram records). */
int cy_elf_identity_of(const void *elf, size_t size, cy_elf_identity *id, char *err,
		       size_t err_size);
bool cy_elf_identity_equal(const cy_elf_identity *a, const cy_elf_identity *b);
/* "build-id 3f2a..." or "segment hash 0123abcd..." */
void cy_elf_identity_format(const cy_elf_identity *id, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif

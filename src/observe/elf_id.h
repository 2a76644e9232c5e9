/* elf_id.h - what identifies a program for a saved histogram: its build-id,
 * or a hash of its loadable segments, and the address ranges of its code.
 * Shared by the sampler (the VM) and the hist reader (the file). */
#ifndef CY_ELF_ID_H
#define CY_ELF_ID_H

#include <stddef.h>
#include <stdint.h>

#include "cyclops_samples.h"

/* The executable PT_LOAD segments: at most this many ranges. */
#define ELF_ID_MAX_RANGES 16

struct elf_code {
	cy_elf_identity id;
	size_t n_ranges;
	uint32_t start[ELF_ID_MAX_RANGES], end[ELF_ID_MAX_RANGES]; /* [start, end) */
};

/* Reads the identity and code ranges of the ELF in data. 0, or a negative
 * code with the reason (without the file's name) in err. */
int elf_code_read(const void *data, size_t size, struct elf_code *out, char *err, size_t err_size);

/* 64-bit FNV-1a, continued from h (start with FNV64_INIT). */
#define FNV64_INIT 0xcbf29ce484222325ull
uint64_t fnv64(uint64_t h, const void *p, size_t n);

#endif

/* program.h - a guest program's ELF as the listings and profiles read it
 * (program.c): its functions (symbols, labels of hand-written code), its
 * code bytes, its executable segments and identity. cyclops hist,
 * cyclops annotate and the pprof writer share it. */
#ifndef CY_PROGRAM_H
#define CY_PROGRAM_H

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cyclops_samples.h"

struct prog_func {
	const char *name; /* readable: demangled when it was mangled */
	char *readable;   /* the demangled name, owned */
	uint32_t start, end;
	uint32_t section_end; /* a function never runs past its section */
};

#define PROGRAM_MAX_SEGMENTS 16

struct program {
	char *path; /* a copy */
	uint8_t *data;
	size_t size;
	Elf *elf;
	unsigned xlen;           /* 32 or 64, from the ELF's class */
	struct prog_func *funcs; /* by start, one per address */
	size_t n_funcs;
	cy_elf_identity id;
	/* the executable PT_LOAD segments */
	struct prog_segment {
		uint32_t vaddr, memsz, filesz;
		uint64_t offset;
	} segs[PROGRAM_MAX_SEGMENTS];
	size_t n_segs;
};

/* Reads the ELF at path; 0, or -1 with "PATH: reason" in err. */
int program_open(struct program *pg, const char *path, char *err, size_t err_size);
void program_close(struct program *pg);
/* The function containing pc (index in funcs), -1 if none. Functions are
 * STT_FUNC symbols and the labels of hand-written code (STT_NOTYPE in an
 * executable section, not .L or $ mapping symbols); one without a size
 * ends where the next one starts or its section ends. */
int program_func_at(const struct program *pg, uint32_t pc);
/* The function whose name is name (readable or as in the ELF), -1. */
int program_func_named(const struct program *pg, const char *name);
/* The instruction bits at pc from the ELF's loadable segments (2 bytes
 * at the end of a segment); false if the file has none there. */
bool program_code_at(const struct program *pg, uint32_t pc, uint32_t *bits);
/* The identity as hex (what pprof's Mapping.build_id holds). */
void program_build_id(const struct program *pg, char *buf, size_t size);

#endif

/* file.h - reading a whole file into memory under rules that say what may
 * be read (a regular file only, or a stream too; how large; which first
 * bytes), with the reason when it cannot be; the loaders' way in. */
#ifndef CY_FILE_H
#define CY_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* What file_read accepts. */
struct file_rules {
	size_t max;            /* larger files, or streams that give more, are refused */
	bool streams;          /* pipes, FIFOs and devices are read too (blocking) */
	const char *magic;     /* the first bytes, checked before the rest is read */
	size_t magic_len;      /* 0: any */
	const char *not_magic; /* the reason when they differ ("not an ELF file") */
};

/* An ELF program: at most 2 GiB (RV32 segments and their DWARF), the ELF
 * magic checked before the rest is read. */
extern const struct file_rules file_rules_elf;

/* Reads path into a malloc'd buffer (one spare byte at the end). A FIFO
 * or device is refused without being opened for long (no hang on a FIFO
 * without a writer) unless rules->streams. Returns 0, or a negative errno
 * value with the reason (without the path) in why. */
int file_read(const char *path, const struct file_rules *rules, void **data, size_t *size,
	      char *why, size_t why_size);

#endif

/* file.h - reading a whole regular file into memory, with the reason when
 * it cannot be read; the ELF loader's and the histogram reader's way in. */
#ifndef CY_FILE_H
#define CY_FILE_H

#include <stddef.h>

/* Reads path into a malloc'd buffer (one spare byte at the end). Returns 0,
 * or a negative errno value with the reason (without the path) in why. */
int file_read_all(const char *path, void **data, size_t *size, char *why, size_t why_size);

#endif

/* report.h - the JSON report of a run (--report FILE.json; docs/report.md). */
#ifndef CY_REPORT_H
#define CY_REPORT_H

#include <stddef.h>

#include "cyclops.h"

/* The JSON report (report.c): chunks are added as the run goes, the
 * file is written at the end, whole or not at all. */
struct report;
struct report *report_new(void);
int report_add_chunk(struct report *r, const cy_chunk_report *chunk);
int report_write(struct report *r, const char *path, const char *program, cy_vm *vm, int status,
		 char *err, size_t err_size);
void report_free(struct report *r);
/* Saves or restores the chunks added so far (a checkpoint's part); the
 * report restored into is a new one. 0 or the error in io. */
struct sio;
int report_state_io(struct sio *io, struct report *r);

#endif

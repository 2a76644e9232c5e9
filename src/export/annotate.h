/* annotate.h - source and disassembly annotated with costs (annotate.c):
 * per line and per instruction, for cyclops annotate (from a profile, a
 * saved histogram or a run) and cyclops hist, which share it. */
#ifndef CY_ANNOTATE_H
#define CY_ANNOTATE_H

#include <stdbool.h>
#include <stdio.h>

#include "export/profile.h"
#include "export/program.h"

/* One pc's costs: v in the first unit (cycles, samples), v2 in the
 * second (instructions; 0 without one). */
struct annot_pc {
	uint32_t pc;
	uint64_t v, v2;
};

struct annot {
	const struct program *pg;
	struct srcinfo *src;        /* NULL: no DWARF (no source, no lines) */
	const char *unit, *unit2;   /* "cycles", "instructions"; unit2 NULL: none */
	uint64_t total, total2;     /* the whole run's: shares are of total */
	const struct annot_pc *pcs; /* by pc */
	size_t n_pcs;
	bool colour;      /* ANSI colours (a terminal, no NO_COLOR) */
	size_t max_insns; /* instructions listed of one function */
	/* filled by annotate_prepare: each function's costs */
	uint64_t *func_v, *func_v2;
	uint64_t outside, outside2; /* at pcs no function contains */
};

/* Sums the costs per function; 0 or -ENOMEM. */
int annotate_prepare(struct annot *a);
void annotate_free(struct annot *a);
/* Function indices by cost, the hottest first, those without any left
 * out; *n of them (malloc'd; NULL if none or out of memory). */
size_t *annotate_hot(const struct annot *a, size_t *n);
/* The function table: the hottest, down to min_share percent of the run
 * or max of them, and one line for the rest. */
void annotate_table(FILE *f, const struct annot *a, const size_t *hot, size_t n_hot,
		    double min_share, size_t max);
/* Function fn's lines, each with its costs and source text (lines of the
 * functions inlined into it too: each file it has code from). */
void annotate_source(FILE *f, const struct annot *a, size_t fn);
/* Function fn's instructions, with a line of source where its line
 * changes; runs of instructions that never ran are collapsed. */
void annotate_disasm(FILE *f, const struct annot *a, size_t fn);

#endif

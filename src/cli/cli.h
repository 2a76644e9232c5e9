/* cli.h - the subcommands of the cyclops command line tool.
 * Each is a client of include/cyclops.h only. */
#ifndef CY_CLI_H
#define CY_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cyclops.h"
#include "cyclops_samples.h"
#include "export/report.h"
#include "util/text.h"

int cli_run(int argc, char **argv);
int cli_models(int argc, char **argv);
int cli_hist(int argc, char **argv);
int cli_annotate(int argc, char **argv);
int cli_diff(int argc, char **argv);

/* Sampling options of run (cli_sample.c): option id (RUN_SAMPLE,
 * RUN_SAMPLE_OUT, RUN_OUT_DIR) as given (o) with its value v (NULL: none);
 * 0, or -1 after a message. */
int cli_parse_sample_option(int id, const char *o, const char *v, bool *sample, uint64_t *interval,
			    const char **sample_out, const char **out_dir);
/* Saves the histogram at exit to sample_out (default OUT-DIR/cyclops.samples). */
int cli_save_samples(cy_vm *vm, const char *sample_out, const char *out_dir, bool quiet);

/* Reads and sums saved histograms, refusing any taken from another program
 * than pg (cli_hist.c); cmd names the command in messages. 0 or -1. */
struct program;
int cli_load_samples(const char *cmd, const struct program *pg, char **files, int n_files,
		     cy_samples **out);

/* Shared helpers (cli_util.c). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Parses a decimal count ("1000000", "1_000_000", "10M", "2G"); 0 if valid. */
int cli_parse_count(const char *text, uint64_t *out);
/* Whether human output to f may use colour: a terminal, no NO_COLOR. */
bool cli_use_colour(FILE *f);
/* Reads a whole file, or a pipe, FIFO or device up to CLI_INPUT_MAX bytes,
 * into a malloc'd buffer; 0, or < 0 with "PATH: reason". */
#define CLI_INPUT_MAX ((size_t)256 << 20)
int cli_read_file(const char *path, uint8_t **out, size_t *len, char *err, size_t err_size);

/* A command line's words in a checkpoint or a message (util/state_io.h):
 * restored into a malloc'd array of malloc'd strings (cli_words_free). */
#define CLI_MAX_WORDS 4096
struct sio;
void cli_words_io(struct sio *io, int *argc, char ***argv);
void cli_words_free(int argc, char **argv);

/* The cycle tracker's tree and warnings, for people (cli_tracker.c). */
void cli_print_tracker(FILE *f, cy_vm *vm, bool colour);

/* The channel timers' tree, explained steps and warnings (cli_timers.c). */
void cli_print_timers(FILE *f, cy_vm *vm, bool colour);

/* The performance counters after a run, for people and for the JSON
 * (cli_counters.c). */
void cli_print_counters(FILE *f, const cy_vm *vm, bool colour);

#endif

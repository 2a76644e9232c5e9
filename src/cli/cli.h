/* cli.h - the subcommands of the cyclops command line tool.
 * Each is a client of include/cyclops.h only. */
#ifndef CY_CLI_H
#define CY_CLI_H

#include <stdbool.h>
#include <stdint.h>

int cli_run(int argc, char **argv);
int cli_models(int argc, char **argv);

/* Shared helpers (cli_util.c). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Parses a decimal count ("1000000", "1_000_000", "10M", "2G"); 0 if valid. */
int cli_parse_count(const char *text, uint64_t *out);

#endif

/* cli_options.h - the options of every subcommand, one table each. The
 * parser, --help, the man page and the shell completions all read these
 * tables, so what cyclops accepts and what it says it accepts cannot drift. */
#ifndef CY_CLI_OPTIONS_H
#define CY_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

enum cli_arg {
	CLI_ARG_NONE,     /* a flag: --timers */
	CLI_ARG_REQUIRED, /* --max-cycles N or --max-cycles=N */
	CLI_ARG_OPTIONAL, /* --sample or --sample=N; the separate form only
			   * with choices: --counters asic */
};

/* What a shell completes after an option. */
enum cli_complete { CLI_COMPLETE_NONE, CLI_COMPLETE_FILE, CLI_COMPLETE_DIR };

struct cli_option {
	int id;                     /* the command's enum value */
	char short_name;            /* 'q', or 0 */
	const char *name;           /* "max-cycles", without the dashes */
	enum cli_arg arg;           /* whether it takes a value */
	const char *value;          /* the value's name in the help: "N" */
	const char *choices;        /* the only values, space-separated; NULL: any */
	enum cli_complete complete; /* what a shell completes for the value */
	const char *help;           /* sentences; wrapped when printed */
};

struct cli_command {
	const char *name;     /* "run" */
	const char *synopsis; /* after "cyclops run ": "[options] PROGRAM.elf ..." */
	const char *summary;  /* one line for the top-level help */
	const char *description;
	const struct cli_option *options;
	int n_options;
	const char *notes; /* after the options: exit status, signals */
};

enum run_option {
	RUN_QUIET,
	RUN_MAX_CYCLES,
	RUN_MAX_MEMORY,
	RUN_MODEL,
	RUN_SEGMENT_PO2,
	RUN_CYCLE_TRACKER,
	RUN_REPORT,
	RUN_CHUNK_CYCLES,
	RUN_COUNTERS,
	RUN_ABI,
	RUN_INPUT,
	RUN_PUBLIC_VALUES,
	RUN_TIMERS,
	RUN_SIGNIFICANT,
	RUN_PROFILE,
	RUN_FORMAT,
	RUN_NO_INLINE,
	RUN_SOURCE_ROOT,
	RUN_TRIM_PATH,
	RUN_SAMPLE,
	RUN_SAMPLE_OUT,
	RUN_OUT_DIR,
	RUN_GUEST_SAVES,
	RUN_PLATFORM,
	RUN_RAM,
	RUN_UART,
	RUN_SIGNATURE,
	RUN_SIGNATURE_GRANULARITY,
	RUN_ENGINE,
	RUN_GDB,
	RUN_GDB_HISTORY,
	RUN_CHECKPOINT_EVERY,
	RUN_CHECKPOINT_DIR,
	RUN_JOBS,
	RUN_MPI,
	RUN_HELP,
};

enum resume_option { RESUME_MAX_CYCLES, RESUME_HELP };
enum batch_option { BATCH_JOBS, BATCH_OUT_DIR, BATCH_QUIET, BATCH_HELP };

enum hist_option { HIST_ELF, HIST_TOP, HIST_JSON, HIST_TRIM_PATH, HIST_SOURCE_ROOT, HIST_HELP };
enum models_option { MODELS_HELP };
enum annotate_option {
	ANNOTATE_ELF,
	ANNOTATE_FUNCTIONS,
	ANNOTATE_MIN_SHARE,
	ANNOTATE_FUNCTION,
	ANNOTATE_MODEL,
	ANNOTATE_MAX_CYCLES,
	ANNOTATE_TRIM_PATH,
	ANNOTATE_SOURCE_ROOT,
	ANNOTATE_HELP,
};
enum diff_option { DIFF_TOP, DIFF_HTML, DIFF_PPROF, DIFF_FAIL_ABOVE, DIFF_HELP };

extern const struct cli_command cli_run_command, cli_hist_command, cli_models_command,
    cli_resume_command, cli_batch_command, cli_annotate_command, cli_diff_command;
/* Every subcommand, in the order the help lists them; n_cli_commands of them. */
extern const struct cli_command *const cli_commands[];
extern const int n_cli_commands;

/* Reads the option at argv[*i] (which starts with '-'); *i moves past its
 * value. Returns the option's id with *value its value (NULL if none was
 * given), or -1 after a message naming the command and the option. */
int cli_next_option(const struct cli_command *c, int argc, char **argv, int *i, const char **value);
/* The option of c that arg names ("--max-cycles", "--max-cycles=9", "-q"),
 * NULL if none. */
const struct cli_option *cli_find_option(const struct cli_command *c, const char *arg);

/* "cyclops --help" and "cyclops CMD --help", from the tables. */
void cli_print_usage(FILE *f);
void cli_print_help(FILE *f, const struct cli_command *c);
/* The man page cyclops(1), in troff (man(7) macros). */
void cli_print_man(FILE *f);
/* A completion script for bash or zsh; -1 for another shell. */
int cli_print_completion(FILE *f, const char *shell);

#endif

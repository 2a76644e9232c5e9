/* cli_options.c - the option tables of the subcommands, the parser that
 * reads argv with them, and the --help text printed from them. */
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_options.h"

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct cli_option run_options[] = {
	{ RUN_QUIET, 'q', "quiet", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE,
	  "no summary line and no warnings" },
	{ RUN_MAX_CYCLES, 0, "max-cycles", CLI_ARG_REQUIRED, "N", NULL, CLI_COMPLETE_NONE,
	  "stop the guest after N cycles (exit status 253); N may have a k, M or G suffix" },
	{ RUN_MAX_MEMORY, 0, "max-memory", CLI_ARG_REQUIRED, "N[K|M|G]", NULL, CLI_COMPLETE_NONE,
	  "stop the guest once it has touched more than N bytes of memory (exit status 254)" },
	{ RUN_MODEL, 0, "model", CLI_ARG_REQUIRED, "NAME|FILE", NULL, CLI_COMPLETE_FILE,
	  "the cost model, what a cycle is: unit (default, one per instruction), zero-riscy, "
	  "risc0, any model cyclops models lists, or a model file" },
	{ RUN_SEGMENT_PO2, 0, "segment-po2", CLI_ARG_REQUIRED, "N", NULL, CLI_COMPLETE_NONE,
	  "paging models: segments of 2^N cycles (13 to 24; default the model's)" },
	{ RUN_CYCLE_TRACKER, 0, "cycle-tracker", CLI_ARG_OPTIONAL, "quiet", "quiet",
	  CLI_COMPLETE_NONE,
	  "measure the spans between the guest's cycle-tracker-start/-end lines and print "
	  "their tree on stderr (quiet: leave the lines out of the guest's output)" },
	{ RUN_REPORT, 0, "report", CLI_ARG_REQUIRED, "FILE.json", NULL, CLI_COMPLETE_FILE,
	  "write a JSON report of the run (turns on --cycle-tracker)" },
	{ RUN_CHUNK_CYCLES, 0, "chunk-cycles", CLI_ARG_REQUIRED, "N", NULL, CLI_COMPLETE_NONE,
	  "the size of the report's chunks (default 4194304); needs --report" },
	{ RUN_COUNTERS, 0, "counters", CLI_ARG_OPTIONAL, "fpga|asic", "fpga asic",
	  CLI_COMPLETE_NONE,
	  "print the performance counters the guest enabled at exit; ZERO-RISCY's PCCRs are "
	  "one per event (fpga, default) or one for all (asic)" },
	{ RUN_ABI, 0, "abi", CLI_ARG_REQUIRED, "linux|sp1[@vN]|pico[@v1]|risc0|auto",
	  "linux sp1 sp1@v3 sp1@v4 sp1@v5 sp1@v6 pico pico@v1 risc0 auto", CLI_COMPLETE_NONE,
	  "the guest's syscall ABI (default: sp1, pico or risc0 when the ELF's symbols say so, "
	  "else linux); sp1@vN forces SP1's version N, which is otherwise read from the ELF" },
	{ RUN_INPUT, 0, "input", CLI_ARG_REQUIRED, "SPEC", NULL, CLI_COMPLETE_FILE,
	  "zkVM guests: one input frame, in order; SPEC is u32:N, u64:N, hex:BYTES, str:TEXT "
	  "(encoded as the SDKs' write does) or a file read whole" },
	{ RUN_PUBLIC_VALUES, 0, "public-values", CLI_ARG_REQUIRED, "FILE", NULL, CLI_COMPLETE_FILE,
	  "zkVM guests: write the public values there" },
	{ RUN_TIMERS, 0, "timers", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE,
	  "watch the guest's channel timers (CY_TIMER_*) and print their tree and expensive "
	  "steps" },
	{ RUN_SIGNIFICANT, 0, "significant", CLI_ARG_REQUIRED, "N", NULL, CLI_COMPLETE_NONE,
	  "explain steps of N cycles or more (default: the model's page-in cost, or 1000); "
	  "turns on --timers" },
	{ RUN_PROFILE, 0, "profile", CLI_ARG_REQUIRED, "FILE", NULL, CLI_COMPLETE_FILE,
	  "write a call-stack profile; the format comes from the extension: .pb.gz (pprof), "
	  ".speedscope.json, .folded, .svg, .callgrind, .trace.json, .html; may be given "
	  "several times" },
	{ RUN_FORMAT, 0, "format", CLI_ARG_REQUIRED, "FMT",
	  "pprof speedscope folded svg callgrind trace html", CLI_COMPLETE_NONE,
	  "the format of the next --profile, whatever its extension: pprof, speedscope, "
	  "folded, svg, callgrind, trace, html" },
	{ RUN_NO_INLINE, 0, "no-inline", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE,
	  "profiles without inlined functions as frames (by default, the functions the "
	  "compiler inlined are frames of their own, read from the DWARF)" },
	{ RUN_SOURCE_ROOT, 0, "source-root", CLI_ARG_REQUIRED, "DIR", NULL, CLI_COMPLETE_DIR,
	  "profiles: source paths that are relative (after --trim-path) are put under DIR" },
	{ RUN_TRIM_PATH, 0, "trim-path", CLI_ARG_REQUIRED, "PREFIX", NULL, CLI_COMPLETE_DIR,
	  "profiles: PREFIX is taken off the start of source paths (absolute ones, from "
	  "the DWARF's compilation directory; a relative PREFIX is a directory from here: "
	  "--trim-path . makes them relative to it)" },
	{ RUN_SAMPLE, 0, "sample", CLI_ARG_OPTIONAL, "N", NULL, CLI_COMPLETE_NONE,
	  "count the pc every N cycles (default 32) from the start into a histogram, saved at "
	  "exit to --sample-out (read it with cyclops hist)" },
	{ RUN_SAMPLE_OUT, 0, "sample-out", CLI_ARG_REQUIRED, "FILE", NULL, CLI_COMPLETE_FILE,
	  "where the histogram goes at exit (default OUT-DIR/cyclops.samples with --sample)" },
	{ RUN_OUT_DIR, 0, "out-dir", CLI_ARG_REQUIRED, "DIR", NULL, CLI_COMPLETE_DIR,
	  "the directory of --sample's file and of the guest's saves (default the working "
	  "directory)" },
	{ RUN_GUEST_SAVES, 0, "guest-saves", CLI_ARG_OPTIONAL, "FILES[,SIZE]", NULL,
	  CLI_COMPLETE_NONE,
	  "let the guest's cy_sample_save write histograms beneath OUT-DIR: at most FILES "
	  "files (default 64) and SIZE bytes in all (default 256M); without it the guest "
	  "writes no file" },
	{ RUN_PLATFORM, 0, "platform", CLI_ARG_REQUIRED, "linux|bare|auto", "linux bare auto",
	  CLI_COMPLETE_NONE,
	  "linux: a user-mode program; bare: firmware in machine mode (default: bare when the "
	  "ELF has a tohost symbol, else linux)" },
	{ RUN_RAM, 0, "ram", CLI_ARG_REQUIRED, "ADDR:SIZE[,...]", NULL, CLI_COMPLETE_NONE,
	  "bare: RAM besides the ELF's segments (default 0x80000000:64M)" },
	{ RUN_UART, 0, "uart", CLI_ARG_REQUIRED, "ADDR", NULL, CLI_COMPLETE_NONE,
	  "bare: the UART's registers (default 0x10000000)" },
	{ RUN_SIGNATURE, 0, "signature", CLI_ARG_REQUIRED, "FILE", NULL, CLI_COMPLETE_FILE,
	  "write the memory between the ELF's begin_signature and end_signature symbols when "
	  "the run ends, as riscv-arch-test and RISCOF read it" },
	{ RUN_SIGNATURE_GRANULARITY, 0, "signature-granularity", CLI_ARG_REQUIRED, "BYTES",
	  "1 2 4 8 16", CLI_COMPLETE_NONE,
	  "bytes per line of --signature, each line the hex of that many bytes, highest "
	  "address first (1, 2, 4 (default), 8 or 16)" },
	{ RUN_ENGINE, 0, "engine", CLI_ARG_REQUIRED, "jit|interp|reference", "jit interp reference",
	  CLI_COMPLETE_NONE,
	  "jit (default where the host has it: x86-64 with libgccjit): hot code translated to host "
	  "code, the rest interpreted; interp: the interpreter only; reference: the profilers on "
	  "every instruction's events, slowly (the fast path's test). Every output is the same "
	  "under each" },
	{ RUN_GDB, 0, "gdb", CLI_ARG_REQUIRED, "[HOST:]PORT", NULL, CLI_COMPLETE_NONE,
	  "wait for GDB on HOST:PORT (HOST 127.0.0.1 unless given; port 0 picks a free one, "
	  "shown on stderr) and run the guest under its control, forwards and backwards, with "
	  "cycle-aware monitor commands (docs/gdb.md); another host than a loopback address "
	  "is warned about" },
	{ RUN_GDB_HISTORY, 0, "gdb-history", CLI_ARG_REQUIRED, "N[K|M|G]", NULL, CLI_COMPLETE_NONE,
	  "memory the reverse-execution snapshots may keep (default 512M); 0: no reverse "
	  "execution" },
	{ RUN_CHECKPOINT_EVERY, 0, "checkpoint-every", CLI_ARG_REQUIRED, "N", NULL,
	  CLI_COMPLETE_NONE,
	  "cycles between checkpoints, and the size of the chunks of --jobs and --mpi (default "
	  "268435456, 2^28; a k, M or G suffix); a whole number of the report's chunks" },
	{ RUN_CHECKPOINT_DIR, 0, "checkpoint-dir", CLI_ARG_REQUIRED, "DIR", NULL, CLI_COMPLETE_DIR,
	  "write checkpoints of the whole run (the VM, every profiler, the report so far) into "
	  "DIR, made if missing; cyclops resume DIR goes on from the latest" },
	{ RUN_JOBS, 0, "jobs", CLI_ARG_REQUIRED, "N", NULL, CLI_COMPLETE_NONE,
	  "profile the run in chunks on N worker processes while a fast pass runs ahead "
	  "cutting checkpoints; every output is the one a single process writes" },
	{ RUN_MPI, 0, "mpi", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE,
	  "the same over MPI, started by mpirun or srun: rank 0 runs the fast pass and writes "
	  "the outputs, every other rank profiles chunks; files travel in MPI messages" },
	{ RUN_HELP, 'h', "help", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE, "this text" },
};

const struct cli_command cli_run_command = {
	"run",
	"[options] PROGRAM.elf [--] [ARGS...]",
	"run a program and count its cycles",
	"Runs a statically linked RV32IMAC Linux ELF (or bare-metal firmware). Options come "
	"before PROGRAM; everything after it is passed to the guest as argv[1...] (a cyclops "
	"option there is the guest's too, with a warning unless -- comes first). The guest's "
	"output passes through unchanged; one summary line goes to stderr at the end.",
	run_options,
	COUNT(run_options),
	"SIGINT, SIGTERM or SIGHUP stops the guest and writes everything asked for, marked "
	"partial; a second one ends cyclops at once.\n"
	"Exit status: the guest's, or 250 usage, 251 bad program or model, 252 guest fault, "
	"253 cycle limit, 254 host out of memory or --max-memory, 128+N after signal N "
	"(130 SIGINT, 143 SIGTERM).",
};

static const struct cli_option hist_options[] = {
	{ HIST_ELF, 0, "elf", CLI_ARG_REQUIRED, "PROGRAM.elf", NULL, CLI_COMPLETE_FILE,
	  "the program the histograms were taken from (required)" },
	{ HIST_TOP, 0, "top", CLI_ARG_REQUIRED, "N", NULL, CLI_COMPLETE_NONE,
	  "rows of the function and line tables (default 10); the hottest min(N, 3) functions "
	  "are annotated" },
	{ HIST_JSON, 0, "json", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE,
	  "one JSON object on stdout instead of tables" },
	{ HIST_TRIM_PATH, 0, "trim-path", CLI_ARG_REQUIRED, "PREFIX", NULL, CLI_COMPLETE_DIR,
	  "PREFIX is taken off the start of source paths (absolute ones, from the DWARF's "
	  "compilation directory)" },
	{ HIST_SOURCE_ROOT, 0, "source-root", CLI_ARG_REQUIRED, "DIR", NULL, CLI_COMPLETE_DIR,
	  "source paths that are relative (after --trim-path) are put under DIR" },
	{ HIST_HELP, 'h', "help", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE, "this text" },
};

const struct cli_command cli_hist_command = {
	"hist",
	"[options] FILE... --elf PROGRAM.elf",
	"analyse saved PC histograms",
	"Reads PC histograms saved by cyclops run --sample or a guest's cy_sample_save, sums "
	"them, and shows where the samples fall: per function, per source line (DWARF; build "
	"the guest with -g) and, for the hottest functions, per instruction. The files must "
	"come from PROGRAM.",
	hist_options,
	COUNT(hist_options),
	"Exit status: 0, 1 for a file that cannot be read or belongs to another program, 250 "
	"usage.",
};

static const struct cli_option annotate_options[] = {
	{ ANNOTATE_ELF, 0, "elf", CLI_ARG_REQUIRED, "PROGRAM.elf", NULL, CLI_COMPLETE_FILE,
	  "the program (histograms need it; a profile names its own)" },
	{ ANNOTATE_FUNCTIONS, 0, "functions", CLI_ARG_REQUIRED, "N", NULL, CLI_COMPLETE_NONE,
	  "annotate at most N functions, the hottest first (default 5)" },
	{ ANNOTATE_MIN_SHARE, 0, "min-share", CLI_ARG_REQUIRED, "PCT", NULL, CLI_COMPLETE_NONE,
	  "leave out the functions under PCT percent of the run (default 1): one line "
	  "says how many and what they cost" },
	{ ANNOTATE_FUNCTION, 0, "function", CLI_ARG_REQUIRED, "NAME", NULL, CLI_COMPLETE_NONE,
	  "annotate this function only, whatever it costs" },
	{ ANNOTATE_MODEL, 0, "model", CLI_ARG_REQUIRED, "NAME|FILE", NULL, CLI_COMPLETE_FILE,
	  "a run: the cost model (as for cyclops run)" },
	{ ANNOTATE_MAX_CYCLES, 0, "max-cycles", CLI_ARG_REQUIRED, "N", NULL, CLI_COMPLETE_NONE,
	  "a run: stop the guest after N cycles (what ran is annotated)" },
	{ ANNOTATE_TRIM_PATH, 0, "trim-path", CLI_ARG_REQUIRED, "PREFIX", NULL, CLI_COMPLETE_DIR,
	  "PREFIX is taken off the start of source paths" },
	{ ANNOTATE_SOURCE_ROOT, 0, "source-root", CLI_ARG_REQUIRED, "DIR", NULL, CLI_COMPLETE_DIR,
	  "source paths that are relative (after --trim-path) are found under DIR" },
	{ ANNOTATE_HELP, 'h', "help", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE, "this text" },
};

const struct cli_command cli_annotate_command = {
	"annotate",
	"[options] PROFILE.pb.gz | FILE.samples... --elf PROGRAM.elf | PROGRAM.elf [-- ARGS...]",
	"show the hottest functions' source and instructions with their cycles",
	"Lists the functions by cost, then, for the hottest ones, each source line with its "
	"cycles, instructions and share of the run (the lines of the functions inlined into "
	"it too) and the disassembly with each instruction's cycles, the source line above "
	"each stretch. The costs come from a pprof profile cyclops wrote (cyclops run "
	"--profile x.pb.gz), from saved PC histograms (cyclops run --sample) with --elf, or "
	"from a run of PROGRAM itself (its output goes to stderr). Colour on a terminal, "
	"none with NO_COLOR or through a pipe.",
	annotate_options,
	COUNT(annotate_options),
	"Exit status: 0, 1 for a file that cannot be read or belongs to another program, 250 "
	"usage; for a run, the guest's (or 252 fault, 253 cycle limit, with what ran "
	"annotated).",
};

static const struct cli_option diff_options[] = {
	{ DIFF_TOP, 0, "top", CLI_ARG_REQUIRED, "N", NULL, CLI_COMPLETE_NONE,
	  "rows of each table, the largest changes first (default 20; 0: all)" },
	{ DIFF_HTML, 0, "html", CLI_ARG_REQUIRED, "FILE.html", NULL, CLI_COMPLETE_FILE,
	  "also write a page with a differential flame graph and the tables" },
	{ DIFF_PPROF, 0, "pprof", CLI_ARG_REQUIRED, "FILE.pb.gz", NULL, CLI_COMPLETE_FILE,
	  "also write the difference as a pprof profile (NEW, and BASE negated): go tool "
	  "pprof -top FILE shows the changes" },
	{ DIFF_FAIL_ABOVE, 0, "fail-above", CLI_ARG_REQUIRED, "PCT", NULL, CLI_COMPLETE_NONE,
	  "exit 3 if NEW's total cycles are more than PCT percent above BASE's (a CI gate)" },
	{ DIFF_HELP, 'h', "help", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE, "this text" },
};

const struct cli_command cli_diff_command = {
	"diff",
	"[options] BASE NEW",
	"compare two runs' profiles or reports",
	"Compares two runs: per function, per source line and per stack (profiles) and per "
	"cycle-tracker span (reports), each table sorted by the size of the change. BASE and "
	"NEW are files cyclops run wrote: pprof (.pb.gz), folded stacks, callgrind, speedscope "
	"or the JSON report (--report); the two need not be of one format, and each table "
	"is shown when both have it.",
	diff_options,
	COUNT(diff_options),
	"Exit status: 0; 3 when --fail-above is passed; 1 for a file that cannot be read or "
	"is not one of those formats; 250 usage.",
};

static const struct cli_option models_options[] = {
	{ MODELS_HELP, 'h', "help", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE, "this text" },
};

const struct cli_command cli_models_command = {
	"models",
	"",
	"list the cost models --model finds",
	"Lists the cost models in the model directories, one line each with its description "
	"and file: the directories in $CYCLOPS_MODELS (separated by colons), else models/ "
	"beside the program's directory (a build tree) or share/cyclops/models beside it (an "
	"installation). cyclops run --model NAME uses one; --model FILE reads any model file.",
	models_options,
	COUNT(models_options),
	"Exit status: 0, 251 when no model directory can be read, 250 usage.",
};

static const struct cli_option resume_options[] = {
	{ RESUME_MAX_CYCLES, 0, "max-cycles", CLI_ARG_REQUIRED, "N", NULL, CLI_COMPLETE_NONE,
	  "stop after N cycles of the whole run (the interrupted run's own limit is not kept)" },
	{ RESUME_HELP, 'h', "help", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE, "this text" },
};

const struct cli_command cli_resume_command = {
	"resume",
	"[options] DIR",
	"go on with a run from its latest checkpoint",
	"Goes on with the run whose checkpoints are in DIR (cyclops run --checkpoint-dir DIR) "
	"from the latest one: after an interruption (SIGINT, a host crash, --max-cycles) the "
	"run ends as it would have without it, its reports and profiles byte for byte. The "
	"run's options, program (a copy in DIR) and working directory are the checkpoint's; "
	"a regular file that was its stdout or stderr is cut back to where the checkpoint "
	"was. A damaged, cut or foreign checkpoint is refused with its name and the reason.",
	resume_options,
	COUNT(resume_options),
	"Exit status: that of the run, or 250 usage, 251 for a checkpoint that cannot be used.",
};

static const struct cli_option batch_options[] = {
	{ BATCH_JOBS, 0, "jobs", CLI_ARG_REQUIRED, "N", NULL, CLI_COMPLETE_NONE,
	  "run N lines at once in worker processes (under mpirun: one per rank but rank 0)" },
	{ BATCH_OUT_DIR, 0, "out-dir", CLI_ARG_REQUIRED, "DIR", NULL, CLI_COMPLETE_DIR,
	  "write each line's guest output to DIR/N.stdout and DIR/N.stderr (N from 1); "
	  "without it the guests' output is dropped" },
	{ BATCH_QUIET, 'q', "quiet", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE,
	  "no line per run, only the summary" },
	{ BATCH_HELP, 'h', "help", CLI_ARG_NONE, NULL, NULL, CLI_COMPLETE_NONE, "this text" },
};

const struct cli_command cli_batch_command = {
	"batch",
	"[options] LIST",
	"run many programs and inputs, one summary",
	"Runs every line of LIST: the options, program and arguments of a cyclops run (# "
	"starts a comment; words are split at blanks, and 'single' or \"double\" quotes "
	"keep blanks in one). Each run's files (--report, --profile, ...) are written as it "
	"names them; one line per run and one summary for all follow on stderr. Started by "
	"mpirun or srun, the lines are shared out among the ranks: the programs, inputs and "
	"files travel in MPI messages, not through a shared file system.",
	batch_options,
	COUNT(batch_options),
	"Exit status: 0 when every run exited 0, 1 when one did not, 250 usage.",
};

const struct cli_command *const cli_commands[] = {
	&cli_run_command,      &cli_resume_command, &cli_batch_command,  &cli_hist_command,
	&cli_annotate_command, &cli_diff_command,   &cli_models_command,
};
const int n_cli_commands = COUNT(cli_commands);

const struct cli_option *cli_find_option(const struct cli_command *c, const char *arg)
{
	if (arg[0] != '-')
		return NULL;
	for (int k = 0; k < c->n_options; k++) {
		const struct cli_option *o = &c->options[k];
		size_t len = strlen(o->name);
		if (arg[1] != '-') {
			if (o->short_name && arg[1] == o->short_name && !arg[2])
				return o;
		} else if (strncmp(arg + 2, o->name, len) == 0 &&
			   (arg[2 + len] == 0 || arg[2 + len] == '=')) {
			return o;
		}
	}
	return NULL;
}

/* Whether word is one of the space-separated choices. */
static bool is_choice(const char *choices, const char *word)
{
	size_t len = strlen(word);

	for (const char *s = choices; *s;) {
		size_t k = strcspn(s, " ");
		if (k == len && strncmp(s, word, len) == 0)
			return true;
		s += k + (s[k] == ' ');
	}
	return false;
}

/* "fpga or asic", "linux, bare or auto": the choices for a message. */
static const char *choice_list(const char *choices, char *buf, size_t size)
{
	size_t n = 0, left = strlen(choices);

	buf[0] = 0;
	for (const char *s = choices; *s && n < size;) {
		size_t k = strcspn(s, " ");
		left -= k + (s[k] == ' ');
		n += (size_t)snprintf(buf + n, size - n, "%s%.*s",
				      s == choices ? ""
				      : left       ? ", "
						   : " or ",
				      (int)k, s);
		s += k + (s[k] == ' ');
	}
	return buf;
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

int cli_next_option(const struct cli_command *c, int argc, char **argv, int *i, const char **value)
{
	const char *arg = argv[*i], *eq;
	char list[200];
	const struct cli_option *o = cli_find_option(c, arg);

	*value = NULL;
	if (!o) {
		cli_error("%s: unknown option '%s' (see cyclops %s --help)", c->name, arg, c->name);
		return -1;
	}
	eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
	switch (o->arg) {
	case CLI_ARG_NONE:
		if (eq) {
			cli_error("%s: --%s takes no value, got '%s'", c->name, o->name, eq + 1);
			return -1;
		}
		break;
	case CLI_ARG_REQUIRED:
		if (eq)
			*value = eq + 1;
		else if (*i + 1 < argc)
			*value = argv[++*i];
		break;
	case CLI_ARG_OPTIONAL:
		if (eq) {
			*value = eq + 1;
		} else if (o->choices && *i + 1 < argc) {
			/* "--counters asic": the next word is the value if it is
			 * one; a word that is neither a value nor a file is a
			 * mistyped value, not the program */
			const char *next = argv[*i + 1];
			if (is_choice(o->choices, next))
				*value = argv[++*i];
			else if (next[0] != '-' && !is_file(next)) {
				cli_error("%s: --%s takes %s, got '%s'", c->name, o->name,
					  choice_list(o->choices, list, sizeof(list)), next);
				return -1;
			}
		}
		if (*value && o->choices && !is_choice(o->choices, *value)) {
			cli_error("%s: --%s takes %s, got '%s'", c->name, o->name,
				  choice_list(o->choices, list, sizeof(list)), *value);
			return -1;
		}
		break;
	}
	return o->id;
}

/* The option's name column: "-q, --quiet", "--max-cycles N", "--sample[=N]". */
static void option_label(const struct cli_option *o, char *buf, size_t size)
{
	int n = 0;

	if (o->short_name)
		n = snprintf(buf, size, "-%c, ", o->short_name);
	n += snprintf(buf + n, size - (size_t)n, "--%s", o->name);
	if (o->arg == CLI_ARG_REQUIRED)
		snprintf(buf + n, size - (size_t)n, " %s", o->value);
	else if (o->arg == CLI_ARG_OPTIONAL)
		snprintf(buf + n, size - (size_t)n, "[=%s]", o->value);
}

#define HELP_INDENT 23 /* the column option help starts at */
#define HELP_WIDTH  78

/* text wrapped at HELP_WIDTH, every line but the first indented by indent;
 * the first goes on from column col. A newline in text starts a line. */
static void put_wrapped(FILE *f, const char *text, int indent, int col)
{
	const char *s = text;

	while (*s) {
		size_t word = strcspn(s, " \n");
		if (col > indent && col + 1 + (int)word > HELP_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, word, f);
		col += (int)word;
		s += word;
		if (*s == '\n') {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		}
		if (*s)
			s++;
	}
	fputc('\n', f);
}

void cli_print_usage(FILE *f)
{
	fputs("usage: cyclops <command> [options]\n"
	      "\n"
	      "cyclops runs RISC-V RV32IMAC programs and tells where every cycle goes.\n"
	      "\n"
	      "commands:\n",
	      f);
	for (int k = 0; k < n_cli_commands; k++)
		fprintf(f, "  %-9s %s\n", cli_commands[k]->name, cli_commands[k]->summary);
	fputs("\n"
	      "  cyclops <command> --help   options of one command\n"
	      "  cyclops --version          the version\n"
	      "  cyclops --man              the manual page, man(7) source\n"
	      "  cyclops --completion bash|zsh\n"
	      "                             a completion script for the shell\n",
	      f);
}

void cli_print_help(FILE *f, const struct cli_command *c)
{
	char label[80];

	fprintf(f, "usage: cyclops %s%s%s\n\n", c->name, *c->synopsis ? " " : "", c->synopsis);
	put_wrapped(f, c->description, 0, 0);
	fputs("\noptions:\n", f);
	for (int k = 0; k < c->n_options; k++) {
		int n;
		option_label(&c->options[k], label, sizeof(label));
		n = fprintf(f, "  %s", label);
		if (n >= HELP_INDENT - 1) {
			fprintf(f, "\n%*s", HELP_INDENT, "");
		} else {
			fprintf(f, "%*s", HELP_INDENT - n, "");
		}
		put_wrapped(f, c->options[k].help, HELP_INDENT, HELP_INDENT);
	}
	if (c->notes) {
		fputc('\n', f);
		put_wrapped(f, c->notes, 0, 0);
	}
}

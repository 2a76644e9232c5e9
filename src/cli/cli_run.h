/* cli_run.h - "cyclops run" in parts (cli_run.c), for the commands that
 * run a program the same way: resume (cli_resume.c) goes on from a
 * checkpoint (cli_checkpoint.c), the chunked driver (cli_jobs.c) runs the
 * fast pass and merges what its workers profiled. */
#ifndef CY_CLI_RUN_H
#define CY_CLI_RUN_H

#include "cli/cli.h"
#include "export/profile.h"

enum tracking { TRACK_OFF, TRACK_ON, TRACK_QUIET };

#define MAX_PROFILES 16
/* Checkpoints and chunks every 2^28 cycles unless --checkpoint-every. */
#define DEFAULT_CHECKPOINT_EVERY (1ull << 28)

struct run_args {
	bool quiet;
	bool reference; /* --engine reference */
	cy_engine engine;
	uint64_t max_cycles;
	uint64_t max_memory;
	const char *model;
	uint64_t segment_po2;
	enum tracking tracker;
	const char *report;
	uint64_t chunk_cycles;
	bool counters;
	cy_counters_build counters_build;
	bool timers;
	uint64_t significant;
	const char *profiles[MAX_PROFILES];
	enum profile_format profile_formats[MAX_PROFILES];
	int n_profiles;
	int next_format; /* --format for the next --profile; -1: none */
	bool no_inline;
	struct src_paths paths;
	bool sample;
	uint64_t sample_interval;
	const char *sample_out;
	const char *out_dir;
	const char *signature;
	uint64_t signature_granularity; /* 0: 4 */
	bool guest_saves;
	uint64_t guest_save_files, guest_save_bytes; /* 0: the defaults */
	const char *program;
	cy_abi abi;
	unsigned abi_version;
	cy_platform platform;
	const char *ram;
	uint64_t uart_base;
	const char **inputs; /* --input specs, n_inputs of them */
	int n_inputs;
	const char *public_values;
	uint64_t checkpoint_every; /* 0: not given */
	const char *checkpoint_dir;
	uint64_t jobs; /* --jobs; 0: one process */
	bool mpi;
	const char *gdb; /* --gdb [HOST:]PORT */
	uint64_t gdb_history;
	int guest_argc;
	char **guest_argv;
	/* the command line after "run", as given: a checkpoint keeps it */
	int argc;
	char **argv;
};

/* The progress line: on a terminal only, for runs longer than a second,
 * redrawn four times a second and erased before the summary. */
struct progress {
	bool on, shown;
	double start, next;
};

struct checkpoints; /* cli_checkpoint.c */

/* One run of a program, from its options to its outputs. */
struct run {
	struct run_args a;
	cy_opts opts;
	cy_vm *vm;
	cy_callstack *callstack;
	struct profile profile;
	struct report *report;
	struct progress progress;
	double t0;
	const char *elf_path; /* where the program's bytes were read from */
	/* the run in slices of opts.chunk_cycles: how many so far, and how
	 * many make one checkpoint's interval */
	uint64_t slices, slices_per_checkpoint;
	struct checkpoints *ckpt;
	/* the VM's state comes from a checkpoint (resume, a chunk's worker):
	 * no inputs are queued, the checkpoint has them */
	bool from_checkpoint;
	/* a chunk's worker: its outputs are the driver's, not checked here */
	bool worker;
	/* how the call-stack profiler follows the VM: WHOLE, or STACK_ONLY in
	 * a chunked run's fast pass (whose merged profiler is r->callstack) */
	cy_callstack_mode cs_mode;
	cy_callstack *stack_only;
	bool gdb_killed; /* GDB killed the guest */
	/* resume: what the checkpoint's command line and paths live in */
	char **saved_argv, **saved_run_argv, *saved_dir, *saved_elf_path;
	int saved_argc;
};

/* Parses "run"'s command line (argv[0] is "run"); 0, 1 after --help, -1
 * after a usage message. argv must stay valid while r is used. */
int run_parse(struct run *r, int argc, char **argv);
/* The options for the VM, checked with the outputs' paths; 0 or -1 after
 * a message. */
int run_options(struct run *r);
/* Creates the VM from the program's bytes (elf, size; read from elf_path
 * and named r->a.program), queues the inputs unless resuming, attaches
 * the profilers. 0 or an exit status after a message. */
int run_create(struct run *r, const void *elf, size_t size, const char *elf_path);
/* Signals stop the VM (SIGINT, SIGTERM, SIGHUP): the three steps of
 * cli_run.c's on_interrupt. */
void run_catch_interrupts(cy_vm *vm);
/* cli_run_loop.c: runs to the end, in slices and with checkpoints when
 * asked, or under GDB; CY_STOP_NONE when the debugger could not start. */
cy_stop run_loop(struct run *r);
/* The exit status for stop, the summaries and every output asked for. */
int run_finish(struct run *r, cy_stop stop);
void run_free(struct run *r);

double run_now(void);
/* Whether a second signal asked to skip the outputs not yet written. */
bool run_skipping(void);
void progress_init(struct progress *p, bool quiet);
void progress_erase(struct progress *p);
/* Whether it is time to redraw; then the caller prints after "\r\033[K". */
bool progress_due(struct progress *p);
/* Redraws the line with vm's figures when it is time. */
void progress_show(struct progress *p, const cy_vm *vm);
/* Cycles between looks at the clock for the progress line. */
#define PROGRESS_CYCLES (1ull << 22)

/* cli_checkpoint.c: checkpoints in a directory. */
/* Opens (makes) the directory and keeps a copy of the program there. */
int checkpoints_start(struct run *r, const void *elf, size_t size);
/* Whether a checkpoint is due after this slice (or waits for the end of an
 * unconstrained block). */
bool checkpoints_due(const struct run *r);
/* Cuts the next checkpoint into the directory (or notes it as waiting);
 * 0 or -1 after a message. */
int checkpoints_cut(struct run *r);
/* resume: the latest checkpoint of dir restored into a run, everything
 * but the VM's state read first (its options are the checkpoint's). */
int checkpoints_resume(struct run *r, const char *dir, uint64_t max_cycles, bool max_cycles_set);
void checkpoints_free(struct run *r);

/* cli_jobs.c: the chunked run (--jobs N, --mpi). */
int jobs_run(struct run *r);
/* A worker process, given the channel to its driver (cli_jobs.c). */
struct channel;
int jobs_worker(struct channel *ch);

/* cyclops run as a whole: the program read from program_file (NULL: its
 * path in argv, by which it is named either way); stats (may be NULL)
 * gets the run's figures (not for --jobs or --mpi). */
struct run_stats {
	uint64_t instructions, cycles;
	double seconds;
};
int run_main(int argc, char **argv, const char *program_file, struct run_stats *stats);

int cli_resume(int argc, char **argv);
int cli_batch(int argc, char **argv);

#endif

/* cli_run_loop.c - "cyclops run" from its command line to its exit status:
 * the run loop (in slices of the report's chunks with checkpoints between
 * them, or under GDB) over the parts in cli_run.c, and the choice between a
 * run in this process and a chunked one (cli_jobs.c). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_run.h"
#include "cyclops.h"
#include "debug/debug.h"
#include "export/report.h"
#include "util/file.h"

/* One slice of a checkpointed or chunked run: a chunk of the report's
 * size (added to the report when there is one). */
static cy_stop run_slice(struct run *r)
{
	cy_chunk_report chunk;

	if (!r->opts.cycle_tracker)
		return cy_vm_run(r->vm, r->opts.chunk_cycles);
	cy_vm_run_chunk(r->vm, &chunk);
	if (r->report)
		report_add_chunk(r->report, &chunk);
	/* the timeline's chunks: nothing but the picture is lost without */
	if (r->a.n_profiles)
		profile_add_chunk(&r->profile, chunk.start_cycle, chunk.end_cycle);
	return chunk.stop;
}

static void add_chunk(void *ctx, const cy_chunk_report *chunk)
{
	if (ctx)
		report_add_chunk(ctx, chunk);
}

/* Runs under GDB (docs/gdb.md), cut into chunks as run_loop cuts them, so
 * that every output is the plain run's; the stop reason, or CY_STOP_NONE
 * after a message. */
static cy_stop run_gdb(struct run *r)
{
	struct debug_opts d = { r->a.gdb, r->a.gdb_history, r->a.quiet, r->callstack, NULL, NULL };
	char err[512];
	cy_stop stop;

	if (r->opts.cycle_tracker) {
		d.on_chunk = add_chunk;
		d.chunk_ctx = r->report;
	}
	if (debug_run(r->vm, &d, &stop, &r->gdb_killed, err, sizeof(err)) != 0) {
		cli_error("run: %s", err);
		return CY_STOP_NONE;
	}
	return stop;
}

cy_stop run_loop(struct run *r)
{
	cy_stop stop;

	if (r->a.gdb)
		return run_gdb(r);

	if (!r->ckpt && !r->opts.cycle_tracker) {
		while ((stop = cy_vm_run(r->vm, r->progress.on ? PROGRESS_CYCLES : UINT64_MAX)) ==
		       CY_STOP_NONE)
			progress_show(&r->progress, r->vm);
		progress_erase(&r->progress);
		return stop;
	}
	/* in slices of the report's chunks, which checkpoints fall between:
	 * a resumed run slices where the first one would have */
	do {
		stop = run_slice(r);
		r->slices++;
		progress_show(&r->progress, r->vm);
		if (stop == CY_STOP_NONE && checkpoints_due(r) && checkpoints_cut(r) != 0) {
			cy_vm_interrupt(r->vm, 0); /* a checkpoint that cannot be written ends it */
			stop = cy_vm_run(r->vm, 0);
		}
	} while (stop == CY_STOP_NONE);
	progress_erase(&r->progress);
	return stop;
}

int run_main(int argc, char **argv, const char *program_file, struct run_stats *stats)
{
	struct run r;
	void *elf = NULL;
	size_t size = 0;
	char why[300];
	int rc, status;

	memset(&r, 0, sizeof(r));
	r.a.inputs = calloc((size_t)argc, sizeof(*r.a.inputs));
	if (!r.a.inputs) {
		cli_error("out of host memory");
		return CY_EXIT_INTERNAL;
	}
	rc = run_parse(&r, argc, argv);
	if (rc != 0) {
		status = rc > 0 ? 0 : CY_EXIT_USAGE;
		goto out_free_inputs;
	}
	if (run_options(&r) != 0) {
		status = CY_EXIT_USAGE;
		goto out_free_inputs;
	}
	if (r.a.jobs || r.a.mpi) {
		status = jobs_run(&r);
		goto out_free_inputs;
	}
	if (!program_file)
		program_file = r.a.program;
	if (file_read(program_file, &file_rules_elf, &elf, &size, why, sizeof(why)) != 0) {
		cli_error("%s: %s", r.a.program, why);
		status = CY_EXIT_BAD_PROGRAM;
		goto out_free_inputs;
	}
	status = run_create(&r, elf, size, program_file);
	if (status == 0 && r.a.checkpoint_dir && checkpoints_start(&r, elf, size) != 0)
		status = CY_EXIT_USAGE;
	free(elf);
	if (status != 0)
		goto out_free_run;
	run_catch_interrupts(r.vm);
	r.t0 = run_now();
	progress_init(&r.progress, r.a.quiet);
	cy_stop stop = run_loop(&r);
	if (stop == CY_STOP_NONE) /* the debugger could not start */
		status = CY_EXIT_USAGE;
	else
		status = run_finish(&r, stop);
	if (stats)
		*stats =
		    (struct run_stats){ cy_vm_instret(r.vm), cy_vm_cycles(r.vm), run_now() - r.t0 };
out_free_run:
	checkpoints_free(&r);
	run_free(&r);
out_free_inputs:
	free(r.a.guest_argv);
	free(r.a.inputs);
	return status;
}

int cli_run(int argc, char **argv) { return run_main(argc, argv, NULL, NULL); }

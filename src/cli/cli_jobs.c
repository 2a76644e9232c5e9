/* cli_jobs.c - the chunked run: cyclops run --jobs N, or --mpi under mpirun.
 *
 * The driver runs the program once, fast: no profiler but what a chunk's
 * start needs (the shadow call stack, the timers' announcement, the
 * sampler's phase; the cycle tracker and the counters whole, as they cost
 * nothing), with the guest's output going where a plain run's goes and its
 * host I/O recorded. Every --checkpoint-every cycles it cuts a checkpoint,
 * which every worker applies to its memory, and hands the chunk that just
 * ended to the least busy worker: its start, its slices, its end clock and
 * its host I/O. The worker forks, restores the checkpoint into a VM with
 * every profiler asked for, replays the chunk and sends back the
 * profilers' results; the driver merges them in chunk order into its own
 * profilers (cy_chunk_merge), and when the last is merged writes every
 * output as one process would (docs/scale-out.md). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_channel.h"
#include "cli/cli_run.h"
#include "util/file.h"
#include "util/state_io.h"

/* The messages' contents (util/state_io.h). */
struct setup {
	int argc;
	char **argv; /* the run's command line, after "run" */
	void *elf;
	size_t elf_size;
};

static void setup_io(struct sio *io, struct setup *s)
{
	sio_tag(io, "SETU");
	cli_words_io(io, &s->argc, &s->argv);
	sio_blob(io, &s->elf, &s->elf_size, SIZE_MAX, "bytes of the program");
}

struct job {
	uint64_t index;  /* the chunk's number, from 1: it starts at checkpoint index */
	uint64_t slices; /* cy_vm_run calls of opts.chunk_cycles the fast pass made */
	/* the clock the last of them ended at, when it was not a budget's end
	 * the worker would reach by itself (an interruption, --max-memory) */
	uint64_t final_cycles;
	uint64_t end_cycles, end_instret; /* where the chunk ended */
	void *journal;                    /* its host I/O */
	size_t journal_len;
};

static void job_io(struct sio *io, struct job *j)
{
	sio_tag(io, "JOB ");
	sio_u64(io, &j->index);
	sio_u64(io, &j->slices);
	sio_u64(io, &j->final_cycles);
	sio_u64(io, &j->end_cycles);
	sio_u64(io, &j->end_instret);
	sio_blob(io, &j->journal, &j->journal_len, SIZE_MAX, "bytes of host I/O");
}

struct result {
	uint64_t index;
	double seconds; /* the worker's time for the chunk */
	double cpu;     /* the processor time it took */
	void *blob;     /* cy_chunk_results */
	size_t len;
};

static void result_io(struct sio *io, struct result *res)
{
	sio_tag(io, "RSLT");
	sio_u64(io, &res->index);
	sio_raw(io, &res->seconds, sizeof(res->seconds));
	sio_raw(io, &res->cpu, sizeof(res->cpu));
	sio_blob(io, &res->blob, &res->len, SIZE_MAX, "bytes of results");
}

static int send_io(struct channel *ch, uint32_t type, struct sio *io)
{
	int rc = sio_ok(io) ? ch->send(ch, type, io->buf, io->len) : io->err;

	sio_free(io);
	return rc;
}

static void fail_to(struct channel *ch, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_to(struct channel *ch, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ch->send(ch, MSG_FAILED, msg, strlen(msg) + 1);
}

/* The worker. */

struct worker {
	struct run r;
	cy_checkpoint *latest; /* the last checkpoint: a job starts there */
	void *latest_blob;
	int null_fd;
};

/* The VM for the run of SETUP: whole profilers, no tracker (the fast pass
 * has its results), quiet, and no host file: its I/O is replayed. */
static int worker_setup(struct worker *wk, struct setup *s, char *err, size_t err_size)
{
	struct run *r = &wk->r;
	char **argv = calloc((size_t)s->argc + 2, sizeof(*argv));

	if (!argv || !(r->a.inputs = calloc((size_t)s->argc + 1, sizeof(*r->a.inputs)))) {
		free(argv);
		return snprintf(err, err_size, "out of host memory"), -1;
	}
	argv[0] = "run";
	memcpy(argv + 1, s->argv, (size_t)s->argc * sizeof(*argv));
	r->saved_run_argv = argv;
	r->worker = r->from_checkpoint = true;
	if (run_parse(r, s->argc + 1, argv) != 0 || run_options(r) != 0)
		return snprintf(err, err_size, "the run's command line is refused"), -1;
	wk->null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	r->opts.quiet = true;
	r->opts.cycle_tracker = r->opts.cycle_tracker_quiet = false;
	r->opts.max_memory = 0; /* the fast pass decides where the run ends */
	r->opts.stdin_fd = r->opts.stdout_fd = r->opts.stderr_fd = wk->null_fd;
	r->opts.before_output = NULL;
	r->a.report = NULL;
	if (run_create(r, s->elf, s->elf_size, r->a.program) != 0)
		return snprintf(err, err_size, "the program is refused"), -1;
	return 0;
}

/* Runs a job in this (forked) process: the results into *blob. */
static int run_job(struct worker *wk, struct job *j, uint8_t **blob, size_t *size, char *err,
		   size_t err_size)
{
	cy_vm *vm = wk->r.vm;
	cy_stop stop = CY_STOP_NONE;

	if (!wk->latest)
		return snprintf(err, err_size, "chunk %llu: no checkpoint to start from",
				(unsigned long long)j->index),
		       -1;
	if (cy_vm_restore_state(vm, wk->r.callstack, wk->latest, err, err_size) != 0 ||
	    cy_vm_journal_replay(vm, j->journal, j->journal_len) != 0)
		return -1;
	for (uint64_t k = 0; k < j->slices && stop == CY_STOP_NONE; k++) {
		if (k + 1 == j->slices && j->final_cycles)
			stop = cy_vm_run(vm, j->final_cycles > cy_vm_cycles(vm)
						 ? j->final_cycles - cy_vm_cycles(vm)
						 : 0);
		else
			stop = cy_vm_run(vm, wk->r.opts.chunk_cycles);
	}
	if (cy_vm_cycles(vm) != j->end_cycles || cy_vm_instret(vm) != j->end_instret ||
	    cy_vm_journal_left(vm) != 0)
		return snprintf(err, err_size,
				"chunk %llu ended at cycle %llu, instruction %llu%s; the fast pass "
				"at %llu, %llu (%s)",
				(unsigned long long)j->index, (unsigned long long)cy_vm_cycles(vm),
				(unsigned long long)cy_vm_instret(vm),
				cy_vm_journal_left(vm) ? " with host I/O left" : "",
				(unsigned long long)j->end_cycles,
				(unsigned long long)j->end_instret, cy_vm_stop_message(vm)),
		       -1;
	return cy_chunk_results(vm, wk->r.callstack, j->index, blob, size) == 0
		   ? 0
		   : (snprintf(err, err_size, "out of host memory"), -1);
}

/* A job in a child process, so that the worker's memory stays at its
 * checkpoint for the next one; the results come back through a pipe. */
static int fork_job(struct worker *wk, struct channel *ch, struct job *j)
{
	struct result res = { .index = j->index };
	int fds[2];
	pid_t pid;
	double t0 = run_now();
	uint8_t *out = NULL;
	size_t len = 0, cap = 0;
	int status = 0;

	if (pipe(fds) != 0 || (pid = fork()) < 0) {
		fail_to(ch, "chunk %llu: cannot fork: %s", (unsigned long long)j->index,
			strerror(errno));
		return -1;
	}
	if (pid == 0) {
		char err[600] = "";
		uint8_t *blob = NULL;
		size_t size = 0;
		close(fds[0]);
		cy_vm_jit_compile_off(wk->r.vm); /* its regions are the fast pass's */
		int rc = run_job(wk, j, &blob, &size, err, sizeof(err));
		uint8_t ok = rc == 0;
		if (write(fds[1], &ok, 1) != 1 ||
		    write(fds[1], ok ? (void *)blob : err, ok ? size : strlen(err) + 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	for (;;) { /* everything the child writes */
		if (len == cap) {
			uint8_t *b = realloc(out, cap = cap ? 2 * cap : 65536);
			if (!b)
				break;
			out = b;
		}
		ssize_t n = read(fds[0], out + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fds[0]);
	struct rusage ru = { 0 };
	wait4(pid, &status, 0, &ru);
	res.cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		  (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	if (len < 1 || !out[0]) {
		fail_to(ch, "chunk %llu: %s", (unsigned long long)j->index,
			len > 1 ? (char *)out + 1 : "its process died");
		free(out);
		return -1;
	}
	res.seconds = run_now() - t0;
	res.blob = out + 1;
	res.len = len - 1;
	struct sio io;
	sio_save_init(&io);
	result_io(&io, &res);
	free(out);
	return send_io(ch, MSG_RESULT, &io);
}

int jobs_worker(struct channel *ch)
{
	struct worker wk;
	char err[600];
	int rc = 0;

	memset(&wk, 0, sizeof(wk));
	wk.null_fd = -1;
	for (;;) {
		uint32_t type;
		uint8_t *p = NULL;
		size_t len;
		struct sio io;
		if (ch->recv(ch, &type, &p, &len) != 0) {
			rc = 1; /* the driver is gone */
			break;
		}
		sio_load_init(&io, p, len);
		if (type == MSG_QUIT) {
			free(p);
			break;
		}
		if (type == MSG_SETUP) {
			struct setup s = { 0 };
			setup_io(&io, &s);
			if (!sio_ok(&io) || worker_setup(&wk, &s, err, sizeof(err)) != 0) {
				fail_to(ch, "worker: %s", sio_ok(&io) ? err : io.why);
				rc = 1;
			}
			/* the run's arguments point into s.argv: kept with the run */
			wk.r.saved_argv = s.argv;
			wk.r.saved_argc = s.argc;
			free(s.elf);
		} else if (type == MSG_CHECKPOINT) {
			cy_checkpoint_close(wk.latest);
			free(wk.latest_blob);
			wk.latest = NULL;
			wk.latest_blob = p;
			p = NULL;
			if (!wk.r.vm ||
			    cy_checkpoint_open(wk.latest_blob, len, "a checkpoint", &wk.latest, err,
					       sizeof(err)) != 0 ||
			    cy_vm_restore_memory(wk.r.vm, wk.latest, err, sizeof(err)) != 0) {
				fail_to(ch, "worker: %s", wk.r.vm ? err : "no program");
				rc = 1;
			}
		} else if (type == MSG_REGIONS) {
			/* loaded here, so that every chunk forked from now on has
			 * them from its start */
			if (!wk.r.vm || cy_vm_jit_load(wk.r.vm, p, len) != 0) {
				fail_to(ch, "worker: %s",
					wk.r.vm ? "the fast pass's regions are not a list of them"
						: "no program");
				rc = 1;
			}
		} else if (type == MSG_JOB) {
			struct job j = { 0 };
			job_io(&io, &j);
			if (!sio_ok(&io)) {
				fail_to(ch, "worker: a job: %s", io.why);
				rc = 1;
			} else if (fork_job(&wk, ch, &j) != 0) {
				rc = 1;
			}
			free(j.journal);
		}
		free(p);
		if (rc != 0)
			break;
	}
	cy_checkpoint_close(wk.latest);
	free(wk.latest_blob);
	run_free(&wk.r);
	free(wk.r.a.guest_argv);
	free(wk.r.a.inputs);
	if (wk.null_fd >= 0)
		close(wk.null_fd);
	return rc;
}

static int worker_main(struct channel *ch, void *ctx)
{
	(void)ctx;
	return jobs_worker(ch);
}

/* The driver. */

/* What the model of docs/scale-out.md needs, per chunk. */
struct chunk_stats {
	double fast_seconds;       /* the fast pass's time for it */
	double fast_cpu;           /* and the processor time it took */
	double worker_cpu;         /* the worker's processor time for it */
	double cut_seconds;        /* cutting the checkpoint at its end */
	double worker_seconds;     /* the worker's time for it */
	uint64_t checkpoint_bytes; /* the checkpoint at its start, sent to every worker */
	uint64_t job_bytes, result_bytes;
	uint64_t cycles;
};

struct driver {
	struct run *r;
	struct workers *ws;
	uint64_t chunks;     /* handed out */
	uint64_t merged;     /* merged, in order */
	struct result *done; /* results waiting for their turn, by chunk - 1 */
	struct chunk_stats *stats;
	size_t cap;
	int *busy; /* jobs handed to each worker and not back */
	double last_cut;
	uint64_t fast_cycles_done;
	bool failed;
};

static int grow_chunks(struct driver *d, uint64_t need)
{
	size_t cap = d->cap ? d->cap : 64;
	struct result *done;
	struct chunk_stats *st;

	if (need <= d->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	if (!(done = realloc(d->done, cap * sizeof(*done))))
		return -ENOMEM;
	d->done = done;
	if (!(st = realloc(d->stats, cap * sizeof(*st))))
		return -ENOMEM;
	d->stats = st;
	memset(d->done + d->cap, 0, (cap - d->cap) * sizeof(*done));
	memset(d->stats + d->cap, 0, (cap - d->cap) * sizeof(*st));
	d->cap = cap;
	return 0;
}

static int broadcast(struct driver *d, uint32_t type, const void *p, size_t len)
{
	for (int w = 0; w < d->ws->n; w++)
		if (d->ws->send(d->ws, w, type, p, len) != 0)
			return -1;
	return 0;
}

/* Cuts checkpoint index (the start of chunk index) and sends it to all. */
static int cut_and_send(struct driver *d, uint64_t index)
{
	cy_checkpoint_info info;
	uint8_t *blob;
	size_t size;
	char err[512];
	double t0 = run_now();

	if (cy_checkpoint_cut(d->r->vm, d->r->stack_only, index, false, NULL, 0, &blob, &size,
			      &info, err, sizeof(err)) != 0) {
		cli_error("run: checkpoint %llu: %s", (unsigned long long)index, err);
		return -1;
	}
	if (grow_chunks(d, index) != 0 || broadcast(d, MSG_CHECKPOINT, blob, size) != 0) {
		free(blob);
		cli_error("run: out of host memory");
		return -1;
	}
	free(blob);
	d->stats[index - 1].checkpoint_bytes = size;
	if (index > 1)
		d->stats[index - 2].cut_seconds = run_now() - t0;
	return 0;
}

/* Hands the chunk that just ended to the least busy worker. */
static int hand_out(struct driver *d, uint64_t slices, cy_stop stop)
{
	cy_vm *vm = d->r->vm;
	struct job j = { .index = ++d->chunks, .slices = slices };
	int best = 0;
	struct sio io;
	int rc;

	/* where no budget ended the fast pass's last slice, the worker's last
	 * slice runs to the clock it ended at */
	if (stop == CY_STOP_INTERRUPTED ||
	    (stop == CY_STOP_FAULT &&
	     (cy_vm_fault(vm) == CY_FAULT_MEMORY_LIMIT || cy_vm_fault(vm) == CY_FAULT_HOST)))
		j.final_cycles = cy_vm_cycles(vm);
	j.end_cycles = cy_vm_cycles(vm);
	j.end_instret = cy_vm_instret(vm);
	if (cy_vm_journal_take(vm, (uint8_t **)&j.journal, &j.journal_len) != 0)
		return -1;
	/* the regions the fast pass translated since the last job, before the
	 * job: the chunk then runs translated from its start */
	uint8_t *regions;
	size_t regions_len;
	if (cy_vm_jit_take(vm, &regions, &regions_len) != 0 ||
	    (regions && broadcast(d, MSG_REGIONS, regions, regions_len) != 0)) {
		cli_error("run: out of host memory for the translated regions");
		free(regions);
		free(j.journal);
		return -1;
	}
	free(regions);
	for (int w = 1; w < d->ws->n; w++)
		if (d->busy[w] < d->busy[best])
			best = w;
	sio_save_init(&io);
	job_io(&io, &j);
	free(j.journal);
	rc = sio_ok(&io) ? d->ws->send(d->ws, best, MSG_JOB, io.buf, io.len) : io.err;
	if (rc == 0) {
		d->busy[best]++;
		d->stats[j.index - 1].job_bytes = io.len;
		d->stats[j.index - 1].cycles = j.end_cycles - d->fast_cycles_done;
		d->fast_cycles_done = j.end_cycles;
	}
	sio_free(&io);
	return rc;
}

/* Merges the results that are next in order. */
static int merge_ready(struct driver *d)
{
	char err[600];

	while (d->merged < d->chunks && d->done[d->merged].blob) {
		struct result *res = &d->done[d->merged];
		int rc = cy_chunk_merge(d->r->vm, d->r->callstack, res->blob, res->len, err,
					sizeof(err));
		free(res->blob);
		res->blob = NULL;
		if (rc != 0) {
			cli_error("run: chunk %llu: %s", (unsigned long long)d->merged + 1, err);
			return -1;
		}
		d->merged++;
	}
	return 0;
}

/* Takes what the workers sent, waiting at most timeout_ms for the first. */
static int take_results(struct driver *d, int timeout_ms)
{
	int w;
	uint32_t type;
	uint8_t *p;
	size_t len;
	int rc;

	while ((rc = d->ws->poll(d->ws, timeout_ms, &w, &type, &p, &len)) == 1) {
		struct result res = { 0 };
		struct sio io;
		timeout_ms = 0;
		if (type == MSG_FAILED) {
			cli_error("run: %.*s", (int)len, (char *)p);
			free(p);
			return -1;
		}
		sio_load_init(&io, p, len);
		result_io(&io, &res);
		free(p);
		if (!sio_ok(&io) || res.index == 0 || res.index > d->chunks ||
		    d->done[res.index - 1].blob) {
			cli_error("run: worker %d sent a result that is not one (%s)", w + 1,
				  sio_ok(&io) ? "no such chunk" : io.why);
			free(res.blob);
			return -1;
		}
		d->done[res.index - 1] = res;
		d->stats[res.index - 1].worker_seconds = res.seconds;
		d->stats[res.index - 1].worker_cpu = res.cpu;
		d->stats[res.index - 1].result_bytes = len;
		d->busy[w]--;
	}
	if (rc < 0) {
		cli_error("run: a worker is gone: %s", strerror(-rc));
		return -1;
	}
	return merge_ready(d);
}

static void show_progress(struct driver *d, bool fast_done)
{
	struct run *r = d->r;
	double secs = run_now() - r->progress.start;
	char eta[64] = "";

	if (!progress_due(&r->progress))
		return;
	if (fast_done && d->merged && d->merged < d->chunks)
		snprintf(eta, sizeof(eta), ", ETA %.0f s",
			 secs / (double)d->merged * (double)(d->chunks - d->merged));
	fprintf(stderr,
		"\r\033[Kcyclops: %llu of %llu%s chunks profiled, fast pass at %llu cycles, "
		"%.1f M cycles/s%s",
		(unsigned long long)d->merged, (unsigned long long)d->chunks, fast_done ? "" : "+",
		(unsigned long long)cy_vm_cycles(r->vm),
		secs > 0 ? (double)cy_vm_cycles(r->vm) / secs / 1e6 : 0.0, eta);
	fflush(stderr);
}

/* CYCLOPS_CHUNK_STATS=FILE: a line per chunk for the model of K machines
 * (bench/, docs/scale-out.md). */
static void write_stats(const struct driver *d)
{
	const char *path = getenv("CYCLOPS_CHUNK_STATS");
	FILE *f = path ? fopen(path, "w") : NULL;

	if (!f)
		return;
	fprintf(f,
		"# chunk cycles fast_s fast_cpu_s cut_s worker_s worker_cpu_s checkpoint_bytes "
		"job_bytes result_bytes (workers %d, sent %llu, received %llu)\n",
		d->ws->n, (unsigned long long)d->ws->bytes_sent,
		(unsigned long long)d->ws->bytes_received);
	for (uint64_t k = 0; k < d->chunks; k++) {
		const struct chunk_stats *s = &d->stats[k];
		fprintf(f, "%llu %llu %.6f %.6f %.6f %.6f %.6f %llu %llu %llu\n",
			(unsigned long long)k + 1, (unsigned long long)s->cycles, s->fast_seconds,
			s->fast_cpu, s->cut_seconds, s->worker_seconds, s->worker_cpu,
			(unsigned long long)s->checkpoint_bytes, (unsigned long long)s->job_bytes,
			(unsigned long long)s->result_bytes);
	}
	fclose(f);
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* The fast pass, handing out chunks as it goes, then the rest merged. */
static cy_stop drive(struct driver *d)
{
	struct run *r = d->r;
	uint64_t slices = 0;
	cy_stop stop = CY_STOP_NONE;
	double chunk_start = run_now(), cpu = 0;

	if (cut_and_send(d, 1) != 0) {
		d->failed = true;
		return stop;
	}
	while (stop == CY_STOP_NONE) {
		cy_chunk_report chunk;
		double cpu0 = cpu_seconds();
		if (r->opts.cycle_tracker) {
			cy_vm_run_chunk(r->vm, &chunk);
			if (r->report)
				report_add_chunk(r->report, &chunk);
			if (r->a.n_profiles)
				profile_add_chunk(&r->profile, chunk.start_cycle, chunk.end_cycle);
			stop = chunk.stop;
		} else {
			stop = cy_vm_run(r->vm, r->opts.chunk_cycles);
		}
		cpu += cpu_seconds() - cpu0;
		r->slices++;
		slices++;
		if (stop == CY_STOP_NONE &&
		    (slices < r->slices_per_checkpoint || !cy_vm_can_checkpoint(r->vm))) {
			if (take_results(d, 0) != 0)
				goto out_failed;
			show_progress(d, false);
			continue;
		}
		if (grow_chunks(d, d->chunks + 2) != 0 || hand_out(d, slices, stop) != 0)
			goto out_failed;
		d->stats[d->chunks - 1].fast_seconds = run_now() - chunk_start;
		d->stats[d->chunks - 1].fast_cpu = cpu;
		cpu = 0;
		slices = 0;
		if (stop == CY_STOP_NONE && cut_and_send(d, d->chunks + 1) != 0)
			goto out_failed;
		chunk_start = run_now();
		if (take_results(d, 0) != 0)
			goto out_failed;
		show_progress(d, false);
	}
	/* the rest of the chunks: a signal now skips them (the outputs are
	 * then what was merged, marked partial) */
	while (d->merged < d->chunks && !run_skipping()) {
		if (take_results(d, 250) != 0)
			goto out_failed;
		show_progress(d, true);
	}
	progress_erase(&r->progress);
	return stop;
out_failed:
	progress_erase(&r->progress);
	d->failed = true;
	return stop;
}

static int drive_with(struct run *r, struct workers *ws, const void *elf, size_t size)
{
	struct driver d = { .r = r, .ws = ws };
	struct setup s = { r->a.argc, r->a.argv, (void *)elf, size };
	struct sio io;
	char *elf_path = (char *)r->a.program;
	int status;

	if (!(d.busy = calloc((size_t)ws->n, sizeof(*d.busy)))) {
		cli_error("out of host memory");
		return CY_EXIT_INTERNAL;
	}
	sio_save_init(&io);
	setup_io(&io, &s);
	if (!sio_ok(&io) || broadcast(&d, MSG_SETUP, io.buf, io.len) != 0) {
		sio_free(&io);
		free(d.busy);
		cli_error("out of host memory");
		return CY_EXIT_INTERNAL;
	}
	sio_free(&io);
	r->opts.fast_pass = true;
	r->cs_mode = CY_CALLSTACK_STACK_ONLY;
	status = run_create(r, elf, size, elf_path);
	/* firmware that waits in wfi retires it when a slice ends, and the
	 * sampler slices the bare platform's runs at every sample, which the
	 * fast pass does not: its chunks would not end where the fast pass's
	 * do (docs/scale-out.md) */
	if (status == 0 && r->a.sample && cy_vm_platform(r->vm) == CY_PLATFORM_BARE) {
		cli_error("run: --sample on the bare platform cannot go with %s: the sampler "
			  "slices a bare run at every sample, and where a slice ends changes "
			  "what wfi does",
			  r->a.mpi ? "--mpi" : "--jobs");
		status = CY_EXIT_USAGE;
	}
	if (status == 0 && r->a.n_profiles &&
	    cy_callstack_attach_mode(r->vm, CY_CALLSTACK_DETACHED, &r->callstack) != 0) {
		cli_error("out of host memory");
		status = CY_EXIT_INTERNAL;
	}
	if (status == 0) {
		cy_stop stop;
		cy_vm_journal_record(r->vm);
		run_catch_interrupts(r->vm);
		r->t0 = run_now();
		progress_init(&r->progress, r->a.quiet);
		stop = drive(&d);
		if (d.failed) {
			status = CY_EXIT_INTERNAL;
		} else {
			status = run_finish(r, stop);
			write_stats(&d);
		}
	}
	for (int w = 0; w < ws->n; w++)
		ws->send(ws, w, MSG_QUIT, NULL, 0);
	ws->close(ws);
	for (uint64_t k = 0; k < d.cap; k++)
		free(d.done[k].blob);
	free(d.done);
	free(d.stats);
	free(d.busy);
	return status;
}

int jobs_run(struct run *r)
{
	struct workers *ws;
	void *elf = NULL;
	size_t size;
	char why[300];
	int status, rank = 0, ranks = 1;

	if (r->a.mpi) {
		if (mpi_start(&rank, &ranks) != 0)
			return CY_EXIT_USAGE;
		if (rank != 0) { /* a worker: rank 0 drives */
			status = jobs_worker(channel_mpi(rank));
			mpi_stop();
			return status ? CY_EXIT_INTERNAL : 0;
		}
		if (ranks < 2) {
			cli_error("run: --mpi needs at least 2 ranks (mpirun -n K, K >= 2): rank 0 "
				  "runs the fast pass, the others profile");
			mpi_stop();
			return CY_EXIT_USAGE;
		}
	}
	if (file_read(r->a.program, &file_rules_elf, &elf, &size, why, sizeof(why)) != 0) {
		cli_error("%s: %s", r->a.program, why);
		status = CY_EXIT_BAD_PROGRAM;
		goto out;
	}
	ws = r->a.mpi ? workers_mpi(ranks) : workers_fork((int)r->a.jobs, worker_main, NULL);
	if (!ws) {
		status = CY_EXIT_INTERNAL;
		goto out;
	}
	status = drive_with(r, ws, elf, size);
	run_free(r);
out:
	free(elf);
	if (r->a.mpi)
		mpi_stop();
	return status;
}

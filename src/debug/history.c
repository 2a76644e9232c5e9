/* history.c - running backwards (docs/gdb.md, "Reverse execution"). Each
 * snapshot is a stopped child process: fork() keeps the whole VM, every
 * profiler's state and the command line's results copy-on-write. Going
 * back to position P wakes the latest snapshot at or before P, which forks
 * a fresh copy of itself; the copy runs forward to P and takes GDB over.
 * Forward runs are deterministic: what the guest read from outside (the
 * Linux ABI's read and fstat, and what write returned) is kept in an input
 * log and given back below the frontier, where the guest's output goes to
 * /dev/null, having been shown once. Snapshots' memory is bounded by
 * --gdb-history: their private dirty pages are measured, and old ones are
 * thinned out. It runs the guest forward through the target's run loop,
 * which it is handed as a history_runner (session.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/vm.h"
#include "debug/session.h"

/* The Linux ABI's calls whose results come from outside the VM. */
#define SYS_READ      63
#define SYS_WRITE     64
#define SYS_FSTAT     80
#define STAT_BYTES_32 104 /* struct stat64 of the asm-generic 32-bit ABI */
#define STAT_BYTES_64 128 /* struct stat of the 64-bit ABI */
#define REG_A0        10
#define REG_A1        11
#define REG_A7        17

#define POLL_NS (200 * 1000 * 1000)

struct log_entry {
	uint64_t pos;
	int64_t ret;
	uint64_t addr; /* the guest memory the call wrote */
	uint32_t nr, len;
};

/* The session of this process: vm->syscall has no context. */
static struct debug *the_debug;

static double seconds_now(void);

static size_t entry_size(uint32_t len) { return (sizeof(struct log_entry) + len + 7) & ~(size_t)7; }

int history_init(struct debug *d, const struct history_runner *runner)
{
	struct debug_shared *sh = d->sh;
	cy_vm *vm = d->vm;

	the_debug = d;
	d->runner = runner;
	d->saved_out = d->saved_err = -1;
	sh->history = d->opts.history_bytes > 0;
	sh->budget = d->opts.history_bytes;
	if (!sh->history)
		return 0;
	d->log = mmap(NULL, DEBUG_LOG_BYTES, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (d->log == MAP_FAILED) {
		d->log = NULL;
		return -ENOMEM;
	}
	if (vm->opts.abi == CY_ABI_LINUX && !vm->machine) {
		d->abi_syscall = vm->syscall;
		vm->syscall = history_syscall;
	}
	sh->frontier = debug_position(vm);
	d->snap_due = vm->cycles + DEBUG_SNAP_CYCLES;
	d->snap_time = seconds_now();
	return 0;
}

void history_syscall(struct cy_vm *vm)
{
	struct debug *d = the_debug;
	struct debug_shared *sh = d->sh;
	uint64_t nr = vm_reg(vm, REG_A7), addr = vm_reg(vm, REG_A1);
	uint32_t len = 0;
	uint64_t pos = debug_position(vm);
	struct log_entry e;

	if (nr != SYS_READ && nr != SYS_WRITE && nr != SYS_FSTAT) {
		d->abi_syscall(vm);
		return;
	}
	if (pos < sh->frontier && d->log_at + sizeof(e) <= sh->log_len) {
		memcpy(&e, d->log + d->log_at, sizeof(e));
		if (e.pos == pos && e.nr == nr) {
			if (nr == SYS_WRITE) /* through the tracker, to /dev/null */
				d->abi_syscall(vm);
			else if (e.len)
				cy_vm_write(vm, e.addr, d->log + d->log_at + sizeof(e), e.len);
			vm_set_ret(vm, e.ret);
			d->log_at += entry_size(e.len);
			return;
		}
	}
	d->abi_syscall(vm);
	if (pos < sh->frontier || sh->log_full)
		return;
	e = (struct log_entry){
		.pos = pos, .ret = (int64_t)vm_reg(vm, REG_A0), .addr = addr, .nr = (uint32_t)nr
	};
	if (vm->xlen != 64)
		e.ret = (int32_t)e.ret;
	if (nr == SYS_READ && e.ret > 0)
		len = (uint32_t)e.ret;
	else if (nr == SYS_FSTAT && e.ret == 0)
		len = vm->xlen == 64 ? STAT_BYTES_64 : STAT_BYTES_32;
	e.len = len;
	if (sh->log_len + entry_size(len) > DEBUG_LOG_BYTES) {
		sh->log_full = true; /* history ends here: going back is refused */
		return;
	}
	memcpy(d->log + sh->log_len, &e, sizeof(e));
	if (len)
		cy_vm_read(vm, addr, d->log + sh->log_len + sizeof(e), len);
	sh->log_len += entry_size(len);
	d->log_at = sh->log_len;
}

/* Below the frontier the guest's output (and cyclops's warnings) were
 * shown already: its fds go to /dev/null until the frontier. */
static void silence(struct debug *d)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (null < 0)
		return;
	fflush(stdout);
	fflush(stderr);
	d->saved_out = dup(d->vm->opts.stdout_fd);
	d->saved_err = dup(d->vm->opts.stderr_fd);
	dup2(null, d->vm->opts.stdout_fd);
	dup2(null, d->vm->opts.stderr_fd);
	close(null);
	d->replaying = true;
}

static void unsilence(struct debug *d)
{
	if (!d->replaying)
		return;
	fflush(stdout);
	fflush(stderr);
	if (d->saved_out >= 0)
		dup2(d->saved_out, d->vm->opts.stdout_fd), close(d->saved_out);
	if (d->saved_err >= 0)
		dup2(d->saved_err, d->vm->opts.stderr_fd), close(d->saved_err);
	d->saved_out = d->saved_err = -1;
	d->replaying = false;
}

void history_before_run(struct debug *d)
{
	uint64_t pos;

	if (!d->sh->history)
		return;
	pos = debug_position(d->vm);
	if (pos < d->sh->frontier && !d->replaying)
		silence(d);
	else if (pos >= d->sh->frontier && d->replaying)
		unsilence(d);
}

uint64_t history_run_limit(const struct debug *d)
{
	uint64_t pos = debug_position(d->vm);

	if (!d->sh->history || pos >= d->sh->frontier)
		return UINT64_MAX;
	return d->sh->frontier - pos;
}

void history_after_run(struct debug *d)
{
	struct debug_shared *sh = d->sh;
	uint64_t pos;

	if (!sh->history)
		return;
	pos = debug_position(d->vm);
	if (d->replaying && pos >= sh->frontier)
		unsilence(d);
	else if (!d->replaying && pos > sh->frontier)
		sh->frontier = pos;
}

/* Private dirty memory of a process, in bytes (its share that exists
 * because it lives); 0 if unknown. */
static uint64_t private_dirty(pid_t pid)
{
	char path[64], line[256];
	unsigned long long kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Private_Dirty: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb << 10;
}

static void drop_snap(struct debug_shared *sh, uint32_t i)
{
	kill(sh->snaps[i].pid, SIGKILL);
	memmove(&sh->snaps[i], &sh->snaps[i + 1], (sh->n_snaps - i - 1) * sizeof(sh->snaps[0]));
	sh->n_snaps--;
}

/* Measures the snapshots and, over the budget, drops one at a time the one
 * whose neighbours are closest (never the one at 0 nor the newest), so
 * that what remains spreads over the run. */
static void thin(struct debug_shared *sh)
{
	uint64_t total = 0;

	for (uint32_t i = 0; i < sh->n_snaps; i++)
		total += sh->snaps[i].bytes = private_dirty(sh->snaps[i].pid);
	while ((total > sh->budget || sh->n_snaps == DEBUG_MAX_SNAPS) && sh->n_snaps > 1) {
		uint32_t best = sh->n_snaps - 1;
		uint64_t gap = UINT64_MAX;
		for (uint32_t i = 1; i + 1 < sh->n_snaps; i++) {
			uint64_t g = sh->snaps[i + 1].pos - sh->snaps[i - 1].pos;
			if (g < gap && !sh->snaps[i].keep)
				gap = g, best = i;
		}
		if (sh->snaps[best].keep)
			break;
		total -= sh->snaps[best].bytes;
		drop_snap(sh, best);
	}
}

static int add_snap(struct debug_shared *sh, pid_t pid, uint64_t pos, uint64_t cycles)
{
	uint32_t i = sh->n_snaps;

	if (sh->n_snaps == DEBUG_MAX_SNAPS)
		thin(sh);
	if (sh->n_snaps == DEBUG_MAX_SNAPS) {
		kill(pid, SIGKILL);
		return -1;
	}
	while (i > 0 && sh->snaps[i - 1].pos > pos)
		i--;
	memmove(&sh->snaps[i + 1], &sh->snaps[i], (sh->n_snaps - i) * sizeof(sh->snaps[0]));
	sh->snaps[i] = (struct debug_snap){ pid, pos, cycles, 0, UINT64_MAX, UINT64_MAX, false };
	sh->n_snaps++;
	return (int)i;
}

static void ignore_signals(void)
{
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
}

/* A snapshot waits here for requests; the copies it forks for them start
 * at debug_run's setjmp (debug.c). The supervisor (the process cyclops
 * started, the snapshot at 0) also waits for the session's end. */
static _Noreturn void snapshot_wait(struct debug *d)
{
	struct debug_shared *sh = d->sh;
	const struct timespec poll = { 0, POLL_NS };
	bool supervisor = getpid() == sh->supervisor;
	sigset_t set;

	siginfo_t info;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	if (supervisor) {
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGHUP);
		sigaddset(&set, SIGTERM);
	} else {
		ignore_signals();
	}
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (;;) {
		int sig = sigtimedwait(&set, &info, &poll);
		if (sig == SIGUSR1 && sh->req.kind != REQ_NONE && sh->req.to == getpid()) {
			sh->req.to = 0;
			fflush(NULL);
			pid_t pid = fork();
			if (pid == 0) {
				history_restore_signals(d);
				longjmp(d->serve, 1);
			}
			if (pid < 0) /* the session cannot go on */
				kill(sh->req.origin, SIGKILL);
			continue;
		}
		if (supervisor) {
			if (sh->final)
				_exit(sh->final_status);
			/* a signal sent to cyclops goes to the process that runs
			 * the guest; a terminal's reaches it by itself (the whole
			 * process group gets it) */
			if ((sig == SIGINT || sig == SIGHUP || sig == SIGTERM) &&
			    (info.si_code == SI_USER || info.si_code == SI_QUEUE))
				kill(sh->current, sig);
			if (kill(sh->current, 0) != 0 && errno == ESRCH && !sh->final) {
				fprintf(stderr,
					"cyclops: the debugging session's process %d ended "
					"unexpectedly\n",
					(int)sh->current);
				for (uint32_t i = 0; i < sh->n_snaps; i++)
					if (sh->snaps[i].pid != getpid())
						kill(sh->snaps[i].pid, SIGKILL);
				_exit(CY_EXIT_INTERNAL);
			}
		} else if (kill(sh->supervisor, 0) != 0 && errno == ESRCH) {
			_exit(0);
		}
	}
}

void history_restore_signals(const struct debug *d)
{
	sigset_t set;

	sigaction(SIGINT, &d->sa_int, NULL);
	sigaction(SIGHUP, &d->sa_hup, NULL);
	sigaction(SIGTERM, &d->sa_term, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int history_start(struct debug *d)
{
	struct debug_shared *sh = d->sh;
	sigset_t set;
	pid_t pid;

	if (!sh->history)
		return 0;
	sh->supervisor = getpid();
	signal(SIGCHLD, SIG_IGN); /* snapshots dropped need no reaping */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	/* a signal for cyclops from here on waits for the supervisor, which
	 * passes it on (snapshot_wait); the child starts without it */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		return -errno;
	}
	if (pid == 0)
		sigprocmask(SIG_UNBLOCK, &set, NULL);
	if (pid > 0) { /* the supervisor: the snapshot at 0 */
		sh->current = pid;
		add_snap(sh, getpid(), debug_position(d->vm), d->vm->cycles);
		snapshot_wait(d);
	}
	return 0;
}

static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A snapshot every DEBUG_SNAP_CYCLES cycles of live execution, but not
 * more often than every DEBUG_SNAP_SECONDS: a fork and the copies its
 * pages cost afterwards take some milliseconds (docs/gdb.md). */
/* Forks a snapshot of this process here (kept: never thinned); its index,
 * or -1. */
static int take_snapshot(struct debug *d, bool keep)
{
	struct debug_shared *sh = d->sh;
	pid_t pid;
	int i;

	d->snap_time = seconds_now();
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		snapshot_wait(d);
	if (pid < 0)
		return -1;
	i = add_snap(sh, pid, debug_position(d->vm), d->vm->cycles);
	if (i >= 0)
		sh->snaps[i].keep = keep;
	thin(sh);
	for (uint32_t k = 0; k < sh->n_snaps; k++)
		if (sh->snaps[k].pid == pid)
			return (int)k;
	return -1;
}

/* A snapshot every DEBUG_SNAP_CYCLES cycles of live execution, but not
 * more often than every DEBUG_SNAP_SECONDS: a fork and the copies its
 * pages cost afterwards take some milliseconds (docs/gdb.md). */
void history_maybe_snapshot(struct debug *d)
{
	struct debug_shared *sh = d->sh;
	cy_vm *vm = d->vm;

	if (!sh->history || d->replaying || vm->cycles < d->snap_due || sh->log_full)
		return;
	d->snap_due = vm->cycles + DEBUG_SNAP_CYCLES;
	if (seconds_now() - d->snap_time < DEBUG_SNAP_SECONDS)
		return;
	take_snapshot(d, false);
}

void history_diverge(struct debug *d)
{
	struct debug_shared *sh = d->sh;
	uint64_t pos = debug_position(d->vm);

	if (!sh->history)
		return;
	/* what the snapshots hold does not have GDB's change: they lead to
	 * the positions before it only (a write at a position already
	 * forgotten leaves them as they are) */
	for (uint32_t i = 0; i < sh->n_snaps; i++)
		if (sh->snaps[i].valid_below > pos) {
			sh->snaps[i].valid_below = pos;
			sh->snaps[i].valid_below_cycles = d->vm->cycles;
		}
	d->snap_pending = true;
	if (pos >= sh->frontier)
		return;
	/* the future recorded is not this guest's any more */
	sh->frontier = pos;
	sh->log_len = d->log_at;
	for (uint32_t i = sh->n_snaps; i-- > 0;)
		if (sh->snaps[i].pos > pos)
			drop_snap(sh, i);
	unsilence(d);
}

void history_settle(struct debug *d)
{
	if (!d->snap_pending || !d->sh->history)
		return;
	d->snap_pending = false; /* (not in the snapshot either) */
	take_snapshot(d, true);  /* the first state after the change: kept */
}

/* The latest snapshot before (or at, when at is set) a position. */
static int snap_before(const struct debug_shared *sh, uint64_t pos, bool at)
{
	for (uint32_t i = sh->n_snaps; i-- > 0;) {
		const struct debug_snap *s = &sh->snaps[i];
		/* at: it must reach pos itself; else the positions before it */
		bool reaches = at ? pos < s->valid_below : pos <= s->valid_below;
		if ((s->pos < pos || (at && s->pos == pos)) && reaches)
			return (int)i;
	}
	return -1;
}

/* Hands req to a snapshot. The origin (the process GDB talked to) waits
 * for the copy that takes GDB over and then sleeps as a snapshot; a
 * process on the way (a scan that found nothing) just ends. */
static _Noreturn void hand_over(struct debug *d, struct request req, int snap)
{
	struct debug_shared *sh = d->sh;
	const struct timespec poll = { 0, POLL_NS };
	bool origin = req.origin == 0;
	sigset_t set;

	if (snap < 0) { /* history_reverse checks first: cannot happen */
		fprintf(stderr, "cyclops: --gdb: no snapshot reaches position %llu\n",
			(unsigned long long)req.target);
		_exit(CY_EXIT_INTERNAL);
	}
	if (origin) {
		req.origin = getpid();
		req.origin_pos = debug_position(d->vm);
		req.origin_cycles = d->vm->cycles;
	}
	req.to = sh->snaps[snap].pid;
	sh->req = req;
	kill(req.to, SIGUSR1);
	if (!origin)
		_exit(0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	while (sh->current == getpid())
		sigtimedwait(&set, NULL, &poll);
	if (!sh->keep_origin)
		_exit(0);
	snapshot_wait(d);
}

int history_reverse(struct debug *d, bool step, struct gdb_stop *stop)
{
	struct debug_shared *sh = d->sh;
	cy_vm *vm = d->vm;
	uint64_t pos = debug_position(vm);
	struct request req = { 0 };
	int snap;

	if (!sh->history || sh->log_full)
		return -1;
	if (pos == 0) {
		*stop = (struct gdb_stop){ GDB_STOP_SIGNAL, GDB_SIGTRAP, GDB_WHY_REPLAY_BEGIN, 0 };
		return 0;
	}
	if (!step && sh->until_cycle && sh->until_cycle < vm->cycles) {
		req.kind = REQ_GOTO_CYCLE;
		req.target = sh->until_cycle;
		for (snap = (int)sh->n_snaps - 1; snap >= 0; snap--)
			if (sh->snaps[snap].cycles <= req.target && sh->snaps[snap].pos < pos &&
			    req.target < sh->snaps[snap].valid_below_cycles)
				break;
	} else if (step) {
		req.kind = REQ_GOTO;
		req.target = pos - 1;
		snap = snap_before(sh, req.target, true);
	} else {
		req.kind = REQ_SCAN;
		req.target = pos;
		snap = snap_before(sh, pos, false);
	}
	if (snap < 0)
		return -1;
	hand_over(d, req, snap);
}

/* The process GDB left is kept as a snapshot only where none is near: a
 * reverse-step's every step would otherwise leave one. */
static bool worth_keeping(const struct debug_shared *sh, uint64_t cycles)
{
	for (uint32_t i = 0; i < sh->n_snaps; i++) {
		uint64_t c = sh->snaps[i].cycles;
		if ((c > cycles ? c - cycles : cycles - c) < DEBUG_SNAP_CYCLES / 4)
			return false;
	}
	return true;
}

static void take_over(struct debug *d, const struct request *req)
{
	struct debug_shared *sh = d->sh;

	sh->keep_origin = worth_keeping(sh, req->origin_cycles);
	if (sh->keep_origin)
		add_snap(sh, req->origin, req->origin_pos, req->origin_cycles);
	sh->req.kind = REQ_NONE;
	sh->current = getpid();
	kill(req->origin, SIGUSR2);
	thin(sh);
	d->snap_due = d->vm->cycles + DEBUG_SNAP_CYCLES;
	d->snap_time = seconds_now();
}

void history_carry_out(struct debug *d, struct gdb_stop *stop)
{
	struct debug_shared *sh = d->sh;
	struct request req = sh->req, next = req;
	cy_vm *vm = d->vm;
	uint64_t start = debug_position(vm);
	struct hit hit = { 0, GDB_WHY_REPLAY_BEGIN, 0 };
	bool found = false;

	*stop = (struct gdb_stop){ GDB_STOP_SIGNAL, GDB_SIGTRAP, req.why, req.addr };
	switch (req.kind) {
	case REQ_GOTO: d->runner->run_to(d, req.target); break;
	case REQ_GOTO_CYCLE:
		while (vm->stop == CY_STOP_NONE && vm->cycles < req.target)
			d->runner->run_cycles(d, req.target - vm->cycles);
		sh->until_cycle = 0;
		stop->why = GDB_WHY_NONE;
		break;
	case REQ_SCAN:
		hit.pos = UINT64_MAX;
		d->runner->scan(d, req.target, &hit);
		found = hit.pos != UINT64_MAX;
		next.to = 0;
		if (found) { /* go to the last hit */
			next.kind = REQ_GOTO;
			next.target = hit.pos;
			next.why = hit.why;
			next.addr = hit.addr;
			hand_over(d, next, snap_before(sh, hit.pos, true));
		}
		if (start == 0) { /* none since the start: stop there */
			next.kind = REQ_GOTO;
			next.target = 0;
			next.why = GDB_WHY_REPLAY_BEGIN;
			hand_over(d, next, snap_before(sh, 0, true));
		}
		next.target = start; /* none in this stretch: the one before */
		hand_over(d, next, snap_before(sh, start, false));
	default: break;
	}
	take_over(d, &req);
}

/* The session's last process: at its exit, the status goes to the
 * supervisor, which exits with it. */
static void at_exit(int status, void *arg)
{
	struct debug_shared *sh = arg;

	fflush(NULL);
	sh->final_status = status;
	sh->final = true;
	kill(sh->supervisor, SIGUSR2);
}

void history_finish(struct debug *d)
{
	struct debug_shared *sh = d->sh;

	if (!sh->history)
		return;
	unsilence(d);
	for (uint32_t i = sh->n_snaps; i-- > 0;)
		if (sh->snaps[i].pid != sh->supervisor)
			drop_snap(sh, i);
	on_exit(at_exit, sh);
}

void history_describe(struct debug *d, gdb_out_fn out, void *ctx)
{
	struct debug_shared *sh = d->sh;
	char line[200];

	if (!sh->history) {
		out(ctx, "no history: reverse execution is off (--gdb-history 0)\n");
		return;
	}
	snprintf(line, sizeof(line),
		 "position %llu, frontier %llu, input log %llu bytes%s\n"
		 "%u snapshots (position, cycle, private dirty bytes):\n",
		 (unsigned long long)debug_position(d->vm), (unsigned long long)sh->frontier,
		 (unsigned long long)sh->log_len, sh->log_full ? " (full: history ends)" : "",
		 sh->n_snaps);
	out(ctx, line);
	for (uint32_t i = 0; i < sh->n_snaps; i++) {
		snprintf(line, sizeof(line), "  %llu %llu %llu\n",
			 (unsigned long long)sh->snaps[i].pos,
			 (unsigned long long)sh->snaps[i].cycles,
			 (unsigned long long)sh->snaps[i].bytes);
		out(ctx, line);
	}
}

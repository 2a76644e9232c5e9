/* session.h - the inside of a debugging session, shared by the files of
 * debug/. They stand in layers, each calling only those below it: the
 * server's setup (debug.c), the target (target.c: the VM as GDB's target,
 * its registers, memory and breakpoints, and the run loop), the monitor
 * commands (monitor.c) and the history (history.c: snapshots, the input
 * log, running backwards). History runs the guest forward through the
 * history_runner that target.c fills in, never by name. */
#ifndef CY_DEBUG_SESSION_H
#define CY_DEBUG_SESSION_H

#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/state.h"
#include "debug/debug.h"
#include "debug/gdb_stub.h"

#define DEBUG_MAX_POINTS 64
#define DEBUG_MAX_SNAPS  256
#define DEBUG_LOG_BYTES  (256ull << 20) /* the input log's reservation */
/* A snapshot every this many cycles of live execution (docs/gdb.md). */
#define DEBUG_SNAP_CYCLES  (1ull << 22)
#define DEBUG_SNAP_SECONDS 0.1
/* How often a running guest looks for GDB's interrupt byte. */
#define DEBUG_POLL_CYCLES (1ull << 20)
#define DEBUG_MAX_CSRS    512

struct debug_point {
	uint8_t type; /* enum gdb_point_type */
	uint64_t addr, len;
};

struct debug_snap {
	pid_t pid;
	uint64_t pos, cycles;
	uint64_t bytes; /* its private dirty memory when last measured */
	/* GDB changed the guest at this position (and clock) after the
	 * snapshot was taken: it can reach positions before it only */
	uint64_t valid_below, valid_below_cycles;
	bool keep; /* the first state after such a change: never thinned */
};

enum request_kind {
	REQ_NONE,
	REQ_GOTO,       /* run forward to position target, stop with why */
	REQ_SCAN,       /* find the last hit in [own position, target) */
	REQ_GOTO_CYCLE, /* run forward to the first boundary at or past cycle target */
};

struct request {
	enum request_kind kind;
	uint64_t target;
	enum gdb_stop_why why; /* REQ_GOTO: the stop to report */
	uint64_t addr;
	pid_t to;     /* the snapshot that carries it out */
	pid_t origin; /* the process that waits to hand GDB over */
	uint64_t origin_pos, origin_cycles;
};

/* What every process of a session sees alike (a MAP_SHARED mapping). */
struct debug_shared {
	struct gdb_stub stub; /* the connection's state: no-ack mode, ... */
	uint32_t n_points, points_gen;
	struct debug_point points[DEBUG_MAX_POINTS];
	uint64_t until_cycle; /* monitor until-cycle; 0: none */
	/* history (history.c) */
	bool history;
	pid_t supervisor; /* the process cyclops started: snapshot at 0 */
	volatile pid_t current;
	volatile bool final;
	volatile int final_status;
	uint64_t frontier; /* the furthest position run live */
	uint64_t log_len;  /* bytes of the input log in use */
	bool log_full;
	uint64_t budget; /* --gdb-history */
	uint32_t n_snaps;
	struct debug_snap snaps[DEBUG_MAX_SNAPS];
	struct request req;
	volatile bool keep_origin; /* the origin of the last request sleeps as a snapshot */
};

/* One process's side (private; a fork copies it). */
struct debug {
	cy_vm *vm;
	struct debug_shared *sh;
	struct debug_opts opts;
	cy_callstack *cs;
	bool own_cs;
	/* the points as this process applied them to the block cache */
	uint32_t applied_gen;
	bool any_break, any_watch, flag_all;
	uint32_t n_breaks;
	uint32_t breaks[DEBUG_MAX_POINTS];
	/* the chunk being run (opts.on_chunk) */
	uint64_t chunk_start;
	/* the target description and the CSRs in it */
	char *xml;
	size_t xml_len;
	uint32_t n_csrs;
	uint16_t csrs[DEBUG_MAX_CSRS];
	/* history: how it runs forward, this process's place in the input
	 * log, replay state */
	const struct history_runner *runner;
	uint8_t *log;
	uint64_t log_at;
	bool replaying;
	int saved_out, saved_err;
	uint64_t snap_due; /* the clock of the next snapshot */
	double snap_time;  /* when the last one was taken */
	bool snap_pending; /* GDB changed the guest: a snapshot before it runs */
	uint64_t poll_due;
	void (*abi_syscall)(struct cy_vm *vm);
	struct sigaction sa_int, sa_hup, sa_term; /* the command line's handlers */
	jmp_buf serve; /* where a process spawned from a snapshot starts */
};

/* A point in the run (docs/gdb.md, "Positions"): the instructions
 * retired, plus on the bare platform the traps taken (a trap is a step of
 * its own). */
static inline uint64_t debug_position(const cy_vm *vm)
{
	cy_machine_stats m;

	if (!vm->machine)
		return vm->instret;
	cy_vm_machine_stats(vm, &m);
	return vm->instret + m.exceptions + m.interrupts;
}

/* target.c */
extern const struct gdb_target_ops debug_target_ops;
extern const struct history_runner target_runner;
int target_init(struct debug *d);
void target_free(struct debug *d);
/* Applies the shared points to this process's block cache if they changed. */
void target_sync_points(struct debug *d);
/* One cy_vm_run of at most cycles within the current chunk. */
cy_stop target_piece(struct debug *d, uint64_t cycles);
/* Runs forward at most cycles (a cy_vm_run budget), as history allows. */
cy_stop target_run_cycles(struct debug *d, uint64_t cycles);
/* Runs forward as GDB's continue or step does; *stop: why it stopped. */
void target_forward(struct debug *d, bool step, struct gdb_stop *stop);
/* The stop for the VM's final stop (an exit, a fault, ...). */
void target_final_stop(const cy_vm *vm, struct gdb_stop *stop);

/* monitor.c */
int monitor_command(struct debug *d, const char *cmd, gdb_out_fn out, void *ctx);

/* history.c */
/* A breakpoint or watchpoint hit that a scan found. */
struct hit {
	uint64_t pos;
	enum gdb_stop_why why;
	uint64_t addr;
};

/* How history runs the guest forward: the target's run loop (target.c
 * fills it in), which lies above history and is not called by name. */
struct history_runner {
	/* runs forward to position pos exactly (or until the guest stops) */
	cy_stop (*run_to)(struct debug *d, uint64_t pos);
	/* runs forward at most cycles (a cy_vm_run budget) */
	cy_stop (*run_cycles)(struct debug *d, uint64_t cycles);
	/* runs forward up to position limit to find hits, not for GDB: the
	 * last breakpoint or watchpoint hit goes to *last instead of stopping */
	void (*scan)(struct debug *d, uint64_t limit, struct hit *last);
};

int history_init(struct debug *d, const struct history_runner *runner);
/* Forks the session's first process; the one cyclops started stays as the
 * supervisor and the snapshot at the start, and never returns. */
int history_start(struct debug *d);
/* The command line's signal handlers back, in a process that goes on. */
void history_restore_signals(const struct debug *d);
void history_syscall(struct cy_vm *vm);
/* Before and after running: the replay's output silenced below the
 * frontier, the frontier moved by live execution. */
void history_before_run(struct debug *d);
void history_after_run(struct debug *d);
/* The limit in positions a run may go before the mode changes. */
uint64_t history_run_limit(const struct debug *d);
void history_maybe_snapshot(struct debug *d);
/* GDB changed the guest: a recorded future is forgotten, and earlier
 * snapshots no longer reach past this position. */
void history_diverge(struct debug *d);
/* Before the guest runs again after such a change: its snapshot. */
void history_settle(struct debug *d);
/* Reverse step and continue: in this process when they can be, else the
 * process returns no more (another one reports the stop). */
int history_reverse(struct debug *d, bool step, struct gdb_stop *stop);
/* A process spawned from a snapshot carries out the request it was made
 * for; returns with the stop to report. */
void history_carry_out(struct debug *d, struct gdb_stop *stop);
/* The last one standing: the session's other processes end. */
void history_finish(struct debug *d);
void history_describe(struct debug *d, gdb_out_fn out, void *ctx);

#endif

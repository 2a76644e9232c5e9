/* gdb_stub.h - the GDB remote serial protocol server (gdb_stub.c): reads
 * packets from a connection, answers them from a target (the VM, or a fake
 * one in the fuzz harness) through gdb_target_ops, and reports stops. */
#ifndef CY_GDB_STUB_H
#define CY_GDB_STUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "debug/gdb_packet.h"

/* Z/z packet types (the protocol's numbers). */
enum gdb_point_type {
	GDB_POINT_SW = 0,
	GDB_POINT_HW = 1,
	GDB_POINT_WRITE = 2,
	GDB_POINT_READ = 3,
	GDB_POINT_ACCESS = 4,
};

enum gdb_resume {
	GDB_RESUME_CONTINUE,
	GDB_RESUME_STEP,
	GDB_RESUME_REVERSE_CONTINUE,
	GDB_RESUME_REVERSE_STEP,
};

enum gdb_stop_kind {
	GDB_STOP_SIGNAL, /* stopped, can go on: "T" */
	GDB_STOP_EXITED, /* the guest exited: "W" */
	GDB_STOP_KILLED, /* the guest ended by a signal: "X" */
};

enum gdb_stop_why {
	GDB_WHY_NONE,
	GDB_WHY_SWBREAK,
	GDB_WHY_HWBREAK,
	GDB_WHY_WATCH,
	GDB_WHY_RWATCH,
	GDB_WHY_AWATCH,
	GDB_WHY_REPLAY_BEGIN, /* reverse execution reached the start of history */
	GDB_WHY_REPLAY_END,
};

/* GDB's own signal numbers (gdb/signals.def), which the protocol uses. */
enum {
	GDB_SIGINT = 2,
	GDB_SIGILL = 4,
	GDB_SIGTRAP = 5,
	GDB_SIGKILL = 9,
	GDB_SIGSEGV = 11,
	GDB_SIGTERM = 15,
	GDB_SIGXCPU = 24,
};

struct gdb_stop {
	enum gdb_stop_kind kind;
	int value; /* the signal (SIGNAL, KILLED) or the exit status (EXITED) */
	enum gdb_stop_why why;
	uint64_t addr; /* the data address of a watchpoint hit */
};

/* Where monitor commands write their text (sent as "O" packets). */
typedef void (*gdb_out_fn)(void *ctx, const char *text);

struct gdb_target_ops {
	/* XLEN: 32 or 64; registers are xlen / 8 bytes */
	unsigned (*xlen)(void *t);
	/* the target description (target.xml) */
	const char *(*target_xml)(void *t, size_t *len);
	/* registers by GDB number: 0-31 x0-x31, 32 pc, 65 + n CSR n; 0 or -1 */
	int (*read_reg)(void *t, unsigned regno, uint64_t *value);
	int (*write_reg)(void *t, unsigned regno, uint64_t value);
	/* guest memory: 0, or -1 when some byte is outside it */
	int (*read_mem)(void *t, uint64_t addr, uint8_t *buf, size_t len);
	int (*write_mem)(void *t, uint64_t addr, const uint8_t *buf, size_t len);
	/* inserts or removes a breakpoint or watchpoint; 0, -1 (refused) or
	 * 1 (not supported: an empty reply) */
	int (*point)(void *t, enum gdb_point_type type, uint64_t addr, uint64_t kind, bool insert);
	/* runs; returns when the target stops (or the client interrupts:
	 * poll_interrupt), with the stop in *stop; -1 when it cannot (a
	 * reverse resume without history: an error reply) */
	int (*resume)(void *t, enum gdb_resume how, struct gdb_stop *stop);
	/* a "monitor" command's text; 0, or -1 for an unknown command */
	int (*monitor)(void *t, const char *cmd, gdb_out_fn out, void *ctx);
	/* the client detached or killed the guest, or went away */
	void (*detach)(void *t);
	void (*kill)(void *t);
	/* whether a signal for cyclops (Ctrl-C in its terminal) stopped the
	 * guest while the stub waited for a packet: the session then ends */
	bool (*interrupted)(void *t);
};

enum gdb_end {
	GDB_END_NONE,
	GDB_END_DETACH,
	GDB_END_KILL,
	GDB_END_DISCONNECT,
	GDB_END_INTERRUPTED,
};

struct gdb_stub {
	int fd; /* the connection */
	bool noack;
	bool reverse; /* the target can run backwards (qSupported says so) */
	enum gdb_end end;
	struct gdb_stop last_stop; /* for "?" */
	const struct gdb_target_ops *ops;
	void *target;
	struct gdb_rx rx;
	struct gdb_reply reply;
	char sent[GDB_PACKET_MAX + 8]; /* the last reply framed, for a NAK */
	size_t sent_len;
	uint8_t scratch[GDB_PACKET_MAX];
	/* bytes read but not yet taken (read ahead while polling) */
	uint8_t in[4096];
	size_t in_at, in_len;
};

void gdb_stub_init(struct gdb_stub *s, int fd, const struct gdb_target_ops *ops, void *target,
		   bool reverse);
/* Handles one packet's bytes (without $ and #cs); sends the reply. */
void gdb_stub_packet(struct gdb_stub *s, const char *pkt, size_t len);
/* Reads and answers packets until the client detaches, kills or goes away
 * (s->end says which). */
void gdb_stub_serve(struct gdb_stub *s);
/* Sends the stop reply for *stop (after a resume that another process of
 * the session finished, docs/gdb.md). */
void gdb_stub_report_stop(struct gdb_stub *s, const struct gdb_stop *stop);
/* While the target runs: whether the client sent the interrupt byte
 * (reads what is waiting without blocking). */
bool gdb_stub_poll_interrupt(struct gdb_stub *s);

#endif

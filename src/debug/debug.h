/* debug.h - "cyclops run --gdb": a GDB remote stub for the VM that can
 * also run backwards (docs/gdb.md). The command line's one way in. */
#ifndef CY_DEBUG_H
#define CY_DEBUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cyclops.h"

#define DEBUG_DEFAULT_HOST    "127.0.0.1"
#define DEBUG_DEFAULT_HISTORY (512ull << 20)

struct debug_opts {
	const char *address;    /* "[HOST:]PORT" */
	uint64_t history_bytes; /* --gdb-history: snapshots' memory; 0: no reverse execution */
	bool quiet;
	/* the profile's call-stack profiler, or NULL: the debugger attaches
	 * one for "monitor profile" */
	cy_callstack *callstack;
	/* the cycle tracker's chunks, cut where cy_vm_run_chunk cuts them */
	void (*on_chunk)(void *ctx, const cy_chunk_report *chunk);
	void *chunk_ctx;
};

/* Checks "[HOST:]PORT" (HOST an IPv4 address or a name, PORT 0..65535);
 * 0, or -1 with the reason in err. *loopback: whether it listens only on
 * this machine. */
int debug_check_address(const char *text, bool *loopback, char *err, size_t err_size);

/* Waits for GDB on the address, then runs vm under its control until the
 * guest stops, GDB detaches (the guest then runs on to its end) or kills
 * it. Returns 0 with the stop (and *killed when GDB killed the guest), or
 * -1 with a message in err (the address could not be used). With
 * history_bytes the session runs in several processes (docs/gdb.md):
 * this returns in the one that holds the guest's last state, and the
 * command's exit status reaches the process that was started. */
int debug_run(cy_vm *vm, const struct debug_opts *opts, cy_stop *stop, bool *killed, char *err,
	      size_t err_size);

#endif

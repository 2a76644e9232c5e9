/* callstack.h - what the call-stack profiler (callstack.c) offers besides
 * the public cy_callstack_* functions: a way for unit tests to reach its
 * tables' limits with small guests. */
#ifndef CY_CALLSTACK_H
#define CY_CALLSTACK_H

#include "cyclops.h"

/* Lowers the limits of the tree, the pcs and the call edges from
 * CY_CALLSTACK_MAX_* to nodes, pcs and calls (each at least 1), before
 * the VM runs. */
void callstack_set_limits(cy_callstack *cs, size_t nodes, size_t pcs, size_t calls);

/* Saves or restores the profiler (util/state_io.h): a checkpoint's part,
 * or a chunk's start (the stack alone) and results. 0 or the error in io. */
struct sio;
int callstack_state_io(struct sio *io, cy_callstack *cs);
/* Adds what one chunk's profiler gathered to the whole run's (acc, which
 * ended where the chunk began), and takes its stack: acc is then what one
 * profiler over both would hold. 0 or -ENOMEM. */
int callstack_merge(cy_callstack *acc, cy_callstack *chunk);

#endif

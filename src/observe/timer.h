/* timer.h - the channel timers (docs/timers.md): an observer of the VM's
 * events that recognises the guest's announcement, watches its channels,
 * keeps the timer tree and explains the expensive steps inside timers. */
#ifndef CY_TIMER_H
#define CY_TIMER_H

#include "cyclops.h"

struct timers;

/* Creates the timers of vm and attaches them as an observer; threshold is
 * the cost from which a step is explained. boundary: the fast pass of a
 * chunked run, which follows the announcements only (docs/scale-out.md).
 * 0 or a negative error code. */
int timers_attach(cy_vm *vm, uint64_t threshold, bool boundary, struct timers **out);
void timers_free(struct timers *t);

/* Checkpoints and chunks (docs/scale-out.md). Saves or restores the timers
 * (util/state_io.h): the fast pass's (boundary) timers save the
 * announcement alone, which restored into whole timers starts a chunk. 0
 * or the error in io. */
struct sio;
int timers_state_io(struct sio *io, struct timers *t);
/* Timers attached to nothing, for a chunk's results to be restored into. */
struct timers *timers_unattached(uint64_t threshold);
/* Adds a chunk's results to the whole run's (acc, which ended where the
 * chunk began): acc is then what timers over both would hold. 0, -ENOMEM,
 * or -ERANGE when a table's limit makes the chunk's results depend on
 * what it could not know. */
int timers_merge(struct timers *acc, const struct timers *chunk);

#endif

/* timer.h - the channel timers (docs/timers.md): an observer of the VM's
 * events that recognises the guest's announcement, watches its channels,
 * keeps the timer tree and explains the expensive steps inside timers. */
#ifndef CY_TIMER_H
#define CY_TIMER_H

#include "cyclops.h"

struct timers;

/* Creates the timers of vm and attaches them as an observer; threshold is
 * the cost from which a step is explained. 0 or a negative error code. */
int timers_attach(cy_vm *vm, uint64_t threshold, struct timers **out);
void timers_free(struct timers *t);

#endif

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

#endif

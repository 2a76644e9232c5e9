/* vm_state.h - the machine's own part of a checkpoint (vm_state.c): the
 * registers, the clock, the regions execution may enter, the reservation
 * and the last jump; and guest memory as pages changed since the previous
 * checkpoint (mem_snapshot.c). Each other module saves its own part next to
 * its code; api/checkpoint.c puts them together in one file. */
#ifndef CY_VM_STATE_H
#define CY_VM_STATE_H

#include "core/state.h"

struct sio;

/* Saves or restores the VM's registers, clock and regions (util/state_io.h);
 * a restore leaves the VM runnable, its decoded blocks thrown away. */
void vm_state_io(struct sio *io, struct cy_vm *vm);

/* What one memory delta held (for the figures of docs/scale-out.md). */
struct mem_delta_stats {
	uint64_t pages_scanned; /* resident pages looked at */
	uint64_t pages_written; /* pages whose bytes the delta holds */
	uint64_t pages_zeroed;  /* pages that read as zero again */
	uint64_t bytes;         /* the delta's bytes before compression */
};

/* The page hashes of the previous checkpoint, by which a delta is found. */
struct mem_snapshot;
void mem_snapshot_free(struct mem_snapshot *s);
/* Writes guest memory into io: every page that differs from the previous
 * checkpoint's (*snap, made on the first call), or every page that is not
 * zero when full. 0 or a negative errno. */
int mem_snapshot_save(struct cy_vm *vm, struct mem_snapshot **snap, bool full, struct sio *io,
		      struct mem_delta_stats *stats);
/* Applies a saved delta (or, full, the whole memory) to vm's memory; the
 * caller flushes the decoded blocks. 0, or the reason in io. */
int mem_snapshot_load(struct cy_vm *vm, struct sio *io, bool full);

#endif

/* cost.h - the account of models whose costs depend on addresses: wait
 * states, misaligned accesses, RISC Zero's paging and segments (detailed.c).
 * It plugs into the interpreter through vm->cost.before. */
#ifndef CY_COST_H
#define CY_COST_H

#include "core/state.h"

int cost_init(struct cy_vm *vm, char *err, size_t err_size);
void cost_free(struct cy_vm *vm);
struct sio;
/* Saves or restores the account's state: a checkpoint's part (util/state_io.h). */
void cost_state_io(struct sio *io, struct cy_vm *vm);

#endif

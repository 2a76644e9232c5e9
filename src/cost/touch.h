/* touch.h - SP1 v6's memory rows (touch.c): the first touches of registers
 * and 8-byte words in each chunk, and SP1's clock bumps. */
#ifndef CY_TOUCH_H
#define CY_TOUCH_H

#include "core/access.h"
#include "core/state.h"

int touch_init(struct cy_vm *vm, char *err, size_t err_size);
void touch_free(struct cy_vm *vm);
/* Plugs the syscall hook in (vm->cost.touch_hook) when the model has them. */
void touch_plug(struct cy_vm *vm);
/* The rows of the instruction about to run (its data access a): cycles. */
uint32_t touch_account(struct cy_vm *vm, const struct insn *in, const struct data_access *a);
struct sio;
void touch_state_io(struct sio *io, struct cy_vm *vm);

#endif

/* abi.h - the guest's system-call ABIs: Linux user mode (syscall_linux.c)
 * and the zkVMs' (syscall_zkvm.c). The api stage picks one at creation and
 * hangs it on vm->syscall. */
#ifndef CY_ABI_H
#define CY_ABI_H

#include "core/state.h"

void syscall_linux(struct cy_vm *vm);
int linux_setup_stack(struct cy_vm *vm, char *err, size_t err_size);

void syscall_zkvm(struct cy_vm *vm);
void syscall_risc0(struct cy_vm *vm);
/* Which zkVM ABI the symbols suggest: CY_ABI_SP1, CY_ABI_PICO or LINUX. */
cy_abi zkvm_detect(const struct cy_vm *vm);
/* The zkVM state for abi at version (0: from the ELF, whose bytes are elf). */
int zkvm_setup(struct cy_vm *vm, cy_abi abi, unsigned version, const void *elf, size_t size,
	       char *err, size_t err_size);
void zkvm_free(struct cy_vm *vm);

/* Checkpoints (api/checkpoint.c): each ABI saves and restores its state
 * with one function (util/state_io.h); a checkpoint waits for the end of an
 * unconstrained block. */
struct sio;
void linux_state_io(struct sio *io, struct cy_vm *vm);
void zkvm_state_io(struct sio *io, struct cy_vm *vm);
bool zkvm_in_block(const struct cy_vm *vm);

#endif

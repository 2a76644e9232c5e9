/* elf_load.h - loading a RISC-V ELF program into guest memory (elf_load.c). */
#ifndef CY_ELF_LOAD_H
#define CY_ELF_LOAD_H

#include "core/state.h"

/* Maps the segments, reads the symbols; 0, or < 0 with the reason in err. */
int elf_load(struct cy_vm *vm, const void *data, size_t size, uint32_t *entry, char *err,
	     size_t err_size);

#endif

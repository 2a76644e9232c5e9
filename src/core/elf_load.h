/* elf_load.h - loading a RISC-V ELF program into guest memory (elf_load.c). */
#ifndef CY_ELF_LOAD_H
#define CY_ELF_LOAD_H

#include <elf.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/state.h"

/* Whether a PT_LOAD segment with these p_flags holds code: PF_X, or no
 * flag at all, which riscv-tests' linker script and binutils 2.40 produce
 * for bare tests and Spike and QEMU load as code (docs/decisions.md). */
static inline bool elf_segment_is_code(uint64_t p_flags)
{
	return (p_flags & PF_X) || (p_flags & (PF_R | PF_W | PF_X)) == 0;
}

/* The register width an ELF asks for from its class: 64 for ELFCLASS64,
 * else 32 (elf_load refuses what is neither). The guest's space is
 * reserved for it before the ELF is loaded. */
unsigned elf_xlen(const void *data, size_t size);

/* Maps the segments, reads the symbols; 0, or < 0 with the reason in err. */
int elf_load(struct cy_vm *vm, const void *data, size_t size, uint32_t *entry, char *err,
	     size_t err_size);

#endif

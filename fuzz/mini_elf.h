/* mini_elf.h - the smallest RV32 program the VM harnesses need: an ELF
 * header and one PT_LOAD segment holding code at CODE_ADDR (fuzz_exec.c,
 * fuzz_checkpoint.c). */
#ifndef CY_FUZZ_MINI_ELF_H
#define CY_FUZZ_MINI_ELF_H

#include <stdint.h>
#include <string.h>

#define MINI_ELF_CODE_ADDR 0x10000u

struct mini_elf32 {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version, entry, phoff, shoff, flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct mini_phdr32 {
	uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};
_Static_assert(sizeof(struct mini_elf32) == 52, "Elf32_Ehdr layout");
_Static_assert(sizeof(struct mini_phdr32) == 32, "Elf32_Phdr layout");

#define MINI_ELF_HEADERS (sizeof(struct mini_elf32) + sizeof(struct mini_phdr32))

/* An ET_EXEC RV32 ELF into image (MINI_ELF_HEADERS + n bytes): code at
 * MINI_ELF_CODE_ADDR, entered there, 4 KiB more of memory after it, the
 * segment's permissions flags (5: RX, 7: RWX). Returns its size. */
static inline size_t mini_elf(uint8_t *image, const void *code, size_t n, uint32_t flags)
{
	struct mini_elf32 eh = { .ident = { 0x7f, 'E', 'L', 'F', 1, 1, 1 },
				 .type = 2,
				 .machine = 243,
				 .version = 1,
				 .entry = MINI_ELF_CODE_ADDR,
				 .phoff = sizeof(struct mini_elf32),
				 .ehsize = sizeof(struct mini_elf32),
				 .phentsize = sizeof(struct mini_phdr32),
				 .phnum = 1 };
	struct mini_phdr32 ph = { .type = 1,
				  .offset = MINI_ELF_HEADERS,
				  .vaddr = MINI_ELF_CODE_ADDR,
				  .paddr = MINI_ELF_CODE_ADDR,
				  .filesz = (uint32_t)n,
				  .memsz = (uint32_t)n + 4096,
				  .flags = flags,
				  .align = 4096 };

	memcpy(image, &eh, sizeof(eh));
	memcpy(image + sizeof(eh), &ph, sizeof(ph));
	memcpy(image + MINI_ELF_HEADERS, code, n);
	return MINI_ELF_HEADERS + n;
}

#endif

/* elf_sym.h - the one walk over an ELF's symbol tables (elf_sym.c), for
 * the loader, the listings and the zkVM ABI. */
#ifndef CY_ELF_SYM_H
#define CY_ELF_SYM_H

#include <gelf.h>

/* Calls fn with every defined symbol of elf's symbol tables (not
 * undefined, not in a reserved section) and its name (NULL when it has
 * none), in the tables' order, until fn returns non-zero; returns that, or
 * 0. */
int elf_each_symbol(Elf *elf, int (*fn)(void *ctx, const GElf_Sym *sym, const char *name),
		    void *ctx);

#endif

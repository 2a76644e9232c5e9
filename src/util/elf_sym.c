/* elf_sym.c - the walk over an ELF's symbol tables (elf_sym.h). */
#include <stddef.h>

#include "util/elf_sym.h"

int elf_each_symbol(Elf *elf, int (*fn)(void *ctx, const GElf_Sym *sym, const char *name),
		    void *ctx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < data->d_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			int rc;
			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= SHN_LORESERVE)
				continue;
			rc = fn(ctx, &sym, elf_strptr(elf, sh.sh_link, sym.st_name));
			if (rc)
				return rc;
		}
	}
	return 0;
}

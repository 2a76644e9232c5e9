/* fuzz_symbols.c - the symbol table and its demangling (libiberty, which
 * sees every name a hostile ELF carries): arbitrary bytes as symbol names
 * (split at NULs, as in a string table), demangled within their bound,
 * added, sorted and looked up. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/symbols.h"
#include "cyclops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *names = malloc(size + 1);
	struct symtab t = { 0 };
	uint32_t addr = 0x10000;

	if (!names)
		abort();
	memcpy(names, data, size);
	names[size] = '\0';
	for (size_t at = 0; at <= size; at += strlen(names + at) + 1, addr += 4) {
		/* whatever the name, its readable form is bounded (demangle.c) */
		char *readable = cy_demangle(names + at);
		if (readable && strlen(readable) > CY_DEMANGLE_MAX)
			abort();
		free(readable);
		if (symtab_add(&t, names + at, addr, 4) != 0)
			abort();
	}
	symtab_finish(&t);
	for (size_t i = 0; i < t.n; i++) {
		/* every name is a string ASan can read whole; every symbol is found */
		if (strlen(t.syms[i].name) > SIZE_MAX / 2 || !symtab_lookup(&t, t.syms[i].addr))
			abort();
	}
	symtab_free(&t);
	free(names);
	return 0;
}

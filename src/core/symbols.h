/* symbols.h - the program's function symbols, sorted by address, for
 * "<name+0x1c>" in messages and, later, for profiles. */
#ifndef CY_SYMBOLS_H
#define CY_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct symbol {
	uint32_t addr, size;
	const char *name; /* in symtab.strings */
};

struct symtab {
	struct symbol *syms;
	size_t n, cap;
	char *strings;
	size_t strings_used, strings_cap;
};

int symtab_add(struct symtab *t, const char *name, uint32_t addr, uint32_t size);
/* Sorts and removes duplicates; call once after the last symtab_add. */
void symtab_finish(struct symtab *t);
/* The symbol that contains addr, or the nearest one before it when sizes
 * are unknown; NULL if none. */
const struct symbol *symtab_lookup(const struct symtab *t, uint32_t addr);
const struct symbol *symtab_find(const struct symtab *t, const char *name);
void symtab_free(struct symtab *t);

#endif

/* symbols.c - a sorted array of function symbols with binary-search lookup.
 * Names are copied into one string pool; symbols point into it only after
 * symtab_finish, when the pool no longer moves. C++ and Rust names are kept
 * in their readable (demangled) form (demangle.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/symbols.h"
#include "cyclops.h"

/* Room for one more symbol and len more bytes of names. */
static int symtab_grow(struct symtab *t, size_t len)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct symbol *s = realloc(t->syms, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		t->syms = s;
		t->cap = cap;
	}
	if (t->strings_used + len > t->strings_cap) {
		size_t cap = t->strings_cap ? t->strings_cap * 2 : 4096;
		while (cap < t->strings_used + len)
			cap *= 2;
		char *p = realloc(t->strings, cap);
		if (!p)
			return -ENOMEM;
		t->strings = p;
		t->strings_cap = cap;
	}
	return 0;
}

int symtab_add(struct symtab *t, const char *mangled, uint32_t addr, uint32_t size)
{
	char *readable = cy_demangle(mangled);
	const char *name = readable ? readable : mangled;
	size_t len = strlen(name) + 1;
	int rc = symtab_grow(t, len);

	if (rc == 0) {
		memcpy(t->strings + t->strings_used, name, len);
		/* the offset is kept in the pointer until symtab_finish */
		t->syms[t->n].name = (const char *)(uintptr_t)t->strings_used;
		t->syms[t->n].addr = addr;
		t->syms[t->n].size = size;
		t->n++;
		t->strings_used += len;
	}
	free(readable);
	return rc;
}

static int by_addr(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* prefer the sized symbol (a function over a bare label) */
	return (x->size < y->size) - (x->size > y->size);
}

void symtab_finish(struct symtab *t)
{
	size_t out = 0;

	for (size_t i = 0; i < t->n; i++)
		t->syms[i].name = t->strings + (uintptr_t)t->syms[i].name;
	if (t->n)
		qsort(t->syms, t->n, sizeof(*t->syms), by_addr);
	for (size_t i = 0; i < t->n; i++)
		if (out == 0 || t->syms[out - 1].addr != t->syms[i].addr)
			t->syms[out++] = t->syms[i];
	t->n = out;
}

const struct symbol *symtab_lookup(const struct symtab *t, uint32_t addr)
{
	size_t lo = 0, hi = t->n;
	const struct symbol *s;

	while (lo < hi) { /* first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;
		if (t->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	s = &t->syms[lo - 1];
	if (s->size && addr - s->addr >= s->size)
		return NULL;
	return s;
}

const struct symbol *symtab_find(const struct symtab *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->syms[i].name, name) == 0)
			return &t->syms[i];
	return NULL;
}

void symtab_free(struct symtab *t)
{
	free(t->syms);
	free(t->strings);
	memset(t, 0, sizeof(*t));
}

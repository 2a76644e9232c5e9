/* program.c - a guest program's ELF for the listings and profiles
 * (program.h): symbols as functions, code bytes, executable segments. */
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclops.h"
#include "export/program.h"
#include "util/elf_sym.h"
#include "util/file.h"

static int cmp_func(const void *a, const void *b)
{
	const struct prog_func *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* A function symbol or code label in an executable section (a walk of
 * elf_each_symbol; cap: the funcs array's room). */
struct func_walk {
	struct program *pg;
	size_t cap;
};

static int add_func(void *ctx, const GElf_Sym *sym, const char *name)
{
	struct func_walk *w = ctx;
	struct program *pg = w->pg;
	int type = GELF_ST_TYPE(sym->st_info);
	GElf_Shdr target;
	Elf_Scn *ts;

	if ((type != STT_FUNC && type != STT_NOTYPE) || !name || !*name || name[0] == '$' ||
	    strncmp(name, ".L", 2) == 0)
		return 0;
	ts = elf_getscn(pg->elf, sym->st_shndx);
	if (!ts || !gelf_getshdr(ts, &target) || !(target.sh_flags & SHF_EXECINSTR))
		return 0;
	if (pg->n_funcs == w->cap) {
		struct prog_func *f;
		w->cap = w->cap ? 2 * w->cap : 256;
		f = realloc(pg->funcs, w->cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		pg->funcs = f;
	}
	pg->funcs[pg->n_funcs++] =
	    (struct prog_func){ name, NULL, (uint32_t)sym->st_value,
				(uint32_t)(sym->st_value + sym->st_size),
				(uint32_t)(target.sh_addr + target.sh_size) };
	return 0;
}

static int load_symbols(struct program *pg)
{
	struct func_walk w = { pg, 0 };
	int rc = elf_each_symbol(pg->elf, add_func, &w);

	if (rc)
		return rc;
	if (pg->n_funcs)
		qsort(pg->funcs, pg->n_funcs, sizeof(*pg->funcs), cmp_func);
	/* one per address (the first after sorting), none at the end of its
	 * section; a function without a size ends where the next one starts
	 * or its section ends */
	size_t n = 0;
	for (size_t i = 0; i < pg->n_funcs; i++)
		if ((n == 0 || pg->funcs[n - 1].start != pg->funcs[i].start) &&
		    pg->funcs[i].start < pg->funcs[i].section_end)
			pg->funcs[n++] = pg->funcs[i];
	pg->n_funcs = n;
	for (size_t i = 0; i < n; i++) {
		struct prog_func *f = &pg->funcs[i];
		uint32_t next = i + 1 < n ? pg->funcs[i + 1].start : UINT32_MAX;
		if (f->end <= f->start || f->end > next)
			f->end = next < f->section_end ? next : f->section_end;
		if ((f->readable = cy_demangle(f->name)))
			f->name = f->readable;
	}
	return 0;
}

static void load_segments(struct program *pg)
{
	size_t phnum = 0;

	if (elf_getphdrnum(pg->elf, &phnum) != 0)
		return;
	for (size_t i = 0; i < phnum && pg->n_segs < PROGRAM_MAX_SEGMENTS; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(pg->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) || ph.p_vaddr > UINT32_MAX)
			continue;
		pg->segs[pg->n_segs++] =
		    (struct prog_segment){ (uint32_t)ph.p_vaddr, (uint32_t)ph.p_memsz,
					   (uint32_t)ph.p_filesz, ph.p_offset };
	}
}

int program_open(struct program *pg, const char *path, char *err, size_t err_size)
{
	char why[256];
	void *data = NULL;
	int rc;

	memset(pg, 0, sizeof(*pg));
	pg->path = strdup(path);
	if (!pg->path) {
		snprintf(err, err_size, "%s: out of memory", path);
		return -1;
	}
	rc = file_read(path, &file_rules_elf, &data, &pg->size, why, sizeof(why));
	if (rc != 0) {
		snprintf(err, err_size, "%s: %s", path, why);
		goto out_close;
	}
	pg->data = data;
	if (cy_elf_identity_of(pg->data, pg->size, &pg->id, why, sizeof(why)) != 0) {
		snprintf(err, err_size, "%s: %s", path, why);
		goto out_close;
	}
	elf_version(EV_CURRENT);
	pg->elf = elf_memory((char *)pg->data, pg->size);
	if (!pg->elf) {
		snprintf(err, err_size, "%s: %s", path, elf_errmsg(-1));
		goto out_close;
	}
	pg->xlen = gelf_getclass(pg->elf) == ELFCLASS64 ? 64 : 32;
	if (load_symbols(pg) != 0) {
		snprintf(err, err_size, "%s: out of memory", path);
		goto out_close;
	}
	load_segments(pg);
	return 0;
out_close:
	program_close(pg);
	return -1;
}

void program_close(struct program *pg)
{
	if (pg->elf)
		elf_end(pg->elf);
	for (size_t i = 0; i < pg->n_funcs; i++)
		free(pg->funcs[i].readable);
	free(pg->funcs);
	free(pg->data);
	free(pg->path);
	memset(pg, 0, sizeof(*pg));
}

int program_func_at(const struct program *pg, uint32_t pc)
{
	size_t lo = 0, hi = pg->n_funcs;

	while (lo < hi) { /* the last function starting at or before pc */
		size_t mid = (lo + hi) / 2;
		if (pg->funcs[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || pc >= pg->funcs[lo - 1].end)
		return -1;
	return (int)(lo - 1);
}

int program_func_named(const struct program *pg, const char *name)
{
	for (size_t i = 0; i < pg->n_funcs; i++)
		if (strcmp(pg->funcs[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool program_code_at(const struct program *pg, uint32_t pc, uint32_t *bits)
{
	size_t phnum = 0;

	if (!pg->elf || elf_getphdrnum(pg->elf, &phnum) != 0)
		return false;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		uint8_t b[4] = { 0 };
		if (!gelf_getphdr(pg->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    pc < ph.p_vaddr || pc + 2 > ph.p_vaddr + ph.p_filesz)
			continue;
		size_t off = ph.p_offset + (pc - ph.p_vaddr);
		size_t n = pc + 4 <= ph.p_vaddr + ph.p_filesz ? 4 : 2;
		if (off + n > pg->size)
			return false;
		memcpy(b, pg->data + off, n);
		*bits = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			(uint32_t)b[3] << 24;
		return true;
	}
	return false;
}

void program_build_id(const struct program *pg, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < pg->id.len && n + 3 <= size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%02x", pg->id.bytes[i]);
}

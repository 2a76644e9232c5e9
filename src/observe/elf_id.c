/* elf_id.c - the identity of a program for saved histograms (its GNU
 * build-id, else a hash of its loadable segments) and the address ranges of
 * its executable segments, read through libelf from the ELF image. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/elf_load.h"
#include "observe/elf_id.h"

#define FNV64_PRIME 0x100000001b3ull

uint64_t fnv64(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= FNV64_PRIME;
	}
	return h;
}

/* Adds the segment's address, sizes, flags and file bytes to the hash
 * (the fields as wide as the ELF's class has them). */
static uint64_t hash_segment(uint64_t h, const GElf_Phdr *ph, const uint8_t *data, bool wide)
{
	uint32_t fields[4] = { (uint32_t)ph->p_vaddr, (uint32_t)ph->p_filesz, (uint32_t)ph->p_memsz,
			       (uint32_t)ph->p_flags };
	uint64_t fields64[4] = { ph->p_vaddr, ph->p_filesz, ph->p_memsz, ph->p_flags };

	h = wide ? fnv64(h, fields64, sizeof(fields64)) : fnv64(h, fields, sizeof(fields));
	return fnv64(h, data + ph->p_offset, (size_t)ph->p_filesz);
}

/* The GNU build-id note's bytes in d (a note section's or segment's
 * data), or NULL. */
static const void *build_id_in(Elf_Data *d, size_t *len)
{
	GElf_Nhdr nh;
	size_t off = 0, name_at, desc_at, next;

	while (d && (next = gelf_getnote(d, off, &nh, &name_at, &desc_at)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == sizeof(ELF_NOTE_GNU) &&
		    memcmp((const char *)d->d_buf + name_at, ELF_NOTE_GNU, sizeof(ELF_NOTE_GNU)) ==
			0) {
			*len = nh.n_descsz;
			return (const char *)d->d_buf + desc_at;
		}
		off = next;
	}
	return NULL;
}

/* The program's GNU build-id (as libdw's dwelf_elf_gnu_build_id finds it:
 * in the note sections, else in the note segments), or NULL. Read through
 * libelf, so that a run that writes no profile does not load libdw. */
static const void *gnu_build_id(Elf *elf, size_t phnum, size_t *len)
{
	const void *id = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Phdr ph;

	while (!id && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE)
			id = build_id_in(elf_getdata(scn, NULL), len);
	for (size_t i = 0; !id && i < phnum; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_NOTE)
			id = build_id_in(elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
							      ph.p_filesz, ELF_T_NHDR),
					 len);
	return id;
}

int elf_code_read(const void *data, size_t size, struct elf_code *out, char *err, size_t err_size)
{
	const void *build_id;
	uint64_t h = FNV64_INIT;
	size_t phnum = 0, id_len = 0;
	GElf_Ehdr eh;
	Elf *elf;
	bool wide;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	elf_version(EV_CURRENT);
	elf = elf_memory((char *)data, size);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    (gelf_getclass(elf) != ELFCLASS32 && gelf_getclass(elf) != ELFCLASS64) ||
	    eh.e_machine != EM_RISCV) {
		snprintf(err, err_size, "not a RISC-V ELF file");
		rc = -EINVAL;
		goto out_end;
	}
	/* RV64: data may lie past 4 GiB, code never does (core/mem.h) */
	wide = gelf_getclass(elf) == ELFCLASS64;
	if (elf_getphdrnum(elf, &phnum) != 0) {
		snprintf(err, err_size, "unreadable program headers");
		rc = -EINVAL;
		goto out_end;
	}
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		bool code = elf_segment_is_code(ph.p_flags);
		if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset ||
		    ((!wide || code) &&
		     (ph.p_vaddr > (1ull << 32) || ph.p_memsz > (1ull << 32) - ph.p_vaddr))) {
			snprintf(err, err_size, "segment %zu lies outside the file or 4 GiB", i);
			rc = -EINVAL;
			goto out_end;
		}
		h = hash_segment(h, &ph, data, wide);
		if (!code || ph.p_memsz == 0)
			continue;
		if (out->n_ranges == ELF_ID_MAX_RANGES) {
			snprintf(err, err_size, "more than %d executable segments",
				 ELF_ID_MAX_RANGES);
			rc = -EINVAL;
			goto out_end;
		}
		/* instructions are 2-byte aligned: the counts are per halfword */
		out->start[out->n_ranges] = (uint32_t)ph.p_vaddr & ~1u;
		out->end[out->n_ranges] = (uint32_t)((ph.p_vaddr + ph.p_memsz + 1) & ~1ull);
		out->n_ranges++;
	}
	build_id = gnu_build_id(elf, phnum, &id_len);
	if (build_id && id_len > 0 && id_len <= CY_ELF_ID_MAX) {
		out->id.kind = CY_ELF_ID_BUILD_ID;
		out->id.len = (uint8_t)id_len;
		memcpy(out->id.bytes, build_id, (size_t)id_len);
	} else {
		out->id.kind = CY_ELF_ID_SEGMENT_HASH;
		out->id.len = sizeof(h);
		memcpy(out->id.bytes, &h, sizeof(h));
	}
out_end:
	elf_end(elf);
	return rc;
}

int cy_elf_identity_of(const void *elf, size_t size, cy_elf_identity *id, char *err,
		       size_t err_size)
{
	struct elf_code code;
	int rc = elf_code_read(elf, size, &code, err, err_size);

	if (rc == 0)
		*id = code.id;
	return rc;
}

bool cy_elf_identity_equal(const cy_elf_identity *a, const cy_elf_identity *b)
{
	return a->kind == b->kind && a->len == b->len && memcmp(a->bytes, b->bytes, a->len) == 0;
}

void cy_elf_identity_format(const cy_elf_identity *id, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s ",
			 id->kind == CY_ELF_ID_BUILD_ID ? "build-id" : "segment hash");

	for (unsigned i = 0; i < id->len && n > 0 && (size_t)n + 2 < size; i++)
		n += snprintf(buf + n, size - (size_t)n, "%02x", id->bytes[i]);
}

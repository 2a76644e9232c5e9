/* elf_load.c - loads a statically linked RISC-V executable (ELF32: RV32,
 * ELF64: RV64, within the guest's 4 GiB) with
 * libelf: checks every header before trusting it, copies the PT_LOAD
 * segments to their virtual addresses (bss stays zero) and keeps the
 * function symbols. Each refusal says what is wrong with the file. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/elf_load.h"
#include "core/vm.h"
#include "util/elf_sym.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif
#define MAX_SEGMENTS 16

static int fail(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

unsigned elf_xlen(const void *data, size_t size)
{
	const unsigned char *b = data;

	return size > EI_CLASS && memcmp(b, ELFMAG, SELFMAG) == 0 && b[EI_CLASS] == ELFCLASS64 ? 64
											       : 32;
}

/* Checks the identification and header bytes before libelf parses them,
 * so that a short or foreign file gets a precise reason. */
static int check_raw_header(const unsigned char *b, size_t size, char *err, size_t n)
{
	if (size < 4 || memcmp(b, ELFMAG, SELFMAG) != 0)
		return fail(err, n, "not an ELF file");
	if (size < EI_NIDENT)
		return fail(err, n, "truncated ELF identification (%zu bytes)", size);
	if (b[EI_CLASS] != ELFCLASS32 && b[EI_CLASS] != ELFCLASS64)
		return fail(err, n, "bad ELF class %u", b[EI_CLASS]);
	if (b[EI_DATA] != ELFDATA2LSB)
		return fail(err, n, "not a little-endian ELF");
	size_t want = b[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (size < want)
		return fail(err, n, "truncated ELF header (%zu of %zu bytes)", size, want);
	return 0;
}

static int check_header(Elf *elf, size_t size, GElf_Ehdr *eh, char *err, size_t n)
{
	size_t shnum = 0;

	if (!gelf_getehdr(elf, eh))
		return fail(err, n, "truncated or damaged ELF header (%s)", elf_errmsg(-1));
	if (eh->e_machine != EM_RISCV)
		return fail(err, n, "not a RISC-V ELF (e_machine %u)", eh->e_machine);
	if (eh->e_type == ET_DYN)
		return fail(err, n,
			    "position-independent or shared object (ET_DYN); "
			    "cyclops runs statically linked executables");
	if (eh->e_type != ET_EXEC)
		return fail(err, n, "not an executable (e_type %u)", eh->e_type);
	size_t phentsize =
	    gelf_getclass(elf) == ELFCLASS64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	if (eh->e_phnum && eh->e_phentsize != phentsize)
		return fail(err, n,
			    "truncated or damaged program headers (entry size %u, expected %zu)",
			    eh->e_phentsize, phentsize);
	/* the symbols live in sections: a file cut short there loses them */
	if (elf_getshdrnum(elf, &shnum) != 0)
		return fail(err, n, "truncated or damaged section headers (%s)", elf_errmsg(-1));
	if (eh->e_shnum) /* libelf reports none when they lie past the end */
		shnum = eh->e_shnum;
	if (shnum && (eh->e_shoff > size || (uint64_t)shnum * eh->e_shentsize > size - eh->e_shoff))
		return fail(
		    err, n,
		    "truncated: %zu section headers at offset 0x%llx extend past the end of "
		    "the file",
		    shnum, (unsigned long long)eh->e_shoff);
	return 0;
}

/* Validates the program headers and fills segs with the PT_LOAD ones. */
static int check_segments(Elf *elf, size_t size, uint64_t space, GElf_Phdr *segs, int *n_segs,
			  char *err, size_t n)
{
	size_t phnum;
	int count = 0;

	if (elf_getphdrnum(elf, &phnum) != 0)
		return fail(err, n, "truncated or damaged program headers (%s)", elf_errmsg(-1));
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph))
			return fail(err, n, "truncated or damaged program header %zu", i);
		if (ph.p_type == PT_INTERP || ph.p_type == PT_DYNAMIC)
			return fail(err, n,
				    "dynamically linked; cyclops runs "
				    "statically linked executables");
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
			return fail(err, n,
				    "truncated: segment %zu (offset 0x%llx, "
				    "0x%llx bytes) extends past the end of the file",
				    i, (unsigned long long)ph.p_offset,
				    (unsigned long long)ph.p_filesz);
		if (ph.p_filesz > ph.p_memsz)
			return fail(err, n,
				    "segment %zu: file size 0x%llx exceeds "
				    "memory size 0x%llx",
				    i, (unsigned long long)ph.p_filesz,
				    (unsigned long long)ph.p_memsz);
		if (ph.p_vaddr > space || ph.p_memsz > space - ph.p_vaddr)
			return fail(err, n,
				    "segment %zu (0x%llx + 0x%llx) is out of "
				    "the %s address space",
				    i, (unsigned long long)ph.p_vaddr,
				    (unsigned long long)ph.p_memsz,
				    space == MEM_SPACE_32 ? "32-bit" : "RV64 guests' 1 TiB (2^40)");
		if (elf_segment_is_code(ph.p_flags) && ph.p_vaddr + ph.p_memsz > MEM_CODE_LIMIT)
			return fail(err, n,
				    "code segment %zu (0x%llx + 0x%llx) reaches past 4 GiB, "
				    "where cyclops runs no code",
				    i, (unsigned long long)ph.p_vaddr,
				    (unsigned long long)ph.p_memsz);
		for (int j = 0; j < count; j++)
			if (ph.p_vaddr < segs[j].p_vaddr + segs[j].p_memsz &&
			    segs[j].p_vaddr < ph.p_vaddr + ph.p_memsz)
				return fail(err, n, "segments overlap at 0x%llx",
					    (unsigned long long)ph.p_vaddr);
		if (count == MAX_SEGMENTS)
			return fail(err, n, "more than %d loadable segments", MAX_SEGMENTS);
		segs[count++] = ph;
	}
	if (count == 0)
		return fail(err, n, "no loadable segments");
	*n_segs = count;
	return 0;
}

/* Keeps function symbols and code labels (assembly labels have no type),
 * and notes the bare platform's HTIF and signature words. */
static int keep_symbol(void *ctx, const GElf_Sym *sym, const char *name)
{
	struct cy_vm *vm = ctx;
	int type = GELF_ST_TYPE(sym->st_info);

	/* the HTIF words of bare firmware, whatever their type (the symbol
	 * table keeps one name per address) */
	if (name && strcmp(name, "tohost") == 0) {
		vm->has_tohost = true;
		vm->tohost = (uint32_t)sym->st_value;
	} else if (name && strcmp(name, "fromhost") == 0) {
		vm->fromhost = (uint32_t)sym->st_value;
	} else if (name && strcmp(name, "begin_signature") == 0) {
		vm->has_signature_begin = true;
		vm->signature_begin = (uint32_t)sym->st_value;
	} else if (name && strcmp(name, "end_signature") == 0) {
		vm->has_signature_end = true;
		vm->signature_end = (uint32_t)sym->st_value;
	}
	if (type != STT_FUNC && type != STT_NOTYPE)
		return 0;
	/* skip local labels and the $x/$d mapping symbols */
	if (!name || !*name || name[0] == '$' || (name[0] == '.' && name[1] == 'L'))
		return 0;
	return symtab_add(&vm->syms, name, (uint32_t)sym->st_value, (uint32_t)sym->st_size) != 0
		   ? -ENOMEM
		   : 0;
}

static int load_symbols(struct cy_vm *vm, Elf *elf)
{
	int rc = elf_each_symbol(elf, keep_symbol, vm);

	if (rc)
		return rc;
	symtab_finish(&vm->syms);
	return 0;
}

int elf_load(struct cy_vm *vm, const void *data, size_t size, uint32_t *entry, char *err, size_t n)
{
	GElf_Phdr segs[MAX_SEGMENTS];
	GElf_Ehdr eh;
	int n_segs = 0, rc;
	uint64_t top = 0;
	bool entry_ok = false;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return fail(err, n, "libelf is out of date");
	rc = check_raw_header(data, size, err, n);
	if (rc != 0)
		return rc;
	elf = elf_memory((char *)data, size);
	if (!elf)
		return fail(err, n, "not an ELF file (%s)", elf_errmsg(-1));
	rc = check_header(elf, size, &eh, err, n);
	vm->xlen = gelf_getclass(elf) == ELFCLASS64 ? 64 : 32;
	if (rc == 0 && vm->mem.size != (vm->xlen == 64 ? MEM_SPACE_64 : MEM_SPACE_32))
		rc = fail(err, n, "internal: the space was reserved for another ELF class");
	if (rc == 0)
		rc = check_segments(elf, size, vm->mem.size, segs, &n_segs, err, n);
	if (rc != 0)
		goto out_end;
	for (int i = 0; i < n_segs; i++) {
		char name[16];
		memcpy(vm->mem.base + segs[i].p_vaddr, (const char *)data + segs[i].p_offset,
		       segs[i].p_filesz);
		snprintf(name, sizeof(name), "segment%d", i);
		mem_set_region(&vm->mem, name, segs[i].p_vaddr, segs[i].p_vaddr + segs[i].p_memsz);
		if (segs[i].p_vaddr + segs[i].p_memsz > top)
			top = segs[i].p_vaddr + segs[i].p_memsz;
		if (elf_segment_is_code(segs[i].p_flags) && eh.e_entry >= segs[i].p_vaddr &&
		    eh.e_entry < segs[i].p_vaddr + segs[i].p_memsz)
			entry_ok = true;
	}
	if (eh.e_entry & 1) {
		rc = fail(err, n, "entry point 0x%llx is odd (instructions are 2-byte aligned)",
			  (unsigned long long)eh.e_entry);
		goto out_end;
	}
	if (!entry_ok) {
		rc = fail(err, n, "entry point 0x%llx is not in an executable segment",
			  (unsigned long long)eh.e_entry);
		goto out_end;
	}
	rc = load_symbols(vm, elf);
	if (rc != 0) {
		fail(err, n, "out of memory reading symbols");
		goto out_end;
	}
	top = (top + MEM_PAGE - 1) & ~(uint64_t)(MEM_PAGE - 1);
	if (top >= vm->mem.size) {
		/* the heap starts after the last segment: none is left */
		rc = fail(err, n, "no room for a heap below the stack");
		goto out_end;
	}
	*entry = (uint32_t)eh.e_entry; /* in a code segment: below 4 GiB */
	vm->brk_start = top;
out_end:
	elf_end(elf);
	return rc;
}

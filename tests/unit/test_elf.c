/* test_elf.c - unit test of the ELF loader through the public API: a good
 * static RV32 executable loads, and damaged copies of it (each kind of bad
 * header, truncations, thousands of pseudo-random corruptions) are refused
 * with "NAME: reason" and never crash.
 * A good static RV64 executable loads as one too, and the limits of the
 * 64-bit space are checked on copies of it.
 * Usage: test_elf GOOD-RV32.elf OTHER-ARCH-64.elf [GOOD-RV64.elf [FUZZ-RUNS]]
 * (make check passes guest/build/hello.elf /bin/true and the rv64 hello).
 * Prints "ok - ..." / "not ok - ..." per check, exits 1 on a failure. */
#include <elf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclops.h"

#include "unit_check.h"

#define NAME       "prog.elf"
#define FUZZ_RUNS  4000 /* default; a third argument overrides it */
#define MAX_PHDRS  64
#define STACK_HIGH 0x7ffff000u /* inside the default stack (below 2 GiB) */

/* Offsets of header fields in the file: the Elf32 structs have no padding. */
#define EH(field)    offsetof(Elf32_Ehdr, field)
#define PH(i, field) (good.phoff + (size_t)(i)*good.phentsize + offsetof(Elf32_Phdr, field))

static struct {
	const uint8_t *bytes;
	size_t size;
	uint32_t entry, phoff, shoff;
	uint16_t phnum, phentsize, shnum, shentsize;
	int load[MAX_PHDRS]; /* indices of the PT_LOAD headers */
	int n_load;
	int other; /* a header that is not PT_LOAD, or -1 */
} good;

static uint32_t get16(const uint8_t *b, size_t off) { return (uint32_t)(b[off] | b[off + 1] << 8); }
static uint32_t get32(const uint8_t *b, size_t off)
{
	return get16(b, off) | get16(b, off + 2) << 16;
}
static void put16(uint8_t *b, size_t off, uint32_t v)
{
	b[off] = (uint8_t)v;
	b[off + 1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *b, size_t off, uint32_t v)
{
	put16(b, off, v & 0xffff);
	put16(b, off + 2, v >> 16);
}

static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		*size = (size_t)n;
	fclose(f);
	return buf;
}

/* Reads what the damage below needs from the good file's headers. */
static int parse_good(void)
{
	const uint8_t *b = good.bytes;

	if (good.size < sizeof(Elf32_Ehdr) || memcmp(b, ELFMAG, SELFMAG) != 0)
		return -1;
	good.entry = get32(b, EH(e_entry));
	good.phoff = get32(b, EH(e_phoff));
	good.shoff = get32(b, EH(e_shoff));
	good.phnum = (uint16_t)get16(b, EH(e_phnum));
	good.phentsize = (uint16_t)get16(b, EH(e_phentsize));
	good.shnum = (uint16_t)get16(b, EH(e_shnum));
	good.shentsize = (uint16_t)get16(b, EH(e_shentsize));
	good.other = -1;
	if (good.phnum > MAX_PHDRS || good.phentsize != sizeof(Elf32_Phdr) ||
	    good.phoff + (size_t)good.phnum * good.phentsize > good.size)
		return -1;
	for (int i = 0; i < good.phnum; i++) {
		if (get32(b, PH(i, p_type)) == PT_LOAD)
			good.load[good.n_load++] = i;
		else if (good.other < 0)
			good.other = i;
	}
	/* the damage needs a code and a data segment and a spare header */
	return good.n_load >= 2 && good.other >= 0 ? 0 : -1;
}

static uint8_t *copy_good(void)
{
	uint8_t *c = malloc(good.size);

	if (!c) {
		perror("test_elf");
		exit(2);
	}
	memcpy(c, good.bytes, good.size);
	return c;
}

/* Loading must fail, leave *vm NULL and say "NAME: ...reason...". */
static void expect_refused(const char *what, const uint8_t *bytes, size_t size, const char *reason)
{
	char err[512] = "", want[300];
	cy_opts opts;
	cy_vm *vm = (cy_vm *)&opts; /* must be overwritten with NULL */
	int rc;

	cy_opts_init(&opts);
	opts.quiet = true;
	rc = cy_vm_create_from_bytes(&vm, bytes, size, NAME, &opts, err, sizeof(err));
	if (rc == 0) {
		snprintf(err, sizeof(err), "(loaded)");
		cy_vm_destroy(vm);
	} else if (vm) {
		snprintf(err, sizeof(err), "(returned %d but set the vm)", rc);
	}
	snprintf(want, sizeof(want), NAME ": ...%s...", reason);
	check(rc < 0 && !vm && strncmp(err, NAME ": ", strlen(NAME ": ")) == 0 &&
		  strstr(err + strlen(NAME ": "), reason),
	      err, want, "refuses %s", what);
}

/* Loading must succeed (an edge that is still a valid file). */
static void expect_loaded(const char *what, const uint8_t *bytes, size_t size)
{
	char err[512] = "";
	cy_opts opts;
	cy_vm *vm;
	int rc;

	cy_opts_init(&opts);
	opts.quiet = true;
	rc = cy_vm_create_from_bytes(&vm, bytes, size, NAME, &opts, err, sizeof(err));
	check(rc == 0 && vm, err, "(loaded)", "loads %s", what);
	cy_vm_destroy(vm);
}

/* Patches one field of a copy of the good file and expects a refusal. */
static void refuse_patched(const char *what, size_t off, int width, uint32_t value,
			   const char *reason)
{
	uint8_t *c = copy_good();

	if (width == 1)
		c[off] = (uint8_t)value;
	else if (width == 2)
		put16(c, off, value);
	else
		put32(c, off, value);
	expect_refused(what, c, good.size, reason);
	free(c);
}

static void test_not_elf(const uint8_t *other, size_t other_size)
{
	static const char hello[] = "hello";

	expect_refused("an empty file", good.bytes, 0, "not an ELF file");
	expect_refused("a 3-byte file", good.bytes, 3, "not an ELF file");
	expect_refused("a text file", (const uint8_t *)hello, strlen(hello), "not an ELF file");
	/* an RV32 file's headers read as ELF64's are garbage */
	refuse_patched("a 32-bit file with a 64-bit ident (ELFCLASS64)", EI_CLASS, 1, ELFCLASS64,
		       "damaged program headers");
	expect_refused("a real x86-64 ELF", other, other_size, "not a RISC-V ELF (e_machine 62)");
	refuse_patched("an invalid ELF class (0)", EI_CLASS, 1, ELFCLASSNONE, "bad ELF class 0");
	refuse_patched("e_machine 62 (x86-64)", EH(e_machine), 2, EM_X86_64,
		       "not a RISC-V ELF (e_machine 62)");
	refuse_patched("a big-endian ident", EI_DATA, 1, ELFDATA2MSB, "not a little-endian ELF");
	refuse_patched("ET_DYN", EH(e_type), 2, ET_DYN, "ET_DYN");
	refuse_patched("ET_REL", EH(e_type), 2, ET_REL, "not an executable (e_type 1)");
	refuse_patched("ET_CORE", EH(e_type), 2, ET_CORE, "not an executable (e_type 4)");
}

static void test_truncated(void)
{
	size_t phend = good.phoff + (size_t)good.phnum * good.phentsize;
	int last = good.load[good.n_load - 1];
	size_t seg_end =
	    get32(good.bytes, PH(last, p_offset)) + get32(good.bytes, PH(last, p_filesz));
	char what[100];

	snprintf(what, sizeof(what), "the file cut in half (%zu of %zu bytes)", good.size / 2,
		 good.size);
	expect_refused(what, good.bytes, good.size / 2, "truncated");
	snprintf(what, sizeof(what), "the file cut just past the program headers (%zu bytes)",
		 phend);
	expect_refused(what, good.bytes, phend, "truncated");
	snprintf(what, sizeof(what), "the file cut before the program headers (%u bytes)",
		 good.phoff);
	expect_refused(what, good.bytes, good.phoff, "truncated");
	snprintf(what, sizeof(what), "the file cut inside the program headers (%zu bytes)",
		 phend - good.phentsize / 2);
	expect_refused(what, good.bytes, phend - good.phentsize / 2, "truncated");
	snprintf(what, sizeof(what), "the file cut inside the ELF header (%zu bytes)",
		 sizeof(Elf32_Ehdr) - 12);
	expect_refused(what, good.bytes, sizeof(Elf32_Ehdr) - 12, "truncated");
	snprintf(what, sizeof(what),
		 "the file cut 1 byte short of the last segment's data (%zu bytes)", seg_end - 1);
	expect_refused(what, good.bytes, seg_end - 1, "truncated");
}

/* Segments with p_flags 0 (riscv-tests' linker script with binutils 2.40
 * makes them) hold code as far as loading goes, as in Spike and QEMU. */
static void test_no_flags(void)
{
	char err[512] = "", got[600];
	uint8_t *c = copy_good();
	cy_opts opts;
	cy_vm *vm = NULL;
	int rc;

	for (int i = 0; i < good.n_load; i++)
		put32(c, PH(good.load[i], p_flags), 0);
	cy_opts_init(&opts);
	opts.quiet = true;
	rc = cy_vm_create_from_bytes(&vm, c, good.size, NAME, &opts, err, sizeof(err));
	snprintf(got, sizeof(got), "returned %d, '%s'", rc, err);
	check(rc == 0 && vm && cy_vm_pc(vm) == good.entry, got, "returned 0, pc at e_entry",
	      "segments with p_flags 0 load, the entry point in one of them");
	cy_vm_destroy(vm);
	free(c);
}

static void test_segments(void)
{
	int text = good.load[0], data = good.load[good.n_load - 1];
	uint32_t text_vaddr = get32(good.bytes, PH(text, p_vaddr));
	uint32_t text_memsz = get32(good.bytes, PH(text, p_memsz));
	uint32_t text_filesz = get32(good.bytes, PH(text, p_filesz));
	uint32_t data_vaddr = get32(good.bytes, PH(data, p_vaddr));
	uint8_t *c;

	refuse_patched("a PT_LOAD with p_filesz > p_memsz", PH(text, p_memsz), 4, text_filesz - 1,
		       "exceeds memory size");
	refuse_patched("two overlapping PT_LOAD segments", PH(data, p_vaddr), 4, text_vaddr + 16,
		       "overlap");
	refuse_patched("a segment overlapping the first one's last byte", PH(data, p_vaddr), 4,
		       text_vaddr + text_memsz - 1, "overlap");

	c = copy_good();
	put32(c, PH(data, p_vaddr), text_vaddr + text_memsz);
	expect_loaded("a segment starting right after the first one", c, good.size);
	put32(c, PH(data, p_vaddr), 0xfffff000u);
	put32(c, PH(data, p_memsz), 0x2000);
	expect_refused("a segment past 4 GiB (0xfffff000 + 0x2000)", c, good.size,
		       "out of the 32-bit address space");
	put32(c, PH(data, p_vaddr), 0x1000);
	put32(c, PH(data, p_memsz), 0xffffffffu);
	expect_refused("a segment past 4 GiB (0x1000 + 0xffffffff)", c, good.size,
		       "out of the 32-bit address space");
	free(c);

	refuse_patched("a segment on the stack", PH(data, p_vaddr), 4, STACK_HIGH,
		       "overlaps the stack");
	/* the heap starts after the highest segment and must stay below the stack */
	refuse_patched("a segment above the stack (at 0x90000000)", PH(data, p_vaddr), 4,
		       0x90000000u, "no room for a heap below the stack");
	c = copy_good();
	put32(c, PH(data, p_vaddr), 0xfffff000u);
	put32(c, PH(data, p_memsz), 0x1000);
	expect_refused("a segment ending exactly at 4 GiB (heap above the stack)", c, good.size,
		       "no room for a heap below the stack");
	free(c);

	refuse_patched("an entry point in a data segment", EH(e_entry), 4, data_vaddr,
		       "not in an executable segment");
	refuse_patched("an entry point just past the code segment", EH(e_entry), 4,
		       text_vaddr + text_memsz, "not in an executable segment");
	refuse_patched("entry point 0", EH(e_entry), 4, 0, "not in an executable segment");
	refuse_patched("an odd entry point", EH(e_entry), 4, good.entry + 1,
		       "is odd (instructions are 2-byte aligned)");
	test_no_flags();

	c = copy_good();
	for (int i = 0; i < good.n_load; i++)
		put32(c, PH(good.load[i], p_type), PT_NOTE);
	expect_refused("no PT_LOAD segment", c, good.size, "no loadable segments");
	free(c);
}

static void test_program_headers(void)
{
	refuse_patched("e_phoff past the end of the file", EH(e_phoff), 4, (uint32_t)good.size + 64,
		       "truncated or damaged program header");
	refuse_patched("e_phoff 0xffffffff", EH(e_phoff), 4, 0xffffffffu,
		       "truncated or damaged program header");
	refuse_patched("e_phnum 0xfffe", EH(e_phnum), 2, 0xfffe,
		       "truncated or damaged program header");
	refuse_patched("e_phentsize 16", EH(e_phentsize), 2, 16,
		       "truncated or damaged program header");
	refuse_patched("a PT_INTERP header", PH(good.other, p_type), 4, PT_INTERP,
		       "dynamically linked");
	refuse_patched("a PT_DYNAMIC header", PH(good.other, p_type), 4, PT_DYNAMIC,
		       "dynamically linked");
}

/* The good file loads: entry, symbols, segment bytes, zeroed bss. */
static void test_good(const char *path)
{
	char err[512] = "", got[600], sym[64] = "";
	uint8_t buf[256];
	cy_opts opts;
	cy_vm *vm;
	int rc;

	cy_opts_init(&opts);
	opts.quiet = true;
	rc = cy_vm_create_from_bytes(&vm, good.bytes, good.size, NAME, &opts, err, sizeof(err));
	snprintf(got, sizeof(got), "returned %d, '%s'", rc, err);
	check(rc == 0 && vm, got, "returned 0", "loads %s", path);
	if (rc != 0)
		return;
	snprintf(got, sizeof(got), "0x%x", cy_vm_pc(vm));
	snprintf(err, sizeof(err), "0x%x", good.entry);
	check(cy_vm_pc(vm) == good.entry, got, err, "the pc starts at e_entry (%s)", err);
	rc = cy_vm_symbolize(vm, good.entry, sym, sizeof(sym));
	check(rc == 0 && strcmp(sym, "_start") == 0, sym, "_start", "e_entry symbolizes as _start");
	for (int i = 0; i < good.n_load; i++) {
		int ph = good.load[i];
		uint32_t vaddr = get32(good.bytes, PH(ph, p_vaddr));
		uint32_t off = get32(good.bytes, PH(ph, p_offset));
		uint32_t filesz = get32(good.bytes, PH(ph, p_filesz));
		uint32_t memsz = get32(good.bytes, PH(ph, p_memsz));
		bool same = true, zero = true;
		for (uint32_t a = 0; a < filesz && same; a += sizeof(buf)) {
			uint32_t n = filesz - a < sizeof(buf) ? filesz - a : sizeof(buf);
			same = cy_vm_read(vm, vaddr + a, buf, n) == 0 &&
			       memcmp(buf, good.bytes + off + a, n) == 0;
		}
		check(same, "different bytes", "the file's bytes",
		      "segment %d (0x%x, 0x%x bytes) holds the file's bytes", ph, vaddr, filesz);
		for (uint32_t a = filesz; a < memsz && zero; a++)
			zero = cy_vm_read(vm, vaddr + a, buf, 1) == 0 && buf[0] == 0;
		check(zero, "non-zero bytes", "zeros", "segment %d: its 0x%x bss bytes are zero",
		      ph, memsz - filesz);
	}
	cy_vm_destroy(vm);

	rc = cy_vm_create_from_file(&vm, path, &opts, err, sizeof(err));
	snprintf(got, sizeof(got), "returned %d, '%s'", rc, err);
	check(rc == 0 && vm, got, "returned 0", "cy_vm_create_from_file loads it too");
	cy_vm_destroy(vm);
	rc = cy_vm_create_from_file(&vm, "/nonexistent/prog.elf", &opts, err, sizeof(err));
	check(rc < 0 && !vm && strcmp(err, "/nonexistent/prog.elf: No such file or directory") == 0,
	      err, "/nonexistent/prog.elf: No such file or directory",
	      "a missing file is named with the reason");
}

/* Deterministic pseudo-random numbers (xorshift32). */
static uint32_t rng_state = 0x2545f491u;
static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* One random damage: a byte or a word of the headers, a bit anywhere, the
 * section headers (symbol reading), or a truncation. */
static size_t damage(uint8_t *c, size_t size)
{
	size_t headers = good.phoff + (size_t)good.phnum * good.phentsize;
	size_t shsize = (size_t)good.shnum * good.shentsize;
	const uint32_t values[] = { 0,
				    1,
				    0x7fffffffu,
				    0x80000000u,
				    0xffffffffu,
				    0xfffff000u,
				    (uint32_t)size,
				    (uint32_t)size - 1,
				    (uint32_t)size + 1,
				    rng() };
	uint32_t v = values[rng() % (sizeof(values) / sizeof(values[0]))];
	size_t at;

	switch (rng() % 5) {
	case 0: c[rng() % headers] = (uint8_t)rng(); break;
	case 1:
		at = (rng() % (headers / 4)) * 4;
		put32(c, at, v);
		break;
	case 2: c[rng() % size] ^= (uint8_t)(1u << (rng() % 8)); break;
	case 3:
		if (good.shoff + shsize <= size && shsize >= 4) {
			at = good.shoff + (rng() % (shsize / 4)) * 4;
			put32(c, at, v);
		}
		break;
	default: size = rng() % (size + 1); break;
	}
	return size;
}

static void test_fuzz(int runs)
{
	uint8_t *c = malloc(good.size), *ref = malloc(good.size);
	int loaded = 0, refused = 0, bad = 0;
	char first_bad[600] = "";
	cy_opts opts;

	if (!c || !ref) {
		perror("test_elf");
		exit(2);
	}
	cy_opts_init(&opts);
	opts.quiet = true;
	for (int run = 0; run < runs; run++) {
		char err[512] = "";
		size_t size = good.size;
		cy_vm *vm = (cy_vm *)&opts;
		int rc, n = 1 + (int)(rng() % 3);
		memcpy(c, good.bytes, good.size);
		for (int i = 0; i < n; i++)
			size = damage(c, size);
		memcpy(ref, c, size);
		rc = cy_vm_create_from_bytes(&vm, c, size, NAME, &opts, err, sizeof(err));
		if (memcmp(c, ref, size) != 0) { /* the API takes const bytes */
			if (bad++ == 0)
				snprintf(first_bad, sizeof(first_bad),
					 "run %d: the loader wrote to the caller's bytes", run);
			if (rc == 0)
				cy_vm_destroy(vm);
		} else if (rc == 0 && vm) {
			loaded++;
			cy_vm_destroy(vm);
		} else if (rc < 0 && !vm && strncmp(err, NAME ": ", strlen(NAME ": ")) == 0 &&
			   strlen(err) > strlen(NAME ": ")) {
			refused++;
		} else if (bad++ == 0) {
			snprintf(first_bad, sizeof(first_bad), "run %d: returned %d, '%s'", run, rc,
				 err);
		}
	}
	free(c);
	free(ref);
	check(bad == 0, first_bad, "loaded, or refused with 'NAME: reason'",
	      "fuzz: %d damaged copies each load or are refused with a message, and stay "
	      "unmodified (%d loaded, "
	      "%d refused, %d neither)",
	      runs, loaded, refused, bad);
}

/* RV64: the fields of Elf64 headers, 8-byte words where RV32 has 4. */
#define EH64(field)    offsetof(Elf64_Ehdr, field)
#define PH64(i, field) (phoff + (size_t)(i) * sizeof(Elf64_Phdr) + offsetof(Elf64_Phdr, field))

static uint64_t get64(const uint8_t *b, size_t off)
{
	return get32(b, off) | (uint64_t)get32(b, off + 4) << 32;
}
static void put64(uint8_t *b, size_t off, uint64_t v)
{
	put32(b, off, (uint32_t)v);
	put32(b, off + 4, (uint32_t)(v >> 32));
}

/* A copy of the RV64 file with one segment's address (and size) set. */
static void refuse_moved64(const char *what, const uint8_t *bytes, size_t size, size_t phoff,
			   int seg, uint64_t vaddr, uint64_t memsz, const char *reason)
{
	uint8_t *c = malloc(size);

	if (!c)
		exit(2);
	memcpy(c, bytes, size);
	put64(c, PH64(seg, p_vaddr), vaddr);
	if (memsz)
		put64(c, PH64(seg, p_memsz), memsz);
	expect_refused(what, c, size, reason);
	free(c);
}

static void test_rv64(const char *path)
{
	char err[512] = "", got[600];
	size_t size = 0;
	uint8_t *b = read_file(path, &size);
	size_t phoff;
	int code = -1, data = -1, phnum;
	cy_opts opts;
	cy_vm *vm = NULL;
	int rc;

	if (!b || size < sizeof(Elf64_Ehdr) || b[EI_CLASS] != ELFCLASS64) {
		check(false, "unreadable or not ELF64", "an RV64 ELF", "reads %s", path);
		free(b);
		return;
	}
	cy_opts_init(&opts);
	opts.quiet = true;
	rc = cy_vm_create_from_bytes(&vm, b, size, NAME, &opts, err, sizeof(err));
	snprintf(got, sizeof(got), "returned %d, '%s', xlen %u", rc, err, vm ? cy_vm_xlen(vm) : 0);
	check(rc == 0 && vm && cy_vm_xlen(vm) == 64 && cy_vm_pc(vm) == get64(b, EH64(e_entry)), got,
	      "returned 0, xlen 64, pc at e_entry", "loads an RV64 executable (%s)", path);
	cy_vm_destroy(vm);

	phoff = (size_t)get64(b, EH64(e_phoff));
	phnum = (int)get16(b, EH64(e_phnum));
	for (int i = 0; i < phnum && phoff + (size_t)(i + 1) * sizeof(Elf64_Phdr) <= size; i++) {
		if (get32(b, PH64(i, p_type)) != PT_LOAD)
			continue;
		if (get32(b, PH64(i, p_flags)) & PF_X)
			code = code < 0 ? i : code;
		else
			data = i;
	}
	if (code < 0 || data < 0) {
		check(false, "no code and data PT_LOAD", "both", "finds the segments of %s", path);
		free(b);
		return;
	}
	/* the space is 2^40 bytes: a segment may not reach past it */
	refuse_moved64("an RV64 segment past 2^40 (0xfffffff000 + 0x2000)", b, size, phoff, data,
		       UINT64_C(0xfffffff000), 0x2000, "out of the RV64 guests' 1 TiB");
	refuse_moved64("an RV64 segment at 2^63", b, size, phoff, data, UINT64_C(1) << 63, 0,
		       "out of the RV64 guests' 1 TiB");
	/* code lies below 4 GiB, where the 32-bit pcs reach */
	refuse_moved64("RV64 code at 4 GiB", b, size, phoff, code, UINT64_C(0x100000000), 0,
		       "reaches past 4 GiB");
	refuse_moved64("RV64 code across 4 GiB", b, size, phoff, code, UINT64_C(0xfffff000), 0x2000,
		       "reaches past 4 GiB");
	free(b);
}

int main(int argc, char **argv)
{
	uint8_t *good_bytes, *other;
	size_t other_size = 0;

	setvbuf(stdout, NULL, _IOLBF, 0); /* what passed survives a crash */
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: test_elf GOOD-RV32.elf OTHER-ARCH-64.elf [GOOD-RV64.elf "
				"[FUZZ-RUNS]]\n");
		return 2;
	}
	good_bytes = read_file(argv[1], &good.size);
	other = read_file(argv[2], &other_size);
	good.bytes = good_bytes;
	if (!good_bytes || !other || parse_good() != 0) {
		check(false, "unreadable, or no two PT_LOAD and one other header",
		      "a static RV32 ELF and another ELF", "reads %s and %s", argv[1], argv[2]);
		return 1;
	}
	test_good(argv[1]);
	test_not_elf(other, other_size);
	test_truncated();
	test_segments();
	test_program_headers();
	if (argc >= 4)
		test_rv64(argv[3]);
	test_fuzz(argc == 5 ? atoi(argv[4]) : FUZZ_RUNS);
	free(good_bytes);
	free(other);
	printf("# %d failed checks\n", failures);
	return failures ? 1 : 0;
}

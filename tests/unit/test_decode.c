/* test_decode.c - unit test of the decoder and the disassembler. Every case
 * of decode_cases.S and decode_cases64.S (encoded by GNU as, expected text
 * written by hand from the specification) goes through cy_disasm_xlen and
 * insn_decode, at the XLEN of the file's ELF class.
 * Usage: test_decode [CASES.elf...]; by default decode_cases.elf and
 * decode_cases64.elf next to this program. Prints "ok - ..." / "not ok -
 * ..." per check, exits 1 on a failure. */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/isa.h"
#include "cyclops.h"

#include "unit_check.h"

/* A record of .cases: three words (pc, offset in .text, length), then the
 * instruction as written and the expected text, both NUL-terminated. */
#define CASE_HEADER 12

/* the XLEN of the case file being run: 64 for an ELFCLASS64 file */
static unsigned xlen = 32;

struct section {
	const uint8_t *bytes;
	size_t size;
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The mnemonic: the text up to the first space. */
static void first_word(const char *text, char *out, size_t size)
{
	size_t n = strcspn(text, " ");

	if (n >= size)
		n = size - 1;
	memcpy(out, text, n);
	out[n] = 0;
}

/* Whether the instruction writes a register rd (RISC-V spec formats: S and B
 * have no rd; the rd field of fence, ecall, ebreak, mret, wfi is not a
 * destination). */
static bool has_rd(const char *mn)
{
	static const char *const none[] = { "sb",    "sh",     "sw",   "sd",   "beq",   "bne",
					    "blt",   "bge",    "bltu", "bgeu", "fence", "fence.i",
					    "ecall", "ebreak", "mret", "wfi" };

	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (strcmp(mn, none[i]) == 0)
			return false;
	return true;
}

/* The register rd the expected text names ("addi x5,..." -> 5), as decoded:
 * x0 is redirected to REG_SINK. */
static int expected_rd(const char *text)
{
	const char *p = strchr(text, ' ');
	int r;

	if (!p || sscanf(p + 1, "x%d", &r) != 1)
		return -1;
	return r == 0 ? REG_SINK : r;
}

static void check_valid(uint32_t pc, uint32_t bits, unsigned len, const char *insn,
			const char *text, bool *covered)
{
	char buf[96], got[128], want[128], mn[16];
	struct insn in;
	int n = cy_disasm_xlen(xlen, pc, bits, buf, sizeof(buf));

	if ((unsigned)n == len) {
		snprintf(got, sizeof(got), "%s", buf);
		snprintf(want, sizeof(want), "%s", text);
	} else {
		snprintf(got, sizeof(got), "%s [length %d]", buf, n);
		snprintf(want, sizeof(want), "%s [length %u]", text, len);
	}
	check(strcmp(got, want) == 0, got, want, "disasm: %s (0x%0*x at 0x%x) is '%s'", insn,
	      (int)len * 2, len == 2 ? bits & 0xffff : bits, pc, text);

	/* the decoded fields the interpreter reads: length, pc, op, rd */
	first_word(text, mn, sizeof(mn));
	n = insn_decode(pc, bits, xlen, &in);
	snprintf(got, sizeof(got), "len %d/%d pc 0x%x op %s", n, in.len, in.pc,
		 in.op < OP_COUNT ? insn_names[in.op] : "?");
	snprintf(want, sizeof(want), "len %u/%u pc 0x%x op %s", len, len, pc, mn);
	if (has_rd(mn)) {
		size_t g = strlen(got), w = strlen(want);
		snprintf(got + g, sizeof(got) - g, " rd %d", in.rd);
		snprintf(want + w, sizeof(want) - w, " rd %d", expected_rd(text));
	}
	check(strcmp(got, want) == 0, got, want, "decode: %s: %s", insn, want);
	if (in.op < OP_COUNT)
		covered[in.op] = true;
}

static void check_illegal(uint32_t pc, uint32_t bits, unsigned len, const char *insn)
{
	char buf[96], got[128];
	struct insn in;
	/* the length is in the low bits of the first halfword (spec 1.5) */
	int want_len = (bits & 3) == 3 ? 4 : 2;
	int n = cy_disasm_xlen(xlen, pc, bits, buf, sizeof(buf));
	int dn = insn_decode(pc, bits, xlen, &in);

	snprintf(got, sizeof(got), "returned %d, '%s', decoded %s length %d", n, buf,
		 in.op < OP_COUNT ? insn_names[in.op] : "?", dn);
	check(n == 0 && strncmp(buf, "illegal 0x", 10) == 0 && in.op == OP_illegal &&
		  dn == want_len && in.len == want_len,
	      got, "returned 0, 'illegal 0x...', decoded illegal", "rejects: %s (0x%0*x)", insn,
	      (int)len * 2, len == 2 ? bits & 0xffff : bits);
}

/* Every instruction of the list has a case (but the pseudo-instructions
 * the decoder never makes: a block's end, a fetch fault, the translation
 * tier's entry), and so has every C form: at
 * XLEN 32 those of RV32, at 64 those RV64 adds or changes (the rest decode
 * alike, and the RV32 file has them). */
static void check_coverage(const bool *covered, const char *const *insns, int n_insns)
{
	static const char *const compressed32[] = {
		"c.addi4spn", "c.lw",  "c.sw",   "c.nop",    "c.addi", "c.jal",  "c.li",
		"c.addi16sp", "c.lui", "c.srli", "c.srai",   "c.andi", "c.sub",  "c.xor",
		"c.or",       "c.and", "c.j",    "c.beqz",   "c.bnez", "c.slli", "c.lwsp",
		"c.swsp",     "c.jr",  "c.mv",   "c.ebreak", "c.jalr", "c.add",  NULL,
	};
	static const char *const compressed64[] = {
		"c.ld",   "c.sd",   "c.ldsp", "c.sdsp", "c.addiw", "c.addw",
		"c.subw", "c.slli", "c.srli", "c.srai", NULL,
	};
	const char *const *compressed = xlen == 64 ? compressed64 : compressed32;
	char missing[512] = "";
	size_t m = 0;

	for (int op = 0; op < OP_COUNT; op++) {
		bool rv64 = insn_flags[op] & INSN_RV64;
		if (op == OP_illegal || op == OP_fetch_fault || op == OP_block_end ||
		    op == OP_jit_enter || covered[op] || rv64 != (xlen == 64))
			continue;
		m += (size_t)snprintf(missing + m, sizeof(missing) - m, " %s", insn_names[op]);
		if (m >= sizeof(missing))
			m = sizeof(missing) - 1;
	}
	check(m == 0, missing, "", "coverage: every %s instruction of CY_INSN_LIST has a case",
	      xlen == 64 ? "RV64-only" : "RV32");

	m = 0;
	missing[0] = 0;
	for (size_t i = 0; compressed[i]; i++) {
		bool found = false;
		char mn[16];
		for (int j = 0; j < n_insns && !found; j++) {
			first_word(insns[j], mn, sizeof(mn));
			found = strcmp(mn, compressed[i]) == 0;
		}
		if (!found) {
			m += (size_t)snprintf(missing + m, sizeof(missing) - m, " %s",
					      compressed[i]);
			if (m >= sizeof(missing))
				m = sizeof(missing) - 1;
		}
	}
	check(m == 0, missing, "", "coverage: every compressed form of RV%u has a case", xlen);
}

/* A short buffer is truncated, never overrun. */
static void check_short_buffer(void)
{
	char buf[16];
	bool ok;

	memset(buf, '#', sizeof(buf));
	/* addi x1,x2,-5 */
	cy_disasm(0x10000, 0xffb10093u, buf, 8);
	ok = memcmp(buf, "addi x1", 8) == 0 && buf[8] == '#';
	check(ok, "overrun or not truncated", "'addi x1' and the rest untouched",
	      "disasm: an 8-byte buffer gets 7 characters and a NUL");
}

static int find_sections(Elf *elf, struct section *text, struct section *cases)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return -1;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		const char *name;
		if (!gelf_getshdr(scn, &sh))
			return -1;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		data = elf_rawdata(scn, NULL);
		if (!name || !data)
			continue;
		if (strcmp(name, ".text") == 0)
			*text = (struct section){ data->d_buf, data->d_size };
		else if (strcmp(name, ".cases") == 0)
			*cases = (struct section){ data->d_buf, data->d_size };
		else if (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL)
			return -1; /* unresolved offsets: the file was not linked */
	}
	return text->bytes && cases->bytes ? 0 : -1;
}

/* Runs every record of .cases; returns the number of records. */
static int run_cases(const struct section *text, const struct section *cases)
{
	static const char *insns[1024];
	bool covered[OP_COUNT] = { false };
	int count = 0;
	size_t pos = 0;

	for (;;) {
		const char *insn, *expect, *end;
		uint32_t pc, off, len, bits;
		size_t rest;
		pos = (pos + 3) & ~(size_t)3;
		if (pos + CASE_HEADER > cases->size)
			break;
		pc = le32(cases->bytes + pos);
		off = le32(cases->bytes + pos + 4);
		len = le32(cases->bytes + pos + 8);
		rest = cases->size - pos - CASE_HEADER;
		insn = (const char *)cases->bytes + pos + CASE_HEADER;
		end = memchr(insn, 0, rest);
		expect = end ? end + 1 : NULL;
		end = expect ? memchr(expect, 0, rest - (size_t)(expect - insn)) : NULL;
		if (!end || (len != 2 && len != 4) || off > text->size || len > text->size - off ||
		    count == (int)(sizeof(insns) / sizeof(insns[0]))) {
			check(false, "a damaged record", "a record", "case file: record %d", count);
			return count;
		}
		bits = len == 4
			   ? le32(text->bytes + off)
			   /* the upper half is the next instruction: ignored */
			   : (uint32_t)(text->bytes[off] | text->bytes[off + 1] << 8) | 0xffff0000u;
		if (*expect)
			check_valid(pc, bits, len, insn, expect, covered);
		else
			check_illegal(pc, bits, len, insn);
		insns[count++] = insn;
		pos = (size_t)(end + 1 - (const char *)cases->bytes);
	}
	check_coverage(covered, insns, count);
	return count;
}

/* Runs the cases of one file; -1 if it cannot be read. */
static int run_file(const char *path)
{
	struct section text = { 0 }, cases = { 0 };
	Elf *elf = NULL;
	int fd, count = -1;

	fd = open(path, O_RDONLY);
	if (fd >= 0)
		elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || find_sections(elf, &text, &cases) != 0) {
		check(false, "no readable .text and .cases", "a linked case file", "case file %s",
		      path);
	} else {
		xlen = gelf_getclass(elf) == ELFCLASS64 ? 64 : 32;
		count = run_cases(&text, &cases);
		printf("# %d cases at XLEN %u from %s\n", count, xlen, path);
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return count;
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = { "decode_cases.elf", "decode_cases64.elf" };
	char path[4096];

	setvbuf(stdout, NULL, _IOLBF, 0); /* what passed survives a crash */
	elf_version(EV_CURRENT);
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			run_file(argv[i]);
	} else {
		const char *slash = strrchr(argv[0], '/');
		int dir = slash ? (int)(slash - argv[0]) : 1;
		for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
			snprintf(path, sizeof(path), "%.*s/%s", dir, slash ? argv[0] : ".",
				 defaults[i]);
			run_file(path);
		}
	}
	check_short_buffer();
	printf("# %d failed checks\n", failures);
	return failures ? 1 : 0;
}

/* asm_text.c - instructions for people, as GNU objdump prints them by
 * default: cy_disasm's plain form (x registers, no aliases) rewritten with
 * the ABI's register names, the assembly manual's pseudo-instructions and
 * symbolic targets. The rewriting reads only that documented form, so it
 * follows the one instruction table (core/isa.h) wherever it grows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclops.h"
#include "export/asm_text.h"

static const char *const abi_names[32] = {
	"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
	"a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
	"s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

const char *asm_reg_name(unsigned r) { return r < 32 ? abi_names[r] : NULL; }

#define MAX_OPS 4

/* An operand of the plain form: a register "x5", memory "8(x2)" or
 * "(x2)", or anything else as it is (a number, a CSR, a fence set). */
struct operand {
	enum { OP_REG, OP_MEM, OP_TEXT } kind;
	int reg;
	char text[40]; /* OP_MEM: the offset ("" for none); OP_TEXT: all */
};

static bool parse_reg(const char *s, int *r)
{
	char *end;
	long v;

	if (s[0] != 'x' || s[1] < '0' || s[1] > '9')
		return false;
	v = strtol(s + 1, &end, 10);
	if (*end || v < 0 || v > 31)
		return false;
	*r = (int)v;
	return true;
}

static void parse_operand(const char *s, struct operand *op)
{
	const char *paren = strchr(s, '(');

	memset(op, 0, sizeof(*op));
	if (parse_reg(s, &op->reg)) {
		op->kind = OP_REG;
		return;
	}
	if (paren && s[strlen(s) - 1] == ')') {
		char reg[8] = "";
		size_t n = strlen(paren + 1) - 1;
		if (n < sizeof(reg)) {
			memcpy(reg, paren + 1, n);
			reg[n] = 0;
			if (parse_reg(reg, &op->reg)) {
				op->kind = OP_MEM;
				snprintf(op->text, sizeof(op->text), "%.*s", (int)(paren - s), s);
				return;
			}
		}
	}
	op->kind = OP_TEXT;
	snprintf(op->text, sizeof(op->text), "%s", s);
}

static bool is_reg(const struct operand *op, int r) { return op->kind == OP_REG && op->reg == r; }

static bool is_text(const struct operand *op, const char *t)
{
	return op->kind == OP_TEXT && strcmp(op->text, t) == 0;
}

/* Appends the operand in objdump's form; a target address gets its symbol. */
static void put_operand(char *buf, size_t size, const struct operand *op, bool target,
			const struct program *pg)
{
	size_t n = strlen(buf);

	switch (op->kind) {
	case OP_REG: snprintf(buf + n, size - n, "%s", abi_names[op->reg]); break;
	case OP_MEM: snprintf(buf + n, size - n, "%s(%s)", op->text, abi_names[op->reg]); break;
	case OP_TEXT:
		if (target) {
			uint32_t addr = (uint32_t)strtoul(op->text, NULL, 0);
			int f = pg ? program_func_at(pg, addr) : -1;
			if (f >= 0 && addr == pg->funcs[f].start)
				snprintf(buf + n, size - n, "%x <%s>", addr, pg->funcs[f].name);
			else if (f >= 0)
				snprintf(buf + n, size - n, "%x <%s+0x%x>", addr, pg->funcs[f].name,
					 addr - pg->funcs[f].start);
			else
				snprintf(buf + n, size - n, "%x", addr);
		} else {
			snprintf(buf + n, size - n, "%s", op->text);
		}
		break;
	}
}

/* The instruction mn with ops[0..n) into buf ("ret", "mv a0,a1"); the
 * operand at index target (-1: none) is an address to name. */
static void put_insn(char *buf, size_t size, const char *mn, const struct operand *ops, int n,
		     int target, const struct program *pg)
{
	snprintf(buf, size, "%s", mn);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(buf);
		snprintf(buf + len, size - len, i ? "," : " ");
		put_operand(buf, size, &ops[i], i == target, pg);
	}
}

/* The pseudo-instructions GNU objdump shows by default. */
static void alias(char *buf, size_t size, const char *mn, struct operand *op, int n,
		  const struct program *pg)
{
	struct operand o[MAX_OPS];
	const char *branch_z[][2] = {
		{ "beq", "beqz" }, { "bne", "bnez" }, { "blt", "bltz" }, { "bge", "bgez" }
	};

	if (strcmp(mn, "addi") == 0 && n == 3 && is_text(&op[2], "0") && is_reg(&op[0], 0) &&
	    is_reg(&op[1], 0)) {
		put_insn(buf, size, "nop", op, 0, -1, pg);
		return;
	}
	if (strcmp(mn, "addi") == 0 && n == 3 && is_reg(&op[1], 0)) {
		o[0] = op[0];
		o[1] = op[2];
		put_insn(buf, size, "li", o, 2, -1, pg);
		return;
	}
	if (strcmp(mn, "addi") == 0 && n == 3 && is_text(&op[2], "0")) {
		put_insn(buf, size, "mv", op, 2, -1, pg);
		return;
	}
	if (strcmp(mn, "add") == 0 && n == 3 && is_reg(&op[1], 0)) {
		o[0] = op[0];
		o[1] = op[2];
		put_insn(buf, size, "mv", o, 2, -1, pg);
		return;
	}
	if (strcmp(mn, "addiw") == 0 && n == 3 && is_text(&op[2], "0")) {
		put_insn(buf, size, "sext.w", op, 2, -1, pg);
		return;
	}
	if (strcmp(mn, "xori") == 0 && n == 3 && is_text(&op[2], "-1")) {
		put_insn(buf, size, "not", op, 2, -1, pg);
		return;
	}
	if (strcmp(mn, "sub") == 0 && n == 3 && is_reg(&op[1], 0)) {
		o[0] = op[0];
		o[1] = op[2];
		put_insn(buf, size, "neg", o, 2, -1, pg);
		return;
	}
	if (strcmp(mn, "sltiu") == 0 && n == 3 && is_text(&op[2], "1")) {
		put_insn(buf, size, "seqz", op, 2, -1, pg);
		return;
	}
	if (strcmp(mn, "sltu") == 0 && n == 3 && is_reg(&op[1], 0)) {
		o[0] = op[0];
		o[1] = op[2];
		put_insn(buf, size, "snez", o, 2, -1, pg);
		return;
	}
	if (strcmp(mn, "slt") == 0 && n == 3 && is_reg(&op[2], 0)) {
		put_insn(buf, size, "sltz", op, 2, -1, pg);
		return;
	}
	if (strcmp(mn, "slt") == 0 && n == 3 && is_reg(&op[1], 0)) {
		o[0] = op[0];
		o[1] = op[2];
		put_insn(buf, size, "sgtz", o, 2, -1, pg);
		return;
	}
	if (strcmp(mn, "jal") == 0 && n == 2 && is_reg(&op[0], 0)) {
		put_insn(buf, size, "j", &op[1], 1, 0, pg);
		return;
	}
	if (strcmp(mn, "jal") == 0 && n == 2 && is_reg(&op[0], 1)) {
		put_insn(buf, size, "jal", &op[1], 1, 0, pg);
		return;
	}
	if (strcmp(mn, "jal") == 0) {
		put_insn(buf, size, mn, op, n, 1, pg);
		return;
	}
	if (strcmp(mn, "jalr") == 0 && n == 2 && op[1].kind == OP_MEM &&
	    strcmp(op[1].text, "0") == 0) {
		o[0] = op[1];
		o[0].kind = OP_REG;
		if (is_reg(&op[0], 0) && op[1].reg == 1) {
			put_insn(buf, size, "ret", o, 0, -1, pg);
			return;
		}
		if (is_reg(&op[0], 0)) {
			put_insn(buf, size, "jr", o, 1, -1, pg);
			return;
		}
		if (is_reg(&op[0], 1)) {
			put_insn(buf, size, "jalr", o, 1, -1, pg);
			return;
		}
	}
	if (n == 3 && mn[0] == 'b') { /* branches: the last operand is the target */
		for (size_t k = 0; k < sizeof(branch_z) / sizeof(branch_z[0]); k++)
			if (strcmp(mn, branch_z[k][0]) == 0 && is_reg(&op[1], 0)) {
				o[0] = op[0];
				o[1] = op[2];
				put_insn(buf, size, branch_z[k][1], o, 2, 1, pg);
				return;
			}
		if (strcmp(mn, "blt") == 0 && is_reg(&op[0], 0)) {
			o[0] = op[1];
			o[1] = op[2];
			put_insn(buf, size, "bgtz", o, 2, 1, pg);
			return;
		}
		if (strcmp(mn, "bge") == 0 && is_reg(&op[0], 0)) {
			o[0] = op[1];
			o[1] = op[2];
			put_insn(buf, size, "blez", o, 2, 1, pg);
			return;
		}
		{
			put_insn(buf, size, mn, op, n, 2, pg);
			return;
		}
	}
	if (strncmp(mn, "csrr", 4) == 0 && n == 3) {
		/* csrrs rd,csr,x0 is csrr; a write-only form with rd x0 is
		 * csrw/csrs/csrc (and their immediate forms) */
		static const char *const sets[][2] = {
			{ "csrrw", "csrw" },   { "csrrs", "csrs" },   { "csrrc", "csrc" },
			{ "csrrwi", "csrwi" }, { "csrrsi", "csrsi" }, { "csrrci", "csrci" }
		};
		if (strcmp(mn, "csrrs") == 0 && is_reg(&op[2], 0)) {
			put_insn(buf, size, "csrr", op, 2, -1, pg);
			return;
		}
		for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++)
			if (strcmp(mn, sets[k][0]) == 0 && is_reg(&op[0], 0)) {
				put_insn(buf, size, sets[k][1], &op[1], 2, -1, pg);
				return;
			}
	}
	if (strcmp(mn, "fence") == 0 && n == 2 && is_text(&op[0], "iorw") &&
	    is_text(&op[1], "iorw")) {
		put_insn(buf, size, "fence", op, 0, -1, pg);
		return;
	}
	put_insn(buf, size, mn, op, n, -1, pg);
}

int asm_text(const struct program *pg, uint32_t pc, uint32_t bits, char *buf, size_t size)
{
	char plain[96], *ops_text;
	struct operand op[MAX_OPS];
	int len = cy_disasm_xlen(pg && pg->xlen == 64 ? 64 : 32, pc, bits, plain, sizeof(plain)),
	    n = 0;

	if (len == 0) { /* not an instruction */
		if ((bits & 3) == 3)
			snprintf(buf, size, ".4byte 0x%08x", bits);
		else
			snprintf(buf, size, ".2byte 0x%04x", bits & 0xffff);
		return 0;
	}
	ops_text = strchr(plain, ' ');
	if (ops_text) {
		*ops_text++ = 0;
		for (char *save = NULL, *t = strtok_r(ops_text, ",", &save); t && n < MAX_OPS;
		     t = strtok_r(NULL, ",", &save))
			parse_operand(t, &op[n++]);
	}
	alias(buf, size, plain, op, n, pg);
	return len;
}

/* disasm.c - prints decoded instructions, objdump "-M no-aliases,numeric"
 * style (x registers, absolute branch targets), for fault messages and
 * annotated listings. Compressed instructions print as their expansion. */
#include <stdio.h>

#include "core/csr_list.h"
#include "core/isa.h"

/* The name of a CSR of CSR_LIST (csr.h), NULL for any other. */
static const char *csr_name(uint32_t csr)
{
	switch (csr) {
#define CSR_CASE(id, num, name)                                                                    \
	case num: return name;
		CSR_LIST(CSR_CASE)
#undef CSR_CASE
	default: return NULL;
	}
}

static int reg(int r) { return r == REG_SINK ? 0 : r; }

static void csr_text(uint32_t csr, char *buf, size_t size)
{
	const char *name = csr_name(csr);

	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "0x%x", csr);
}

static void fence_set(unsigned bits, char *out)
{
	static const char names[4] = { 'i', 'o', 'r', 'w' };
	int n = 0;

	for (int i = 0; i < 4; i++)
		if (bits & (8u >> i))
			out[n++] = names[i];
	if (n == 0)
		out[n++] = '0';
	out[n] = 0;
}

void insn_format(const struct insn *in, char *buf, size_t size)
{
	const char *mn = insn_names[in->op];
	int rd = reg(in->rd), rs1 = in->rs1, rs2 = in->rs2;
	char csr[16], pred[5], succ[5];

	switch (insn_formats[in->op]) {
	case FMT_R: snprintf(buf, size, "%s x%d,x%d,x%d", mn, rd, rs1, rs2); break;
	case FMT_I:
		if (in->op == OP_slli || in->op == OP_srli || in->op == OP_srai ||
		    in->op == OP_slliw || in->op == OP_srliw || in->op == OP_sraiw)
			snprintf(buf, size, "%s x%d,x%d,0x%x", mn, rd, rs1, (unsigned)in->imm);
		else
			snprintf(buf, size, "%s x%d,x%d,%d", mn, rd, rs1, in->imm);
		break;
	case FMT_U: {
		uint32_t v = (uint32_t)in->imm;
		if (in->op == OP_auipc)
			v -= in->pc;
		snprintf(buf, size, "%s x%d,0x%x", mn, rd, v >> 12);
		break;
	}
	case FMT_J: snprintf(buf, size, "%s x%d,0x%x", mn, rd, (uint32_t)in->imm); break;
	case FMT_B: snprintf(buf, size, "%s x%d,x%d,0x%x", mn, rs1, rs2, (uint32_t)in->imm); break;
	case FMT_L: snprintf(buf, size, "%s x%d,%d(x%d)", mn, rd, in->imm, rs1); break;
	case FMT_S: snprintf(buf, size, "%s x%d,%d(x%d)", mn, rs2, in->imm, rs1); break;
	case FMT_CSR:
		csr_text((uint32_t)in->imm, csr, sizeof(csr));
		snprintf(buf, size, "%s x%d,%s,x%d", mn, rd, csr, rs1);
		break;
	case FMT_CSRI:
		csr_text((uint32_t)in->imm, csr, sizeof(csr));
		snprintf(buf, size, "%s x%d,%s,%d", mn, rd, csr, rs1);
		break;
	case FMT_AMO: snprintf(buf, size, "%s x%d,x%d,(x%d)", mn, rd, rs2, rs1); break;
	case FMT_LR: snprintf(buf, size, "%s x%d,(x%d)", mn, rd, rs1); break;
	case FMT_FENCE:
		fence_set((unsigned)in->imm >> 4, pred);
		fence_set((unsigned)in->imm & 15, succ);
		snprintf(buf, size, "%s %s,%s", mn, pred, succ);
		break;
	default: snprintf(buf, size, "%s", mn); break;
	}
}

int cy_disasm(uint32_t pc, uint32_t bits, char *buf, size_t size)
{
	return cy_disasm_xlen(32, pc, bits, buf, size);
}

int cy_disasm_xlen(unsigned xlen, uint32_t pc, uint32_t bits, char *buf, size_t size)
{
	struct insn in;
	int len = insn_decode(pc, bits, xlen, &in);

	if (in.op == OP_illegal) {
		snprintf(buf, size, "illegal 0x%0*x", len * 2, len == 2 ? bits & 0xffff : bits);
		return 0;
	}
	insn_format(&in, buf, size);
	return len;
}

/* decode.c - turns RV32IMAC instruction words into struct insn.
 * Compressed instructions decode to the base instruction they expand to
 * (len 2), so the interpreter has one handler per operation. */
#include <string.h>

#include "core/isa.h"

#define INSN_NAME(id, mn, fmt, cls, fl)  mn,
#define INSN_FMT(id, mn, fmt, cls, fl)   fmt,
#define INSN_CLASS(id, mn, fmt, cls, fl) CY_CLASS_##cls,
#define INSN_FLAGS(id, mn, fmt, cls, fl) fl,
const char *const insn_names[OP_COUNT] = { CY_INSN_LIST(INSN_NAME) };
const uint8_t insn_formats[OP_COUNT] = { CY_INSN_LIST(INSN_FMT) };
const uint8_t insn_classes[OP_COUNT] = { CY_INSN_LIST(INSN_CLASS) };
const uint8_t insn_flags[OP_COUNT] = { CY_INSN_LIST(INSN_FLAGS) };

/* Major opcodes (bits 6:0) of the 32-bit encodings. */
enum {
	MAJ_LOAD = 0x03,
	MAJ_MISC_MEM = 0x0f,
	MAJ_OP_IMM = 0x13,
	MAJ_AUIPC = 0x17,
	MAJ_STORE = 0x23,
	MAJ_AMO = 0x2f,
	MAJ_OP = 0x33,
	MAJ_LUI = 0x37,
	MAJ_BRANCH = 0x63,
	MAJ_JALR = 0x67,
	MAJ_JAL = 0x6f,
	MAJ_SYSTEM = 0x73,
};

#define ENC_ECALL     0x00000073u
#define ENC_EBREAK    0x00100073u
#define ENC_MRET      0x30200073u /* privileged spec: machine-mode trap return */
#define ENC_WFI       0x10500073u
#define FUNCT7_BASE   0x00
#define FUNCT7_ALT    0x20 /* sub, sra, srai */
#define FUNCT7_MULDIV 0x01

static uint32_t bits_at(uint32_t v, int hi, int lo)
{
	return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static int32_t sext(uint32_t v, int width)
{
	uint32_t m = 1u << (width - 1);
	return (int32_t)((v ^ m) - m);
}

static int32_t imm_i(uint32_t b) { return (int32_t)b >> 20; }
static int32_t imm_s(uint32_t b)
{
	return (int32_t)(b & 0xfe000000u) >> 20 | (int32_t)bits_at(b, 11, 7);
}
static int32_t imm_b(uint32_t b)
{
	uint32_t v = bits_at(b, 31, 31) << 12 | bits_at(b, 7, 7) << 11 | bits_at(b, 30, 25) << 5 |
		     bits_at(b, 11, 8) << 1;
	return sext(v, 13);
}
static int32_t imm_j(uint32_t b)
{
	uint32_t v = bits_at(b, 31, 31) << 20 | bits_at(b, 19, 12) << 12 |
		     bits_at(b, 20, 20) << 11 | bits_at(b, 30, 21) << 1;
	return sext(v, 21);
}

static void set(struct insn *in, int op, int rd, int rs1, int rs2, int32_t imm)
{
	in->op = (uint8_t)op;
	in->rd = (uint8_t)rd;
	in->rs1 = (uint8_t)rs1;
	in->rs2 = (uint8_t)rs2;
	in->imm = imm;
}

static int decode_op(uint32_t b)
{
	static const uint8_t base[8] = { OP_add, OP_sll, OP_slt, OP_sltu,
					 OP_xor, OP_srl, OP_or,  OP_and };
	static const uint8_t muldiv[8] = { OP_mul, OP_mulh, OP_mulhsu, OP_mulhu,
					   OP_div, OP_divu, OP_rem,    OP_remu };
	uint32_t f3 = bits_at(b, 14, 12), f7 = bits_at(b, 31, 25);

	if (f7 == FUNCT7_BASE)
		return base[f3];
	if (f7 == FUNCT7_MULDIV)
		return muldiv[f3];
	if (f7 == FUNCT7_ALT && f3 == 0)
		return OP_sub;
	if (f7 == FUNCT7_ALT && f3 == 5)
		return OP_sra;
	return OP_illegal;
}

static int decode_op_imm(uint32_t b)
{
	static const uint8_t ops[8] = { OP_addi, OP_slli, OP_slti, OP_sltiu,
					OP_xori, OP_srli, OP_ori,  OP_andi };
	uint32_t f3 = bits_at(b, 14, 12), f7 = bits_at(b, 31, 25);

	if (f3 == 1)
		return f7 == FUNCT7_BASE ? OP_slli : OP_illegal;
	if (f3 == 5)
		return f7 == FUNCT7_BASE ? OP_srli : f7 == FUNCT7_ALT ? OP_srai : OP_illegal;
	return ops[f3];
}

static int decode_amo(uint32_t b)
{
	if (bits_at(b, 14, 12) != 2) /* only .w on RV32 */
		return OP_illegal;
	switch (bits_at(b, 31, 27)) {
	case 0x00: return OP_amoadd_w;
	case 0x01: return OP_amoswap_w;
	case 0x02: return bits_at(b, 24, 20) == 0 ? OP_lr_w : OP_illegal;
	case 0x03: return OP_sc_w;
	case 0x04: return OP_amoxor_w;
	case 0x08: return OP_amoor_w;
	case 0x0c: return OP_amoand_w;
	case 0x10: return OP_amomin_w;
	case 0x14: return OP_amomax_w;
	case 0x18: return OP_amominu_w;
	case 0x1c: return OP_amomaxu_w;
	default: return OP_illegal;
	}
}

static void decode32(uint32_t pc, uint32_t b, struct insn *in)
{
	static const uint8_t branch[8] = { OP_beq, OP_bne, OP_illegal, OP_illegal,
					   OP_blt, OP_bge, OP_bltu,    OP_bgeu };
	static const uint8_t load[8] = { OP_lb,  OP_lh,  OP_lw,      OP_illegal,
					 OP_lbu, OP_lhu, OP_illegal, OP_illegal };
	static const uint8_t store[8] = { OP_sb,      OP_sh,      OP_sw,      OP_illegal,
					  OP_illegal, OP_illegal, OP_illegal, OP_illegal };
	static const uint8_t csr[8] = { OP_illegal, OP_csrrw,  OP_csrrs,  OP_csrrc,
					OP_illegal, OP_csrrwi, OP_csrrsi, OP_csrrci };
	int rd = (int)bits_at(b, 11, 7), rs1 = (int)bits_at(b, 19, 15);
	int rs2 = (int)bits_at(b, 24, 20);
	uint32_t f3 = bits_at(b, 14, 12);
	uint32_t upper = b & 0xfffff000u;

	switch (b & 0x7f) {
	case MAJ_LUI: set(in, OP_lui, rd, 0, 0, (int32_t)upper); break;
	/* auipc keeps its result: pc + imm is known at decode time */
	case MAJ_AUIPC: set(in, OP_auipc, rd, 0, 0, (int32_t)(pc + upper)); break;
	case MAJ_JAL: set(in, OP_jal, rd, 0, 0, (int32_t)(pc + (uint32_t)imm_j(b))); break;
	case MAJ_JALR: set(in, f3 == 0 ? OP_jalr : OP_illegal, rd, rs1, 0, imm_i(b)); break;
	case MAJ_BRANCH:
		set(in, branch[f3], 0, rs1, rs2, (int32_t)(pc + (uint32_t)imm_b(b)));
		break;
	case MAJ_LOAD: set(in, load[f3], rd, rs1, 0, imm_i(b)); break;
	case MAJ_STORE: set(in, store[f3], 0, rs1, rs2, imm_s(b)); break;
	case MAJ_OP_IMM: {
		int op = decode_op_imm(b);
		int32_t imm = imm_i(b);
		if (op == OP_slli || op == OP_srli || op == OP_srai)
			imm = rs2; /* shamt */
		set(in, op, rd, rs1, 0, imm);
		break;
	}
	case MAJ_OP: set(in, decode_op(b), rd, rs1, rs2, 0); break;
	case MAJ_MISC_MEM:
		if (f3 == 0)
			set(in, OP_fence, 0, 0, 0, (int32_t)bits_at(b, 27, 20));
		else if (f3 == 1)
			set(in, OP_fence_i, 0, 0, 0, 0);
		else
			set(in, OP_illegal, 0, 0, 0, 0);
		break;
	case MAJ_SYSTEM:
		if (b == ENC_ECALL)
			set(in, OP_ecall, 0, 0, 0, 0);
		else if (b == ENC_EBREAK)
			set(in, OP_ebreak, 0, 0, 0, 0);
		else if (b == ENC_MRET)
			set(in, OP_mret, 0, 0, 0, 0);
		else if (b == ENC_WFI)
			set(in, OP_wfi, 0, 0, 0, 0);
		else
			set(in, csr[f3], rd, rs1, 0, (int32_t)bits_at(b, 31, 20));
		break;
	case MAJ_AMO: set(in, decode_amo(b), rd, rs1, rs2, 0); break;
	default: set(in, OP_illegal, 0, 0, 0, 0); break;
	}
}

/* The compressed formats' scattered immediates. */
static int32_t cimm6(uint32_t b) { return sext(bits_at(b, 12, 12) << 5 | bits_at(b, 6, 2), 6); }
static int32_t cj_offset(uint32_t b)
{
	uint32_t v = bits_at(b, 12, 12) << 11 | bits_at(b, 11, 11) << 4 | bits_at(b, 10, 9) << 8 |
		     bits_at(b, 8, 8) << 10 | bits_at(b, 7, 7) << 6 | bits_at(b, 6, 6) << 7 |
		     bits_at(b, 5, 3) << 1 | bits_at(b, 2, 2) << 5;
	return sext(v, 12);
}
static int32_t cb_offset(uint32_t b)
{
	uint32_t v = bits_at(b, 12, 12) << 8 | bits_at(b, 11, 10) << 3 | bits_at(b, 6, 5) << 6 |
		     bits_at(b, 4, 3) << 1 | bits_at(b, 2, 2) << 5;
	return sext(v, 9);
}
/* c.lw / c.sw offset: uimm[5:3] = 12:10, uimm[2] = 6, uimm[6] = 5 */
static int32_t clw_offset(uint32_t b)
{
	return (int32_t)(bits_at(b, 12, 10) << 3 | bits_at(b, 6, 6) << 2 | bits_at(b, 5, 5) << 6);
}

#define REG_SP 2
#define REG_RA 1

static void decode_q0(uint32_t b, struct insn *in)
{
	int rdp = 8 + (int)bits_at(b, 4, 2), rs1p = 8 + (int)bits_at(b, 9, 7);

	switch (bits_at(b, 15, 13)) {
	case 0: { /* c.addi4spn */
		uint32_t imm = bits_at(b, 12, 11) << 4 | bits_at(b, 10, 7) << 6 |
			       bits_at(b, 6, 6) << 2 | bits_at(b, 5, 5) << 3;
		set(in, imm ? OP_addi : OP_illegal, rdp, REG_SP, 0, (int32_t)imm);
		break;
	}
	case 2: set(in, OP_lw, rdp, rs1p, 0, clw_offset(b)); break;
	case 6: set(in, OP_sw, 0, rs1p, rdp, clw_offset(b)); break;
	default: set(in, OP_illegal, 0, 0, 0, 0); break; /* FP, reserved */
	}
}

static void decode_q1(uint32_t pc, uint32_t b, struct insn *in)
{
	int rd = (int)bits_at(b, 11, 7);
	int rdp = 8 + (int)bits_at(b, 9, 7), rs2p = 8 + (int)bits_at(b, 4, 2);

	switch (bits_at(b, 15, 13)) {
	case 0: set(in, OP_addi, rd, rd, 0, cimm6(b)); break; /* c.addi, c.nop */
	case 1: set(in, OP_jal, REG_RA, 0, 0, (int32_t)(pc + (uint32_t)cj_offset(b))); break;
	case 2: set(in, OP_addi, rd, 0, 0, cimm6(b)); break; /* c.li */
	case 3:
		if (rd == REG_SP) { /* c.addi16sp */
			uint32_t v = bits_at(b, 12, 12) << 9 | bits_at(b, 6, 6) << 4 |
				     bits_at(b, 5, 5) << 6 | bits_at(b, 4, 3) << 7 |
				     bits_at(b, 2, 2) << 5;
			set(in, v ? OP_addi : OP_illegal, REG_SP, REG_SP, 0, sext(v, 10));
		} else { /* c.lui */
			int32_t imm = cimm6(b) * 4096;
			set(in, imm ? OP_lui : OP_illegal, rd, 0, 0, imm);
		}
		break;
	case 4:
		switch (bits_at(b, 11, 10)) {
		case 0: /* c.srli: shamt[5] must be 0 on RV32 */
			set(in, bits_at(b, 12, 12) ? OP_illegal : OP_srli, rdp, rdp, 0,
			    (int32_t)bits_at(b, 6, 2));
			break;
		case 1:
			set(in, bits_at(b, 12, 12) ? OP_illegal : OP_srai, rdp, rdp, 0,
			    (int32_t)bits_at(b, 6, 2));
			break;
		case 2: set(in, OP_andi, rdp, rdp, 0, cimm6(b)); break;
		default: {
			static const uint8_t ops[4] = { OP_sub, OP_xor, OP_or, OP_and };
			int op = bits_at(b, 12, 12) ? OP_illegal : ops[bits_at(b, 6, 5)];
			set(in, op, rdp, rdp, rs2p, 0);
			break;
		}
		}
		break;
	case 5: set(in, OP_jal, 0, 0, 0, (int32_t)(pc + (uint32_t)cj_offset(b))); break;
	case 6: set(in, OP_beq, 0, rdp, 0, (int32_t)(pc + (uint32_t)cb_offset(b))); break;
	default: set(in, OP_bne, 0, rdp, 0, (int32_t)(pc + (uint32_t)cb_offset(b))); break;
	}
}

static void decode_q2(uint32_t b, struct insn *in)
{
	int rd = (int)bits_at(b, 11, 7), rs2 = (int)bits_at(b, 6, 2);
	bool bit12 = bits_at(b, 12, 12);

	switch (bits_at(b, 15, 13)) {
	case 0: /* c.slli */ set(in, bit12 ? OP_illegal : OP_slli, rd, rd, 0, rs2); break;
	case 2: { /* c.lwsp */
		uint32_t off =
		    bits_at(b, 12, 12) << 5 | bits_at(b, 6, 4) << 2 | bits_at(b, 3, 2) << 6;
		set(in, rd ? OP_lw : OP_illegal, rd, REG_SP, 0, (int32_t)off);
		break;
	}
	case 4:
		if (!bit12 && rs2 == 0) /* c.jr */
			set(in, rd ? OP_jalr : OP_illegal, 0, rd, 0, 0);
		else if (!bit12) /* c.mv */
			set(in, OP_add, rd, 0, rs2, 0);
		else if (rd == 0 && rs2 == 0)
			set(in, OP_ebreak, 0, 0, 0, 0);
		else if (rs2 == 0) /* c.jalr */
			set(in, OP_jalr, REG_RA, rd, 0, 0);
		else /* c.add */
			set(in, OP_add, rd, rd, rs2, 0);
		break;
	case 6: { /* c.swsp */
		uint32_t off = bits_at(b, 12, 9) << 2 | bits_at(b, 8, 7) << 6;
		set(in, OP_sw, 0, REG_SP, rs2, (int32_t)off);
		break;
	}
	default: set(in, OP_illegal, 0, 0, 0, 0); break; /* FP */
	}
}

int insn_decode(uint32_t pc, uint32_t bits, struct insn *in)
{
	int len = insn_length(bits & 0xffff);

	memset(in, 0, sizeof(*in));
	if (len == 4)
		decode32(pc, bits, in);
	else if ((bits & 0xffff) == 0) /* all-zero: defined illegal */
		set(in, OP_illegal, 0, 0, 0, 0);
	else if ((bits & 3) == 0)
		decode_q0(bits & 0xffff, in);
	else if ((bits & 3) == 1)
		decode_q1(pc, bits & 0xffff, in);
	else
		decode_q2(bits & 0xffff, in);
	if (in->op == OP_illegal)
		set(in, OP_illegal, 0, 0, 0, 0);
	if (in->rd == 0)
		in->rd = REG_SINK;
	in->pc = pc;
	in->len = (uint8_t)len;
	return len;
}

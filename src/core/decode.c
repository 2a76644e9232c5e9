/* decode.c - turns RV32IMAC and RV64IMAC instruction words into struct
 * insn. Compressed instructions decode to the base instruction they expand
 * to (len 2), so the interpreter has one handler per operation. The width
 * changes little: RV64 adds the W and D forms (OP-IMM-32, OP-32, ld, lwu,
 * sd, the .d atomics), six-bit shift amounts, and C.LD/C.SD/C.LDSP/C.SDSP/
 * C.ADDIW/C.ADDW/C.SUBW in the places of RV32's C.FLW/C.FSW/C.FLWSP/
 * C.FSWSP/C.JAL and two reserved encodings. */
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
	MAJ_OP_IMM_32 = 0x1b,
	MAJ_STORE = 0x23,
	MAJ_AMO = 0x2f,
	MAJ_OP = 0x33,
	MAJ_LUI = 0x37,
	MAJ_OP_32 = 0x3b,
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

/* OP and OP-32: funct7 picks the base, M or alternate (sub, sra) forms */
static int decode_r_type(uint32_t b, const uint8_t base[8], const uint8_t muldiv[8], int sub,
			 int sra)
{
	uint32_t f3 = bits_at(b, 14, 12), f7 = bits_at(b, 31, 25);

	if (f7 == FUNCT7_BASE)
		return base[f3];
	if (f7 == FUNCT7_MULDIV)
		return muldiv[f3];
	if (f7 == FUNCT7_ALT && f3 == 0)
		return sub;
	if (f7 == FUNCT7_ALT && f3 == 5)
		return sra;
	return OP_illegal;
}

static int decode_op(uint32_t b)
{
	static const uint8_t base[8] = { OP_add, OP_sll, OP_slt, OP_sltu,
					 OP_xor, OP_srl, OP_or,  OP_and };
	static const uint8_t muldiv[8] = { OP_mul, OP_mulh, OP_mulhsu, OP_mulhu,
					   OP_div, OP_divu, OP_rem,    OP_remu };

	return decode_r_type(b, base, muldiv, OP_sub, OP_sra);
}

/* slli/srli/srai: a 5-bit shift amount on RV32, 6-bit on RV64, whose top
 * bit takes bit 25 from funct7 */
static int decode_op_imm(uint32_t b, unsigned xlen)
{
	static const uint8_t ops[8] = { OP_addi, OP_slli, OP_slti, OP_sltiu,
					OP_xori, OP_srli, OP_ori,  OP_andi };
	uint32_t f3 = bits_at(b, 14, 12);
	uint32_t f7 = bits_at(b, 31, 25) & (xlen == 64 ? ~1u : ~0u);

	if (f3 == 1)
		return f7 == FUNCT7_BASE ? OP_slli : OP_illegal;
	if (f3 == 5)
		return f7 == FUNCT7_BASE ? OP_srli : f7 == FUNCT7_ALT ? OP_srai : OP_illegal;
	return ops[f3];
}

/* RV64's OP-IMM-32: addiw, and the word shifts by a 5-bit amount */
static int decode_op_imm_32(uint32_t b)
{
	uint32_t f3 = bits_at(b, 14, 12), f7 = bits_at(b, 31, 25);

	if (f3 == 0)
		return OP_addiw;
	if (f3 == 1)
		return f7 == FUNCT7_BASE ? OP_slliw : OP_illegal;
	if (f3 == 5)
		return f7 == FUNCT7_BASE ? OP_srliw : f7 == FUNCT7_ALT ? OP_sraiw : OP_illegal;
	return OP_illegal;
}

/* RV64's OP-32: the word forms of add, sub, the shifts, mul and div */
static int decode_op_32(uint32_t b)
{
	static const uint8_t base[8] = { OP_addw,    OP_sllw, OP_illegal, OP_illegal,
					 OP_illegal, OP_srlw, OP_illegal, OP_illegal };
	static const uint8_t muldiv[8] = { OP_mulw, OP_illegal, OP_illegal, OP_illegal,
					   OP_divw, OP_divuw,   OP_remw,    OP_remuw };

	return decode_r_type(b, base, muldiv, OP_subw, OP_sraw);
}

/* funct3 2 is the word, 3 the doubleword (RV64 only) */
static int decode_amo(uint32_t b, unsigned xlen)
{
	static const uint8_t w[32] = {
		[0x00] = OP_amoadd_w,  [0x01] = OP_amoswap_w, [0x02] = OP_lr_w,
		[0x03] = OP_sc_w,      [0x04] = OP_amoxor_w,  [0x08] = OP_amoor_w,
		[0x0c] = OP_amoand_w,  [0x10] = OP_amomin_w,  [0x14] = OP_amomax_w,
		[0x18] = OP_amominu_w, [0x1c] = OP_amomaxu_w,
	};
	static const uint8_t d[32] = {
		[0x00] = OP_amoadd_d,  [0x01] = OP_amoswap_d, [0x02] = OP_lr_d,
		[0x03] = OP_sc_d,      [0x04] = OP_amoxor_d,  [0x08] = OP_amoor_d,
		[0x0c] = OP_amoand_d,  [0x10] = OP_amomin_d,  [0x14] = OP_amomax_d,
		[0x18] = OP_amominu_d, [0x1c] = OP_amomaxu_d,
	};
	uint32_t f3 = bits_at(b, 14, 12), f5 = bits_at(b, 31, 27);
	int op;

	if (f3 == 2)
		op = w[f5];
	else if (f3 == 3 && xlen == 64)
		op = d[f5];
	else
		return OP_illegal;
	/* 0 is OP_lui: a hole in the table; lr has no rs2 */
	if (op == OP_lui || ((op == OP_lr_w || op == OP_lr_d) && bits_at(b, 24, 20) != 0))
		return OP_illegal;
	return op;
}

static void decode32(uint32_t pc, uint32_t b, unsigned xlen, struct insn *in)
{
	static const uint8_t branch[8] = { OP_beq, OP_bne, OP_illegal, OP_illegal,
					   OP_blt, OP_bge, OP_bltu,    OP_bgeu };
	static const uint8_t load[2][8] = {
		{ OP_lb, OP_lh, OP_lw, OP_illegal, OP_lbu, OP_lhu, OP_illegal, OP_illegal },
		{ OP_lb, OP_lh, OP_lw, OP_ld, OP_lbu, OP_lhu, OP_lwu, OP_illegal },
	};
	static const uint8_t store[2][8] = {
		{ OP_sb, OP_sh, OP_sw, OP_illegal, OP_illegal, OP_illegal, OP_illegal, OP_illegal },
		{ OP_sb, OP_sh, OP_sw, OP_sd, OP_illegal, OP_illegal, OP_illegal, OP_illegal },
	};
	const int wide = xlen == 64;
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
	case MAJ_LOAD: set(in, load[wide][f3], rd, rs1, 0, imm_i(b)); break;
	case MAJ_STORE: set(in, store[wide][f3], 0, rs1, rs2, imm_s(b)); break;
	case MAJ_OP_IMM: {
		int op = decode_op_imm(b, xlen);
		int32_t imm = imm_i(b);
		if (op == OP_slli || op == OP_srli || op == OP_srai) /* shamt */
			imm = (int32_t)bits_at(b, wide ? 25 : 24, 20);
		set(in, op, rd, rs1, 0, imm);
		break;
	}
	case MAJ_OP_IMM_32: {
		int op = wide ? decode_op_imm_32(b) : OP_illegal;
		set(in, op, rd, rs1, 0, op == OP_addiw ? imm_i(b) : rs2);
		break;
	}
	case MAJ_OP: set(in, decode_op(b), rd, rs1, rs2, 0); break;
	case MAJ_OP_32: set(in, wide ? decode_op_32(b) : OP_illegal, rd, rs1, rs2, 0); break;
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
	case MAJ_AMO: set(in, decode_amo(b, xlen), rd, rs1, rs2, 0); break;
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
/* c.ld / c.sd offset: uimm[5:3] = 12:10, uimm[7:6] = 6:5 */
static int32_t cld_offset(uint32_t b)
{
	return (int32_t)(bits_at(b, 12, 10) << 3 | bits_at(b, 6, 5) << 6);
}

/* c.slli/c.srli/c.srai: shamt[5] = 12, shamt[4:0] = 6:2 */
static uint32_t cshamt(uint32_t b) { return bits_at(b, 12, 12) << 5 | bits_at(b, 6, 2); }

#define REG_SP 2
#define REG_RA 1

static void decode_q0(uint32_t b, unsigned xlen, struct insn *in)
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
	case 3: /* c.ld; RV32: c.flw */
		set(in, xlen == 64 ? OP_ld : OP_illegal, rdp, rs1p, 0, cld_offset(b));
		break;
	case 6: set(in, OP_sw, 0, rs1p, rdp, clw_offset(b)); break;
	case 7: /* c.sd; RV32: c.fsw */
		set(in, xlen == 64 ? OP_sd : OP_illegal, 0, rs1p, rdp, cld_offset(b));
		break;
	default: set(in, OP_illegal, 0, 0, 0, 0); break; /* FP, reserved */
	}
}

static void decode_q1(uint32_t pc, uint32_t b, unsigned xlen, struct insn *in)
{
	int rd = (int)bits_at(b, 11, 7);
	int rdp = 8 + (int)bits_at(b, 9, 7), rs2p = 8 + (int)bits_at(b, 4, 2);

	switch (bits_at(b, 15, 13)) {
	case 0: set(in, OP_addi, rd, rd, 0, cimm6(b)); break; /* c.addi, c.nop */
	case 1:
		if (xlen == 64) /* c.addiw; rd 0 reserved */
			set(in, rd ? OP_addiw : OP_illegal, rd, rd, 0, cimm6(b));
		else /* c.jal */
			set(in, OP_jal, REG_RA, 0, 0, (int32_t)(pc + (uint32_t)cj_offset(b)));
		break;
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
			set(in, bits_at(b, 12, 12) && xlen == 32 ? OP_illegal : OP_srli, rdp, rdp,
			    0, (int32_t)cshamt(b));
			break;
		case 1:
			set(in, bits_at(b, 12, 12) && xlen == 32 ? OP_illegal : OP_srai, rdp, rdp,
			    0, (int32_t)cshamt(b));
			break;
		case 2: set(in, OP_andi, rdp, rdp, 0, cimm6(b)); break;
		default: {
			/* bit 12 set: RV64's c.subw and c.addw, the rest reserved */
			static const uint8_t ops[2][4] = {
				{ OP_sub, OP_xor, OP_or, OP_and },
				{ OP_subw, OP_addw, OP_illegal, OP_illegal },
			};
			int w = (int)bits_at(b, 12, 12);
			int op = w && xlen == 32 ? OP_illegal : ops[w][bits_at(b, 6, 5)];
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

static void decode_q2(uint32_t b, unsigned xlen, struct insn *in)
{
	int rd = (int)bits_at(b, 11, 7), rs2 = (int)bits_at(b, 6, 2);
	bool bit12 = bits_at(b, 12, 12);

	switch (bits_at(b, 15, 13)) {
	case 0: /* c.slli */
		set(in, bit12 && xlen == 32 ? OP_illegal : OP_slli, rd, rd, 0, (int32_t)cshamt(b));
		break;
	case 2: { /* c.lwsp */
		uint32_t off =
		    bits_at(b, 12, 12) << 5 | bits_at(b, 6, 4) << 2 | bits_at(b, 3, 2) << 6;
		set(in, rd ? OP_lw : OP_illegal, rd, REG_SP, 0, (int32_t)off);
		break;
	}
	case 3: { /* c.ldsp; RV32: c.flwsp */
		uint32_t off =
		    bits_at(b, 12, 12) << 5 | bits_at(b, 6, 5) << 3 | bits_at(b, 4, 2) << 6;
		set(in, rd && xlen == 64 ? OP_ld : OP_illegal, rd, REG_SP, 0, (int32_t)off);
		break;
	}
	case 7: { /* c.sdsp; RV32: c.fswsp */
		uint32_t off = bits_at(b, 12, 10) << 3 | bits_at(b, 9, 7) << 6;
		set(in, xlen == 64 ? OP_sd : OP_illegal, 0, REG_SP, rs2, (int32_t)off);
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

int insn_decode(uint32_t pc, uint32_t bits, unsigned xlen, struct insn *in)
{
	int len = insn_length(bits & 0xffff);

	memset(in, 0, sizeof(*in));
	if (len == 4)
		decode32(pc, bits, xlen, in);
	else if ((bits & 0xffff) == 0) /* all-zero: defined illegal */
		set(in, OP_illegal, 0, 0, 0, 0);
	else if ((bits & 3) == 0)
		decode_q0(bits & 0xffff, xlen, in);
	else if ((bits & 3) == 1)
		decode_q1(pc, bits & 0xffff, xlen, in);
	else
		decode_q2(bits & 0xffff, xlen, in);
	if (in->op == OP_illegal)
		set(in, OP_illegal, 0, 0, 0, 0);
	if (in->rd == 0)
		in->rd = REG_SINK;
	in->pc = pc;
	in->len = (uint8_t)len;
	return len;
}

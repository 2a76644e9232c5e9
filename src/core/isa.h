/* isa.h - the instruction set, defined once.
 * CY_INSN_LIST is the only list of instructions: the opcode enum, the names,
 * the disassembler formats, the classes and the interpreter's dispatch table
 * are all derived from it. */
#ifndef CY_ISA_H
#define CY_ISA_H

#include <stdint.h>

#include "cyclops.h"

/* Operand formats, for the disassembler. */
enum insn_format {
	FMT_R,     /* rd, rs1, rs2 */
	FMT_I,     /* rd, rs1, imm */
	FMT_U,     /* rd, imm >> 12 */
	FMT_J,     /* rd, target */
	FMT_B,     /* rs1, rs2, target */
	FMT_L,     /* rd, imm(rs1) */
	FMT_S,     /* rs2, imm(rs1) */
	FMT_CSR,   /* rd, csr, rs1 */
	FMT_CSRI,  /* rd, csr, uimm */
	FMT_AMO,   /* rd, rs2, (rs1) */
	FMT_LR,    /* rd, (rs1) */
	FMT_FENCE, /* pred, succ */
	FMT_NONE,  /* no operands */
};

/* Flags: END ends a basic block (control flow, or a stop of the VM); RV64:
 * the instruction exists only where XLEN is 64 (CY_INSN64_LIST); B, H, W, D:
 * the bytes of its data access (loads, stores, LR/SC and AMOs; whether it
 * reads, writes or both is its class's, insn_data_access). */
#define INSN_END        1u
#define INSN_RV64       2u
#define INSN_SIZE_SHIFT 2
#define INSN_SIZE_MASK  (7u << INSN_SIZE_SHIFT)
#define INSN_B          (1u << INSN_SIZE_SHIFT)
#define INSN_H          (2u << INSN_SIZE_SHIFT)
#define INSN_W          (3u << INSN_SIZE_SHIFT)
#define INSN_D          (4u << INSN_SIZE_SHIFT)

/* _(id, mnemonic, format, class, flags): every instruction, those of RV32
 * and those RV64 adds. Where XLEN is 64 the RV32 rows operate on 64-bit
 * registers (the RISC-V unprivileged specification, RV64I); the rows below
 * are the word (W) and doubleword (D) forms it adds. */
#define CY_INSN_LIST(_) CY_INSN32_LIST(_) CY_INSN64_LIST(_)

#define CY_INSN64_LIST(_)                                                                          \
	_(ld, "ld", FMT_L, LOAD, INSN_RV64 | INSN_D)                                               \
	_(lwu, "lwu", FMT_L, LOAD, INSN_RV64 | INSN_W)                                             \
	_(sd, "sd", FMT_S, STORE, INSN_RV64 | INSN_D)                                              \
	_(addiw, "addiw", FMT_I, ALU, INSN_RV64)                                                   \
	_(slliw, "slliw", FMT_I, ALU, INSN_RV64)                                                   \
	_(srliw, "srliw", FMT_I, ALU, INSN_RV64)                                                   \
	_(sraiw, "sraiw", FMT_I, ALU, INSN_RV64)                                                   \
	_(addw, "addw", FMT_R, ALU, INSN_RV64)                                                     \
	_(subw, "subw", FMT_R, ALU, INSN_RV64)                                                     \
	_(sllw, "sllw", FMT_R, ALU, INSN_RV64)                                                     \
	_(srlw, "srlw", FMT_R, ALU, INSN_RV64)                                                     \
	_(sraw, "sraw", FMT_R, ALU, INSN_RV64)                                                     \
	_(mulw, "mulw", FMT_R, MUL, INSN_RV64)                                                     \
	_(divw, "divw", FMT_R, DIV, INSN_RV64)                                                     \
	_(divuw, "divuw", FMT_R, DIV, INSN_RV64)                                                   \
	_(remw, "remw", FMT_R, DIV, INSN_RV64)                                                     \
	_(remuw, "remuw", FMT_R, DIV, INSN_RV64)                                                   \
	_(lr_d, "lr.d", FMT_LR, AMO, INSN_RV64 | INSN_D)                                           \
	_(sc_d, "sc.d", FMT_AMO, AMO, INSN_RV64 | INSN_D)                                          \
	_(amoswap_d, "amoswap.d", FMT_AMO, AMO, INSN_RV64 | INSN_D)                                \
	_(amoadd_d, "amoadd.d", FMT_AMO, AMO, INSN_RV64 | INSN_D)                                  \
	_(amoxor_d, "amoxor.d", FMT_AMO, AMO, INSN_RV64 | INSN_D)                                  \
	_(amoand_d, "amoand.d", FMT_AMO, AMO, INSN_RV64 | INSN_D)                                  \
	_(amoor_d, "amoor.d", FMT_AMO, AMO, INSN_RV64 | INSN_D)                                    \
	_(amomin_d, "amomin.d", FMT_AMO, AMO, INSN_RV64 | INSN_D)                                  \
	_(amomax_d, "amomax.d", FMT_AMO, AMO, INSN_RV64 | INSN_D)                                  \
	_(amominu_d, "amominu.d", FMT_AMO, AMO, INSN_RV64 | INSN_D)                                \
	_(amomaxu_d, "amomaxu.d", FMT_AMO, AMO, INSN_RV64 | INSN_D)

#define CY_INSN32_LIST(_)                                                                          \
	_(lui, "lui", FMT_U, ALU, 0)                                                               \
	_(auipc, "auipc", FMT_U, ALU, 0)                                                           \
	_(jal, "jal", FMT_J, JUMP, INSN_END)                                                       \
	_(jalr, "jalr", FMT_L, JUMP, INSN_END)                                                     \
	_(beq, "beq", FMT_B, BRANCH, INSN_END)                                                     \
	_(bne, "bne", FMT_B, BRANCH, INSN_END)                                                     \
	_(blt, "blt", FMT_B, BRANCH, INSN_END)                                                     \
	_(bge, "bge", FMT_B, BRANCH, INSN_END)                                                     \
	_(bltu, "bltu", FMT_B, BRANCH, INSN_END)                                                   \
	_(bgeu, "bgeu", FMT_B, BRANCH, INSN_END)                                                   \
	_(lb, "lb", FMT_L, LOAD, INSN_B)                                                           \
	_(lh, "lh", FMT_L, LOAD, INSN_H)                                                           \
	_(lw, "lw", FMT_L, LOAD, INSN_W)                                                           \
	_(lbu, "lbu", FMT_L, LOAD, INSN_B)                                                         \
	_(lhu, "lhu", FMT_L, LOAD, INSN_H)                                                         \
	_(sb, "sb", FMT_S, STORE, INSN_B)                                                          \
	_(sh, "sh", FMT_S, STORE, INSN_H)                                                          \
	_(sw, "sw", FMT_S, STORE, INSN_W)                                                          \
	_(addi, "addi", FMT_I, ALU, 0)                                                             \
	_(slti, "slti", FMT_I, ALU, 0)                                                             \
	_(sltiu, "sltiu", FMT_I, ALU, 0)                                                           \
	_(xori, "xori", FMT_I, ALU, 0)                                                             \
	_(ori, "ori", FMT_I, ALU, 0)                                                               \
	_(andi, "andi", FMT_I, ALU, 0)                                                             \
	_(slli, "slli", FMT_I, ALU, 0)                                                             \
	_(srli, "srli", FMT_I, ALU, 0)                                                             \
	_(srai, "srai", FMT_I, ALU, 0)                                                             \
	_(add, "add", FMT_R, ALU, 0)                                                               \
	_(sub, "sub", FMT_R, ALU, 0)                                                               \
	_(sll, "sll", FMT_R, ALU, 0)                                                               \
	_(slt, "slt", FMT_R, ALU, 0)                                                               \
	_(sltu, "sltu", FMT_R, ALU, 0)                                                             \
	_(xor, "xor", FMT_R, ALU, 0)                                                               \
	_(srl, "srl", FMT_R, ALU, 0)                                                               \
	_(sra, "sra", FMT_R, ALU, 0)                                                               \
	_(or, "or", FMT_R, ALU, 0)                                                                 \
	_(and, "and", FMT_R, ALU, 0)                                                               \
	_(fence, "fence", FMT_FENCE, FENCE, 0)                                                     \
	_(fence_i, "fence.i", FMT_NONE, FENCE, INSN_END)                                           \
	_(ecall, "ecall", FMT_NONE, ECALL, INSN_END)                                               \
	_(ebreak, "ebreak", FMT_NONE, EBREAK, INSN_END)                                            \
	_(csrrw, "csrrw", FMT_CSR, CSR, 0)                                                         \
	_(csrrs, "csrrs", FMT_CSR, CSR, 0)                                                         \
	_(csrrc, "csrrc", FMT_CSR, CSR, 0)                                                         \
	_(csrrwi, "csrrwi", FMT_CSRI, CSR, 0)                                                      \
	_(csrrsi, "csrrsi", FMT_CSRI, CSR, 0)                                                      \
	_(csrrci, "csrrci", FMT_CSRI, CSR, 0)                                                      \
	_(mul, "mul", FMT_R, MUL, 0)                                                               \
	_(mulh, "mulh", FMT_R, MULH, 0)                                                            \
	_(mulhsu, "mulhsu", FMT_R, MULH, 0)                                                        \
	_(mulhu, "mulhu", FMT_R, MULH, 0)                                                          \
	_(div, "div", FMT_R, DIV, 0)                                                               \
	_(divu, "divu", FMT_R, DIV, 0)                                                             \
	_(rem, "rem", FMT_R, DIV, 0)                                                               \
	_(remu, "remu", FMT_R, DIV, 0)                                                             \
	_(lr_w, "lr.w", FMT_LR, AMO, INSN_W)                                                       \
	_(sc_w, "sc.w", FMT_AMO, AMO, INSN_W)                                                      \
	_(amoswap_w, "amoswap.w", FMT_AMO, AMO, INSN_W)                                            \
	_(amoadd_w, "amoadd.w", FMT_AMO, AMO, INSN_W)                                              \
	_(amoxor_w, "amoxor.w", FMT_AMO, AMO, INSN_W)                                              \
	_(amoand_w, "amoand.w", FMT_AMO, AMO, INSN_W)                                              \
	_(amoor_w, "amoor.w", FMT_AMO, AMO, INSN_W)                                                \
	_(amomin_w, "amomin.w", FMT_AMO, AMO, INSN_W)                                              \
	_(amomax_w, "amomax.w", FMT_AMO, AMO, INSN_W)                                              \
	_(amominu_w, "amominu.w", FMT_AMO, AMO, INSN_W)                                            \
	_(amomaxu_w, "amomaxu.w", FMT_AMO, AMO, INSN_W)                                            \
	/* internal: an undecodable word (faults only if executed) */                              \
	_(illegal, "illegal", FMT_NONE, NONE, INSN_END)                                            \
	/* internal: execution reached unmapped memory */                                          \
	_(fetch_fault, "fetch-fault", FMT_NONE, NONE, INSN_END)                                    \
	/* internal: the first instruction of a block a translation starts (core/jit.c) */         \
	_(jit_enter, "jit-enter", FMT_NONE, NONE, 0)                                               \
	/* internal: a block that ends without a jump falls through */                             \
	_(block_end, "block-end", FMT_NONE, NONE, INSN_END)                                        \
	/* machine mode (the bare platform); illegal on the linux platform */                      \
	_(mret, "mret", FMT_NONE, JUMP, INSN_END)                                                  \
	_(wfi, "wfi", FMT_NONE, ALU, INSN_END)

enum insn_op {
#define INSN_ENUM(id, mn, fmt, cls, fl) OP_##id,
	CY_INSN_LIST(INSN_ENUM)
#undef INSN_ENUM
	    OP_COUNT
};

_Static_assert(OP_COUNT <= 256, "opcodes must fit in insn.op");

/* The register that writes to x0 are redirected to, so handlers never test
 * for rd == 0: x[REG_SINK] is written and never read. */
#define REG_SINK 32

/* One decoded instruction: all an interpreter handler reads. */
struct insn {
	const void *handler; /* the interpreter's code for op (computed goto) */
	int32_t imm;         /* branches and jal: the absolute target; CSRs: csr */
	uint32_t pc;
	uint32_t before;  /* cycles of its block before this instruction */
	uint32_t after;   /* ... and up to its end: after - before = cost */
	uint8_t op;       /* enum insn_op */
	uint8_t rd;       /* REG_SINK when the encoding says x0 */
	uint8_t rs1, rs2; /* CSR immediates: uimm in rs1 */
	uint8_t len;      /* 2 (compressed) or 4 */
	uint8_t index;    /* position in its block */
};

_Static_assert(sizeof(struct insn) <= 32, "decoded instructions stay small");

extern const char *const insn_names[OP_COUNT];
extern const uint8_t insn_formats[OP_COUNT];
extern const uint8_t insn_classes[OP_COUNT];
extern const uint8_t insn_flags[OP_COUNT];

/* The bytes an instruction's data access moves: 0 when it makes none. */
static inline uint32_t insn_access_size(unsigned op)
{
	unsigned code = (insn_flags[op] & INSN_SIZE_MASK) >> INSN_SIZE_SHIFT;

	return code ? 1u << (code - 1) : 0;
}

/* Whether in is one of the decoder's pseudo-ops (a block's closing
 * block_end, a fetch fault), which stand in a block but never retire. */
static inline bool insn_is_pseudo(const struct insn *in)
{
	return in->op == OP_block_end || in->op == OP_fetch_fault;
}

/* Decodes one instruction at pc from its bits (the low 16 bits suffice for
 * a compressed one) for XLEN xlen, 32 or 64 (the encodings of RV64 that
 * RV32 lacks, and the compressed ones whose meaning differs). Returns the
 * length, 2 or 4; an invalid encoding decodes to OP_illegal with the
 * length its low bits imply. */
int insn_decode(uint32_t pc, uint32_t bits, unsigned xlen, struct insn *out);

/* Length of the instruction whose first halfword is lo. */
static inline int insn_length(uint32_t lo) { return (lo & 3) == 3 ? 4 : 2; }

/* Writes the disassembly of a decoded instruction. */
void insn_format(const struct insn *in, char *buf, size_t size);

#endif

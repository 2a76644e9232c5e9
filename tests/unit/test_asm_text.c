/* test_asm_text.c - the listings' disassembly (export/asm_text.c) on words
 * encoded by hand from the RISC-V unprivileged specification's formats,
 * each expected as the assembly manual's pseudo-instruction table and GNU
 * objdump's default output write it: ABI register names, ret/mv/li/j/...,
 * targets with their symbol. Prints "ok - ..." / "not ok - ..." lines. */
#include <stdio.h>
#include <string.h>

#include "export/asm_text.h"

static int failed;

/* I-type: imm[11:0] rs1 funct3 rd opcode */
static uint32_t i_type(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static uint32_t r_type(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd,
		       unsigned op)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

/* B-type: the offset's bits 12, 10:5, 4:1, 11 */
static uint32_t b_type(int32_t off, unsigned rs2, unsigned rs1, unsigned f3)
{
	uint32_t o = (uint32_t)off;
	return ((o >> 12) & 1) << 31 | ((o >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
	       ((o >> 1) & 0xf) << 8 | ((o >> 11) & 1) << 7 | 0x63;
}

/* J-type: the offset's bits 20, 10:1, 11, 19:12 */
static uint32_t j_type(int32_t off, unsigned rd)
{
	uint32_t o = (uint32_t)off;
	return ((o >> 20) & 1) << 31 | ((o >> 1) & 0x3ff) << 21 | ((o >> 11) & 1) << 20 |
	       ((o >> 12) & 0xff) << 12 | rd << 7 | 0x6f;
}

static void check(const struct program *pg, uint32_t pc, uint32_t bits, const char *want)
{
	char got[160];

	asm_text(pg, pc, bits, got, sizeof(got));
	if (strcmp(got, want) == 0) {
		printf("ok - asm_text: %08x at %x: %s\n", bits, pc, want);
	} else {
		printf("not ok - asm_text: %08x at %x: got '%s', expected '%s'\n", bits, pc, got,
		       want);
		failed++;
	}
}

int main(void)
{
	/* two functions, as the symbol table would give them */
	struct prog_func funcs[] = { { "main", NULL, 0x10000, 0x10040, 0x20000 },
				     { "work", NULL, 0x10040, 0x10080, 0x20000 } };
	struct program pg = { .funcs = funcs, .n_funcs = 2 };
	enum { X0, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5 };

	check(&pg, 0x10000, i_type(0, RA, 0, X0, 0x67), "ret");           /* jalr x0,0(ra) */
	check(&pg, 0x10000, i_type(0, A5, 0, X0, 0x67), "jr a5");         /* jalr x0,0(a5) */
	check(&pg, 0x10000, i_type(0, A5, 0, RA, 0x67), "jalr a5");       /* jalr ra,0(a5) */
	check(&pg, 0x10000, i_type(8, A5, 0, T0, 0x67), "jalr t0,8(a5)"); /* no alias */
	check(&pg, 0x10000, i_type(0, A0, 0, A1, 0x13), "mv a1,a0");      /* addi a1,a0,0 */
	check(&pg, 0x10000, i_type(5, X0, 0, A0, 0x13), "li a0,5");       /* addi a0,x0,5 */
	check(&pg, 0x10000, i_type(-3, X0, 0, A0, 0x13), "li a0,-3");
	check(&pg, 0x10000, i_type(0, X0, 0, X0, 0x13), "nop");
	check(&pg, 0x10000, i_type(-16, SP, 0, SP, 0x13), "addi sp,sp,-16");
	check(&pg, 0x10000, i_type(-1, A0, 4, A0, 0x13), "not a0,a0");       /* xori -1 */
	check(&pg, 0x10000, i_type(1, A1, 3, A0, 0x13), "seqz a0,a1");       /* sltiu 1 */
	check(&pg, 0x10000, r_type(0x20, A1, X0, 0, A0, 0x33), "neg a0,a1"); /* sub a0,x0,a1 */
	check(&pg, 0x10000, r_type(0, A1, X0, 3, A0, 0x33), "snez a0,a1");   /* sltu a0,x0,a1 */
	check(&pg, 0x10000, r_type(0, A2, A1, 0, A0, 0x33), "add a0,a1,a2");
	check(&pg, 0x10000, r_type(1, A2, A1, 0, A0, 0x33), "mul a0,a1,a2");
	check(&pg, 0x10000, i_type(8, SP, 2, S0, 0x03), "lw s0,8(sp)");
	check(&pg, 0x10000, (8u >> 5) << 25 | S1 << 20 | SP << 15 | 2 << 12 | (8u & 31) << 7 | 0x23,
	      "sw s1,8(sp)");
	/* jumps and branches name their targets: a function's start, or inside */
	check(&pg, 0x10000, j_type(0x40, RA), "jal 10040 <work>");
	check(&pg, 0x10010, j_type(-0x10, X0), "j 10000 <main>");
	check(&pg, 0x10050, j_type(0x8, T0), "jal t0,10058 <work+0x18>");
	check(&pg, 0x10044, b_type(-4, X0, A0, 0), "beqz a0,10040 <work>");
	check(&pg, 0x10044, b_type(8, X0, A0, 1), "bnez a0,1004c <work+0xc>");
	check(&pg, 0x10044, b_type(8, A1, X0, 4), "bgtz a1,1004c <work+0xc>"); /* blt x0,a1 */
	check(&pg, 0x10044, b_type(8, A1, X0, 5), "blez a1,1004c <work+0xc>"); /* bge x0,a1 */
	check(&pg, 0x10044, b_type(8, A1, A0, 6), "bltu a0,a1,1004c <work+0xc>");
	check(&pg, 0x10100, b_type(8, A1, A0, 0), "beq a0,a1,10108"); /* no symbol there */
	/* CSRs: csrrs rd,csr,x0 reads; rd x0 writes */
	check(&pg, 0x10000, i_type(0xc00, X0, 2, A0, 0x73), "csrr a0,cycle");
	check(&pg, 0x10000, i_type(0x340, A1, 1, X0, 0x73), "csrw mscratch,a1");
	check(&pg, 0x10000, 0x00000073, "ecall");
	/* compressed: as the instruction they expand to */
	check(&pg, 0x10000, 0x8082, "ret");      /* c.jr ra */
	check(&pg, 0x10000, 0x852e, "mv a0,a1"); /* c.mv a0,a1: add a0,x0,a1 */
	check(&pg, 0x10000, 0x4515, "li a0,5");  /* c.li a0,5 */
	check(&pg, 0x10000, 0x0001, "nop");      /* c.nop */
	/* not an instruction */
	check(&pg, 0x10000, 0x0000, ".2byte 0x0000");
	check(NULL, 0x10000, j_type(0x40, RA), "jal 10040"); /* no symbols */
	return failed ? 1 : 0;
}

# rv32uc.S - RV32C: the compressed forms compute what their 32-bit
# expansions do (ISA manual, "C" chapter). .option rvc with explicit c.*
# mnemonics, so each one really is 16 bits.
#include "riscv_test.h"

	.option rvc
RVTEST_CODE_BEGIN
	TEST_CASE(2, s0, 0x1f, li s0, 0x10; c.addi s0, 15)
	TEST_CASE(3, a0, 0xfffffff0, c.li a0, -16)
	TEST_CASE(4, a0, 0x0001f000, c.lui a0, 0x1f)
	TEST_CASE(5, s1, 0x5, li s1, 0xa; c.srli s1, 1)
	TEST_CASE(6, s1, 0xffffffff, li s1, 0x80000000; c.srai s1, 31)
	TEST_CASE(7, s1, 0x4, li s1, 0x7; c.andi s1, 4)
	TEST_CASE(8, a0, 0x8, li a0, 1; c.slli a0, 3)
	TEST_CASE(9, a0, 0x7, li a0, 3; li a1, 4; c.add a0, a1)
	TEST_CASE(10, s0, 0xffffffff, li s0, 3; li s1, 4; c.sub s0, s1)
	TEST_CASE(11, s0, 0x6, li s0, 3; li s1, 5; c.xor s0, s1)
	TEST_CASE(12, s0, 0x7, li s0, 3; li s1, 5; c.or s0, s1)
	TEST_CASE(13, s0, 0x1, li s0, 3; li s1, 5; c.and s0, s1)
	TEST_CASE(14, a0, 0x12, li a1, 0x12; c.mv a0, a1)
	# c.sw/c.lw through s0, c.swsp/c.lwsp through sp
	TEST_CASE(15, a1, 0xcafe, la s0, data; li a2, 0xcafe; c.sw a2, 4(s0); c.lw a1, 4(s0))
	TEST_CASE(16, a1, 0xbeef, la sp, data; li a2, 0xbeef; c.swsp a2, 8(sp); c.lwsp a1, 8(sp))
	TEST_CASE(17, sp, 0, la a3, data; mv sp, a3; c.addi16sp sp, 32; addi sp, sp, -32; sub sp, sp, a3)
	TEST_CASE(18, s0, 0, mv a3, sp; c.addi4spn s0, sp, 16; addi s0, s0, -16; sub s0, s0, a3)
	# jumps and branches
	TEST_CASE(19, a0, 1, li a0, 0; c.j 1f; li a0, 2; 1: c.addi a0, 1)
	TEST_CASE(20, a0, 1, li a0, 0; c.jal 1f; j 2f; 1: c.addi a0, 1; c.jr ra; 2:)
	TEST_CASE(21, a0, 3, li a0, 0; la a1, 1f; c.jalr a1; c.addi a0, 2; j 2f; 1: c.addi a0, 1; c.jr ra; 2:)
	TEST_CASE(22, s0, 0, li s0, 0; c.beqz s0, 1f; li s0, 9; 1: c.bnez s0, fail)
	TEST_PASSFAIL
RVTEST_CODE_END

RVTEST_DATA_BEGIN
data:	.word 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
RVTEST_DATA_END

# rv32ui.S - RV32I in machine mode: arithmetic, shifts, compares, upper
# immediates, loads and stores of every width, branches and jumps. Each
# expected value is worked out from the ISA manual's definition.
#include "riscv_test.h"

RVTEST_CODE_BEGIN
	TEST_CASE(2, a0, 0x00000003, li a1, 1; li a2, 2; add a0, a1, a2)
	TEST_CASE(3, a0, 0xffffffff, li a1, 1; li a2, 2; sub a0, a1, a2)
	TEST_CASE(4, a0, 0x80000000, li a1, 0x7fffffff; addi a0, a1, 1)	# wraps
	TEST_CASE(5, a0, 0xfffff800, addi a0, zero, -2048)
	TEST_CASE(6, a0, 0x00f000f0, li a1, 0x0ff00ff0; li a2, 0xf0f0f0f0; and a0, a1, a2)
	TEST_CASE(7, a0, 0xfff0fff0, li a1, 0xff00ff00; li a2, 0x0ff00ff0; or a0, a1, a2)
	TEST_CASE(8, a0, 0xf00ff00f, li a1, 0xff00ff00; li a2, 0x0f0f0f0f; xor a0, a1, a2; xori a0, a0, -1; xori a0, a0, -1)	# xori -1 is not
	# shifts use the low 5 bits of rs2; srai copies the sign bit
	TEST_CASE(9, a0, 0x80000000, li a1, 1; li a2, 63; sll a0, a1, a2)
	TEST_CASE(10, a0, 0x00000001, li a1, 0x80000000; srli a0, a1, 31)
	TEST_CASE(11, a0, 0xffffffff, li a1, 0x80000000; srai a0, a1, 31)
	TEST_CASE(12, a0, 0xfc000000, li a1, 0x80000000; li a2, 37; sra a0, a1, a2)
	# compares: signed and unsigned see -1 differently
	TEST_CASE(13, a0, 1, li a1, -1; li a2, 1; slt a0, a1, a2)
	TEST_CASE(14, a0, 0, li a1, -1; li a2, 1; sltu a0, a1, a2)
	TEST_CASE(15, a0, 1, li a1, 5; sltiu a0, a1, -1)	# imm sign-extends to 0xffffffff
	TEST_CASE(16, a0, 0x12345000, lui a0, 0x12345)
	# auipc adds to its own address (0x80000000 region)
	TEST_CASE(17, a0, 0, 1: auipc a1, 0; la a2, 1b; sub a0, a1, a2)
	# loads sign- or zero-extend; stores write only their width
	TEST_CASE(18, a0, 0xffffff80, la a1, data; lb a0, 0(a1))
	TEST_CASE(19, a0, 0x00000080, la a1, data; lbu a0, 0(a1))
	TEST_CASE(20, a0, 0xffff8080, la a1, data; lh a0, 0(a1))
	TEST_CASE(21, a0, 0x00008080, la a1, data; lhu a0, 0(a1))
	TEST_CASE(22, a0, 0x7f7f8080, la a1, data; lw a0, 0(a1))
	TEST_CASE(23, a0, 0x7f7f55aa, la a1, data; li a2, 0x55aa; sh a2, 0(a1); lw a0, 0(a1))
	TEST_CASE(24, a0, 0x7f1255aa, la a1, data; li a2, 0x3412; sb a2, 2(a1); lw a0, 0(a1))
	TEST_CASE(25, a0, 0xdeadbeef, la a1, data; li a2, 0xdeadbeef; sw a2, 4(a1); lw a0, 4(a1))
	# a misaligned word: the platform performs it (docs/bare-metal.md)
	# little-endian bytes at data+3..: 7f | ef be ad de | 44 33 22 11
	TEST_CASE(26, a0, 0x44deadbe, la a1, data; li a2, 0xdeadbeef; sw a2, 4(a1); li a2, 0x11223344; sw a2, 8(a1); lw a0, 3(a1); li a3, 0xadbeef7f; bne a0, a3, fail; lw a0, 5(a1))
	# branches: taken and not taken, signed and unsigned
	TEST_CASE(27, a0, 6, li a0, 0; li a1, -1; li a2, 1; blt a1, a2, 1f; addi a0, a0, 100; 1: addi a0, a0, 1; bltu a1, a2, 2f; addi a0, a0, 2; 2: bge a2, a1, 3f; addi a0, a0, 100; 3: bgeu a2, a1, 4f; addi a0, a0, 3; 4: beq a1, a1, 5f; addi a0, a0, 100; 5: bne a1, a1, 6f; j 7f; 6: addi a0, a0, 100; 7:)
	# jal links the next address; jalr clears bit 0 of the target
	TEST_CASE(28, a0, 0, jal ra, 1f; 2: j 3f; 1: la a1, 2b; sub a0, ra, a1; bnez a0, fail; la a2, 3f; addi a2, a2, 1; jalr zero, 0(a2); j fail; 3: li a0, 0)
	TEST_CASE(29, zero, 0, li a0, 1; add zero, a0, a0)	# x0 stays 0
	TEST_PASSFAIL
RVTEST_CODE_END

RVTEST_DATA_BEGIN
data:	.word 0x7f7f8080, 0, 0, 0
RVTEST_DATA_END

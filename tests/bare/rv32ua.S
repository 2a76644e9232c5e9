# rv32ua.S - RV32A: lr/sc pairs, sc.w without a reservation failing (rd 1,
# memory unchanged: the ISA manual's "sc.w ... writes a nonzero value to rd
# on failure"), a reservation consumed by its sc, and each AMO's old value
# and stored result.
#include "riscv_test.h"

RVTEST_CODE_BEGIN
	# no lr.w before: sc.w fails, writes 1, and the word keeps its value
	TEST_CASE(2, a0, 1, la a1, word; li a2, 99; sc.w a0, a2, (a1))
	TEST_CASE(3, a0, 0x11111111, la a1, word; lw a0, 0(a1))
	# lr.w then sc.w to the same address succeeds with 0
	TEST_CASE(4, a0, 0, la a1, word; lr.w a3, (a1); addi a3, a3, 1; sc.w a0, a3, (a1))
	TEST_CASE(5, a0, 0x11111112, la a1, word; lw a0, 0(a1))
	# the sc consumed the reservation: a second sc.w fails
	TEST_CASE(6, a0, 1, la a1, word; li a2, 7; sc.w a0, a2, (a1))
	# a reservation on another address does not let sc.w succeed here
	TEST_CASE(7, a0, 1, la a1, word; la a4, word2; lr.w a3, (a4); sc.w a0, a3, (a1))
	TEST_CASE(8, a0, 0x11111112, la a1, word; li a2, 5; amoadd.w a0, a2, (a1))
	TEST_CASE(9, a0, 0x11111117, la a1, word; lw a0, 0(a1))
	TEST_CASE(10, a0, 0x11111117, la a1, word; li a2, -1; amoswap.w a0, a2, (a1))
	TEST_CASE(11, a0, 0xffffffff, la a1, word; li a2, 3; amomin.w a0, a2, (a1); lw a0, 0(a1))	# signed: -1 < 3
	TEST_CASE(12, a0, 3, la a1, word; li a2, 3; sw a2, 0(a1); li a2, -1; amominu.w a0, a2, (a1); lw a0, 0(a1))	# unsigned: 3 < 0xffffffff
	TEST_CASE(13, a0, 3, la a1, word; li a2, -8; amomax.w a0, a2, (a1); lw a0, 0(a1))
	TEST_CASE(14, a0, 0xfffffff8, la a1, word; li a2, -8; amomaxu.w a0, a2, (a1); lw a0, 0(a1))
	TEST_CASE(15, a0, 0xffffff08, la a1, word; li a2, 0xf0; amoxor.w a0, a2, (a1); lw a0, 0(a1))	# 0xfffffff8 ^ 0xf0
	TEST_CASE(16, a0, 0x0000ff00, la a1, word; li a2, 0x0000ff00; sw a2, 0(a1); li a2, 0x00ffff00; amoand.w zero, a2, (a1); lw a0, 0(a1))
	TEST_CASE(17, a0, 0x00ffff00, la a1, word; li a2, 0x00ff0000; amoor.w zero, a2, (a1); lw a0, 0(a1))
	TEST_PASSFAIL
RVTEST_CODE_END

RVTEST_DATA_BEGIN
word:	.word 0x11111111
word2:	.word 0x22222222
RVTEST_DATA_END

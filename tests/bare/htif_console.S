# htif_console.S - prints "htif ok\n" through the HTIF console (device 1,
# command 1: tohost = 1 << 56 | 1 << 48 | char, written as the low word and
# then the high word), waiting for the host to clear tohost before each
# character, then passes.
# EXPECT-STDOUT: htif ok
#include "riscv_test.h"

RVTEST_CODE_BEGIN
	la s0, message
	la s1, tohost
	li s2, 0x01010000	# the high word: device 1, command 1
1:	lbu a0, 0(s0)
	beqz a0, 3f
2:	lw t0, 0(s1)		# the previous character still pending?
	lw t1, 4(s1)
	or t0, t0, t1
	bnez t0, 2b
	sw a0, 0(s1)
	sw s2, 4(s1)
	addi s0, s0, 1
	j 1b
3:	li TESTNUM, 2
	TEST_PASSFAIL
RVTEST_CODE_END

RVTEST_DATA_BEGIN
message: .asciz "htif ok\n"
RVTEST_DATA_END

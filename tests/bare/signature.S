# signature.S - fills a 20-byte signature region the way riscv-arch-test
# tests do, for cyclops run --signature (tests/run.sh derives each line of
# each granularity from the words written here):
#   word 0 = 0x01234567, word 1 = 0x89abcdef (stored by sw)
#   bytes 8..11 = 0x11 0x22 0x33 0x44 (stored by sb, lowest address first)
#   word 3 = add of 0x7fffffff and 1 = 0x80000000
#   word 4 = 0xdeadbeef, left as assembled (.word)
#include "riscv_test.h"

RVTEST_CODE_BEGIN
	la a0, begin_signature
	li t0, 0x01234567
	sw t0, 0(a0)
	li t0, 0x89abcdef
	sw t0, 4(a0)
	li t0, 0x11
	sb t0, 8(a0)
	li t0, 0x22
	sb t0, 9(a0)
	li t0, 0x33
	sb t0, 10(a0)
	li t0, 0x44
	sb t0, 11(a0)
	TEST_CASE(2, t0, 0x80000000, li t0, 0x7fffffff; addi t0, t0, 1)
	sw t0, 12(a0)
	TEST_PASSFAIL
RVTEST_CODE_END

RVTEST_DATA_BEGIN
	.data
	.align 4
	.globl begin_signature
begin_signature:
	.word 0, 0, 0, 0
	.word 0xdeadbeef
	.globl end_signature
end_signature:
RVTEST_DATA_END

# rv32um.S - RV32M: products and their high words, and the division cases
# the ISA manual fixes (table "Semantics for division by zero and division
# overflow"): x/0 = -1 (all ones), x%0 = x, INT_MIN/-1 = INT_MIN, rem 0.
#include "riscv_test.h"

RVTEST_CODE_BEGIN
	TEST_CASE(2, a0, 0x7f6e5d48, li a1, 0x12345678; li a2, 7; mul a0, a1, a2)
	# (-1) * (-1) = 1: high word 0 signed, 0xfffffffe unsigned
	TEST_CASE(3, a0, 0, li a1, -1; li a2, -1; mulh a0, a1, a2)
	TEST_CASE(4, a0, 0xfffffffe, li a1, -1; li a2, -1; mulhu a0, a1, a2)
	# mulhsu: -1 (signed) * 0xffffffff (unsigned) = -0xffffffff: high 0xffffffff
	TEST_CASE(5, a0, 0xffffffff, li a1, -1; li a2, -1; mulhsu a0, a1, a2)
	TEST_CASE(6, a0, 0xfffffffd, li a1, -7; li a2, 2; div a0, a1, a2)	# rounds to zero
	TEST_CASE(7, a0, 0xffffffff, li a1, -7; li a2, 2; rem a0, a1, a2)	# sign of dividend
	TEST_CASE(8, a0, 0x7ffffffc, li a1, -7; li a2, 2; divu a0, a1, a2)
	TEST_CASE(9, a0, 0xffffffff, li a1, 5; li a2, 0; div a0, a1, a2)
	TEST_CASE(10, a0, 0xffffffff, li a1, 5; li a2, 0; divu a0, a1, a2)
	TEST_CASE(11, a0, 5, li a1, 5; li a2, 0; rem a0, a1, a2)
	TEST_CASE(12, a0, 5, li a1, 5; li a2, 0; remu a0, a1, a2)
	TEST_CASE(13, a0, 0x80000000, li a1, 0x80000000; li a2, -1; div a0, a1, a2)
	TEST_CASE(14, a0, 0, li a1, 0x80000000; li a2, -1; rem a0, a1, a2)
	TEST_PASSFAIL
RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END

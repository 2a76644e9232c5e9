# exit_code.S - a failing check reports its test number through tohost:
# test 3 expects the wrong value, so tohost = (3 << 1) | 1 = 7 and the run
# exits with status 3, as riscv-tests under Spike do.
# EXPECT-EXIT: 3
#include "riscv_test.h"

RVTEST_CODE_BEGIN
	TEST_CASE(2, a0, 2, li a0, 2)
	TEST_CASE(3, a0, 5, li a0, 4)	# deliberately wrong
	TEST_CASE(4, a0, 0, li a0, 0)	# never reached
	TEST_PASSFAIL
RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END

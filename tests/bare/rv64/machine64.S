# machine64.S - what the bare platform does at XLEN 64 that RV32 cannot
# show: mtval holds a whole 64-bit address (a load from 2^40 and a store
# at 4 GiB, above the memory map); a jump past 4 GiB, where no code can
# be, is an instruction access fault at the target (mepc = mtval = the
# target, whole); so is an mret to such an mepc; lr.d/sc.d/AMOs need
# 8-byte alignment (store/AMO misaligned, mtval the address) while ld and
# sd do not; mtvec ignores a base past 4 GiB (WARL); the counters' RV32
# high halves do not exist (illegal instruction).
#include "../riscv_test.h"

#define BIG 0x10000000000	/* 2^40 */
#define FOUR_G 0x100000000

# EXPECT(n, cause, tval, code): code's instruction labelled 2: traps once
# with mcause = cause, mepc = 2:, mtval = tval (a register holds it)
#define EXPECT(n, cause, tval, code...)                                         \
test_##n:                                                                       \
	li TESTNUM, n;                                                          \
	li s2, -1;                                                              \
	la s5, 1f;                                                              \
	code;                                                                   \
	j fail;                                                                 \
1:	li t2, cause;                                                           \
	bne s2, t2, fail;                                                       \
	la t2, 2b;                                                              \
	bne s3, t2, fail;                                                       \
	bne s4, tval, fail;

RVTEST_CODE_BEGIN
	la t0, handler
	csrw mtvec, t0
	EXPECT(2, CAUSE_LOAD_ACCESS, a1, li a1, BIG; 2: ld a0, 0(a1))
	EXPECT(3, CAUSE_STORE_ACCESS, a1, li a1, FOUR_G; 2: sw a0, 0(a1))
	EXPECT(4, CAUSE_STORE_MISALIGNED, a1, la a1, data + 4; 2: amoadd.d a0, a0, (a1))
	EXPECT(5, CAUSE_LOAD_MISALIGNED, a1, la a1, data + 4; 2: lr.d a0, (a1))
	# csrr a0, minstreth, absent at XLEN 64: mtval is its bits
	li a0, 0xb8202573
	EXPECT(6, CAUSE_ILLEGAL_INSN, a0, 2: .word 0xb8202573)
	# a jump past 4 GiB: the fault is the target's, held whole
test_7:
	li TESTNUM, 7
	li s2, -1
	la s5, 1f
	li a1, FOUR_G + 0x40
	jalr ra, 0(a1)
	j fail
1:	li t2, CAUSE_FETCH_ACCESS
	bne s2, t2, fail
	bne s3, a1, fail
	bne s4, a1, fail
	# the same for an mret to such an mepc (mepc holds it whole)
test_8:
	li TESTNUM, 8
	li s2, -1
	la s5, 1f
	li a1, BIG + 0x100
	csrw mepc, a1
	csrr a2, mepc
	bne a2, a1, fail
	mret
	j fail
1:	li t2, CAUSE_FETCH_ACCESS
	bne s2, t2, fail
	bne s3, a1, fail
	bne s4, a1, fail
	# ld and sd are performed misaligned, across the data's words
	TEST_CASE(9, a0, 0x1122334455667788, la a1, data + 3; li a2, 0x1122334455667788; sd a2, 0(a1); ld a0, 0(a1))
	# mtvec keeps its value when a base past 4 GiB is written (WARL)
	TEST_CASE(10, a0, 0, csrr s1, mtvec; li a1, FOUR_G; csrw mtvec, a1; csrr a0, mtvec; sub a0, a0, s1)
	la t0, trap_vector
	csrw mtvec, t0
	TEST_PASSFAIL

	.align 2
handler:
	csrr s2, mcause
	csrr s3, mepc
	csrr s4, mtval
	csrw mepc, s5
	mret
RVTEST_CODE_END

RVTEST_DATA_BEGIN
	.align 3
data:	.dword 0, 0, 0
RVTEST_DATA_END

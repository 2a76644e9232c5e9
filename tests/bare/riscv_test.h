/* riscv_test.h - a machine-mode test environment in the style of
 * riscv-tests' `p` environment, written for cyclops: the test starts at
 * 0x80000000 in machine mode, keeps its current test number in gp (TESTNUM),
 * and ends through HTIF tohost: 1 (exit 0) when it passes, (TESTNUM << 1) | 1
 * (exit TESTNUM) when a check fails. An ecall from machine mode is the way
 * out, as in riscv-tests; any other trap goes to the test's mtvec_handler if
 * it defines one, else fails with exit code UNEXPECTED_TRAP. */
#ifndef RISCV_TEST_H
#define RISCV_TEST_H

#define TESTNUM gp

#define CAUSE_FETCH_ACCESS     1
#define CAUSE_ILLEGAL_INSN     2
#define CAUSE_BREAKPOINT       3
#define CAUSE_LOAD_MISALIGNED  4
#define CAUSE_LOAD_ACCESS      5
#define CAUSE_STORE_MISALIGNED 6
#define CAUSE_STORE_ACCESS     7
#define CAUSE_ECALL_M          11
#define UNEXPECTED_TRAP        77 /* exit code of a trap the test did not expect */

/* What differs with XLEN: mcause's interrupt bit is its top bit; misa's
 * MXL (its top two bits) is 1 for 32, 2 for 64. */
#if __riscv_xlen == 64
#define MCAUSE_INTERRUPT 0x8000000000000000
#define MISA_MXL         (2 << 62)
#else
#define MCAUSE_INTERRUPT 0x80000000
#define MISA_MXL         (1 << 30)
#endif

#define RVTEST_CODE_BEGIN                                                       \
	.section .text.init, "ax";                                              \
	.globl _start;                                                          \
_start:                                                                         \
	la t0, trap_vector;                                                     \
	csrw mtvec, t0;                                                         \
	li TESTNUM, 0;                                                          \
	j test_start;                                                           \
	.align 2;                                                               \
trap_vector:                                                                    \
	csrr t5, mcause;                                                        \
	li t6, CAUSE_ECALL_M;                                                   \
	beq t5, t6, write_tohost;                                               \
	.weak mtvec_handler;                                                    \
	la t6, mtvec_handler;                                                   \
	beqz t6, other_trap;                                                    \
	jr t6;                                                                  \
other_trap:                                                                     \
	li TESTNUM, (UNEXPECTED_TRAP << 1) | 1;                                 \
write_tohost:                                                                   \
	la t5, tohost;                                                          \
	sw TESTNUM, 0(t5);                                                      \
	sw zero, 4(t5);                                                         \
	j write_tohost;                                                         \
test_start:

#define RVTEST_CODE_END                                                         \
	unimp

/* PASS and FAIL reinstall trap_vector: a test may have its own mtvec */
#define RVTEST_PASS                                                             \
	fence;                                                                  \
	la t0, trap_vector;                                                     \
	csrw mtvec, t0;                                                         \
	li TESTNUM, 1;                                                          \
	ecall

#define RVTEST_FAIL                                                             \
	fence;                                                                  \
1:	beqz TESTNUM, 1b;                                                       \
	la t0, trap_vector;                                                     \
	csrw mtvec, t0;                                                         \
	sll TESTNUM, TESTNUM, 1;                                                \
	or TESTNUM, TESTNUM, 1;                                                 \
	ecall

#define RVTEST_DATA_BEGIN                                                       \
	.section .tohost, "aw", @progbits;                                      \
	.align 6;                                                               \
	.globl tohost;                                                          \
tohost:	.dword 0;                                                               \
	.align 6;                                                               \
	.globl fromhost;                                                        \
fromhost: .dword 0;                                                             \
	.data;                                                                  \
	.align 4;

#define RVTEST_DATA_END

/* TEST_CASE(n, reg, value, code...): runs code, then reg must be value. */
#define TEST_CASE(testnum, testreg, correctval, code...)                        \
test_##testnum:                                                                 \
	li TESTNUM, testnum;                                                    \
	code;                                                                   \
	li t2, correctval;                                                      \
	bne testreg, t2, fail;

#define TEST_PASSFAIL                                                           \
	bne x0, TESTNUM, pass;                                                  \
fail:                                                                           \
	RVTEST_FAIL;                                                            \
pass:                                                                           \
	RVTEST_PASS;

#endif

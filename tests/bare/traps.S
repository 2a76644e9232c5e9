# traps.S - every exception the platform raises, with the mcause, mepc and
# mtval the privileged specification gives it: mepc is the faulting
# instruction (for a fetch fault, the unmapped target); mtval is the
# instruction's bits for an illegal instruction, the pc for a breakpoint, the
# address for access faults and misaligned AMOs, 0 for ecall. The handler
# records mcause/mepc/mtval/mstatus in s2..s6 and resumes at s5.
#include "riscv_test.h"

#define UNMAPPED 0x40000000	/* outside the ELF and the default RAM */

# EXPECT(n, cause, epc, tval, code): code traps once with these values;
# the faulting instruction is labelled 2:
#define EXPECT(n, cause, epc, tval, code...)                                    \
test_##n:                                                                       \
	li TESTNUM, n;                                                          \
	li s2, -1;                                                              \
	la s5, 1f;                                                              \
	code;                                                                   \
	j fail;                                                                 \
1:	li t2, cause;                                                           \
	bne s2, t2, fail;                                                       \
	li t2, epc;                                                             \
	bne s3, t2, fail;                                                       \
	li t2, tval;                                                            \
	bne s4, t2, fail;

# the same with epc the label 2:, and mtval the constant tval (tval_is 0),
# the label 2: (1) or the address tval (2)
#define EXPECT_AT(n, cause, tval_is, tval, code...)                          \
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
	.if tval_is == 0;                                                       \
	li t2, tval;                                                            \
	.elseif tval_is == 1;                                                   \
	la t2, 2b;                                                              \
	.else;                                                                  \
	la t2, tval;                                                            \
	.endif;                                                                 \
	bne s4, t2, fail;

RVTEST_CODE_BEGIN
	la t0, handler
	csrw mtvec, t0
	EXPECT_AT(2, CAUSE_ILLEGAL_INSN, 0, 0xc0001073, 2: .word 0xc0001073)	# unimp: csrrw x0, cycle, x0
	EXPECT_AT(3, CAUSE_ILLEGAL_INSN, 0, 0x7c002573, 2: csrr a0, 0x7c0)	# a CSR the hart lacks
	EXPECT_AT(4, CAUSE_ILLEGAL_INSN, 0, 0xf1451073, 2: csrw mhartid, a0)	# read-only CSR
	EXPECT_AT(5, CAUSE_ILLEGAL_INSN, 0, 0, .option push; .option rvc; 2: .2byte 0; .option pop)
	EXPECT_AT(6, CAUSE_BREAKPOINT, 1, 0, 2: ebreak)
	EXPECT_AT(7, CAUSE_BREAKPOINT, 1, 0, .option push; .option rvc; 2: c.ebreak; .option pop)
	EXPECT_AT(8, CAUSE_ECALL_M, 0, 0, 2: ecall)
	EXPECT_AT(9, CAUSE_LOAD_ACCESS, 0, UNMAPPED, li a1, UNMAPPED; 2: lw a0, 0(a1))
	EXPECT_AT(10, CAUSE_STORE_ACCESS, 0, UNMAPPED + 4, li a1, UNMAPPED; 2: sw a0, 4(a1))
	EXPECT_AT(11, CAUSE_LOAD_ACCESS, 0, 0, 2: lbu a0, 0(zero))	# a null pointer
	EXPECT(12, CAUSE_FETCH_ACCESS, UNMAPPED, UNMAPPED, li a1, UNMAPPED; jalr ra, 0(a1))
	EXPECT_AT(13, CAUSE_LOAD_MISALIGNED, 2, data + 2, la a1, data + 2; 2: lr.w a0, (a1))
	EXPECT_AT(14, CAUSE_STORE_MISALIGNED, 2, data + 1, la a1, data + 1; 2: amoadd.w a0, a0, (a1))
	EXPECT_AT(15, CAUSE_STORE_MISALIGNED, 2, data + 3, la a1, data + 3; 2: sc.w a0, a0, (a1))
	EXPECT_AT(16, CAUSE_STORE_ACCESS, 0, UNMAPPED, li a1, UNMAPPED; 2: amoswap.w a0, a0, (a1))
	# a word that straddles the end of RAM (0x80000000 + 64 MiB) faults
	EXPECT_AT(17, CAUSE_LOAD_ACCESS, 0, 0x83fffffe, li a1, 0x83fffffe; 2: lw a0, 0(a1))
	# trap entry: MPIE takes MIE, MIE clears, MPP is M (3)
	EXPECT_AT(18, CAUSE_BREAKPOINT, 1, 0, csrsi mstatus, 8; 2: ebreak)
	TEST_CASE(19, s6, 0x1880, )
	# mret: MIE takes MPIE, MPIE sets; execution continues at mepc
	TEST_CASE(20, a0, 0x1888, la a1, 1f; csrw mepc, a1; li a1, 0x80; csrw mstatus, a1; mret; j fail; 1: csrr a0, mstatus; csrw mstatus, zero)
	# devices answer without faults: the UART's LSR reads "transmitter idle"
	TEST_CASE(21, a0, 0x60, li a1, 0x10000000; lbu a0, 5(a1))
	TEST_CASE(22, s2, -1, li s2, -1; li a1, 0x0200bff8; lw a0, 0(a1); lw a0, 4(a1))
	# nothing trapped in 19..22: the handler would have changed s2
	la t0, trap_vector
	csrw mtvec, t0
	TEST_PASSFAIL

	.align 2
handler:
	csrr s2, mcause
	csrr s3, mepc
	csrr s4, mtval
	csrr s6, mstatus
	csrw mepc, s5
	mret
RVTEST_CODE_END

RVTEST_DATA_BEGIN
data:	.word 0, 0
RVTEST_DATA_END

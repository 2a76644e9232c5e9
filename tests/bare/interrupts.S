# interrupts.S - the machine timer and software interrupts: mtime advances
# with the clock, mtimecmp raises mip.MTIP, an enabled interrupt traps with
# mcause 0x80000007 (timer) or 0x80000003 (software, CLINT msip) and mtval 0
# (at XLEN 64, 0x8000000000000007 and 0x8000000000000003);
# vectored mtvec sends interrupt N to base + 4N; wfi waits for an interrupt
# enabled in mie even with mstatus.MIE clear, without trapping.
#include "riscv_test.h"

#define MTIME    0x0200bff8
#define MTIMECMP 0x02004000
#define MSIP     0x02000000

# mtimecmp = mtime + delta (high word first, as the spec's example does)
#define ARM(delta)                                                              \
	li a4, MTIME;                                                           \
	lw a5, 0(a4);                                                           \
	addi a5, a5, delta;                                                     \
	li a4, MTIMECMP;                                                        \
	li a6, -1;                                                              \
	sw a6, 4(a4);                                                           \
	sw a5, 0(a4);                                                           \
	sw zero, 4(a4)

#define DISARM                                                                  \
	li a4, MTIMECMP;                                                        \
	li a6, -1;                                                              \
	sw a6, 0(a4);                                                           \
	sw a6, 4(a4)

RVTEST_CODE_BEGIN
	la t0, handler
	csrw mtvec, t0
	# mtime moves forward with the clock
	TEST_CASE(2, a0, 1, li a4, MTIME; lw a1, 0(a4); nop; nop; lw a2, 0(a4); sltu a0, a1, a2)
	# MTIP pends once mtime passes mtimecmp, and no trap without MIE
	TEST_CASE(3, a0, 0x80, li s2, 0; ARM(20); li a0, 40; 1: addi a0, a0, -1; bnez a0, 1b; csrr a0, mip; andi a0, a0, 0x80)
	TEST_CASE(4, s2, 0, )
	# enabled: the timer interrupt is taken, with mcause 0x80000007
	TEST_CASE(5, s2, MCAUSE_INTERRUPT | 7, li s2, 0; li a0, 0x80; csrw mie, a0; csrsi mstatus, 8; 1: beqz s2, 1b)
	TEST_CASE(6, s4, 0, )
	# the handler disarmed it: MTIP clear, and MPIE/MIE came back by mret
	TEST_CASE(7, a0, 0, csrr a0, mip; andi a0, a0, 0x80)
	TEST_CASE(8, a0, 8, csrr a0, mstatus; andi a0, a0, 8)
	csrci mstatus, 8
	# wfi with MIE clear: waits until MTIP, then goes on without a trap
	TEST_CASE(9, a0, 0x80, li s2, 0; ARM(500); wfi; csrr a0, mip; andi a0, a0, 0x80)
	TEST_CASE(10, s2, 0, DISARM)
	# software interrupt: msip = 1 with MSIE
	TEST_CASE(11, s2, MCAUSE_INTERRUPT | 3, li s2, 0; li a0, 8; csrw mie, a0; li a4, MSIP; li a5, 1; sw a5, 0(a4); csrsi mstatus, 8; 1: beqz s2, 1b; csrci mstatus, 8)
	TEST_CASE(12, a0, 0, csrr a0, mip; andi a0, a0, 8)	# the handler cleared msip
	# vectored mode: the timer interrupt enters at base + 4 * 7
	TEST_CASE(13, s7, 7, li s7, 0; la t0, vectors; ori t0, t0, 1; csrw mtvec, t0; li a0, 0x80; csrw mie, a0; ARM(10); csrsi mstatus, 8; 1: beqz s7, 1b; csrci mstatus, 8)
	la t0, trap_vector
	csrw mtvec, t0
	TEST_PASSFAIL

	.align 2
handler:	# records mcause and mtval, silences the source, returns
	csrr s2, mcause
	csrr s4, mtval
	DISARM
	li a4, MSIP
	sw zero, 0(a4)
	mret

	.align 6
	.option push
	.option norvc	/* 4-byte slots */
vectors:	# slot N: interrupt N; only 7 is expected
	.rept 7
	j fail
	.endr
	.option pop
	li s7, 7
	DISARM
	mret
RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END

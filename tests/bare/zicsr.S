# zicsr.S - Zicsr and the machine-mode CSRs: read/set/clear forms return
# the old value; the values the privileged specification fixes for this
# hart (misa MXL=1, or 2 at XLEN 64, with I, M, A, C; mhartid 0; mstatus.MPP = 3 with only
# machine mode); WARL fields keep only legal values; a counter write
# replaces the writing instruction's own increment.
#include "riscv_test.h"

#define MISA_IMAC (MISA_MXL | (1 << 0) | (1 << 2) | (1 << 8) | (1 << 12))

RVTEST_CODE_BEGIN
	TEST_CASE(2, a0, 0, li a1, 0x1234; csrrw a0, mscratch, a1; csrr a0, mscratch; li a2, 0x1234; sub a0, a0, a2)
	TEST_CASE(3, a0, 0x1234, li a1, 0xf; csrrs a0, mscratch, a1)
	TEST_CASE(4, a0, 0x123f, li a1, 0x30; csrrc a0, mscratch, a1)
	TEST_CASE(5, a0, 0x120f, csrr a0, mscratch)
	TEST_CASE(6, a0, 0x120f, csrrwi a0, mscratch, 0x15)
	TEST_CASE(7, a0, 0x15, csrrsi a0, mscratch, 0x2)
	TEST_CASE(8, a0, 0x17, csrrci a0, mscratch, 0x1)
	TEST_CASE(9, a0, 0x16, csrr a0, mscratch)
	TEST_CASE(10, a0, MISA_IMAC, csrr a0, misa)
	TEST_CASE(11, a0, MISA_IMAC, li a1, 0; csrw misa, a1; csrr a0, misa)	# WARL: ignored
	TEST_CASE(12, a0, 0, csrr a0, mhartid)
	TEST_CASE(13, a0, 0, csrr a0, mvendorid)
	# mstatus: MPP reads 3 whatever is written; MIE and MPIE are kept
	TEST_CASE(14, a0, 0x1888, li a1, 0x88; csrw mstatus, a1; csrr a0, mstatus)
	TEST_CASE(15, a0, 0x1800, csrw mstatus, zero; csrr a0, mstatus)
	# mtvec: mode 1 (vectored) is kept, reserved mode 2 reads as direct
	TEST_CASE(16, a0, 0x80001001, csrr s1, mtvec; li a1, 0x80001001; csrw mtvec, a1; csrr a0, mtvec; csrw mtvec, s1)
	TEST_CASE(17, a0, 0x80001000, csrr s1, mtvec; li a1, 0x80001002; csrw mtvec, a1; csrr a0, mtvec; csrw mtvec, s1)
	# mepc: bit 0 is always 0 (IALIGN 16)
	TEST_CASE(18, a0, 0x80000122, li a1, 0x80000123; csrw mepc, a1; csrr a0, mepc)
	# mie keeps MSIE, MTIE, MEIE only
	TEST_CASE(19, a0, 0x888, li a1, -1; csrw mie, a1; csrr a0, mie; csrw mie, zero)
	# legal no-ops and kept values
	TEST_CASE(20, a0, 0, li a1, -1; csrw medeleg, a1; csrw mideleg, a1; csrw satp, a1; csrr a0, satp)
	TEST_CASE(21, a0, 0x1f, li a1, 0x1f; csrw pmpcfg0, a1; li a1, -1; csrw pmpaddr0, a1; csrr a0, pmpcfg0)
	# the counters: cycle and instret move forward
	TEST_CASE(22, a0, 1, csrr a1, instret; nop; csrr a2, instret; sltu a0, a1, a2)
	# a write replaces the writing instruction's own increment: the next
	# instruction reads the value written (privileged spec, "CSR writes
	# take effect after the writing instruction has otherwise completed")
	TEST_CASE(23, a0, 0, csrwi minstret, 0; csrr a0, minstret)
#if __riscv_xlen == 32
	# ... a write of one half too, so the increment never carries into the
	# other: {-1, -1} after the two writes, 0 once the nop retires
	TEST_CASE(24, a0, 0, li t0, -1; csrw minstret, t0; csrw minstreth, t0; nop; csrr a0, minstret)
	TEST_CASE(25, a0, 0, csrr a0, minstreth)
	# the low half written as -1 stays -1 through the write of the high half
	TEST_CASE(26, a0, -1, li t0, -1; csrw minstret, t0; csrw minstreth, zero; csrr a0, minstret)
	TEST_CASE(27, a0, -1, li t0, -1; li t1, 5; csrw mcycle, t0; csrw mcycleh, t1; csrr a0, mcycle)
#else
	# at XLEN 64 the counters are whole 64-bit CSRs: -1 becomes 0 when the
	# nop retires (no high half), and a value past 32 bits is read back
	TEST_CASE(24, a0, 0, li t0, -1; csrw minstret, t0; nop; csrr a0, minstret)
	TEST_CASE(25, a0, 0x100000005, li t0, 0x100000005; csrw mcycle, t0; csrr a0, mcycle)
	TEST_CASE(26, a0, 0x123456789, li t0, 0x123456789; csrw mscratch, t0; csrr a0, mscratch)
#endif
	TEST_PASSFAIL
RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END

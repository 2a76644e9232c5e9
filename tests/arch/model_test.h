/* model_test.h - cyclops as a riscv-arch-test target (docs/conformance.md):
 * the macros the suite's arch_test.h asks each target for. A test ends by
 * writing 1 to tohost (HTIF: exit status 0); its results lie between
 * begin_signature and end_signature, which cyclops run --signature dumps.
 * Written from the suite's description of the macros, not taken from a
 * target of the suite. */
#ifndef CYCLOPS_MODEL_TEST_H
#define CYCLOPS_MODEL_TEST_H

/* The HTIF words, in a section of their own (tests/arch/link.ld). */
#define RVMODEL_DATA_SECTION                                                   \
	.pushsection .tohost, "aw", @progbits;                                 \
	.align 8;                                                              \
	.global tohost;                                                        \
	tohost: .dword 0;                                                      \
	.align 8;                                                              \
	.global fromhost;                                                      \
	fromhost: .dword 0;                                                    \
	.popsection;

/* tohost = 1: "passed", which ends the run; the signature says the rest. */
#define RVMODEL_HALT                                                           \
	li t0, 1;                                                              \
	la t1, tohost;                                                         \
	sw t0, 0(t1);                                                          \
	sw zero, 4(t1);                                                        \
	cyclops_halt_loop: j cyclops_halt_loop;

#define RVMODEL_BOOT

#define RVMODEL_DATA_BEGIN                                                     \
	RVMODEL_DATA_SECTION                                                   \
	.align 4;                                                              \
	.global begin_signature;                                               \
	begin_signature:

#define RVMODEL_DATA_END                                                       \
	.align 4;                                                              \
	.global end_signature;                                                 \
	end_signature:

/* No console for the tests' messages, no self-checks: the signature is
 * compared on the host. */
#define RVMODEL_IO_INIT
#define RVMODEL_IO_WRITE_STR(_R, _STR)
#define RVMODEL_IO_CHECK()
#define RVMODEL_IO_ASSERT_GPR_EQ(_S, _R, _I)
#define RVMODEL_IO_ASSERT_SFPR_EQ(_F, _R, _I)
#define RVMODEL_IO_ASSERT_DFPR_EQ(_D, _R, _I)

/* The interrupt tests are not run (docs/conformance.md). */
#define RVMODEL_SET_MSW_INT
#define RVMODEL_CLEAR_MSW_INT
#define RVMODEL_CLEAR_MTIMER_INT
#define RVMODEL_CLEAR_MEXT_INT

#endif

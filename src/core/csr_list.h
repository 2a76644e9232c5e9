/* csr_list.h - the control and status registers cyclops implements.
 * CSR_LIST is the one table of them: names for the disassembler and the
 * numbers the CSR access path dispatches on are both derived from it. */
#ifndef CY_CSR_LIST_H
#define CY_CSR_LIST_H

#include <stdbool.h>
#include <stdint.h>

struct cy_vm;

/* The machine-mode CSRs of the bare platform (machine.c); in Linux user
 * mode they are illegal like any unknown CSR. _(ID, number, name) */
#define CSR_MACHINE_LIST(_)                                                                        \
	_(MSTATUS, 0x300, "mstatus")                                                               \
	_(MISA, 0x301, "misa")                                                                     \
	_(MEDELEG, 0x302, "medeleg")                                                               \
	_(MIDELEG, 0x303, "mideleg")                                                               \
	_(MIE, 0x304, "mie")                                                                       \
	_(MTVEC, 0x305, "mtvec")                                                                   \
	_(MSTATUSH, 0x310, "mstatush")                                                             \
	_(MSCRATCH, 0x340, "mscratch")                                                             \
	_(MEPC, 0x341, "mepc")                                                                     \
	_(MCAUSE, 0x342, "mcause")                                                                 \
	_(MTVAL, 0x343, "mtval")                                                                   \
	_(MIP, 0x344, "mip")                                                                       \
	_(SATP, 0x180, "satp")                                                                     \
	_(PMPCFG0, 0x3a0, "pmpcfg0")                                                               \
	_(PMPCFG1, 0x3a1, "pmpcfg1")                                                               \
	_(PMPCFG2, 0x3a2, "pmpcfg2")                                                               \
	_(PMPCFG3, 0x3a3, "pmpcfg3")                                                               \
	_(PMPADDR0, 0x3b0, "pmpaddr0")                                                             \
	_(PMPADDR1, 0x3b1, "pmpaddr1")                                                             \
	_(PMPADDR2, 0x3b2, "pmpaddr2")                                                             \
	_(PMPADDR3, 0x3b3, "pmpaddr3")                                                             \
	_(PMPADDR4, 0x3b4, "pmpaddr4")                                                             \
	_(PMPADDR5, 0x3b5, "pmpaddr5")                                                             \
	_(PMPADDR6, 0x3b6, "pmpaddr6")                                                             \
	_(PMPADDR7, 0x3b7, "pmpaddr7")                                                             \
	_(PMPADDR8, 0x3b8, "pmpaddr8")                                                             \
	_(PMPADDR9, 0x3b9, "pmpaddr9")                                                             \
	_(PMPADDR10, 0x3ba, "pmpaddr10")                                                           \
	_(PMPADDR11, 0x3bb, "pmpaddr11")                                                           \
	_(PMPADDR12, 0x3bc, "pmpaddr12")                                                           \
	_(PMPADDR13, 0x3bd, "pmpaddr13")                                                           \
	_(PMPADDR14, 0x3be, "pmpaddr14")                                                           \
	_(PMPADDR15, 0x3bf, "pmpaddr15")                                                           \
	_(MVENDORID, 0xf11, "mvendorid")                                                           \
	_(MARCHID, 0xf12, "marchid")                                                               \
	_(MIMPID, 0xf13, "mimpid")                                                                 \
	_(MHARTID, 0xf14, "mhartid")

/* _(ID, number, name) */
#define CSR_LIST(_)                                                                                \
	CSR_MACHINE_LIST(_)                                                                        \
	_(CYCLE, 0xc00, "cycle")                                                                   \
	_(TIME, 0xc01, "time")                                                                     \
	_(INSTRET, 0xc02, "instret")                                                               \
	_(CYCLEH, 0xc80, "cycleh")                                                                 \
	_(TIMEH, 0xc81, "timeh")                                                                   \
	_(INSTRETH, 0xc82, "instreth")                                                             \
	_(MCYCLE, 0xb00, "mcycle")                                                                 \
	_(MINSTRET, 0xb02, "minstret")                                                             \
	_(MCYCLEH, 0xb80, "mcycleh")                                                               \
	_(MINSTRETH, 0xb82, "minstreth")                                                           \
	_(MCOUNTINHIBIT, 0x320, "mcountinhibit")                                                   \
	_(PCER, 0x7a0, "pcer")                                                                     \
	_(PCMR, 0x7a1, "pcmr")                                                                     \
	CSR_N0_31(CSR_PCCR, _)                                                                     \
	CSR_N3_31(CSR_HPM, _)

/* The numbered families: PCCR0-31 (ZERO-RISCY), and per n = 3..31
 * mhpmcounterN(h), hpmcounterN(h) and mhpmeventN. */
#define CSR_PCCR(_, n) _(PCCR##n, 0x780 + n, "pccr" #n)
#define CSR_HPM(_, n)                                                                              \
	_(MHPMCOUNTER##n, 0xb00 + n, "mhpmcounter" #n)                                             \
	_(MHPMCOUNTER##n##H, 0xb80 + n, "mhpmcounter" #n "h")                                      \
	_(HPMCOUNTER##n, 0xc00 + n, "hpmcounter" #n)                                               \
	_(HPMCOUNTER##n##H, 0xc80 + n, "hpmcounter" #n "h")                                        \
	_(MHPMEVENT##n, 0x320 + n, "mhpmevent" #n)
/* clang-format does not settle on one layout for these lists */
// clang-format off
#define CSR_N3_31(X, _)                                                                            \
	X(_, 3) X(_, 4) X(_, 5) X(_, 6) X(_, 7) X(_, 8) X(_, 9) X(_, 10) X(_, 11) X(_, 12)         \
	X(_, 13) X(_, 14) X(_, 15) X(_, 16) X(_, 17) X(_, 18) X(_, 19) X(_, 20) X(_, 21)           \
	X(_, 22) X(_, 23) X(_, 24) X(_, 25) X(_, 26) X(_, 27) X(_, 28) X(_, 29) X(_, 30)           \
	X(_, 31)
// clang-format on
#define CSR_N0_31(X, _) X(_, 0) X(_, 1) X(_, 2) CSR_N3_31(X, _)

enum {
#define CSR_ENUM(id, num, name) CSR_##id = num,
	CSR_LIST(CSR_ENUM)
#undef CSR_ENUM
};

#endif

/* csr.h - the control and status registers cyclops implements.
 * CSR_LIST is the one table of them: names for the disassembler and the
 * numbers the CSR access path dispatches on are both derived from it. */
#ifndef CY_CSR_H
#define CY_CSR_H

#include <stdbool.h>
#include <stdint.h>

struct cy_vm;

/* _(ID, number, name) */
#define CSR_LIST(_)                                                                                \
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

/* Name of a CSR number, or NULL when cyclops does not know it. */
const char *csr_name(uint32_t csr);

/* Reads the CSR into *old and, when write is set, writes value to it.
 * Returns 0, or -1 when the access is illegal (unknown CSR, write to a
 * read-only one): the instruction then faults. */
int csr_access(struct cy_vm *vm, uint32_t csr, bool write, uint32_t value, uint32_t *old);

#endif

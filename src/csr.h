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
	_(MINSTRETH, 0xb82, "minstreth")

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

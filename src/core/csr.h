/* csr.h - CSR reads and writes (csr.c): the one way in for the CSR
 * instructions; the numbers and names are csr_list.h's. */
#ifndef CY_CSR_H
#define CY_CSR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/csr_list.h"

struct cy_vm;

/* Reads the CSR into *old and, when write is set, writes value to it.
 * Returns 0, or -1 when the access is illegal (unknown CSR, write to a
 * read-only one): the instruction then faults. */
int csr_access(struct cy_vm *vm, uint32_t csr, bool write, uint32_t value, uint32_t *old);
/* The same at XLEN 64: the counters are whole 64-bit CSRs, their RV32 high
 * halves do not exist, and the other CSRs hold 32 bits, zero-extended. */
int csr_access64(struct cy_vm *vm, uint32_t csr, bool write, uint64_t value, uint64_t *old);

#endif

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

#endif

/* asm_text.h - instructions as objdump prints them for people (asm_text.c):
 * ABI register names, the pseudo-instructions of the RISC-V assembly
 * manual (ret, mv, li, j, beqz, ...), branch and call targets with their
 * symbol. Built on cy_disasm's plain form, for listings (cyclops annotate,
 * cyclops hist, the HTML report). */
#ifndef CY_ASM_TEXT_H
#define CY_ASM_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "export/program.h"

/* The instruction bits at pc as text into buf (the program's symbols name
 * targets, its XLEN picks the decoding; pg may be NULL: RV32). Returns its length in bytes (2 or
 * 4), or 0 for an illegal encoding (buf then says so, as .2byte/.4byte). */
int asm_text(const struct program *pg, uint32_t pc, uint32_t bits, char *buf, size_t size);
/* The ABI name of register x<r> ("a0"), or NULL. */
const char *asm_reg_name(unsigned r);

#endif

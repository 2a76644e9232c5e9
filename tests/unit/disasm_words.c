/* disasm_words.c - a filter for tests/unit/objdump_compare.py: reads lines
 * "XLEN PC HEX" (the instruction's bits in hex, as objdump prints them) and
 * writes, per line, cyclops's disassembly of it (cy_disasm_xlen), or
 * "illegal" for an encoding it rejects. */
#include <inttypes.h>
#include <stdio.h>

#include "cyclops.h"

int main(void)
{
	unsigned xlen;
	uint32_t pc, bits;
	char text[128];

	while (scanf("%u %" SCNx32 " %" SCNx32, &xlen, &pc, &bits) == 3) {
		if (cy_disasm_xlen(xlen, pc, bits, text, sizeof(text)) == 0)
			printf("illegal\n");
		else
			printf("%s\n", text);
	}
	return 0;
}

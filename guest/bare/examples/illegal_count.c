/* illegal_count.c - a trap handler that counts illegal instructions and
 * resumes after each one (mepc += its length). The firmware runs N of them
 * (writes to the read-only cycle CSR, `unimp`, and a 16-bit all-zero word)
 * and checks the count and the mtval of the last one. */
#include <stdio.h>

#include <cyclops/bare.h>

#define CAUSE_ILLEGAL 2
#define ROUNDS        10

static volatile unsigned illegal_seen;
static volatile uint32_t last_mtval;

__attribute__((interrupt("machine"), aligned(4))) static void on_trap(void)
{
	uint32_t cause = csr_read(mcause), epc = csr_read(mepc);

	if (cause != CAUSE_ILLEGAL)
		bare_exit(100 + (int)(cause & 0x1f));
	illegal_seen++;
	last_mtval = csr_read(mtval);
	/* the length is in the low bits of the instruction (mtval holds it) */
	csr_write(mepc, epc + ((last_mtval & 3) == 3 ? 4 : 2));
}

int main(void)
{
	csr_write(mtvec, (uintptr_t)on_trap);
	for (int i = 0; i < ROUNDS; i++) {
		__asm__ volatile("unimp");		/* csrrw x0, cycle, x0: 0xc0001073 */
		__asm__ volatile(".2byte 0x0000");	/* the defined-illegal 16-bit word */
	}
	printf("illegal instructions trapped: %u (want %u), last mtval 0x%04lx\n", illegal_seen,
	       2 * ROUNDS, (unsigned long)last_mtval);
	return illegal_seen == 2 * ROUNDS && last_mtval == 0 ? 0 : 1;
}

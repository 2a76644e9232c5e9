/* sampled.c - PC-histogram sampling driven by the program itself (see
 * guest/include/cyclops/sample.h): only the two calls of checksum() are
 * sampled, the table set-up between them is not. Run it as
 *
 *	cyclops run --guest-saves guest/build/sampled.elf
 *	cyclops hist sampled.samples --elf guest/build/sampled.elf
 *
 * On qemu-riscv32 or Linux the calls fail with CY_ENOT_ON_CYCLOPS and the
 * program prints the same result. */
#include <stdint.h>
#include <stdio.h>

#include "cyclops/sample.h"

#define N 4096

static uint32_t table[N];

/* Fills the table: not sampled. */
static __attribute__((noinline)) void fill(uint32_t seed)
{
	for (int i = 0; i < N; i++) {
		seed = seed * 1664525u + 1013904223u;
		table[i] = seed;
	}
}

/* The hot loop: a rotate-and-add checksum, one source line per step. */
static __attribute__((noinline)) uint32_t checksum(int rounds)
{
	uint32_t sum = 0;

	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < N; i++) {
			sum = (sum << 5 | sum >> 27) + table[i]; /* the hot line */
			sum ^= (uint32_t)i;
		}
	}
	return sum;
}

int main(void)
{
	uint32_t a, b;

	fill(1);
	cy_sample_start();
	a = checksum(4);
	cy_sample_pause();
	fill(2);
	cy_sample_resume();
	b = checksum(4);
	cy_sample_save_to("sampled.samples");
	cy_sample_stop();
	printf("checksums %08lx %08lx\n", (unsigned long)a, (unsigned long)b);
	return 0;
}

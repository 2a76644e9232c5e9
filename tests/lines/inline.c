/* inline.c - a guest whose hot line lies in a function inlined twice over,
 * for the source-line checks of the profiles (tests/run.sh, lines layer).
 *
 * By construction: main calls checksum (noinline) once; checksum's loop
 * calls step for each of the N words, step calls mix, and both are
 * static inline, so at -O2 they are inlined: every instruction of the
 * loop belongs to checksum, and those of mix's rounds to mix inlined in
 * step inlined in checksum. mix runs ROUNDS rounds per word, so its
 * round's line (marked HOT) executes ROUNDS times for each time any line
 * of step or checksum's loop does: it is the hottest line of the run.
 * The tests take the exact counts from qemu's single-step trace and the
 * lines and inline chains from addr2line -i, never from cyclops. */
#include <stdint.h>
#include <stdio.h>

#define N      256
#define ROUNDS 24

static uint32_t words[N];

static inline uint32_t mix(uint32_t x)
{
	for (int r = 0; r < ROUNDS; r++)
		x = (x ^ (x >> 7)) * 0x9e3779b1u + (uint32_t)r; /* HOT */
	return x;
}

static inline uint32_t step(uint32_t acc, uint32_t x)
{
	return (acc << 1 | acc >> 31) ^ mix(x); /* STEP */
}

__attribute__((noinline)) uint32_t checksum(const uint32_t *v, int n)
{
	uint32_t acc = 0;
	for (int i = 0; i < n; i++)
		acc = step(acc, v[i]); /* CALL-STEP */
	return acc;
}

int main(void)
{
	for (int i = 0; i < N; i++)
		words[i] = (uint32_t)i * 2654435761u;
	printf("checksum %08lx\n", (unsigned long)checksum(words, N));
	return 0;
}

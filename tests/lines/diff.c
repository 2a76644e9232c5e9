/* diff.c - two builds of one program for "cyclops diff" (tests/run.sh,
 * lines layer): VARIANT=0 and VARIANT=1 differ in scale() alone, which
 * runs EXTRA more rounds in the second; the other functions are the same
 * code at the same addresses (the bound fits the same instruction), and
 * the output is the same, so that printing costs the same. The test
 * measures the difference per function with qemu's single-step trace and
 * the symbol table (nm), not with cyclops, and expects cyclops diff to find
 * that function, and only it, changed by exactly that much (the unit
 * model: a cycle is an instruction); likewise the cycle-tracker span
 * around the loop, and the run's total. */
#include <stdint.h>
#include <stdio.h>

#ifndef VARIANT
#define VARIANT 0
#endif
#define EXTRA (VARIANT * 40)

static volatile uint32_t sink; /* keeps the result, and so the work */

__attribute__((noinline)) uint32_t scale(uint32_t x)
{
	for (int r = 0; r < 60 + EXTRA; r++)
		x = x * 3u + (uint32_t)r;
	return x;
}

__attribute__((noinline)) uint32_t fold(uint32_t acc, uint32_t x)
{
	for (int r = 0; r < 20; r++)
		acc = (acc << 3 | acc >> 29) ^ (x + (uint32_t)r);
	return acc;
}

int main(void)
{
	uint32_t acc = 1;
	puts("cycle-tracker-start: loop");
	for (uint32_t i = 0; i < 100; i++)
		acc = fold(acc, scale(i));
	puts("cycle-tracker-end: loop");
	sink = acc;
	return 0;
}

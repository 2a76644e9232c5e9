/* Channel timers in a C guest (<cyclops/timer.h>): timers around the phases
 * of a small workload - fill a fresh buffer, sum it with a stride that
 * touches a new page every step, sort a small array - nested, with
 * CY_TIMER_STOP_START between phases. Try
 *	cyclops run --timers guest/build/timed.elf
 *	cyclops run --timers --model risc0 guest/build/timed.elf
 * (under risc0 the steps that page memory in are explained). Elsewhere
 * (qemu) the timers do nothing visible. */

#include <stdint.h>
#include <stdio.h>

#include <cyclops/timer.h>

#define BUF_BYTES (64 * 1024)
#define STRIDE    1024 /* risc0's page size: one new page per step */
#define N_SORT    64

static uint8_t buf[BUF_BYTES] __attribute__((aligned(STRIDE))); /* whole pages */
static uint32_t small[N_SORT];

static void fill(void)
{
	for (uint32_t i = 0; i < BUF_BYTES; i += STRIDE)
		buf[i] = (uint8_t)(i >> 10);
}

static uint32_t strided_sum(void)
{
	uint32_t s = 0;

	for (uint32_t i = 0; i < BUF_BYTES; i += STRIDE)
		s += buf[i];
	return s;
}

static void insertion_sort(uint32_t *a, int n)
{
	for (int i = 1; i < n; i++) {
		uint32_t v = a[i];
		int j = i - 1;
		while (j >= 0 && a[j] > v) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = v;
	}
}

int main(void)
{
	uint32_t x = 12345, sum;

	CY_TIMER_INIT();
	CY_TIMER_START("workload");

	CY_TIMER_START("fill");
	fill();
	CY_TIMER_STOP_START("strided sum");
	sum = strided_sum();
	CY_TIMER_STOP_START("sort");
	for (int i = 0; i < N_SORT; i++) {
		x = x * 1103515245u + 12345u;
		small[i] = x >> 8;
	}
	insertion_sort(small, N_SORT);
	CY_TIMER_STOP();

	CY_TIMER_STOP();

	for (int i = 1; i < N_SORT; i++)
		if (small[i - 1] > small[i]) {
			printf("timed: not sorted at %d\n", i);
			return 1;
		}
	/* 64 pages, page k holding k at its first byte: 0 + 1 + ... + 63 */
	printf("timed: strided sum %u (%s)\n", (unsigned)sum, sum == 2016 ? "ok" : "wrong");
	return sum == 2016 ? 0 : 1;
}

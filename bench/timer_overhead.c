/* timer_overhead.c - what one measurement costs the guest, built in four
 * variants by bench/timer-overhead.sh (-DVARIANT=N): 0 nothing, 1 the
 * channel timers' announcement only, 2 announcement and one channel-timer
 * pair, 3 one pair of <cyclops/track.h> lines (one write ecall each),
 * 4 one pair of cycle-tracker lines through printf (what println! does). */
#include <stdint.h>
#include <stdio.h>

#include <cyclops/timer.h>
#include <cyclops/track.h>

#ifndef VARIANT
#define VARIANT 0
#endif

static volatile uint32_t sink;

static void work(void)
{
	uint32_t s = 0;

	for (uint32_t i = 0; i < 1000; i++)
		s += i * i;
	sink = s;
}

int main(void)
{
#if VARIANT == 1 || VARIANT == 2
	CY_TIMER_INIT();
#endif
#if VARIANT == 2
	CY_TIMER_START("phase");
#elif VARIANT == 3
	CY_TRACK_START("phase");
#elif VARIANT == 4
	printf("cycle-tracker-start: phase\n");
	fflush(stdout);
#endif
	work();
#if VARIANT == 2
	CY_TIMER_STOP();
#elif VARIANT == 3
	CY_TRACK_END("phase");
#elif VARIANT == 4
	printf("cycle-tracker-end: phase\n");
	fflush(stdout);
#endif
	return 0;
}

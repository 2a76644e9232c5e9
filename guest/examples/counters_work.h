/* The function the counter examples measure: a checksum over a table with a
 * data-dependent branch and a call, so that every common event happens;
 * and measure(), the same measuring code for both examples. */
#include <stdint.h>

#include <cyclops/pulp_counters.h>

#define WORK_WORDS 256

static uint32_t work_table[WORK_WORDS];

static __attribute__((noinline)) uint32_t mix(uint32_t h, uint32_t v)
{
	return (h ^ v) * 16777619u;
}

static __attribute__((noinline)) uint32_t work(void)
{
	uint32_t h = 2166136261u;

	for (int i = 0; i < WORK_WORDS; i++) {
		uint32_t v = work_table[i];
		if (v & 1)
			h = mix(h, v);
		else
			h += v >> 3;
		work_table[i] = h;
	}
	return h;
}

static void work_init(void)
{
	for (int i = 0; i < WORK_WORDS; i++)
		work_table[i] = (uint32_t)i * 2654435761u;
}

/* Runs work() with the events of mask counting, from zero. The measured
 * span is the call and return of work() and the csrw that stops the
 * counters (docs/counters.md: the csrw that starts them counts under the
 * old, stopped mode; the one that stops them under the running one). */
static __attribute__((noinline)) uint32_t measure(unsigned int mask)
{
	uint32_t h;

	work_init(); /* the same data every time */
	cpu_perf_stop();
	cpu_perf_conf_events(mask);
	cpu_perf_reset();
	cpu_perf_start();
	h = work();
	cpu_perf_stop();
	return h;
}

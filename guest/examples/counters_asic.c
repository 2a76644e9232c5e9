/* Measures one function with ZERO-RISCY's performance counters as firmware
 * for the ASIC build must: the ASIC has a single counter that counts the
 * cycles in which any enabled event happens, so to count each event the
 * function runs once per event, with only that event enabled (the reference
 * manual's advice). Reading the event's own counter number works on both
 * builds, so the numbers match counters_pulp's:
 *
 *	cyclops run --model zero-riscy --counters asic guest/build/counters_asic.elf
 */
#include <stdio.h>

#include "counters_work.h"

int main(void)
{
	static const char *const names[] = CSR_PCER_NAMES;
	unsigned int counts[CSR_PCER_NB_EVENTS], both;
	uint32_t h = 0;

	for (unsigned int i = 0; i < CSR_PCER_NB_EVENTS; i++) {
		h = measure(CSR_PCER_EVENT_MASK(i));
		counts[i] = cpu_perf_get(i);
	}

	printf("work() = %08lx, measured once per event:\n", (unsigned long)h);
	for (unsigned int i = 0; i < CSR_PCER_NB_EVENTS; i++)
		printf("%-10s %8u\n", names[i], counts[i]);
	/* Several events at once count the cycles with at least one of them:
	 * every cycle has CYCLES, so CYCLES|LD counts what CYCLES alone does. */
	measure(CSR_PCER_EVENT_MASK(CSR_PCER_CYCLES) | CSR_PCER_EVENT_MASK(CSR_PCER_LD));
	both = cpu_perf_get(CSR_PCER_CYCLES);
	printf("CYCLES|LD  %8u (one counter: cycles with either)\n", both);
	if (counts[CSR_PCER_LD] < WORK_WORDS || counts[CSR_PCER_ST] < WORK_WORDS ||
	    counts[CSR_PCER_TAKEN_BRANCH] > counts[CSR_PCER_BRANCH] ||
	    both != counts[CSR_PCER_CYCLES]) {
		printf("counters_asic: the counts are inconsistent\n");
		return 1;
	}
	return 0;
}

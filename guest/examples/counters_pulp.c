/* Measures one function with ZERO-RISCY's performance counters, all events
 * at once, as firmware for the FPGA build of the core does (one counter per
 * event). Run it under cyclops (qemu-riscv32 has no such CSRs):
 *
 *	cyclops run --model zero-riscy --counters fpga guest/build/counters_pulp.elf
 */
#include <stdio.h>

#include "counters_work.h"

int main(void)
{
	static const char *const names[] = CSR_PCER_NAMES;
	unsigned int counts[CSR_PCER_NB_EVENTS];
	uint32_t h;

	h = measure(CSR_PCER_ALL_EVENTS_MASK);
	for (unsigned int i = 0; i < CSR_PCER_NB_EVENTS; i++)
		counts[i] = cpu_perf_get(i);

	printf("work() = %08lx, measured with all events at once:\n", (unsigned long)h);
	for (unsigned int i = 0; i < CSR_PCER_NB_EVENTS; i++)
		printf("%-10s %8u\n", names[i], counts[i]);
	/* every table word is loaded and stored once; a branch per word */
	if (counts[CSR_PCER_LD] < WORK_WORDS || counts[CSR_PCER_ST] < WORK_WORDS ||
	    counts[CSR_PCER_BRANCH] < WORK_WORDS ||
	    counts[CSR_PCER_TAKEN_BRANCH] > counts[CSR_PCER_BRANCH] ||
	    counts[CSR_PCER_CYCLES] < counts[CSR_PCER_INSTR]) {
		printf("counters_pulp: the counts are inconsistent\n");
		return 1;
	}
	return 0;
}

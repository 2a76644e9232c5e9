/* test_counters.c - where an instruction's events fall among its cycles
 * (docs/counters.md), as counters_cycles_with counts them: the cycles with
 * at least one event of a mask, the ASIC build's per-cycle OR. Each case is
 * an instruction laid out by hand. Prints "ok - ..." / "not ok - ...". */
#include <stdio.h>

#include "core/counters.h"

static int failures;

static void expect(const struct insn_facts *f, uint32_t mask, uint32_t want, const char *what)
{
	uint32_t got = counters_cycles_with(f, mask);

	if (got == want) {
		printf("ok - counters: %s = %u\n", what, want);
	} else {
		printf("not ok - counters: %s: %u, expected %u\n", what, got, want);
		failures++;
	}
}

int main(void)
{
	/* A misaligned load from external memory on a slow fetch: head 3
	 * (load 2 + misaligned 1), 2 + 2 wait states in cycles 4-7, a fetch
	 * stall in cycle 8. Cycle 1: INSTR LD LD_EXT; cycle 2: LD LD_EXT. */
	struct insn_facts ld = {
		.cycles = 8,
		.first = PC_BIT(INSTR) | PC_BIT(LD) | PC_BIT(LD_EXT),
		.second = PC_BIT(LD) | PC_BIT(LD_EXT),
		.head = 3,
		.ld_wait = 4,
		.stall = 1,
	};
	/* A taken branch, 3 cycles: cycle 1 has BRANCH and BTAKEN. */
	struct insn_facts br = {
		.cycles = 3,
		.first = PC_BIT(INSTR) | PC_BIT(BRANCH) | PC_BIT(BTAKEN),
		.head = 3,
	};
	/* A load with no head cycles of its own (a model pricing loads at 0):
	 * its wait states start in cycle 1, where its events are too. */
	struct insn_facts zero_head = {
		.cycles = 2,
		.first = PC_BIT(INSTR) | PC_BIT(LD) | PC_BIT(LD_EXT),
		.head = 0,
		.ld_wait = 2,
	};

	expect(&ld, PC_BIT(CYCLES), 8, "misaligned external load: CYCLES");
	expect(&ld, PC_BIT(INSTR), 1, "misaligned external load: INSTR");
	expect(&ld, PC_BIT(LD), 2, "misaligned external load: LD counts twice");
	expect(&ld, PC_BIT(LD_EXT), 2, "misaligned external load: LD_EXT counts twice");
	expect(&ld, PC_BIT(LD_EXT_CYC), 4, "misaligned external load: LD_EXT_CYC");
	expect(&ld, PC_BIT(IMISS), 1, "misaligned external load: IMISS");
	expect(&ld, PC_BIT(ST) | PC_BIT(ST_EXT_CYC), 0, "misaligned external load: no store event");
	expect(&ld, PC_BIT(INSTR) | PC_BIT(LD), 2,
	       "misaligned external load: INSTR|LD (cycles 1, 2)");
	expect(&ld, PC_BIT(LD) | PC_BIT(LD_EXT_CYC) | PC_BIT(IMISS), 7,
	       "misaligned external load: LD|LD_EXT_CYC|IMISS (cycles 1, 2, 4-8)");
	expect(&ld, PC_BIT(CYCLES) | PC_BIT(LD), 8, "misaligned external load: CYCLES|LD");
	expect(&br, PC_BIT(BRANCH) | PC_BIT(BTAKEN), 1, "taken branch: BRANCH|BTAKEN, one cycle");
	expect(&br, PC_BIT(JUMP) | PC_BIT(RVC), 0, "taken branch: JUMP|RVC");
	expect(&zero_head, PC_BIT(LD) | PC_BIT(LD_EXT_CYC), 2,
	       "wait states from cycle 1: LD|LD_EXT_CYC counts cycle 1 once");
	return failures != 0;
}

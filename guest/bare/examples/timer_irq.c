/* timer_irq.c - a machine timer interrupt every PERIOD cycles drives a
 * counter while main waits with wfi; the handler re-arms mtimecmp. mtime
 * advances with the cost model's clock, so the ticks are deterministic. */
#include <stdio.h>

#include <cyclops/bare.h>

#define PERIOD 5000
#define TICKS  10

static volatile unsigned ticks;
static volatile uint64_t next;

__attribute__((interrupt("machine"), aligned(4))) static void on_trap(void)
{
	uint32_t cause = csr_read(mcause);

	if (cause != (MCAUSE_INTERRUPT | 7))
		bare_exit(100 + (int)(cause & 0x1f));
	ticks++;
	next += PERIOD;
	bare_set_mtimecmp(ticks < TICKS ? next : UINT64_MAX);
}

int main(void)
{
	uint64_t start;

	csr_write(mtvec, (uintptr_t)on_trap);
	start = bare_mtime();
	next = start + PERIOD;
	bare_set_mtimecmp(next);
	csr_set(mie, MIE_MTIE);
	csr_set(mstatus, MSTATUS_MIE);
	while (ticks < TICKS)
		__asm__ volatile("wfi");
	csr_clear(mstatus, MSTATUS_MIE);
	printf("%u timer interrupts, %s\n", ticks,
	       bare_mtime() - start >= (uint64_t)TICKS * PERIOD ? "on time" : "too early");
	return ticks == TICKS ? 0 : 1;
}

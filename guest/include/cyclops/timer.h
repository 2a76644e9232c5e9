/* Channel timers for guest programs: timers that cost the guest almost
 * nothing. The VM watches three channels in guest memory (a 512-byte message
 * buffer, a length word, a signal word) once CY_TIMER_INIT has announced
 * them; a start is one copy of the label and one store, a stop one store.
 * Under `cyclops run --timers` the VM prints the tree of timers and explains
 * the expensive steps inside them (docs/timers.md); anywhere else (qemu, a
 * run without the option) the announcement writes only x0 and the stores go
 * to ordinary memory, so the program behaves the same.
 *
 *	int main(void)
 *	{
 *		CY_TIMER_INIT();                 once, before the first start
 *		CY_TIMER_START("load");
 *		...
 *		CY_TIMER_START("parse");         nested: a child of "load"
 *		...
 *		CY_TIMER_STOP_START("check");    stops "parse", starts "check"
 *		...
 *		CY_TIMER_STOP();                 stops "check"
 *		CY_TIMER_STOP();                 stops "load"
 *	}
 *
 * Labels are string literals (cy_timer_start(label, len) takes any bytes);
 * longer than 512 bytes they are cut. A timer counts from just after the
 * length store of its start to just before the signal store of its stop.
 * Define CY_TIMERS_OFF before including this header to compile every
 * timer out (the macros become empty statements). */
#ifndef CYCLOPS_TIMER_H
#define CYCLOPS_TIMER_H

#include <stdint.h>

#define CY_TIMER_MSG_BYTES 512

/* The channels: weak definitions, so that every file may include this. */
__attribute__((weak, aligned(4))) char cy_timer_msg_channel[CY_TIMER_MSG_BYTES];
__attribute__((weak)) volatile uint32_t cy_timer_len_channel;
__attribute__((weak)) volatile uint32_t cy_timer_signal_channel;

#ifdef CY_TIMERS_OFF
#define CY_TIMER_INIT()             ((void)0)
#define CY_TIMER_START(label)       ((void)0)
#define CY_TIMER_STOP_START(label)  ((void)0)
#define CY_TIMER_STOP()             ((void)0)
#define cy_timer_start(label, len)  ((void)(label), (void)(len))
#else
/* The announcement, exactly as the VM recognises it: uncompressed (norvc)
 * and unrelaxed (norelax: the linker would turn an auipc/addi pair near
 * the global pointer into one gp-relative addi). lla is la without the GOT,
 * what la is in a static non-PIC link. The magic 0xCDCDCDCD is spelled as
 * the lui/addi pair `li x0, 0xCDCDCDCD` is on RV32, so that RV64, where
 * li would take four instructions for it, announces with the same words. */
#define CY_TIMER_INIT()                                                                            \
	__asm__ volatile(".option push\n\t.option norvc\n\t.option norelax\n\t"                    \
			 "nop\n\t"                                                                 \
			 "lui x0, 0xcdcdd\n\t"                                                    \
			 "addi x0, x0, -0x233\n\t"                                                \
			 "lla x0, cy_timer_msg_channel\n\t"                                        \
			 "lla x0, cy_timer_len_channel\n\t"                                        \
			 "lla x0, cy_timer_signal_channel\n\t"                                     \
			 "nop\n\t"                                                                 \
			 ".option pop" ::                                                          \
			     : "memory")

static inline __attribute__((always_inline)) void cy_timer_start(const char *label,
								 uint32_t len)
{
	if (len > CY_TIMER_MSG_BYTES)
		len = CY_TIMER_MSG_BYTES;
	__builtin_memcpy(cy_timer_msg_channel, label, len);
	/* the label is in place before the length announces it */
	__asm__ volatile("" ::: "memory");
	cy_timer_len_channel = len;
}

#define CY_TIMER_START(label) cy_timer_start("" label, sizeof(label) - 1)
#define CY_TIMER_STOP()       ((void)(cy_timer_signal_channel = 0))
#define CY_TIMER_STOP_START(label)                                                                 \
	do {                                                                                       \
		CY_TIMER_STOP();                                                                   \
		CY_TIMER_START(label);                                                             \
	} while (0)
#endif

#endif

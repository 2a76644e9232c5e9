/* lib.c - the devices of the bare platform for C firmware (cyclops/bare.h),
 * and stdout/stderr for picolibc's tiny stdio on the UART, so printf works
 * the same as in a Linux guest. */
#include <stdio.h>

#include <cyclops/bare.h>

#define MMIO8(a)  (*(volatile uint8_t *)(uintptr_t)(a))
#define MMIO32(a) (*(volatile uint32_t *)(uintptr_t)(a))

void bare_exit(int code)
{
	fflush(stdout);
	tohost = ((uint64_t)(uint32_t)code << 1) | 1;
	for (;;)
		;
}

void bare_uart_putc(char c)
{
	while (!(MMIO8(BARE_UART + BARE_UART_LSR) & BARE_UART_LSR_THRE))
		;
	MMIO8(BARE_UART + BARE_UART_THR) = (uint8_t)c;
}

void bare_htif_putc(char c)
{
	while (tohost)
		;
	tohost = (1ull << 56) | (1ull << 48) | (uint8_t)c;
}

void bare_puts(const char *s)
{
	while (*s)
		bare_uart_putc(*s++);
}

uint64_t bare_mtime(void)
{
	uint32_t hi, lo;

	do { /* the high word must not move while the low one is read */
		hi = MMIO32(BARE_CLINT_MTIME + 4);
		lo = MMIO32(BARE_CLINT_MTIME);
	} while (hi != MMIO32(BARE_CLINT_MTIME + 4));
	return (uint64_t)hi << 32 | lo;
}

void bare_set_mtimecmp(uint64_t t)
{
	/* no spurious interrupt between the two halves */
	MMIO32(BARE_CLINT_MTIMECMP + 4) = 0xffffffffu;
	MMIO32(BARE_CLINT_MTIMECMP) = (uint32_t)t;
	MMIO32(BARE_CLINT_MTIMECMP + 4) = (uint32_t)(t >> 32);
}

static int uart_put(char c, FILE *f)
{
	(void)f;
	bare_uart_putc(c);
	return (unsigned char)c;
}

static FILE uart_stream = FDEV_SETUP_STREAM(uart_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &uart_stream;
FILE *const stderr = &uart_stream;
FILE *const stdin = NULL;

void _exit(int code) { bare_exit(code); }

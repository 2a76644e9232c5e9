/* bare.h - bare-metal firmware for `cyclops run --platform bare`
 * (docs/bare-metal.md): CSR access, the CLINT timer, HTIF tohost and the UART.
 * Link with guest/bare/start.S, lib.c and link.ld. */
#ifndef CYCLOPS_BARE_H
#define CYCLOPS_BARE_H

#include <stdint.h>

#define BARE_CLINT_MSIP     0x02000000u
#define BARE_CLINT_MTIMECMP 0x02004000u
#define BARE_CLINT_MTIME    0x0200bff8u
#define BARE_UART           0x10000000u
#define BARE_UART_THR       0
#define BARE_UART_LSR       5
#define BARE_UART_LSR_THRE  0x20

#define MSTATUS_MIE (1u << 3)
#define MIE_MSIE    (1u << 3)
#define MIE_MTIE    (1u << 7)
#define MCAUSE_INTERRUPT 0x80000000u

#define csr_read(csr)                                                                       \
	({                                                                                  \
		uint32_t v_;                                                                \
		__asm__ volatile("csrr %0, " #csr : "=r"(v_));                              \
		v_;                                                                         \
	})
#define csr_write(csr, v) __asm__ volatile("csrw " #csr ", %0" ::"r"((uint32_t)(v)))
#define csr_set(csr, v)   __asm__ volatile("csrs " #csr ", %0" ::"r"((uint32_t)(v)))
#define csr_clear(csr, v) __asm__ volatile("csrc " #csr ", %0" ::"r"((uint32_t)(v)))

extern volatile uint64_t tohost, fromhost;

/* Ends the run: the host exits with code (HTIF: tohost = code << 1 | 1). */
void bare_exit(int code) __attribute__((noreturn));
/* One character through the UART's transmit register. */
void bare_uart_putc(char c);
/* One character through the HTIF console (device 1, command 1). */
void bare_htif_putc(char c);
void bare_puts(const char *s); /* through the UART, no newline added */

/* mtime and mtimecmp: 64-bit registers read and written as two words. */
uint64_t bare_mtime(void);
void bare_set_mtimecmp(uint64_t t);

#endif

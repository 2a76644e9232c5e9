/* uart_hello.c - the smallest firmware: a greeting through the UART's
 * transmit register, then exit code 0 through tohost. */
#include <cyclops/bare.h>

int main(void)
{
	bare_puts("Hello from machine mode, hart ");
	bare_uart_putc((char)('0' + csr_read(mhartid)));
	bare_puts("\n");
	return 0;
}

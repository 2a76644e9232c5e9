/* portable.c - a program that fits both platforms: as a Linux guest it
 * prints through write(2), built by guest/bare/Makefile as firmware through
 * the UART. The differential test checks that both print the same. The
 * cycle-tracker lines measure the prime sieve under --cycle-tracker on
 * either platform (plain output lines elsewhere). */
#include <stdio.h>
#include <stdint.h>

static uint32_t crc32(const uint8_t *p, int n)
{
	uint32_t c = 0xffffffffu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c >> 1 ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

int main(void)
{
	static const uint8_t text[] = "123456789";
	uint32_t a = 0, b = 1;
	int primes = 0;

	printf("cycle-tracker-start: primes\n");
	for (int n = 2; n < 2000; n++) {
		int p = 1;
		for (int d = 2; d * d <= n && p; d++)
			p = n % d != 0;
		primes += p;
	}
	printf("cycle-tracker-end: primes\n");
	for (int i = 0; i < 40; i++) {
		uint32_t t = a + b;
		a = b;
		b = t;
	}
	printf("primes below 2000: %d\n", primes);
	printf("fib(40): %lu\n", (unsigned long)a);
	printf("crc32(\"123456789\"): %08lx\n", (unsigned long)crc32(text, 9));
	return primes == 303 && a == 102334155u && crc32(text, 9) == 0xcbf43926u ? 0 : 1;
}

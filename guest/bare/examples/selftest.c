/* selftest.c - a self-checking firmware in the style of a conformance
 * test: it reports through the HTIF console and exits through tohost with
 * the number of the first failed check (0: all passed). */
#include <cyclops/bare.h>

static void say(const char *s)
{
	while (*s)
		bare_htif_putc(*s++);
}

static int check(int n, int ok)
{
	say(ok ? "pass " : "FAIL ");
	bare_htif_putc((char)('0' + n));
	bare_htif_putc('\n');
	return ok ? 0 : n;
}

int main(void)
{
	volatile uint32_t a = 0x12345678, b = 7;
	uint32_t misa = csr_read(misa);
	int failed = 0;

	/* misa: MXL 1 (32-bit) and I, M, A, C */
	failed = failed ? failed : check(1, misa == (1u << 30 | 1u << 0 | 1u << 2 | 1u << 8 | 1u << 12));
	failed = failed ? failed : check(2, a * b == 0x7f6e5d48u);
	failed = failed ? failed : check(3, a / b == 0x299c335u && a % b == 5);
	csr_write(mscratch, 0xabcd);
	failed = failed ? failed : check(4, csr_read(mscratch) == 0xabcd);
	failed = failed ? failed : check(5, csr_read(mhartid) == 0);
	say(failed ? "selftest failed\n" : "selftest passed\n");
	return failed;
}

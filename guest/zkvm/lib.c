/* lib.c - what freestanding zkVM guests need from a C library: the memory
 * functions GCC may call, and text output through the zkVM WRITE. */
#include <cyclops/zkvm.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

void zk_puts(uint32_t fd, const char *s) { zk_write(fd, s, strlen(s)); }

/* Writes len bytes as hex, then a newline. */
void zk_put_hex(uint32_t fd, const void *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = p;
	char buf[2 * 128 + 1];
	size_t n = 0;

	for (size_t i = 0; i < len && i < 128; i++) {
		buf[n++] = digits[b[i] >> 4];
		buf[n++] = digits[b[i] & 15];
	}
	buf[n++] = '\n';
	zk_write(fd, buf, n);
}

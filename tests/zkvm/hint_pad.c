/* hint_pad.c - HINT_READ fills whole words as the executors do: a 5-byte
 * frame into a buffer of 0xaa bytes leaves zeros up to the end of its word
 * (4 bytes at 32 bits: bytes 5..7), and SP1 v6 writes one more 8-byte word
 * after the frame's whole ones (bytes 5..7 at 64 bits too; and for an
 * 8-byte frame, bytes 8..15). Prints the 16 bytes after each read. */
#include <cyclops/zkvm.h>

int main(void)
{
	static unsigned char buf[16] __attribute__((aligned(8)));

	for (int i = 0; i < 2; i++) {
		size_t n = zk_hint_len();
		memset(buf, 0xaa, sizeof(buf));
		zk_hint_read(buf, n);
		zk_put_hex(ZK_FD_STDOUT, buf, sizeof(buf));
	}
	return 0;
}

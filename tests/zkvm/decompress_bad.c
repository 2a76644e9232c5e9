/* decompress_bad.c - SECP256K1_DECOMPRESS of x = 5, which is on no point
 * of secp256k1 (5^3 + 7 is not a square): the run must stop with a
 * message naming the syscall and the pc. */
#include <cyclops/zkvm.h>

int main(void)
{
	static uint32_t pt[16];

	pt[8] = 5; /* x, little-endian words in the upper half */
	zk_ecall(ZK_SECP256K1_DECOMPRESS, (uint32_t)(uintptr_t)pt, 0, 0);
	return 0;
}

/* precompile_keccak.c - KECCAK_PERMUTE: the Keccak-f[1600] permutation
 * (FIPS 202, section 3), 24 rounds on 25 64-bit lanes, lane (x, y) at
 * index x + 5y. */
#include "abi/zkvm.h"

#define KECCAK_ROUNDS 24

static const uint64_t round_constants[KECCAK_ROUNDS] = {
	0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
	0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
	0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
	0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
	0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
	0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

/* rho offsets by lane index */
static const unsigned rho[25] = {
	0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
	25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14,
};

static inline uint64_t rol(uint64_t x, unsigned n) { return n ? x << n | x >> (64 - n) : x; }

void keccak_f1600(uint64_t a[25])
{
	for (int round = 0; round < KECCAK_ROUNDS; round++) {
		uint64_t c[5], d[5], b[25];
		for (int x = 0; x < 5; x++)
			c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
		for (int x = 0; x < 5; x++)
			d[x] = c[(x + 4) % 5] ^ rol(c[(x + 1) % 5], 1);
		for (int i = 0; i < 25; i++)
			a[i] ^= d[i % 5];
		/* rho and pi: lane (x, y) moves to (y, 2x + 3y) */
		for (int x = 0; x < 5; x++)
			for (int y = 0; y < 5; y++)
				b[y + 5 * ((2 * x + 3 * y) % 5)] =
				    rol(a[x + 5 * y], rho[x + 5 * y]);
		for (int y = 0; y < 5; y++)
			for (int x = 0; x < 5; x++)
				a[x + 5 * y] = b[x + 5 * y] ^
					       (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
		a[0] ^= round_constants[round];
	}
}

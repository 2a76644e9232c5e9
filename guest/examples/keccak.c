/* SHA3-256 (Keccak-f[1600], FIPS 202) as a guest benchmark, written for
 * cyclops: the 64-bit lane arithmetic of Ethereum's hash. Prints the digest
 * of "abc" (the standard's test vector) and then hashes a 4 KiB buffer
 * argv[1] times (default 20), each digest feeding the next buffer.
 *   keccak.elf [ROUNDS] */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t round_constants[24] = {
	0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
	0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
	0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
	0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
	0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
	0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

/* rho's rotations and pi's lane order, walking the lanes from (1, 0) */
static const unsigned rotations[24] = { 1,  3,	6,  10, 15, 21, 28, 36, 45, 55, 2,  14,
					27, 41, 56, 8,	25, 43, 62, 18, 39, 61, 20, 44 };
static const unsigned lanes[24] = { 10, 7,  11, 17, 18, 3, 5,  16, 8,  21, 24, 4,
				    15, 23, 19, 13, 12, 2, 20, 14, 22, 9,  6,  1 };

static uint64_t rotl(uint64_t x, unsigned n) { return x << n | x >> (64 - n); }

static void keccak_f(uint64_t a[25])
{
	for (int round = 0; round < 24; round++) {
		uint64_t c[5], d, t;
		for (int x = 0; x < 5; x++) /* theta */
			c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
		for (int x = 0; x < 5; x++) {
			d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
			for (int y = 0; y < 25; y += 5)
				a[y + x] ^= d;
		}
		t = a[1]; /* rho and pi */
		for (int i = 0; i < 24; i++) {
			uint64_t next = a[lanes[i]];
			a[lanes[i]] = rotl(t, rotations[i]);
			t = next;
		}
		for (int y = 0; y < 25; y += 5) { /* chi */
			uint64_t row[5];
			for (int x = 0; x < 5; x++)
				row[x] = a[y + x];
			for (int x = 0; x < 5; x++)
				a[y + x] = row[x] ^ (~row[(x + 1) % 5] & row[(x + 2) % 5]);
		}
		a[0] ^= round_constants[round]; /* iota */
	}
}

/* SHA3-256: rate 136 bytes, padding 0x06 ... 0x80. */
static void sha3_256(const uint8_t *data, size_t len, uint8_t out[32])
{
	uint64_t a[25] = { 0 };
	uint8_t block[136];

	for (;;) {
		size_t take = len < sizeof(block) ? len : sizeof(block);
		memset(block, 0, sizeof(block));
		memcpy(block, data, take);
		if (take < sizeof(block)) {
			block[take] ^= 0x06;
			block[sizeof(block) - 1] ^= 0x80;
		}
		for (int i = 0; i < 17; i++) {
			uint64_t lane = 0;
			for (int b = 7; b >= 0; b--)
				lane = lane << 8 | block[i * 8 + b];
			a[i] ^= lane;
		}
		keccak_f(a);
		if (take < sizeof(block))
			break;
		data += take;
		len -= take;
	}
	for (int i = 0; i < 32; i++)
		out[i] = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
}

static void print_digest(const char *what, const uint8_t d[32])
{
	printf("%s", what);
	for (int i = 0; i < 32; i++)
		printf("%02x", d[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 20;
	static uint8_t buffer[4096];
	uint8_t digest[32];

	sha3_256((const uint8_t *)"abc", 3, digest);
	print_digest("sha3-256(\"abc\") = ", digest);
	for (size_t i = 0; i < sizeof(buffer); i++)
		buffer[i] = (uint8_t)(i * 131 + 7);
	for (unsigned r = 0; r < rounds; r++) {
		sha3_256(buffer, sizeof(buffer), digest);
		memcpy(buffer + (r % 128) * 32, digest, 32);
	}
	printf("keccak: %u rounds, ", rounds);
	print_digest("last digest ", digest);
	return 0;
}

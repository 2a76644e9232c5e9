/* SHA-256 (FIPS 180-4) as a guest benchmark: 32-bit rotates, shifts and adds in a
 * tight loop. Checks itself against the published test vectors, then hashes a
 * generated 64 KiB buffer over and over, printing each chained digest. */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SHA256_BLOCK_SIZE 64
#define SHA256_DIGEST_SIZE 32
#define BUFFER_SIZE (64 * 1024)
/* REPEAT: the bench's 10x longer run of the same code (guest/Makefile) */
#ifndef REPEAT
#define REPEAT 1
#endif
#define ROUNDS (8 * REPEAT)

struct sha256 {
	uint32_t state[8];
	uint64_t total_len;	/* bytes fed so far, for the final length field */
	uint8_t block[SHA256_BLOCK_SIZE];
	size_t block_len;
};

static const uint32_t round_constants[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)(x >> 24);
	p[1] = (uint8_t)(x >> 16);
	p[2] = (uint8_t)(x >> 8);
	p[3] = (uint8_t)x;
}

static void sha256_compress(uint32_t state[8], const uint8_t *block)
{
	uint32_t w[64];

	for (int i = 0; i < 16; i++)
		w[i] = load_be32(block + 4 * i);
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}

	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
	uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
	for (int i = 0; i < 64; i++) {
		uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = h + s1 + ch + round_constants[i] + w[i];
		uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = s0 + maj;
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
	state[5] += f;
	state[6] += g;
	state[7] += h;
}

static void sha256_init(struct sha256 *ctx)
{
	static const uint32_t initial_state[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(ctx->state, initial_state, sizeof ctx->state);
	ctx->total_len = 0;
	ctx->block_len = 0;
}

static void sha256_update(struct sha256 *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;

	ctx->total_len += len;
	/* Top up a partial block first, then whole blocks straight from the input. */
	if (ctx->block_len > 0) {
		size_t take = SHA256_BLOCK_SIZE - ctx->block_len;
		if (take > len)
			take = len;
		memcpy(ctx->block + ctx->block_len, p, take);
		ctx->block_len += take;
		p += take;
		len -= take;
		if (ctx->block_len < SHA256_BLOCK_SIZE)
			return;
		sha256_compress(ctx->state, ctx->block);
		ctx->block_len = 0;
	}
	for (; len >= SHA256_BLOCK_SIZE; p += SHA256_BLOCK_SIZE, len -= SHA256_BLOCK_SIZE)
		sha256_compress(ctx->state, p);
	memcpy(ctx->block, p, len);
	ctx->block_len = len;
}

static void sha256_final(struct sha256 *ctx, uint8_t digest[SHA256_DIGEST_SIZE])
{
	uint64_t bit_len = ctx->total_len * 8;
	static const uint8_t pad = 0x80;
	static const uint8_t zeros[SHA256_BLOCK_SIZE];
	uint8_t len_field[8];

	/* Padding: one 1 bit, zeros up to 8 bytes short of a block, the length. */
	sha256_update(ctx, &pad, 1);
	size_t zero_len = (SHA256_BLOCK_SIZE + 56 - ctx->block_len) % SHA256_BLOCK_SIZE;
	sha256_update(ctx, zeros, zero_len);
	store_be32(len_field, (uint32_t)(bit_len >> 32));
	store_be32(len_field + 4, (uint32_t)bit_len);
	sha256_update(ctx, len_field, sizeof len_field);

	for (int i = 0; i < 8; i++)
		store_be32(digest + 4 * i, ctx->state[i]);
}

static void sha256(const void *data, size_t len, uint8_t digest[SHA256_DIGEST_SIZE])
{
	struct sha256 ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, data, len);
	sha256_final(&ctx, digest);
}

static void to_hex(const uint8_t digest[SHA256_DIGEST_SIZE], char hex[2 * SHA256_DIGEST_SIZE + 1])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[2 * SHA256_DIGEST_SIZE] = '\0';
}

/* Returns true when the digest of msg matches the expected hex string. */
static int check_vector(const char *msg, const char *expected)
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1];

	sha256(msg, strlen(msg), digest);
	to_hex(digest, hex);
	int ok = strcmp(hex, expected) == 0;
	printf("sha256(\"%.20s%s\") = %s %s\n", msg, strlen(msg) > 20 ? "..." : "", hex,
	       ok ? "ok" : "MISMATCH");
	return ok;
}

/* Feeding the same bytes in uneven pieces must give the one-shot digest; this
 * exercises the partial-block paths of sha256_update. */
static int check_chunked(const uint8_t *data, size_t len)
{
	uint8_t whole[SHA256_DIGEST_SIZE], pieces[SHA256_DIGEST_SIZE];
	struct sha256 ctx;
	size_t chunk = 1;

	sha256(data, len, whole);
	sha256_init(&ctx);
	for (size_t off = 0; off < len; off += chunk, chunk = chunk * 3 % 97 + 1) {
		size_t n = len - off < chunk ? len - off : chunk;
		sha256_update(&ctx, data + off, n);
	}
	sha256_final(&ctx, pieces);
	int ok = memcmp(whole, pieces, sizeof whole) == 0;
	printf("chunked update %s\n", ok ? "ok" : "MISMATCH");
	return ok;
}

/* Deterministic content: the top byte of a 32-bit LCG (Numerical Recipes). */
static void fill_buffer(uint8_t *buf, size_t len)
{
	uint32_t x = 12345;

	for (size_t i = 0; i < len; i++) {
		x = x * 1664525u + 1013904223u;
		buf[i] = (uint8_t)(x >> 24);
	}
}

static uint8_t buffer[BUFFER_SIZE];

int main(void)
{
	int ok = 1;

	/* FIPS 180-2 appendix B vectors, plus the empty message. */
	ok &= check_vector("abc",
			   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	ok &= check_vector("",
			   "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	ok &= check_vector("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
			   "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");

	fill_buffer(buffer, sizeof buffer);
	ok &= check_chunked(buffer, 10000);

	/* Each round's digest goes into the start of the buffer, so every round
	 * hashes different data and the last digest depends on all of them. */
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	for (int round = 0; round < ROUNDS; round++) {
		sha256(buffer, sizeof buffer, digest);
		memcpy(buffer, digest, sizeof digest);
		to_hex(digest, hex);
		printf("round %2d: %s\n", round, hex);
	}

	if (!ok) {
		printf("sha256: self-check FAILED\n");
		return 1;
	}
	printf("sha256: self-check passed\n");
	return 0;
}

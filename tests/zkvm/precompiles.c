/* precompiles.c - each precompile on a published vector; prints one hex
 * line per result on stdout for tests/run.sh to compare:
 * sha256("abc") through SHA_EXTEND/SHA_COMPRESS, Keccak-f[1600] of the zero
 * state (lanes 0 and 1), keccak256("") through KECCAK_PERMUTE,
 * UINT256_MUL (mod 2^256 and mod the secp256k1 prime), secp256k1 G+G and
 * 2G, BN254 G+G and 2G, ed25519 B+B. Coordinates print as little-endian
 * words (x then y). */
#include <cyclops/zkvm.h>

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* big-endian hex of a 256-bit number into LE words */
static void from_hex(uint32_t w[8], const char *hex)
{
	for (int i = 0; i < 8; i++) {
		uint32_t v = 0;
		for (int j = 0; j < 8; j++) {
			char c = hex[(7 - i) * 8 + j];
			v = v << 4 | (uint32_t)(c <= '9' ? c - '0' : c - 'a' + 10);
		}
		w[i] = v;
	}
}

static void sha256_abc(void)
{
	static uint32_t w[64], h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	unsigned char block[64] = { 'a', 'b', 'c', 0x80 }, out[32];

	block[63] = 24; /* the length in bits */
	for (int i = 0; i < 16; i++)
		w[i] = be32(block + 4 * i);
	zk_precompile(ZK_SHA_EXTEND, w, 0);
	zk_precompile(ZK_SHA_COMPRESS, w, h);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(h[i] >> 8);
		out[4 * i + 3] = (unsigned char)h[i];
	}
	zk_put_hex(ZK_FD_STDOUT, out, 32);
}

static void keccak(void)
{
	static uint64_t st[25];
	unsigned char *b = (unsigned char *)st;

	zk_precompile(ZK_KECCAK_PERMUTE, st, 0);
	zk_put_hex(ZK_FD_STDOUT, st, 16);
	/* keccak256(""): rate 136, pad 0x01 ... 0x80 */
	memset(st, 0, sizeof(st));
	b[0] ^= 0x01;
	b[135] ^= 0x80;
	zk_precompile(ZK_KECCAK_PERMUTE, st, 0);
	zk_put_hex(ZK_FD_STDOUT, st, 32);
}

static void uint256(void)
{
	static uint32_t x[8], ym[16];

	from_hex(x, "0000000000000000000000000000000100000000000000000000000000000001");
	from_hex(ym, "00000000000000000000000000000000ffffffffffffffffffffffffffffffff");
	zk_precompile(ZK_UINT256_MUL, x, ym); /* modulus 0: 2^256 */
	zk_put_hex(ZK_FD_STDOUT, x, 32);
	from_hex(x, "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210");
	from_hex(ym, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	from_hex(ym + 8, "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f");
	zk_precompile(ZK_UINT256_MUL, x, ym);
	zk_put_hex(ZK_FD_STDOUT, x, 32);
}

static void curve(uint32_t add, uint32_t dbl, const char *gx, const char *gy)
{
	static uint32_t p[16], q[16];

	from_hex(p, gx);
	from_hex(p + 8, gy);
	memcpy(q, p, sizeof(q));
	zk_precompile(add, p, q);
	zk_put_hex(ZK_FD_STDOUT, p, 64);
	if (dbl) {
		zk_precompile(dbl, q, 0);
		zk_put_hex(ZK_FD_STDOUT, q, 64);
	}
}

int main(void)
{
	sha256_abc();
	keccak();
	uint256();
	curve(ZK_SECP256K1_ADD, ZK_SECP256K1_DOUBLE,
	      "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
	      "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8");
	curve(ZK_BN254_ADD, ZK_BN254_DOUBLE,
	      "0000000000000000000000000000000000000000000000000000000000000001",
	      "0000000000000000000000000000000000000000000000000000000000000002");
	curve(ZK_ED_ADD, 0, "216936d3cd6e53fec0a4e231fdd6dc5c692cc7609525a7b2c9562d608f25d51a",
	      "6666666666666666666666666666666666666666666666666666666666666658");
	return 0;
}

/* precompiles.c - each precompile on a published vector; prints one hex
 * line per result on stdout for tests/run.sh to compare:
 * sha256("abc") through SHA_EXTEND/SHA_COMPRESS, Keccak-f[1600] of the zero
 * state (lanes 0 and 1), keccak256("") through KECCAK_PERMUTE,
 * UINT256_MUL (mod 2^256 and mod the secp256k1 prime), secp256k1 G+G and
 * 2G, BN254 G+G and 2G, ed25519 B+B, BLS12-381 G1 G+G and 2G, the
 * decompressions of ed25519 B and -B and of secp256k1 G, 2G and -G, and
 * the BLS12-381 and BN254 Fp and Fp2 operations. Coordinates print as
 * little-endian words (x then y; a decompression prints its 64-byte
 * buffer, the computed coordinate first). */
#include <cyclops/zkvm.h>

/* SP1 v6 wants its operands 8-byte aligned */
#define ALIGNED __attribute__((aligned(8)))

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* big-endian hex of a (words * 32)-bit number into LE words */
static void from_hex_n(uint32_t *w, int words, const char *hex)
{
	for (int i = 0; i < words; i++) {
		uint32_t v = 0;
		for (int j = 0; j < 8; j++) {
			char c = hex[(words - 1 - i) * 8 + j];
			v = v << 4 | (uint32_t)(c <= '9' ? c - '0' : c - 'a' + 10);
		}
		w[i] = v;
	}
}

static void from_hex(uint32_t w[8], const char *hex) { from_hex_n(w, 8, hex); }

static void sha256_abc(void)
{
	/* SP1 v6 keeps each word in a 64-bit slot (zk_sha_word) */
	static zk_sha_word w[64] ALIGNED, h[8] ALIGNED = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
							   0xa54ff53a, 0x510e527f, 0x9b05688c,
							   0x1f83d9ab, 0x5be0cd19 };
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
	static uint64_t st[25] ALIGNED;
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
	static uint32_t x[8] ALIGNED, ym[16] ALIGNED;

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
	static uint32_t p[16] ALIGNED, q[16] ALIGNED;

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

/* G1 of BLS12-381, 12 words a coordinate */
static void bls12381(void)
{
	static uint32_t p[24] ALIGNED, q[24] ALIGNED;

	from_hex_n(p, 12,
		   "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1a"
		   "effb3af00adb22c6bb");
	from_hex_n(p + 12, 12,
		   "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888a"
		   "e40caa232946c5e7e1");
	memcpy(q, p, sizeof(q));
	zk_precompile(ZK_BLS12381_ADD, p, q);
	zk_put_hex(ZK_FD_STDOUT, p, sizeof(p));
	zk_precompile(ZK_BLS12381_DOUBLE, q, 0);
	zk_put_hex(ZK_FD_STDOUT, q, sizeof(q));
}

/* As sp1-zkvm's syscall_ed_decompress: the compressed point (y, sign in
 * bit 255) in the upper half, the sign moved to a1. */
static void ed_decompress(const char *compressed_le)
{
	static uint32_t pt[16] ALIGNED;
	unsigned char *b = (unsigned char *)pt;
	uint32_t sign;

	memset(pt, 0, sizeof(pt));
	for (int i = 0; i < 32; i++) {
		const char *h = compressed_le + 2 * i;
		b[32 + i] = (unsigned char)((h[0] <= '9' ? h[0] - '0' : h[0] - 'a' + 10) << 4 |
					    (h[1] <= '9' ? h[1] - '0' : h[1] - 'a' + 10));
	}
	sign = b[63] >> 7;
	b[63] &= 0x7f;
	zk_ecall(ZK_ED_DECOMPRESS, (zk_reg)pt, sign, 0);
	zk_put_hex(ZK_FD_STDOUT, pt, sizeof(pt));
}

#ifndef CY_ZKVM_SP1_V6
/* As sp1-zkvm's syscall_secp256k1_decompress after its byte reversal: x as
 * LE words in the upper half, y comes back in the lower. */
static void secp256k1_decompress(const char *x, uint32_t odd)
{
	static uint32_t pt[16] ALIGNED;

	memset(pt, 0, sizeof(pt));
	from_hex(pt + 8, x);
	zk_ecall(ZK_SECP256K1_DECOMPRESS, (zk_reg)pt, odd, 0);
	zk_put_hex(ZK_FD_STDOUT, pt, sizeof(pt));
}
#endif

/* x = a op b for Fp (n words) and x = (a, b) op (c, d) for Fp2 */
static void field(int n, const uint32_t codes[6], const char *a, const char *b, const char *c,
		  const char *d)
{
	static uint32_t x[24] ALIGNED, y[24] ALIGNED;

	for (int i = 0; i < 3; i++) {
		from_hex_n(x, n, i == 1 ? b : a); /* SUB: b - a, which wraps */
		from_hex_n(y, n, i == 1 ? a : b);
		zk_precompile(codes[i], x, y);
		zk_put_hex(ZK_FD_STDOUT, x, (size_t)n * 4);
	}
	for (int i = 3; i < 6; i++) {
		from_hex_n(x, n, a);
		from_hex_n(x + n, n, b);
		from_hex_n(y, n, c);
		from_hex_n(y + n, n, d);
		zk_precompile(codes[i], x, y);
		zk_put_hex(ZK_FD_STDOUT, x, (size_t)n * 8);
	}
}

int main(void)
{
	static const uint32_t bls_codes[6] = { ZK_BLS12381_FP_ADD,  ZK_BLS12381_FP_SUB,
					       ZK_BLS12381_FP_MUL,  ZK_BLS12381_FP2_ADD,
					       ZK_BLS12381_FP2_SUB, ZK_BLS12381_FP2_MUL };
	static const uint32_t bn_codes[6] = { ZK_BN254_FP_ADD,	ZK_BN254_FP_SUB,
					      ZK_BN254_FP_MUL,	ZK_BN254_FP2_ADD,
					      ZK_BN254_FP2_SUB, ZK_BN254_FP2_MUL };

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
	bls12381();
	/* RFC 8032's encoding of B, then of -B (the sign bit set) */
	ed_decompress("5866666666666666666666666666666666666666666666666666666666666666");
	ed_decompress("58666666666666666666666666666666666666666666666666666666666666e6");
#ifndef CY_ZKVM_SP1_V6 /* v6's executor dropped the Weierstrass decompressions */
	secp256k1_decompress("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", 0);
	secp256k1_decompress("c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5", 0);
	secp256k1_decompress("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", 1);
#endif
	field(12, bls_codes,
	      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf"
	      "6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaaa",
	      "0123456789abcdef0123456789abcdef0123456789abcdef"
	      "0123456789abcdef0123456789abcdef0123456789abcdef",
	      "0fedcba9876543210fedcba9876543210fedcba987654321"
	      "0fedcba9876543210fedcba9876543210fedcba987654321",
	      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf"
	      "6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaa9");
	field(8, bn_codes, "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd46",
	      "1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef",
	      "0fedcba9876543210fedcba9876543210fedcba9876543210fedcba987654321",
	      "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd45");
	return 0;
}

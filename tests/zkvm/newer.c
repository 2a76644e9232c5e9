/* newer.c - the precompiles and hooks beyond SP1 v3's first table, built
 * for each flavor (tests/zkvm/Makefile: v3, v4 with -DCY_ZKVM_SP1_V4,
 * v6 at 64 bits, Pico with -DCY_ZKVM_PICO) and checked against
 * expected_newer.py, which works each line out with Python's integers from
 * published vectors (P-256's G and 2G, BLS12-381's G1, RFC 6979's P-256
 * signature) and from the definitions. One hex line per result: a
 * precompile's buffer, or each frame a hook answers (read back through
 * HINT_LEN/HINT_READ), or "-" for none. */
#include <cyclops/zkvm.h>

#define ALIGNED __attribute__((aligned(8)))

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

/* big-endian hex into bytes as they are */
static size_t bytes(unsigned char *out, const char *hex)
{
	size_t n = 0;

	for (; hex[2 * n]; n++) {
		const char *h = hex + 2 * n;
		out[n] = (unsigned char)((h[0] <= '9' ? h[0] - '0' : h[0] - 'a' + 10) << 4 |
					 (h[1] <= '9' ? h[1] - '0' : h[1] - 'a' + 10));
	}
	return n;
}

/* hex lines of at most 128 bytes (zk_put_hex's most) */
static void put_long(const unsigned char *p, size_t n)
{
	do {
		size_t k = n < 128 ? n : 128;
		zk_put_hex(ZK_FD_STDOUT, p, k);
		p += k, n -= k;
	} while (n);
}

/* The frames a hook answered, each on its lines. */
static void answers(int frames)
{
	static unsigned char buf[1024] ALIGNED;

	for (int i = 0; i < frames; i++) {
		size_t n = zk_hint_len();
		if (n > sizeof(buf))
			zk_halt(90);
		zk_hint_read(buf, n);
		put_long(buf, n);
	}
}

static void hook(uint32_t fd, const char *hex, int frames)
{
	static unsigned char in[1024] ALIGNED;

	zk_write(fd, in, bytes(in, hex));
	answers(frames);
}

#define P256_GX "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
#define P256_GY "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"
#define BLS_GX                                                                                     \
	"17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af0"   \
	"0adb22c6bb"

#ifdef ZK_SECP256R1_ADD
static void secp256r1(void)
{
	static uint32_t p[16] ALIGNED, q[16] ALIGNED;

	from_hex_n(p, 8, P256_GX);
	from_hex_n(p + 8, 8, P256_GY);
	memcpy(q, p, sizeof(q));
	zk_precompile(ZK_SECP256R1_ADD, p, q);
	zk_put_hex(ZK_FD_STDOUT, p, sizeof(p));
	zk_precompile(ZK_SECP256R1_DOUBLE, q, 0);
	zk_put_hex(ZK_FD_STDOUT, q, sizeof(q));
#ifndef CY_ZKVM_SP1_V6 /* v6's executor dropped the Weierstrass decompressions */
	for (uint32_t odd = 0; odd < 2; odd++) {
		memset(p, 0, sizeof(p));
		from_hex_n(p + 8, 8, P256_GX);
		zk_ecall(ZK_SECP256R1_DECOMPRESS, (zk_reg)p, odd, 0);
		zk_put_hex(ZK_FD_STDOUT, p, sizeof(p));
	}
#endif
}
#endif

#ifndef CY_ZKVM_SP1_V6
/* BLS12-381 G1's x in the upper half; the flag asks for the larger y */
static void bls12381_decompress(void)
{
	static uint32_t pt[24] ALIGNED;

	for (uint32_t larger = 0; larger < 2; larger++) {
		memset(pt, 0, sizeof(pt));
		from_hex_n(pt + 12, 12, BLS_GX);
		zk_ecall(ZK_BLS12381_DECOMPRESS, (zk_reg)pt, larger, 0);
		zk_put_hex(ZK_FD_STDOUT, pt, sizeof(pt));
	}
}
#endif

#ifdef ZK_U256XU2048_MUL
/* (2^256 - 1) * (2^2048 - 3): lo in a2's buffer, hi in a3's */
static void u256x2048(void)
{
	static uint32_t a[8] ALIGNED, b[64] ALIGNED, lo[64] ALIGNED, hi[8] ALIGNED;

	memset(a, 0xff, sizeof(a));
	memset(b, 0xff, sizeof(b));
	b[0] = 0xfffffffd;
	zk_ecall5(ZK_U256XU2048_MUL, (zk_reg)a, (zk_reg)b, (zk_reg)lo, (zk_reg)hi, 0);
	put_long((const unsigned char *)lo, sizeof(lo));
	put_long((const unsigned char *)hi, sizeof(hi));
}
#endif

#ifdef CY_ZKVM_SP1_V6
/* (2^256 - 1) op (2^256 - 1) + 5, the low half in d, the high in e */
static void uint256_carry(void)
{
	static uint32_t a[8] ALIGNED, c[8] ALIGNED, d[8] ALIGNED, e[8] ALIGNED;
	const uint32_t codes[2] = { ZK_UINT256_ADD_CARRY, ZK_UINT256_MUL_CARRY };

	memset(a, 0xff, sizeof(a));
	c[0] = 5;
	for (int i = 0; i < 2; i++) {
		zk_ecall5(codes[i], (zk_reg)a, (zk_reg)a, (zk_reg)c, (zk_reg)d, (zk_reg)e);
		zk_put_hex(ZK_FD_STDOUT, d, sizeof(d));
		zk_put_hex(ZK_FD_STDOUT, e, sizeof(e));
	}
}
#endif

/* The SP1 v3-era hooks: secp256k1 recovery of d = 1's signature of hash h
 * with nonce k = 2 (so r is 2G's x; the key is G), in both forms; the
 * same with r = 5, which no point has as x (v2 answers 0); RFC 6979's
 * P-256 "sample" signature's 1/s; ed25519 B's encoding and a y on no point. */
#define SIG_K1                                                                                     \
	"c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5"                         \
	"e3023fca20f6beb69822a0374ae03e6b8b9335991e1bee71b5bf342316537571" /* s, high */
#define HASH "0000000000000000000000000000000000000000000000000000000000000abc"

static void hooks(void)
{
#if defined(ZK_FD_ECRECOVER_V1)
	hook(ZK_FD_ECRECOVER_V1, SIG_K1 "00" HASH, 2);
	hook(ZK_FD_ECRECOVER_V2, SIG_K1 "00" HASH, 3);
	hook(ZK_FD_ECRECOVER_V2,
	     "0000000000000000000000000000000000000000000000000000000000000005" /* r = 5 */
	     "0000000000000000000000000000000000000000000000000000000000000001" /* s */
	     "00" HASH,
	     1);
	hook(ZK_FD_ECRECOVER_R1,
	     "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
	     "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
	     1);
#endif
#ifdef ZK_FD_ED_CHECK
	hook(ZK_FD_ED_CHECK, "5866666666666666666666666666666666666666666666666666666666666666", 1);
	hook(ZK_FD_ED_CHECK, "0200000000000000000000000000000000000000000000000000000000000000", 1);
#endif
#ifdef ZK_FD_ECRECOVER
	/* r = secp256k1 G's x, alpha = r^3 + 7: its y (even, then odd) and 1/r;
	 * r = 5: 5^3 + 7 = 132 is no square: a root of 3 * 132 */
	hook(ZK_FD_ECRECOVER,
	     "01" "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
	     "4866d6a5ab41ab2c6bcc57ccd3735da5f16f80a548e5e20a44e4e9b8118c26f2", 3);
	hook(ZK_FD_ECRECOVER,
	     "81" "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
	     "4866d6a5ab41ab2c6bcc57ccd3735da5f16f80a548e5e20a44e4e9b8118c26f2", 3);
	hook(ZK_FD_ECRECOVER,
	     "01" "0000000000000000000000000000000000000000000000000000000000000005"
	     "0000000000000000000000000000000000000000000000000000000000000084", 2);
#ifndef CY_ZKVM_PICO
	/* r = P-256 G's x, alpha = r^3 - 3r + b: G's y (odd) and 1/r */
	hook(ZK_FD_ECRECOVER,
	     "82" P256_GX "55df5d5850f47bad82149139979369fe498a9022a412b5e0bedd2cfc21c3ed91", 3);
	/* alpha = 0, which p256 takes (k256 refuses it): y = 0 whatever the
	 * parity asked, and 1/r */
	hook(ZK_FD_ECRECOVER,
	     "82" "0000000000000000000000000000000000000000000000000000000000000002"
	     "0000000000000000000000000000000000000000000000000000000000000000", 3);
#endif
#endif
#ifdef ZK_FD_ED_DECOMPRESS
	/* B's y with v = d y^2 + 1: a point (1); y = 2: none (0, 1/v, a root) */
	hook(ZK_FD_ED_DECOMPRESS,
	     "5866666666666666666666666666666666666666666666666666666666666666"
	     "7a2e8b682f9896d01bc89acdc0628fe1fa19fc3762aedb4fd9a2708c1dac164e", 1);
	hook(ZK_FD_ED_DECOMPRESS,
	     "0200000000000000000000000000000000000000000000000000000000000000"
	     "b3e2654d2837add7ad6207053529c00160a2e7dde5011d33cef9bfadb8b30d48", 3);
	/* the product 2^1000 + 12345 and the modulus 2^2047 + 1 (768 bytes, LE) */
	{
		static unsigned char in[768] ALIGNED;
		in[0] = 0x39, in[1] = 0x30, in[125] = 0x01; /* 12345 + 2^1000 */
		in[512] = 0x01, in[767] = 0x80;             /* 1 + 2^2047 */
		zk_write(ZK_FD_RSA_MUL_MOD, in, sizeof(in));
		answers(2);
		in[125] = 0, in[511] = 0x40; /* 12345 + 2^4094: a quotient of 2^2047 */
		zk_write(ZK_FD_RSA_MUL_MOD, in, sizeof(in));
		answers(2);
	}
	/* 4 and p - 1 (no square: p = 3 mod 4) in BLS12-381's field; 3's inverse */
	hook(ZK_FD_BLS12_381_SQRT,
	     "000000000000000000000000000000000000000000000000000000000000000000000000000000000"
	     "000000000000004", 2);
	hook(ZK_FD_BLS12_381_SQRT,
	     "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9f"
	     "effffffffaaaa", 2);
	hook(ZK_FD_BLS12_381_INV,
	     "000000000000000000000000000000000000000000000000000000000000000000000000000000000"
	     "000000000000003", 1);
	/* FP_SQRT of 2 mod secp256k1's p (3 mod 4), of 4 and of 5 mod BN254's
	 * scalar field r (1 mod 4, Tonelli-Shanks; 5 is no square there); 3's inverse */
	hook(ZK_FD_FP_SQRT,
	     "00000020"
	     "0000000000000000000000000000000000000000000000000000000000000002"
	     "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f"
	     "0000000000000000000000000000000000000000000000000000000000000003", 2);
	hook(ZK_FD_FP_SQRT,
	     "00000020"
	     "0000000000000000000000000000000000000000000000000000000000000004"
	     "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
	     "0000000000000000000000000000000000000000000000000000000000000005", 2);
	hook(ZK_FD_FP_SQRT,
	     "00000020"
	     "0000000000000000000000000000000000000000000000000000000000000005"
	     "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
	     "0000000000000000000000000000000000000000000000000000000000000005", 2);
	hook(ZK_FD_FP_INV,
	     "00000020"
	     "0000000000000000000000000000000000000000000000000000000000000003"
	     "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", 1);
#endif
}

int main(void)
{
#ifdef ZK_SECP256R1_ADD
	secp256r1();
#endif
#ifndef CY_ZKVM_SP1_V6
	bls12381_decompress();
#endif
#ifdef ZK_U256XU2048_MUL
	u256x2048();
#endif
#ifdef CY_ZKVM_SP1_V6
	uint256_carry();
#endif
	hooks();
	return 0;
}

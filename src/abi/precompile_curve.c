/* precompile_curve.c - the elliptic-curve precompiles in affine
 * coordinates with GMP: short Weierstrass curves y^2 = x^3 + a x + b
 * (secp256k1, secp256r1, BN254, BLS12-381 G1) and the twisted Edwards curve
 * ed25519, their sums, doublings and decompressions. Coordinates are
 * little-endian word arrays, x first. */
#include <gmp.h>
#include <string.h>

#include "abi/bignum.h"
#include "abi/zkvm.h"

struct curve {
	const char *p; /* the field prime, hex */
	const char *n; /* the group order, hex (the hooks' scalar field) */
	unsigned words;
	long a;        /* y^2 = x^3 + a x + b */
	const char *b; /* hex */
	/* the decompression flag picks the larger of y and p - y (ZCash's
	 * serialization, which SP1's and Pico's BLS12-381 executor follows),
	 * not y's parity */
	bool flag_is_larger;
};

static const struct curve curves[CURVE_IDS] = {
	[CURVE_SECP256K1] = { "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
			      "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 8,
			      0, "7", false },
	[CURVE_SECP256R1] = { "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
			      "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 8,
			      -3,
			      "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
			      false },
	[CURVE_BN254] = { "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
			  "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", 8, 0,
			  "3", false },
	[CURVE_BLS12381] = { "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241ea"
			     "bfffeb153ffffb9feffffffffaaab",
			     "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 12,
			     0, "4", true },
};

unsigned curve_words(enum curve_id c) { return curves[c].words; }

const char *curve_prime_hex(enum curve_id c) { return curves[c].p; }

const char *curve_order_hex(enum curve_id c) { return curves[c].n; }

/* lambda for P + Q (or 2P when double), then R = (l^2 - x1 - x2, l(x1 - x3) - y1) */
static int weierstrass(enum curve_id c, uint32_t *pw, const uint32_t *qw, bool dbl)
{
	unsigned n = curves[c].words;
	mpz_t p, x1, y1, x2, y2, l, t, x3, y3;
	int rc = 0;

	mpz_inits(p, x1, y1, x2, y2, l, t, x3, y3, NULL);
	mpz_set_str(p, curves[c].p, 16);
	words_to_mpz(x1, pw, n);
	words_to_mpz(y1, pw + n, n);
	if (dbl) {
		mpz_set(x2, x1);
		mpz_set(y2, y1);
	} else {
		words_to_mpz(x2, qw, n);
		words_to_mpz(y2, qw + n, n);
	}
	if (mpz_cmp(x1, x2) == 0 && !dbl && mpz_cmp(y1, y2) == 0)
		dbl = true; /* P + P */
	if (dbl) {
		/* l = (3 x^2 + a) / 2y */
		mpz_mul(l, x1, x1);
		mpz_mul_ui(l, l, 3);
		if (curves[c].a < 0)
			mpz_sub_ui(l, l, (unsigned long)-curves[c].a);
		else
			mpz_add_ui(l, l, (unsigned long)curves[c].a);
		mpz_mul_ui(t, y1, 2);
	} else {
		mpz_sub(l, y2, y1);
		mpz_sub(t, x2, x1);
	}
	mpz_mod(t, t, p);
	if (mpz_sgn(t) == 0 || !mpz_invert(t, t, p)) {
		rc = -1; /* the point at infinity: no affine result */
		goto out;
	}
	mpz_mul(l, l, t);
	mpz_mod(l, l, p);
	mpz_mul(x3, l, l);
	mpz_sub(x3, x3, x1);
	mpz_sub(x3, x3, x2);
	mpz_mod(x3, x3, p);
	mpz_sub(y3, x1, x3);
	mpz_mul(y3, y3, l);
	mpz_sub(y3, y3, y1);
	mpz_mod(y3, y3, p);
	mpz_to_words(pw, n, x3);
	mpz_to_words(pw + n, n, y3);
out:
	mpz_clears(p, x1, y1, x2, y2, l, t, x3, y3, NULL);
	return rc;
}

int weierstrass_add(enum curve_id c, uint32_t *p, const uint32_t *q)
{
	return weierstrass(c, p, q, false);
}

int weierstrass_double(enum curve_id c, uint32_t *p) { return weierstrass(c, p, NULL, true); }

/* ed25519's field prime p = 2^255 - 19 and curve constant d = -121665/121666. */
static void ed25519_constants(mpz_t p, mpz_t d)
{
	mpz_ui_pow_ui(p, 2, 255);
	mpz_sub_ui(p, p, 19);
	mpz_set_ui(d, 121666);
	mpz_invert(d, d, p);
	mpz_mul_si(d, d, -121665);
	mpz_mod(d, d, p);
}

/* ed25519: -x^2 + y^2 = 1 + d x^2 y^2 over 2^255 - 19, d = -121665/121666.
 * x3 = (x1 y2 + y1 x2) / (1 + d x1 x2 y1 y2), y3 = (y1 y2 + x1 x2) / (1 - d ...) */
int ed25519_add(uint32_t pw[16], const uint32_t qw[16])
{
	mpz_t p, d, x1, y1, x2, y2, k, num, den;
	int rc = 0;

	mpz_inits(p, d, x1, y1, x2, y2, k, num, den, NULL);
	ed25519_constants(p, d);
	words_to_mpz(x1, pw, 8);
	words_to_mpz(y1, pw + 8, 8);
	words_to_mpz(x2, qw, 8);
	words_to_mpz(y2, qw + 8, 8);
	mpz_mul(k, x1, x2);
	mpz_mul(k, k, y1);
	mpz_mul(k, k, y2);
	mpz_mul(k, k, d);
	mpz_mod(k, k, p);
	/* x3 */
	mpz_mul(num, x1, y2);
	mpz_addmul(num, y1, x2);
	mpz_add_ui(den, k, 1);
	mpz_mod(den, den, p);
	if (!mpz_invert(den, den, p)) {
		rc = -1;
		goto out;
	}
	mpz_mul(num, num, den);
	mpz_mod(num, num, p);
	mpz_to_words(pw, 8, num);
	/* y3 */
	mpz_mul(num, y1, y2);
	mpz_addmul(num, x1, x2);
	mpz_ui_sub(den, 1, k);
	mpz_mod(den, den, p);
	if (!mpz_invert(den, den, p)) {
		rc = -1;
		goto out;
	}
	mpz_mul(num, num, den);
	mpz_mod(num, num, p);
	mpz_to_words(pw + 8, 8, num);
out:
	mpz_clears(p, d, x1, y1, x2, y2, k, num, den, NULL);
	return rc;
}

/* y from x (at pt + words) with the parity odd, written at pt, as SP1's
 * executor lays it out: the guest reverses its big-endian x||y buffer, so x
 * sits in the upper half as little-endian words. Every prime here is
 * 3 mod 4, so a root of r is r^((p+1)/4) when r is a square. For
 * BLS12-381 the flag asks for the larger root instead (ZCash's rule). */
int weierstrass_decompress(enum curve_id c, uint32_t *pt, bool odd)
{
	unsigned n = curves[c].words;
	mpz_t p, x, r, y, e;
	int rc = 0;

	mpz_inits(p, x, r, y, e, NULL);
	mpz_set_str(p, curves[c].p, 16);
	words_to_mpz(x, pt + n, n);
	if (mpz_cmp(x, p) >= 0) {
		rc = -1; /* not a field element: k256 refuses it too */
		goto out;
	}
	mpz_powm_ui(r, x, 3, p);
	mpz_set_str(e, curves[c].b, 16);
	mpz_add(r, r, e);
	mpz_mul_si(e, x, curves[c].a);
	mpz_add(r, r, e);
	mpz_mod(r, r, p);
	mpz_add_ui(e, p, 1);
	mpz_fdiv_q_2exp(e, e, 2);
	mpz_powm(y, r, e, p);
	mpz_mul(e, y, y);
	mpz_mod(e, e, p);
	if (mpz_cmp(e, r) != 0) {
		rc = -1; /* x^3 + b has no root: x is not on the curve */
		goto out;
	}
	if (curves[c].flag_is_larger) {
		mpz_sub(e, p, y); /* y is the larger when y > p - y */
		if ((mpz_cmp(y, e) > 0) != odd)
			mpz_set(y, e);
	} else if ((mpz_odd_p(y) != 0) != odd) {
		mpz_sub(y, p, y);
	}
	mpz_mod(y, y, p); /* y = 0 stays 0 */
	mpz_to_words(pt, n, y);
out:
	mpz_clears(p, x, r, y, e, NULL);
	return rc;
}

/* x from y (at pt + 8, bit 255 ignored) and the sign (x's low bit), written
 * at pt. x^2 = (y^2 - 1) / (d y^2 + 1); p = 5 mod 8, so a root candidate is
 * u^((p+3)/8), times sqrt(-1) = 2^((p-1)/4) when its square is -u (RFC 8032
 * 5.1.3). A y >= p is taken mod p, and x = 0 with sign 1 gives x = 0, as
 * curve25519-dalek's decompress does, which SP1 calls. */
int ed25519_decompress(uint32_t pt[16], bool sign)
{
	uint32_t yw[8];
	mpz_t p, d, y, u, v, x, e;
	int rc = 0;

	memcpy(yw, pt + 8, sizeof(yw));
	yw[7] &= 0x7fffffffu;
	mpz_inits(p, d, y, u, v, x, e, NULL);
	ed25519_constants(p, d);
	words_to_mpz(y, yw, 8);
	mpz_mul(y, y, y);
	mpz_mod(y, y, p); /* y^2 from here on */
	mpz_sub_ui(u, y, 1);
	mpz_mul(v, d, y);
	mpz_add_ui(v, v, 1);
	mpz_mod(v, v, p);
	if (!mpz_invert(v, v, p)) { /* never: -1/d is not a square */
		rc = -1;
		goto out;
	}
	mpz_mul(u, u, v);
	mpz_mod(u, u, p); /* u = x^2 */
	mpz_add_ui(e, p, 3);
	mpz_fdiv_q_2exp(e, e, 3);
	mpz_powm(x, u, e, p);
	mpz_mul(e, x, x);
	mpz_mod(e, e, p);
	if (mpz_cmp(e, u) != 0) {
		mpz_sub_ui(e, p, 1);
		mpz_fdiv_q_2exp(e, e, 2);
		mpz_set_ui(v, 2);
		mpz_powm(v, v, e, p);
		mpz_mul(x, x, v);
		mpz_mod(x, x, p);
		mpz_mul(e, x, x);
		mpz_mod(e, e, p);
		if (mpz_cmp(e, u) != 0) {
			rc = -1; /* no square root: y is not on the curve */
			goto out;
		}
	}
	if ((mpz_odd_p(x) != 0) != sign && mpz_sgn(x) != 0)
		mpz_sub(x, p, x);
	mpz_to_words(pt, 8, x);
out:
	mpz_clears(p, d, y, u, v, x, e, NULL);
	return rc;
}

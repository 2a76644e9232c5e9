/* precompile_curve.c - the elliptic-curve precompiles in affine
 * coordinates with GMP: short Weierstrass curves y^2 = x^3 + b (secp256k1,
 * BN254, BLS12-381 G1) and the twisted Edwards curve ed25519. Coordinates
 * are little-endian word arrays, x first. */
#include <gmp.h>
#include <string.h>

#include "zkvm.h"

struct curve {
	const char *p; /* the field prime, hex */
	unsigned words;
};

static const struct curve curves[] = {
	[CURVE_SECP256K1] = { "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
			      8 },
	[CURVE_BN254] = { "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", 8 },
	[CURVE_BLS12381] = { "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241ea"
			     "bfffeb153ffffb9feffffffffaaab",
			     12 },
};

unsigned curve_words(enum curve_id c) { return curves[c].words; }

static void load(mpz_t z, const uint32_t *w, unsigned words)
{
	mpz_import(z, words, -1, 4, -1, 0, w);
}

static void store(uint32_t *w, unsigned words, const mpz_t z)
{
	size_t n = 0;

	memset(w, 0, words * 4);
	mpz_export(w, &n, -1, 4, -1, 0, z);
}

/* lambda for P + Q (or 2P when double), then R = (l^2 - x1 - x2, l(x1 - x3) - y1) */
static int weierstrass(enum curve_id c, uint32_t *pw, const uint32_t *qw, bool dbl)
{
	unsigned n = curves[c].words;
	mpz_t p, x1, y1, x2, y2, l, t, x3, y3;
	int rc = 0;

	mpz_inits(p, x1, y1, x2, y2, l, t, x3, y3, NULL);
	mpz_set_str(p, curves[c].p, 16);
	load(x1, pw, n);
	load(y1, pw + n, n);
	if (dbl) {
		mpz_set(x2, x1);
		mpz_set(y2, y1);
	} else {
		load(x2, qw, n);
		load(y2, qw + n, n);
	}
	if (mpz_cmp(x1, x2) == 0 && !dbl && mpz_cmp(y1, y2) == 0)
		dbl = true; /* P + P */
	if (dbl) {
		/* l = 3 x^2 / 2y (a = 0) */
		mpz_mul(l, x1, x1);
		mpz_mul_ui(l, l, 3);
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
	store(pw, n, x3);
	store(pw + n, n, y3);
out:
	mpz_clears(p, x1, y1, x2, y2, l, t, x3, y3, NULL);
	return rc;
}

int weierstrass_add(enum curve_id c, uint32_t *p, const uint32_t *q)
{
	return weierstrass(c, p, q, false);
}

int weierstrass_double(enum curve_id c, uint32_t *p) { return weierstrass(c, p, NULL, true); }

/* ed25519: -x^2 + y^2 = 1 + d x^2 y^2 over 2^255 - 19, d = -121665/121666.
 * x3 = (x1 y2 + y1 x2) / (1 + d x1 x2 y1 y2), y3 = (y1 y2 + x1 x2) / (1 - d ...) */
int ed25519_add(uint32_t pw[16], const uint32_t qw[16])
{
	mpz_t p, d, x1, y1, x2, y2, k, num, den;
	int rc = 0;

	mpz_inits(p, d, x1, y1, x2, y2, k, num, den, NULL);
	mpz_ui_pow_ui(p, 2, 255);
	mpz_sub_ui(p, p, 19);
	mpz_set_ui(d, 121666);
	mpz_invert(d, d, p);
	mpz_mul_si(d, d, -121665);
	mpz_mod(d, d, p);
	load(x1, pw, 8);
	load(y1, pw + 8, 8);
	load(x2, qw, 8);
	load(y2, qw + 8, 8);
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
	store(pw, 8, num);
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
	store(pw + 8, 8, num);
out:
	mpz_clears(p, d, x1, y1, x2, y2, k, num, den, NULL);
	return rc;
}

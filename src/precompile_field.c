/* precompile_field.c - field arithmetic with GMP on little-endian word
 * arrays: UINT256_MUL (x * y mod m, m = 0 standing for 2^256) and the
 * BN254 and BLS12-381 base-field operations, in Fp and in Fp2. */
#include <gmp.h>
#include <string.h>

#include "zkvm.h"

void uint256_mulmod(uint32_t x[8], const uint32_t y[8], const uint32_t m[8])
{
	mpz_t a, b, mod;
	size_t n = 0;

	mpz_inits(a, b, mod, NULL);
	mpz_import(a, 8, -1, 4, -1, 0, x);
	mpz_import(b, 8, -1, 4, -1, 0, y);
	mpz_import(mod, 8, -1, 4, -1, 0, m);
	mpz_mul(a, a, b);
	if (mpz_sgn(mod) == 0)
		mpz_tdiv_r_2exp(a, a, 256);
	else
		mpz_mod(a, a, mod);
	memset(x, 0, 8 * sizeof(*x));
	mpz_export(x, &n, -1, 4, -1, 0, a);
	mpz_clears(a, b, mod, NULL);
}

static void field_load(mpz_t z, const uint32_t *w, unsigned words)
{
	mpz_import(z, words, -1, 4, -1, 0, w);
}

static void field_store(uint32_t *w, unsigned words, const mpz_t z)
{
	size_t n = 0;

	memset(w, 0, words * sizeof(*w));
	mpz_export(w, &n, -1, 4, -1, 0, z);
}

/* Inputs need not be reduced; results are, as SP1's executor gives them. */
void fp_op(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y)
{
	unsigned n = curve_words(c);
	mpz_t p, a, b;

	mpz_inits(p, a, b, NULL);
	mpz_set_str(p, curve_prime_hex(c), 16);
	field_load(a, x, n);
	field_load(b, y, n);
	switch (op) {
	case FIELD_ADD: mpz_add(a, a, b); break;
	case FIELD_SUB: mpz_sub(a, a, b); break;
	case FIELD_MUL: mpz_mul(a, a, b); break;
	}
	mpz_mod(a, a, p);
	field_store(x, n, a);
	mpz_clears(p, a, b, NULL);
}

/* (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u, u^2 = -1
 * for both BN254 and BLS12-381. */
void fp2_op(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y)
{
	unsigned n = curve_words(c);
	mpz_t p, a0, a1, b0, b1, t;

	if (op != FIELD_MUL) {
		fp_op(c, op, x, y);
		fp_op(c, op, x + n, y + n);
		return;
	}
	mpz_inits(p, a0, a1, b0, b1, t, NULL);
	mpz_set_str(p, curve_prime_hex(c), 16);
	field_load(a0, x, n);
	field_load(a1, x + n, n);
	field_load(b0, y, n);
	field_load(b1, y + n, n);
	mpz_mul(t, a0, b0);
	mpz_submul(t, a1, b1);
	mpz_mod(t, t, p);
	field_store(x, n, t);
	mpz_mul(t, a0, b1);
	mpz_addmul(t, a1, b0);
	mpz_mod(t, t, p);
	field_store(x + n, n, t);
	mpz_clears(p, a0, a1, b0, b1, t, NULL);
}

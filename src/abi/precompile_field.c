/* precompile_field.c - field arithmetic with GMP on little-endian word
 * arrays: UINT256_MUL (x * y mod m, m = 0 standing for 2^256) and the
 * BN254 and BLS12-381 base-field operations, in Fp and in Fp2. */
#include <gmp.h>
#include <string.h>

#include "abi/bignum.h"
#include "abi/zkvm.h"

void uint256_mulmod(uint32_t x[8], const uint32_t y[8], const uint32_t m[8])
{
	mpz_t a, b, mod;

	mpz_inits(a, b, mod, NULL);
	words_to_mpz(a, x, 8);
	words_to_mpz(b, y, 8);
	words_to_mpz(mod, m, 8);
	mpz_mul(a, a, b);
	if (mpz_sgn(mod) == 0)
		mpz_tdiv_r_2exp(a, a, 256);
	else
		mpz_mod(a, a, mod);
	mpz_to_words(x, 8, a);
	mpz_clears(a, b, mod, NULL);
}

/* Inputs need not be reduced; results are, as SP1's executor gives them. */
void fp_op(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y)
{
	unsigned n = curve_words(c);
	mpz_t p, a, b;

	mpz_inits(p, a, b, NULL);
	mpz_set_str(p, curve_prime_hex(c), 16);
	words_to_mpz(a, x, n);
	words_to_mpz(b, y, n);
	switch (op) {
	case FIELD_ADD: mpz_add(a, a, b); break;
	case FIELD_SUB: mpz_sub(a, a, b); break;
	case FIELD_MUL: mpz_mul(a, a, b); break;
	}
	mpz_mod(a, a, p);
	mpz_to_words(x, n, a);
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
	words_to_mpz(a0, x, n);
	words_to_mpz(a1, x + n, n);
	words_to_mpz(b0, y, n);
	words_to_mpz(b1, y + n, n);
	mpz_mul(t, a0, b0);
	mpz_submul(t, a1, b1);
	mpz_mod(t, t, p);
	mpz_to_words(x, n, t);
	mpz_mul(t, a0, b1);
	mpz_addmul(t, a1, b0);
	mpz_mod(t, t, p);
	mpz_to_words(x + n, n, t);
	mpz_clears(p, a0, a1, b0, b1, t, NULL);
}

/* U256XU2048_MUL: the 2304-bit product a * b, its low 2048 bits in lo and
 * its high 256 in hi. */
void u256x2048_mul(const uint32_t a[8], const uint32_t b[64], uint32_t lo[64], uint32_t hi[8])
{
	mpz_t x, y;

	mpz_inits(x, y, NULL);
	words_to_mpz(x, a, 8);
	words_to_mpz(y, b, 64);
	mpz_mul(x, x, y);
	mpz_tdiv_r_2exp(y, x, 2048);
	mpz_to_words(lo, 64, y);
	mpz_tdiv_q_2exp(x, x, 2048);
	mpz_to_words(hi, 8, x);
	mpz_clears(x, y, NULL);
}

/* UINT256_ADD_CARRY / UINT256_MUL_CARRY (SP1 v6): r = a + b + c or
 * a * b + c (at most 512 bits), its low 256 bits in d, its high in e. */
void uint256_op_carry(bool mul, const uint32_t a[8], const uint32_t b[8], const uint32_t c[8],
		      uint32_t d[8], uint32_t e[8])
{
	mpz_t x, y, r;

	mpz_inits(x, y, r, NULL);
	words_to_mpz(x, a, 8);
	words_to_mpz(y, b, 8);
	if (mul)
		mpz_mul(r, x, y);
	else
		mpz_add(r, x, y);
	words_to_mpz(x, c, 8);
	mpz_add(r, r, x);
	mpz_tdiv_r_2exp(x, r, 256);
	mpz_to_words(d, 8, x);
	mpz_tdiv_q_2exp(x, r, 256);
	mpz_to_words(e, 8, x);
	mpz_clears(x, y, r, NULL);
}

/* precompile_field.c - UINT256_MUL: x * y mod m on 256-bit little-endian
 * word arrays, m = 0 standing for 2^256, computed with GMP. */
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

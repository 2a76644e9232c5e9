/* bignum.h - moving GMP integers in and out of guest words: the precompiles'
 * operands are little-endian arrays of 32-bit words. */
#ifndef CY_BIGNUM_H
#define CY_BIGNUM_H

#include <gmp.h>
#include <stdint.h>
#include <string.h>

static inline void words_to_mpz(mpz_t z, const uint32_t *w, unsigned words)
{
	mpz_import(z, words, -1, 4, -1, 0, w);
}

/* z must fit in words words (the callers reduce it first). */
static inline void mpz_to_words(uint32_t *w, unsigned words, const mpz_t z)
{
	size_t n = 0;

	memset(w, 0, words * sizeof(*w));
	mpz_export(w, &n, -1, 4, -1, 0, z);
}

#endif

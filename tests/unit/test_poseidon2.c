/* test_poseidon2.c - SP1 v6's POSEIDON2 permutation (abi/precompile_poseidon2.c)
 * against published values:
 * - the round constants the Grain LFSR gives, against SP1 v6.4's table
 *   (slop/crates/koala-bear/src/koala_bear_poseidon2.rs, RC16: rows 0, 1,
 *   4, 23 and 27 as printed there);
 * - the permutation with the constants of Plonky3's own test, against its
 *   expected output: Plonky3's koala-bear/src/poseidon2.rs (tag
 *   p3-koala-bear-v0.1.6-succinct, the API SP1 v6 instantiates),
 *   test_poseidon2_width_16_random, whose constants are drawn by
 *   Poseidon2::new_from_rng_128 from Xoroshiro128Plus::seed_from_u64(1):
 *   8 rows of 16 then 20 singles, each the generator's next u32 >> 1 until
 *   below p, taken as a Montgomery-form value (so the constant is v * 2^-32
 *   mod p); rand_xoshiro seeds the generator with two SplitMix64 outputs.
 * Pico's POSEIDON2_PERMUTE (KoalaBear):
 * - the permutation of sixteen zeros with Pico's constants, against Pico's
 *   own test vector (gnark/poseidon2/poseidon2_koalabear_test.go,
 *   TestPoseidon2KoalaBear, Pico v1.3.0: the output of its Go circuit);
 * - its layers with the constants of the Plonky3 test of the version Pico's
 *   fork follows (koala-bear/src/poseidon2.rs at Plonky3 124dc7303,
 *   2024-12: test_poseidon2_width_16_random, the same input and the same
 *   Xoroshiro128+ draw as above, another internal diagonal, so another
 *   output).
 * Prints "ok - ..." / "not ok - ...". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "abi/zkvm.h"
#include "unit_check.h"

#define P 0x7f000001u

static uint64_t splitmix_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, unsigned k) { return x << k | x >> (64 - k); }

struct xoroshiro {
	uint64_t s0, s1;
};

static uint64_t xoroshiro_next(struct xoroshiro *r)
{
	uint64_t s0 = r->s0, s1 = r->s1, out = s0 + s1;

	s1 ^= s0;
	r->s0 = rotl(s0, 24) ^ s1 ^ (s1 << 16);
	r->s1 = rotl(s1, 37);
	return out;
}

/* 2^-32 mod p by exponentiation: (2^32)^(p - 2) */
static uint32_t inv_2_32(void)
{
	uint64_t base = ((uint64_t)1 << 32) % P, acc = 1;

	for (uint32_t e = P - 2; e; e >>= 1, base = base * base % P)
		if (e & 1)
			acc = acc * base % P;
	return (uint32_t)acc;
}

static uint32_t sample(struct xoroshiro *r, uint32_t rinv)
{
	for (;;) {
		uint32_t v = (uint32_t)(xoroshiro_next(r) >> 32) >> 1;
		if (v < P)
			return (uint32_t)((uint64_t)v * rinv % P);
	}
}

static void check_words(const uint32_t *got, const uint32_t *want, unsigned n, const char *what)
{
	char g[32] = "", w[32] = "";
	unsigned i = 0;

	while (i < n && got[i] == want[i])
		i++;
	if (i < n) {
		snprintf(g, sizeof(g), "[%u] %u", i, got[i]);
		snprintf(w, sizeof(w), "[%u] %u", i, want[i]);
	}
	check(i == n, g, w, "%s", what);
}

int main(void)
{
	uint32_t ext[8][POSEIDON2_WIDTH], part[20];
	uint32_t rinv = inv_2_32();

	/* SP1's RC16 as printed: row 0, row 1's first two, row 4's and row
	 * 23's first (the first and last partial rounds'), row 27's last two */
	static const uint32_t row0[16] = { 0x7ee56a48, 0x11367045, 0x12e41941, 0x7ebbc12b,
					   0x1970b7d5, 0x662b60e8, 0x3e4990c6, 0x679f91f5,
					   0x350813bb, 0x00874ad4, 0x28a0081a, 0x18fa5872,
					   0x5f25b071, 0x5e5d5998, 0x5e6fd3e7, 0x5b2e2660 };
	poseidon2_grain_constants(ext, part);
	check_words(ext[0], row0, 16,
		    "poseidon2: the Grain LFSR gives SP1's first row of constants");
	check(ext[1][0] == 0x6f1837bf && ext[1][1] == 0x3fe6182b, "", "0x6f1837bf 0x3fe6182b",
	      "poseidon2: ... and its second row's start");
	check(
	    part[0] == 0x54dfeb5d && part[19] == 0x1e66cec2, "", "0x54dfeb5d 0x1e66cec2",
	    "poseidon2: one constant per partial round, the first and the last SP1's (rows 4, 23)");
	check(ext[7][14] == 0x33ad7833 && ext[7][15] == 0x3466c7ca, "", "0x33ad7833 0x3466c7ca",
	      "poseidon2: the last full round's last constants SP1's (row 27)");

	check((uint64_t)rinv * (((uint64_t)1 << 32) % P) % P == 1 && rinv == 1057030144u, "",
	      "1057030144", "poseidon2: 2^-32 mod p is the one the internal layer uses");

	/* Plonky3's test_poseidon2_width_16_random */
	uint64_t seed = 1;
	struct xoroshiro r = { splitmix_next(&seed), splitmix_next(&seed) };
	for (unsigned k = 0; k < 8; k++)
		for (unsigned i = 0; i < POSEIDON2_WIDTH; i++)
			ext[k][i] = sample(&r, rinv);
	for (unsigned k = 0; k < 20; k++)
		part[k] = sample(&r, rinv);
	uint32_t s[16] = { 894848333,  1437655012, 1200606629, 1690012884, 71131202,   1749206695,
			   1717947831, 120589055,  19776022,   42382981,   1831865506, 724844064,
			   171220207,  1299207443, 227047920,  1783754913 };
	static const uint32_t want[16] = { 575479740,  1350824762, 2117880331, 1034350182,
					   1722317281, 988412135,  1272198010, 2022533539,
					   1465703323, 648698653,  439658904,  878238659,
					   1163940027, 287402877,  685135400,  1397893936 };
	poseidon2_kb16_with(s, (const uint32_t(*)[POSEIDON2_WIDTH])ext, part);
	check_words(s, want, 16,
		    "poseidon2: Plonky3's width-16 KoalaBear test vector (its constants from "
		    "Xoroshiro128+ seed 1)");

	/* Pico: Plonky3 124dc7303's test_poseidon2_width_16_random (same
	 * input, same constants as drawn above) */
	uint32_t t[16] = { 894848333,  1437655012, 1200606629, 1690012884, 71131202,   1749206695,
			   1717947831, 120589055,  19776022,   42382981,   1831865506, 724844064,
			   171220207,  1299207443, 227047920,  1783754913 };
	static const uint32_t want_newer[16] = { 652590279, 1200629963, 1013089423, 1840372851,
						 19101828,  561050015,  1714865585, 994637181,
						 498949829, 729884572,  1957973925, 263012103,
						 535029297, 2121808603, 964663675,  1473622080 };
	poseidon2_pico_kb16_with(t, (const uint32_t(*)[POSEIDON2_WIDTH])ext, part);
	check_words(t, want_newer, 16,
		    "poseidon2 (Pico): the newer Plonky3's width-16 KoalaBear test vector "
		    "(its internal diagonal, no 2^-32)");

	/* Pico: sixteen zeros through its own constants, against its Go
	 * circuit's test */
	uint32_t z[16] = { 0 };
	static const uint32_t want_pico[16] = { 1330215056, 1388930081, 1337212159, 2038180411,
						1881671374, 164509734,  498654582,  1841854018,
						82116708,   1571428065, 117003252,  1678395592,
						2088326992, 1852522451, 1063576961, 1871812444 };
	poseidon2_pico_kb16(z);
	check_words(z, want_pico, 16,
		    "poseidon2 (Pico): zeros give Pico's own KoalaBear test vector "
		    "(its RC_16_30 constants)");

	/* a word past p is taken mod p (from_canonical_u32 in a release
	 * build): p + 0 in every word is zeros again */
	for (unsigned i = 0; i < 16; i++)
		z[i] = P;
	poseidon2_pico_kb16(z);
	check_words(z, want_pico, 16, "poseidon2 (Pico): words are taken mod p");
	return failures ? 1 : 0;
}

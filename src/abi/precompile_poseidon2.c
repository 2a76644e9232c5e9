/* precompile_poseidon2.c - POSEIDON2 (SP1 v6) and POSEIDON2_PERMUTE (Pico,
 * KoalaBear; at the end of the file): the Poseidon2 permutation
 * (eprint 2023/323) SP1 v6 proves, over KoalaBear (p = 2^31 - 2^24 + 1),
 * width 16, S-box x^3, 8 full rounds around 20 partial ones. Read from SP1
 * v6.4's slop/crates/koala-bear (my_kb_16_perm: its round constants) and
 * the Plonky3 permutation it instantiates (Poseidon2 with
 * Poseidon2ExternalMatrixGeneral and DiffusionMatrixKoalaBear, as SP1's
 * crates/hypercube/src/operations/poseidon2/air.rs restates it):
 *
 *   the external layer first; 4 full rounds (constants, x^3 on every
 *   element, external layer); 20 partial rounds (a constant into s[0],
 *   x^3 on s[0], internal layer); 4 full rounds.
 *   external layer: M4 = circ-like (2 3 1 1 / 1 2 3 1 / 1 1 2 3 / 3 1 1 2)
 *   on each group of 4, then each element plus the sum of its column
 *   (elements i, i+4, i+8, i+12);
 *   internal layer: s[i] = 2^-32 * (sum + v[i] s[i]), v = (-2, 1, 2, 4,
 *   ..., 2^13, 2^15): Plonky3's Montgomery-form shortcut scales the
 *   matrix 1 + diag(v) by 2^-32, and SP1's AIR multiplies by MONTY_INVERSE
 *   after it to match.
 *
 * The round constants are not a table here: SP1's (RC16 in that file, 28
 * rows of hex strings, a partial round's row its constant then zeros) are
 * the Grain LFSR output of the Poseidon paper (eprint 2019/458, appendix
 * F) for a 31-bit prime field, t = 16, R_F = 8, R_P = 20, drawn as the
 * Poseidon2 reference (HorizenLabs' sage scripts) draws them: round by
 * round, 16 for a full round and 1 for a partial one. They are generated on
 * first use; the unit test compares them with SP1's table. */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "abi/zkvm.h"

#define KB_P        0x7f000001u
#define KB_BITS     31
#define WIDTH       16
#define FULL_ROUNDS 8
#define PART_ROUNDS 20
#define GRAIN_BITS  80

/* 2^-32 mod p (Python: pow(2, -32, 0x7f000001)); the unit test checks
 * that 2^32 times it is 1 */
#define KB_INV_2_32 1057030144u

static uint32_t kb_add(uint32_t a, uint32_t b)
{
	uint32_t s = a + b; /* both < 2^31: no wrap */
	return s >= KB_P ? s - KB_P : s;
}

static uint32_t kb_mul(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a * b % KB_P); }

static uint32_t kb_cube(uint32_t a) { return kb_mul(kb_mul(a, a), a); }

/* The Grain LFSR of the Poseidon paper: 80 bits of state from the
 * parameters, 160 clocks discarded, then bits in pairs (a 1 keeps the
 * next bit, a 0 drops it). */
struct grain {
	uint8_t s[GRAIN_BITS]; /* s[0] the oldest bit */
};

static unsigned grain_clock(struct grain *g)
{
	unsigned b = g->s[62] ^ g->s[51] ^ g->s[38] ^ g->s[23] ^ g->s[13] ^ g->s[0];
	memmove(g->s, g->s + 1, GRAIN_BITS - 1);
	g->s[GRAIN_BITS - 1] = (uint8_t)b;
	return b;
}

static unsigned grain_bit(struct grain *g)
{
	for (;;) {
		unsigned keep = grain_clock(g), bit = grain_clock(g);
		if (keep)
			return bit;
	}
}

static void grain_init(struct grain *g, unsigned field_bits, unsigned width, unsigned rf,
		       unsigned rp)
{
	/* field 1 (a prime field), S-box 0 (x^alpha), then n, t, R_F, R_P,
	 * each most significant bit first, then thirty ones */
	const struct {
		unsigned value, bits;
	} fields[] = {
		{ 1, 2 }, { 0, 4 }, { field_bits, 12 }, { width, 12 }, { rf, 10 }, { rp, 10 }
	};
	unsigned at = 0;

	for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++)
		for (unsigned k = fields[f].bits; k-- > 0;)
			g->s[at++] = (uint8_t)((fields[f].value >> k) & 1);
	while (at < GRAIN_BITS)
		g->s[at++] = 1;
	for (unsigned i = 0; i < 160; i++)
		grain_clock(g);
}

/* A field element from the stream: 31 bits, most significant first,
 * drawn again until below p. */
static uint32_t grain_element(struct grain *g)
{
	for (;;) {
		uint32_t v = 0;
		for (unsigned k = 0; k < KB_BITS; k++)
			v = v << 1 | grain_bit(g);
		if (v < KB_P)
			return v;
	}
}

void poseidon2_grain_constants(uint32_t ext[][POSEIDON2_WIDTH], uint32_t *part)
{
	struct grain g;

	grain_init(&g, KB_BITS, WIDTH, FULL_ROUNDS, PART_ROUNDS);
	/* in the order of the rounds: 16 for a full round, 1 for a partial */
	for (unsigned r = 0; r < FULL_ROUNDS + PART_ROUNDS; r++) {
		bool full = r < FULL_ROUNDS / 2 || r >= FULL_ROUNDS / 2 + PART_ROUNDS;
		unsigned row = r < FULL_ROUNDS / 2 ? r : r - PART_ROUNDS;
		if (!full) {
			part[r - FULL_ROUNDS / 2] = grain_element(&g);
			continue;
		}
		for (unsigned i = 0; i < WIDTH; i++)
			ext[row][i] = grain_element(&g);
	}
}

static void external_layer(uint32_t s[WIDTH])
{
	uint32_t col[4] = { 0, 0, 0, 0 };

	for (unsigned j = 0; j < WIDTH; j += 4) {
		uint32_t *x = s + j;
		uint32_t t01 = kb_add(x[0], x[1]), t23 = kb_add(x[2], x[3]);
		uint32_t t0123 = kb_add(t01, t23);
		uint32_t t01123 = kb_add(t0123, x[1]), t01233 = kb_add(t0123, x[3]);
		uint32_t y0 = kb_add(t01123, t01);                /* 2 3 1 1 */
		uint32_t y1 = kb_add(t01123, kb_add(x[2], x[2])); /* 1 2 3 1 */
		uint32_t y2 = kb_add(t01233, t23);                /* 1 1 2 3 */
		uint32_t y3 = kb_add(t01233, kb_add(x[0], x[0])); /* 3 1 1 2 */
		x[0] = y0, x[1] = y1, x[2] = y2, x[3] = y3;
	}
	for (unsigned i = 0; i < WIDTH; i++)
		col[i % 4] = kb_add(col[i % 4], s[i]);
	for (unsigned i = 0; i < WIDTH; i++)
		s[i] = kb_add(s[i], col[i % 4]);
}

/* SP1 v6's internal layer (the Plonky3 it pins): 2^-32 (sum + v_i s_i),
 * v = -2, then 2^0 .. 2^13, 2^15 */
static void internal_sp1(uint32_t s[WIDTH])
{
	static const uint8_t shift[WIDTH] = { 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15 };
	uint32_t sum = 0;

	for (unsigned i = 0; i < WIDTH; i++)
		sum = kb_add(sum, s[i]);
	for (unsigned i = 0; i < WIDTH; i++) {
		uint32_t v = i == 0 ? KB_P - 2 : 1u << shift[i];
		s[i] = kb_mul(kb_add(sum, kb_mul(v, s[i])), KB_INV_2_32);
	}
}

/* 2^-k for k <= 24: p - 1 = 127 * 2^24, so (p - 1) >> k is -2^-k */
static uint32_t kb_inv_2_pow(unsigned k) { return KB_P - ((KB_P - 1) >> k); }

/* Pico's internal layer (the newer Plonky3 its fork pins, koala-bear/src/
 * poseidon2.rs from late 2024): sum + v_i s_i, no Montgomery factor,
 * v = -2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/8, 1/2^24, -1/2^8,
 * -1/8, -1/16, -1/2^24 */
static void internal_pico(uint32_t s[WIDTH])
{
	static const struct {
		int8_t num;   /* the numerator, signed */
		uint8_t half; /* over 2^half */
	} v[WIDTH] = { { -2, 0 }, { 1, 0 },  { 2, 0 },  { 1, 1 },  { 3, 0 }, { 4, 0 },
		       { -1, 1 }, { -3, 0 }, { -4, 0 }, { 1, 8 },  { 1, 3 }, { 1, 24 },
		       { -1, 8 }, { -1, 3 }, { -1, 4 }, { -1, 24 } };
	uint32_t sum = 0;

	for (unsigned i = 0; i < WIDTH; i++)
		sum = kb_add(sum, s[i]);
	for (unsigned i = 0; i < WIDTH; i++) {
		uint32_t num = v[i].num < 0 ? KB_P - (uint32_t)-v[i].num : (uint32_t)v[i].num;
		uint32_t d = v[i].half ? kb_mul(num, kb_inv_2_pow(v[i].half)) : num;
		s[i] = kb_add(sum, kb_mul(d, s[i]));
	}
}

/* The rounds both share: the external layer; 4 full rounds; the partial
 * rounds, each with the internal layer given; 4 full rounds. */
static void permute(uint32_t s[WIDTH], const uint32_t ext[][WIDTH], const uint32_t *part,
		    void (*internal_layer)(uint32_t *))
{
	external_layer(s);
	for (unsigned r = 0; r < FULL_ROUNDS; r++) {
		if (r == FULL_ROUNDS / 2)
			for (unsigned k = 0; k < PART_ROUNDS; k++) {
				s[0] = kb_cube(kb_add(s[0], part[k]));
				internal_layer(s);
			}
		for (unsigned i = 0; i < WIDTH; i++)
			s[i] = kb_cube(kb_add(s[i], ext[r][i]));
		external_layer(s);
	}
}

void poseidon2_kb16_with(uint32_t s[POSEIDON2_WIDTH], const uint32_t ext[][POSEIDON2_WIDTH],
			 const uint32_t *part)
{
	permute(s, ext, part, internal_sp1);
}

void poseidon2_pico_kb16_with(uint32_t s[POSEIDON2_WIDTH], const uint32_t ext[][POSEIDON2_WIDTH],
			      const uint32_t *part)
{
	permute(s, ext, part, internal_pico);
}

static uint32_t sp1_ext[FULL_ROUNDS][WIDTH], sp1_part[PART_ROUNDS];
static pthread_once_t sp1_once = PTHREAD_ONCE_INIT;

static void sp1_constants(void) { poseidon2_grain_constants(sp1_ext, sp1_part); }

void poseidon2_kb16(uint32_t s[POSEIDON2_WIDTH])
{
	pthread_once(&sp1_once, sp1_constants);
	/* SP1 takes each word with from_canonical_u32, which (in its release
	 * build) reduces it */
	for (unsigned i = 0; i < WIDTH; i++)
		s[i] %= KB_P;
	poseidon2_kb16_with(s, (const uint32_t(*)[WIDTH])sp1_ext, sp1_part);
}

/* Pico's round constants: its RC_16_30_U32 (vm/src/primitives/mod.rs,
 * Pico v1.3.0; "created by a RNG", the seed not published: SP1 v1's
 * BabyBear table, which Pico reuses for every field), 30 rows of 16 u32
 * each reduced mod p (from_wrapped_u32). KoalaBear's 8 + 20 rounds take
 * rows 0-3 and 24-27 for the full rounds and the first entry of rows 4-23
 * for the partial ones; those are the values here, as printed there. The
 * unit test checks the permutation they make against Pico's own test
 * vector (gnark/poseidon2/poseidon2_koalabear_test.go). */
static const uint32_t pico_ext[FULL_ROUNDS][WIDTH] = {
	{ 2110014213, 3964964605, 2190662774, 2732996483, 640767983, 3403899136, 1716033721,
	  1606702601, 3759873288, 1466015491, 1498308946, 2844375094, 3042463841, 1969905919,
	  4109944726, 3925048366 },
	{ 3706859504, 759122502, 3167665446, 1131812921, 1080754908, 4080114493, 893583089,
	  2019677373, 3128604556, 580640471, 3277620260, 842931656, 548879852, 3608554714,
	  3575647916, 81826002 },
	{ 4289086263, 1563933798, 1440025885, 184445025, 2598651360, 1396647410, 1575877922,
	  3303853401, 137125468, 765010148, 633675867, 2037803363, 2573389828, 1895729703,
	  541515871, 1783382863 },
	{ 2641856484, 3035743342, 3672796326, 245668751, 2025460432, 201609705, 286217151,
	  4093475563, 2519572182, 3080699870, 2762001832, 1244250808, 606038199, 3182740831,
	  73007766, 2572204153 },
	{ 2359801781, 2800231467, 3010357035, 1035997899, 1210110952, 1018506770, 2799468177,
	  1479380761, 1536021911, 358993854, 579904113, 3432144800, 3625515809, 199241497,
	  4058304109, 2590164234 },
	{ 1688530738, 1580733335, 2443981517, 2206270565, 2780074229, 2628739677, 2940123659,
	  4145206827, 3572278009, 2779607509, 1098718697, 1424913749, 2224415875, 1108922178,
	  3646272562, 3935186184 },
	{ 820046587, 1393386250, 2665818575, 2231782019, 672377010, 1920315467, 1913164407,
	  2029526876, 2629271820, 384320012, 4112320585, 3131824773, 2347818197, 2220997386,
	  1772368609, 2579960095 },
	{ 3544930873, 225847443, 3070082278, 95643305, 3438572042, 3312856509, 615850007,
	  1863868773, 803582265, 3461976859, 2903025799, 1482092434, 3902972499, 3872341868,
	  1530411808, 2214923584 },
};
static const uint32_t pico_part[PART_ROUNDS] = { 1196780786, 36046858,   3505307391, 3878220780,
						 2896943075, 3779109343, 1418914503, 3417648695,
						 859661334,  1548195514, 104929687,  2191909784,
						 3633138367, 130182653,  3306659113, 1564209905,
						 1165280628, 1170945922, 2922875898, 2066954820 };

static uint32_t pico_ext_p[FULL_ROUNDS][WIDTH], pico_part_p[PART_ROUNDS];
static pthread_once_t pico_once = PTHREAD_ONCE_INIT;

static void pico_constants(void)
{
	for (unsigned r = 0; r < FULL_ROUNDS; r++)
		for (unsigned i = 0; i < WIDTH; i++)
			pico_ext_p[r][i] = pico_ext[r][i] % KB_P;
	for (unsigned k = 0; k < PART_ROUNDS; k++)
		pico_part_p[k] = pico_part[k] % KB_P;
}

void poseidon2_pico_kb16(uint32_t s[POSEIDON2_WIDTH])
{
	pthread_once(&pico_once, pico_constants);
	/* from_canonical_u32 in a release build: the word mod p */
	for (unsigned i = 0; i < WIDTH; i++)
		s[i] %= KB_P;
	poseidon2_pico_kb16_with(s, (const uint32_t(*)[WIDTH])pico_ext_p, pico_part_p);
}

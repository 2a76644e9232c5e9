/* precompile_poseidon2.c - POSEIDON2 (SP1 v6): the Poseidon2 permutation
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

static void internal_layer(uint32_t s[WIDTH])
{
	/* v[i] as a field element: -2, then 2^0 .. 2^13, 2^15 */
	static const uint8_t shift[WIDTH] = { 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15 };
	uint32_t sum = 0;

	for (unsigned i = 0; i < WIDTH; i++)
		sum = kb_add(sum, s[i]);
	for (unsigned i = 0; i < WIDTH; i++) {
		uint32_t v = i == 0 ? KB_P - 2 : 1u << shift[i];
		s[i] = kb_mul(kb_add(sum, kb_mul(v, s[i])), KB_INV_2_32);
	}
}

void poseidon2_kb16_with(uint32_t s[POSEIDON2_WIDTH], const uint32_t ext[][POSEIDON2_WIDTH],
			 const uint32_t *part)
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

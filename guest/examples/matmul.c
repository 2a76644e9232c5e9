/* Dense matrix multiply as a guest benchmark: the multiply-accumulate loops of
 * signal processing and ML kernels, in 32-bit integers and in Q16.16 fixed point.
 * Checks the products with Freivalds' test and against an identity matrix. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 96
#define INT_POWERS 2	/* P = A^2 .. A^(INT_POWERS+1) */
#define FIXED_REPS 2
#define FIXED_SHIFT 16	/* Q16.16 */
#define FIXED_ONE (1 << FIXED_SHIFT)

/* Row-major N x N; uint32_t so that overflow wraps instead of being undefined,
 * which also keeps integer matrices an exact ring for the Freivalds test. */
typedef uint32_t umatrix[N][N];
typedef int32_t fmatrix[N][N];

static uint32_t lcg_state = 1;

static uint32_t next_random(void)
{
	lcg_state = lcg_state * 1103515245u + 12345u;
	return lcg_state >> 8;
}

/* The classic i-j-k order: the inner loop walks a column of b. */
static void mul_ijk(umatrix c, const umatrix a, const umatrix b)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			uint32_t sum = 0;
			for (int k = 0; k < N; k++)
				sum += a[i][k] * b[k][j];
			c[i][j] = sum;
		}
}

/* i-k-j order: both inner streams are rows, the cache-friendly variant. Must
 * give exactly the same result as mul_ijk. */
static void mul_ikj(umatrix c, const umatrix a, const umatrix b)
{
	for (int i = 0; i < N; i++) {
		for (int j = 0; j < N; j++)
			c[i][j] = 0;
		for (int k = 0; k < N; k++) {
			uint32_t aik = a[i][k];
			for (int j = 0; j < N; j++)
				c[i][j] += aik * b[k][j];
		}
	}
}

static void mul_vec(uint32_t out[N], const umatrix m, const uint32_t v[N])
{
	for (int i = 0; i < N; i++) {
		uint32_t sum = 0;
		for (int k = 0; k < N; k++)
			sum += m[i][k] * v[k];
		out[i] = sum;
	}
}

/* Freivalds: if c == a*b then c*v == a*(b*v) for every v; a wrong c is caught
 * with high probability by a random v, at O(N^2) instead of O(N^3). */
static int freivalds_ok(const umatrix c, const umatrix a, const umatrix b)
{
	uint32_t v[N], bv[N], abv[N], cv[N];

	for (int i = 0; i < N; i++)
		v[i] = next_random();
	mul_vec(bv, b, v);
	mul_vec(abv, a, bv);
	mul_vec(cv, c, v);
	for (int i = 0; i < N; i++)
		if (abv[i] != cv[i])
			return 0;
	return 1;
}

/* Q16.16 product with a 64-bit intermediate (mul + mulh on RV32), rounded to
 * nearest. Arithmetic right shift of a negative value is what GCC does. */
static void mul_fixed(fmatrix c, const fmatrix a, const fmatrix b)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			int64_t sum = 0;
			for (int k = 0; k < N; k++)
				sum += (int64_t)a[i][k] * b[k][j];
			c[i][j] = (int32_t)((sum + (FIXED_ONE / 2)) >> FIXED_SHIFT);
		}
}

static uint32_t checksum(const uint32_t *m)
{
	uint32_t sum = 0;
	for (int i = 0; i < N * N; i++)
		sum = (sum ^ m[i]) * 16777619u;	/* FNV-1a style mixing */
	return sum;
}

int main(void)
{
	umatrix *a = malloc(sizeof *a), *p = malloc(sizeof *p);
	umatrix *next = malloc(sizeof *next), *check = malloc(sizeof *check);
	fmatrix *fa = malloc(sizeof *fa), *fb = malloc(sizeof *fb);
	fmatrix *fc = malloc(sizeof *fc), *ident = malloc(sizeof *ident);
	int ok = 1;

	if (!a || !p || !next || !check || !fa || !fb || !fc || !ident) {
		fprintf(stderr, "matmul: out of memory\n");
		return 1;
	}

	/* Integer powers of A, each checked two ways. */
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			(*a)[i][j] = (*p)[i][j] = next_random() % 201 - 100;
	printf("int32 %dx%d, A checksum %08lx\n", N, N, (unsigned long)checksum(&(*a)[0][0]));
	for (int power = 2; power <= INT_POWERS + 1; power++) {
		mul_ijk(*next, *p, *a);
		int same = 1;
		if (power == 2) {
			mul_ikj(*check, *p, *a);
			for (int i = 0; i < N * N; i++)
				same &= (&(*next)[0][0])[i] == (&(*check)[0][0])[i];
		}
		int freivalds = freivalds_ok(*next, *p, *a);
		ok &= same && freivalds;
		umatrix *t = p;
		p = next;
		next = t;
		printf("A^%d checksum %08lx freivalds=%s%s\n", power,
		       (unsigned long)checksum(&(*p)[0][0]), freivalds ? "ok" : "FAILED",
		       power == 2 ? (same ? " ikj=same" : " ikj=DIFFERENT") : "");
	}

	/* Fixed point: entries in [-0.5, 0.5], products of such stay small. */
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			(*fa)[i][j] = (int32_t)(next_random() % FIXED_ONE) - FIXED_ONE / 2;
			(*fb)[i][j] = (int32_t)(next_random() % FIXED_ONE) - FIXED_ONE / 2;
			(*ident)[i][j] = i == j ? FIXED_ONE : 0;
		}
	for (int rep = 0; rep < FIXED_REPS; rep++) {
		mul_fixed(*fc, *fa, *fb);
		printf("Q16.16 A*B #%d checksum %08lx, c[0][0] = %ld/65536\n", rep,
		       (unsigned long)checksum((const uint32_t *)&(*fc)[0][0]),
		       (long)(*fc)[0][0]);
		/* Feed the result back, scaled down so values stay in range. */
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				(*fb)[i][j] = (*fc)[i][j] / N;
	}
	mul_fixed(*fc, *fa, *ident);
	int ident_ok = 1;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			ident_ok &= (*fc)[i][j] == (*fa)[i][j];
	printf("Q16.16 A*I == A: %s\n", ident_ok ? "ok" : "FAILED");
	ok &= ident_ok;

	free(a);
	free(p);
	free(next);
	free(check);
	free(fa);
	free(fb);
	free(fc);
	free(ident);

	if (!ok) {
		printf("matmul: self-check FAILED\n");
		return 1;
	}
	printf("matmul: self-check passed\n");
	return 0;
}

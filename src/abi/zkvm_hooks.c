/* zkvm_hooks.c - the zkVMs' hooks: a WRITE to a hook's descriptor hands the
 * host a question (recover a public key, invert a field element, ...) and
 * the answer's frames go to the front of the input queue, where the guest
 * reads them with HINT_LEN/HINT_READ and checks them. Each flavor has its
 * descriptors (the rows below), read from SP1's crates/core/executor/src/
 * hook.rs (v3.0-v6) and Pico's vm/src/emulator/riscv/hook/. Signature
 * recovery is libsecp256k1's, the field and scalar arithmetic GMP's.
 * docs/zkvm.md, "Hooks". */
#include <gmp.h>
#include <secp256k1.h>
#include <secp256k1_recovery.h>
#include <stdio.h>
#include <string.h>

#include "abi/zkvm.h"
#include "core/state.h"

typedef int (*hook_fn)(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why, size_t n);

#define HOOK_DECL(name, fn, v3, v4, v6, pico)                                                      \
	static int fn(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why, size_t n);

/* _(NAME, function, SP1 v3, SP1 v4/v5, SP1 v6, Pico): the descriptor in
 * each flavor, 0 for none. SP1 v3.0 had fd 5 only; the v3-era descriptors
 * 6 (P-256) and 7 are the ones v4/v5 still accept as "deprecated hooks". */
/* clang-format off */
#define ZKVM_HOOKS(_)                                                                       \
	_(ECRECOVER_V1,      hook_ecrecover_v1,    5,  0,  0,  0) \
	_(ECRECOVER_R1,      hook_ecrecover_r1,    6,  0,  0,  0) \
	_(ECRECOVER_V2,      hook_ecrecover_v2,    7,  0,  0,  0) \
	_(ED_DECOMPRESS_V1,  hook_ed_check,        8,  0,  0,  8) \
	_(ECRECOVER,         hook_ecrecover,       0, 15, 15,  0) \
	_(PICO_ECRECOVER,    hook_pico_ecrecover,  0,  0,  0,  5) \
	_(ED_DECOMPRESS,     hook_ed_decompress,   0, 16, 16,  0) \
	_(RSA_MUL_MOD,       hook_rsa_mul_mod,     0, 17, 17,  0) \
	_(BLS12_381_SQRT,    hook_bls_sqrt,        0, 18, 18,  0) \
	_(BLS12_381_INVERSE, hook_bls_inverse,     0, 19, 19,  0) \
	_(FP_SQRT,           hook_fp_sqrt,         0, 20, 20,  0) \
	_(FP_INV,            hook_fp_inverse,      0, 21, 21,  0)
/* clang-format on */

ZKVM_HOOKS(HOOK_DECL)

static const struct hook {
	const char *name;
	hook_fn fn;
	uint32_t fd[ZKVM_FLAVORS];
} hooks[] = {
#define HOOK_ROW(name, fn, v3, v4, v6, pico) { #name, fn, { v3, v4, v6, pico } },
	ZKVM_HOOKS(HOOK_ROW)
#undef HOOK_ROW
};

#define N_HOOKS (sizeof(hooks) / sizeof(hooks[0]))

static const struct hook *find(const struct zkvm *z, uint32_t fd)
{
	for (size_t i = 0; fd && i < N_HOOKS; i++)
		if (hooks[i].fd[z->flavor] == fd)
			return &hooks[i];
	return NULL;
}

const char *zkvm_hook_name(const struct zkvm *z, uint32_t fd)
{
	const struct hook *h = find(z, fd);
	return h ? h->name : NULL;
}

static int fail(char *why, size_t n, const char *text)
{
	snprintf(why, n, "%s", text);
	return -1;
}

static void add(struct zkvm_answer *out, const void *p, size_t len)
{
	memcpy(out->buf[out->n], p, len);
	out->len[out->n++] = len;
}

static void add_byte(struct zkvm_answer *out, uint8_t b) { add(out, &b, 1); }

/* z as len bytes, big- or little-endian, zero-padded (z < 2^(8 len)). */
static void add_mpz(struct zkvm_answer *out, const mpz_t z, size_t len, bool big)
{
	uint8_t b[512] = { 0 };
	size_t count = 0;

	mpz_export(b, &count, big ? 1 : -1, 1, 1, 0, z);
	if (big && count < len) {
		memmove(b + len - count, b, count);
		memset(b, 0, len - count);
	}
	add(out, b, len);
}

static void mpz_from(mpz_t z, const uint8_t *p, size_t len, bool big)
{
	mpz_import(z, len, big ? 1 : -1, 1, 1, 0, p);
}

int zkvm_hook(const struct zkvm *z, uint32_t fd, const uint8_t *buf, size_t len,
	      struct zkvm_answer *out, char *why, size_t why_size)
{
	const struct hook *h = find(z, fd);

	out->n = 0;
	if (!h)
		return 1;
	return h->fn(buf, len, out, why, why_size) != 0 ? -1 : 0;
}

/* secp256k1 recovery (SP1 v3's fd 5 and 7): 65 bytes of signature (r, s
 * big-endian, the recovery id) and the 32-byte message hash. k256, which
 * SP1 calls, makes s low first (flipping the id): the key recovered is the
 * same, and s's inverse is that of the low s. The key is SEC1-compressed
 * (33 bytes), as k256 writes it. */
static int recover(const uint8_t *in, size_t len, struct zkvm_answer *out, bool v2, char *why,
		   size_t n)
{
	static secp256k1_context *ctx;
	secp256k1_ecdsa_recoverable_signature sig;
	secp256k1_pubkey key;
	uint8_t key_bytes[33];
	size_t key_len = sizeof(key_bytes);
	mpz_t s, order, half;
	int rc = 0;

	if (len != 65 + 32)
		return fail(why, n, "needs 97 bytes: a 65-byte signature and a 32-byte hash");
	if (in[64] > 3)
		return fail(why, n, "the recovery id is not 0..3");
	if (!ctx && !(ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE)))
		return fail(why, n, "out of host memory");
	mpz_inits(s, order, half, NULL);
	mpz_set_str(order, curve_order_hex(CURVE_SECP256K1), 16);
	mpz_from(s, in + 32, 32, true);
	mpz_from(half, in, 32, true); /* r, for the range check */
	if (mpz_sgn(half) == 0 || mpz_cmp(half, order) >= 0 || mpz_sgn(s) == 0 ||
	    mpz_cmp(s, order) >= 0) {
		rc = fail(why, n, "r or s is not in 1..n-1 (k256 refuses the signature)");
		goto out;
	}
	if (!secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, &sig, in, in[64]) ||
	    !secp256k1_ecdsa_recover(ctx, &key, &sig, in + 65)) {
		if (v2) {
			add_byte(out, 0); /* v2 says so; v1 panics */
			goto out;
		}
		rc = fail(why, n, "no public key recovers from this signature");
		goto out;
	}
	secp256k1_ec_pubkey_serialize(ctx, key_bytes, &key_len, &key, SECP256K1_EC_COMPRESSED);
	mpz_fdiv_q_2exp(half, order, 1);
	if (mpz_cmp(s, half) > 0)
		mpz_sub(s, order, s);
	mpz_invert(s, s, order);
	if (v2)
		add_byte(out, 1);
	add(out, key_bytes, key_len);
	add_mpz(out, s, 32, true);
out:
	mpz_clears(s, order, half, NULL);
	return rc;
}

static int hook_ecrecover_v1(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why,
			     size_t n)
{
	return recover(in, len, out, false, why, n);
}

static int hook_ecrecover_v2(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why,
			     size_t n)
{
	return recover(in, len, out, true, why, n);
}

/* SP1 v3's fd 6: the inverse of s mod P-256's order, from a 64-byte
 * signature (r, s big-endian; p256 refuses r or s outside 1..n-1). */
static int hook_ecrecover_r1(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why,
			     size_t n)
{
	mpz_t order, r, s;
	int rc = 0;

	if (len != 64)
		return fail(why, n, "needs a 64-byte signature");
	mpz_inits(order, r, s, NULL);
	mpz_set_str(order, curve_order_hex(CURVE_SECP256R1), 16);
	mpz_from(r, in, 32, true);
	mpz_from(s, in + 32, 32, true);
	if (mpz_sgn(r) == 0 || mpz_cmp(r, order) >= 0 || mpz_sgn(s) == 0 ||
	    mpz_cmp(s, order) >= 0 || !mpz_invert(s, s, order))
		rc = fail(why, n, "r or s is not in 1..n-1 (p256 refuses the signature)");
	else
		add_mpz(out, s, 32, true);
	mpz_clears(order, r, s, NULL);
	return rc;
}

/* The SP1 v4-v6 and Pico ecrecover hook: r (an x coordinate) and alpha =
 * r^3 + a r + b, 32 bytes each, big-endian. If alpha is a square: 1, y (its
 * root with the parity asked) and r's inverse mod the order; if not: 0 and
 * a root of 3 alpha (3 is no square mod either prime), which proves it.
 * Both primes are 3 mod 4: the root k256 and p256 return is the power
 * (p + 1) / 4. k256 refuses an alpha of zero, p256 takes it (its root 0
 * has no other parity). */
static int ecrecover_on(enum curve_id curve, const uint8_t *r_bytes, const uint8_t *alpha_bytes,
			bool odd, struct zkvm_answer *out, char *why, size_t n)
{
	bool nonzero = curve == CURVE_SECP256K1;
	mpz_t p, order, r, alpha, e, y;
	int rc = 0;

	mpz_inits(p, order, r, alpha, e, y, NULL);
	mpz_set_str(p, curve_prime_hex(curve), 16);
	mpz_set_str(order, curve_order_hex(curve), 16);
	mpz_from(r, r_bytes, 32, true);
	mpz_from(alpha, alpha_bytes, 32, true);
	if (mpz_cmp(r, p) >= 0 || mpz_cmp(alpha, p) >= 0 || (nonzero && mpz_sgn(alpha) == 0)) {
		rc = fail(why, n,
			  nonzero ? "r or alpha is not a nonzero field element"
				  : "r or alpha is not a field element");
		goto out;
	}
	mpz_add_ui(e, p, 1);
	mpz_fdiv_q_2exp(e, e, 2);
	mpz_powm(y, alpha, e, p);
	mpz_mul(r, y, y); /* y's square, for the check; r is read again below */
	mpz_mod(r, r, p);
	if (mpz_cmp(r, alpha) == 0) {
		if ((mpz_odd_p(y) != 0) != odd && mpz_sgn(y) != 0)
			mpz_sub(y, p, y);
		mpz_from(r, r_bytes, 32, true);
		if (mpz_sgn(r) == 0 || mpz_cmp(r, order) >= 0 || !mpz_invert(r, r, order)) {
			rc = fail(why, n, "r is not an invertible scalar");
			goto out;
		}
		add_byte(out, 1);
		add_mpz(out, y, 32, true);
		add_mpz(out, r, 32, true);
	} else {
		mpz_mul_ui(alpha, alpha, 3);
		mpz_mod(alpha, alpha, p);
		mpz_powm(y, alpha, e, p);
		add_byte(out, 0);
		add_mpz(out, y, 32, true);
	}
out:
	mpz_clears(p, order, r, alpha, e, y, NULL);
	return rc;
}

/* SP1 v4-v6: the first byte holds the curve (1 secp256k1, 2 secp256r1)
 * and, in bit 7, whether y is odd. */
static int hook_ecrecover(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why,
			  size_t n)
{
	unsigned curve = in && len ? in[0] & 0x7f : 0;

	if (len != 65)
		return fail(why, n, "needs 65 bytes: the curve and parity, r and alpha");
	if (curve == 1)
		return ecrecover_on(CURVE_SECP256K1, in + 1, in + 33, in[0] & 0x80, out, why, n);
	if (curve == 2)
		return ecrecover_on(CURVE_SECP256R1, in + 1, in + 33, in[0] & 0x80, out, why, n);
	return fail(why, n, "the curve is neither 1 (secp256k1) nor 2 (secp256r1)");
}

/* Pico's fd 5: the same for secp256k1 alone, which answers 0 to a wrong
 * length or a zero r or alpha instead of stopping. */
static int hook_pico_ecrecover(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why,
			       size_t n)
{
	static const uint8_t zero[32];

	if (len != 65 || !memcmp(in + 1, zero, 32) || !memcmp(in + 33, zero, 32)) {
		add_byte(out, 0);
		return 0;
	}
	return ecrecover_on(CURVE_SECP256K1, in + 1, in + 33, in[0] & 0x80, out, why, n);
}

/* SP1 v3's fd 8 and Pico's: 1 if the 32 bytes are a compressed ed25519
 * point (y, the sign of x in bit 255), else 0. */
static int hook_ed_check(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why,
			 size_t n)
{
	uint32_t pt[16];

	(void)why, (void)n;
	if (len != 32) {
		add_byte(out, 0);
		return 0;
	}
	memcpy(pt + 8, in, 32);
	add_byte(out, ed25519_decompress(pt, in[31] >> 7) == 0);
	return 0;
}

/* The square root ed25519's field gives: a^((p+3)/8), times sqrt(-1) when
 * its square is -a, the even one of the two; none when neither square is
 * a (sp1_curves' ed25519_sqrt). */
static bool ed_sqrt(mpz_t root, const mpz_t a, const mpz_t p)
{
	mpz_t e, sq, neg;
	bool ok;

	mpz_inits(e, sq, neg, NULL);
	mpz_add_ui(e, p, 3);
	mpz_fdiv_q_2exp(e, e, 3);
	mpz_powm(root, a, e, p);
	mpz_mul(sq, root, root);
	mpz_mod(sq, sq, p);
	mpz_sub(neg, p, a);
	if (mpz_cmp(sq, neg) == 0) {
		mpz_sub_ui(e, p, 1);
		mpz_fdiv_q_2exp(e, e, 2);
		mpz_set_ui(neg, 2);
		mpz_powm(e, neg, e, p); /* sqrt(-1) = 2^((p-1)/4) */
		mpz_mul(root, root, e);
		mpz_mod(root, root, p);
		mpz_sub(neg, p, a);
	}
	ok = mpz_cmp(sq, a) == 0 || mpz_cmp(sq, neg) == 0;
	if (mpz_odd_p(root))
		mpz_sub(root, p, root);
	mpz_clears(e, sq, neg, NULL);
	return ok;
}

/* SP1 v4-v6's fd 16: y (32 bytes little-endian, the sign bit masked) and v
 * = d y^2 + 1. 1 if (y^2 - 1) / v is a square; else 0, v's inverse and a
 * root of twice the quotient (2 is no square mod 2^255 - 19); 0 alone for
 * a y past the prime. */
static int hook_ed_decompress(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why,
			      size_t n)
{
	uint8_t yb[32];
	mpz_t p, y, v, u, root;
	int rc = 0;

	if (len < 32)
		return fail(why, n, "needs y's 32 bytes and v");
	memcpy(yb, in, 32);
	yb[31] &= 0x7f;
	mpz_inits(p, y, v, u, root, NULL);
	mpz_ui_pow_ui(p, 2, 255);
	mpz_sub_ui(p, p, 19);
	mpz_from(y, yb, 32, false);
	mpz_from(v, in + 32, len - 32, false);
	if (mpz_cmp(y, p) >= 0) {
		add_byte(out, 0);
		goto out;
	}
	if (mpz_cmp(v, p) >= 0 || !mpz_invert(v, v, p)) {
		rc = fail(why, n, "v is not an invertible field element");
		goto out;
	}
	mpz_mul(u, y, y);
	mpz_sub_ui(u, u, 1);
	mpz_mul(u, u, v);
	mpz_mod(u, u, p);
	if (ed_sqrt(root, u, p)) {
		add_byte(out, 1);
		goto out;
	}
	mpz_mul_ui(u, u, 2);
	mpz_mod(u, u, p);
	ed_sqrt(root, u, p);
	add_byte(out, 0);
	add_mpz(out, v, 32, false);
	add_mpz(out, root, 32, false);
out:
	mpz_clears(p, y, v, u, root, NULL);
	return rc;
}

/* fd 17: a 512-byte product and a 256-byte modulus, little-endian: the
 * remainder and the quotient, 256 bytes each. */
static int hook_rsa_mul_mod(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why,
			    size_t n)
{
	mpz_t prod, m, q;

	if (len != 768)
		return fail(why, n, "needs 768 bytes: a 512-byte product and a 256-byte modulus");
	mpz_inits(prod, m, q, NULL);
	mpz_from(prod, in, 512, false);
	mpz_from(m, in + 512, 256, false);
	if (mpz_sgn(m) == 0) {
		mpz_clears(prod, m, q, NULL);
		return fail(why, n, "the modulus is zero");
	}
	mpz_fdiv_qr(q, prod, prod, m);
	if (mpz_sizeinbase(q, 2) > 2048) /* SP1 keeps the low 256 bytes */
		mpz_tdiv_r_2exp(q, q, 2048);
	add_mpz(out, prod, 256, false);
	add_mpz(out, q, 256, false);
	mpz_clears(prod, m, q, NULL);
	return 0;
}

/* The square root Tonelli-Shanks finds with the non-residue nqr, or the
 * power (p + 1) / 4 when p is 3 mod 4: false if x has none. */
static bool fp_sqrt(mpz_t r, const mpz_t x, const mpz_t p, const mpz_t nqr)
{
	mpz_t q, c, t, b, tt, e;
	unsigned long s = 0, m, i;
	bool ok = true;

	mpz_inits(q, c, t, b, tt, e, NULL);
	if (mpz_fdiv_ui(p, 4) == 3) {
		mpz_add_ui(e, p, 1);
		mpz_fdiv_q_2exp(e, e, 2);
		mpz_powm(r, x, e, p);
		mpz_mul(e, r, r);
		mpz_mod(e, e, p);
		ok = mpz_cmp(e, x) == 0;
		goto out;
	}
	mpz_sub_ui(e, p, 1);
	mpz_fdiv_q_2exp(e, e, 1);
	mpz_powm(e, x, e, p);
	if (mpz_cmp_ui(e, 1) != 0) { /* the Legendre symbol */
		ok = false;
		goto out;
	}
	mpz_sub_ui(q, p, 1);
	while (mpz_even_p(q)) {
		mpz_fdiv_q_2exp(q, q, 1);
		s++;
	}
	mpz_powm(c, nqr, q, p);
	mpz_add_ui(e, q, 1);
	mpz_fdiv_q_2exp(e, e, 1);
	mpz_powm(r, x, e, p);
	mpz_powm(t, x, q, p);
	m = s;
	while (mpz_cmp_ui(t, 1) != 0) {
		mpz_set(tt, t);
		for (i = 0; mpz_cmp_ui(tt, 1) != 0;) {
			mpz_mul(tt, tt, tt);
			mpz_mod(tt, tt, p);
			if (++i == m) {
				ok = false;
				goto out;
			}
		}
		mpz_set_ui(e, 1);
		mpz_mul_2exp(e, e, m - i - 1);
		mpz_powm(b, c, e, p);
		mpz_mul(r, r, b);
		mpz_mod(r, r, p);
		mpz_mul(c, b, b);
		mpz_mod(c, c, p);
		mpz_mul(t, t, c);
		mpz_mod(t, t, p);
		m = i;
	}
out:
	mpz_clears(q, c, t, b, tt, e, NULL);
	return ok;
}

/* fd 20: the length (4 bytes big-endian), then x, the prime and a
 * non-residue, each that long, big-endian: 1 and x's root, or 0 and the
 * root of nqr x. */
static int hook_fp_sqrt(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why, size_t n)
{
	size_t k;
	mpz_t x, p, nqr, r;
	int rc = 0;

	if (len < 4)
		return fail(why, n, "needs the length first");
	k = (size_t)in[0] << 24 | (size_t)in[1] << 16 | (size_t)in[2] << 8 | in[3];
	if (k > sizeof(out->buf[0]) || len != 4 + 3 * k)
		return fail(why, n, "the length does not match the buffer");
	mpz_inits(x, p, nqr, r, NULL);
	mpz_from(x, in + 4, k, true);
	mpz_from(p, in + 4 + k, k, true);
	mpz_from(nqr, in + 4 + 2 * k, k, true);
	if (mpz_cmp(x, p) >= 0 || mpz_cmp(nqr, p) >= 0) {
		rc = fail(why, n, "x or the non-residue is not below the prime");
		goto out;
	}
	if (mpz_sgn(x) == 0) {
		add_byte(out, 1);
		add_mpz(out, x, k, true);
	} else if (fp_sqrt(r, x, p, nqr)) {
		add_byte(out, 1);
		add_mpz(out, r, k, true);
	} else {
		mpz_mul(x, x, nqr);
		mpz_mod(x, x, p);
		if (!fp_sqrt(r, x, p, nqr)) {
			rc = fail(why, n, "the non-residue is a square");
			goto out;
		}
		add_byte(out, 0);
		add_mpz(out, r, k, true);
	}
out:
	mpz_clears(x, p, nqr, r, NULL);
	return rc;
}

/* fd 21: the length, then x and the prime: x^(p-2). */
static int hook_fp_inverse(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why,
			   size_t n)
{
	size_t k;
	mpz_t x, p, e;

	if (len < 4)
		return fail(why, n, "needs the length first");
	k = (size_t)in[0] << 24 | (size_t)in[1] << 16 | (size_t)in[2] << 8 | in[3];
	if (k > sizeof(out->buf[0]) || len != 4 + 2 * k)
		return fail(why, n, "the length does not match the buffer");
	mpz_inits(x, p, e, NULL);
	mpz_from(x, in + 4, k, true);
	mpz_from(p, in + 4 + k, k, true);
	if (mpz_sgn(x) == 0 || mpz_cmp_ui(p, 2) < 0) {
		mpz_clears(x, p, e, NULL);
		return fail(why, n, "x is zero");
	}
	mpz_sub_ui(e, p, 2);
	mpz_powm(x, x, e, p);
	add_mpz(out, x, k, true);
	mpz_clears(x, p, e, NULL);
	return 0;
}

/* fd 18: a BLS12-381 field element (48 bytes big-endian): 1 and its root,
 * or 0 and the root of twice it (2 is no square there). */
static int hook_bls_sqrt(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why,
			 size_t n)
{
	mpz_t x, p, e, r, sq;
	int rc = 0;

	if (len < 48)
		return fail(why, n, "needs a 48-byte field element");
	mpz_inits(x, p, e, r, sq, NULL);
	mpz_from(x, in, 48, true);
	mpz_set_str(p, curve_prime_hex(CURVE_BLS12381), 16);
	if (mpz_sgn(x) == 0) {
		add_byte(out, 1);
		add_mpz(out, x, 48, true);
		goto out;
	}
	mpz_add_ui(e, p, 1);
	mpz_fdiv_q_2exp(e, e, 2);
	mpz_powm(r, x, e, p);
	mpz_mul(sq, r, r);
	mpz_mod(sq, sq, p);
	if (mpz_cmp(sq, x) == 0) {
		add_byte(out, 1);
		add_mpz(out, r, 48, true);
		goto out;
	}
	mpz_mul_ui(x, x, 2);
	mpz_mod(x, x, p);
	mpz_powm(r, x, e, p);
	mpz_mul(sq, r, r);
	mpz_mod(sq, sq, p);
	if (mpz_cmp(sq, x) != 0) { /* SP1's sanity check panics */
		rc = fail(why, n, "no root of twice the element either (not a field element?)");
		goto out;
	}
	add_byte(out, 0);
	add_mpz(out, r, 48, true);
out:
	mpz_clears(x, p, e, r, sq, NULL);
	return rc;
}

/* fd 19: the inverse of a nonzero BLS12-381 field element, 48 bytes
 * big-endian either way. */
static int hook_bls_inverse(const uint8_t *in, size_t len, struct zkvm_answer *out, char *why,
			    size_t n)
{
	mpz_t x, p, e;

	if (len < 48)
		return fail(why, n, "needs a 48-byte field element");
	mpz_inits(x, p, e, NULL);
	mpz_from(x, in, 48, true);
	mpz_set_str(p, curve_prime_hex(CURVE_BLS12381), 16);
	if (mpz_sgn(x) == 0) {
		mpz_clears(x, p, e, NULL);
		return fail(why, n, "zero has no inverse");
	}
	mpz_sub_ui(e, p, 2);
	mpz_powm(x, x, e, p);
	mpz_mod(x, x, p);
	add_mpz(out, x, 48, true);
	mpz_clears(x, p, e, NULL);
	return 0;
}

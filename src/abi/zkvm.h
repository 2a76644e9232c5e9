/* zkvm.h - the SP1/Pico guest ABI's state (syscall_zkvm.c) and the
 * precompiles' pure functions (precompile_*.c), which work on host arrays of
 * little-endian words, as the guests lay them out in memory. */
#ifndef CY_ZKVM_H
#define CY_ZKVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Guests own [0, ZKVM_MEM_LIMIT); SP1 v3's MAXIMUM_MEMORY_SIZE. */
#define ZKVM_MEM_LIMIT 0x78000000u

/* precompile_sha256.c: w[16..63] from w[0..15]; one compression of w into h. */
void sha256_extend(uint32_t w[64]);
void sha256_compress(uint32_t h[8], const uint32_t w[64]);

/* precompile_keccak.c: Keccak-f[1600] on 25 lanes. */
void keccak_f1600(uint64_t state[25]);

/* precompile_field.c (GMP): x = x * y mod m, m = 0 meaning 2^256. */
void uint256_mulmod(uint32_t x[8], const uint32_t y[8], const uint32_t m[8]);

/* precompile_curve.c (GMP). Points are x then y, each `words` LE words;
 * all return 0, or -1 when the input is not valid (no point, no root). */
enum curve_id { CURVE_SECP256K1, CURVE_BN254, CURVE_BLS12381 };
unsigned curve_words(enum curve_id c);
int weierstrass_add(enum curve_id c, uint32_t *p, const uint32_t *q);
int weierstrass_double(enum curve_id c, uint32_t *p);
int ed25519_add(uint32_t p[16], const uint32_t q[16]);
const char *curve_prime_hex(enum curve_id c);
/* y (parity odd) at pt from x at pt + words; x (low bit sign) at pt from y
 * at pt + 8 (bit 255 ignored); -1 when no point has that coordinate. */
int weierstrass_decompress(enum curve_id c, uint32_t *pt, bool odd);
int ed25519_decompress(uint32_t pt[16], bool sign);

/* precompile_field.c (GMP): x = x op y in the base field of a curve (Fp,
 * curve_words words) or in Fp2 = Fp[u]/(u^2 + 1) (c0 then c1). */
enum field_op { FIELD_ADD, FIELD_SUB, FIELD_MUL };
void fp_op(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y);
void fp2_op(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y);

#endif

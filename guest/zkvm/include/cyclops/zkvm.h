/* cyclops/zkvm.h - the SP1/Pico syscall layer for C guests: code in t0,
 * arguments in a0-a2, result in t0 (docs/zkvm.md). Link with entry.S and
 * zkvm.ld. */
#ifndef CYCLOPS_ZKVM_H
#define CYCLOPS_ZKVM_H

#include <stddef.h>
#include <stdint.h>

#define ZK_HALT                   0x00000000u
#define ZK_WRITE                  0x00000002u
#define ZK_ENTER_UNCONSTRAINED    0x00000003u
#define ZK_EXIT_UNCONSTRAINED     0x00000004u
#define ZK_SHA_EXTEND             0x00300105u
#define ZK_SHA_COMPRESS           0x00010106u
#define ZK_ED_ADD                 0x00010107u
#define ZK_ED_DECOMPRESS          0x00000108u
#define ZK_KECCAK_PERMUTE         0x00010109u
#define ZK_SECP256K1_ADD          0x0001010Au
#define ZK_SECP256K1_DOUBLE       0x0000010Bu
#define ZK_SECP256K1_DECOMPRESS   0x0000010Cu
#define ZK_BN254_ADD              0x0001010Eu
#define ZK_BN254_DOUBLE           0x0000010Fu
#define ZK_COMMIT                 0x00000010u
#define ZK_COMMIT_DEFERRED_PROOFS 0x0000001Au
#define ZK_UINT256_MUL            0x0001011Du
#define ZK_BLS12381_ADD           0x0001011Eu
#define ZK_BLS12381_DOUBLE        0x0000011Fu
#define ZK_BLS12381_FP_ADD        0x00010120u
#define ZK_BLS12381_FP_SUB        0x00010121u
#define ZK_BLS12381_FP_MUL        0x00010122u
#define ZK_BLS12381_FP2_ADD       0x00010123u
#define ZK_BLS12381_FP2_SUB       0x00010124u
#define ZK_BLS12381_FP2_MUL       0x00010125u
#define ZK_BN254_FP_ADD           0x00010126u
#define ZK_BN254_FP_SUB           0x00010127u
#define ZK_BN254_FP_MUL           0x00010128u
#define ZK_BN254_FP2_ADD          0x00010129u
#define ZK_BN254_FP2_SUB          0x0001012Au
#define ZK_BN254_FP2_MUL          0x0001012Bu
#define ZK_HINT_LEN               0x000000F0u
#define ZK_HINT_READ              0x000000F1u

#define ZK_FD_STDOUT        1
#define ZK_FD_STDERR        2
#define ZK_FD_PUBLIC_VALUES 3
#define ZK_FD_INPUT         4

static inline uint32_t zk_ecall(uint32_t code, uint32_t a0, uint32_t a1, uint32_t a2)
{
	register uint32_t t0 __asm__("t0") = code;
	register uint32_t r0 __asm__("a0") = a0;
	register uint32_t r1 __asm__("a1") = a1;
	register uint32_t r2 __asm__("a2") = a2;

	__asm__ volatile("ecall" : "+r"(t0) : "r"(r0), "r"(r1), "r"(r2) : "memory");
	return t0;
}

static inline __attribute__((noreturn)) void zk_halt(uint32_t code)
{
	zk_ecall(ZK_HALT, code, 0, 0);
	__builtin_unreachable();
}
static inline void zk_write(uint32_t fd, const void *buf, size_t len)
{
	zk_ecall(ZK_WRITE, fd, (uint32_t)(uintptr_t)buf, (uint32_t)len);
}
static inline uint32_t zk_hint_len(void) { return zk_ecall(ZK_HINT_LEN, 0, 0, 0); }
static inline void zk_hint_read(void *buf, size_t len)
{
	zk_ecall(ZK_HINT_READ, (uint32_t)(uintptr_t)buf, (uint32_t)len, 0);
}
static inline void zk_commit(uint32_t index, uint32_t word)
{
	zk_ecall(ZK_COMMIT, index, word, 0);
}
/* Two calls as SP1's: op(a0, a1) with the result in memory. The
 * decompressions take a flag in a1 instead of a pointer (zk_ecall). */
static inline void zk_precompile(uint32_t code, void *a0, const void *a1)
{
	zk_ecall(code, (uint32_t)(uintptr_t)a0, (uint32_t)(uintptr_t)a1, 0);
}

/* lib.c */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
size_t strlen(const char *s);
void zk_puts(uint32_t fd, const char *s);
void zk_put_hex(uint32_t fd, const void *p, size_t len);

#endif

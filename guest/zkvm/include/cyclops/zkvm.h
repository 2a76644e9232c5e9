/* cyclops/zkvm.h - the SP1/Pico syscall layer for C guests: code in t0,
 * arguments in a0-a4, result in t0 (docs/zkvm.md). Link with entry.S and
 * zkvm.ld (zkvm64.ld for 64-bit programs). Which descriptors the guest
 * uses follows the SP1 version it is built for: v3 and Pico (the default,
 * at 32 bits) put the public values on 3 and hints on 4; v4 and v5
 * (-DCY_ZKVM_SP1_V4) and v6 (every 64-bit build) on 13 and 14. */
#ifndef CYCLOPS_ZKVM_H
#define CYCLOPS_ZKVM_H

#include <stddef.h>
#include <stdint.h>

#if __riscv_xlen == 64 && !defined(CY_ZKVM_SP1_V6)
#define CY_ZKVM_SP1_V6 1
#endif

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
#define ZK_VERIFY_PROOF           0x0000001Bu /* VERIFY_SP1_PROOF, Pico's VERIFY_PICO_PROOF */
#define ZK_BLS12381_DECOMPRESS    0x0000011Cu
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
/* Pico has SECP256K1_FP_* and POSEIDON2_PERMUTE where SP1 v4 put
 * SECP256R1_* and U256XU2048_MUL, and SECP256R1_* from 0x30 on, where SP1
 * v6 has UINT256_ADD/MUL_CARRY (v6's executor no longer runs U256XU2048_MUL) */
#if defined(CY_ZKVM_PICO)
#define ZK_SECP256K1_FP_ADD     0x0001012Cu
#define ZK_SECP256K1_FP_SUB     0x0001012Du
#define ZK_SECP256K1_FP_MUL     0x0001012Eu
#define ZK_SECP256R1_ADD        0x00010130u
#define ZK_SECP256R1_DOUBLE     0x00000131u
#define ZK_SECP256R1_DECOMPRESS 0x00000132u
#elif defined(CY_ZKVM_SP1_V4) || defined(CY_ZKVM_SP1_V6)
#define ZK_SECP256R1_ADD        0x0001012Cu
#define ZK_SECP256R1_DOUBLE     0x0000012Du
#define ZK_SECP256R1_DECOMPRESS 0x0000012Eu
#endif
#if defined(CY_ZKVM_SP1_V4)
#define ZK_U256XU2048_MUL 0x0001012Fu
#endif
#if defined(CY_ZKVM_SP1_V6)
#define ZK_UINT256_ADD_CARRY 0x00010130u
#define ZK_UINT256_MUL_CARRY 0x00010131u
#define ZK_SIG_RETURN        0x00000134u
#endif
#define ZK_HINT_LEN          0x000000F0u
#define ZK_HINT_READ         0x000000F1u

#define ZK_FD_STDOUT 1
#define ZK_FD_STDERR 2
#if defined(CY_ZKVM_SP1_V4) || defined(CY_ZKVM_SP1_V6)
#define ZK_FD_PUBLIC_VALUES 13
#define ZK_FD_INPUT         14
#define ZK_FD_ECRECOVER     15 /* curve and parity, r, alpha: y and 1/r, or a proof of none */
#define ZK_FD_ED_DECOMPRESS 16
#define ZK_FD_RSA_MUL_MOD   17
#define ZK_FD_BLS12_381_SQRT 18
#define ZK_FD_BLS12_381_INV  19
#define ZK_FD_FP_SQRT        20
#define ZK_FD_FP_INV         21
#else
#define ZK_FD_PUBLIC_VALUES 3
#define ZK_FD_INPUT         4
#ifdef CY_ZKVM_PICO
#define ZK_FD_ECRECOVER 5 /* as SP1 v4's, secp256k1 only */
#else
#define ZK_FD_ECRECOVER_V1 5 /* SP1 v3: signature and hash: the key and 1/s */
#define ZK_FD_ECRECOVER_R1 6 /* P-256: 1/s */
#define ZK_FD_ECRECOVER_V2 7 /* a status first */
#endif
#define ZK_FD_ED_CHECK 8 /* 1 if 32 bytes are a compressed ed25519 point */
#endif

/* The word SP1 v6 aligns and pads to, and the slot it keeps a SHA-256
 * word in; 4 bytes at 32 bits. */
#ifdef CY_ZKVM_SP1_V6
typedef uint64_t zk_sha_word;
#define ZK_WORD 8
#else
typedef uint32_t zk_sha_word;
#define ZK_WORD 4
#endif

typedef uintptr_t zk_reg;

static inline zk_reg zk_ecall5(uint32_t code, zk_reg a0, zk_reg a1, zk_reg a2, zk_reg a3,
			       zk_reg a4)
{
	register zk_reg t0 __asm__("t0") = code;
	register zk_reg r0 __asm__("a0") = a0;
	register zk_reg r1 __asm__("a1") = a1;
	register zk_reg r2 __asm__("a2") = a2;
	register zk_reg r3 __asm__("a3") = a3;
	register zk_reg r4 __asm__("a4") = a4;

	__asm__ volatile("ecall"
			 : "+r"(t0)
			 : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(r4)
			 : "memory");
	return t0;
}

static inline zk_reg zk_ecall(uint32_t code, zk_reg a0, zk_reg a1, zk_reg a2)
{
	return zk_ecall5(code, a0, a1, a2, 0, 0);
}

static inline __attribute__((noreturn)) void zk_halt(uint32_t code)
{
	zk_ecall(ZK_HALT, code, 0, 0);
	__builtin_unreachable();
}
static inline void zk_write(uint32_t fd, const void *buf, size_t len)
{
	zk_ecall(ZK_WRITE, fd, (zk_reg)buf, len);
}
/* the next frame's length; with none left SP1 v4 and later return all ones */
static inline size_t zk_hint_len(void) { return zk_ecall(ZK_HINT_LEN, 0, 0, 0); }
/* buf aligned to ZK_WORD; the executors zero the rest of its last word */
static inline void zk_hint_read(void *buf, size_t len)
{
	zk_ecall(ZK_HINT_READ, (zk_reg)buf, len, 0);
}
static inline void zk_commit(uint32_t index, uint32_t word)
{
	zk_ecall(ZK_COMMIT, index, word, 0);
}
/* Two calls as SP1's: op(a0, a1) with the result in memory. The
 * decompressions take a flag in a1 instead of a pointer (zk_ecall). */
static inline void zk_precompile(uint32_t code, void *a0, const void *a1)
{
	zk_ecall(code, (zk_reg)a0, (zk_reg)a1, 0);
}

/* lib.c */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
size_t strlen(const char *s);
void zk_puts(uint32_t fd, const char *s);
void zk_put_hex(uint32_t fd, const void *p, size_t len);

#endif

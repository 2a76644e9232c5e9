/* zkvm.h - the guest ABIs of the SP1 and Pico zkVMs: their flavors, the
 * run-time state (struct zkvm: plain data, everything a run has changed, so
 * that it can be saved and restored), and the precompiles' pure functions
 * (precompile_*.c), which work on host arrays of little-endian words as
 * the guests lay them out in memory. docs/zkvm.md. */
#ifndef CY_ZKVM_H
#define CY_ZKVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/zkvm_syscalls.h"
#include "cyclops.h"

struct cy_vm;

/* The flavors, each with its own syscall table column, descriptors,
 * hooks and rules (docs/zkvm.md, "Versions"). SP1 v4 and v5 share one. */
enum zkvm_flavor { ZKVM_SP1_V3, ZKVM_SP1_V4, ZKVM_SP1_V6, ZKVM_PICO, ZKVM_FLAVORS };

/* Where the flavor came from (the report's abi_version_from). */
enum zkvm_version_source {
	ZKVM_FROM_OPTION,  /* --abi sp1@vN */
	ZKVM_FROM_CLASS,   /* a 64-bit SP1 guest is v6 */
	ZKVM_FROM_CRATE,   /* "sp1-zkvm-4.1.0" in the ELF's strings */
	ZKVM_FROM_SYMBOLS, /* the SDK's symbols (read_vec_raw: v4 and later) */
	ZKVM_FROM_DEFAULT, /* nothing said: the oldest table (v3), or Pico's */
};

/* Guests own [0, ZKVM_MEM_LIMIT) on 32 bits (SP1 v3-v5's and Pico's
 * MAXIMUM_MEMORY_SIZE); an SP1 v6 guest owns its whole 1 TiB space (its
 * SDK's default MAX_MEMORY is 2^37, with the input region in the top 2^34
 * of that; the executor allows 2^48 and the JIT 2^40). */
#define ZKVM_MEM_LIMIT    0x78000000u
#define ZKVM_V6_STACK_TOP 0x78000000u /* SP1 v6: every segment lies above */

struct zkvm_frame {
	uint8_t *data;
	size_t len;
};

/* What ENTER_UNCONSTRAINED saves and EXIT_UNCONSTRAINED puts back: the
 * registers (at either width), the pc, the clock and the reservation.
 * Memory needs no copy: the block runs on a copy-on-write view of it. The
 * outputs are not put back: SP1 and Pico keep what a block writes to the
 * public values and the input queue. */
struct zkvm_snapshot {
	uint64_t x[32];
	uint32_t pc;
	uint64_t cycles, instret;
	uint64_t resv_addr;
	bool resv_valid;
	uint32_t generation, used; /* the block cache's, at the enter */
};

/* A VERIFY_SP1_PROOF / VERIFY_PICO_PROOF: the verifying key's digest and
 * the public values' digest the guest named. No proof is checked (there is
 * no proof to check in a plain execution); the report lists them. */
struct zkvm_proof {
	uint32_t vkey[8], pv_digest[8];
};

struct zkvm {
	cy_abi abi; /* CY_ABI_SP1 or CY_ABI_PICO */
	enum zkvm_flavor flavor;
	unsigned version; /* as the user knows it: 3, 4, 5, 6; Pico: 1 */
	enum zkvm_version_source version_from;
	uint64_t mem_limit; /* syscall buffers must lie below it */
	unsigned word;      /* 4, or 8 for SP1 v6: alignment and hint padding */

	/* the input queue HINT_LEN/HINT_READ read; next_frame is the first unread */
	struct zkvm_frame *frames;
	size_t n_frames, cap_frames, next_frame;
	size_t guest_frame_bytes; /* what the guest's own WRITEs added */
	uint8_t *public_values;
	size_t public_len, public_cap;
	cy_commits commits;
	struct zkvm_proof *proofs;
	size_t n_proofs, cap_proofs;
	uint64_t counts[ZKVM_N_SYSCALLS];   /* outside unconstrained blocks, as SP1's report */
	uint32_t cycles[ZKVM_N_SYSCALLS];   /* the cost model's syscall costs (sp1-gas) */
	uint32_t per_unit[ZKVM_N_SYSCALLS]; /* ... per unit of work (RISC Zero's) */

	/* RISC Zero (syscall_risc0.c): stdin is the frames, one after the other */
	size_t frame_offset;
	uint64_t random; /* SYS_RANDOM's generator */
	uint32_t argc;   /* the guest's arguments after its name */
	char **argv;

	bool in_block; /* inside an unconstrained block: snap holds the state */
	struct zkvm_snapshot snap;
	int memfd;          /* the guest's memory once a block ran; -1 before */
	uint64_t cow_limit; /* the range the copy-on-write view covers */

	/* SP1 v6's untrusted-programs mode (docs/zkvm.md): the region its
	 * ELF note names, where MPROTECT may change pages; the checks
	 * themselves are the core's (core/prot.h, vm->prot) */
	bool user_mode;
	uint64_t untrusted_lo, untrusted_hi;

	bool warned_fd;
	cy_syscall_count count_out[ZKVM_N_SYSCALLS]; /* cy_vm_syscall_counts' */
};

/* The name of a code under the VM's flavor; NULL if it has none. */
const char *zkvm_syscall_name(const struct zkvm *z, uint32_t code);

/* syscall_risc0.c: the RISC Zero ABI's ecall names, a cost model's name's
 * row (-1: none), its counts, and whether the symbols say RISC Zero. */
const char *risc0_syscall_name(uint32_t nr);
int risc0_row(const char *name);
size_t risc0_counts(const struct zkvm *z, cy_syscall_count *out);
cy_abi risc0_detect(const struct cy_vm *vm);

/* What a hook answers: at most ZKVM_HOOK_FRAMES frames, which the caller
 * puts at the front of the input queue, in order. */
#define ZKVM_HOOK_FRAMES 3
struct zkvm_answer {
	uint8_t buf[ZKVM_HOOK_FRAMES][512];
	size_t len[ZKVM_HOOK_FRAMES];
	int n;
};

/* zkvm_hooks.c: a WRITE to a hook's descriptor, answered in out. Returns
 * 0, 1 when fd is no hook of the flavor, or -1 with why filled (bad input,
 * which SP1's hook would panic on). */
int zkvm_hook(const struct zkvm *z, uint32_t fd, const uint8_t *buf, size_t len,
	      struct zkvm_answer *out, char *why, size_t why_size);
/* The hook's name for messages ("ECRECOVER"), NULL if none. */
const char *zkvm_hook_name(const struct zkvm *z, uint32_t fd);

/* precompile_sha256.c: w[16..63] from w[0..15]; one compression of w into h. */
void sha256_extend(uint32_t w[64]);
void sha256_compress(uint32_t h[8], const uint32_t w[64]);

/* precompile_keccak.c: Keccak-f[1600] on 25 lanes. */
void keccak_f1600(uint64_t state[25]);

/* precompile_poseidon2.c: SP1 v6's Poseidon2 over KoalaBear, width 16, on
 * 16 elements (each word taken mod p); the same with other constants
 * (ext: the 8 full rounds' rows, part: the 20 partial rounds'), and SP1's
 * constants from the Grain LFSR, for the unit test. */
#define POSEIDON2_WIDTH 16
void poseidon2_kb16(uint32_t s[POSEIDON2_WIDTH]);
void poseidon2_kb16_with(uint32_t s[POSEIDON2_WIDTH], const uint32_t ext[][POSEIDON2_WIDTH],
			 const uint32_t *part);
void poseidon2_grain_constants(uint32_t ext[][POSEIDON2_WIDTH], uint32_t *part);
/* Pico's POSEIDON2_PERMUTE over KoalaBear: the same rounds, Pico's
 * constants and the newer Plonky3 internal layer (no 2^-32 factor, another
 * diagonal); and that permutation with other constants, for the unit test. */
void poseidon2_pico_kb16(uint32_t s[POSEIDON2_WIDTH]);
void poseidon2_pico_kb16_with(uint32_t s[POSEIDON2_WIDTH], const uint32_t ext[][POSEIDON2_WIDTH],
			      const uint32_t *part);

/* precompile_field.c (GMP): x = x * y mod m, m = 0 meaning 2^256. */
void uint256_mulmod(uint32_t x[8], const uint32_t y[8], const uint32_t m[8]);
/* lo||hi (72 words) = a (8 words) * b (64 words): U256XU2048_MUL. */
void u256x2048_mul(const uint32_t a[8], const uint32_t b[64], uint32_t lo[64], uint32_t hi[8]);
/* d||e (8 + 8 words) = a op b + c, op add or mul: UINT256_ADD/MUL_CARRY. */
void uint256_op_carry(bool mul, const uint32_t a[8], const uint32_t b[8], const uint32_t c[8],
		      uint32_t d[8], uint32_t e[8]);

/* precompile_curve.c (GMP). Points are x then y, each `words` LE words;
 * all return 0, or -1 when the input is not valid (no point, no root). */
enum curve_id { CURVE_SECP256K1, CURVE_SECP256R1, CURVE_BN254, CURVE_BLS12381, CURVE_IDS };
unsigned curve_words(enum curve_id c);
int weierstrass_add(enum curve_id c, uint32_t *p, const uint32_t *q);
int weierstrass_double(enum curve_id c, uint32_t *p);
int ed25519_add(uint32_t p[16], const uint32_t q[16]);
const char *curve_prime_hex(enum curve_id c);
const char *curve_order_hex(enum curve_id c);
/* y at pt from x at pt + words; odd selects y's parity, or for BLS12-381
 * (ZCash's flag, which SP1 and Pico follow) the larger of y and p - y. */
int weierstrass_decompress(enum curve_id c, uint32_t *pt, bool odd);
/* x (low bit sign) at pt from y at pt + 8 (bit 255 ignored). */
int ed25519_decompress(uint32_t pt[16], bool sign);

/* precompile_field.c (GMP): x = x op y in the base field of a curve (Fp,
 * curve_words words) or in Fp2 = Fp[u]/(u^2 + 1) (c0 then c1). */
enum field_op { FIELD_ADD, FIELD_SUB, FIELD_MUL };
void fp_op(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y);
void fp2_op(enum curve_id c, enum field_op op, uint32_t *x, const uint32_t *y);

#endif

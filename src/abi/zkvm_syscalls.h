/* zkvm_syscalls.h - the zkVM syscall tables as data: one row per syscall,
 * with its name and its code in each flavor of the ABI (docs/zkvm.md).
 * syscall_zkvm.c derives the dispatch, the names of frames, counts and
 * messages, and the counts' indices from it; nothing else lists them.
 *
 * _(NAME, handler, flags, SP1 v3, SP1 v4/v5, SP1 v6, Pico): the whole
 * 32-bit code that t0 holds (byte 0 the id, byte 1 "has its own table",
 * byte 2 the extra cycles SP1 v3-v5 listed), ZKVM_NONE where the flavor has
 * no such call. Read from SP1's crates/core/executor (syscalls/code.rs up to
 * v5, syscall_code.rs in v6) and Pico's vm/src/emulator/riscv/syscalls/
 * code.rs. The flags: ZKVM_IN_BLOCK, allowed inside an unconstrained block
 * (every flavor allows WRITE and EXIT_UNCONSTRAINED only). */
#ifndef CY_ZKVM_SYSCALLS_H
#define CY_ZKVM_SYSCALLS_H

#define ZKVM_NONE     0xffffffffu
#define ZKVM_IN_BLOCK 1u

/* clang-format off */
#define ZKVM_SYSCALLS(_)                                                                                         \
	_(HALT,                    sys_halt,        0,             0x00000000, 0x00000000, 0x00000000, 0x00000000) \
	_(WRITE,                   sys_write,       ZKVM_IN_BLOCK, 0x00000002, 0x00000002, 0x00000002, 0x00000002) \
	_(ENTER_UNCONSTRAINED,     sys_enter,       0,             0x00000003, 0x00000003, 0x00000003, 0x00000003) \
	_(EXIT_UNCONSTRAINED,      sys_exit,        ZKVM_IN_BLOCK, 0x00000004, 0x00000004, 0x00000004, 0x00000004) \
	_(SHA_EXTEND,              sys_sha_extend,  0,             0x00300105, 0x00300105, 0x00300105, 0x00300105) \
	_(SHA_COMPRESS,            sys_sha_compress,0,             0x00010106, 0x00010106, 0x00010106, 0x00010106) \
	_(ED_ADD,                  sys_ed_add,      0,             0x00010107, 0x00010107, 0x00010107, 0x00010107) \
	_(ED_DECOMPRESS,           sys_ed_decompress, 0,           0x00000108, 0x00000108, 0x00000108, 0x00000108) \
	_(KECCAK_PERMUTE,          sys_keccak,      0,             0x00010109, 0x00010109, 0x00010109, 0x00010109) \
	_(SECP256K1_ADD,           sys_curve_add,   0,             0x0001010A, 0x0001010A, 0x0001010A, 0x0001010A) \
	_(SECP256K1_DOUBLE,        sys_curve_double,0,             0x0000010B, 0x0000010B, 0x0000010B, 0x0000010B) \
	_(SECP256K1_DECOMPRESS,    sys_decompress,  0,             0x0000010C, 0x0000010C, 0x0000010C, 0x0000010C) \
	_(BN254_ADD,               sys_curve_add,   0,             0x0001010E, 0x0001010E, 0x0001010E, 0x0001010E) \
	_(BN254_DOUBLE,            sys_curve_double,0,             0x0000010F, 0x0000010F, 0x0000010F, 0x0000010F) \
	_(COMMIT,                  sys_commit,      0,             0x00000010, 0x00000010, 0x00000010, 0x00000010) \
	_(COMMIT_DEFERRED_PROOFS,  sys_commit,      0,             0x0000001A, 0x0000001A, 0x0000001A, 0x0000001A) \
	_(VERIFY_SP1_PROOF,        sys_verify,      0,             0x0000001B, 0x0000001B, 0x0000001B, ZKVM_NONE)  \
	_(VERIFY_PICO_PROOF,       sys_verify,      0,             ZKVM_NONE,  ZKVM_NONE,  ZKVM_NONE,  0x0000001B) \
	_(BLS12381_DECOMPRESS,     sys_decompress,  0,             0x0000011C, 0x0000011C, 0x0000011C, 0x0000011C) \
	_(UINT256_MUL,             sys_uint256_mul, 0,             0x0001011D, 0x0001011D, 0x0001011D, 0x0001011D) \
	_(BLS12381_ADD,            sys_curve_add,   0,             0x0001011E, 0x0001011E, 0x0001011E, 0x0001011E) \
	_(BLS12381_DOUBLE,         sys_curve_double,0,             0x0000011F, 0x0000011F, 0x0000011F, 0x0000011F) \
	_(BLS12381_FP_ADD,         sys_field,       0,             0x00010120, 0x00010120, 0x00010120, 0x00010120) \
	_(BLS12381_FP_SUB,         sys_field,       0,             0x00010121, 0x00010121, 0x00010121, 0x00010121) \
	_(BLS12381_FP_MUL,         sys_field,       0,             0x00010122, 0x00010122, 0x00010122, 0x00010122) \
	_(BLS12381_FP2_ADD,        sys_field,       0,             0x00010123, 0x00010123, 0x00010123, 0x00010123) \
	_(BLS12381_FP2_SUB,        sys_field,       0,             0x00010124, 0x00010124, 0x00010124, 0x00010124) \
	_(BLS12381_FP2_MUL,        sys_field,       0,             0x00010125, 0x00010125, 0x00010125, 0x00010125) \
	_(BN254_FP_ADD,            sys_field,       0,             0x00010126, 0x00010126, 0x00010126, 0x00010126) \
	_(BN254_FP_SUB,            sys_field,       0,             0x00010127, 0x00010127, 0x00010127, 0x00010127) \
	_(BN254_FP_MUL,            sys_field,       0,             0x00010128, 0x00010128, 0x00010128, 0x00010128) \
	_(BN254_FP2_ADD,           sys_field,       0,             0x00010129, 0x00010129, 0x00010129, 0x00010129) \
	_(BN254_FP2_SUB,           sys_field,       0,             0x0001012A, 0x0001012A, 0x0001012A, 0x0001012A) \
	_(BN254_FP2_MUL,           sys_field,       0,             0x0001012B, 0x0001012B, 0x0001012B, 0x0001012B) \
	_(SECP256K1_FP_ADD,        sys_field,       0,             ZKVM_NONE,  ZKVM_NONE,  ZKVM_NONE,  0x0001012C) \
	_(SECP256K1_FP_SUB,        sys_field,       0,             ZKVM_NONE,  ZKVM_NONE,  ZKVM_NONE,  0x0001012D) \
	_(SECP256K1_FP_MUL,        sys_field,       0,             ZKVM_NONE,  ZKVM_NONE,  ZKVM_NONE,  0x0001012E) \
	_(POSEIDON2_PERMUTE,       sys_poseidon2,   0,             ZKVM_NONE,  ZKVM_NONE,  ZKVM_NONE,  0x0001012F) \
	_(SECP256R1_ADD,           sys_curve_add,   0,             ZKVM_NONE,  0x0001012C, 0x0001012C, 0x00010130) \
	_(SECP256R1_DOUBLE,        sys_curve_double,0,             ZKVM_NONE,  0x0000012D, 0x0000012D, 0x00000131) \
	_(SECP256R1_DECOMPRESS,    sys_decompress,  0,             ZKVM_NONE,  0x0000012E, 0x0000012E, 0x00000132) \
	_(U256XU2048_MUL,          sys_u256x2048,   0,             ZKVM_NONE,  0x0001012F, 0x0001012F, ZKVM_NONE)  \
	_(UINT256_ADD_CARRY,       sys_uint256_ops, 0,             ZKVM_NONE,  ZKVM_NONE,  0x00010130, ZKVM_NONE)  \
	_(UINT256_MUL_CARRY,       sys_uint256_ops, 0,             ZKVM_NONE,  ZKVM_NONE,  0x00010131, ZKVM_NONE)  \
	_(MPROTECT,                sys_mprotect,    0,             ZKVM_NONE,  ZKVM_NONE,  0x00000132, ZKVM_NONE)  \
	_(POSEIDON2,               sys_poseidon2,   0,             ZKVM_NONE,  ZKVM_NONE,  0x00000133, ZKVM_NONE)  \
	_(SIG_RETURN,              sys_sig_return,  0,             ZKVM_NONE,  ZKVM_NONE,  0x00000134, ZKVM_NONE)  \
	_(HINT_MPROTECT_FLUSH,     sys_nothing,     0,             ZKVM_NONE,  ZKVM_NONE,  0x00000035, ZKVM_NONE)  \
	_(DUMP_ELF,                sys_dump_elf,    0,             ZKVM_NONE,  ZKVM_NONE,  0x00000040, ZKVM_NONE)  \
	_(INSERT_PROFILER_SYMBOLS, sys_nothing,     0,             ZKVM_NONE,  ZKVM_NONE,  0x00000041, ZKVM_NONE)  \
	_(DELETE_PROFILER_SYMBOLS, sys_nothing,     0,             ZKVM_NONE,  ZKVM_NONE,  0x00000042, ZKVM_NONE)  \
	_(HINT_LEN,                sys_hint_len,    0,             0x000000F0, 0x000000F0, 0x000000F0, 0x000000F0) \
	_(HINT_READ,               sys_hint_read,   0,             0x000000F1, 0x000000F1, 0x000000F1, 0x000000F1)
/* clang-format on */

enum zkvm_syscall {
#define ZKVM_SYS_ENUM(name, fn, flags, v3, v4, v6, pico) ZKVM_SYS_##name,
	ZKVM_SYSCALLS(ZKVM_SYS_ENUM)
#undef ZKVM_SYS_ENUM
	    ZKVM_N_SYSCALLS
};

#endif

/* syscall_zkvm.c - the guest ABI of the SP1 and Pico zkVMs: code in t0,
 * arguments in a0-a2, result in t0. Inputs are a queue of frames read with
 * HINT_LEN/HINT_READ; outputs are the public-values stream and the committed
 * words; unconstrained blocks run on a snapshot that is restored at their
 * end. The precompiles compute in precompile_*.c. See docs/zkvm.md. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "abi/zkvm.h"
#include "core/block.h"
#include "core/output.h"
#include "core/vm.h"
#include "util/state_io.h"

#define REG_T0 5
#define REG_A0 10
#define REG_A1 11
#define REG_A2 12

#define FD_STDOUT        1
#define FD_STDERR        2
#define FD_PUBLIC_VALUES 3
#define FD_INPUT         4

/* Byte 2 of a code: cycles SP1 adds for the call; cyclops reports them. */
#define CODE_EXTRA_CYCLES(code) (((code) >> 16) & 0xff)

/* The syscalls: _(code, name, handler). One table for the dispatch, the
 * names and the counts. */
#define ZKVM_SYSCALLS(_)                                                                           \
	_(0x00000000, HALT, sys_halt)                                                              \
	_(0x00000002, WRITE, sys_write)                                                            \
	_(0x00000003, ENTER_UNCONSTRAINED, sys_enter_unconstrained)                                \
	_(0x00000004, EXIT_UNCONSTRAINED, sys_exit_unconstrained)                                  \
	_(0x00300105, SHA_EXTEND, sys_sha_extend)                                                  \
	_(0x00010106, SHA_COMPRESS, sys_sha_compress)                                              \
	_(0x00010107, ED_ADD, sys_ed_add)                                                          \
	_(0x00000108, ED_DECOMPRESS, sys_ed_decompress)                                            \
	_(0x00010109, KECCAK_PERMUTE, sys_keccak_permute)                                          \
	_(0x0001010A, SECP256K1_ADD, sys_secp256k1_add)                                            \
	_(0x0000010B, SECP256K1_DOUBLE, sys_secp256k1_double)                                      \
	_(0x0000010C, SECP256K1_DECOMPRESS, sys_secp256k1_decompress)                              \
	_(0x0001010E, BN254_ADD, sys_bn254_add)                                                    \
	_(0x0000010F, BN254_DOUBLE, sys_bn254_double)                                              \
	_(0x00000010, COMMIT, sys_commit)                                                          \
	_(0x0000001A, COMMIT_DEFERRED_PROOFS, sys_commit_deferred)                                 \
	_(0x0001011D, UINT256_MUL, sys_uint256_mul)                                                \
	_(0x0001011E, BLS12381_ADD, sys_bls12381_add)                                              \
	_(0x0000011F, BLS12381_DOUBLE, sys_bls12381_double)                                        \
	_(0x00010120, BLS12381_FP_ADD, sys_bls12381_fp_add)                                        \
	_(0x00010121, BLS12381_FP_SUB, sys_bls12381_fp_sub)                                        \
	_(0x00010122, BLS12381_FP_MUL, sys_bls12381_fp_mul)                                        \
	_(0x00010123, BLS12381_FP2_ADD, sys_bls12381_fp2_add)                                      \
	_(0x00010124, BLS12381_FP2_SUB, sys_bls12381_fp2_sub)                                      \
	_(0x00010125, BLS12381_FP2_MUL, sys_bls12381_fp2_mul)                                      \
	_(0x00010126, BN254_FP_ADD, sys_bn254_fp_add)                                              \
	_(0x00010127, BN254_FP_SUB, sys_bn254_fp_sub)                                              \
	_(0x00010128, BN254_FP_MUL, sys_bn254_fp_mul)                                              \
	_(0x00010129, BN254_FP2_ADD, sys_bn254_fp2_add)                                            \
	_(0x0001012A, BN254_FP2_SUB, sys_bn254_fp2_sub)                                            \
	_(0x0001012B, BN254_FP2_MUL, sys_bn254_fp2_mul)                                            \
	_(0x000000F0, HINT_LEN, sys_hint_len)                                                      \
	_(0x000000F1, HINT_READ, sys_hint_read)

enum {
#define SYS_INDEX(code, name, fn) SYS_##name,
	ZKVM_SYSCALLS(SYS_INDEX)
#undef SYS_INDEX
	    N_ZKVM_SYSCALLS
};

static const uint32_t sys_codes[N_ZKVM_SYSCALLS] = {
#define SYS_CODE(code, name, fn) code,
	ZKVM_SYSCALLS(SYS_CODE)
#undef SYS_CODE
};

static const char *const sys_names[N_ZKVM_SYSCALLS] = {
#define SYS_NAME(code, name, fn) #name,
	ZKVM_SYSCALLS(SYS_NAME)
#undef SYS_NAME
};

struct frame {
	uint8_t *data;
	size_t len;
};

/* What ENTER_UNCONSTRAINED saves and EXIT_UNCONSTRAINED puts back: the
 * registers, the clock and the outputs' lengths. Memory needs no copy: the
 * block runs on a copy-on-write view of it (cow_enter, cow_exit). */
struct snapshot {
	uint32_t x[32];
	uint32_t pc;
	uint64_t cycles, instret;
	size_t public_len;
	cy_commits commits;
};

struct zkvm {
	cy_abi abi;
	struct frame *frames;
	size_t n_frames, cap_frames, next_frame;
	uint8_t *public_values;
	size_t public_len, public_cap;
	cy_commits commits;
	uint64_t counts[N_ZKVM_SYSCALLS];
	cy_syscall_count count_out[N_ZKVM_SYSCALLS];
	struct snapshot *snap; /* non-NULL inside an unconstrained block */
	int memfd;             /* the guest's memory once a block ran; -1 before */
	bool warned_fd;
	size_t guest_frame_bytes; /* what the guest's WRITEs to FD_INPUT added */
};

/* Limits (docs/robustness.md): what a guest's WRITEs may store in the
 * public values, and in input frames of its own. */
#define ZKVM_MAX_WRITTEN (256u << 20)

/* Stops the run at the current ecall with a message naming it. */
static void __attribute__((format(printf, 4, 5)))
zkvm_stop(struct cy_vm *vm, cy_fault fault, const char *sys, const char *fmt, ...)
{
	char at[160], why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	vm_describe_at(vm, vm->pc, false, at, sizeof(at)); /* "0x... <sym+0x..>", printable */
	vm->stop = CY_STOP_FAULT;
	vm->fault = fault;
	vm->break_loop = true;
	snprintf(vm->stop_message, sizeof(vm->stop_message), "%s at %s: %s", sys, at, why);
}

/* Guest memory that a syscall reads or writes: below the limit and, for
 * the precompiles, word-aligned. */
static bool guest_range(struct cy_vm *vm, const char *sys, const char *what, uint32_t addr,
			uint64_t len, bool aligned)
{
	if ((uint64_t)addr + len > ZKVM_MEM_LIMIT) {
		zkvm_stop(vm, CY_FAULT_MEMORY, sys,
			  "%s 0x%08x..+%llu is not below the zkVM memory limit 0x%08x", what, addr,
			  (unsigned long long)len, ZKVM_MEM_LIMIT);
		return false;
	}
	if (aligned && addr % 4) {
		zkvm_stop(vm, CY_FAULT_MEMORY, sys, "%s 0x%08x is not word-aligned", what, addr);
		return false;
	}
	return true;
}

static void guest_written(struct cy_vm *vm, uint32_t addr, uint64_t len)
{
	cache_memory_written(vm, addr, len);
}

static int append(uint8_t **buf, size_t *len, size_t *cap, const uint8_t *p, size_t n)
{
	if (*len + n > *cap) {
		size_t want = *cap ? *cap : 256;
		uint8_t *q;
		while (want < *len + n)
			want *= 2;
		q = realloc(*buf, want);
		if (!q)
			return -ENOMEM;
		*buf = q;
		*cap = want;
	}
	if (n)
		memcpy(*buf + *len, p, n);
	*len += n;
	return 0;
}

static int push_frame(struct zkvm *z, const void *data, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);

	if (!copy)
		return -ENOMEM;
	if (z->n_frames == z->cap_frames) {
		size_t cap = z->cap_frames ? 2 * z->cap_frames : 8;
		struct frame *f = realloc(z->frames, cap * sizeof(*f));
		if (!f) {
			free(copy);
			return -ENOMEM;
		}
		z->frames = f;
		z->cap_frames = cap;
	}
	memcpy(copy, data, len);
	z->frames[z->n_frames++] = (struct frame){ copy, len };
	return 0;
}

static void sys_halt(struct cy_vm *vm, uint32_t *a)
{
	vm->stop = CY_STOP_EXIT;
	vm->exit_code = (int)(a[0] & 0xff);
	vm->break_loop = true;
}

static void sys_write(struct cy_vm *vm, uint32_t *a)
{
	struct zkvm *z = vm->zkvm;
	uint32_t fd = a[0], buf = a[1], len = a[2];
	const uint8_t *p = vm->mem.base + buf;
	int rc = 0;

	if (!guest_range(vm, "WRITE", "buffer", buf, len, false))
		return;
	if ((fd == FD_PUBLIC_VALUES && z->public_len + len > ZKVM_MAX_WRITTEN) ||
	    (fd == FD_INPUT && z->guest_frame_bytes + len > ZKVM_MAX_WRITTEN)) {
		zkvm_stop(vm, CY_FAULT_HOST, "WRITE",
			  "fd %u (%s) would hold more than %u MiB, the limit", fd,
			  fd == FD_INPUT ? "hints" : "public values", ZKVM_MAX_WRITTEN >> 20);
		return;
	}
	switch (fd) {
	case FD_STDOUT:
	case FD_STDERR: output_write(vm, fd, buf, len); break;
	case FD_PUBLIC_VALUES:
		rc = append(&z->public_values, &z->public_len, &z->public_cap, p, len);
		break;
	case FD_INPUT:
		rc = push_frame(z, p, len);
		z->guest_frame_bytes += len + sizeof(struct frame);
		break;
	default:
		if (!z->warned_fd)
			vm_warn(vm, "WRITE to unknown fd %u at 0x%08x: ignored", fd, vm->pc);
		z->warned_fd = true;
		break;
	}
	if (rc != 0)
		zkvm_stop(vm, CY_FAULT_HOST, "WRITE", "out of host memory");
}

/* Unconstrained blocks run copy-on-write. At the first ENTER the guest's
 * memory below ZKVM_MEM_LIMIT moves into a memfd, mapped shared at the same
 * address. Each ENTER maps the memfd private over it, so the block's writes
 * land in private copies; each EXIT maps it shared again, and those copies
 * are gone: memory is as it was at the ENTER, pages first touched in the
 * block read as zero again. An ENTER/EXIT pair costs what the block
 * touches, not what the guest holds. */
#define COW_CHUNK (64u << 20)

static int map_guest(struct cy_vm *vm, int flags)
{
	void *p = mmap(vm->mem.base, ZKVM_MEM_LIMIT, PROT_READ | PROT_WRITE,
		       flags | MAP_FIXED | MAP_NORESERVE, vm->zkvm->memfd, 0);
	return p == MAP_FAILED ? -errno : 0;
}

/* Moves the resident pages into a new memfd and maps it shared. A failure
 * stops the run (the caller's zkvm_stop), so a chunk already given back
 * is never read again. */
static int cow_prepare(struct cy_vm *vm)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = COW_CHUNK / page;
	unsigned char *vec = malloc(n);
	int fd = memfd_create("cyclops-guest", MFD_CLOEXEC), rc = 0;

	if (!vec || fd < 0 || ftruncate(fd, ZKVM_MEM_LIMIT) != 0) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t off = 0; off < ZKVM_MEM_LIMIT && rc == 0; off += COW_CHUNK) {
		if (mincore(vm->mem.base + off, COW_CHUNK, vec) != 0)
			continue;
		/* one write per run of resident pages */
		for (size_t i = 0, k; i < n && rc == 0; i = k) {
			for (k = i; k < n && (vec[k] & 1) == (vec[i] & 1); k++)
				;
			size_t at = off + i * page, len = (k - i) * page;
			if ((vec[i] & 1) &&
			    pwrite(fd, vm->mem.base + at, len, (off_t)at) != (ssize_t)len)
				rc = -EIO;
		}
		/* the copy replaces the pages, so memory is not held twice */
		if (rc == 0)
			madvise(vm->mem.base + off, COW_CHUNK, MADV_DONTNEED);
	}
	vm->zkvm->memfd = fd;
	if (rc == 0 && (rc = map_guest(vm, MAP_SHARED)) == 0) {
		fd = -1; /* the VM's now */
		vm->mem.backing_fd = vm->zkvm->memfd;
		vm->mem.backing_size = ZKVM_MEM_LIMIT;
	} else {
		vm->zkvm->memfd = -1;
	}
out:
	free(vec);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Returns 1 in t0; EXIT_UNCONSTRAINED later returns 0 from here. */
static void sys_enter_unconstrained(struct cy_vm *vm, uint32_t *a)
{
	struct zkvm *z = vm->zkvm;
	struct snapshot *s;

	(void)a;
	if (z->snap) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, "ENTER_UNCONSTRAINED",
			  "already inside an unconstrained block");
		return;
	}
	if (!(s = calloc(1, sizeof(*s))) || (z->memfd < 0 && cow_prepare(vm) != 0) ||
	    map_guest(vm, MAP_PRIVATE) != 0) {
		free(s);
		zkvm_stop(vm, CY_FAULT_HOST, "ENTER_UNCONSTRAINED",
			  "out of host memory for the copy-on-write view");
		return;
	}
	memcpy(s->x, vm->x, sizeof(s->x));
	s->pc = vm->pc;
	s->cycles = vm->cycles;
	s->instret = vm->instret;
	s->public_len = z->public_len;
	s->commits = z->commits;
	z->snap = s;
	vm_set_reg(vm, REG_T0, 1);
}

/* Puts memory, registers, clock and outputs back as they were at the enter,
 * and resumes after the enter's ecall with t0 = 0. Output to fds 1 and 2
 * and the input queue are kept. Outside a block it only returns 0, as SP1. */
static void sys_exit_unconstrained(struct cy_vm *vm, uint32_t *a)
{
	struct zkvm *z = vm->zkvm;
	struct snapshot *s = z->snap;

	(void)a;
	if (!s) {
		vm_set_reg(vm, REG_T0, 0);
		return;
	}
	if (map_guest(vm, MAP_SHARED) != 0) {
		zkvm_stop(vm, CY_FAULT_HOST, "EXIT_UNCONSTRAINED",
			  "cannot map the guest's memory back");
		return;
	}
	memcpy(vm->x, s->x, sizeof(s->x));
	vm_set_reg(vm, REG_T0, 0);
	vm->undone_cycles += vm->cycles - s->cycles;
	if (vm->cycles > vm->clock_peak)
		vm->clock_peak = vm->cycles;
	vm->clock_moved_back = true; /* cy_vm_run recomputes its limits */
	vm->cycles = s->cycles;
	vm->instret = s->instret;
	z->public_len = s->public_len;
	z->commits = s->commits;
	vm->ecall_redirect = true;
	vm->ecall_next_pc = s->pc + 4;
	vm->break_loop = true;
	guest_written(vm, 0, ZKVM_MEM_LIMIT);
	free(s);
	z->snap = NULL;
}

static void sys_commit(struct cy_vm *vm, uint32_t *a)
{
	cy_commits *c = &vm->zkvm->commits;

	if (a[0] >= 8) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, "COMMIT", "word index %u is not 0..7", a[0]);
		return;
	}
	c->digest[a[0]] = a[1];
	c->digest_set |= (uint8_t)(1u << a[0]);
}

static void sys_commit_deferred(struct cy_vm *vm, uint32_t *a)
{
	cy_commits *c = &vm->zkvm->commits;

	if (a[0] >= 8) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, "COMMIT_DEFERRED_PROOFS",
			  "word index %u is not 0..7", a[0]);
		return;
	}
	c->deferred[a[0]] = a[1];
	c->deferred_set |= (uint8_t)(1u << a[0]);
}

static void sys_hint_len(struct cy_vm *vm, uint32_t *a)
{
	struct zkvm *z = vm->zkvm;

	(void)a;
	if (z->next_frame == z->n_frames) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, "HINT_LEN",
			  "no input frame left (%zu given, all read; see --input)", z->n_frames);
		return;
	}
	if (z->frames[z->next_frame].len > UINT32_MAX) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, "HINT_LEN", "input frame %zu is over 4 GiB",
			  z->next_frame + 1);
		return;
	}
	vm_set_reg(vm, REG_T0, (uint32_t)z->frames[z->next_frame].len);
}

static void sys_hint_read(struct cy_vm *vm, uint32_t *a)
{
	struct zkvm *z = vm->zkvm;
	uint32_t ptr = a[0], len = a[1];
	struct frame *f;

	if (z->next_frame == z->n_frames) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, "HINT_READ",
			  "no input frame left (%zu given, all read; see --input)", z->n_frames);
		return;
	}
	f = &z->frames[z->next_frame];
	if (f->len != len) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, "HINT_READ",
			  "length %u does not match input frame %zu of %zu bytes", len,
			  z->next_frame + 1, f->len);
		return;
	}
	if (!guest_range(vm, "HINT_READ", "buffer", ptr, len, true))
		return;
	memcpy(vm->mem.base + ptr, f->data, len);
	guest_written(vm, ptr, len);
	z->next_frame++;
}

/* Precompiles: copy the guest's words in, compute, copy the result out. */

static void sys_sha_extend(struct cy_vm *vm, uint32_t *a)
{
	uint32_t w[64];

	if (!guest_range(vm, "SHA_EXTEND", "w", a[0], sizeof(w), true))
		return;
	memcpy(w, vm->mem.base + a[0], sizeof(w));
	sha256_extend(w);
	memcpy(vm->mem.base + a[0], w, sizeof(w));
	guest_written(vm, a[0], sizeof(w));
}

static void sys_sha_compress(struct cy_vm *vm, uint32_t *a)
{
	uint32_t w[64], h[8];

	if (!guest_range(vm, "SHA_COMPRESS", "w", a[0], sizeof(w), true) ||
	    !guest_range(vm, "SHA_COMPRESS", "h", a[1], sizeof(h), true))
		return;
	memcpy(w, vm->mem.base + a[0], sizeof(w));
	memcpy(h, vm->mem.base + a[1], sizeof(h));
	sha256_compress(h, w);
	memcpy(vm->mem.base + a[1], h, sizeof(h));
	guest_written(vm, a[1], sizeof(h));
}

static void sys_keccak_permute(struct cy_vm *vm, uint32_t *a)
{
	uint64_t st[25];

	if (!guest_range(vm, "KECCAK_PERMUTE", "state", a[0], sizeof(st), true))
		return;
	memcpy(st, vm->mem.base + a[0], sizeof(st));
	keccak_f1600(st);
	memcpy(vm->mem.base + a[0], st, sizeof(st));
	guest_written(vm, a[0], sizeof(st));
}

/* x at a0; y and then the modulus at a1. */
static void sys_uint256_mul(struct cy_vm *vm, uint32_t *a)
{
	uint32_t x[8], ym[16];

	if (!guest_range(vm, "UINT256_MUL", "x", a[0], sizeof(x), true) ||
	    !guest_range(vm, "UINT256_MUL", "y and modulus", a[1], sizeof(ym), true))
		return;
	memcpy(x, vm->mem.base + a[0], sizeof(x));
	memcpy(ym, vm->mem.base + a[1], sizeof(ym));
	uint256_mulmod(x, ym, ym + 8);
	memcpy(vm->mem.base + a[0], x, sizeof(x));
	guest_written(vm, a[0], sizeof(x));
}

/* Curve points: p at a0 (result written there), q at a1. */
static void curve_op(struct cy_vm *vm, uint32_t *a, const char *sys, enum curve_id c, bool add)
{
	uint32_t p[24], q[24];
	size_t bytes = 2 * curve_words(c) * 4;

	if (!guest_range(vm, sys, "p", a[0], bytes, true) ||
	    (add && !guest_range(vm, sys, "q", a[1], bytes, true)))
		return;
	memcpy(p, vm->mem.base + a[0], bytes);
	if (add)
		memcpy(q, vm->mem.base + a[1], bytes);
	if ((add ? weierstrass_add(c, p, q) : weierstrass_double(c, p)) != 0) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, sys, "the points are not valid inputs");
		return;
	}
	memcpy(vm->mem.base + a[0], p, bytes);
	guest_written(vm, a[0], bytes);
}

static void sys_secp256k1_add(struct cy_vm *vm, uint32_t *a)
{
	curve_op(vm, a, "SECP256K1_ADD", CURVE_SECP256K1, true);
}
static void sys_secp256k1_double(struct cy_vm *vm, uint32_t *a)
{
	curve_op(vm, a, "SECP256K1_DOUBLE", CURVE_SECP256K1, false);
}
static void sys_bn254_add(struct cy_vm *vm, uint32_t *a)
{
	curve_op(vm, a, "BN254_ADD", CURVE_BN254, true);
}
static void sys_bn254_double(struct cy_vm *vm, uint32_t *a)
{
	curve_op(vm, a, "BN254_DOUBLE", CURVE_BN254, false);
}
static void sys_bls12381_add(struct cy_vm *vm, uint32_t *a)
{
	curve_op(vm, a, "BLS12381_ADD", CURVE_BLS12381, true);
}
static void sys_bls12381_double(struct cy_vm *vm, uint32_t *a)
{
	curve_op(vm, a, "BLS12381_DOUBLE", CURVE_BLS12381, false);
}

static void sys_ed_add(struct cy_vm *vm, uint32_t *a)
{
	uint32_t p[16], q[16];

	if (!guest_range(vm, "ED_ADD", "p", a[0], sizeof(p), true) ||
	    !guest_range(vm, "ED_ADD", "q", a[1], sizeof(q), true))
		return;
	memcpy(p, vm->mem.base + a[0], sizeof(p));
	memcpy(q, vm->mem.base + a[1], sizeof(q));
	if (ed25519_add(p, q) != 0) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, "ED_ADD", "the points are not valid inputs");
		return;
	}
	memcpy(vm->mem.base + a[0], p, sizeof(p));
	guest_written(vm, a[0], sizeof(p));
}

/* Decompressions (SP1 v3): a0 points to 64 bytes; the known coordinate is
 * read from the upper 32, the computed one written to the lower 32, the
 * upper half left as it was. a1 is the sign (ed25519: x's low bit) or the
 * parity of y (secp256k1); SP1 refuses anything but 0 or 1. */
static void decompress(struct cy_vm *vm, uint32_t *a, const char *sys, bool ed)
{
	uint32_t pt[16];

	if (a[1] > 1) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, sys, "%s %u in a1 is not 0 or 1",
			  ed ? "sign" : "parity", a[1]);
		return;
	}
	if (!guest_range(vm, sys, "point", a[0], sizeof(pt), true))
		return;
	memcpy(pt, vm->mem.base + a[0], sizeof(pt));
	if ((ed ? ed25519_decompress(pt, a[1])
		: weierstrass_decompress(CURVE_SECP256K1, pt, a[1])) != 0) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, sys, "%s",
			  ed ? "y is not the y of an ed25519 point"
			     : "x is not the x of a secp256k1 point");
		return;
	}
	memcpy(vm->mem.base + a[0], pt, sizeof(pt) / 2);
	guest_written(vm, a[0], sizeof(pt) / 2);
}
static void sys_ed_decompress(struct cy_vm *vm, uint32_t *a)
{
	decompress(vm, a, "ED_DECOMPRESS", true);
}
static void sys_secp256k1_decompress(struct cy_vm *vm, uint32_t *a)
{
	decompress(vm, a, "SECP256K1_DECOMPRESS", false);
}

/* Field operations: x (an Fp or Fp2 element) at a0 becomes x op y, y at a1. */
static void field_call(struct cy_vm *vm, uint32_t *a, const char *sys, enum curve_id c,
		       enum field_op op, bool fp2)
{
	uint32_t x[24], y[24];
	size_t bytes = (fp2 ? 2 : 1) * curve_words(c) * 4;

	if (!guest_range(vm, sys, "x", a[0], bytes, true) ||
	    !guest_range(vm, sys, "y", a[1], bytes, true))
		return;
	memcpy(x, vm->mem.base + a[0], bytes);
	memcpy(y, vm->mem.base + a[1], bytes);
	(fp2 ? fp2_op : fp_op)(c, op, x, y);
	memcpy(vm->mem.base + a[0], x, bytes);
	guest_written(vm, a[0], bytes);
}

#define FIELD_SYSCALL(fn, name, curve, op, fp2)                                                    \
	static void fn(struct cy_vm *vm, uint32_t *a) { field_call(vm, a, #name, curve, op, fp2); }
FIELD_SYSCALL(sys_bls12381_fp_add, BLS12381_FP_ADD, CURVE_BLS12381, FIELD_ADD, false)
FIELD_SYSCALL(sys_bls12381_fp_sub, BLS12381_FP_SUB, CURVE_BLS12381, FIELD_SUB, false)
FIELD_SYSCALL(sys_bls12381_fp_mul, BLS12381_FP_MUL, CURVE_BLS12381, FIELD_MUL, false)
FIELD_SYSCALL(sys_bls12381_fp2_add, BLS12381_FP2_ADD, CURVE_BLS12381, FIELD_ADD, true)
FIELD_SYSCALL(sys_bls12381_fp2_sub, BLS12381_FP2_SUB, CURVE_BLS12381, FIELD_SUB, true)
FIELD_SYSCALL(sys_bls12381_fp2_mul, BLS12381_FP2_MUL, CURVE_BLS12381, FIELD_MUL, true)
FIELD_SYSCALL(sys_bn254_fp_add, BN254_FP_ADD, CURVE_BN254, FIELD_ADD, false)
FIELD_SYSCALL(sys_bn254_fp_sub, BN254_FP_SUB, CURVE_BN254, FIELD_SUB, false)
FIELD_SYSCALL(sys_bn254_fp_mul, BN254_FP_MUL, CURVE_BN254, FIELD_MUL, false)
FIELD_SYSCALL(sys_bn254_fp2_add, BN254_FP2_ADD, CURVE_BN254, FIELD_ADD, true)
FIELD_SYSCALL(sys_bn254_fp2_sub, BN254_FP2_SUB, CURVE_BN254, FIELD_SUB, true)
FIELD_SYSCALL(sys_bn254_fp2_mul, BN254_FP2_MUL, CURVE_BN254, FIELD_MUL, true)
#undef FIELD_SYSCALL

typedef void (*sys_fn)(struct cy_vm *vm, uint32_t *a);

static const sys_fn sys_fns[N_ZKVM_SYSCALLS] = {
#define SYS_FN(code, name, fn) fn,
	ZKVM_SYSCALLS(SYS_FN)
#undef SYS_FN
};

static int sys_index(uint32_t code)
{
	switch (code) {
#define SYS_CASE(code, name, fn)                                                                   \
	case code: return SYS_##name;
		ZKVM_SYSCALLS(SYS_CASE)
#undef SYS_CASE
	default: return -1;
	}
}

void syscall_zkvm(struct cy_vm *vm)
{
	uint32_t code = (uint32_t)vm_reg(vm, REG_T0);
	/* the 32-bit zkVMs' arguments (RV64 guests do not reach here yet) */
	uint32_t args[3] = { (uint32_t)vm_reg(vm, REG_A0), (uint32_t)vm_reg(vm, REG_A1),
			     (uint32_t)vm_reg(vm, REG_A2) };
	int i = sys_index(code);

	if (i < 0) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, "ecall",
			  "unknown %s syscall code 0x%08x in t0 (id 0x%02x)",
			  cy_abi_name(vm->zkvm->abi), code, code & 0xff);
		return;
	}
	vm->zkvm->counts[i]++;
	sys_fns[i](vm, args);
}

cy_abi zkvm_detect(const struct cy_vm *vm)
{
	for (size_t i = 0; i < vm->syms.n; i++) {
		const char *name = vm->syms.syms[i].name;
		if (strstr(name, "sp1_zkvm") || strstr(name, "sp1_lib"))
			return CY_ABI_SP1;
		if (strstr(name, "pico_sdk"))
			return CY_ABI_PICO;
	}
	return CY_ABI_LINUX;
}

int zkvm_setup(struct cy_vm *vm, cy_abi abi, char *err, size_t err_size)
{
	for (int i = 0; i < vm->mem.n_regions; i++)
		if (vm->mem.regions[i].end > ZKVM_MEM_LIMIT) {
			snprintf(err, err_size,
				 "segment at 0x%08llx..0x%08llx is not below the zkVM memory limit "
				 "0x%08x",
				 (unsigned long long)vm->mem.regions[i].start,
				 (unsigned long long)vm->mem.regions[i].end, ZKVM_MEM_LIMIT);
			return -EINVAL;
		}
	vm->zkvm = calloc(1, sizeof(*vm->zkvm));
	if (!vm->zkvm) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	vm->zkvm->abi = abi;
	vm->zkvm->memfd = -1;
	return 0;
}

void zkvm_free(struct cy_vm *vm)
{
	struct zkvm *z = vm->zkvm;

	if (!z)
		return;
	for (size_t i = 0; i < z->n_frames; i++)
		free(z->frames[i].data);
	free(z->frames);
	free(z->public_values);
	free(z->snap);
	if (z->memfd >= 0) {
		close(z->memfd); /* its mapping goes with the guest's memory */
		vm->mem.backing_fd = -1;
	}
	free(z);
	vm->zkvm = NULL;
}

/* The zkVM's part of a checkpoint (api/checkpoint.c): the input queue (the
 * frames not yet read), the public values, the committed words and the
 * syscall counts. A checkpoint is never cut inside an unconstrained block
 * (zkvm_in_block), so there is no snapshot to save; the copy-on-write memfd
 * is not state: a restored guest makes its own at its next block. Frames
 * already read are only counted: their bytes are never read again. */
#define ZKVM_MAX_FRAMES_READ (1u << 26)

static void frame_io(struct sio *io, struct frame *f, bool unread)
{
	if (unread)
		sio_blob(io, (void **)&f->data, &f->len, SIZE_MAX, "bytes in an input frame");
	else if (io->load)
		*f = (struct frame){ NULL, 0 };
}

void zkvm_state_io(struct sio *io, struct cy_vm *vm)
{
	struct zkvm *z = vm->zkvm;
	int abi = z->abi;

	sio_tag(io, "ZKVM");
	sio_int(io, &abi, CY_ABI_SP1, CY_ABI_PICO, "the zkVM ABI");
	if (io->load && abi != (int)z->abi)
		sio_fail(io, "it holds a guest of the %s ABI, not %s", cy_abi_name((cy_abi)abi),
			 cy_abi_name(z->abi));
	if (io->load) {
		for (size_t i = 0; i < z->n_frames; i++)
			free(z->frames[i].data);
		z->n_frames = z->next_frame = 0;
	}
	size_t unread = z->n_frames - z->next_frame;
	sio_count(io, &z->next_frame, ZKVM_MAX_FRAMES_READ, 0, "input frames read");
	sio_count(io, &unread, SIZE_MAX, 8, "input frames not read");
	if (io->load && sio_ok(io)) {
		z->n_frames = z->next_frame + unread;
		if (sio_alloc(io, (void **)&z->frames, z->n_frames, sizeof(*z->frames)))
			z->cap_frames = z->n_frames + 1;
		else
			z->n_frames = z->next_frame = 0;
	}
	for (size_t i = 0; i < z->n_frames && sio_ok(io); i++)
		frame_io(io, &z->frames[i], i >= z->next_frame);
	sio_blob(io, (void **)&z->public_values, &z->public_len, ZKVM_MAX_WRITTEN, "public values");
	if (io->load)
		z->public_cap = z->public_len + 1;
	for (int i = 0; i < 8; i++) {
		sio_u32(io, &z->commits.digest[i]);
		sio_u32(io, &z->commits.deferred[i]);
	}
	sio_u8(io, &z->commits.digest_set);
	sio_u8(io, &z->commits.deferred_set);
	for (int i = 0; i < N_ZKVM_SYSCALLS; i++)
		sio_u64(io, &z->counts[i]);
	sio_bool(io, &z->warned_fd);
	sio_size(io, &z->guest_frame_bytes);
	if (!sio_ok(io) && io->load) {
		for (size_t i = 0; i < z->n_frames; i++) {
			free(z->frames[i].data);
			z->frames[i].data = NULL;
		}
		z->n_frames = z->next_frame = 0;
	}
}

bool zkvm_in_block(const struct cy_vm *vm) { return vm->zkvm && vm->zkvm->snap; }

/* The API (include/cyclops.h). */

static const char *const abi_names[] = { "auto", "linux", "sp1", "pico" };

const char *cy_abi_name(cy_abi abi)
{
	return (unsigned)abi < sizeof(abi_names) / sizeof(abi_names[0]) ? abi_names[abi] : "?";
}

int cy_abi_parse(const char *text, cy_abi *out)
{
	for (unsigned i = 0; i < sizeof(abi_names) / sizeof(abi_names[0]); i++)
		if (strcmp(text, abi_names[i]) == 0) {
			*out = (cy_abi)i;
			return 0;
		}
	return -EINVAL;
}

cy_abi cy_vm_abi(const cy_vm *vm) { return vm->opts.abi; }

int cy_vm_push_input(cy_vm *vm, const void *data, size_t len)
{
	if (!vm->zkvm)
		return -EINVAL;
	return push_frame(vm->zkvm, data, len);
}

const uint8_t *cy_vm_public_values(const cy_vm *vm, size_t *len)
{
	*len = vm->zkvm ? vm->zkvm->public_len : 0;
	return *len ? vm->zkvm->public_values : NULL;
}

void cy_vm_commits(const cy_vm *vm, cy_commits *out)
{
	if (vm->zkvm)
		*out = vm->zkvm->commits;
	else
		memset(out, 0, sizeof(*out));
}

const cy_syscall_count *cy_vm_syscall_counts(cy_vm *vm, size_t *n)
{
	struct zkvm *z = vm->zkvm;
	size_t k = 0;

	*n = 0;
	if (!z)
		return NULL;
	for (int i = 0; i < N_ZKVM_SYSCALLS; i++)
		if (z->counts[i])
			z->count_out[k++] =
			    (cy_syscall_count){ sys_codes[i], sys_names[i], z->counts[i],
						CODE_EXTRA_CYCLES(sys_codes[i]) };
	for (size_t i = 1; i < k; i++) /* by syscall id */
		for (size_t j = i;
		     j > 0 && (z->count_out[j - 1].code & 0xff) > (z->count_out[j].code & 0xff);
		     j--) {
			cy_syscall_count t = z->count_out[j];
			z->count_out[j] = z->count_out[j - 1];
			z->count_out[j - 1] = t;
		}
	*n = k;
	return z->count_out;
}

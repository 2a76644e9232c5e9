/* syscall_zkvm.c - the guest ABI of the SP1 and Pico zkVMs: code in t0,
 * arguments in a0-a4, result in t0. The syscalls are the rows of
 * zkvm_syscalls.h, each flavor (SP1 v3, v4/v5, v6, Pico) its own column;
 * the flavors' other differences (descriptors, hint rules) are the rows of
 * rules[] below. Inputs are a queue of frames read with HINT_LEN and
 * HINT_READ; outputs are the public-values stream and the committed words;
 * unconstrained blocks run on a copy-on-write view of memory that nothing
 * counts, restored at their end. The precompiles compute in
 * precompile_*.c, the hooks in zkvm_hooks.c. See docs/zkvm.md. */
#include <errno.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "abi/abi.h"
#include "abi/zkvm.h"
#include "core/block.h"
#include "core/output.h"
#include "core/prot.h"
#include "core/vm.h"
#include "util/elf_sym.h"
#include "util/state_io.h"

#define REG_T0 5
#define REG_A0 10

#define FD_STDOUT 1
#define FD_STDERR 2

/* How the flavors differ beyond their syscall codes, read from each
 * executor's write, hint and unconstrained syscalls. */
static const struct rules {
	const char *name;
	uint32_t fd_public, fd_hint; /* WRITE: the public values, a frame of input */
	/* a frame the guest writes goes before the unread ones (SP1 v4 and
	 * later push it to the front of a deque) or after all (SP1 v3, Pico) */
	bool hint_to_front;
	/* HINT_LEN with nothing left: all ones (v4 and later), or a stop */
	bool hint_len_all_ones;
	/* EXIT_UNCONSTRAINED outside a block returns 0; SP1 v6 panics */
	bool exit_outside_ok;
	/* SP1 v4/v5 panic on descriptors 3..10: the v3 ones, moved up by 10 */
	bool low_fds_reserved;
	uint64_t mem_limit;
	unsigned word; /* bytes: syscall alignment, hint padding */
} rules[ZKVM_FLAVORS] = {
	[ZKVM_SP1_V3] = { "SP1 v3", 3, 4, false, false, true, false, ZKVM_MEM_LIMIT, 4 },
	[ZKVM_SP1_V4] = { "SP1 v4/v5", 13, 14, true, true, true, true, ZKVM_MEM_LIMIT, 4 },
	[ZKVM_SP1_V6] = { "SP1 v6", 13, 14, true, true, false, false, 0, 8 },
	[ZKVM_PICO] = { "Pico", 3, 4, false, false, true, false, ZKVM_MEM_LIMIT, 4 },
};

typedef void (*sys_fn)(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a);

#define SYS_DECL(name, fn, flags, v3, v4, v6, pico)                                                \
	static void fn(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a);
ZKVM_SYSCALLS(SYS_DECL)
#undef SYS_DECL

static const struct row {
	const char *name;
	sys_fn fn;
	unsigned flags;
	uint32_t code[ZKVM_FLAVORS];
} rows[ZKVM_N_SYSCALLS] = {
#define SYS_ROW(name, fn, flags, v3, v4, v6, pico) { #name, fn, flags, { v3, v4, v6, pico } },
	ZKVM_SYSCALLS(SYS_ROW)
#undef SYS_ROW
};

/* Byte 2 of a code: the cycles SP1 v3-v5 added for the call; reported,
 * never added (docs/zkvm.md, "Cycles"). */
#define CODE_EXTRA_CYCLES(code) (((code) >> 16) & 0xff)

/* Limits (docs/robustness.md): what a guest's WRITEs may store in the
 * public values, and in input frames of its own. */
#define ZKVM_MAX_WRITTEN (256u << 20)

static int find_row(const struct zkvm *z, uint32_t code)
{
	if (code == ZKVM_NONE)
		return -1;
	for (int i = 0; i < ZKVM_N_SYSCALLS; i++)
		if (rows[i].code[z->flavor] == code)
			return i;
	return -1;
}

const char *zkvm_syscall_name(const struct zkvm *z, uint32_t code)
{
	int i;

	if (z->abi == CY_ABI_RISC0)
		return risc0_syscall_name(code);
	i = find_row(z, code);
	return i < 0 ? NULL : rows[i].name;
}

static int sp1_row(const char *name)
{
	for (int i = 0; i < ZKVM_N_SYSCALLS; i++)
		if (strcmp(rows[i].name, name) == 0)
			return i;
	return -1;
}

/* Stops the run at the current ecall with a message naming it. */
static void __attribute__((format(printf, 4, 5)))
zkvm_stop(struct cy_vm *vm, cy_fault fault, const char *sys, const char *fmt, ...)
{
	char at[160], why[200];
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

/* Guest memory that a syscall reads or writes: below the flavor's limit
 * and, for the precompiles, aligned to its word. */
static bool span(struct cy_vm *vm, enum zkvm_syscall sys, const char *what, uint64_t addr,
		 uint64_t len, bool aligned)
{
	const struct zkvm *z = vm->zkvm;

	if (addr > z->mem_limit || len > z->mem_limit - addr) {
		zkvm_stop(vm, CY_FAULT_MEMORY, rows[sys].name,
			  "%s 0x%08llx..+%llu is not below the zkVM memory limit 0x%08llx", what,
			  (unsigned long long)addr, (unsigned long long)len,
			  (unsigned long long)z->mem_limit);
		return false;
	}
	if (aligned && addr % z->word) {
		zkvm_stop(vm, CY_FAULT_MEMORY, rows[sys].name, "%s 0x%08llx is not %u-byte aligned",
			  what, (unsigned long long)addr, z->word);
		return false;
	}
	return true;
}

static void get(const struct cy_vm *vm, void *dst, uint64_t addr, size_t len)
{
	memcpy(dst, vm->mem.base + addr, len);
}

static void put(struct cy_vm *vm, uint64_t addr, const void *src, size_t len)
{
	memcpy(vm->mem.base + addr, src, len);
	cache_memory_written(vm, addr, len);
}

/* 32-bit words in slots of slot bytes (SP1 v6 keeps SHA-256's words in
 * 64-bit slots, the value in the low half). */
static void get_words(const struct cy_vm *vm, uint32_t *w, uint64_t addr, unsigned n, unsigned slot)
{
	for (unsigned i = 0; i < n; i++)
		get(vm, &w[i], addr + (uint64_t)i * slot, 4);
}

static void put_words(struct cy_vm *vm, uint64_t addr, const uint32_t *w, unsigned n, unsigned slot)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = w[i];
		put(vm, addr + (uint64_t)i * slot, &v, slot);
	}
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

/* A frame into the input queue at index at (n_frames: after all). */
static int insert_frame(struct zkvm *z, size_t at, const void *data, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);

	if (!copy)
		return -ENOMEM;
	if (z->n_frames == z->cap_frames) {
		size_t cap = z->cap_frames ? 2 * z->cap_frames : 8;
		struct zkvm_frame *f = realloc(z->frames, cap * sizeof(*f));
		if (!f) {
			free(copy);
			return -ENOMEM;
		}
		z->frames = f;
		z->cap_frames = cap;
	}
	memcpy(copy, data, len);
	memmove(z->frames + at + 1, z->frames + at, (z->n_frames - at) * sizeof(*z->frames));
	z->frames[at] = (struct zkvm_frame){ copy, len };
	z->n_frames++;
	return 0;
}

/* A hook's frames at the front of the input queue, the first read first. */
static int push_answer(struct zkvm *z, const struct zkvm_answer *out, char *why, size_t n)
{
	for (int i = out->n - 1; i >= 0; i--)
		if (insert_frame(z, z->next_frame, out->buf[i], out->len[i]) != 0) {
			snprintf(why, n, "out of host memory");
			return -1;
		}
	return 0;
}

static void sys_halt(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	(void)sys;
	vm->stop = CY_STOP_EXIT;
	vm->exit_code = (int)(a[0] & 0xff);
	vm->break_loop = true;
}

static void sys_write(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	struct zkvm *z = vm->zkvm;
	const struct rules *r = &rules[z->flavor];
	uint64_t fd = a[0], buf = a[1], len = a[2];
	const uint8_t *p = vm->mem.base + buf;
	struct zkvm_answer answer;
	char why[160];
	int rc = 0;

	if (!span(vm, sys, "buffer", buf, len, false))
		return;
	if (len > UINT32_MAX || (fd == r->fd_public && z->public_len + len > ZKVM_MAX_WRITTEN) ||
	    (fd == r->fd_hint && z->guest_frame_bytes + len > ZKVM_MAX_WRITTEN)) {
		zkvm_stop(vm, CY_FAULT_HOST, "WRITE",
			  "fd %llu (%s) would hold more than %u MiB, the limit",
			  (unsigned long long)fd, fd == r->fd_hint ? "hints" : "public values",
			  ZKVM_MAX_WRITTEN >> 20);
		return;
	}
	if (fd == FD_STDOUT || fd == FD_STDERR) {
		output_write(vm, (uint32_t)fd, buf, (uint32_t)len);
	} else if (fd == r->fd_public) {
		rc = append(&z->public_values, &z->public_len, &z->public_cap, p, len);
	} else if (fd == r->fd_hint) {
		rc = insert_frame(z, r->hint_to_front ? z->next_frame : z->n_frames, p, len);
		z->guest_frame_bytes += len + sizeof(struct zkvm_frame);
	} else if ((rc = zkvm_hook(z, (uint32_t)fd, p, len, &answer, why, sizeof(why))) < 0 ||
		   (rc == 0 && push_answer(z, &answer, why, sizeof(why)) != 0)) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, "WRITE", "fd %llu (%s hook): %s",
			  (unsigned long long)fd, zkvm_hook_name(z, (uint32_t)fd), why);
		return;
	} else if (rc == 1 && r->low_fds_reserved && fd <= 10) {
		/* SP1 v4 and v5 panic here, naming the descriptor */
		zkvm_stop(vm, CY_FAULT_SYSCALL, "WRITE",
			  "fd %llu is reserved since SP1 v4 (the v3 descriptors moved up by 10: "
			  "a v3 guest wants --abi sp1@v3)",
			  (unsigned long long)fd);
		return;
	} else if (rc == 1) {
		if (!z->warned_fd)
			vm_warn(vm,
				"WRITE to fd %llu at 0x%08x: no such descriptor or hook in %s; "
				"ignored%s",
				(unsigned long long)fd, vm->pc, r->name,
				z->flavor == ZKVM_SP1_V3 && fd >= 13 && fd <= 21
				    ? " (SP1 v4 and later use it: --abi sp1@v4?)"
				    : "");
		z->warned_fd = true;
		rc = 0;
	}
	if (rc < 0)
		zkvm_stop(vm, CY_FAULT_HOST, "WRITE", "out of host memory");
}

/* Unconstrained blocks run copy-on-write. At the first ENTER the guest's
 * memory below cow_limit moves into a memfd, mapped shared at the same
 * address. Each ENTER maps the memfd private over it, so the block's writes
 * land in private copies; each EXIT maps it shared again, and those copies
 * are gone: memory is as it was at the ENTER, pages first touched in the
 * block read as zero again. An ENTER/EXIT pair costs what the block
 * touches, not what the guest holds. */
#define COW_CHUNK (64u << 20)

static int map_guest(struct cy_vm *vm, int flags)
{
	void *p = mmap(vm->mem.base, vm->zkvm->cow_limit, PROT_READ | PROT_WRITE,
		       flags | MAP_FIXED | MAP_NORESERVE, vm->zkvm->memfd, 0);
	return p == MAP_FAILED ? -errno : 0;
}

/* Moves the resident pages into a new memfd and maps it shared. A failure
 * stops the run (the caller's zkvm_stop), so a chunk already given back
 * is never read again. */
static int cow_prepare(struct cy_vm *vm)
{
	uint64_t limit = vm->zkvm->cow_limit;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = COW_CHUNK / page;
	unsigned char *vec = malloc(n);
	int fd = memfd_create("cyclops-guest", MFD_CLOEXEC), rc = 0;

	if (!vec || fd < 0 || ftruncate(fd, (off_t)limit) != 0) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint64_t off = 0; off < limit && rc == 0; off += COW_CHUNK) {
		if (mincore(vm->mem.base + off, COW_CHUNK, vec) != 0)
			continue;
		/* one write per run of resident pages */
		for (size_t i = 0, k; i < n && rc == 0; i = k) {
			for (k = i; k < n && (vec[k] & 1) == (vec[i] & 1); k++)
				;
			uint64_t at = off + i * page, len = (k - i) * page;
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
		vm->mem.backing_size = vm->zkvm->cow_limit;
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
static void sys_enter(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	struct zkvm *z = vm->zkvm;
	struct zkvm_snapshot *s = &z->snap;

	(void)sys, (void)a;
	if ((z->memfd < 0 && cow_prepare(vm) != 0) || map_guest(vm, MAP_PRIVATE) != 0) {
		zkvm_stop(vm, CY_FAULT_HOST, "ENTER_UNCONSTRAINED",
			  "out of host memory for the copy-on-write view");
		return;
	}
	for (unsigned i = 0; i < 32; i++)
		s->x[i] = vm_reg(vm, i);
	s->pc = vm->pc;
	s->cycles = vm->cycles;
	s->instret = vm->instret;
	s->resv_addr = vm->resv_addr;
	s->resv_valid = vm->resv_valid;
	s->generation = vm->cache.generation;
	s->used = vm->cache.used;
	z->in_block = true;
	vm_set_reg(vm, REG_T0, 1);
	/* from the next instruction on, nothing counts (core/state.h) */
	vm->unacc.on = true;
	vm->unacc.started = false;
	/* the block's output carries the clock before the enter, as SP1 v6's
	 * global_clk, which neither the enter nor the block moves */
	vm->unacc.output_cycles = vm->cycles;
	vm->break_loop = true;
}

/* Puts memory, registers and the clock back as they were at the enter,
 * and resumes after the enter's ecall with t0 = 0. */
static void sys_exit(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	struct zkvm *z = vm->zkvm;
	const struct zkvm_snapshot *s = &z->snap;

	(void)a;
	if (!z->in_block) {
		if (!rules[z->flavor].exit_outside_ok)
			zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
				  "not inside an unconstrained block (%s stops here)",
				  rules[z->flavor].name);
		else
			vm_set_reg(vm, REG_T0, 0);
		return;
	}
	if (map_guest(vm, MAP_SHARED) != 0) {
		zkvm_stop(vm, CY_FAULT_HOST, "EXIT_UNCONSTRAINED",
			  "cannot map the guest's memory back");
		return;
	}
	for (unsigned i = 1; i < 32; i++)
		vm_set_reg(vm, i, s->x[i]);
	vm_set_reg(vm, REG_T0, 0);
	vm->resv_addr = s->resv_addr;
	vm->resv_valid = s->resv_valid;
	/* the clock as before the enter's ecall: this ecall retires in its
	 * place, so the block costs what the enter cost, and nothing of it
	 * was seen (vm->unacc) */
	vm->undone_cycles += vm->cycles - s->cycles;
	if (vm->cycles > vm->clock_peak)
		vm->clock_peak = vm->cycles;
	vm->clock_moved_back = true; /* cy_vm_run recomputes its limits */
	vm->cycles = s->cycles;
	vm->instret = s->instret;
	vm->unacc.on = vm->unacc.started = false;
	vm->ecall_redirect = true;
	vm->ecall_next_pc = s->pc + 4;
	vm->break_loop = true;
	/* code the block decoded may have been what it wrote there: only
	 * blocks decoded before it are known to hold memory as it is now */
	if (vm->cache.generation != s->generation || vm->cache.used != s->used)
		cache_memory_written(vm, 0, z->cow_limit);
	z->in_block = false;
}

/* COMMIT and COMMIT_DEFERRED_PROOFS: word a1 at index a0 of the digest. */
static void sys_commit(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	cy_commits *c = &vm->zkvm->commits;
	bool deferred = sys == ZKVM_SYS_COMMIT_DEFERRED_PROOFS;

	if (a[0] >= 8) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name, "word index %llu is not 0..7",
			  (unsigned long long)a[0]);
		return;
	}
	(deferred ? c->deferred : c->digest)[a[0]] = (uint32_t)a[1];
	*(deferred ? &c->deferred_set : &c->digest_set) |= (uint8_t)(1u << a[0]);
}

/* VERIFY_SP1_PROOF / VERIFY_PICO_PROOF: the verifying key's digest (8
 * words at a0) and the public values' digest (32 bytes at a1) of a proof
 * the guest relies on. SP1's execution checks it against a proof the host
 * wrote, Pico's leaves it to a later phase; a run has no proof: the
 * digests are recorded (the report's verified_proofs). */
static void sys_verify(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	struct zkvm *z = vm->zkvm;
	struct zkvm_proof pr;

	if (!span(vm, sys, "verifying key digest", a[0], sizeof(pr.vkey), true) ||
	    !span(vm, sys, "public values digest", a[1], sizeof(pr.pv_digest), true))
		return;
	get(vm, pr.vkey, a[0], sizeof(pr.vkey));
	get(vm, pr.pv_digest, a[1], sizeof(pr.pv_digest));
	if (z->n_proofs == z->cap_proofs) {
		size_t cap = z->cap_proofs ? 2 * z->cap_proofs : 4;
		struct zkvm_proof *q =
		    cap < (1u << 20) ? realloc(z->proofs, cap * sizeof(*q)) : NULL;
		if (!q) {
			zkvm_stop(vm, CY_FAULT_HOST, rows[sys].name, "too many proofs to record");
			return;
		}
		z->proofs = q;
		z->cap_proofs = cap;
	}
	z->proofs[z->n_proofs++] = pr;
}

/* Why the queue is empty, for the message: the hint of --input, unless the
 * guest wrote to a descriptor that is no hook of its flavor (it then waits
 * for an answer that never came). */
static const char *empty_queue_hint(const struct zkvm *z)
{
	return z->warned_fd ? "the guest wrote to a descriptor that is no hook of this flavor "
			      "(see the warning above, and --abi)"
			    : "see --input";
}

static void sys_hint_len(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	struct zkvm *z = vm->zkvm;

	(void)a;
	if (z->next_frame == z->n_frames) {
		if (rules[z->flavor].hint_len_all_ones) {
			vm_set_reg(vm, REG_T0, UINT64_MAX);
			return;
		}
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
			  "no input frame left (%zu given, all read; %s)", z->n_frames,
			  empty_queue_hint(z));
		return;
	}
	if (vm->xlen == 32 && z->frames[z->next_frame].len > UINT32_MAX) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name, "input frame %zu is over 4 GiB",
			  z->next_frame + 1);
		return;
	}
	vm_set_reg(vm, REG_T0, z->frames[z->next_frame].len);
}

/* The next frame to a0, whose length a1 must be; then zeros to the end of
 * the last word, as the executors write whole words: SP1 v6 writes one
 * more 8-byte word after the frame's whole ones, so a frame of 16 bytes
 * is followed by 8 zero bytes. */
static void sys_hint_read(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	struct zkvm *z = vm->zkvm;
	static const uint8_t zeros[8];
	uint64_t ptr = a[0], len = a[1], padded;
	struct zkvm_frame *f;

	if (z->next_frame == z->n_frames) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
			  "no input frame left (%zu given, all read; %s)", z->n_frames,
			  empty_queue_hint(z));
		return;
	}
	f = &z->frames[z->next_frame];
	if (f->len != len) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
			  "length %llu does not match input frame %zu of %zu bytes",
			  (unsigned long long)len, z->next_frame + 1, f->len);
		return;
	}
	padded = z->flavor == ZKVM_SP1_V6 ? (len / 8 + 1) * 8 : (len + 3) / 4 * 4;
	if (!span(vm, sys, "buffer", ptr, padded, true))
		return;
	put(vm, ptr, f->data, len);
	put(vm, ptr + len, zeros, padded - len);
	z->next_frame++;
}

/* Precompiles: copy the guest's words in, compute, copy the result out.
 * Operands are little-endian arrays whose bytes are the same at both
 * widths, but for SHA-256's words, which SP1 v6 keeps in 64-bit slots. */

static unsigned sha_slot(const struct zkvm *z) { return z->flavor == ZKVM_SP1_V6 ? 8 : 4; }

static void sys_sha_extend(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	unsigned slot = sha_slot(vm->zkvm);
	uint32_t w[64];

	if (!span(vm, sys, "w", a[0], 64 * slot, true))
		return;
	get_words(vm, w, a[0], 64, slot);
	sha256_extend(w);
	put_words(vm, a[0] + 16 * slot, w + 16, 48, slot);
}

static void sys_sha_compress(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	unsigned slot = sha_slot(vm->zkvm);
	uint32_t w[64], h[8];

	if (!span(vm, sys, "w", a[0], 64 * slot, true) || !span(vm, sys, "h", a[1], 8 * slot, true))
		return;
	get_words(vm, w, a[0], 64, slot);
	get_words(vm, h, a[1], 8, slot);
	sha256_compress(h, w);
	put_words(vm, a[1], h, 8, slot);
}

static void sys_keccak(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	uint64_t st[25];

	if (!span(vm, sys, "state", a[0], sizeof(st), true))
		return;
	get(vm, st, a[0], sizeof(st));
	keccak_f1600(st);
	put(vm, a[0], st, sizeof(st));
}

/* x at a0; y and then the modulus at a1. */
static void sys_uint256_mul(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	uint32_t x[8], ym[16];

	if (!span(vm, sys, "x", a[0], sizeof(x), true) ||
	    !span(vm, sys, "y and modulus", a[1], sizeof(ym), true))
		return;
	get(vm, x, a[0], sizeof(x));
	get(vm, ym, a[1], sizeof(ym));
	uint256_mulmod(x, ym, ym + 8);
	put(vm, a[0], x, sizeof(x));
}

/* a (256 bits) at a0 times b (2048 bits) at a1: the low 2048 bits to the
 * address in a2, the high 256 to the one in a3 (SP1 v4/v5; v6's executor
 * panics, "deprecated") */
static void sys_u256x2048(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	uint32_t x[8], y[64], lo[64], hi[8];

	if (vm->zkvm->flavor == ZKVM_SP1_V6) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
			  "SP1 v6's executor no longer implements it (it panics)");
		return;
	}
	if (!span(vm, sys, "a", a[0], sizeof(x), true) ||
	    !span(vm, sys, "b", a[1], sizeof(y), true) ||
	    !span(vm, sys, "lo", a[2], sizeof(lo), true) ||
	    !span(vm, sys, "hi", a[3], sizeof(hi), true))
		return;
	get(vm, x, a[0], sizeof(x));
	get(vm, y, a[1], sizeof(y));
	u256x2048_mul(x, y, lo, hi);
	put(vm, a[2], lo, sizeof(lo));
	put(vm, a[3], hi, sizeof(hi));
}

/* SP1 v6: (a op b) + c, a b c at a0 a1 a2; the low 256 bits to the
 * address in a3, the high to the one in a4. */
static void sys_uint256_ops(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	uint32_t x[8], y[8], z[8], d[8], e[8];

	if (!span(vm, sys, "a", a[0], 32, true) || !span(vm, sys, "b", a[1], 32, true) ||
	    !span(vm, sys, "c", a[2], 32, true) || !span(vm, sys, "d", a[3], 32, true) ||
	    !span(vm, sys, "e", a[4], 32, true))
		return;
	get(vm, x, a[0], 32);
	get(vm, y, a[1], 32);
	get(vm, z, a[2], 32);
	uint256_op_carry(sys == ZKVM_SYS_UINT256_MUL_CARRY, x, y, z, d, e);
	put(vm, a[3], d, 32);
	put(vm, a[4], e, 32);
}

static enum curve_id curve_of(enum zkvm_syscall sys)
{
	switch (sys) {
	case ZKVM_SYS_SECP256K1_ADD:
	case ZKVM_SYS_SECP256K1_DOUBLE:
	case ZKVM_SYS_SECP256K1_DECOMPRESS:
	case ZKVM_SYS_SECP256K1_FP_ADD:
	case ZKVM_SYS_SECP256K1_FP_SUB:
	case ZKVM_SYS_SECP256K1_FP_MUL: return CURVE_SECP256K1;
	case ZKVM_SYS_SECP256R1_ADD:
	case ZKVM_SYS_SECP256R1_DOUBLE:
	case ZKVM_SYS_SECP256R1_DECOMPRESS: return CURVE_SECP256R1;
	case ZKVM_SYS_BN254_ADD:
	case ZKVM_SYS_BN254_DOUBLE:
	case ZKVM_SYS_BN254_FP_ADD:
	case ZKVM_SYS_BN254_FP_SUB:
	case ZKVM_SYS_BN254_FP_MUL:
	case ZKVM_SYS_BN254_FP2_ADD:
	case ZKVM_SYS_BN254_FP2_SUB:
	case ZKVM_SYS_BN254_FP2_MUL: return CURVE_BN254;
	default: return CURVE_BLS12381;
	}
}

/* Curve points: p at a0 (the result written there), q at a1. */
static void curve_op(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a, bool add)
{
	enum curve_id c = curve_of(sys);
	uint32_t p[24], q[24];
	size_t bytes = 2 * curve_words(c) * 4;

	if (!span(vm, sys, "p", a[0], bytes, true) ||
	    (add && !span(vm, sys, "q", a[1], bytes, true)))
		return;
	get(vm, p, a[0], bytes);
	if (add)
		get(vm, q, a[1], bytes);
	if ((add ? weierstrass_add(c, p, q) : weierstrass_double(c, p)) != 0) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
			  "the points are not valid inputs (their sum is the point at infinity)");
		return;
	}
	put(vm, a[0], p, bytes);
}

static void sys_curve_add(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	curve_op(vm, sys, a, true);
}

static void sys_curve_double(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	curve_op(vm, sys, a, false);
}

static void sys_ed_add(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	uint32_t p[16], q[16];

	if (!span(vm, sys, "p", a[0], sizeof(p), true) ||
	    !span(vm, sys, "q", a[1], sizeof(q), true))
		return;
	get(vm, p, a[0], sizeof(p));
	get(vm, q, a[1], sizeof(q));
	if (ed25519_add(p, q) != 0) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name, "the points are not valid inputs");
		return;
	}
	put(vm, a[0], p, sizeof(p));
}

/* Decompressions: a0 points to two coordinates; the known one is read
 * from the upper half, the computed one written to the lower half, the
 * upper half left as it was. a1 is the flag: ed25519's sign (x's low bit),
 * the parity of y (secp256k1, secp256r1) or the larger root (BLS12-381);
 * the executors refuse anything but 0 or 1. SP1 v6's executor has dropped
 * the Weierstrass ones (it panics, "deprecated"). */
static void decompress(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a, bool ed)
{
	enum curve_id c = curve_of(sys);
	unsigned words = ed ? 8 : curve_words(c);
	uint32_t pt[24];

	if (!ed && vm->zkvm->flavor == ZKVM_SP1_V6) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
			  "SP1 v6's executor no longer implements it (it panics)");
		return;
	}
	if (a[1] > 1) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name, "flag %llu in a1 is not 0 or 1",
			  (unsigned long long)a[1]);
		return;
	}
	if (!span(vm, sys, "point", a[0], 2 * words * 4, true))
		return;
	get(vm, pt, a[0], 2 * words * 4);
	if ((ed ? ed25519_decompress(pt, a[1]) : weierstrass_decompress(c, pt, a[1])) != 0) {
		static const char *const names[CURVE_IDS] = { "secp256k1", "secp256r1", "BN254",
							      "BLS12-381" };
		if (ed)
			zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
				  "y is not the y of an ed25519 point");
		else
			zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
				  "x is not the x of a %s point", names[c]);
		return;
	}
	put(vm, a[0], pt, words * 4);
}

static void sys_ed_decompress(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	decompress(vm, sys, a, true);
}

static void sys_decompress(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	decompress(vm, sys, a, false);
}

/* Field operations: x (an Fp or Fp2 element) at a0 becomes x op y, y at a1. */
static void sys_field(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	static const struct {
		enum zkvm_syscall sys;
		enum field_op op;
		bool fp2;
	} ops[] = {
		{ ZKVM_SYS_BLS12381_FP_ADD, FIELD_ADD, false },
		{ ZKVM_SYS_BLS12381_FP_SUB, FIELD_SUB, false },
		{ ZKVM_SYS_BLS12381_FP_MUL, FIELD_MUL, false },
		{ ZKVM_SYS_BLS12381_FP2_ADD, FIELD_ADD, true },
		{ ZKVM_SYS_BLS12381_FP2_SUB, FIELD_SUB, true },
		{ ZKVM_SYS_BLS12381_FP2_MUL, FIELD_MUL, true },
		{ ZKVM_SYS_BN254_FP_ADD, FIELD_ADD, false },
		{ ZKVM_SYS_BN254_FP_SUB, FIELD_SUB, false },
		{ ZKVM_SYS_BN254_FP_MUL, FIELD_MUL, false },
		{ ZKVM_SYS_BN254_FP2_ADD, FIELD_ADD, true },
		{ ZKVM_SYS_BN254_FP2_SUB, FIELD_SUB, true },
		{ ZKVM_SYS_BN254_FP2_MUL, FIELD_MUL, true },
		{ ZKVM_SYS_SECP256K1_FP_ADD, FIELD_ADD, false },
		{ ZKVM_SYS_SECP256K1_FP_SUB, FIELD_SUB, false },
		{ ZKVM_SYS_SECP256K1_FP_MUL, FIELD_MUL, false },
	};
	enum curve_id c = curve_of(sys);
	uint32_t x[24], y[24];
	size_t k = 0, bytes;

	while (ops[k].sys != sys)
		k++;
	bytes = (ops[k].fp2 ? 2 : 1) * curve_words(c) * 4;
	if (!span(vm, sys, "x", a[0], bytes, true) || !span(vm, sys, "y", a[1], bytes, true))
		return;
	get(vm, x, a[0], bytes);
	get(vm, y, a[1], bytes);
	(ops[k].fp2 ? fp2_op : fp_op)(c, ops[k].op, x, y);
	put(vm, a[0], x, bytes);
}

/* POSEIDON2 (SP1 v6): the permutation of the 16 KoalaBear elements (u32
 * LE, two to a doubleword) at a0, in place; a1 must be 0.
 * POSEIDON2_PERMUTE (Pico): the 16 words at a0 permuted (Pico's constants
 * and layers, KoalaBear: its default prover's field) to the 16 words at a1,
 * which may be a0; read first, written after, as Pico's executor does. */
static void sys_poseidon2(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	uint32_t s[POSEIDON2_WIDTH];

	if (sys == ZKVM_SYS_POSEIDON2_PERMUTE) {
		if (!span(vm, sys, "input", a[0], sizeof(s), true) ||
		    !span(vm, sys, "output", a[1], sizeof(s), true))
			return;
		get(vm, s, a[0], sizeof(s));
		poseidon2_pico_kb16(s);
		put(vm, a[1], s, sizeof(s));
		return;
	}
	if (a[1] != 0) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name, "a1 is %llu, not 0",
			  (unsigned long long)a[1]);
		return;
	}
	if (!span(vm, sys, "state", a[0], sizeof(s), true))
		return;
	get(vm, s, a[0], sizeof(s));
	poseidon2_kb16(s);
	put(vm, a[0], s, sizeof(s));
}

/* MPROTECT: a0's page gets the protection in a1. SP1 v6 allows it only to
 * a program built in its untrusted-programs mode, on a page of the region
 * its note names, with one of four protections; its executor stops on
 * anything else (it asserts), and so does cyclops. */
static void sys_mprotect(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	static const uint8_t permitted[] = { 0, PROT_R | PROT_W, PROT_R | PROT_X, PROT_R };
	const struct zkvm *z = vm->zkvm;
	bool ok = false;

	if (!z->user_mode) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
			  "page protections need SP1's untrusted-programs mode, which this program "
			  "was not built in (its executor stops here too)");
		return;
	}
	for (size_t i = 0; i < sizeof(permitted); i++)
		ok |= a[1] == permitted[i];
	if (!ok) {
		zkvm_stop(
		    vm, CY_FAULT_SYSCALL, rows[sys].name,
		    "protection %llu in a1 is not one SP1 permits (0, r, r-x, rw-: 0, 4, 5, 6)",
		    (unsigned long long)a[1]);
		return;
	}
	if (a[0] % PROT_PAGE || a[0] < z->untrusted_lo || a[0] >= z->untrusted_hi ||
	    a[0] >= MEM_SPACE_64) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
			  "0x%llx is not a page of the untrusted region 0x%llx..0x%llx",
			  (unsigned long long)a[0], (unsigned long long)z->untrusted_lo,
			  (unsigned long long)z->untrusted_hi);
		return;
	}
	if (prot_set(vm, a[0], a[0] + PROT_PAGE, (uint8_t)a[1]) != 0)
		zkvm_stop(vm, CY_FAULT_HOST, rows[sys].name,
			  "out of memory for the page protections");
}

/* SIG_RETURN (SP1 v6): x1..x31 from the 31 words after the one at a0, as a
 * trap handler returns; t0 gets x5's. In the untrusted-programs mode (SP1's
 * user mode) the program goes on at the first word's address; else after
 * the ecall (its supervisor mode). Read without protection checks, as SP1
 * reads them. */
static void sys_sig_return(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	uint64_t regs[31], next;

	if (!span(vm, sys, "register frame", a[0], 8 + sizeof(regs), true))
		return;
	get(vm, &next, a[0], 8);
	get(vm, regs, a[0] + 8, sizeof(regs));
	if (vm->zkvm->user_mode && (next >= MEM_CODE_LIMIT || (next & 1))) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
			  "the frame's pc 0x%llx is not a code address", (unsigned long long)next);
		return;
	}
	for (unsigned i = 1; i < 32; i++)
		vm_set_reg(vm, i, regs[i - 1]);
	if (vm->zkvm->user_mode) {
		vm->ecall_redirect = true;
		vm->ecall_next_pc = (uint32_t)next;
		vm->break_loop = true;
	}
}

/* The pages a precompile's operands must allow before SP1 v6's user mode
 * runs it, in the order its executor checks them (crates/core/executor/
 * src/minimal/precompiles/): each an address, a length in 8-byte words
 * and the protection it needs. */
struct operand_check {
	uint64_t addr, words;
	uint8_t want;
};

static unsigned operand_checks(enum zkvm_syscall sys, const uint64_t *a, struct operand_check *c)
{
	const uint8_t r = PROT_R, w = PROT_W, rw = PROT_R | PROT_W;
	enum curve_id curve = curve_of(sys);
	uint64_t point = curve_words(curve); /* 8-byte words: two coordinates */

	switch (sys) {
	case ZKVM_SYS_SHA_EXTEND:
		c[0] = (struct operand_check){ a[0], 16, r };
		c[1] = (struct operand_check){ a[0] + 16 * 8, 48, rw };
		return 2;
	case ZKVM_SYS_SHA_COMPRESS:
		c[0] = (struct operand_check){ a[1], 8, r };
		c[1] = (struct operand_check){ a[0], 64, r };
		c[2] = (struct operand_check){ a[1], 8, w };
		return 3;
	case ZKVM_SYS_KECCAK_PERMUTE:
		c[0] = (struct operand_check){ a[0], 25, r };
		c[1] = (struct operand_check){ a[0], 25, w };
		return 2;
	case ZKVM_SYS_ED_ADD: point = 8; /* fall through */
	case ZKVM_SYS_SECP256K1_ADD:
	case ZKVM_SYS_SECP256R1_ADD:
	case ZKVM_SYS_BN254_ADD:
	case ZKVM_SYS_BLS12381_ADD:
		c[0] = (struct operand_check){ a[1], point, r };
		c[1] = (struct operand_check){ a[0], point, rw };
		return 2;
	case ZKVM_SYS_SECP256K1_DOUBLE:
	case ZKVM_SYS_SECP256R1_DOUBLE:
	case ZKVM_SYS_BN254_DOUBLE:
	case ZKVM_SYS_BLS12381_DOUBLE: c[0] = (struct operand_check){ a[0], point, rw }; return 1;
	case ZKVM_SYS_ED_DECOMPRESS:
		c[0] = (struct operand_check){ a[0] + 32, 4, r };
		c[1] = (struct operand_check){ a[0], 4, w };
		return 2;
	case ZKVM_SYS_BLS12381_FP_ADD:
	case ZKVM_SYS_BLS12381_FP_SUB:
	case ZKVM_SYS_BLS12381_FP_MUL:
	case ZKVM_SYS_BN254_FP_ADD:
	case ZKVM_SYS_BN254_FP_SUB:
	case ZKVM_SYS_BN254_FP_MUL:
		point /= 2; /* one coordinate */
	/* fall through */
	case ZKVM_SYS_BLS12381_FP2_ADD:
	case ZKVM_SYS_BLS12381_FP2_SUB:
	case ZKVM_SYS_BLS12381_FP2_MUL:
	case ZKVM_SYS_BN254_FP2_ADD:
	case ZKVM_SYS_BN254_FP2_SUB:
	case ZKVM_SYS_BN254_FP2_MUL:
		c[0] = (struct operand_check){ a[1], point, r };
		c[1] = (struct operand_check){ a[0], point, rw };
		return 2;
	case ZKVM_SYS_UINT256_MUL:
		c[0] = (struct operand_check){ a[1], 8, r };
		c[1] = (struct operand_check){ a[0], 4, rw };
		return 2;
	case ZKVM_SYS_UINT256_ADD_CARRY:
	case ZKVM_SYS_UINT256_MUL_CARRY:
		for (unsigned i = 0; i < 5; i++)
			c[i] = (struct operand_check){ a[i], 4, i < 3 ? r : w };
		return 5;
	case ZKVM_SYS_POSEIDON2: c[0] = (struct operand_check){ a[0], 8, rw }; return 1;
	default: return 0; /* the others read and write unchecked, as SP1's */
	}
}

/* SP1 v6's memory rows of a call (sp1-gas, cost/touch.c): the 8-byte words
 * its executor reads or writes with records (the operands above; SP1 v6.4.0's
 * vm/syscall/), the registers it reads or writes (UINT256_ADD/MUL_CARRY's
 * pointers in x12-x14, SIG_RETURN's x1-x31 and its frame), the words a hint
 * rewrites (they count again), and the entries the call adds to SP1's trace
 * (minimal/precompiles/: a read one per word, a write two; SHA_EXTEND's 48
 * rounds read four words and write one, 6 each; HINT_LEN one). Returns the
 * cycles to add. */
static uint64_t memory_rows(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	uint64_t (*hook)(struct cy_vm *, enum touch_kind, uint64_t, uint64_t) = vm->cost.touch_hook;
	struct operand_check c[5];
	unsigned n = operand_checks(sys, a, c);
	uint64_t cycles = 0, entries = 0;

	switch (sys) {
	case ZKVM_SYS_UINT256_ADD_CARRY:
	case ZKVM_SYS_UINT256_MUL_CARRY:
		cycles += hook(vm, TOUCH_REGS, 0, 1u << 12 | 1u << 13 | 1u << 14);
		break;
	case ZKVM_SYS_SIG_RETURN:
		c[0] = (struct operand_check){ a[0], 32, PROT_R };
		n = 1;
		cycles += hook(vm, TOUCH_REGS, 0, 0xfffffffeu);
		break;
	case ZKVM_SYS_HINT_READ: hook(vm, TOUCH_FORGET, a[0], a[1] / 8 + 1); return 0;
	case ZKVM_SYS_HINT_LEN: entries = 1; break;
	default: break;
	}
	for (unsigned i = 0; i < n; i++) {
		cycles += hook(vm, TOUCH_WORDS, c[i].addr, c[i].words);
		entries +=
		    c[i].words * ((c[i].want & PROT_R ? 1 : 0) + (c[i].want & PROT_W ? 2 : 0));
	}
	if (sys == ZKVM_SYS_SHA_EXTEND)
		entries = 48 * 6;
	hook(vm, TOUCH_ENTRIES, 0, entries);
	return cycles;
}

/* Whether the call's operands pass the page protections; else it trapped
 * to the guest's handler (the run goes on there) or the run stopped. */
static bool operands_allowed(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	struct operand_check c[5];
	unsigned n = operand_checks(sys, a, c);
	uint64_t target;

	for (unsigned i = 0; i < n; i++) {
		uint32_t code = prot_span(vm, c[i].addr, c[i].words, c[i].want);
		if (!code)
			continue;
		if (prot_trap(vm, code, vm->pc, c[i].addr, &target)) {
			vm->ecall_redirect = true;
			vm->ecall_next_pc = (uint32_t)target;
			vm->break_loop = true;
		}
		return false;
	}
	return true;
}

static void sys_dump_elf(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	(void)a;
	zkvm_stop(vm, CY_FAULT_SYSCALL, rows[sys].name,
		  "SP1's debugging snapshot of the program is not supported");
}

/* Calls that change nothing a run shows: HINT_MPROTECT_FLUSH (a hint to
 * the prover), INSERT_/DELETE_PROFILER_SYMBOLS (names for SP1's own
 * profiler of code loaded at run time). */
static void sys_nothing(struct cy_vm *vm, enum zkvm_syscall sys, const uint64_t *a)
{
	(void)vm, (void)sys, (void)a;
}

void syscall_zkvm(struct cy_vm *vm)
{
	struct zkvm *z = vm->zkvm;
	uint32_t code = (uint32_t)vm_reg(vm, REG_T0);
	uint64_t args[5];
	int i = find_row(z, code);
	bool counted;

	for (unsigned k = 0; k < 5; k++)
		args[k] = vm_reg(vm, REG_A0 + k);
	if (i < 0) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, "ecall",
			  "unknown %s syscall code 0x%08x in t0 (id 0x%02x)", rules[z->flavor].name,
			  code, code & 0xff);
		return;
	}
	/* every flavor allows WRITE and EXIT_UNCONSTRAINED only in a block */
	if (z->in_block && !(rows[i].flags & ZKVM_IN_BLOCK)) {
		zkvm_stop(vm, CY_FAULT_SYSCALL, rows[i].name,
			  "not allowed inside an unconstrained block (only WRITE and "
			  "EXIT_UNCONSTRAINED are)");
		return;
	}
	if (!z->in_block) { /* as SP1's report: the calls a block makes are not counted */
		z->counts[i]++;
		/* the model's cost of the call itself (its table's rows in
		 * sp1-gas), beyond its ecall's: the ecall retires with it */
		vm->cycles += z->cycles[i];
	}
	if (z->user_mode && !operands_allowed(vm, (enum zkvm_syscall)i, args))
		return;
	counted = !z->in_block;
	rows[i].fn(vm, (enum zkvm_syscall)i, args);
	if (counted && vm->cost.touch_hook && z->flavor == ZKVM_SP1_V6 && vm->stop == CY_STOP_NONE)
		vm->cycles += memory_rows(vm, (enum zkvm_syscall)i, args);
}

/* The ABI and flavor. */

cy_abi zkvm_detect(const struct cy_vm *vm)
{
	if (risc0_detect(vm) == CY_ABI_RISC0)
		return CY_ABI_RISC0;
	for (size_t i = 0; i < vm->syms.n; i++) {
		const char *name = vm->syms.syms[i].name;
		if (strstr(name, "sp1_zkvm") || strstr(name, "sp1_lib"))
			return CY_ABI_SP1;
		if (strstr(name, "pico_sdk"))
			return CY_ABI_PICO;
	}
	return CY_ABI_LINUX;
}

/* The SP1 major version the ELF names: crate paths such as
 * ".../sp1-zkvm-4.1.0/src/lib.rs" in its strings (panic locations). A
 * patched crate may pull in an older sp1-lib, so the highest wins; the
 * v1 and v2 SDKs had v3's descriptors. 0 if none. */
static unsigned crate_version(const uint8_t *elf, size_t size)
{
	static const char *const crates[] = { "sp1-zkvm-", "sp1-lib-", "sp1-primitives-" };
	unsigned best = 0;

	for (size_t c = 0; c < sizeof(crates) / sizeof(crates[0]); c++) {
		size_t n = strlen(crates[c]);
		const uint8_t *p = elf, *end = elf + size;
		while ((p = memmem(p, (size_t)(end - p), crates[c], n)) != NULL) {
			p += n;
			if (p + 2 < end && p[0] >= '1' && p[0] <= '9' && p[1] == '.' &&
			    (unsigned)(p[0] - '0') > best)
				best = (unsigned)(p[0] - '0');
		}
	}
	return best && best < 3 ? 3 : best;
}

static bool has_symbol(const struct cy_vm *vm, const char *part)
{
	for (size_t i = 0; i < vm->syms.n; i++)
		if (strstr(vm->syms.syms[i].name, part))
			return true;
	return false;
}

static enum zkvm_flavor flavor_of(cy_abi abi, unsigned version)
{
	if (abi == CY_ABI_PICO)
		return ZKVM_PICO;
	return version >= 6 ? ZKVM_SP1_V6 : version >= 4 ? ZKVM_SP1_V4 : ZKVM_SP1_V3;
}

/* SP1 v6's untrusted-programs mode (docs/zkvm.md, "Untrusted programs"),
 * as its ELF reader (crates/core/executor/src/disassembler/elf.rs) and
 * crates/primitives/src/consts.rs define it: a PT_NOTE segment holding the
 * note SUCCINCT of type 1 whose 20 bytes are "1\0\0\0", then the region's
 * start and end (u64 LE); executable segments flagged PF_UNTRUSTED are not
 * trusted code; the symbol __SUCCINCT_TRAP_CONTEXT is the trap context. */
#define NOTE_UNTRUSTED_PROGRAM 1u
#define NOTE_DESC_SIZE         20u
#define PF_UNTRUSTED           0x00100000u

struct untrusted {
	bool on;
	uint64_t lo, hi; /* the region MPROTECT may change */
};

/* The note in [p, p + len) of a PT_NOTE segment; SP1 takes the first. */
static bool untrusted_note(const uint8_t *p, size_t len, struct untrusted *u)
{
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		off += 12;
		size_t name_at = off, desc_at = off + namesz + (4 - namesz % 4) % 4;
		if (namesz > len || descsz > len || desc_at > len || descsz > len - desc_at)
			return false;
		off = desc_at + descsz + (4 - descsz % 4) % 4;
		/* "SUCCINCT", with its NUL or (older SDKs) without */
		bool named = (namesz == 8 || (namesz == 9 && p[name_at + 8] == 0)) &&
			     memcmp(p + name_at, "SUCCINCT", 8) == 0;
		if (named && type == NOTE_UNTRUSTED_PROGRAM && descsz == NOTE_DESC_SIZE &&
		    memcmp(p + desc_at, "1\0\0\0", 4) == 0) {
			memcpy(&u->lo, p + desc_at + 4, 8);
			memcpy(&u->hi, p + desc_at + 12, 8);
			u->on = true;
			return true;
		}
	}
	return false;
}

/* The trap context's address, from the symbol table (an object: not among
 * the functions the symbol table of the VM keeps). */
static int find_trap_context(void *ctx, const GElf_Sym *sym, const char *name)
{
	if (!name || strcmp(name, "__SUCCINCT_TRAP_CONTEXT") != 0)
		return 0;
	*(uint64_t *)ctx = sym->st_value;
	return 1;
}

static bool trap_context(Elf *elf, uint64_t *addr)
{
	return elf_each_symbol(elf, find_trap_context, addr) == 1;
}

/* Turns on the page protections for an ELF in the untrusted-programs mode:
 * each loaded segment's pages take its flags (a later segment's win on a
 * page they share, as in SP1), every other page is read-write; the
 * untrusted region becomes a place code may run from. 0 when the ELF is
 * not in the mode or it is set up, else a negative error. */
static int untrusted_setup(struct cy_vm *vm, struct zkvm *z, const void *data, size_t size,
			   char *err, size_t err_size)
{
	Elf *elf = elf_memory((char *)data, size);
	struct untrusted u = { 0 };
	struct prot_setup ps = { UINT64_MAX, 0, false, 0 };
	size_t n = 0;
	int rc = 0;

	if (!elf || elf_getphdrnum(elf, &n) != 0)
		goto out;
	for (size_t i = 0; i < n && !u.on; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_NOTE && ph.p_offset <= size &&
		    ph.p_filesz <= size - ph.p_offset)
			untrusted_note((const uint8_t *)data + ph.p_offset, ph.p_filesz, &u);
	}
	if (!u.on)
		goto out;
	if (u.hi <= u.lo) {
		snprintf(err, err_size,
			 "its untrusted-programs note names an empty region 0x%llx..0x%llx",
			 (unsigned long long)u.lo, (unsigned long long)u.hi);
		rc = -EINVAL;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) || (ph.p_flags & PF_UNTRUSTED))
			continue;
		if (ph.p_vaddr < ps.trusted_lo)
			ps.trusted_lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > ps.trusted_hi)
			ps.trusted_hi = ph.p_vaddr + ph.p_memsz;
	}
	ps.has_trap_ctx = trap_context(elf, &ps.trap_ctx);
	if ((rc = prot_enable(vm, &ps)) != 0)
		goto out_memory;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if ((rc = prot_set(vm, ph.p_vaddr & ~(uint64_t)(PROT_PAGE - 1),
				   ph.p_vaddr + ph.p_memsz, (uint8_t)(ph.p_flags & 7))) != 0)
			goto out_memory;
	}
	/* code built at run time runs from the region (below 4 GiB: pcs are
	 * 32 bits wide, core/mem.h) */
	if (u.lo < MEM_CODE_LIMIT && mem_set_region(&vm->mem, "untrusted", u.lo,
						    u.hi < MEM_CODE_LIMIT ? u.hi : MEM_CODE_LIMIT))
		goto out_memory;
	z->user_mode = true;
	z->untrusted_lo = u.lo;
	z->untrusted_hi = u.hi;
	goto out;
out_memory:
	prot_free(vm);
	snprintf(err, err_size, "out of memory for the page protections");
	rc = -ENOMEM;
out:
	if (elf)
		elf_end(elf);
	return rc;
}

static void zkvm_free_state(struct zkvm *z);

int zkvm_setup(struct cy_vm *vm, cy_abi abi, unsigned version, const void *elf, size_t size,
	       char *err, size_t err_size)
{
	enum zkvm_version_source from = ZKVM_FROM_OPTION;
	struct zkvm *z;

	if (abi == CY_ABI_PICO && version > 1) {
		snprintf(err, err_size, "Pico has one guest ABI (pico or pico@v1), not v%u",
			 version);
		return -EINVAL;
	}
	if (abi == CY_ABI_SP1 && version && (version < 3 || version > 6)) {
		snprintf(err, err_size, "SP1 guest ABIs are v3, v4, v5 and v6, not v%u", version);
		return -EINVAL;
	}
	if (abi == CY_ABI_RISC0 && (version || vm->xlen == 64)) {
		snprintf(err, err_size, "%s",
			 version ? "RISC Zero has one guest ABI here (risc0)"
				 : "RISC Zero guests are 32-bit programs; this one is 64-bit");
		return -EINVAL;
	}
	if (abi == CY_ABI_PICO || abi == CY_ABI_RISC0) {
		from = version ? ZKVM_FROM_OPTION : ZKVM_FROM_DEFAULT;
		version = 1;
	} else if (version == 0 && vm->xlen == 64) {
		version = 6, from = ZKVM_FROM_CLASS;
	} else if (version == 0 && (version = crate_version(elf, size)) != 0) {
		from = ZKVM_FROM_CRATE;
	} else if (version == 0 &&
		   (has_symbol(vm, "read_vec_raw") || has_symbol(vm, "EMBEDDED_RESERVED_INPUT"))) {
		version = 4, from = ZKVM_FROM_SYMBOLS;
	} else if (version == 0) {
		version = 3, from = ZKVM_FROM_DEFAULT;
	}
	if ((version >= 6) != (vm->xlen == 64)) {
		snprintf(err, err_size,
			 "SP1 v%u guests are %s-bit programs; this one is %u-bit (--abi sp1@v%s)",
			 version, version >= 6 ? "64" : "32", vm->xlen, vm->xlen == 64 ? "6" : "3");
		return -EINVAL;
	}
	if (abi == CY_ABI_PICO && vm->xlen == 64) {
		snprintf(err, err_size, "Pico guests are 32-bit programs; this one is 64-bit");
		return -EINVAL;
	}
	z = calloc(1, sizeof(*z));
	if (!z) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	z->memfd = -1;
	/* the model's prices of this ABI's calls; another ABI's are ignored */
	for (unsigned k = 0; k < vm->model.n_syscalls; k++) {
		const struct cost_syscall *c = &vm->model.syscalls[k];
		int mine = abi == CY_ABI_RISC0 ? risc0_row(c->name) : sp1_row(c->name);
		int other = abi == CY_ABI_RISC0 ? sp1_row(c->name) : risc0_row(c->name);
		if (mine < 0 && other < 0) {
			snprintf(err, err_size, "model %s prices a syscall no zkVM has: '%s'",
				 vm->model.name, c->name);
			free(z);
			return -EINVAL;
		}
		if (mine >= 0) {
			z->cycles[mine] = c->cycles;
			z->per_unit[mine] = c->per_unit;
		}
	}
	z->abi = abi;
	z->random = 0x9e3779b97f4a7c15u; /* SYS_RANDOM's fixed seed */
	z->version = version;
	z->version_from = from;
	z->flavor = flavor_of(abi, version);
	z->word = rules[z->flavor].word;
	z->mem_limit = abi == CY_ABI_RISC0          ? 0xC0000000u
		       : rules[z->flavor].mem_limit ? rules[z->flavor].mem_limit
						    : vm->mem.size;
	if (abi == CY_ABI_RISC0 && vm->opts.argc > 1) {
		if (!(z->argv = calloc((size_t)vm->opts.argc, sizeof(*z->argv)))) {
			free(z);
			snprintf(err, err_size, "out of memory");
			return -ENOMEM;
		}
		for (int i = 1; i < vm->opts.argc; i++, z->argc++)
			if (!(z->argv[i - 1] = strdup(vm->opts.argv[i]))) {
				zkvm_free_state(z);
				snprintf(err, err_size, "out of memory");
				return -ENOMEM;
			}
	}
	z->cow_limit = z->mem_limit;
	for (int i = 0; i < vm->mem.n_regions; i++)
		if (vm->mem.regions[i].end > z->mem_limit) {
			snprintf(err, err_size,
				 "segment at 0x%08llx..0x%08llx is not below the zkVM memory limit "
				 "0x%08llx",
				 (unsigned long long)vm->mem.regions[i].start,
				 (unsigned long long)vm->mem.regions[i].end,
				 (unsigned long long)z->mem_limit);
			free(z);
			return -EINVAL;
		}
	if (z->flavor == ZKVM_SP1_V6) {
		int rc = untrusted_setup(vm, z, elf, size, err, err_size);
		if (rc != 0) {
			zkvm_free_state(z);
			return rc;
		}
	}
	vm->zkvm = z;
	return 0;
}

static void zkvm_free_state(struct zkvm *z)
{
	for (size_t i = 0; i < z->n_frames; i++)
		free(z->frames[i].data);
	for (uint32_t i = 0; i < z->argc; i++)
		free(z->argv[i]);
	free(z->argv);
	free(z->frames);
	free(z->public_values);
	free(z->proofs);
	if (z->memfd >= 0)
		close(z->memfd); /* its mapping goes with the guest's memory */
	free(z);
}

void zkvm_free(struct cy_vm *vm)
{
	if (!vm->zkvm)
		return;
	if (vm->zkvm->memfd >= 0)
		vm->mem.backing_fd = -1; /* zkvm_free_state closes it */
	zkvm_free_state(vm->zkvm);
	vm->zkvm = NULL;
}

/* The zkVM's part of a checkpoint (api/checkpoint.c): the input queue (the
 * frames not yet read; RISC Zero's offset into the first), the public
 * values, the committed words, the proofs named, the syscall counts and
 * SYS_RANDOM's generator. The flavor is the run's own (its command line
 * picks it again); a checkpoint never falls inside an unconstrained block
 * (zkvm_in_block), so there is no snapshot to save; the copy-on-write memfd
 * is not state: a restored guest makes its own at its next block. Frames
 * already read are only counted: their bytes are never read again. */
#define ZKVM_MAX_FRAMES_READ (1u << 26)
#define ZKVM_MAX_PROOFS      (1u << 20)

static void frame_io(struct sio *io, struct zkvm_frame *f, bool unread)
{
	if (unread)
		sio_blob(io, (void **)&f->data, &f->len, SIZE_MAX, "bytes in an input frame");
	else if (io->load)
		*f = (struct zkvm_frame){ NULL, 0 };
}

static void free_frames(struct zkvm *z)
{
	for (size_t i = 0; i < z->n_frames; i++) {
		free(z->frames[i].data);
		z->frames[i].data = NULL;
	}
	z->n_frames = z->next_frame = 0;
}

void zkvm_state_io(struct sio *io, struct cy_vm *vm)
{
	struct zkvm *z = vm->zkvm;
	int abi = z->abi, flavor = z->flavor;

	sio_tag(io, "ZKVM");
	sio_int(io, &abi, CY_ABI_SP1, CY_ABI_RISC0, "the zkVM ABI");
	sio_int(io, &flavor, 0, ZKVM_FLAVORS - 1, "the zkVM ABI's version");
	if (io->load && (abi != (int)z->abi || flavor != (int)z->flavor))
		sio_fail(io, "it holds a guest of another zkVM ABI (%s) than this run's (%s)",
			 cy_abi_name((cy_abi)abi), cy_abi_name(z->abi));
	if (io->load)
		free_frames(z);
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
	sio_size(io, &z->frame_offset);
	sio_blob(io, (void **)&z->public_values, &z->public_len, ZKVM_MAX_WRITTEN, "public values");
	if (io->load)
		z->public_cap = z->public_len + 1;
	for (int i = 0; i < 8; i++) {
		sio_u32(io, &z->commits.digest[i]);
		sio_u32(io, &z->commits.deferred[i]);
	}
	sio_u8(io, &z->commits.digest_set);
	sio_u8(io, &z->commits.deferred_set);
	size_t proof_bytes = z->n_proofs * sizeof(*z->proofs);
	sio_blob(io, (void **)&z->proofs, &proof_bytes, ZKVM_MAX_PROOFS * sizeof(*z->proofs),
		 "proofs named");
	if (io->load && proof_bytes % sizeof(*z->proofs) != 0)
		sio_fail(io, "its proofs are %zu bytes, not whole records", proof_bytes);
	if (io->load)
		z->n_proofs = z->cap_proofs = proof_bytes / sizeof(*z->proofs);
	for (int i = 0; i < ZKVM_N_SYSCALLS; i++)
		sio_u64(io, &z->counts[i]);
	sio_u64(io, &z->random);
	sio_bool(io, &z->warned_fd);
	sio_size(io, &z->guest_frame_bytes);
	if (z->user_mode) /* the same ELF sets the mode again */
		prot_state_io(io, vm);
	if (!sio_ok(io) && io->load)
		free_frames(z);
}

bool zkvm_in_block(const struct cy_vm *vm) { return vm->zkvm && vm->zkvm->in_block; }

/* The API (include/cyclops.h). */

static const char *const abi_names[] = { "auto", "linux", "sp1", "pico", "risc0" };

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

int cy_abi_parse_version(const char *text, cy_abi *out, unsigned *version)
{
	const char *at = strchr(text, '@');
	char name[16];

	*version = 0;
	if (!at)
		return cy_abi_parse(text, out);
	if ((size_t)(at - text) >= sizeof(name) || at[1] != 'v' || at[2] < '1' || at[2] > '9' ||
	    at[3] != '\0')
		return -EINVAL;
	memcpy(name, text, (size_t)(at - text));
	name[at - text] = '\0';
	if (cy_abi_parse(name, out) != 0 || (*out != CY_ABI_SP1 && *out != CY_ABI_PICO))
		return -EINVAL;
	*version = (unsigned)(at[2] - '0');
	/* SP1's guest ABIs are v3 to v6 (v4 and v5 share one); Pico has one */
	if (*out == CY_ABI_SP1 ? *version < 3 || *version > 6 : *version != 1)
		return -EINVAL;
	return 0;
}

cy_abi cy_vm_abi(const cy_vm *vm) { return vm->opts.abi; }

unsigned cy_vm_abi_version(const cy_vm *vm, const char **from)
{
	static const char *const sources[] = {
		[ZKVM_FROM_OPTION] = "option",   [ZKVM_FROM_CLASS] = "elf-class",
		[ZKVM_FROM_CRATE] = "elf-crate", [ZKVM_FROM_SYMBOLS] = "elf-symbols",
		[ZKVM_FROM_DEFAULT] = "default",
	};

	if (from)
		*from = vm->zkvm ? sources[vm->zkvm->version_from] : NULL;
	return vm->zkvm ? vm->zkvm->version : 0;
}

int cy_vm_push_input(cy_vm *vm, const void *data, size_t len)
{
	if (!vm->zkvm)
		return -EINVAL;
	return insert_frame(vm->zkvm, vm->zkvm->n_frames, data, len);
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

const cy_proof_digests *cy_vm_verified_proofs(const cy_vm *vm, size_t *n)
{
	_Static_assert(sizeof(cy_proof_digests) == sizeof(struct zkvm_proof),
		       "the API's proof record is the ABI's");
	*n = vm->zkvm ? vm->zkvm->n_proofs : 0;
	return *n ? (const cy_proof_digests *)vm->zkvm->proofs : NULL;
}

const cy_syscall_count *cy_vm_syscall_counts(cy_vm *vm, size_t *n)
{
	struct zkvm *z = vm->zkvm;
	size_t k = 0;

	*n = 0;
	if (!z)
		return NULL;
	if (z->abi == CY_ABI_RISC0) {
		*n = risc0_counts(z, z->count_out);
		return z->count_out;
	}
	for (int i = 0; i < ZKVM_N_SYSCALLS; i++)
		if (z->counts[i]) {
			uint32_t code = rows[i].code[z->flavor];
			z->count_out[k++] = (cy_syscall_count){ code, rows[i].name, z->counts[i],
								CODE_EXTRA_CYCLES(code) };
		}
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

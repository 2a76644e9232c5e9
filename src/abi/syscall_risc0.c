/* syscall_risc0.c - the guest ABI of the RISC Zero zkVM (rv32im): the ecall
 * number in t0, arguments in a0-a5, results in a0 and a1. Read from
 * risc0-zkvm-platform's syscall.rs (the guest side) and the rv32im
 * executor of risc0 v1.0 (circuit/rv32im/src/prove/emu/exec, the host
 * side, the era profiler0 was written for):
 *   HALT      a0 = halt type | exit code << 8, a1 = the output digest
 *   INPUT     a0 = index: a0 = that word of the input digest (zero here)
 *   SOFTWARE  a2 = the syscall's name (t6 its number in later versions),
 *             a0/a1 a buffer the host fills (words), a3.. its arguments;
 *             SYS_READ, SYS_WRITE, SYS_LOG, SYS_PANIC, SYS_CYCLE_COUNT, ...
 *   SHA       a0 = out state, a1 = in state, a2/a3 the two halves of the
 *             first block, a4 = blocks: SHA-256 compressions
 *   BIGINT    a0 = z, a1 = op (0), a2/a3/a4 = x, y, n: z = x * y mod n
 * The input is the stdin stream (the --input frames, one after the other),
 * the journal (fd 3) the public values, the output digest the committed
 * words. The accelerators' own cycles come from the cost model (`syscall
 * NAME FIXED PER-UNIT`: models/risc0.model). docs/zkvm.md, "RISC Zero". */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/abi.h"
#include "abi/zkvm.h"
#include "core/block.h"
#include "core/output.h"
#include "core/vm.h"

#define REG_T0 5
#define REG_A0 10
#define REG_T6 31

#define HALT_TERMINATE 0
#define HALT_PAUSE     1
#define FD_STDIN       0
#define FD_JOURNAL     3
#define IO_CHUNK_WORDS 4    /* a SOFTWARE ecall's cycles count these */
#define SHA_MAX_BLOCKS 1000 /* risc0's MAX_SHA_COMPRESS_BLOCKS */

/* Guests own [RISC0_MEM_LO, RISC0_MEM_HI): below is the zero page, above
 * the kernel (v2) or the system region (v1 ends the guest at 0x0C000000). */
#define RISC0_MEM_LO 0x00000400u
#define RISC0_MEM_HI 0xC0000000u

typedef void (*r0_fn)(struct cy_vm *vm, int row);

#define R0_DECL(name, nr, fn)    static void fn(struct cy_vm *vm, int row);
#define R0_SW_DECL(name, nr, fn) static void fn(struct cy_vm *vm, int row);

/* The ecalls: _(NAME, t0, handler); then the software syscalls, named as
 * the guest names them (risc0_zkvm_platform::syscall::nr::SYS_...): _(NAME,
 * number in t6, handler). One table for dispatch, names and counts. */
#define RISC0_ECALLS(_)                                                                            \
	_(HALT, 0, r0_halt)                                                                        \
	_(INPUT, 1, r0_input)                                                                      \
	_(SOFTWARE, 2, r0_software)                                                                \
	_(SHA, 3, r0_sha)                                                                          \
	_(BIGINT, 4, r0_bigint)                                                                    \
	_(USER, 5, r0_unsupported)                                                                 \
	_(BIGINT2, 6, r0_unsupported)                                                              \
	_(POSEIDON2, 7, r0_unsupported)
#define RISC0_SOFTWARE(_)                                                                          \
	_(SYS_ARGC, 1, sys_argc)                                                                   \
	_(SYS_ARGV, 2, sys_argv)                                                                   \
	_(SYS_CYCLE_COUNT, 3, sys_cycle_count)                                                     \
	_(SYS_EXIT, 4, sys_unsupported)                                                            \
	_(SYS_FORK, 5, sys_unsupported)                                                            \
	_(SYS_GETENV, 6, sys_getenv)                                                               \
	_(SYS_KECCAK, 7, sys_unsupported)                                                          \
	_(SYS_LOG, 8, sys_log)                                                                     \
	_(SYS_PANIC, 9, sys_panic)                                                                 \
	_(SYS_PIPE, 10, sys_unsupported)                                                           \
	_(SYS_RANDOM, 11, sys_random)                                                              \
	_(SYS_READ, 12, sys_read)                                                                  \
	_(SYS_VERIFY_INTEGRITY, 14, sys_verify)                                                    \
	_(SYS_VERIFY_INTEGRITY2, 15, sys_unsupported)                                              \
	_(SYS_WRITE, 16, sys_write)

RISC0_ECALLS(R0_DECL)
RISC0_SOFTWARE(R0_SW_DECL)

enum {
#define R0_INDEX(name, nr, fn) R0_##name,
	RISC0_ECALLS(R0_INDEX) RISC0_SOFTWARE(R0_INDEX)
#undef R0_INDEX
	    R0_N_CALLS
};
_Static_assert((int)R0_N_CALLS <= (int)ZKVM_N_SYSCALLS, "RISC Zero's counts fit the zkVM state's");

static const struct r0_row {
	const char *name;
	uint32_t nr; /* t0 for an ecall, t6 for a software syscall */
	r0_fn fn;
	bool software;
} r0_rows[R0_N_CALLS] = {
#define R0_ROW(name, nr, fn)    { #name, nr, fn, false },
#define R0_SW_ROW(name, nr, fn) { #name, nr, fn, true },
	RISC0_ECALLS(R0_ROW) RISC0_SOFTWARE(R0_SW_ROW)
#undef R0_ROW
#undef R0_SW_ROW
};

static void __attribute__((format(printf, 3, 4)))
r0_stop(struct cy_vm *vm, int row, const char *fmt, ...)
{
	char at[160], why[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	vm_describe_at(vm, vm->pc, false, at, sizeof(at));
	vm->stop = CY_STOP_FAULT;
	vm->fault = CY_FAULT_SYSCALL;
	vm->break_loop = true;
	snprintf(vm->stop_message, sizeof(vm->stop_message), "%s at %s: %s", r0_rows[row].name, at,
		 why);
}

static bool r0_span(struct cy_vm *vm, int row, const char *what, uint64_t addr, uint64_t len)
{
	if (addr < RISC0_MEM_LO || addr > RISC0_MEM_HI || len > RISC0_MEM_HI - addr) {
		r0_stop(vm, row, "%s 0x%08llx..+%llu is not guest memory (0x%08x..0x%08x)", what,
			(unsigned long long)addr, (unsigned long long)len, RISC0_MEM_LO,
			RISC0_MEM_HI);
		vm->fault = CY_FAULT_MEMORY;
		return false;
	}
	return true;
}

static uint32_t reg(const struct cy_vm *vm, unsigned n) { return (uint32_t)vm_reg(vm, n); }

/* What the model says the call costs beyond its ecall: fixed + units x
 * per-unit (a SHA block, a 4-word chunk of a software call's buffer). */
static void charge(struct cy_vm *vm, int row, uint64_t units)
{
	const struct zkvm *z = vm->zkvm;

	vm->cycles += z->cycles[row] + units * z->per_unit[row];
}

static void r0_halt(struct cy_vm *vm, int row)
{
	struct zkvm *z = vm->zkvm;
	uint32_t a0 = reg(vm, REG_A0), digest = reg(vm, REG_A0 + 1), type = a0 & 0xff;

	if (type != HALT_TERMINATE && type != HALT_PAUSE) {
		r0_stop(vm, row, "halt type %u is neither TERMINATE (0) nor PAUSE (1)", type);
		return;
	}
	if (!r0_span(vm, row, "output digest", digest, 32))
		return;
	memcpy(z->commits.digest, vm->mem.base + digest, 32);
	z->commits.digest_set = 0xff;
	charge(vm, row, 0);
	if (type == HALT_PAUSE)
		vm_warn(vm, "the guest paused (sys_pause); a run ends there");
	vm->stop = CY_STOP_EXIT;
	vm->exit_code = (int)((a0 >> 8) & 0xff);
	vm->break_loop = true;
}

static void r0_input(struct cy_vm *vm, int row)
{
	uint32_t i = reg(vm, REG_A0);

	if (i >= 8) {
		r0_stop(vm, row, "input digest word %u is not 0..7", i);
		return;
	}
	vm_set_reg(vm, REG_A0, 0); /* cyclops's input digest is zero */
	charge(vm, row, 0);
}

/* SHA: blocks a4 times, block i's first half at a2 + 64 i and second at
 * a3 + 64 i, compressed into the state read at a1 and written at a0. The
 * state's words are big-endian in memory (risc0 keeps the digest bytes). */
static void r0_sha(struct cy_vm *vm, int row)
{
	uint32_t out = reg(vm, REG_A0), in = reg(vm, REG_A0 + 1), b1 = reg(vm, REG_A0 + 2),
		 b2 = reg(vm, REG_A0 + 3), count = reg(vm, REG_A0 + 4);
	uint32_t h[8], w[64];

	if (count > SHA_MAX_BLOCKS) {
		r0_stop(vm, row, "%u blocks; at most %u in one call", count, SHA_MAX_BLOCKS);
		return;
	}
	if (!r0_span(vm, row, "in state", in, 32) || !r0_span(vm, row, "out state", out, 32) ||
	    (count && (!r0_span(vm, row, "block", b1, (uint64_t)count * 64) ||
		       !r0_span(vm, row, "block", b2, (uint64_t)count * 64))))
		return;
	memcpy(h, vm->mem.base + in, 32);
	for (int i = 0; i < 8; i++)
		h[i] = __builtin_bswap32(h[i]);
	for (uint32_t k = 0; k < count; k++) {
		memcpy(w, vm->mem.base + b1 + 64 * k, 32);
		memcpy(w + 8, vm->mem.base + b2 + 64 * k, 32);
		for (int i = 0; i < 16; i++)
			w[i] = __builtin_bswap32(w[i]);
		sha256_extend(w);
		sha256_compress(h, w);
	}
	for (int i = 0; i < 8; i++)
		h[i] = __builtin_bswap32(h[i]);
	memcpy(vm->mem.base + out, h, 32);
	cache_memory_written(vm, out, 32);
	charge(vm, row, count);
}

/* BIGINT, op 0: z = x * y mod n, or x * y when n is 0 (which must then fit
 * 256 bits: risc0's checked_mul panics otherwise). 8 LE words each. */
static void r0_bigint(struct cy_vm *vm, int row)
{
	uint32_t z = reg(vm, REG_A0), op = reg(vm, REG_A0 + 1), x = reg(vm, REG_A0 + 2),
		 y = reg(vm, REG_A0 + 3), n = reg(vm, REG_A0 + 4);
	uint32_t xw[8], yn[16], zero[8] = { 0 };

	if (op != 0) {
		r0_stop(vm, row, "op %u is not 0 (multiply)", op);
		return;
	}
	if (!r0_span(vm, row, "x", x, 32) || !r0_span(vm, row, "y", y, 32) ||
	    !r0_span(vm, row, "n", n, 32) || !r0_span(vm, row, "z", z, 32))
		return;
	memcpy(xw, vm->mem.base + x, 32);
	memcpy(yn, vm->mem.base + y, 32);
	memcpy(yn + 8, vm->mem.base + n, 32);
	if (memcmp(yn + 8, zero, 32) == 0) {
		uint32_t lo[8], hi[8];
		uint256_op_carry(true, xw, yn, zero, lo, hi);
		if (memcmp(hi, zero, 32) != 0) {
			r0_stop(vm, row,
				"x * y does not fit 256 bits (n = 0 asks for no reduction)");
			return;
		}
		memcpy(xw, lo, 32);
	} else {
		uint256_mulmod(xw, yn, yn + 8);
	}
	memcpy(vm->mem.base + z, xw, 32);
	cache_memory_written(vm, z, 32);
	charge(vm, row, 0);
}

static void r0_unsupported(struct cy_vm *vm, int row)
{
	r0_stop(vm, row, "not implemented in cyclops (docs/zkvm.md, \"RISC Zero\")");
}

/* SOFTWARE: the syscall is named by the string at a2 (t6 holds its number
 * from risc0 v1.2 on, but the name is always there); a0/a1 are the buffer
 * the host fills (a1 words); the call returns a0 and a1. */
static void r0_software(struct cy_vm *vm, int row)
{
	uint32_t name = reg(vm, REG_A0 + 2), words = reg(vm, REG_A0 + 1);
	char buf[96];
	size_t n = 0;
	int k;

	if (!r0_span(vm, row, "syscall name", name, 1))
		return;
	while (n < sizeof(buf) - 1 && name + n < RISC0_MEM_HI && vm->mem.base[name + n])
		n++, buf[n - 1] = (char)vm->mem.base[name + n - 1];
	buf[n] = '\0';
	/* "risc0_zkvm_platform::syscall::nr::SYS_READ": the last part names it */
	const char *last = strrchr(buf, ':');
	last = last ? last + 1 : buf;
	for (k = 0; k < R0_N_CALLS; k++)
		if (r0_rows[k].software && strcmp(r0_rows[k].name, last) == 0)
			break;
	if (k == R0_N_CALLS) {
		r0_stop(vm, row, "unknown software syscall '%s'", buf);
		return;
	}
	if (!vm->zkvm->in_block) /* (RISC Zero has no blocks: always counted) */
		vm->zkvm->counts[k]++;
	charge(vm, row, (words + IO_CHUNK_WORDS - 1) / IO_CHUNK_WORDS);
	r0_rows[k].fn(vm, k);
}

/* The software syscalls' results: a0 and a1. */
static void ret2(struct cy_vm *vm, uint32_t a0, uint32_t a1)
{
	vm_set_reg(vm, REG_A0, a0);
	vm_set_reg(vm, REG_A0 + 1, a1);
}

/* The host's words to a0 (a1 of them), when a0 is not null. */
static bool to_guest(struct cy_vm *vm, int row, const uint8_t *p, size_t len)
{
	uint32_t buf = reg(vm, REG_A0), words = reg(vm, REG_A0 + 1);

	if (!buf || !words)
		return true;
	if (!r0_span(vm, row, "buffer", buf, (uint64_t)words * 4))
		return false;
	memset(vm->mem.base + buf, 0, (size_t)words * 4);
	memcpy(vm->mem.base + buf, p, len < (size_t)words * 4 ? len : (size_t)words * 4);
	cache_memory_written(vm, buf, (uint64_t)words * 4);
	return true;
}

/* Bytes of stdin: the --input frames, one after the other. */
static size_t stdin_take(struct zkvm *z, uint8_t *out, size_t want)
{
	size_t got = 0;

	while (got < want && z->next_frame < z->n_frames) {
		struct zkvm_frame *f = &z->frames[z->next_frame];
		size_t n =
		    f->len - z->frame_offset < want - got ? f->len - z->frame_offset : want - got;
		memcpy(out + got, f->data + z->frame_offset, n);
		got += n;
		z->frame_offset += n;
		if (z->frame_offset == f->len)
			z->next_frame++, z->frame_offset = 0;
	}
	return got;
}

/* SYS_READ (fd a3, nbytes a4): the whole words into the buffer (a1 words
 * of them), up to 3 more bytes in a1; a0 = the bytes read (short at the
 * end of the input). */
static void sys_read(struct cy_vm *vm, int row)
{
	uint32_t fd = reg(vm, REG_A0 + 3), nbytes = reg(vm, REG_A0 + 4),
		 words = reg(vm, REG_A0 + 1), buf = reg(vm, REG_A0);
	uint8_t tail[4] = { 0 };
	size_t main_len = (size_t)words * 4, got, end = 0;
	uint8_t *tmp;

	if (fd != FD_STDIN) {
		r0_stop(vm, row, "bad read file descriptor %u (only 0, stdin)", fd);
		return;
	}
	if (nbytes < main_len) {
		r0_stop(vm, row, "%u bytes asked, fewer than the buffer's %zu", nbytes, main_len);
		return;
	}
	if (buf && words && !r0_span(vm, row, "buffer", buf, main_len))
		return;
	if (!(tmp = calloc(1, main_len ? main_len : 1))) {
		r0_stop(vm, row, "out of host memory");
		return;
	}
	got = stdin_take(vm->zkvm, tmp, main_len);
	if (nbytes - got <= 4) /* the unaligned end; none after an end of input */
		end = stdin_take(vm->zkvm, tail, nbytes - got);
	if (buf && words) {
		memcpy(vm->mem.base + buf, tmp, main_len);
		cache_memory_written(vm, buf, main_len);
	}
	free(tmp);
	ret2(vm, (uint32_t)(got + end),
	     (uint32_t)tail[0] | (uint32_t)tail[1] << 8 | (uint32_t)tail[2] << 16 |
		 (uint32_t)tail[3] << 24);
}

/* SYS_WRITE (fd a3, buffer a4, length a5): 1 and 2 to the host's streams,
 * 3 to the journal. */
static void sys_write(struct cy_vm *vm, int row)
{
	struct zkvm *z = vm->zkvm;
	uint32_t fd = reg(vm, REG_A0 + 3), buf = reg(vm, REG_A0 + 4), len = reg(vm, REG_A0 + 5);

	if (len && !r0_span(vm, row, "buffer", buf, len))
		return;
	if (fd == 1 || fd == 2) {
		output_write(vm, fd, buf, len);
	} else if (fd == FD_JOURNAL) {
		if (z->public_len + len > (256u << 20)) {
			r0_stop(vm, row, "the journal would hold more than 256 MiB, the limit");
			return;
		}
		if (z->public_len + len > z->public_cap) {
			size_t cap = z->public_cap ? z->public_cap : 256;
			uint8_t *p;
			while (cap < z->public_len + len)
				cap *= 2;
			if (!(p = realloc(z->public_values, cap))) {
				r0_stop(vm, row, "out of host memory");
				return;
			}
			z->public_values = p;
			z->public_cap = cap;
		}
		memcpy(z->public_values + z->public_len, vm->mem.base + buf, len);
		z->public_len += len;
	} else {
		r0_stop(vm, row, "bad write file descriptor %u (1, 2 or 3, the journal)", fd);
		return;
	}
	ret2(vm, 0, 0);
}

/* SYS_LOG (a3, a4): a line on stdout, as risc0's host prints it. */
static void sys_log(struct cy_vm *vm, int row)
{
	uint32_t buf = reg(vm, REG_A0 + 3), len = reg(vm, REG_A0 + 4);
	char head[40];
	int n = snprintf(head, sizeof(head), "R0VM[%llu] ", (unsigned long long)vm->cycles);
	int fd = output_host_fd(vm, 1);

	if (len && !r0_span(vm, row, "message", buf, len))
		return;
	if (fd >= 0) {
		output_write_all(fd, (const uint8_t *)head, (size_t)n);
		output_write_all(fd, vm->mem.base + buf, len);
		output_write_all(fd, (const uint8_t *)"\n", 1);
	}
	ret2(vm, 0, 0);
}

static void sys_panic(struct cy_vm *vm, int row)
{
	uint32_t buf = reg(vm, REG_A0 + 3), len = reg(vm, REG_A0 + 4);
	char msg[120];
	size_t n = len < sizeof(msg) - 1 ? len : sizeof(msg) - 1;

	if (len && !r0_span(vm, row, "message", buf, len))
		return;
	for (size_t i = 0; i < n; i++) { /* printable: it goes to a terminal */
		uint8_t c = vm->mem.base[buf + i];
		msg[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	msg[n] = '\0';
	r0_stop(vm, row, "the guest panicked: %s%s", msg, len > n ? "..." : "");
}

/* (hi, lo) of the clock: the cycles before this ecall */
static void sys_cycle_count(struct cy_vm *vm, int row)
{
	(void)row;
	ret2(vm, (uint32_t)(vm->cycles >> 32), (uint32_t)vm->cycles);
}

/* SYS_RANDOM: the buffer filled from a fixed-seed generator, so that two
 * runs of a guest do the same (risc0's host uses the OS's randomness). */
static void sys_random(struct cy_vm *vm, int row)
{
	struct zkvm *z = vm->zkvm;
	uint32_t words = reg(vm, REG_A0 + 1);
	uint8_t *p = malloc(words ? (size_t)words * 4 : 1);

	if (!p) {
		r0_stop(vm, row, "out of host memory");
		return;
	}
	for (size_t i = 0; i < (size_t)words * 4; i++) {
		z->random ^= z->random << 13, z->random ^= z->random >> 7,
		    z->random ^= z->random << 17;
		p[i] = (uint8_t)z->random;
	}
	if (to_guest(vm, row, p, (size_t)words * 4))
		ret2(vm, 0, 0);
	free(p);
}

/* SYS_GETENV: cyclops passes no variables: u32::MAX, not set. */
static void sys_getenv(struct cy_vm *vm, int row)
{
	(void)row;
	ret2(vm, UINT32_MAX, 0);
}

/* SYS_ARGC/ARGV: the guest's arguments after the program's name. */
static void sys_argc(struct cy_vm *vm, int row)
{
	(void)row;
	ret2(vm, vm->zkvm->argc, 0);
}

static void sys_argv(struct cy_vm *vm, int row)
{
	uint32_t i = reg(vm, REG_A0 + 3);
	const char *arg;

	if (i >= vm->zkvm->argc) {
		r0_stop(vm, row, "argument %u of %u", i, vm->zkvm->argc);
		return;
	}
	arg = vm->zkvm->argv[i];
	if (to_guest(vm, row, (const uint8_t *)arg, strlen(arg)))
		ret2(vm, (uint32_t)strlen(arg), 0);
}

/* SYS_VERIFY_INTEGRITY: a receipt the guest relies on, named by its claim
 * digest (a3) and control root (a4), 8 words each; a run has no receipt
 * to check it against: recorded as a proof to verify. */
static void sys_verify(struct cy_vm *vm, int row)
{
	struct zkvm *z = vm->zkvm;
	uint32_t claim = reg(vm, REG_A0 + 3), root = reg(vm, REG_A0 + 4);
	struct zkvm_proof pr;

	if (!r0_span(vm, row, "claim digest", claim, 32) ||
	    !r0_span(vm, row, "control root", root, 32))
		return;
	memcpy(pr.pv_digest, vm->mem.base + claim, 32);
	memcpy(pr.vkey, vm->mem.base + root, 32);
	if (z->n_proofs == z->cap_proofs) {
		size_t cap = z->cap_proofs ? 2 * z->cap_proofs : 4;
		struct zkvm_proof *q =
		    cap < (1u << 20) ? realloc(z->proofs, cap * sizeof(*q)) : NULL;
		if (!q) {
			r0_stop(vm, row, "too many receipts to record");
			return;
		}
		z->proofs = q;
		z->cap_proofs = cap;
	}
	z->proofs[z->n_proofs++] = pr;
	ret2(vm, 0, 0);
}

static void sys_unsupported(struct cy_vm *vm, int row)
{
	r0_stop(vm, row, "not implemented in cyclops (docs/zkvm.md, \"RISC Zero\")");
}

void syscall_risc0(struct cy_vm *vm)
{
	uint32_t t0 = reg(vm, REG_T0);

	for (int i = 0; i < R0_N_CALLS; i++)
		if (!r0_rows[i].software && r0_rows[i].nr == t0) {
			if (i != R0_SOFTWARE) /* a software call counts under its name */
				vm->zkvm->counts[i]++;
			r0_rows[i].fn(vm, i);
			return;
		}
	vm_describe_at(vm, vm->pc, false, vm->stop_message, sizeof(vm->stop_message));
	{
		char at[160];
		snprintf(at, sizeof(at), "%s", vm->stop_message);
		snprintf(vm->stop_message, sizeof(vm->stop_message),
			 "ecall at %s: unknown RISC Zero ecall %u in t0", at, t0);
	}
	vm->stop = CY_STOP_FAULT;
	vm->fault = CY_FAULT_SYSCALL;
	vm->break_loop = true;
}

const char *risc0_syscall_name(uint32_t nr)
{
	for (int i = 0; i < R0_N_CALLS; i++)
		if (!r0_rows[i].software && r0_rows[i].nr == nr)
			return r0_rows[i].name;
	return NULL;
}

/* Whether a cost model's `syscall NAME` is one of these. */
int risc0_row(const char *name)
{
	for (int i = 0; i < R0_N_CALLS; i++)
		if (strcmp(r0_rows[i].name, name) == 0)
			return i;
	return -1;
}

size_t risc0_counts(const struct zkvm *z, cy_syscall_count *out)
{
	size_t k = 0;

	for (int i = 0; i < R0_N_CALLS; i++)
		if (z->counts[i])
			out[k++] = (cy_syscall_count){ r0_rows[i].software ? 2 : r0_rows[i].nr,
						       r0_rows[i].name, z->counts[i], 0 };
	return k;
}

cy_abi risc0_detect(const struct cy_vm *vm)
{
	for (size_t i = 0; i < vm->syms.n; i++)
		if (strstr(vm->syms.syms[i].name, "risc0_zkvm"))
			return CY_ABI_RISC0;
	return CY_ABI_AUTO;
}

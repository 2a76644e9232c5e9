/* syscall_linux.c - the Linux user ABI that picolibc/newlib programs and
 * qemu-riscv32 use: the initial stack (argc, argv, envp, auxv) and the
 * syscalls, number in a7, arguments in a0-a5, result in a0. */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "abi/zkvm.h"
#include "core/block.h"
#include "core/output.h"
#include "core/vm.h"
#include "util/state_io.h"

#define REG_SP 2
#define REG_A0 10
#define REG_A7 17

#define STACK_TOP    0x80000000u
#define STACK_GAP    (1u << 20) /* kept free between the heap and the stack */
#define NS_PER_CYCLE 1          /* the virtual clock runs at a nominal 1 GHz */

/* Auxiliary vector keys (linux/auxvec.h). */
#define AT_NULL   0
#define AT_PAGESZ 6
#define AT_HWCAP  16
#define AT_RANDOM 25

/* The syscalls cyclops implements: _(number, name). */
#define LINUX_SYSCALLS(_)                                                                          \
	_(57, close)                                                                               \
	_(63, read)                                                                                \
	_(64, write)                                                                               \
	_(80, fstat)                                                                               \
	_(93, exit)                                                                                \
	_(94, exit_group)                                                                          \
	_(214, brk)                                                                                \
	_(403, clock_gettime64)

/* Names of other syscalls programs commonly try, for the warning. */
#define LINUX_OTHER_SYSCALLS(_)                                                                    \
	_(17, getcwd)                                                                              \
	_(23, dup)                                                                                 \
	_(24, dup3)                                                                                \
	_(25, fcntl)                                                                               \
	_(29, ioctl)                                                                               \
	_(48, faccessat)                                                                           \
	_(56, openat)                                                                              \
	_(59, pipe2)                                                                               \
	_(61, getdents64)                                                                          \
	_(62, lseek)                                                                               \
	_(65, readv)                                                                               \
	_(66, writev)                                                                              \
	_(78, readlinkat)                                                                          \
	_(79, newfstatat)                                                                          \
	_(96, set_tid_address)                                                                     \
	_(98, futex)                                                                               \
	_(101, nanosleep)                                                                          \
	_(113, clock_gettime)                                                                      \
	_(124, sched_yield)                                                                        \
	_(129, kill)                                                                               \
	_(131, tgkill)                                                                             \
	_(134, rt_sigaction)                                                                       \
	_(135, rt_sigprocmask)                                                                     \
	_(160, uname)                                                                              \
	_(169, gettimeofday)                                                                       \
	_(172, getpid)                                                                             \
	_(178, gettid)                                                                             \
	_(215, munmap)                                                                             \
	_(222, mmap)                                                                               \
	_(226, mprotect)                                                                           \
	_(233, madvise)                                                                            \
	_(261, prlimit64)                                                                          \
	_(278, getrandom)                                                                          \
	_(291, statx)

static const char *syscall_name(uint32_t nr)
{
	switch (nr) {
#define NAME_CASE(num, name)                                                                       \
	case num: return #name;
		LINUX_SYSCALLS(NAME_CASE)
		LINUX_OTHER_SYSCALLS(NAME_CASE)
#undef NAME_CASE
	default: return NULL;
	}
}

const char *cy_syscall_name(uint32_t nr) { return syscall_name(nr); }

const char *cy_vm_syscall_name(const cy_vm *vm, uint32_t nr)
{
	if (vm->zkvm)
		return zkvm_syscall_name(vm->zkvm, nr);
	return vm->machine ? NULL : syscall_name(nr);
}

/* The most one read or write moves (Linux's MAX_RW_COUNT): a count of 2 GiB
 * or more would not fit the int32 return value. */
#define RW_MAX 0x7ffff000u

/* clock_gettime with a 64-bit struct timespec: RV32 Linux has only the
 * time64 call (403), RV64's clock_gettime (113) has that layout already. */
#define CLOCK_GETTIME_32 403
#define CLOCK_GETTIME_64 113

/* Whether the guest's [addr, addr + len) lies in its space: Linux checks
 * the whole range before it cuts a count to RW_MAX. */
static bool range_ok(const struct cy_vm *vm, uint64_t addr, uint64_t len)
{
	return mem_range_ok(&vm->mem, addr, len);
}

static int64_t sys_write(struct cy_vm *vm, uint64_t fd, uint64_t buf, uint64_t len)
{
	if (fd > INT32_MAX || output_host_fd(vm, (uint32_t)fd) < 0 || fd == 0)
		return -EBADF;
	if (!range_ok(vm, buf, len))
		return -EFAULT;
	/* Linux moves at most RW_MAX bytes per call, so the count fits */
	return output_write(vm, (uint32_t)fd, buf, (uint32_t)(len > RW_MAX ? RW_MAX : len));
}

/* Replays a read or fstat's result and the bytes it put at buf (a chunk of
 * a chunked run, core/journal.h). */
static int64_t replay(struct cy_vm *vm, enum journal_kind kind, uint64_t buf, uint64_t most)
{
	const uint8_t *data;
	size_t n;
	int64_t rc;

	if (!journal_get(vm, kind, &rc, &data, &n))
		return -EIO;
	if (n > most) {
		journal_diverged(vm, kind);
		return -EIO;
	}
	memcpy(vm->mem.base + buf, data, n);
	cache_memory_written(vm, buf, n);
	return rc;
}

static int64_t sys_read_host(struct cy_vm *vm, int hfd, uint64_t buf, uint64_t len);

static int64_t sys_read(struct cy_vm *vm, uint64_t fd, uint64_t buf, uint64_t len)
{
	int hfd = fd > INT32_MAX ? -1 : output_host_fd(vm, (uint32_t)fd);
	int64_t got;

	if (hfd < 0 || fd != 0)
		return -EBADF;
	if (!range_ok(vm, buf, len))
		return -EFAULT;
	if (vm->journal.mode == JOURNAL_REPLAY)
		return replay(vm, JOURNAL_READ, buf, len);
	got = sys_read_host(vm, hfd, buf, len);
	if (vm->journal.mode == JOURNAL_RECORD)
		journal_put(vm, JOURNAL_READ, got, vm->mem.base + buf, got > 0 ? (size_t)got : 0);
	return got;
}

static int64_t sys_read_host(struct cy_vm *vm, int hfd, uint64_t buf, uint64_t len)
{
	ssize_t got;

	/* A signal for cyclops (SIGINT) interrupts a blocked read with EINTR,
	 * which goes to the guest: restarting the read here, or letting a
	 * guest that retries it block again, would hold the run forever. */
	if (vm->interrupt)
		return -EINTR;
	got = read(hfd, vm->mem.base + buf, len > RW_MAX ? RW_MAX : len);
	if (got < 0)
		return -errno;
	cache_memory_written(vm, buf, (uint64_t)got);
	return got;
}

/* struct stat64 of the asm-generic 32-bit ABI, as byte offsets; the 64-bit
 * ABI's struct stat has the same fields there and is 128 bytes long. */
enum {
	STAT_MODE = 16,
	STAT_NLINK = 20,
	STAT_SIZE = 48,
	STAT_BLKSIZE = 56,
	STAT_SIZEOF_32 = 104,
	STAT_SIZEOF_64 = 128,
};

static int64_t sys_fstat(struct cy_vm *vm, uint64_t fd, uint64_t buf)
{
	int hfd = fd > INT32_MAX ? -1 : output_host_fd(vm, (uint32_t)fd);
	uint32_t sizeof_stat = vm->xlen == 64 ? STAT_SIZEOF_64 : STAT_SIZEOF_32;
	struct stat st;
	uint8_t *p;
	int64_t size;

	if (hfd < 0)
		return -EBADF;
	if (!range_ok(vm, buf, sizeof_stat))
		return -EFAULT;
	if (vm->journal.mode == JOURNAL_REPLAY)
		return replay(vm, JOURNAL_FSTAT, buf, sizeof_stat);
	if (fstat(hfd, &st) != 0) {
		if (vm->journal.mode == JOURNAL_RECORD)
			journal_put(vm, JOURNAL_FSTAT, -errno, NULL, 0);
		return -errno;
	}
	p = vm->mem.base + buf;
	memset(p, 0, sizeof_stat);
	mem_st32(p, STAT_MODE, (uint32_t)st.st_mode);
	mem_st32(p, STAT_NLINK, 1);
	size = (int64_t)st.st_size;
	memcpy(p + STAT_SIZE, &size, sizeof(size));
	mem_st32(p, STAT_BLKSIZE, (uint32_t)st.st_blksize);
	cache_memory_written(vm, buf, sizeof_stat);
	if (vm->journal.mode == JOURNAL_RECORD)
		journal_put(vm, JOURNAL_FSTAT, 0, p, sizeof_stat);
	return 0;
}

static uint64_t sys_brk(struct cy_vm *vm, uint64_t want)
{
	uint64_t limit = STACK_TOP - vm->opts.stack_size - STACK_GAP;

	if (want < vm->brk_start || want > limit)
		return vm->brk;
	if (want < vm->brk) {
		/* memory given back reads as zero when it is taken again (and
		 * code that was run there is decoded afresh) */
		mem_zero(&vm->mem, want, vm->brk);
		cache_memory_written(vm, want, vm->brk - want);
	}
	vm->brk = want;
	mem_set_region(&vm->mem, "heap", vm->brk_start, vm->brk);
	return vm->brk;
}

/* struct __kernel_timespec: two 64-bit fields. */
static int64_t sys_clock_gettime(struct cy_vm *vm, uint64_t clock, uint64_t buf)
{
	uint64_t ns = vm->cycles * NS_PER_CYCLE;
	int64_t ts[2];

	if (clock == CLOCK_REALTIME)
		ns += vm->start_realtime_ns;
	else if (clock > CLOCK_BOOTTIME)
		return -EINVAL;
	if (!range_ok(vm, buf, sizeof(ts)))
		return -EFAULT;
	ts[0] = (int64_t)(ns / 1000000000u);
	ts[1] = (int64_t)(ns % 1000000000u);
	memcpy(vm->mem.base + buf, ts, sizeof(ts));
	cache_memory_written(vm, buf, sizeof(ts));
	return 0;
}

static void sys_exit(struct cy_vm *vm, uint64_t code)
{
	vm->stop = CY_STOP_EXIT;
	vm->exit_code = (int)(code & 0xff);
	vm->break_loop = true;
}

static void warn_unsupported(struct cy_vm *vm, uint32_t nr)
{
	const char *name = syscall_name(nr);

	if (nr < 8 * sizeof(vm->warned_syscalls)) {
		if (vm->warned_syscalls[nr / 8] & (1u << (nr % 8)))
			return;
		vm->warned_syscalls[nr / 8] |= (uint8_t)(1u << (nr % 8));
	} else {
		if (vm->warned_high_syscall)
			return;
		vm->warned_high_syscall = true;
	}
	if (name)
		vm_warn(vm, "unsupported syscall %s (%u) at 0x%08x: returning -ENOSYS", name, nr,
			vm->pc);
	else
		vm_warn(vm, "unsupported syscall %u at 0x%08x: returning -ENOSYS", nr, vm->pc);
}

void syscall_linux(struct cy_vm *vm)
{
	uint64_t nr64 = vm_reg(vm, REG_A7), a[3];
	uint32_t nr = nr64 > UINT32_MAX ? UINT32_MAX : (uint32_t)nr64;
	uint32_t clock_gettime = vm->xlen == 64 ? CLOCK_GETTIME_64 : CLOCK_GETTIME_32;
	int32_t ext;
	int64_t ret;

	for (unsigned i = 0; i < 3; i++)
		a[i] = vm_reg(vm, REG_A0 + i);
	if (nr == clock_gettime) {
		ret = sys_clock_gettime(vm, a[0], a[1]);
		vm_set_ret(vm, ret);
		return;
	}
	switch (nr) {
	case 57:
		ret = a[0] <= INT32_MAX && output_host_fd(vm, (uint32_t)a[0]) >= 0 ? 0 : -EBADF;
		break;
	case 63: ret = sys_read(vm, a[0], a[1], a[2]); break;
	case 64: ret = sys_write(vm, a[0], a[1], a[2]); break;
	case 80: ret = sys_fstat(vm, a[0], a[1]); break;
	case 93:
	case 94: sys_exit(vm, a[0]); return;
	case 214: ret = (int64_t)sys_brk(vm, a[0]); break;
	default:
		if (vm_ecall_extension(vm, nr, &ext)) {
			ret = ext;
			break;
		}
		warn_unsupported(vm, nr);
		ret = -ENOSYS;
		break;
	}
	vm_set_ret(vm, ret);
}

/* Pushes bytes below *sp and returns their guest address. */
static uint32_t push_bytes(struct cy_vm *vm, uint32_t *sp, const void *p, size_t n)
{
	*sp -= (uint32_t)n;
	memcpy(vm->mem.base + *sp, p, n);
	return *sp;
}

/* One word of the initial stack: XLEN bits wide. */
static void put_word(struct cy_vm *vm, uint32_t *at, uint32_t v)
{
	if (vm->xlen == 64) {
		mem_st64(vm->mem.base, *at, v);
		*at += 8;
	} else {
		mem_st32(vm->mem.base, *at, v);
		*at += 4;
	}
}

int linux_setup_stack(struct cy_vm *vm, char *err, size_t err_size)
{
	const cy_opts *o = &vm->opts;
	uint32_t bottom = STACK_TOP - o->stack_size, sp = STACK_TOP;
	uint32_t argv_at[256], envp_at[256], random_at, words, at;
	int argc = o->argc, envc = 0;
	/* AT_RANDOM: fixed bytes, so that runs are reproducible */
	static const uint8_t random16[16] = "cyclops-random!";

	for (int i = 0; i < vm->mem.n_regions; i++)
		if (vm->mem.regions[i].end > bottom - STACK_GAP &&
		    vm->mem.regions[i].start < STACK_TOP) {
			snprintf(err, err_size, "a segment overlaps the stack at 0x%08x", bottom);
			return -EINVAL;
		}
	if (vm->brk_start > bottom - STACK_GAP) {
		snprintf(err, err_size, "no room for a heap below the stack");
		return -EINVAL;
	}
	while (o->envp && o->envp[envc])
		envc++;
	if (argc > 255 || envc > 255) {
		snprintf(err, err_size, "too many arguments or environment variables");
		return -E2BIG;
	}
	random_at = push_bytes(vm, &sp, random16, sizeof(random16));
	for (int i = argc - 1; i >= 0; i--)
		argv_at[i] = push_bytes(vm, &sp, o->argv[i], strlen(o->argv[i]) + 1);
	for (int i = envc - 1; i >= 0; i--)
		envp_at[i] = push_bytes(vm, &sp, o->envp[i], strlen(o->envp[i]) + 1);
	if (STACK_TOP - sp > o->stack_size / 2) {
		snprintf(err, err_size, "arguments and environment fill the stack");
		return -E2BIG;
	}
	/* argc, argv[], NULL, envp[], NULL, auxv pairs: sp ends 16-aligned */
	words = 1 + (uint32_t)argc + 1 + (uint32_t)envc + 1 + 2 * 4;
	sp = (sp - words * (vm->xlen / 8)) & ~15u;
	at = sp;
	put_word(vm, &at, (uint32_t)argc);
	for (int i = 0; i < argc; i++)
		put_word(vm, &at, argv_at[i]);
	put_word(vm, &at, 0);
	for (int i = 0; i < envc; i++)
		put_word(vm, &at, envp_at[i]);
	put_word(vm, &at, 0);
	put_word(vm, &at, AT_PAGESZ);
	put_word(vm, &at, MEM_PAGE);
	put_word(vm, &at, AT_HWCAP);
	put_word(vm, &at,
		 1u << ('I' - 'A') | 1u << ('M' - 'A') | 1u << ('A' - 'A') | 1u << ('C' - 'A'));
	put_word(vm, &at, AT_RANDOM);
	put_word(vm, &at, random_at);
	put_word(vm, &at, AT_NULL);
	put_word(vm, &at, 0);
	vm_set_reg(vm, REG_SP, sp);
	vm->brk = vm->brk_start;
	mem_set_region(&vm->mem, "stack", bottom, STACK_TOP);
	mem_set_region(&vm->mem, "heap", vm->brk_start, vm->brk_start);
	return 0;
}

/* The Linux ABI's part of a checkpoint: the break, the realtime clock's
 * base (so that CLOCK_REALTIME goes on from where it was) and the
 * syscalls already warned of. The host files are the front end's to
 * position (guest fds 0-2 are the host's). */
void linux_state_io(struct sio *io, struct cy_vm *vm)
{
	sio_tag(io, "LINX");
	sio_u64(io, &vm->brk_start);
	sio_u64(io, &vm->brk);
	sio_u64(io, &vm->start_realtime_ns);
	sio_raw(io, vm->warned_syscalls, sizeof(vm->warned_syscalls));
	sio_bool(io, &vm->warned_high_syscall);
	if (io->load && (vm->brk < vm->brk_start || vm->brk > STACK_TOP))
		sio_fail(io, "the break 0x%llx is outside [0x%llx, 0x%x]",
			 (unsigned long long)vm->brk, (unsigned long long)vm->brk_start, STACK_TOP);
}

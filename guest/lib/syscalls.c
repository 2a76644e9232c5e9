/* The POSIX layer picolibc expects from its host, mapped onto the few Linux
 * system calls cyclops implements (see cyclops/syscall.h). What the VM cannot do
 * fails with an errno instead of being left out, so ordinary programs link. */

#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include <cyclops/syscall.h>

#define NSEC_PER_SEC 1000000000LL

/* Linux and picolibc (newlib numbering) agree on errno values 1..34 only. The
 * larger ones a system call may plausibly return are translated; any other
 * becomes EIO rather than a number that means something else here. */
#define LINUX_ERRNO_SHARED_MAX 34

static const struct {
	int linux_errno;
	int libc_errno;
} errno_map[] = {
	{ 35, EDEADLK },   { 36, ENAMETOOLONG }, { 37, ENOLCK },
	{ 38, ENOSYS },    { 39, ENOTEMPTY },    { 40, ELOOP },
	{ 75, EOVERFLOW }, { 95, EOPNOTSUPP },   { 110, ETIMEDOUT },
};

static int libc_errno_of(int linux_errno)
{
	if (linux_errno <= LINUX_ERRNO_SHARED_MAX)
		return linux_errno;
	for (size_t i = 0; i < sizeof errno_map / sizeof errno_map[0]; i++)
		if (errno_map[i].linux_errno == linux_errno)
			return errno_map[i].libc_errno;
	return EIO;
}

/* The kernel's convention (-errno in a0) turned into libc's (-1 and errno). */
static long set_errno(long ret)
{
	if (ret < 0 && ret > -4096) {
		errno = libc_errno_of((int)-ret);
		return -1;
	}
	return ret;
}

ssize_t read(int fd, void *buf, size_t len)
{
	return set_errno(cy_read(fd, buf, len));
}

ssize_t write(int fd, const void *buf, size_t len)
{
	return set_errno(cy_write(fd, buf, len));
}

int close(int fd)
{
	return (int)set_errno(cy_close(fd));
}

void _exit(int status)
{
	cy_exit(status);
}

/* malloc grows the heap through sbrk; the VM keeps the break. */
void *sbrk(ptrdiff_t incr)
{
	extern char __heap_start[];	/* link.ld: the initial break */
	static uintptr_t cur_brk;

	if (cur_brk == 0) {
		cur_brk = cy_brk(0);
		/* A failed brk (-ENOSYS looks like a huge address) or one below
		 * our own image means there is no heap to hand out. */
		if (cur_brk < (uintptr_t)__heap_start || cur_brk >= (uintptr_t)-4096) {
			cur_brk = 0;
			errno = ENOMEM;
			return (void *)-1;
		}
	}

	uintptr_t old_brk = cur_brk;
	uintptr_t new_brk = old_brk + (uintptr_t)incr;
	if (incr > 0 ? new_brk < old_brk : new_brk > old_brk) {
		errno = ENOMEM;
		return (void *)-1;
	}
	if (incr != 0) {
		if (cy_brk(new_brk) != new_brk) {
			errno = ENOMEM;
			return (void *)-1;
		}
		cur_brk = new_brk;
	}
	return (void *)old_brk;
}

int clock_gettime(clockid_t clock_id, struct timespec *ts)
{
	struct cy_timespec64 kts;
	long ret = cy_clock_gettime((int)clock_id, &kts);

	if (ret < 0)
		return (int)set_errno(ret);
	ts->tv_sec = (time_t)kts.tv_sec;
	ts->tv_nsec = (long)kts.tv_nsec;
	return 0;
}

/* time() is built on this. */
int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct cy_timespec64 kts;
	long ret = cy_clock_gettime(CY_CLOCK_REALTIME, &kts);

	(void)tz;
	if (ret < 0)
		return (int)set_errno(ret);
	if (tv) {
		tv->tv_sec = (time_t)kts.tv_sec;
		tv->tv_usec = (suseconds_t)(kts.tv_nsec / 1000);
	}
	return 0;
}

/* clock() is built on this. The VM has no per-process CPU clock, and the guest
 * is the only thing it runs, so the monotonic clock stands in for user time. */
clock_t times(struct tms *buf)
{
	struct cy_timespec64 kts;
	long ret = cy_clock_gettime(CY_CLOCK_MONOTONIC, &kts);

	if (ret < 0)
		return (clock_t)set_errno(ret);
	clock_t ticks = (clock_t)(kts.tv_sec * CLOCKS_PER_SEC +
				  kts.tv_nsec / (NSEC_PER_SEC / CLOCKS_PER_SEC));
	if (buf) {
		buf->tms_utime = ticks;
		buf->tms_stime = 0;
		buf->tms_cutime = 0;
		buf->tms_cstime = 0;
	}
	return ticks;
}

/* picolibc's struct stat is not the kernel's, and nothing in the guest needs
 * more than "this is not a terminal or a file we can seek". */
int fstat(int fd, struct stat *st)
{
	(void)fd;
	(void)st;
	errno = ENOSYS;
	return -1;
}

int isatty(int fd)
{
	(void)fd;
	errno = ENOTTY;
	return 0;
}

off_t lseek(int fd, off_t offset, int whence)
{
	(void)fd;
	(void)offset;
	(void)whence;
	errno = ESPIPE;
	return -1;
}

/* There is no file system: fopen() links but fails cleanly. */
int open(const char *path, int flags, ...)
{
	(void)path;
	(void)flags;
	errno = ENOSYS;
	return -1;
}

int unlink(const char *path)
{
	(void)path;
	errno = ENOSYS;
	return -1;
}

pid_t getpid(void)
{
	return 1;
}

/* abort() ends up here with SIGABRT. Without signals, end the way a shell
 * reports a killed process: exit status 128 + signal number. */
int kill(pid_t pid, int sig)
{
	if (pid != getpid()) {
		errno = ESRCH;
		return -1;
	}
	if (sig != 0)
		cy_exit(128 + sig);
	return 0;
}

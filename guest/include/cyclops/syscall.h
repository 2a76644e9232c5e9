/* System calls for guest programs of the cyclops VM, as small inline ecall wrappers.
 * The ABI is Linux RV32 user mode (what qemu-riscv32 gives a static ELF): number in
 * a7, arguments in a0..a5, result in a0, and a negative errno when the call fails. */
#ifndef CYCLOPS_SYSCALL_H
#define CYCLOPS_SYSCALL_H

/* Only the calls cyclops implements; any other number returns -ENOSYS. Plain
 * defines so that assembly (crt0.S) can use them too. */
#define CY_SYS_CLOSE 57
#define CY_SYS_READ 63
#define CY_SYS_WRITE 64
#define CY_SYS_FSTAT 80
#define CY_SYS_EXIT 93
#define CY_SYS_EXIT_GROUP 94
#define CY_SYS_BRK 214
/* RV32's clock_gettime64; RV64 has the same 64-bit layout as clock_gettime */
#if __riscv_xlen == 64
#define CY_SYS_CLOCK_GETTIME64 113
#else
#define CY_SYS_CLOCK_GETTIME64 403
#endif

/* Clock ids of clock_gettime64, as Linux numbers them. */
#define CY_CLOCK_REALTIME 0
#define CY_CLOCK_MONOTONIC 1

#ifndef __ASSEMBLER__

#include <stddef.h>
#include <stdint.h>

/* The 64-bit time layout of clock_gettime64 (Linux struct __kernel_timespec),
 * which stays the same on RV32 after 2038. */
struct cy_timespec64 {
	int64_t tv_sec;
	int64_t tv_nsec;
};

/* The register variables pin each value to the register the ABI names; the
 * "memory" clobber stops the compiler from caching buffers across a call that
 * reads or writes them. */
static inline long cy_syscall0(long n)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0");
	__asm__ volatile("ecall" : "=r"(a0) : "r"(a7) : "memory");
	return a0;
}

static inline long cy_syscall1(long n, long x0)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = x0;
	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
	return a0;
}

static inline long cy_syscall2(long n, long x0, long x1)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = x0;
	register long a1 __asm__("a1") = x1;
	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1) : "memory");
	return a0;
}

static inline long cy_syscall3(long n, long x0, long x1, long x2)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = x0;
	register long a1 __asm__("a1") = x1;
	register long a2 __asm__("a2") = x2;
	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
	return a0;
}

static inline long cy_syscall4(long n, long x0, long x1, long x2, long x3)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = x0;
	register long a1 __asm__("a1") = x1;
	register long a2 __asm__("a2") = x2;
	register long a3 __asm__("a3") = x3;
	__asm__ volatile("ecall"
			 : "+r"(a0)
			 : "r"(a7), "r"(a1), "r"(a2), "r"(a3)
			 : "memory");
	return a0;
}

static inline long cy_syscall5(long n, long x0, long x1, long x2, long x3, long x4)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = x0;
	register long a1 __asm__("a1") = x1;
	register long a2 __asm__("a2") = x2;
	register long a3 __asm__("a3") = x3;
	register long a4 __asm__("a4") = x4;
	__asm__ volatile("ecall"
			 : "+r"(a0)
			 : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4)
			 : "memory");
	return a0;
}

static inline long cy_syscall6(long n, long x0, long x1, long x2, long x3, long x4,
			       long x5)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = x0;
	register long a1 __asm__("a1") = x1;
	register long a2 __asm__("a2") = x2;
	register long a3 __asm__("a3") = x3;
	register long a4 __asm__("a4") = x4;
	register long a5 __asm__("a5") = x5;
	__asm__ volatile("ecall"
			 : "+r"(a0)
			 : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5)
			 : "memory");
	return a0;
}

/* Named wrappers. Each returns what the kernel returns: a count or 0 on
 * success, a negative errno on failure. */

static inline long cy_read(int fd, void *buf, size_t len)
{
	return cy_syscall3(CY_SYS_READ, fd, (long)buf, (long)len);
}

static inline long cy_write(int fd, const void *buf, size_t len)
{
	return cy_syscall3(CY_SYS_WRITE, fd, (long)buf, (long)len);
}

static inline long cy_close(int fd)
{
	return cy_syscall1(CY_SYS_CLOSE, fd);
}

/* kstat receives the kernel's struct stat, whose layout is not picolibc's. */
static inline long cy_fstat(int fd, void *kstat)
{
	return cy_syscall2(CY_SYS_FSTAT, fd, (long)kstat);
}

/* Linux brk never fails with an error code: it returns the new break, or the
 * unchanged old one when it cannot move it. brk(0) asks for the current one. */
static inline uintptr_t cy_brk(uintptr_t addr)
{
	return (uintptr_t)cy_syscall1(CY_SYS_BRK, (long)addr);
}

static inline long cy_clock_gettime(int clock_id, struct cy_timespec64 *ts)
{
	return cy_syscall2(CY_SYS_CLOCK_GETTIME64, clock_id, (long)ts);
}

/* Ends the program at once: no atexit handlers, no stdio flush (see exit()). */
static inline _Noreturn void cy_exit(int status)
{
	cy_syscall1(CY_SYS_EXIT, status);
	__builtin_unreachable();
}

static inline _Noreturn void cy_exit_group(int status)
{
	cy_syscall1(CY_SYS_EXIT_GROUP, status);
	__builtin_unreachable();
}

#endif /* __ASSEMBLER__ */

#endif /* CYCLOPS_SYSCALL_H */

/* PC-histogram sampling controlled by the guest (docs/sampling.md), after the
 * Dorado's MicroSample. Each call is one ecall with a syscall number Linux
 * does not use, so on another machine (qemu-riscv32, real Linux) the kernel
 * answers -ENOSYS and the call fails cleanly with CY_ENOT_ON_CYCLOPS.
 *
 *	if (cy_sample_start() == 0) {     allocate, zero, start counting
 *		work();
 *		cy_sample_pause();         stop counting, keep the counts
 *		setup();
 *		cy_sample_resume();
 *		work();
 *		cy_sample_save_to("work.samples");   needs cyclops run --guest-saves
 *		cy_sample_stop();          stop and free the histogram
 *	}
 *
 * Every N cycles of the cost model (cyclops run --sample=N, default 32) the
 * pc of the instruction executing gets one count. A call takes effect at
 * the clock its ecall starts: a start or resume ecall is itself sampled, a
 * pause or stop ecall is not. Each call returns 0 or a CY_E... code. */
#ifndef CYCLOPS_SAMPLE_H
#define CYCLOPS_SAMPLE_H

#include "cyclops/syscall.h"

/* The syscall numbers (src/sample.h has the same list). */
#define CY_SYS_ON_CYCLOPS 0x43590
#define CY_SYS_SAMPLE_START 0x43591
#define CY_SYS_SAMPLE_PAUSE 0x43592
#define CY_SYS_SAMPLE_RESUME 0x43593
#define CY_SYS_SAMPLE_RESET 0x43594
#define CY_SYS_SAMPLE_SAVE 0x43595
#define CY_SYS_SAMPLE_STOP 0x43596

/* What CY_SYS_ON_CYCLOPS returns on cyclops ("CYCP"). */
#define CY_ON_CYCLOPS_MAGIC 0x43594350

/* Error codes. */
#define CY_ENOT_ON_CYCLOPS (-1) /* not running on cyclops */
#define CY_ENO_BUFFER (-2)      /* no histogram: not started, or stopped */
#define CY_EBAD_NAME (-3)       /* empty, absolute, "..", control character, > 255 bytes,
				 * or a symbolic link or non-regular file on the way */
#define CY_EIO (-4)             /* the file could not be written */
#define CY_ENOMEM (-5)          /* the host has no memory for the histogram */
#define CY_EFAULT (-6)          /* the name is not in guest memory */
#define CY_EPERM (-7)           /* saving needs cyclops run --guest-saves */
#define CY_EQUOTA (-8)          /* --guest-saves' count of files or bytes is spent */

#define CY_ENOSYS_LINUX 38

static inline int cy_sample_call(long nr, long arg)
{
	long r = cy_syscall1(nr, arg);
	return r == -CY_ENOSYS_LINUX ? CY_ENOT_ON_CYCLOPS : (int)r;
}

/* True only when running on cyclops. */
static inline int cy_on_cyclops(void)
{
	return cy_syscall0(CY_SYS_ON_CYCLOPS) == CY_ON_CYCLOPS_MAGIC;
}

/* Allocates and zeroes the histogram and starts sampling (again, if it
 * was running: the counts start over). */
static inline int cy_sample_start(void) { return cy_sample_call(CY_SYS_SAMPLE_START, 0); }
/* Stops counting; the counts stay. */
static inline int cy_sample_pause(void) { return cy_sample_call(CY_SYS_SAMPLE_PAUSE, 0); }
/* Counts again after a pause. */
static inline int cy_sample_resume(void) { return cy_sample_call(CY_SYS_SAMPLE_RESUME, 0); }
/* Zeroes the counts. */
static inline int cy_sample_reset(void) { return cy_sample_call(CY_SYS_SAMPLE_RESET, 0); }
/* Writes the histogram to cyclops.samples in the output directory. */
static inline int cy_sample_save(void) { return cy_sample_call(CY_SYS_SAMPLE_SAVE, 0); }
/* Writes it to name, relative to the output directory. */
static inline int cy_sample_save_to(const char *name)
{
	return cy_sample_call(CY_SYS_SAMPLE_SAVE, (long)name);
}
/* Stops sampling and frees the histogram. */
static inline int cy_sample_stop(void) { return cy_sample_call(CY_SYS_SAMPLE_STOP, 0); }

#endif /* CYCLOPS_SAMPLE_H */

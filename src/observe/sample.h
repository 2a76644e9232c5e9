/* sample.h - PC-histogram sampling (docs/sampling.md): every N cycles the
 * instruction executing gets one count. The VM runs in slices that end at
 * the next sample, so the interpreter never checks anything per instruction;
 * the guest controls the sampler with ecalls Linux does not use. */
#ifndef CY_SAMPLE_H
#define CY_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cyclops_samples.h"

struct cy_vm;

/* The guest's calls: _(number, name); the numbers are far above Linux's
 * (which end below 1024), so elsewhere they fail with -ENOSYS. The guest
 * header guest/include/cyclops/sample.h repeats them. */
#define SAMPLE_SYSCALLS(_)                                                                         \
	_(0x43590, on_cyclops)                                                                     \
	_(0x43591, start)                                                                          \
	_(0x43592, pause)                                                                          \
	_(0x43593, resume)                                                                         \
	_(0x43594, reset)                                                                          \
	_(0x43595, save)                                                                           \
	_(0x43596, stop)

#define SAMPLE_SYSCALL_FIRST 0x43590u
#define SAMPLE_SYSCALL_LAST  0x43596u
/* What on_cyclops returns ("CYCP"); Linux returns -ENOSYS. */
#define SAMPLE_ON_CYCLOPS_MAGIC 0x43594350u

/* The guest's error codes (the header names them CY_E...). */
#define SAMPLE_ENOT_ON_CYCLOPS (-1) /* only ever made by the guest header */
#define SAMPLE_ENO_BUFFER      (-2)
#define SAMPLE_EBAD_NAME       (-3)
#define SAMPLE_EIO             (-4)
#define SAMPLE_ENOMEM          (-5)
#define SAMPLE_EFAULT          (-6)
#define SAMPLE_EPERM           (-7)
#define SAMPLE_EQUOTA          (-8)

#define SAMPLE_DEFAULT_INTERVAL 32
#define SAMPLE_MAX_INTERVAL     (1ull << 32) /* larger ones are clamped to it */
#define SAMPLE_DEFAULT_FILE     "cyclops.samples"
#define SAMPLE_NAME_MAX         255
#define SAMPLE_WARNINGS_SHOWN   20 /* about the guest's calls, per run */

/* At VM creation: reads the program's identity and code ranges. */
int sampler_new(struct cy_vm *vm, const void *elf, size_t size);
void sampler_free(struct cy_vm *vm);
/* cy_vm_run's loop: runs to budget in slices that end at sample cycles. */
void sample_run(struct cy_vm *vm, uint64_t budget);
static inline bool sample_is_syscall(uint32_t nr)
{
	return nr >= SAMPLE_SYSCALL_FIRST && nr <= SAMPLE_SYSCALL_LAST;
}
/* Services the guest's call nr; returns what goes into a0. */
int32_t sample_syscall(struct cy_vm *vm, uint32_t nr);

/* Checkpoints and chunks (docs/scale-out.md): saves or restores vm's
 * sampler (util/state_io.h); a fast pass's, restored into a counting
 * sampler, starts a chunk. 0 or the error in io. */
struct sio;
int sampler_state_io(struct sio *io, struct cy_vm *vm);
/* Adds the counts of a chunk's sampler (its state in io) to vm's, the fast
 * pass's, which holds the counts of the chunks before it: then they are
 * what one sampler over all of them would hold. 0 or the error in io. */
int sampler_merge_state(struct sio *io, struct cy_vm *vm);

/* sample_file.c: the file's bytes for s (other_pc sorted, no zero counts),
 * malloc'd; NULL when out of memory. */
uint8_t *samples_encode(const cy_samples *s, size_t *size);
/* Writes s to path whole or not at all; the reason in err. */
int samples_write(const cy_samples *s, const char *path, char *err, size_t err_size);
/* Parses a file's bytes into s (zeroed; cy_samples_free frees what it got
 * even on failure); the reason in why. The fuzzer's way in. */
int samples_parse(const uint8_t *d, size_t size, cy_samples *s, char *why, size_t why_size);

#endif

/* output.h - the guest's stdout and stderr on their way to the host. A
 * filter (the cycle tracker, observe/tracker.c) may read every byte with
 * the clock and say what to pass on; the ABIs and the bare platform's
 * consoles all write through here. */
#ifndef CY_OUTPUT_H
#define CY_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

struct cy_vm;

enum output_stream { OUTPUT_STDOUT, OUTPUT_STDERR, OUTPUT_STREAMS };

/* What a filter does with the bytes of one write at clock: sets *echo and
 * *echo_len to what goes on to the host (buf itself, or less); 0, or
 * -ENOMEM (then nothing was recorded). take_held hands back bytes held at
 * the end of the run (a line never finished). */
struct output_filter {
	int (*write)(void *ctx, enum output_stream stream, const uint8_t *buf, size_t len,
		     uint64_t clock, const uint8_t **echo, size_t *echo_len);
	void (*take_held)(void *ctx, enum output_stream stream, const uint8_t **buf, size_t *len);
	void *ctx;
};

/* The host file descriptor of guest fd 0, 1 or 2; -1 for any other. */
int output_host_fd(const struct cy_vm *vm, uint32_t fd);
/* The bytes written, or -errno if the first host write failed. */
int64_t output_write_all(int hfd, const uint8_t *p, size_t len);
/* Guest memory [buf, buf+len) written to guest fd 1 or 2 at the clock
 * before the current instruction; bytes taken, or -errno. */
int32_t output_write(struct cy_vm *vm, uint32_t fd, uint64_t buf, uint32_t len);
/* Writes out what the filter still holds back (end of the run). */
void output_flush(struct cy_vm *vm);

#endif

/* output.c - the guest's stdout and stderr: through the output filter,
 * when there is one, to the host's file descriptors. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/output.h"
#include "core/vm.h"

/* A filter gets each write in pieces of at most this, so that what it
 * holds stays small however much one write carries. */
#define WRITE_PIECE (64u << 10)

int output_host_fd(const struct cy_vm *vm, uint32_t fd)
{
	switch (fd) {
	case 0: return vm->opts.stdin_fd;
	case 1: return vm->opts.stdout_fd;
	case 2: return vm->opts.stderr_fd;
	default: return -1;
	}
}

int64_t output_write_all(int hfd, const uint8_t *p, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t w = write(hfd, p + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return done ? (int64_t)done : -errno;
		done += (size_t)w;
	}
	return (int64_t)done;
}

/* What reached the host: the last byte and its stream, so that the
 * summary after the run starts on a line of its own (cy_vm_output_ends_line). */
static int64_t to_host(struct cy_vm *vm, uint32_t fd, const uint8_t *p, size_t len)
{
	int64_t done = output_write_all(output_host_fd(vm, fd), p, len);

	if (done > 0) {
		vm->out_last_byte = p[done - 1];
		vm->out_last_fd = fd;
	}
	return done;
}

bool cy_vm_output_ends_line(const cy_vm *vm, int *fd)
{
	*fd = (int)vm->out_last_fd;
	return vm->out_last_fd == 0 || vm->out_last_byte == '\n';
}

static int32_t write_host(struct cy_vm *vm, uint32_t fd, uint64_t buf, uint32_t len);

/* A chunk replays what the fast pass's writes returned (core/journal.h). */
int32_t output_write(struct cy_vm *vm, uint32_t fd, uint64_t buf, uint32_t len)
{
	const uint8_t *data;
	size_t n;
	int64_t rc;

	if (vm->journal.mode == JOURNAL_REPLAY)
		return journal_get(vm, JOURNAL_WRITE, &rc, &data, &n) ? (int32_t)rc : -EIO;
	rc = write_host(vm, fd, buf, len);
	if (vm->journal.mode == JOURNAL_RECORD)
		journal_put(vm, JOURNAL_WRITE, rc, NULL, 0);
	return (int32_t)rc;
}

/* Where a piece of the guest's write is read from: a piece with pages the
 * host never backed is copied to scratch, zeros for those pages
 * (mem_copy_sparse), so that writing out memory never touched costs the
 * host none. */
static const uint8_t *piece_source(const struct cy_vm *vm, int pagemap_fd, uint8_t *scratch,
				   uint64_t addr, uint32_t piece)
{
	return scratch && mem_copy_sparse(&vm->mem, pagemap_fd, addr, piece, scratch)
		   ? scratch
		   : vm->mem.base + addr;
}

static int32_t write_host(struct cy_vm *vm, uint32_t fd, uint64_t buf, uint32_t len)
{
	const struct output_filter *flt = &vm->output;
	enum output_stream stream = fd == 1 ? OUTPUT_STDOUT : OUTPUT_STDERR;
	int32_t rc = (int32_t)len; /* all of it: the held-back rest counts too */
	int pagemap_fd;
	uint8_t *scratch;

	if (output_host_fd(vm, fd) < 0 || fd == 0)
		return -EBADF;
	if (len && vm->opts.before_output)
		vm->opts.before_output(vm->opts.output_ctx);
	/* a write that is not larger than a piece reads at most that much */
	pagemap_fd = len > WRITE_PIECE ? mem_pagemap_open() : -1;
	scratch = pagemap_fd >= 0 ? malloc(WRITE_PIECE) : NULL;
	/* A filter sees what the guest wrote, at the clock before this
	 * instruction (in a zkVM unconstrained block, the ABI's), and says
	 * what to pass on (the tracker's quiet mode passes less). */
	for (uint32_t at = 0, piece; rc >= 0 && at < len; at += piece) {
		const uint8_t *p, *echo;
		size_t echo_len;
		int64_t done;
		piece = len - at < WRITE_PIECE ? len - at : WRITE_PIECE;
		echo = p = piece_source(vm, pagemap_fd, scratch, buf + at, piece);
		echo_len = piece;
		if (flt->write && flt->write(flt->ctx, stream, p, piece, vm_output_cycles(vm),
					     &echo, &echo_len) != 0) {
			vm_fault(vm, CY_FAULT_HOST, vm->pc, vm->pc);
			rc = -ENOMEM;
			break;
		}
		done = to_host(vm, fd, echo, echo_len);
		if (done != (int64_t)echo_len) { /* the host took less: say what went out */
			if (!flt->write && done > 0)
				rc = (int32_t)(at + done);
			else
				rc = at ? (int32_t)at : (int32_t)done;
		}
	}
	if (pagemap_fd >= 0)
		close(pagemap_fd);
	free(scratch);
	return rc;
}

void output_flush(struct cy_vm *vm)
{
	const struct output_filter *flt = &vm->output;

	if (vm->journal.mode == JOURNAL_REPLAY)
		return; /* a chunk writes nothing */
	for (uint32_t fd = 1; flt->take_held && fd <= 2; fd++) {
		const uint8_t *p;
		size_t n;
		flt->take_held(flt->ctx, fd == 1 ? OUTPUT_STDOUT : OUTPUT_STDERR, &p, &n);
		if (n && vm->opts.before_output)
			vm->opts.before_output(vm->opts.output_ctx);
		if (n)
			to_host(vm, fd, p, n);
	}
}

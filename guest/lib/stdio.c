/* stdin, stdout and stderr for picolibc's tiny stdio, on top of the read and
 * write system calls (fds 0, 1, 2). Output is line buffered, so a guest makes
 * one write ecall per line rather than per character. */

#include <stdio.h>

#include <cyclops/syscall.h>

/* Large enough for any reasonable line; a longer one goes out in pieces. */
#define STREAM_BUF_SIZE 256

/* tiny stdio hands the put/get/flush hooks the FILE pointer; keeping the FILE
 * first lets them recover the stream around it. */
struct cy_stream {
	FILE file;
	int fd;
	int len;	/* bytes in buf: pending output, or input not yet read */
	int pos;	/* next input byte in buf */
	char buf[STREAM_BUF_SIZE];
};

static int stream_put(char c, FILE *f);
static int stream_get(FILE *f);
static int stream_flush(FILE *f);

static struct cy_stream stdin_stream = {
	.file = FDEV_SETUP_STREAM(NULL, stream_get, NULL, _FDEV_SETUP_READ),
	.fd = 0,
};
static struct cy_stream stdout_stream = {
	.file = FDEV_SETUP_STREAM(stream_put, NULL, stream_flush, _FDEV_SETUP_WRITE),
	.fd = 1,
};
static struct cy_stream stderr_stream = {
	.file = FDEV_SETUP_STREAM(stream_put, NULL, stream_flush, _FDEV_SETUP_WRITE),
	.fd = 2,
};

FILE *const stdin = &stdin_stream.file;
FILE *const stdout = &stdout_stream.file;
FILE *const stderr = &stderr_stream.file;

static struct cy_stream *stream_of(FILE *f)
{
	return (struct cy_stream *)f;
}

/* Writes out everything buffered; write may take less than asked for. */
static int stream_flush(FILE *f)
{
	struct cy_stream *s = stream_of(f);
	int done = 0;

	while (done < s->len) {
		long n = cy_write(s->fd, s->buf + done, (size_t)(s->len - done));
		if (n <= 0) {
			s->len = 0;
			return EOF;
		}
		done += (int)n;
	}
	s->len = 0;
	return 0;
}

static int stream_put(char c, FILE *f)
{
	struct cy_stream *s = stream_of(f);

	s->buf[s->len++] = c;
	if (c == '\n' || s->len == STREAM_BUF_SIZE) {
		if (stream_flush(f) < 0)
			return _FDEV_ERR;
	}
	return (unsigned char)c;
}

static int stream_get(FILE *f)
{
	struct cy_stream *s = stream_of(f);

	if (s->pos == s->len) {
		/* A prompt printed without a newline must be visible before the
		 * program blocks waiting for its answer. */
		stream_flush(&stdout_stream.file);
		long n = cy_read(s->fd, s->buf, sizeof s->buf);
		if (n < 0)
			return _FDEV_ERR;
		if (n == 0)
			return _FDEV_EOF;
		s->len = (int)n;
		s->pos = 0;
	}
	return (unsigned char)s->buf[s->pos++];
}

/* picolibc's exit() runs destructors but does not flush stdio itself, so the
 * last partial line would be lost. Priority 101 runs after all other
 * destructors, which may still print. */
__attribute__((destructor(101))) static void flush_std_streams(void)
{
	stream_flush(stdout);
	stream_flush(stderr);
}

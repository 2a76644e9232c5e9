/* file.c - reads whole files for the loaders: a regular file (or, when the
 * caller allows it, a stream) of bounded size, its first bytes checked
 * before the rest is read, every failure named. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file.h"

#define STREAM_CHUNK 65536

const struct file_rules file_rules_elf = {
	.max = (size_t)2 << 30,
	.magic = "\177ELF",
	.magic_len = 4,
	.not_magic = "not an ELF file",
};

static const char *kind(mode_t mode)
{
	return S_ISDIR(mode)    ? "a directory"
	       : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISCHR(mode)  ? "a character device"
	       : S_ISBLK(mode)  ? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
				: "another kind of file";
}

/* Reads up to want bytes at buf + *got until end of file; 0 or -errno. */
static int read_more(int fd, char *buf, size_t want, size_t *got)
{
	while (want > 0) {
		ssize_t n = read(fd, buf + *got, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		*got += (size_t)n;
		want -= (size_t)n;
	}
	return 0;
}

int file_read(const char *path, const struct file_rules *rules, void **data, size_t *size,
	      char *why, size_t why_size)
{
	/* O_NONBLOCK: opening a FIFO for reading would wait for a writer */
	int fd = open(path, O_RDONLY | O_CLOEXEC | (rules->streams ? 0 : O_NONBLOCK));
	size_t got = 0, cap;
	char *buf = NULL;
	struct stat st;
	int rc = 0;

	*data = NULL;
	*size = 0;
	if (fd < 0) {
		rc = -errno;
		snprintf(why, why_size, "%s", strerror(errno));
		return rc;
	}
	if (fstat(fd, &st) != 0) {
		rc = -errno;
		snprintf(why, why_size, "%s", strerror(errno));
		goto out_close;
	}
	if (S_ISDIR(st.st_mode) || (!S_ISREG(st.st_mode) && !rules->streams)) {
		snprintf(why, why_size, "not a regular file (%s)", kind(st.st_mode));
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		goto out_close;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > rules->max) {
		snprintf(why, why_size, "larger than %zu bytes (%lld)", rules->max,
			 (long long)st.st_size);
		rc = -EFBIG;
		goto out_close;
	}
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size : STREAM_CHUNK;
	if (!(buf = malloc(cap + 1))) {
		snprintf(why, why_size, "out of memory");
		rc = -ENOMEM;
		goto out_close;
	}
	/* the first bytes first: a large file of the wrong kind is not read */
	if (rules->magic_len) {
		rc = read_more(fd, buf, rules->magic_len < cap ? rules->magic_len : cap, &got);
		if (rc == 0 && (got < rules->magic_len || memcmp(buf, rules->magic, got) != 0)) {
			snprintf(why, why_size, "%s", rules->not_magic);
			rc = -ENOEXEC;
		}
		if (rc != 0)
			goto out_free;
	}
	for (;;) {
		size_t before = got;
		rc = read_more(fd, buf, cap - got, &got);
		if (rc != 0 || got < cap || S_ISREG(st.st_mode) || got == before)
			break;
		/* a stream that filled the buffer: grow it, up to the limit */
		if (cap >= rules->max) {
			char extra;
			size_t one = 0;
			if ((rc = read_more(fd, &extra, 1, &one)) != 0 || one == 0)
				break;
			snprintf(why, why_size, "gives more than %zu bytes", rules->max);
			rc = -EFBIG;
			goto out_free;
		}
		cap = cap > rules->max / 2 ? rules->max : 2 * cap;
		char *more = realloc(buf, cap + 1);
		if (!more) {
			snprintf(why, why_size, "out of memory");
			rc = -ENOMEM;
			goto out_free;
		}
		buf = more;
	}
	if (rc != 0) {
		snprintf(why, why_size, "%s", strerror(-rc));
		goto out_free;
	}
	*data = buf;
	*size = got;
	goto out_close;
out_free:
	free(buf);
out_close:
	close(fd);
	return rc;
}

/* text.c - UTF-8 checks, untrusted bytes escaped for a terminal, XML and
 * JSON, and files written whole or not at all (a temporary file renamed
 * over the target), the guest's own beneath the output directory only. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/text.h"

/* A JSON string of guest bytes: the escapes JSON requires, other control
 * characters as \u00XX, and each byte that is not part of valid UTF-8 as
 * U+FFFD, so that the file is valid UTF-8 whatever the guest wrote. */
void text_json_string(FILE *f, const char *s, size_t len)
{
	const uint8_t *p = (const uint8_t *)s;

	fputc('"', f);
	for (size_t i = 0; i < len;) {
		size_t n = text_utf8_len(p + i, len - i);
		if (n == 0) {
			fputs("\\ufffd", f);
			n = 1;
		} else if (n > 1) {
			fwrite(p + i, 1, n, f);
		} else if (p[i] == '"' || p[i] == '\\') {
			fprintf(f, "\\%c", p[i]);
		} else if (p[i] == '\n') {
			fputs("\\n", f);
		} else if (p[i] == '\r') {
			fputs("\\r", f);
		} else if (p[i] == '\t') {
			fputs("\\t", f);
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			fprintf(f, "\\u%04x", p[i]);
		} else {
			fputc(p[i], f);
		}
		i += n;
	}
	fputc('"', f);
}

/* The character at p if it may be shown as it is (printable ASCII, or
 * valid UTF-8 other than the C1 controls U+0080..U+009F, which are two
 * bytes starting 0xc2); its length, or 0 for a byte to escape. */
static size_t printable_len(const uint8_t *p, size_t n)
{
	size_t len = text_utf8_len(p, n);

	if (len == 1)
		return p[0] >= 0x20 && p[0] != 0x7f ? 1 : 0;
	if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		return 0;
	return len;
}

/* The printable form of the character or byte at p into out (at most 4
 * bytes, no NUL); *used: the bytes of p it stands for. */
static size_t printable_unit(const uint8_t *p, size_t n, char out[4], size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	size_t len = printable_len(p, n);

	*used = len ? len : 1; /* one byte at a time: the rest may start a good one */
	if (len == 1 && p[0] == '\\') {
		memcpy(out, "\\\\", 2);
		return 2;
	}
	if (len) {
		memcpy(out, p, len);
		return len;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[p[0] >> 4];
	out[3] = hex[p[0] & 15];
	return 4;
}

size_t text_put_printable(FILE *f, const char *s, size_t len)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t cols = 0, run = 0; /* run: bytes shown as they are, not yet written */

	for (size_t i = 0; i < len;) {
		char out[4];
		size_t used, n = printable_len(p + i, len - i);
		if (n && p[i] != '\\') { /* one fwrite per run: folded files are large */
			run += n;
			cols++;
			i += n;
			continue;
		}
		if (f && run)
			fwrite(p + i - run, 1, run, f);
		run = 0;
		n = printable_unit(p + i, len - i, out, &used);
		if (f)
			fwrite(out, 1, n, f);
		cols += n;
		i += used;
	}
	if (f && run)
		fwrite(p + len - run, 1, run, f);
	return cols;
}

size_t text_printable(char *buf, size_t size, const char *s)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t len = strlen(s), at = 0;
	bool fits = size > 0;

	if (fits)
		buf[0] = '\0';
	for (size_t i = 0; i < len;) {
		char out[4];
		size_t used, n = printable_unit(p + i, len - i, out, &used);
		fits = fits && at + n < size;
		if (fits) {
			memcpy(buf + at, out, n);
			buf[at + n] = '\0';
		}
		at += n;
		i += used;
	}
	return at;
}

void text_put_xml(FILE *f, const char *s, size_t len)
{
	const uint8_t *p = (const uint8_t *)s;

	for (size_t i = 0; i < len;) {
		size_t n = text_utf8_len(p + i, len - i);
		/* U+FFFE and U+FFFF (ef bf be, ef bf bf) are not XML characters */
		bool nonchar = n == 3 && p[i] == 0xef && p[i + 1] == 0xbf && p[i + 2] >= 0xbe;

		if (n == 0 || nonchar) {
			fputs("\xef\xbf\xbd", f); /* U+FFFD */
			n = n ? n : 1;
		} else if (n == 1 && p[i] == '&') {
			fputs("&amp;", f);
		} else if (n == 1 && p[i] == '<') {
			fputs("&lt;", f);
		} else if (n == 1 && p[i] == '>') {
			fputs("&gt;", f);
		} else if (n == 1 && p[i] == '"') {
			fputs("&quot;", f);
		} else if (n == 1 && p[i] == '\'') {
			fputs("&#39;", f);
		} else if (printable_len(p + i, len - i)) {
			fwrite(p + i, 1, n, f);
		} else { /* a control character, shown as on a terminal */
			text_put_printable(f, (const char *)p + i, n);
		}
		i += n;
	}
}

/* Writes an existing FIFO, device or symbolic link the caller named (a
 * --profile /dev/stdout) in place: renaming a file over it would replace
 * the name itself, which root may do, and not write where it leads. */
static int write_in_place(int dirfd, const char *name, int (*body)(FILE *f, void *ctx), void *ctx)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
	FILE *f;
	int rc;

	if (fd < 0)
		return -errno;
	if (!(f = fdopen(fd, "w"))) {
		rc = -errno;
		close(fd);
		return rc;
	}
	rc = body(f, ctx);
	if (fflush(f) != 0 && rc == 0)
		rc = errno ? -errno : -EIO;
	if (fclose(f) != 0 && rc == 0)
		rc = errno ? -errno : -EIO;
	return rc;
}

/* Creates NAME.XXXXXX beside name (relative to dirfd) with O_EXCL, so that
 * nothing there, a symbolic link included, is followed or reused. */
static int create_temp(int dirfd, const char *name, char *tmp, size_t tmp_size)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[6];

	for (int attempt = 0; attempt < 100; attempt++) {
		if (getrandom(r, sizeof(r), 0) != sizeof(r))
			return -EIO;
		if ((size_t)snprintf(tmp, tmp_size, "%s.%c%c%c%c%c%c", name, digits[r[0] % 36],
				     digits[r[1] % 36], digits[r[2] % 36], digits[r[3] % 36],
				     digits[r[4] % 36], digits[r[5] % 36]) >= tmp_size)
			return -ENAMETOOLONG;
		int fd =
		    openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* The temporary file being written, for text_remove_pending from a signal
 * handler: a fixed buffer, published by a flag set after it is filled. */
static char pending_name[4096 + 16];
static int pending_dirfd;
static volatile sig_atomic_t pending;

static void set_pending(int dirfd, const char *tmp)
{
	pending = 0;
	snprintf(pending_name, sizeof(pending_name), "%s", tmp);
	pending_dirfd = dirfd;
	pending = strlen(tmp) < sizeof(pending_name);
}

void text_remove_pending(void)
{
	if (pending)
		unlinkat(pending_dirfd, pending_name, 0);
	pending = 0;
}

/* name (relative to dirfd) whole or not at all: a temporary file beside it,
 * renamed over it once body has written it and it is on disk. */
static int write_renamed(int dirfd, const char *name, int (*body)(FILE *f, void *ctx), void *ctx)
{
	size_t size = strlen(name) + sizeof(".XXXXXX");
	char *tmp = malloc(size);
	FILE *f;
	int fd, rc;

	if (!tmp)
		return -ENOMEM;
	fd = create_temp(dirfd, name, tmp, size);
	if (fd < 0) {
		rc = fd;
		goto out_free;
	}
	set_pending(dirfd, tmp);
	if (!(f = fdopen(fd, "w"))) {
		rc = -errno;
		close(fd);
		goto out_unlink;
	}
	rc = body(f, ctx);
	if (rc != 0) {
		fclose(f);
		goto out_unlink;
	}
	if (fflush(f) != 0 || ferror(f) || fsync(fd) != 0) {
		rc = errno ? -errno : -EIO;
		fclose(f);
		goto out_unlink;
	}
	if (fclose(f) != 0 || renameat(dirfd, tmp, dirfd, name) != 0) {
		rc = errno ? -errno : -EIO;
		goto out_unlink;
	}
	pending = 0;
	free(tmp);
	return 0;
out_unlink:
	unlinkat(dirfd, tmp, 0);
	pending = 0;
out_free:
	free(tmp);
	return rc;
}

int text_write_file(const char *path, int (*body)(FILE *f, void *ctx), void *ctx)
{
	struct stat st;

	if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
		return write_renamed(AT_FDCWD, path, body, ctx);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return -EISDIR;
	return write_in_place(AT_FDCWD, path, body, ctx);
}

/* Opens the directory part of name beneath dirfd, following no symbolic
 * link and no "..": openat2's RESOLVE_BENEATH where the kernel has it
 * (Linux 5.6), else one component at a time with O_NOFOLLOW. */
static int open_dir_beneath(int dirfd, const char *dir)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve =
		    RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	char part[256];
	int fd = (int)syscall(SYS_openat2, dirfd, dir, &how, sizeof(how));

	if (fd >= 0 || errno != ENOSYS)
		return fd >= 0 ? fd : -errno;
	fd = dup(dirfd);
	for (const char *c = dir; fd >= 0 && *c;) {
		size_t n = strcspn(c, "/");
		int next;

		if (n >= sizeof(part) || (n == 2 && c[0] == '.' && c[1] == '.')) {
			close(fd);
			return n >= sizeof(part) ? -ENAMETOOLONG : -EXDEV;
		}
		memcpy(part, c, n);
		part[n] = '\0';
		next =
		    n ? openat(fd, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : dup(fd);
		close(fd);
		fd = next;
		c += n + (c[n] == '/');
	}
	return fd >= 0 ? fd : -errno;
}

int text_write_file_beneath(int dirfd, const char *name, int (*body)(FILE *f, void *ctx), void *ctx)
{
	const char *slash = strrchr(name, '/'), *base = slash ? slash + 1 : name;
	struct stat st;
	int parent = dirfd, rc;

	if (name[0] == '/')
		return -EXDEV;
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return -EINVAL;
	if (slash) {
		char *dir = strndup(name, (size_t)(slash - name));
		if (!dir)
			return -ENOMEM;
		parent = open_dir_beneath(dirfd, dir);
		free(dir);
		if (parent < 0)
			return parent;
	}
	if (fstatat(parent, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))
		rc = S_ISLNK(st.st_mode) ? -ELOOP : -EPERM;
	else
		rc = write_renamed(parent, base, body, ctx);
	if (parent != dirfd)
		close(parent);
	return rc;
}

int text_check_output(const char *what, const char *path, char *err, size_t err_size)
{
	struct stat st;
	char *copy = strdup(path);
	const char *dir;
	int rc = 0;

	if (!copy) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	dir = dirname(copy);
	if (!*path || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		snprintf(err, err_size, "cannot write %s to '%s': not a file name", what, path);
		rc = -EISDIR;
	} else if (access(dir, W_OK | X_OK) != 0) {
		rc = -errno;
		snprintf(err, err_size, "cannot write %s to '%s': %s: %s", what, path, dir,
			 strerror(errno));
	}
	free(copy);
	return rc;
}

int text_bytes_body(FILE *f, void *ctx)
{
	const struct text_bytes *b = ctx;
	return b->len && fwrite(b->p, 1, b->len, f) != b->len ? -EIO : 0;
}

int text_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t text_utf8_len(const uint8_t *p, size_t n)
{
	uint32_t cp;
	size_t len;

	if (n == 0)
		return 0;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0; /* a continuation byte, an overlong lead, or beyond U+10FFFF */
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates, beyond the last code point */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

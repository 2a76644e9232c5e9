/* text.c - UTF-8 checks, untrusted bytes escaped for a terminal, XML and
 * JSON, and files written whole or not at all (a temporary file renamed
 * over the target). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int text_write_file(const char *path, int (*body)(FILE *f, void *ctx), void *ctx)
{
	size_t len = strlen(path);
	char *tmp = malloc(len + sizeof(".XXXXXX"));
	mode_t mask;
	FILE *f;
	int fd, rc;

	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, path, len);
	memcpy(tmp + len, ".XXXXXX", sizeof(".XXXXXX"));
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		goto out_free;
	}
	if (!(f = fdopen(fd, "w"))) {
		rc = -errno;
		close(fd);
		goto out_unlink;
	}
	/* mkstemp makes it 0600; a report is an ordinary file */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
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
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		rc = errno ? -errno : -EIO;
		goto out_unlink;
	}
	free(tmp);
	return 0;
out_unlink:
	unlink(tmp);
out_free:
	free(tmp);
	return rc;
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

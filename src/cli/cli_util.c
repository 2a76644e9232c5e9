/* cli_util.c - small helpers the subcommands share: error messages in the
 * one format the tool uses, number parsing, UTF-8 and colour checks. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("cyclops: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int cli_parse_count(const char *text, uint64_t *out)
{
	uint64_t v = 0, mult = 1;
	const char *p = text;

	if (!*p)
		return -EINVAL;
	for (; *p; p++) {
		if (*p == '_')
			continue;
		if (*p < '0' || *p > '9')
			break;
		if (v > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p == 'k' || *p == 'K')
		mult = 1000, p++;
	else if (*p == 'M')
		mult = 1000000, p++;
	else if (*p == 'G')
		mult = 1000000000, p++;
	if (*p || p == text)
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

bool cli_use_colour(FILE *f)
{
	const char *no_colour = getenv("NO_COLOR");
	const char *term = getenv("TERM");

	if (no_colour && *no_colour)
		return false;
	if (term && strcmp(term, "dumb") == 0)
		return false;
	return isatty(fileno(f));
}

int cli_read_file(const char *path, uint8_t **out, size_t *len, char *err, size_t err_size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	*out = NULL;
	*len = 0;
	if (!f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (n == cap) {
			uint8_t *p = realloc(buf, cap ? 2 * cap : 4096);
			if (!p) {
				snprintf(err, err_size, "%s: out of memory", path);
				rc = -1;
				break;
			}
			buf = p;
			cap = cap ? 2 * cap : 4096;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				snprintf(err, err_size, "%s: read error", path);
				rc = -1;
			}
			break;
		}
	}
	fclose(f);
	if (rc != 0) {
		free(buf);
		return rc;
	}
	*out = buf;
	*len = n;
	return 0;
}

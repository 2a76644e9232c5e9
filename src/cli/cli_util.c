/* cli_util.c - small helpers the subcommands share: error messages in the
 * one format the tool uses, and number parsing. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

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

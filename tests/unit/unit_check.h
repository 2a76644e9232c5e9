/* unit_check.h - the one reporting helper of the unit tests: prints
 * "ok - WHAT" or "not ok - WHAT: got '...' expected '...'" and counts
 * failures. Each test is its own program, so the state is per program. */
#ifndef CY_UNIT_CHECK_H
#define CY_UNIT_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int failures;

static void check(bool ok, const char *got, const char *want, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void check(bool ok, const char *got, const char *want, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!ok) {
		printf(": got '%s' expected '%s'", got, want);
		failures++;
	}
	putchar('\n');
}

#endif

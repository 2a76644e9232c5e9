/* cli_util.c - small helpers the subcommands share: error messages in the
 * one format the tool uses, number parsing, UTF-8 and colour checks. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/file.h"
#include "util/state_io.h"

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
	/* a pipe or process substitution (--input <(...)) is an input too;
	 * /dev/zero is not read forever */
	static const struct file_rules rules = { .max = CLI_INPUT_MAX, .streams = true };
	char why[200];
	int rc = file_read(path, &rules, (void **)out, len, why, sizeof(why));

	if (rc != 0)
		snprintf(err, err_size, "%s: %s", path, why);
	return rc;
}

void cli_words_io(struct sio *io, int *argc, char ***argv)
{
	size_t n = (size_t)*argc;

	sio_count(io, &n, CLI_MAX_WORDS, 8, "words of a command line");
	if (io->load && sio_alloc(io, (void **)argv, n + 1, sizeof(**argv)))
		*argc = (int)n;
	for (int i = 0; i < *argc && sio_ok(io); i++) {
		size_t len = (*argv)[i] ? strlen((*argv)[i]) : 0;
		sio_blob(io, (void **)&(*argv)[i], &len, 1u << 20, "bytes of a word");
		if (io->load && sio_ok(io) && strlen((*argv)[i]) != len)
			sio_fail(io, "a word of a command line holds a NUL byte");
	}
}

void cli_words_free(int argc, char **argv)
{
	for (int i = 0; argv && i < argc; i++)
		free(argv[i]);
	free(argv);
}

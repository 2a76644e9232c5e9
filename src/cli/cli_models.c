/* cli_models.c - "cyclops models": lists the cost models --model finds, one
 * line each with its description and file. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cyclops.h"

static void print_model(void *ctx, const char *name, const char *description, const char *path)
{
	(void)ctx;
	printf("%-12s %s\n             %s\n", name, description, path);
}

int cli_models(int argc, char **argv)
{
	char err[512];
	int n;

	if (argc > 1 && argv[1][0] == '-') {
		int i = 1;
		const char *v;
		if (cli_next_option(&cli_models_command, argc, argv, &i, &v) != MODELS_HELP)
			return CY_EXIT_USAGE;
		cli_print_help(stdout, &cli_models_command);
		return 0;
	}
	if (argc > 1) {
		cli_error("models: unexpected argument '%s'", argv[1]);
		return CY_EXIT_USAGE;
	}
	n = cy_models_list(print_model, NULL, err, sizeof(err));
	if (n < 0) {
		cli_error("models: %s", err);
		return CY_EXIT_BAD_PROGRAM;
	}
	return 0;
}

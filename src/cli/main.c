/* main.c - the cyclops command: finds the subcommand and hands over. The
 * help, the man page and the completions come from cli_options.c. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_run.h"
#include "cyclops.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		cli_print_usage(stderr);
		return CY_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		cli_print_usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("cyclops %s\n", CY_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "--man") == 0) {
		cli_print_man(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--completion") == 0) {
		if (argc != 3 || cli_print_completion(stdout, argv[2]) != 0) {
			cli_error("--completion needs bash or zsh");
			return CY_EXIT_USAGE;
		}
		return 0;
	}
	if (strcmp(argv[1], "run") == 0)
		return cli_run(argc - 1, argv + 1);
	if (strcmp(argv[1], "resume") == 0)
		return cli_resume(argc - 1, argv + 1);
	if (strcmp(argv[1], "batch") == 0)
		return cli_batch(argc - 1, argv + 1);
	if (strcmp(argv[1], "hist") == 0)
		return cli_hist(argc - 1, argv + 1);
	if (strcmp(argv[1], "annotate") == 0)
		return cli_annotate(argc - 1, argv + 1);
	if (strcmp(argv[1], "diff") == 0)
		return cli_diff(argc - 1, argv + 1);
	if (strcmp(argv[1], "models") == 0)
		return cli_models(argc - 1, argv + 1);
	cli_error("unknown command '%s' (see cyclops --help)", argv[1]);
	return CY_EXIT_USAGE;
}

/* main.c - the cyclops command: finds the subcommand and hands over. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cyclops.h"

static const char usage[] =
    "usage: cyclops <command> [options]\n"
    "\n"
    "cyclops runs RISC-V RV32IMAC programs and tells where every cycle goes.\n"
    "\n"
    "commands:\n"
    "  run       run a program: cyclops run [options] PROGRAM.elf [-- ARGS]\n"
    "  hist      analyse saved PC histograms: cyclops hist FILE... --elf PROG.elf\n"
    "\n"
    "  cyclops <command> --help   options of one command\n"
    "  cyclops --version          the version\n";

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return CY_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("cyclops %s\n", CY_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "run") == 0)
		return cli_run(argc - 1, argv + 1);
	if (strcmp(argv[1], "hist") == 0)
		return cli_hist(argc - 1, argv + 1);
	if (strcmp(argv[1], "models") == 0)
		return cli_models(argc - 1, argv + 1);
	cli_error("unknown command '%s' (see cyclops --help)", argv[1]);
	return CY_EXIT_USAGE;
}

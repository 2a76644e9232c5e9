/* cli_jobs.c - the chunked run (placeholder while the driver is written). */
#include "cli/cli_run.h"

int jobs_run(struct run *r)
{
	(void)r;
	cli_error("run: --jobs: not yet");
	return CY_EXIT_USAGE;
}

int cli_batch(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("batch: not yet");
	return CY_EXIT_USAGE;
}

/* cli_resume.c - "cyclops resume DIR": goes on with an interrupted run from
 * its latest checkpoint (cli_checkpoint.c) and ends it as cyclops run
 * would have, checkpoints, outputs and exit status alike. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli_options.h"
#include "cli/cli_run.h"

int cli_resume(int argc, char **argv)
{
	struct run r;
	const char *dir = NULL;
	uint64_t max_cycles = 0;
	bool max_set = false;
	int i, id, status;

	memset(&r, 0, sizeof(r));
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *v;
		id = cli_next_option(&cli_resume_command, argc, argv, &i, &v);
		if (id < 0)
			return CY_EXIT_USAGE;
		if (id == RESUME_HELP) {
			cli_print_help(stdout, &cli_resume_command);
			return 0;
		}
		if (id == RESUME_MAX_CYCLES) {
			if (!v || cli_parse_count(v, &max_cycles) != 0 || max_cycles == 0) {
				cli_error("resume: --max-cycles needs a positive number, got '%s'",
					  v ? v : "");
				return CY_EXIT_USAGE;
			}
			max_set = true;
		}
	}
	if (i + 1 != argc) {
		cli_error("resume: %s (see cyclops resume --help)",
			  i >= argc ? "no checkpoint directory given" : "one directory, please");
		return CY_EXIT_USAGE;
	}
	dir = argv[i];
	status = checkpoints_resume(&r, dir, max_cycles, max_set);
	if (status == 0) {
		run_catch_interrupts(r.vm);
		r.t0 = run_now();
		progress_init(&r.progress, r.a.quiet);
		status = run_finish(&r, run_loop(&r));
	}
	checkpoints_free(&r);
	run_free(&r);
	free(r.a.guest_argv);
	free(r.a.inputs);
	return status;
}

/* cli_diff.c - "cyclops diff BASE NEW": two runs' profiles or reports
 * compared per function, line, stack and cycle-tracker span
 * (export/diff.c), as tables, an HTML page with a differential flame
 * graph, a pprof profile of the difference; a gate for CI. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_options.h"
#include "export/diff.h"

#define DEFAULT_TOP 20
/* the exit status of a regression past --fail-above */
#define DIFF_EXIT_REGRESSION 3

static int write_html(FILE *f, void *ctx)
{
	const struct diff_side *const *s = ctx;
	return diff_write_html(f, s[0], s[1]);
}

static int write_pprof(FILE *f, void *ctx)
{
	const struct diff_side *const *s = ctx;
	return diff_write_pprof(f, s[0], s[1]);
}

int cli_diff(int argc, char **argv)
{
	struct diff_side base, new_;
	const char *files[2] = { NULL, NULL }, *html = NULL, *pprof = NULL;
	uint64_t top = DEFAULT_TOP;
	double fail_above = -1;
	int n_files = 0, status = CY_EXIT_USAGE;
	char err[512], *end;

	for (int i = 1; i < argc; i++) {
		const char *v;
		int id;
		if (argv[i][0] != '-' || !argv[i][1]) {
			if (n_files == 2) {
				cli_error("diff: two files, BASE and NEW; '%s' is a third",
					  argv[i]);
				return CY_EXIT_USAGE;
			}
			files[n_files++] = argv[i];
			continue;
		}
		id = cli_next_option(&cli_diff_command, argc, argv, &i, &v);
		if (id < 0)
			return CY_EXIT_USAGE;
		switch (id) {
		case DIFF_HELP: cli_print_help(stdout, &cli_diff_command); return 0;
		case DIFF_TOP:
			if (!v || cli_parse_count(v, &top) != 0) {
				cli_error("diff: --top needs a number (0: every row), got '%s'",
					  v ? v : "");
				return CY_EXIT_USAGE;
			}
			break;
		case DIFF_HTML:
		case DIFF_PPROF:
			if (!v || !*v) {
				cli_error("diff: --%s needs a file name",
					  id == DIFF_HTML ? "html" : "pprof");
				return CY_EXIT_USAGE;
			}
			*(id == DIFF_HTML ? &html : &pprof) = v;
			break;
		case DIFF_FAIL_ABOVE:
			fail_above = v ? strtod(v, &end) : -1;
			if (!v || !*v || *end || !(fail_above >= 0)) {
				cli_error(
				    "diff: --fail-above needs a percentage (0 or more), got '%s'",
				    v ? v : "");
				return CY_EXIT_USAGE;
			}
			break;
		}
	}
	if (n_files != 2) {
		cli_error("diff: two files are needed, BASE and NEW (see cyclops diff --help)");
		return CY_EXIT_USAGE;
	}
	for (int k = 0; k < 2; k++)
		if ((k ? html : pprof) &&
		    text_check_output(k ? "the page" : "the profile", k ? html : pprof, err,
				      sizeof(err)) != 0) {
			cli_error("diff: %s", err);
			return CY_EXIT_USAGE;
		}
	if (diff_read(&base, files[0], err, sizeof(err)) != 0) {
		cli_error("diff: %s", err);
		return 1;
	}
	if (diff_read(&new_, files[1], err, sizeof(err)) != 0) {
		cli_error("diff: %s", err);
		diff_side_free(&base);
		return 1;
	}
	status = 0;
	if (pprof && (!base.is_pprof || !new_.is_pprof)) {
		cli_error("diff: --pprof needs two pprof profiles (.pb.gz); %s is %s",
			  base.is_pprof ? files[1] : files[0],
			  base.is_pprof ? new_.format : base.format);
		status = CY_EXIT_USAGE;
		goto out_free;
	}
	if (fail_above >= 0 && !(base.has_total && new_.has_total)) {
		cli_error("diff: --fail-above needs the runs' totals, and %s has none",
			  base.has_total ? files[1] : files[0]);
		status = CY_EXIT_USAGE;
		goto out_free;
	}
	diff_write_text(stdout, &base, &new_, (size_t)top, cli_use_colour(stdout));
	const struct diff_side *sides[2] = { &base, &new_ };
	int rc;
	if (html && (rc = text_write_file(html, write_html, sides)) != 0) {
		cli_error("diff: cannot write the page to '%s': %s", html, strerror(-rc));
		status = 1;
	}
	if (pprof && (rc = text_write_file(pprof, write_pprof, sides)) != 0) {
		cli_error("diff: cannot write the profile to '%s': %s", pprof, strerror(-rc));
		status = 1;
	}
	if (fflush(stdout) != 0 && !status)
		status = 1;
	if (!status && fail_above >= 0 &&
	    (double)new_.total > (double)base.total * (1 + fail_above / 100)) {
		cli_error("diff: %llu cycles, %.2f%% more than %llu: above --fail-above %g%%",
			  (unsigned long long)new_.total,
			  base.total ? 100.0 * ((double)new_.total - (double)base.total) /
					   (double)base.total
				     : 100.0,
			  (unsigned long long)base.total, fail_above);
		status = DIFF_EXIT_REGRESSION;
	}
out_free:
	diff_side_free(&base);
	diff_side_free(&new_);
	return status;
}

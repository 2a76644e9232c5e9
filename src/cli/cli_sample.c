/* cli_sample.c - the sampling options of "cyclops run" (--sample[=N],
 * --sample-out, --out-dir) and saving the histogram when the run ends. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_options.h"

#define DEFAULT_SAMPLE_FILE "cyclops.samples"
#define MAX_INTERVAL        (1ull << 32)

int cli_parse_sample_option(int id, const char *o, const char *v, bool *sample, uint64_t *interval,
			    const char **sample_out, const char **out_dir)
{
	struct stat st;

	switch (id) {
	case RUN_SAMPLE:
		if (v && (cli_parse_count(v, interval) != 0 || *interval == 0 ||
			  *interval > MAX_INTERVAL)) {
			cli_error("run: --sample=N needs a number of cycles from 1 to 4G, got '%s'",
				  v);
			return -1;
		}
		*sample = true;
		break;
	case RUN_SAMPLE_OUT:
		if (!v || !*v) {
			cli_error("run: --sample-out needs a file name");
			return -1;
		}
		*sample_out = v;
		break;
	case RUN_OUT_DIR:
		if (!v || !*v) {
			cli_error("run: --out-dir needs a directory");
			return -1;
		}
		if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
			cli_error("run: --out-dir %s: not a directory", v);
			return -1;
		}
		*out_dir = v;
		break;
	default: cli_error("run: unknown option '%s' (see cyclops run --help)", o); return -1;
	}
	return 0;
}

int cli_save_samples(cy_vm *vm, const char *sample_out, const char *out_dir, bool quiet)
{
	char path[4096], err[512];

	if (sample_out)
		snprintf(path, sizeof(path), "%s", sample_out);
	else
		snprintf(path, sizeof(path), "%s/%s", out_dir ? out_dir : ".", DEFAULT_SAMPLE_FILE);
	if (!cy_vm_sampling(vm)) {
		if (!quiet)
			cli_error("warning: no histogram to save to %s: the guest stopped "
				  "sampling",
				  path);
		return 0;
	}
	if (cy_vm_sample_save(vm, path, err, sizeof(err)) != 0) {
		cli_error("run: cannot save the histogram: %s", err);
		return -1;
	}
	return 0;
}

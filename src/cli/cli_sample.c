/* cli_sample.c - the sampling options of "cyclops run" (--sample[=N],
 * --sample-out, --out-dir) and saving the histogram when the run ends. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

#define DEFAULT_SAMPLE_FILE "cyclops.samples"
#define MAX_INTERVAL        (1ull << 32)

/* The value of --NAME=V or --NAME V; NULL if missing. */
static const char *value_of(int argc, char **argv, int *i, size_t name_len)
{
	const char *o = argv[*i];

	if (o[name_len] == '=')
		return o + name_len + 1;
	return *i + 1 < argc ? argv[++*i] : NULL;
}

int cli_parse_sample_option(int argc, char **argv, int *i, bool *sample, uint64_t *interval,
			    const char **sample_out, const char **out_dir)
{
	const char *o = argv[*i], *v;
	struct stat st;

	if (strcmp(o, "--sample") == 0) {
		*sample = true;
	} else if (strncmp(o, "--sample=", 9) == 0) {
		if (cli_parse_count(o + 9, interval) != 0 || *interval == 0 ||
		    *interval > MAX_INTERVAL) {
			cli_error("run: --sample=N needs a number of cycles from 1 to 4G, got '%s'",
				  o + 9);
			return -1;
		}
		*sample = true;
	} else if (strcmp(o, "--sample-out") == 0 || strncmp(o, "--sample-out=", 13) == 0) {
		v = value_of(argc, argv, i, 12);
		if (!v || !*v) {
			cli_error("run: --sample-out needs a file name");
			return -1;
		}
		*sample_out = v;
	} else if (strcmp(o, "--out-dir") == 0 || strncmp(o, "--out-dir=", 10) == 0) {
		v = value_of(argc, argv, i, 9);
		if (!v || !*v) {
			cli_error("run: --out-dir needs a directory");
			return -1;
		}
		if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
			cli_error("run: --out-dir %s: not a directory", v);
			return -1;
		}
		*out_dir = v;
	} else {
		cli_error("run: unknown option '%s' (see cyclops run --help)", o);
		return -1;
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

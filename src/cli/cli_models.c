/* cli_models.c - "cyclops models": lists the cost models --model finds, one
 * line each with its description and file. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
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

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		puts("usage: cyclops models\n\nLists the cost models in the model directories "
		     "($CYCLOPS_MODELS, else\nmodels/ beside the program's directory). "
		     "cyclops run --model NAME uses one;\n--model PATH reads any model file.");
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

/* The guest's saves under --guest-saves (docs/sampling.md): each mode makes
 * calls a hostile or careless guest would and prints every result code.
 *	saves.elf many N        save s0.samples ... s(N-1).samples
 *	saves.elf name NAME...  save under each NAME
 *	saves.elf misuse N      N pauses without a histogram (CY_ENO_BUFFER) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclops/sample.h"

int main(int argc, char **argv)
{
	char name[32];

	if (argc < 3)
		return 2;
	if (!strcmp(argv[1], "misuse")) {
		int n = atoi(argv[2]), failed = 0;
		for (int i = 0; i < n; i++)
			failed += cy_sample_pause() == CY_ENO_BUFFER;
		printf("misuse %d of %d\n", failed, n);
		return 0;
	}
	if (cy_sample_start() != 0)
		return 1;
	if (!strcmp(argv[1], "many")) {
		for (int i = 0, n = atoi(argv[2]); i < n; i++) {
			snprintf(name, sizeof(name), "s%d.samples", i);
			printf("%s %d\n", name, cy_sample_save_to(name));
		}
	} else {
		for (int i = 2; i < argc; i++)
			printf("%s %d\n", argv[i], cy_sample_save_to(argv[i]));
	}
	return 0;
}

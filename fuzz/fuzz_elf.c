/* fuzz_elf.c - the ELF loader: arbitrary bytes as a program file. Creating
 * the VM reads every header, copies the segments, keeps the symbols and
 * builds the initial stack; a refusal must be a message, never a crash. */
#include <stdint.h>
#include <stdlib.h>

#include "cyclops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cy_opts opts;
	cy_vm *vm = NULL;
	char err[512];

	cy_opts_init(&opts);
	opts.quiet = true;
	if (cy_vm_create_from_bytes(&vm, data, size, "fuzz.elf", &opts, err, sizeof(err)) == 0)
		cy_vm_destroy(vm);
	return 0;
}

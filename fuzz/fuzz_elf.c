/* fuzz_elf.c - the ELF loader: arbitrary bytes as a program file. Creating
 * the VM reads every header, copies the segments, keeps the symbols and
 * builds the initial stack (with sampling on, the program's identity is
 * taken too, as cyclops hist takes it from --elf); a refusal must be a
 * message, never a crash. A program that loads runs for a few cycles. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "cyclops.h"
#include "cyclops_samples.h"

#define RUN_CYCLES 1000

static int null_fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	null_fd = open("/dev/null", O_RDWR);
	if (null_fd < 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cy_elf_identity id;
	cy_opts opts;
	cy_vm *vm = NULL;
	char err[512];

	cy_elf_identity_of(data, size, &id, err, sizeof(err));
	cy_opts_init(&opts);
	opts.quiet = true;
	opts.sample = true;
	opts.stdin_fd = opts.stdout_fd = opts.stderr_fd = null_fd;
	opts.max_cycles = RUN_CYCLES;
	/* a guest's cy_sample_save is refused: no file name is allowed out of
	 * a directory that does not exist */
	opts.out_dir = "/nonexistent/cyclops-fuzz";
	if (cy_vm_create_from_bytes(&vm, data, size, "fuzz.elf", &opts, err, sizeof(err)) == 0) {
		cy_vm_run(vm, UINT64_MAX);
		cy_vm_destroy(vm);
	}
	return 0;
}

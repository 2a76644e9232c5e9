/* fuzz_exec.c - the decoder and the interpreter: arbitrary bytes as code
 * (libriscv's fuzz/ does the same). The first byte picks the platform and
 * the observers, the rest is one executable segment at 0x10000 wrapped in
 * a minimal ELF; the guest runs for a bounded number of cycles. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cyclops.h"
#include "mini_elf.h"
#include "observe/callstack.h"

#define MAX_CODE   65536
#define MAX_CYCLES 20000

/* Flag bits of the first input byte. */
#define PICK_BARE    0x01 /* machine mode, traps, timer */
#define PICK_TRACKER 0x02 /* cycle tracker on the guest's output */
#define PICK_TIMERS  0x04 /* channel timers */
#define PICK_SAMPLE  0x08 /* PC sampling from cycle 0 */
#define PICK_PROFILE 0x10 /* the call-stack profiler (observed build) */
#define PICK_ZKVM    0x20 /* the SP1 syscall ABI */

static uint8_t image[MINI_ELF_HEADERS + MAX_CODE];
static int null_fd = -1;
static char out_dir[] = "/tmp/cyclops-fuzz-exec.XXXXXX";

/* An ET_EXEC RV32 ELF with one RWX PT_LOAD segment holding code. */
static size_t wrap(const uint8_t *code, size_t n) { return mini_elf(image, code, n, 7); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	null_fd = open("/dev/null", O_RDWR);
	/* a guest's cy_sample_save writes there, not into the working directory */
	if (null_fd < 0 || !mkdtemp(out_dir))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const argv[] = { "fuzz", "arg", NULL };
	cy_opts opts;
	cy_vm *vm = NULL;
	cy_callstack *cs = NULL;
	char err[512];
	uint8_t pick;

	if (size < 1 || size - 1 > MAX_CODE)
		return 0;
	pick = data[0];
	cy_opts_init(&opts);
	opts.quiet = true;
	opts.max_cycles = MAX_CYCLES;
	opts.argc = 2;
	opts.argv = argv;
	opts.stdin_fd = opts.stdout_fd = opts.stderr_fd = null_fd;
	opts.out_dir = out_dir;
	opts.guest_saves = true;
	opts.platform = pick & PICK_BARE ? CY_PLATFORM_BARE : CY_PLATFORM_LINUX;
	opts.ram = "0x80000000:64K";
	opts.abi = pick & PICK_ZKVM && !(pick & PICK_BARE) ? CY_ABI_SP1 : CY_ABI_LINUX;
	opts.cycle_tracker = pick & PICK_TRACKER;
	opts.timers = pick & PICK_TIMERS;
	opts.sample = pick & PICK_SAMPLE;
	opts.sample_interval = 7;
	if (cy_vm_create_from_bytes(&vm, image, wrap(data + 1, size - 1), "fuzz.elf", &opts, err,
				    sizeof(err)) != 0)
		return 0;
	if (pick & PICK_PROFILE) {
		if (cy_callstack_attach(vm, &cs) != 0)
			goto out_destroy;
		/* limits a short run reaches: the paths past them get fuzzed too */
		callstack_set_limits(cs, 64, 256, 16);
	}
	while (cy_vm_run(vm, 997) == CY_STOP_NONE)
		;
	if (cs) {
		size_t n;
		cy_callstack_limits limits;
		cy_callstack_nodes(cs, &n);
		cy_callstack_pcs(cs, &n);
		cy_callstack_calls(cs, &n);
		cy_callstack_truncated(cs, &limits);
	}
	if (opts.cycle_tracker) {
		size_t n;
		cy_vm_tracker_spans(vm, &n);
		cy_vm_tracker_issues(vm, &n);
	}
	if (opts.timers) {
		size_t n;
		cy_vm_timers(vm, &n);
		cy_vm_timer_slices(vm, &n);
	}
out_destroy:
	cy_vm_destroy(vm);
	cy_callstack_free(cs);
	return 0;
}

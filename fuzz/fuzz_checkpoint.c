/* fuzz_checkpoint.c - the checkpoint reader and every module's restore
 * (api/checkpoint.c, util/state_io.c and the state function beside each
 * module): arbitrary bytes as a checkpoint or a chunk's results, restored
 * into a VM whose options the first byte picks; the VM then runs a bounded
 * number of cycles and hands out every result, so that a state the checks
 * let through is also used.
 *
 * The first byte's low bits pick the options as fuzz_exec does; its top
 * two bits how the rest is read: a file as it is (mostly refused by the
 * checksum), the contents of a checkpoint wrapped in a right header and
 * checksums (what lies behind them gets fuzzed), or the contents of a
 * chunk's results merged into a fast pass's VM. With FUZZ_CHECKPOINT_SEEDS
 * set to a directory, the harness writes seeds there from real runs of its
 * program and exits (fuzz/corpus/checkpoint holds them). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/checkpoint.h"
#include "cyclops.h"
#include "mini_elf.h"

#define MAX_CYCLES 20000
#define MAX_RAW    (1u << 20)

#define PICK_BARE    0x01
#define PICK_TRACKER 0x02
#define PICK_TIMERS  0x04
#define PICK_SAMPLE  0x08
#define PICK_PROFILE 0x10
#define PICK_ZKVM    0x20
#define MODE_SHIFT   6
enum { MODE_FILE, MODE_CONTENTS, MODE_CHUNK, MODE_DELTA };

/* The program: main calls f forever; f counts in a0 and stores it. */
static const uint32_t code[] = {
	0x008000efu, /* 0x10000: jal ra, f */
	0xffdff06fu, /* 0x10004: j 0x10000 */
	0x00150513u, /* 0x10008: f: addi a0, a0, 1 */
	0x10a02023u, /* 0x1000c: sw a0, 256(zero) */
	0x00008067u, /* 0x10010: ret */
};

static uint8_t image[MINI_ELF_HEADERS + sizeof(code)];
static int null_fd = -1;

static void make_image(void) { mini_elf(image, code, sizeof(code), 5); }

static cy_vm *make_vm(uint8_t pick, bool fast_pass)
{
	static const char *const argv[] = { "fuzz", NULL };
	cy_opts opts;
	cy_vm *vm = NULL;
	char err[512];

	cy_opts_init(&opts);
	opts.quiet = true;
	opts.max_cycles = MAX_CYCLES;
	opts.argc = 1;
	opts.argv = argv;
	opts.stdin_fd = opts.stdout_fd = opts.stderr_fd = null_fd;
	opts.platform = pick & PICK_BARE ? CY_PLATFORM_BARE : CY_PLATFORM_LINUX;
	opts.ram = "0x80000000:64K";
	opts.abi = pick & PICK_ZKVM && !(pick & PICK_BARE) ? CY_ABI_SP1 : CY_ABI_LINUX;
	opts.cycle_tracker = pick & PICK_TRACKER;
	opts.timers = pick & PICK_TIMERS;
	opts.sample = pick & PICK_SAMPLE;
	opts.sample_interval = 7;
	opts.fast_pass = fast_pass;
	if (cy_vm_create_from_bytes(&vm, image, sizeof(image), "fuzz.elf", &opts, err,
				    sizeof(err)) != 0)
		return NULL;
	return vm;
}

/* Every result the VM and its profiler hand out. */
static void read_results(cy_vm *vm, cy_callstack *cs, uint8_t pick)
{
	size_t n;
	char err[300];

	if (cs) {
		cy_callstack_limits limits;
		cy_callstack_nodes(cs, &n);
		cy_callstack_pcs(cs, &n);
		cy_callstack_calls(cs, &n);
		cy_callstack_segments(cs, &n);
		cy_callstack_truncated(cs, &limits);
	}
	if (pick & PICK_TRACKER) {
		cy_vm_cycle_tracker(vm, &n);
		cy_vm_tracker_spans(vm, &n);
		cy_vm_tracker_issues(vm, &n);
	}
	if (pick & PICK_TIMERS) {
		cy_vm_timers(vm, &n);
		cy_vm_timer_steps(vm, &n);
		cy_vm_timer_slices(vm, &n);
		cy_vm_timer_issues(vm, &n);
	}
	if (cy_vm_sampling(vm))
		cy_vm_sample_save(vm, "/dev/null", err, sizeof(err));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Seeds from real runs: each mode for a few picks. */
static void write_seed(const char *dir, const char *name, uint8_t first, const void *p, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "wb")) || fwrite(&first, 1, 1, f) != 1 || fwrite(p, 1, n, f) != n)
		abort();
	fclose(f);
}

static void make_seeds(const char *dir)
{
	static const uint8_t picks[] = { 0, PICK_TRACKER | PICK_TIMERS | PICK_SAMPLE | PICK_PROFILE,
					 PICK_BARE | PICK_SAMPLE, PICK_ZKVM | PICK_PROFILE };

	for (size_t i = 0; i < sizeof(picks); i++) {
		uint8_t pick = picks[i], *blob, *res;
		size_t size, res_size, raw_len;
		cy_callstack *cs = NULL;
		cy_checkpoint *ck;
		char err[300], name[64];
		cy_vm *vm = make_vm(pick, false);
		if (!vm || ((pick & PICK_PROFILE) && cy_callstack_attach(vm, &cs) != 0))
			abort();
		cy_vm_run(vm, 5000);
		if (cy_checkpoint_cut(vm, cs, 1, true, NULL, 0, &blob, &size, NULL, err,
				      sizeof(err)))
			abort();
		snprintf(name, sizeof(name), "file-%02x", pick);
		write_seed(dir, name, pick | MODE_FILE << MODE_SHIFT, blob, size);
		if (cy_checkpoint_open(blob, size, "seed", &ck, err, sizeof(err)) != 0)
			abort();
		const uint8_t *raw = checkpoint_contents(ck, &raw_len);
		snprintf(name, sizeof(name), "contents-%02x", pick);
		write_seed(dir, name, pick | MODE_CONTENTS << MODE_SHIFT, raw, raw_len);
		cy_checkpoint_close(ck);
		free(blob);
		cy_vm_run(vm, 3000);
		if (cy_chunk_results(vm, cs, 1, &res, &res_size) != 0 ||
		    cy_checkpoint_open(res, res_size, "seed", &ck, err, sizeof(err)) != 0)
			abort();
		raw = checkpoint_contents(ck, &raw_len);
		snprintf(name, sizeof(name), "chunk-%02x", pick);
		write_seed(dir, name, pick | MODE_CHUNK << MODE_SHIFT, raw, raw_len);
		cy_checkpoint_close(ck);
		free(res);
		cy_vm_destroy(vm);
		cy_callstack_free(cs);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *seeds = getenv("FUZZ_CHECKPOINT_SEEDS");

	(void)argc;
	(void)argv;
	make_image();
	checkpoint_max_raw = MAX_RAW;
	null_fd = open("/dev/null", O_RDWR);
	if (null_fd < 0)
		abort();
	if (seeds) {
		make_seeds(seeds);
		exit(0);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t pick, mode, *blob = NULL;
	size_t blob_size;
	cy_callstack *cs = NULL;
	cy_checkpoint *ck = NULL;
	cy_vm *vm;
	char err[600];

	if (size < 1 || size - 1 > MAX_RAW)
		return 0;
	pick = data[0] & 0x3f;
	mode = data[0] >> MODE_SHIFT;
	if (mode == MODE_FILE) {
		blob = malloc(size);
		if (!blob)
			abort();
		memcpy(blob, data + 1, size - 1);
		blob_size = size - 1;
	} else if (checkpoint_wrap(data + 1, size - 1, mode == MODE_CHUNK, 2,
				   mode == MODE_DELTA ? 1 : 0, &blob, &blob_size) != 0) {
		abort();
	}
	vm = make_vm(pick, mode == MODE_CHUNK);
	if (!vm)
		goto out;
	if ((pick & PICK_PROFILE) &&
	    cy_callstack_attach_mode(
		vm, mode == MODE_CHUNK ? CY_CALLSTACK_DETACHED : CY_CALLSTACK_WHOLE, &cs) != 0)
		goto out;
	if (mode == MODE_CHUNK) {
		if (cy_chunk_merge(vm, cs, blob, blob_size, err, sizeof(err)) == 0)
			read_results(vm, cs, pick);
		goto out;
	}
	if (cy_checkpoint_open(blob, blob_size, "fuzz.cyc", &ck, err, sizeof(err)) != 0 ||
	    cy_vm_restore_memory(vm, ck, err, sizeof(err)) != 0 ||
	    cy_vm_restore_state(vm, cs, ck, err, sizeof(err)) != 0)
		goto out;
	while (cy_vm_run(vm, 997) == CY_STOP_NONE)
		;
	read_results(vm, cs, pick);
out:
	cy_checkpoint_close(ck);
	cy_vm_destroy(vm);
	cy_callstack_free(cs);
	free(blob);
	return 0;
}

/* test_tracker_memory.c - what the cycle tracker itself holds while a
 * guest floods it with output: its own heap (tracker_heap_bytes), not the
 * process's RSS, which also counts guest pages the kernel may back when
 * the host reads them. Run from the top of the tree after `make guest`.
 * Prints "ok - ..." / "not ok - ..." lines. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/state.h"
#include "observe/tracker.h"
#include "unit_check.h"

/* writes 1 GiB in four writes of 256 MiB (tests/faults/flood.S) */
#define FLOOD_ELF "tests/faults/build/flood.elf"
/* The VM hands the tracker 64 KiB at a time: its echo buffer, two line
 * buffers of at most 4 KiB and its tables come to well under this. */
#define HELD_MAX (512u << 10)

/* The control: given one write of 1 MiB at once, a quiet tracker holds it
 * all in its echo buffer, and the count must show that. */
static void test_count_sees_a_big_write(void)
{
	struct tracker *t = tracker_new(true);
	size_t len = 1u << 20, n;
	uint8_t *buf = malloc(len);
	const uint8_t *echo;
	char got[64];

	if (!t || !buf)
		exit(1);
	memset(buf, 'x', len);
	tracker_write(t, TRACKER_STDOUT, buf, len, 0, &echo, &n);
	snprintf(got, sizeof(got), "%zu", tracker_heap_bytes(t));
	check(tracker_heap_bytes(t) >= len, got, ">= 1048576",
	      "tracker memory: one 1 MiB write in quiet mode is held whole, and counted");
	free(buf);
	tracker_free(t);
}

static void test_flood(void)
{
	char err[512], got[64];
	cy_opts opts;
	cy_vm *vm;
	cy_stop stop;
	size_t held;

	cy_opts_init(&opts);
	opts.quiet = true;
	opts.cycle_tracker = true;
	opts.cycle_tracker_quiet = true;
	opts.stdout_fd = open("/dev/null", O_WRONLY);
	if (opts.stdout_fd < 0 || cy_vm_create_from_file(&vm, FLOOD_ELF, &opts, err, sizeof(err))) {
		printf("not ok - tracker memory: %s\n", opts.stdout_fd < 0 ? "/dev/null" : err);
		failures++;
		return;
	}
	stop = cy_vm_run(vm, UINT64_MAX);
	check(stop == CY_STOP_EXIT && cy_vm_exit_code(vm) == 0, cy_vm_stop_message(vm), "exit 0",
	      "tracker memory: flood.elf writes 1 GiB through the quiet tracker and exits 0");
	held = tracker_heap_bytes(vm->tracker);
	snprintf(got, sizeof(got), "%zu", held);
	check(held < HELD_MAX, got, "< 524288",
	      "tracker memory: after 1 GiB of output the tracker holds %zu KiB", held >> 10);
	cy_vm_destroy(vm);
	close(opts.stdout_fd);
}

int main(void)
{
	test_count_sees_a_big_write();
	test_flood();
	return failures ? 1 : 0;
}

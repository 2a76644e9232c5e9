/* test_interrupt.c - stopping a run early through the API: cy_vm_interrupt
 * before a run and from a signal handler during one (docs/robustness.md),
 * and opts.max_memory. Run from the top of the tree after `make guest`.
 * Prints "ok - ..." / "not ok - ..." lines. */
#include <signal.h>
#include <string.h>
#include <sys/time.h>

#include "cyclops.h"
#include "unit_check.h"

#define SPIN_ELF  "tests/faults/build/spin.elf"
#define TOUCH_ELF "tests/faults/build/touch.elf"

static cy_vm *volatile alarm_vm;

static void on_alarm(int signo)
{
	if (alarm_vm)
		cy_vm_interrupt(alarm_vm, signo);
}

static cy_vm *create(const char *path, uint64_t max_memory, cy_engine engine)
{
	char err[512];
	cy_opts opts;
	cy_vm *vm;

	cy_opts_init(&opts);
	opts.quiet = true;
	opts.max_memory = max_memory;
	opts.engine = engine;
	if (cy_vm_create_from_file(&vm, path, &opts, err, sizeof(err)) != 0) {
		check(false, err, "a VM", "interrupt: create %s", path);
		return NULL;
	}
	return vm;
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Asked before it runs, the guest retires nothing, and stays stopped. */
static void before_run(int why, const char *want)
{
	cy_vm *vm = create(SPIN_ELF, 0, CY_ENGINE_DEFAULT);
	cy_stop stop;

	if (!vm)
		return;
	cy_vm_interrupt(vm, why);
	stop = cy_vm_run(vm, UINT64_MAX);
	check(stop == CY_STOP_INTERRUPTED && cy_vm_cycles(vm) == 0, cy_vm_stop_message(vm), want,
	      "interrupt: asked before the run (why %d): stops at once", why);
	check(strcmp(cy_vm_stop_message(vm), want) == 0, cy_vm_stop_message(vm), want,
	      "interrupt: the message names the reason and the place (why %d)", why);
	check(cy_vm_run(vm, 100) == CY_STOP_INTERRUPTED && cy_vm_cycles(vm) == 0, "ran on",
	      "stays stopped", "interrupt: a later run returns the stop again");
	cy_vm_destroy(vm);
}

/* From SIGALRM 50 ms into an endless loop. The interpreter returns at a
 * slice end, a multiple of CY_INTERRUPT_CYCLES under the unit model; the
 * translation tier's driver also looks between its regions' runs, so it
 * may stop sooner (docs/api.md promises within CY_INTERRUPT_CYCLES, at an
 * instruction boundary, which the message's instruction shows). */
static void from_handler(cy_engine engine)
{
	struct sigaction sa;
	struct itimerval it = { .it_value = { .tv_usec = 50000 } };
	cy_vm *vm = create(SPIN_ELF, 0, engine);
	cy_stop stop;
	char got[300];

	if (!vm)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm_vm = vm;
	setitimer(ITIMER_REAL, &it, NULL);
	stop = cy_vm_run(vm, UINT64_MAX);
	alarm_vm = NULL;
	snprintf(got, sizeof(got), "stop %d after %llu cycles: %s", stop,
		 (unsigned long long)cy_vm_cycles(vm), cy_vm_stop_message(vm));
	if (engine == CY_ENGINE_INTERP)
		check(stop == CY_STOP_INTERRUPTED && cy_vm_cycles(vm) > 0 &&
			  cy_vm_cycles(vm) % CY_INTERRUPT_CYCLES == 0,
		      got, "interrupted at a multiple of 2^20 cycles",
		      "interrupt: from a signal handler during the interpreter's run");
	else
		check(stop == CY_STOP_INTERRUPTED && cy_vm_cycles(vm) > 0, got,
		      "interrupted after some cycles",
		      "interrupt: from a signal handler during the default engine's run");
	check(starts_with(cy_vm_stop_message(vm), "interrupted by signal 14 at 0x0001000"), got,
	      "interrupted by signal 14 at 0x0001000...",
	      "interrupt: a signal without a name is given by number (%s)",
	      engine == CY_ENGINE_INTERP ? "interpreter" : "default engine");
	cy_vm_destroy(vm);
}

/* touch.elf touches 64 MiB: a 1 MiB limit stops it, a fault. */
static void memory_limit(void)
{
	cy_vm *vm = create(TOUCH_ELF, 1u << 20, CY_ENGINE_DEFAULT);
	cy_stop stop;

	if (!vm)
		return;
	stop = cy_vm_run(vm, UINT64_MAX);
	check(stop == CY_STOP_FAULT && cy_vm_fault(vm) == CY_FAULT_MEMORY_LIMIT &&
		  cy_vm_touched_bytes(vm) > (1u << 20),
	      cy_vm_stop_message(vm), "a memory-limit fault past 1 MiB",
	      "interrupt: opts.max_memory stops a guest that touches more");
	check(starts_with(cy_vm_stop_message(vm), "memory limit of 1048576 bytes exceeded"),
	      cy_vm_stop_message(vm), "memory limit of 1048576 bytes exceeded...",
	      "interrupt: the memory-limit message");
	cy_vm_destroy(vm);
}

int main(void)
{
	before_run(SIGTERM, "interrupted by SIGTERM at 0x00010000 <_start>: addi x5,x0,0");
	before_run(0, "interrupted at 0x00010000 <_start>: addi x5,x0,0");
	from_handler(CY_ENGINE_INTERP);
	from_handler(CY_ENGINE_DEFAULT);
	memory_limit();
	return failures ? 1 : 0;
}

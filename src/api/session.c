/* session.c - the embedding API: creating a VM from an ELF with its ABI, cost
 * model and profilers, running it in bounded slices, and the cycle
 * tracker's results. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "abi/abi.h"
#include "abi/zkvm.h"
#include "core/block.h"
#include "core/elf_load.h"
#include "core/engine.h"
#include "core/exec.h"
#include "core/jit.h"
#include "core/machine.h"
#include "core/prot.h"
#include "core/vm.h"
#include "core/vm_state.h"
#include "cost/cost.h"
#include "cost/model.h"
#include "observe/sample.h"
#include "observe/timer.h"
#include "observe/tracker.h"
#include "util/file.h"

#define DEFAULT_STACK_SIZE (8u << 20)

/* The cycle tracker as the guest output's filter (core/output.h). */
_Static_assert((int)TRACKER_STDOUT == (int)OUTPUT_STDOUT &&
		   (int)TRACKER_STDERR == (int)OUTPUT_STDERR,
	       "the tracker's streams are the output's");
static int tracker_filter_write(void *ctx, enum output_stream stream, const uint8_t *buf,
				size_t len, uint64_t clock, const uint8_t **echo, size_t *echo_len)
{
	return tracker_write(ctx, (enum tracker_stream)stream, buf, len, clock, echo, echo_len);
}

static void tracker_filter_take_held(void *ctx, enum output_stream stream, const uint8_t **buf,
				     size_t *len)
{
	tracker_take_held(ctx, (enum tracker_stream)stream, buf, len);
}

void cy_opts_init(cy_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->stdin_fd = 0;
	opts->stdout_fd = 1;
	opts->stderr_fd = 2;
	opts->stack_size = DEFAULT_STACK_SIZE;
	opts->chunk_cycles = CY_DEFAULT_CHUNK_CYCLES;
}

int cy_opts_check(const cy_opts *opts, char *err, size_t err_size)
{
	return machine_check_options(opts, err, err_size);
}

cy_opts *cy_opts_with_cycle_tracker(cy_opts *opts)
{
	opts->cycle_tracker = true;
	return opts;
}

/* Loads opts->model (unit when unset) with its segment size override. */
static int set_model(struct cy_vm *vm, char *err, size_t err_size)
{
	const cy_opts *o = &vm->opts;
	int rc;

	if (o->model)
		rc = cost_model_load(&vm->model, o->model, err, err_size);
	else
		rc = (cost_model_unit(&vm->model), 0);
	if (rc == 0 && o->segment_po2) {
		if (!vm->model.paging) {
			snprintf(err, err_size, "model %s has no segments (segment po2 %u)",
				 vm->model.name, o->segment_po2);
			return -EINVAL;
		}
		if (o->segment_po2 < 13 || o->segment_po2 > 24) {
			snprintf(err, err_size, "segment po2 %u is outside 13..24", o->segment_po2);
			return -EINVAL;
		}
		vm->model.segment_po2 = o->segment_po2;
	}
	if (rc == 0)
		rc = cost_init(vm, err, err_size);
	return rc;
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whether the program runs on the bare platform (docs/bare-metal.md). */
static bool is_bare(const struct cy_vm *vm)
{
	if (vm->opts.platform == CY_PLATFORM_AUTO)
		return machine_detect(vm);
	return vm->opts.platform == CY_PLATFORM_BARE;
}

/* Firmware has no syscall ABI: its ecalls trap to mtvec. */
static int setup_bare(struct cy_vm *vm, char *why, size_t n)
{
	if (vm->opts.abi != CY_ABI_AUTO && vm->opts.abi != CY_ABI_LINUX) {
		snprintf(why, n, "the bare platform has no syscall ABI (--abi %s)",
			 cy_abi_name(vm->opts.abi));
		return -EINVAL;
	}
	vm->opts.abi = CY_ABI_LINUX; /* unused: no ecall reaches it */
	return machine_setup(vm, why, n);
}

int cy_vm_create_from_bytes(cy_vm **out, const void *elf, size_t size, const char *name,
			    const cy_opts *opts, char *err, size_t err_size)
{
	char why[200] = "";
	const char *default_argv[1] = { name };
	uint32_t entry = 0;
	cy_vm *vm;
	int rc;

	*out = NULL;
	vm = calloc(1, sizeof(*vm));
	if (!vm || !(vm->name = strdup(name))) {
		free(vm);
		snprintf(err, err_size, "%s: out of memory", name);
		return -ENOMEM;
	}
	vm->acct.deadline = ACCT_NO_DEADLINE;
	if (opts)
		vm->opts = *opts;
	else
		cy_opts_init(&vm->opts);
	if (vm->opts.argc == 0) {
		vm->opts.argc = 1;
		vm->opts.argv = default_argv;
	}
	if (vm->opts.stack_size < 65536 || vm->opts.stack_size > (256u << 20)) {
		snprintf(why, sizeof(why), "stack size %u is outside 64 KiB..256 MiB",
			 vm->opts.stack_size);
		rc = -EINVAL;
		goto out_destroy;
	}
	vm->opts.stack_size &= ~(MEM_PAGE - 1);
	if (vm->opts.chunk_cycles == 0)
		vm->opts.chunk_cycles = CY_DEFAULT_CHUNK_CYCLES;
	rc = mem_init(&vm->mem, elf_xlen(elf, size) == 64 ? MEM_SPACE_64 : MEM_SPACE_32);
	if (rc == 0)
		rc = cache_init(&vm->cache);
	if (rc != 0) {
		snprintf(why, sizeof(why), "cannot reserve guest memory: %s", strerror(-rc));
		goto out_destroy;
	}
	if (vm->opts.cycle_tracker && !(vm->tracker = tracker_new(vm->opts.cycle_tracker_quiet))) {
		snprintf(why, sizeof(why), "out of memory");
		rc = -ENOMEM;
		goto out_destroy;
	}
	if (vm->tracker)
		vm->output = (struct output_filter){ tracker_filter_write, tracker_filter_take_held,
						     vm->tracker };
	counters_init(vm);
	rc = set_model(vm, err, err_size);
	if (rc != 0) {
		cy_vm_destroy(vm);
		return rc;
	}
	if (vm->opts.timers) {
		uint64_t threshold = vm->opts.significant;
		if (threshold == 0)
			threshold = vm->model.paging ? vm->model.page_in : 1000;
		rc = timers_attach(vm, threshold, vm->opts.fast_pass, &vm->timers);
		if (rc != 0) {
			snprintf(why, sizeof(why), "out of memory");
			goto out_destroy;
		}
	}
	rc = elf_load(vm, elf, size, &entry, why, sizeof(why));
	if (rc == 0 && vm->xlen == 64 && vm->model.paging) {
		snprintf(why, sizeof(why),
			 "model %s pages a 32-bit machine's memory (RISC Zero's); an RV64 guest's "
			 "1 TiB cannot be priced with it: choose a model without paging",
			 vm->model.name);
		rc = -EINVAL;
	}
	if (rc == 0 && is_bare(vm))
		rc = setup_bare(vm, why, sizeof(why)); /* firmware sets up its own stack */
	if (rc == 0 && vm->opts.abi == CY_ABI_AUTO)
		vm->opts.abi = zkvm_detect(vm);
	vm->syscall = vm->opts.abi == CY_ABI_LINUX   ? syscall_linux
		      : vm->opts.abi == CY_ABI_RISC0 ? syscall_risc0
						     : syscall_zkvm;
	if (rc == 0 && !vm->machine && vm->opts.abi == CY_ABI_LINUX)
		rc = linux_setup_stack(vm, why, sizeof(why));
	else if (rc == 0 && !vm->machine)
		rc =
		    zkvm_setup(vm, vm->opts.abi, vm->opts.abi_version, elf, size, why, sizeof(why));
	if (rc == 0 && vm->tracker && vm->zkvm && vm->zkvm->abi == CY_ABI_SP1)
		tracker_set_rules(vm->tracker, vm->zkvm->flavor == ZKVM_SP1_V6 ? TRACKER_SP1_LINES
									       : TRACKER_SP1_WRITE);
	if (rc == 0 && (rc = sampler_new(vm, elf, size)) != 0)
		snprintf(why, sizeof(why), "out of memory");
	if (rc == 0 && vm->opts.abi == CY_ABI_LINUX) /* the guest's cy_sample_* calls */
		vm->ecall_ext = (struct ecall_extension){ SAMPLE_SYSCALL_FIRST, SAMPLE_SYSCALL_LAST,
							  sample_syscall };
	if (rc == 0 && vm->opts.sample && cy_vm_sample_start(vm) != 0) {
		snprintf(why, sizeof(why), "out of memory for the histogram");
		rc = -ENOMEM;
	}
	if (rc != 0)
		goto out_destroy;
	if (rc == 0 && vm->opts.engine != CY_ENGINE_INTERP && !vm->opts.reference &&
	    jit_attach(vm, why, sizeof(why)) != 0 && vm->opts.engine == CY_ENGINE_JIT) {
		rc = -ENOTSUP; /* asked for by name: a host without it is an error */
		goto out_destroy;
	}
	vm->opts.argv = NULL; /* the strings now live on the guest stack */
	vm->opts.envp = NULL;
	vm->pc = vm->last_pc = vm->entry = entry;
	vm->start_realtime_ns = realtime_ns();
	*out = vm;
	return 0;
out_destroy:
	snprintf(err, err_size, "%s: %s", name, why);
	cy_vm_destroy(vm);
	return rc;
}

int cy_vm_create_from_file(cy_vm **out, const char *path, const cy_opts *opts, char *err,
			   size_t err_size)
{
	char why[200];
	void *data;
	size_t size;
	int rc;

	*out = NULL;
	rc = file_read(path, &file_rules_elf, &data, &size, why, sizeof(why));
	if (rc != 0) {
		snprintf(err, err_size, "%s: %s", path, why);
		return rc;
	}
	rc = cy_vm_create_from_bytes(out, data, size, path, opts, err, err_size);
	free(data);
	return rc;
}

void cy_vm_destroy(cy_vm *vm)
{
	if (!vm)
		return;
	if (vm->tracker) {
		output_flush(vm);
		tracker_free(vm->tracker);
	}
	zkvm_free(vm);
	machine_free(vm);
	prot_free(vm);
	timers_free(vm->timers);
	sampler_free(vm);
	cache_free(&vm->cache);
	acct_free(vm);
	mem_snapshot_free(vm->memsnap);
	journal_free(&vm->journal);
	cost_free(vm);
	jit_free(vm);
	mem_free(&vm->mem);
	vm_misaligned_free(vm);
	symtab_free(&vm->syms);
	free(vm->name);
	free(vm);
}

int cy_vm_jit_take(cy_vm *vm, uint8_t **bytes, size_t *len)
{
	return jit_regions_take(vm, bytes, len);
}

int cy_vm_jit_load(cy_vm *vm, const void *bytes, size_t len)
{
	return jit_regions_load(vm, bytes, len);
}

void cy_vm_jit_compile_off(cy_vm *vm) { jit_compile_off(vm); }

/* "SIGINT" for the signals a user sends to stop a run; else the number. */
static void interrupt_reason(int why, char *buf, size_t size)
{
	static const struct {
		int signo;
		const char *name;
	} names[] = { { SIGINT, "SIGINT" },
		      { SIGTERM, "SIGTERM" },
		      { SIGHUP, "SIGHUP" },
		      { SIGQUIT, "SIGQUIT" } };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].signo == why) {
			snprintf(buf, size, "interrupted by %s", names[i].name);
			return;
		}
	snprintf(buf, size, why > 0 && why < NSIG ? "interrupted by signal %d" : "interrupted",
		 why);
}

/* NSIG, never a signal number, stands for "no signal" */
void cy_vm_interrupt(cy_vm *vm, int why) { vm->interrupt = why > 0 && why < NSIG ? why : NSIG; }

/* opts.max_memory: counting resident pages scans the whole reservation
 * (about a millisecond), so it is done between slices, often only near
 * the limit: the next check comes after half the pages left (a plain
 * instruction touches at most two new pages per cycle). */
#define MEMORY_CHECK_MIN (1ull << 16)
#define MEMORY_CHECK_MAX (1ull << 20)

static void check_memory(cy_vm *vm)
{
	uint64_t touched = mem_touched_bytes(&vm->mem), wait;
	char at[200];

	if (touched > vm->opts.max_memory) {
		vm_describe_at(vm, vm->pc, true, at, sizeof(at));
		vm->stop = CY_STOP_FAULT;
		vm->fault = CY_FAULT_MEMORY_LIMIT;
		snprintf(vm->stop_message, sizeof(vm->stop_message),
			 "memory limit of %llu bytes exceeded: the guest has touched %llu, at %s",
			 (unsigned long long)vm->opts.max_memory, (unsigned long long)touched, at);
		return;
	}
	wait = (vm->opts.max_memory - touched) / MEM_PAGE / 2;
	wait = wait < MEMORY_CHECK_MIN   ? MEMORY_CHECK_MIN
	       : wait > MEMORY_CHECK_MAX ? MEMORY_CHECK_MAX
					 : wait;
	vm->memory_check_at = vm->cycles + wait;
}

/* The clock --max-cycles lets the guest reach: the limit less the cycles
 * unconstrained blocks ran and the clock forgot, so that a guest cannot
 * run past the limit by rolling the clock back. */
static uint64_t clock_limit(const cy_vm *vm)
{
	if (!vm->opts.max_cycles)
		return UINT64_MAX;
	return vm->undone_cycles < vm->opts.max_cycles ? vm->opts.max_cycles - vm->undone_cycles
						       : 0;
}

/* A run that stops inside an unconstrained block: the block's cycles are
 * no part of the clock, so the clock the summary, the report and the
 * profiles show is the one at its start; the message says where it was. */
static void stopped_unaccounted(cy_vm *vm)
{
	static const char where[] = " (inside an unconstrained block)";
	size_t n = strlen(vm->stop_message);

	if (vm->unacc.started) {
		vm->undone_cycles += vm->cycles - vm->unacc.cycles;
		vm->cycles = vm->unacc.cycles;
		vm->instret = vm->unacc.instret;
	}
	if (n && n + sizeof(where) <= sizeof(vm->stop_message) &&
	    !strstr(vm->stop_message, "unconstrained block"))
		memcpy(vm->stop_message + n, where, sizeof(where));
}

cy_stop cy_vm_run(cy_vm *vm, uint64_t cycles)
{
	uint64_t requested = vm->cycles + cycles, budget;
	char at[200], why[48], undone[80] = "";

	if (requested < vm->cycles) /* saturate */
		requested = UINT64_MAX;
	if (vm->stop != CY_STOP_NONE)
		return vm->stop;
	vm->pause = false;
	/* slices, so that an interruption is seen within CY_INTERRUPT_CYCLES;
	 * a run that stops at a budget resumes exactly where it was */
	while (vm->stop == CY_STOP_NONE && !vm->interrupt && !vm->pause) {
		/* the limit again each time: an unconstrained block's end lowers
		 * it. A block runs to its end whatever was asked (its cycles are
		 * no part of the clock): only the limit, a stop or an
		 * interruption ends it */
		uint64_t limit = clock_limit(vm);
		budget = requested < limit && !vm->unacc.on ? requested : limit;
		if (vm->cycles >= budget)
			break;
		vm->clock_moved_back = false;
		if (vm->opts.max_memory && vm->cycles >= vm->memory_check_at) {
			check_memory(vm);
			if (vm->stop != CY_STOP_NONE)
				break;
		}
		uint64_t slice = budget - vm->cycles > CY_INTERRUPT_CYCLES
				     ? vm->cycles + CY_INTERRUPT_CYCLES
				     : budget;
		if (vm->opts.max_memory && vm->memory_check_at > vm->cycles &&
		    vm->memory_check_at < slice)
			slice = vm->memory_check_at;
		if (vm->sampler)
			sample_run(vm, slice);
		else
			engine_run(vm, slice);
	}
	/* a guest may touch its last pages between two checks and exit */
	if (vm->stop == CY_STOP_EXIT && vm->opts.max_memory)
		check_memory(vm);
	if (vm->stop == CY_STOP_NONE && vm->interrupt) {
		vm_describe_at(vm, vm->pc, true, at, sizeof(at));
		interrupt_reason(vm->interrupt, why, sizeof(why));
		vm->stop = CY_STOP_INTERRUPTED;
		snprintf(vm->stop_message, sizeof(vm->stop_message), "%s at %s", why, at);
	}
	if (vm->stop == CY_STOP_NONE && vm->opts.max_cycles && vm->cycles >= clock_limit(vm)) {
		uint64_t in_blocks =
		    vm->undone_cycles +
		    (vm->unacc.on && vm->unacc.started ? vm->cycles - vm->unacc.cycles : 0);
		vm_describe_at(vm, vm->pc, true, at, sizeof(at));
		vm->stop = CY_STOP_CYCLE_LIMIT;
		if (in_blocks)
			snprintf(undone, sizeof(undone), " (%llu of them in unconstrained blocks)",
				 (unsigned long long)in_blocks);
		snprintf(vm->stop_message, sizeof(vm->stop_message),
			 "cycle limit %llu reached%s at %s",
			 (unsigned long long)vm->opts.max_cycles, undone, at);
	}
	if (vm->stop != CY_STOP_NONE && vm->unacc.on)
		stopped_unaccounted(vm);
	if (vm->stop != CY_STOP_NONE && vm->tracker)
		output_flush(vm); /* a line the guest never finished */
	return vm->stop;
}

void cy_vm_end_chunk(cy_vm *vm, uint64_t start_cycle, cy_chunk_report *report)
{
	memset(report, 0, sizeof(*report));
	report->index = vm->chunks++;
	report->start_cycle = start_cycle;
	report->stop = vm->stop;
	report->end_cycle = vm->cycles;
	report->done = report->stop != CY_STOP_NONE;
	if (vm->tracker)
		report->cycle_tracker =
		    tracker_chunk_results(vm->tracker, &report->n_cycle_tracker);
}

cy_stop cy_vm_run_chunk(cy_vm *vm, cy_chunk_report *report)
{
	uint64_t start = vm->cycles;

	cy_vm_run(vm, vm->opts.chunk_cycles);
	cy_vm_end_chunk(vm, start, report);
	return report->stop;
}

const cy_tracker_entry *cy_vm_cycle_tracker(cy_vm *vm, size_t *n)
{
	*n = 0;
	return vm->tracker ? tracker_results(vm->tracker, n) : NULL;
}

const cy_span_instance *cy_vm_tracker_instances(cy_vm *vm, size_t *n)
{
	*n = 0;
	return vm->tracker ? tracker_instances(vm->tracker, vm->cycles, n) : NULL;
}

const cy_span *cy_vm_tracker_spans(cy_vm *vm, size_t *n)
{
	*n = 0;
	return vm->tracker ? tracker_spans(vm->tracker, n) : NULL;
}

const cy_tracker_issue *cy_vm_tracker_issues(cy_vm *vm, size_t *n)
{
	*n = 0;
	return vm->tracker ? tracker_issues(vm->tracker, n) : NULL;
}

/* sample.c - the PC-histogram sampler: slices the run so that each slice
 * ends at a sample cycle, counts the instruction that was executing there,
 * and services the guest's start/pause/resume/reset/save/stop ecalls.
 *
 * A sample taken at clock T counts the instruction executing in cycle T-1,
 * the one with start <= T-1 < start+cost. The run stops at the first
 * instruction boundary at or past T, so that instruction is the last one
 * retired; the interpreter stores its pc when a slice ends. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/account.h"
#include "core/block.h"
#include "core/engine.h"
#include "core/exec.h"
#include "core/vm.h"
#include "observe/elf_id.h"
#include "observe/sample.h"
#include "util/array.h"
#include "util/state_io.h"
#include "util/text.h"

#define REG_A0       10
#define OTHER_INIT   64 /* slots of the table of pcs outside the ranges */
#define OTHER_LOAD_N 3  /* grow when 3/4 full */
#define OTHER_LOAD_D 4

/* Limits (docs/robustness.md). A count per 2-byte pc for at most 16 MiB of
 * executable segments (64 MiB of counts, written out as such): larger or
 * further segments are sampled into the table of other pcs, which holds at
 * most 2^20 pcs (24 MiB); past that, samples at new pcs are counted at
 * CY_SAMPLES_OVERFLOW_PC. */
#define DENSE_MAX_BYTES (16u << 20)
#define OTHER_MAX       (1u << 20)

struct sampler {
	struct elf_code code;
	bool allocated, active;
	uint64_t interval;
	uint64_t next; /* active: the clock at which the next sample is taken */
	/* by blocks: the instruction that took the last sample, and its end */
	uint32_t last_pc;
	uint64_t last_end;
	uint64_t remaining; /* paused: cycles left of the current period */
	uint64_t active_since, active_cycles;
	uint64_t total;
	cy_sample_range ranges[ELF_ID_MAX_RANGES]; /* the code ranges counted per pc */
	size_t n_ranges;
	/* pcs outside the ranges: open addressing; a zero count is empty */
	uint32_t *other_pc;
	uint64_t *other_count;
	size_t other_cap, other_used;
	bool warned_full;
	/* on the accounting interface (sample_run): subscribed, and running so */
	bool subscribed, by_blocks;
	/* every cycle sampled on the plain clock: the blocks' run counts since
	 * the last fold are the samples (count_runs); next is then not kept */
	bool by_runs;
	/* every 2..ACCT_PHASES_MAX cycles (a power of two) on the plain clock:
	 * translated code hands whole runs over by phase (on_phase_runs), the
	 * interpreter's are counted at their deadlines as ever; last_pc and
	 * last_end are then not kept (no region knows them) */
	bool by_phases;
	const struct insn *ecall; /* the ecall being serviced, or NULL */
	/* by runs: extras of flagged code (outside the ranges), held until
	 * their block's instructions are counted, so that the table of other
	 * pcs fills in the order the pcs ran */
	struct {
		uint32_t pc;
		int64_t n;
	} pending[BLOCK_MAX_INSNS + 1];
	uint32_t n_pending;
	/* the guest's saves (--guest-saves): the output directory, opened at
	 * the first one (-1 before), and the files and bytes written so far */
	int out_fd;
	uint32_t saves;
	uint64_t saved_bytes;
	unsigned warnings; /* about the guest's calls; the first few are shown */
	/* the fast pass of a chunked run (docs/scale-out.md): the guest's calls
	 * and the phase of the samples are followed, nothing is counted (the
	 * counts are the chunks', merged by sampler_merge) */
	bool control_only;
	/* a chunk's sampler: whether the counts were cleared in it (a start,
	 * reset or stop: the merge then drops the earlier chunks'), and the
	 * pcs of the table of other pcs in the order they were first sampled
	 * (the table's limit keeps the first ones) */
	bool chunk, cleared;
	uint32_t *other_order;
	size_t n_other_order, cap_other_order;
};

static const char *const call_names[] = {
#define CALL_NAME(nr, name) "cy_sample_" #name,
	SAMPLE_SYSCALLS(CALL_NAME)
#undef CALL_NAME
};
_Static_assert(sizeof(call_names) / sizeof(call_names[0]) ==
		   SAMPLE_SYSCALL_LAST - SAMPLE_SYSCALL_FIRST + 1,
	       "one name per sampling call");

int sampler_new(struct cy_vm *vm, const void *elf, size_t size)
{
	char why[200];
	struct sampler *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->out_fd = -1;
	s->control_only = vm->opts.fast_pass;
	/* a program whose code ranges cannot be read is sampled into the
	 * table of other pcs only */
	if (elf_code_read(elf, size, &s->code, why, sizeof(why)) != 0)
		memset(&s->code, 0, sizeof(s->code));
	for (size_t i = 0, room = DENSE_MAX_BYTES; i < s->code.n_ranges; i++) {
		size_t bytes = s->code.end[i] - s->code.start[i];
		if (bytes > room)
			continue; /* its pcs go to the table of other pcs */
		room -= bytes;
		s->ranges[s->n_ranges++] =
		    (cy_sample_range){ .start = s->code.start[i], .end = s->code.end[i] };
	}
	vm->sampler = s;
	return 0;
}

static void free_counts(struct sampler *s)
{
	s->allocated = s->active = false;
	s->cleared = true;
	if (s->control_only) /* its counts are the merged chunks' */
		return;
	for (size_t i = 0; i < s->n_ranges; i++) {
		free(s->ranges[i].counts);
		s->ranges[i].counts = NULL;
	}
	free(s->other_pc);
	free(s->other_count);
	s->other_pc = NULL;
	s->other_count = NULL;
	s->other_cap = s->other_used = 0;
	s->n_other_order = 0;
}

void sampler_free(struct cy_vm *vm)
{
	if (!vm->sampler)
		return;
	vm->sampler->control_only = false; /* its counts go too */
	free_counts(vm->sampler);
	if (vm->sampler->out_fd >= 0)
		close(vm->sampler->out_fd);
	free(vm->sampler->other_order);
	free(vm->sampler);
	vm->sampler = NULL;
}

static int other_grow(struct sampler *s)
{
	size_t cap = s->other_cap ? 2 * s->other_cap : OTHER_INIT;
	uint32_t *pc = calloc(cap, sizeof(*pc));
	uint64_t *count = calloc(cap, sizeof(*count));

	if (!pc || !count) {
		free(pc);
		free(count);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->other_cap; i++) {
		size_t k;
		if (!s->other_count[i])
			continue;
		for (k = (s->other_pc[i] >> 1) & (cap - 1); count[k]; k = (k + 1) & (cap - 1))
			;
		pc[k] = s->other_pc[i];
		count[k] = s->other_count[i];
	}
	free(s->other_pc);
	free(s->other_count);
	s->other_pc = pc;
	s->other_count = count;
	s->other_cap = cap;
	return 0;
}

/* The slot of pc in the table of other pcs, or the empty one it would take. */
static size_t other_slot(const struct sampler *s, uint32_t pc)
{
	size_t k;

	for (k = (pc >> 1) & (s->other_cap - 1); s->other_count[k] && s->other_pc[k] != pc;
	     k = (k + 1) & (s->other_cap - 1))
		;
	return k;
}

__attribute__((noinline)) static void count_other(struct cy_vm *vm, uint32_t pc, uint64_t n)
{
	struct sampler *s = vm->sampler;
	size_t k;

	if (!s->other_cap && other_grow(s) != 0) {
		vm_fault(vm, CY_FAULT_HOST, vm->pc, vm->pc);
		return;
	}
	k = other_slot(s, pc);
	if (!s->other_count[k] && s->other_used >= OTHER_MAX && pc != CY_SAMPLES_OVERFLOW_PC) {
		if (!s->warned_full)
			vm_warn(
			    vm,
			    "sampling: more than %u distinct pcs outside the ranges counted per pc "
			    "(%u MiB of code); samples at further new pcs are counted at 0x%08x",
			    OTHER_MAX, DENSE_MAX_BYTES >> 20, CY_SAMPLES_OVERFLOW_PC);
		s->warned_full = true;
		count_other(vm, CY_SAMPLES_OVERFLOW_PC, n);
		return;
	}
	if (!s->other_count[k] && s->other_used * OTHER_LOAD_D >= s->other_cap * OTHER_LOAD_N) {
		if (other_grow(s) != 0) {
			vm_fault(vm, CY_FAULT_HOST, vm->pc, vm->pc);
			return;
		}
		k = other_slot(s, pc);
	}
	if (!s->other_count[k]) {
		if (s->chunk) {
			if (RESERVE(s->other_order, s->cap_other_order, s->n_other_order + 1) !=
			    0) {
				vm_fault(vm, CY_FAULT_HOST, vm->pc, vm->pc);
				return;
			}
			s->other_order[s->n_other_order++] = pc;
		}
		s->other_pc[k] = pc;
		s->other_used++;
	}
	s->other_count[k] += n;
}

/* The code range counted per pc that holds pc, or NULL. */
static inline cy_sample_range *range_at(struct sampler *s, uint32_t pc)
{
	for (size_t i = 0; i < s->n_ranges; i++)
		if (pc - s->ranges[i].start < s->ranges[i].end - s->ranges[i].start)
			return &s->ranges[i];
	return NULL;
}

/* n samples at pc, already in the total */
static inline void count_pc(struct cy_vm *vm, uint32_t pc, uint64_t n)
{
	cy_sample_range *r = range_at(vm->sampler, pc);

	if (r)
		r->counts[(pc - r->start) >> 1] += n;
	else
		count_other(vm, pc, n);
}

static inline void count(struct cy_vm *vm, uint32_t pc, uint64_t n)
{
	vm->sampler->total += n;
	count_pc(vm, pc, n);
}

/* Where the interpreter must tell the sampler the clock: the next sample,
 * when it runs by blocks. */
static void sync_deadline(struct cy_vm *vm)
{
	struct sampler *s = vm->sampler;

	vm->acct.deadline = s->by_blocks && s->active && !s->by_runs ? s->next : ACCT_NO_DEADLINE;
	vm->acct.return_on_repick = s->by_blocks && s->active;
	vm->acct.phases = false;
	/* translated code counts the samples of the first range itself
	 * (account.h): the same counts on_deadline makes there */
	vm->acct.hist = (struct acct_hist){ 0 };
	if (vm->acct.deadline != ACCT_NO_DEADLINE && s->n_ranges && s->ranges[0].counts)
		vm->acct.hist = (struct acct_hist){
			.counts = s->ranges[0].counts,
			.lo = s->ranges[0].start,
			.size = s->ranges[0].end - s->ranges[0].start,
			.interval = s->interval,
			.next = &s->next,
			.total = &s->total,
			.last_end = &s->last_end,
			.last_pc = &s->last_pc,
		};
	vm->acct.phases = s->by_phases && vm->acct.hist.counts;
}

/* Whether block b's code lies in one range counted per pc: only there can
 * its counts wait for the fold (the table of other pcs is filled, and
 * capped, in the order pcs are first sampled). */
static bool in_one_range(struct sampler *s, const struct block *b)
{
	const cy_sample_range *r = range_at(s, b->pc);

	return r && b->end - r->start <= r->end - r->start;
}

/* The clock passed the next sample in block b, which ran its first
 * `retired` instructions from `from` to `to` at their static costs: the
 * sample at T counts the instruction executing in cycle T-1, the one with
 * start < T <= end. The instructions before one that cost extra in the
 * middle of the block appear shifted by it, ending before T (account.h). */
static void on_deadline(void *ctx, struct cy_vm *vm, struct block *b, uint32_t retired,
			uint64_t from, uint64_t to)
{
	struct sampler *s = ctx;

	/* every cycle of a whole run sampled (N = 1) at no less than its
	 * static costs (a division by zero may cost less): counted in the
	 * block, per instruction when the blocks are folded (fold_block); what
	 * the last instruction cost beyond (a taken branch, a stepped
	 * instruction's extra) is its own */
	if (s->interval == 1 && s->active && s->next == from + 1 && retired &&
	    retired == b->n - (b->insns[b->n - 1].op == OP_block_end) &&
	    to >= from + b->insns[retired - 1].after && in_one_range(s, b)) {
		const struct insn *last = &b->insns[retired - 1];
		uint64_t end = from + last->after;
		b->sampled++;
		s->total += end - from;
		if (to > end) /* a taken branch's, or a stepped one's extra */
			count(vm, last->pc, to - end);
		s->next = to + 1;
		s->last_pc = last->pc;
		s->last_end = to;
		sync_deadline(vm);
		return;
	}
	/* the first instruction that can hold the next sample, the first one
	 * ending at or past it (the last one ends at `to`): instructions cost
	 * a cycle or a few, so it is at or just below the index `want - 1`,
	 * and the prefix costs grow along the block (a block of sha256's
	 * rounds holds several samples: no walk from its start) */
	int64_t want = (int64_t)(s->next - from);
	uint32_t last = retired ? retired - 1 : 0;
	uint32_t i = want <= 1 ? 0 : want - 1 < (int64_t)last ? (uint32_t)(want - 1) : last;
	while (i < last && (int64_t)b->insns[i].after < want)
		i++;
	while (i > 0 && (int64_t)b->insns[i - 1].after >= want)
		i--;
	for (; s->active && i < retired && s->next <= to; i++) {
		const struct insn *in = &b->insns[i];
		uint64_t end = i + 1 == retired ? to : from + in->after;
		/* signed: after a negative extra (a division by zero cheaper
		 * than a division) `from` may be below zero, modulo 2^64 */
		if ((int64_t)(end - s->next) < 0)
			continue;
		uint64_t past = end - s->next; /* mostly less than one interval */
		uint64_t n = past < s->interval ? 1 : past / s->interval + 1;
		count(vm, in->pc, n);
		s->next += n * s->interval;
		if (!s->by_phases) {
			s->last_pc = in->pc;
			s->last_end = end;
		}
	}
	sync_deadline(vm);
}

/* Whether the interval is one that translated code counts by phases: a
 * power of two from 2 to ACCT_PHASES_MAX. */
static bool phase_interval(const struct sampler *s)
{
	return s->interval >= 2 && s->interval <= ACCT_PHASES_MAX &&
	       (s->interval & (s->interval - 1)) == 0;
}

/* Runs of block b whose first sample fell phase + 1 cycles after their
 * start (account.h: phase_runs): each takes the samples at phase + 1,
 * phase + 1 + N, ... up to its cost, as on_deadline counts them (the
 * instruction with start < T <= end; the last one's end is the run's). */
static void on_phase_runs(void *ctx, struct cy_vm *vm, const struct block *b, bool taken,
			  uint32_t phase, uint64_t runs)
{
	struct sampler *s = ctx;
	uint32_t real = b->n - (b->insns[b->n - 1].op == OP_block_end), i = 0;

	if (!real)
		return;
	uint64_t cost = b->insns[real - 1].after + (taken ? vm->cost.taken_extra : 0);
	for (uint64_t r = (uint64_t)phase + 1; r <= cost; r += s->interval) {
		while (i + 1 < real && b->insns[i].after < r)
			i++;
		count(vm, b->insns[i].pc, runs);
	}
}

/* The block whose instruction in is. */
static const struct block *block_of(const struct insn *in)
{
	return (const struct block *)((const char *)(in - in->index) -
				      offsetof(struct block, insns));
}

/* The first k instructions of block b ran once, each at its static cost. */
static void count_prefix(struct cy_vm *vm, const struct block *b, uint32_t k)
{
	struct sampler *s = vm->sampler;

	for (uint32_t i = 0; i < k; i++)
		if (!insn_is_pseudo(&b->insns[i]))
			count(vm, b->insns[i].pc, b->insns[i].after - b->insns[i].before);
	for (uint32_t i = 0; i < s->n_pending; i++)
		count(vm, s->pending[i].pc, (uint64_t)s->pending[i].n);
	s->n_pending = 0;
}

/* Adds block b's whole runs to its instructions' counts: the runs sampled
 * at every cycle by on_deadline, and by runs, the runs since the last
 * fold (a flagged block's are counted as they end: on_flagged). */
static void on_fold_block(void *ctx, struct cy_vm *vm, struct block *b)
{
	struct sampler *s = ctx;
	uint64_t runs = b->sampled + (s->by_runs && !(b->flags & ACCT_FLAG_SAMPLER) ? b->runs : 0);

	for (uint32_t i = 0; runs && i < b->n; i++) {
		const struct insn *in = &b->insns[i];
		uint64_t n = runs * (in->after - in->before);
		if (insn_is_pseudo(in))
			continue;
		/* the total has the sampled runs already (on_deadline) */
		if (s->by_runs && !(b->flags & ACCT_FLAG_SAMPLER))
			s->total += b->runs * (in->after - in->before);
		count_pc(vm, in->pc, n);
	}
	b->sampled = 0;
	const struct insn *last = &b->insns[b->n - 1];
	if (s->by_runs && b->taken && insn_classes[last->op] == CY_CLASS_BRANCH)
		count(vm, last->pc, b->taken * vm->cost.taken_extra);
}

/* Brings the counts up to date: before anything reads or clears them. The
 * fold hands every block's counts to every profiler that keeps them. */
static void sampler_fold(struct cy_vm *vm)
{
	if (vm->sampler->subscribed)
		cache_fold(vm);
}

/* Whether every cycle can be counted from the blocks' runs: every cycle is
 * sampled, the clock is the plain one (static costs and the extras the
 * interpreter reports), and no sample is owed from before. */
static bool can_run_by_runs(const struct cy_vm *vm)
{
	const struct sampler *s = vm->sampler;

	return s->by_blocks && s->active && s->interval == 1 && exec_plain_clock(vm);
}

/* Starts counting by runs, between two blocks (sample_run). */
static void enter_runs(struct cy_vm *vm)
{
	cache_fold(vm); /* the runs so far were counted as they ended */
	vm->sampler->by_runs = true;
	sync_deadline(vm);
}

/* Stops counting by runs at clock now: the runs so far are counted, and so
 * are the instructions before in (the ecall being serviced, or NULL between
 * blocks), whose block's run the interpreter counts only when it ends. The
 * samples from now on are found by deadlines again. */
static void leave_runs(struct cy_vm *vm, const struct insn *in, uint64_t now)
{
	struct sampler *s = vm->sampler;

	cache_fold(vm);
	s->by_runs = false;
	if (in) {
		count_prefix(vm, block_of(in), in->index);
		if (in->index)
			s->last_pc = in[-1].pc;
		vm->break_loop = true; /* back to runs at sample_run's next turn */
	}
	s->last_end = now;
	s->next = now + 1;
	sync_deadline(vm);
}

static void on_ecall(void *ctx, struct cy_vm *vm, const struct insn *in, uint32_t nr,
		     uint64_t cycles, uint64_t instret)
{
	struct sampler *s = ctx;

	(void)vm, (void)nr, (void)cycles, (void)instret;
	s->ecall = in;
}

/* By runs, an instruction's extra: counted now, or with its block's run
 * when that is counted as it ends (a flagged block). */
static void count_extra(struct cy_vm *vm, const struct insn *in, int64_t extra)
{
	struct sampler *s = vm->sampler;

	if (!(block_of(in)->flags & ACCT_FLAG_SAMPLER) || s->n_pending == BLOCK_MAX_INSNS + 1) {
		count(vm, in->pc, (uint64_t)extra);
		return;
	}
	s->pending[s->n_pending].pc = in->pc;
	s->pending[s->n_pending++].n = extra;
}

/* By runs, the cycles the ABI charged to an ecall (a zkVM accelerator's
 * own) are its extra; an ecall that put the clock back (an unconstrained
 * block's end, docs/zkvm.md) is counted as the deadlines count it: its own
 * cycles are not sampled, nor those the clock covers again. */
static void on_ecall_retired(void *ctx, struct cy_vm *vm, const struct insn *in, uint64_t before,
			     uint64_t cycles, uint64_t instret)
{
	struct sampler *s = ctx;
	const uint64_t own = in->after - in->before;

	(void)instret;
	s->ecall = NULL;
	if (!s->by_runs || cycles - before == own)
		return;
	if (cycles > before && cycles - before > own && cycles - before - own <= UINT32_MAX)
		count_extra(vm, in, (int64_t)(cycles - before - own));
	else
		leave_runs(vm, in, before);
}

static void on_extra(void *ctx, struct cy_vm *vm, const struct insn *in, int64_t extra,
		     const cy_cost_parts *parts, uint64_t before, uint64_t cycles, uint64_t instret)
{
	struct sampler *s = ctx;

	(void)parts, (void)before, (void)cycles, (void)instret;
	if (s->by_runs)
		count_extra(vm, in, extra);
}

static void on_partial(void *ctx, struct cy_vm *vm, const struct block *b, uint32_t retired,
		       uint64_t cycles, uint64_t instret, uint64_t now, bool resumes)
{
	struct sampler *s = ctx;

	(void)cycles, (void)instret, (void)now, (void)resumes;
	if (s->by_runs && !(b->flags & ACCT_FLAG_SAMPLER))
		count_prefix(vm, b, retired);
}

/* Code outside the ranges counted per pc goes to the table of other pcs,
 * which is capped in the order pcs are first sampled: by runs, its blocks
 * are flagged and counted as each run ends. */
static uint8_t on_decoded(void *ctx, struct cy_vm *vm, struct block *b)
{
	struct sampler *s = ctx;

	(void)vm;
	return (s->interval == 1 || phase_interval(s)) && !in_one_range(s, b) ? ACCT_FLAG_SAMPLER
									      : 0;
}

static void on_flagged(void *ctx, struct cy_vm *vm, const struct block *b, uint32_t retired,
		       uint64_t instret)
{
	struct sampler *s = ctx;

	(void)instret;
	if (s->by_runs && (b->flags & ACCT_FLAG_SAMPLER))
		count_prefix(vm, b, retired);
}

static const struct acct_ops sample_ops = {
	.deadline = on_deadline,
	.fold_block = on_fold_block,
	.ecall = on_ecall,
	.ecall_retired = on_ecall_retired,
	.extra = on_extra,
	.partial = on_partial,
	.decoded = on_decoded,
	.flagged = on_flagged,
	.phase_runs = on_phase_runs,
};
#define SAMPLE_EVENTS                                                                              \
	(ACCT_DEADLINE | ACCT_FOLD | ACCT_ECALL | ACCT_EXTRA | ACCT_PARTIAL | ACCT_FLAGGED)

/* What the sampler subscribes to: the folds and the flagged blocks serve
 * counting every cycle (b->sampled, by runs, the flagged blocks outside
 * the ranges), which only an interval of 1 does; the interval is the
 * run's. Without the folds, translated code keeps no counts for it (jit.c:
 * JIT_SAMPLES). By phases, translated code leaves at the blocks outside
 * the ranges (flagged), whose samples must fill the table of other pcs in
 * the order they are taken. */
static unsigned sample_events(const struct sampler *s)
{
	if (s->interval == 1)
		return SAMPLE_EVENTS;
	if (phase_interval(s))
		return SAMPLE_EVENTS & ~ACCT_FOLD;
	return SAMPLE_EVENTS & ~(ACCT_FOLD | ACCT_FLAGGED);
}

/* The samples the clock has passed when a run returns past them: pc,
 * the last instruction that retired where a run returned, takes them. */
static void count_passed(struct cy_vm *vm, uint32_t pc)
{
	struct sampler *s = vm->sampler;

	if (s->active && vm->cycles >= s->next) {
		uint64_t n = (vm->cycles - s->next) / s->interval + 1;
		count(vm, pc, n);
		s->next += n * s->interval;
	}
}

/* Whether an accounting interpreter will run whose clock is the static
 * costs plus extras it announces as they happen (exec.h): then the sampler
 * hears of each sample when a block ends past it, or an instruction in
 * the middle of one costs extra, instead of slicing the run at every
 * sample. */
static bool can_run_by_blocks(const struct cy_vm *vm)
{
	return exec_reports_deadlines(vm) && !vm->opts.reference;
}

/* Whether translated code can count the runs by phases (acct.phases): by
 * blocks, on the plain clock, every few cycles. */
static bool can_run_by_phases(const struct cy_vm *vm)
{
	const struct sampler *s = vm->sampler;

	return s->by_blocks && s->active && phase_interval(s) && exec_plain_clock(vm);
}

/* The fast pass's phase: the samples the clock has passed (its highest
 * point included, before an unconstrained block moved it back) are
 * behind next, as if they had been counted. */
static void control_settle(struct cy_vm *vm)
{
	struct sampler *s = vm->sampler;
	uint64_t high = vm->clock_peak > vm->cycles ? vm->clock_peak : vm->cycles;

	if (s->active && high >= s->next)
		s->next += ((high - s->next) / s->interval + 1) * s->interval;
	vm->clock_peak = vm->cycles;
}

void sample_run(struct cy_vm *vm, uint64_t budget)
{
	struct sampler *s = vm->sampler;

	if (s->control_only) {
		engine_run(vm, budget); /* the guest's calls settle the phase */
		return;
	}
	while (vm->stop == CY_STOP_NONE && vm->cycles < budget && !vm->clock_moved_back &&
	       !vm->pause && !vm->interrupt) {
		if (vm->unacc.on) { /* an unconstrained block: no sample falls in it */
			engine_run(vm, budget);
			continue;
		}
		if (!s->active) {
			s->by_blocks = s->by_phases = false;
			sync_deadline(vm);
			engine_run(vm, budget); /* returns early if the guest starts */
			/* the samples of the starting ecall are its own */
			count_passed(vm, vm->retired_pc);
			continue;
		}
		s->by_blocks = can_run_by_blocks(vm);
		if (s->by_blocks && !s->subscribed) {
			if (acct_subscribe(vm, sample_events(s), &sample_ops, s) != 0) {
				vm_fault(vm, CY_FAULT_HOST, vm->pc, vm->pc);
				return;
			}
			s->subscribed = true;
		}
		/* between two blocks: the way of counting may change (by
		 * phases, the runs counted so far keep their phases) */
		s->by_phases = can_run_by_phases(vm);
		if (s->by_runs && !can_run_by_runs(vm))
			leave_runs(vm, NULL, vm->cycles);
		else if (!s->by_runs && can_run_by_runs(vm) && s->next == vm->cycles + 1)
			enter_runs(vm);
		sync_deadline(vm);
		if (s->by_blocks) {
			uint64_t entry = vm->cycles;
			engine_run(vm, budget);
			/* a fault: the cycles the faulting instruction cost before
			 * it failed (a detailed model's fetch page-in) go where
			 * slicing puts them, to the instruction the last run
			 * returned after: when slicing, one returns at each
			 * sample (by runs, on the plain clock, it cost none) */
			if (vm->stop != CY_STOP_NONE && !s->by_runs)
				count_passed(vm,
					     s->last_end >= entry ? s->last_pc : vm->retired_pc);
			continue;
		}
		engine_run(vm, s->next < budget ? s->next : budget);
		/* a pause or stop ecall in this slice took effect at its start:
		 * the samples after it are not taken */
		count_passed(vm, vm->retired_pc);
	}
}

/* Zeroes the counts (allocating them the first time); 0 or -ENOMEM. */
static int zero_counts(struct sampler *s)
{
	s->cleared = true;
	s->active_cycles = 0;
	s->active_since = 0;
	if (s->control_only) /* the counts, and their total, are the merge's */
		return 0;
	s->n_other_order = 0;
	for (size_t i = 0; i < s->n_ranges; i++) {
		size_t n = (s->ranges[i].end - s->ranges[i].start) / 2;
		if (s->ranges[i].counts) /* a fresh calloc is zero: leave its pages untouched */
			memset(s->ranges[i].counts, 0, n * 8);
		else if (!(s->ranges[i].counts = calloc(n + 1, 8)))
			return -ENOMEM;
	}
	if (s->other_cap) {
		memset(s->other_count, 0, s->other_cap * sizeof(*s->other_count));
		s->other_used = 0;
	}
	s->total = 0;
	s->active_cycles = 0;
	s->active_since = 0;
	return 0;
}

static int sampler_start(struct cy_vm *vm)
{
	struct sampler *s = vm->sampler;

	sampler_fold(vm);
	if (zero_counts(s) != 0) {
		free_counts(s);
		return SAMPLE_ENOMEM;
	}
	s->allocated = s->active = true;
	s->interval = vm->opts.sample_interval ? vm->opts.sample_interval : SAMPLE_DEFAULT_INTERVAL;
	if (s->interval > SAMPLE_MAX_INTERVAL) /* so that the clocks cannot wrap */
		s->interval = SAMPLE_MAX_INTERVAL;
	s->next = vm->cycles + s->interval;
	s->active_since = vm->cycles;
	vm->break_loop = true; /* the current run must be sliced from now */
	sync_deadline(vm);
	return 0;
}

static void sampler_pause(struct cy_vm *vm)
{
	struct sampler *s = vm->sampler;

	if (!s->active)
		return;
	s->remaining = s->next - vm->cycles;
	s->active_cycles += vm->cycles - s->active_since;
	s->active = false;
	sync_deadline(vm);
}

static void sampler_resume(struct cy_vm *vm)
{
	struct sampler *s = vm->sampler;

	if (s->active)
		return;
	s->next = vm->cycles + s->remaining;
	s->active_since = vm->cycles;
	s->active = true;
	vm->break_loop = true;
	sync_deadline(vm);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The histogram as it stands into out (its other_pc and other_count are
 * the caller's to free). 0 or -ENOMEM. */
/* The count arrays of a fast pass that no chunk's counts reached yet. */
static int ensure_counts(struct sampler *s)
{
	for (size_t i = 0; i < s->n_ranges; i++)
		if (!s->ranges[i].counts &&
		    !(s->ranges[i].counts =
			  calloc((s->ranges[i].end - s->ranges[i].start) / 2 + 1, 8)))
			return -ENOMEM;
	return 0;
}

static int sampler_collect(struct cy_vm *vm, cy_samples *out)
{
	struct sampler *s = vm->sampler;
	size_t n = 0;

	if (ensure_counts(s) != 0)
		return -ENOMEM;
	sampler_fold(vm);
	out->interval = s->interval;
	out->cycles = s->active_cycles + (s->active ? vm->cycles - s->active_since : 0);
	out->total = s->total;
	snprintf(out->model, sizeof(out->model), "%s", vm->model.name);
	out->id = s->code.id;
	/* saved at the end of a run that did not reach the guest's exit */
	out->partial = vm->stop == CY_STOP_FAULT         ? CY_SAMPLES_FAULT
		       : vm->stop == CY_STOP_CYCLE_LIMIT ? CY_SAMPLES_CYCLE_LIMIT
		       : vm->stop == CY_STOP_INTERRUPTED ? CY_SAMPLES_INTERRUPTED
							 : CY_SAMPLES_COMPLETE;
	out->signal =
	    vm->stop == CY_STOP_INTERRUPTED && vm->interrupt < NSIG ? (uint8_t)vm->interrupt : 0;
	out->n_ranges = s->n_ranges;
	out->ranges = s->ranges;
	out->other_pc = calloc(s->other_used + 1, sizeof(*out->other_pc));
	out->other_count = calloc(s->other_used + 1, sizeof(*out->other_count));
	if (!out->other_pc || !out->other_count)
		return -ENOMEM;
	for (size_t i = 0; i < s->other_cap; i++)
		if (s->other_count[i])
			out->other_pc[n++] = s->other_pc[i];
	if (n)
		qsort(out->other_pc, n, sizeof(*out->other_pc), cmp_u32);
	for (size_t i = 0; i < n; i++) {
		size_t k;
		for (k = (out->other_pc[i] >> 1) & (s->other_cap - 1);
		     s->other_pc[k] != out->other_pc[i]; k = (k + 1) & (s->other_cap - 1))
			;
		out->other_count[i] = s->other_count[k];
	}
	out->n_other = n;
	return 0;
}

/* Writes the histogram to path (a host path: not checked here). */
static int sampler_save(struct cy_vm *vm, const char *path, char *err, size_t err_size)
{
	cy_samples out = { 0 };
	int rc = sampler_collect(vm, &out);

	if (rc != 0)
		snprintf(err, err_size, "%s: out of memory", path);
	else
		rc = samples_write(&out, path, err, err_size);
	free(out.other_pc);
	free(out.other_count);
	return rc;
}

/* A warning about the guest's calls: a guest that calls in a loop would
 * print a line per call, so only the first SAMPLE_WARNINGS_SHOWN are. */
static void guest_warn(struct cy_vm *vm, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void guest_warn(struct cy_vm *vm, const char *fmt, ...)
{
	struct sampler *s = vm->sampler;
	char line[512];
	va_list ap;

	if (++s->warnings > SAMPLE_WARNINGS_SHOWN)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	vm_warn(vm, "%s%s", line,
		s->warnings == SAMPLE_WARNINGS_SHOWN
		    ? " (further warnings about the guest's sampling calls are not shown)"
		    : "");
}

/* Reads the guest's NUL-terminated file name at addr into name. */
static int read_name(struct cy_vm *vm, uint64_t addr, char *name, const char **why)
{
	for (size_t i = 0; i <= SAMPLE_NAME_MAX; i++) {
		if (!mem_range_ok(&vm->mem, addr + i, 1)) {
			*why = "the name runs past the end of memory";
			return SAMPLE_EFAULT;
		}
		name[i] = (char)vm->mem.base[addr + i];
		if (!name[i])
			return 0;
	}
	*why = "longer than 255 bytes";
	return SAMPLE_EBAD_NAME;
}

/* The guest is untrusted: its name must stay inside the output directory. */
static int check_name(const char *name, const char **why)
{
	const char *c;

	if (!*name) {
		*why = "empty";
		return SAMPLE_EBAD_NAME;
	}
	if (name[0] == '/') {
		*why = "an absolute path";
		return SAMPLE_EBAD_NAME;
	}
	for (c = name; *c; c++) {
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			*why = "a control character";
			return SAMPLE_EBAD_NAME;
		}
	}
	for (c = name; c; c = strchr(c, '/')) {
		if (*c == '/')
			c++;
		if (c[0] == '.' && c[1] == '.' && (c[2] == '/' || c[2] == '\0')) {
			*why = "a '..' component";
			return SAMPLE_EBAD_NAME;
		}
	}
	return 0;
}

/* Why the file system refused a name the guest chose
 * (text_write_file_beneath); NULL when the name itself was not the cause. */
static const char *refusal(int rc)
{
	switch (rc) {
	case -EXDEV: return "it leads out of the output directory";
	case -ELOOP: return "a symbolic link on the way, or the file is one";
	case -EPERM: return "the file there is not a regular file";
	default: return NULL;
	}
}

/* The output directory, opened once: every save resolves beneath it. */
static int out_dir_fd(struct cy_vm *vm)
{
	struct sampler *s = vm->sampler;

	if (s->out_fd < 0)
		s->out_fd = open(vm->opts.out_dir ? vm->opts.out_dir : ".",
				 O_PATH | O_DIRECTORY | O_CLOEXEC);
	return s->out_fd >= 0 ? s->out_fd : -errno;
}

/* cy_sample_save(name): name 0 is the default file. The guest is
 * untrusted: it saves only with --guest-saves, beneath the output
 * directory, within the quota of files and bytes. */
static int32_t guest_save(struct cy_vm *vm, uint64_t addr, const char *call)
{
	struct sampler *s = vm->sampler;
	const char *dir = vm->opts.out_dir ? vm->opts.out_dir : ".";
	uint32_t max_files =
	    vm->opts.guest_save_files ? vm->opts.guest_save_files : CY_GUEST_SAVE_FILES;
	uint64_t max_bytes =
	    vm->opts.guest_save_bytes ? vm->opts.guest_save_bytes : CY_GUEST_SAVE_BYTES;
	char name[SAMPLE_NAME_MAX + 1], shown[4 * SAMPLE_NAME_MAX + 1];
	const char *why = NULL;
	cy_samples out = { 0 };
	struct text_bytes b = { 0 };
	int rc = 0, fd;

	if (addr == 0)
		snprintf(name, sizeof(name), "%s", SAMPLE_DEFAULT_FILE);
	else if ((rc = read_name(vm, addr, name, &why)) == 0)
		rc = check_name(name, &why);
	if (rc != 0) {
		guest_warn(vm, "%s at 0x%08x: file name refused (%s): %s", call, vm->pc,
			   rc == SAMPLE_EFAULT ? "CY_EFAULT" : "CY_EBAD_NAME", why);
		return rc;
	}
	/* the name as the warnings show it: C1 controls and bytes that are
	 * not UTF-8 pass the checks above, but not to the terminal */
	text_printable(shown, sizeof(shown), name);
	if (!vm->opts.guest_saves) {
		guest_warn(vm,
			   "%s at 0x%08x: %s not written (CY_EPERM): the guest may write files "
			   "only with cyclops run --guest-saves",
			   call, vm->pc, shown);
		return SAMPLE_EPERM;
	}
	if (s->control_only) { /* the histogram exists only once the chunks are merged */
		guest_warn(
		    vm,
		    "%s at 0x%08x: %s not written (CY_EIO): a chunked run's fast pass has no "
		    "histogram to save",
		    call, vm->pc, shown);
		return SAMPLE_EIO;
	}
	if (s->saves >= max_files) {
		guest_warn(vm,
			   "%s at 0x%08x: %s not written (CY_EQUOTA): the guest has saved %u "
			   "files, the most --guest-saves allows",
			   call, vm->pc, shown, s->saves);
		return SAMPLE_EQUOTA;
	}
	if (sampler_collect(vm, &out) != 0 || !(b.p = samples_encode(&out, &b.len))) {
		guest_warn(vm, "%s at 0x%08x: out of host memory (CY_ENOMEM)", call, vm->pc);
		rc = SAMPLE_ENOMEM;
		goto out_free;
	}
	if (b.len > max_bytes - s->saved_bytes) {
		guest_warn(vm,
			   "%s at 0x%08x: %s not written (CY_EQUOTA): its %zu bytes would pass the "
			   "%" PRIu64 " bytes --guest-saves allows in all (%" PRIu64 " written)",
			   call, vm->pc, shown, b.len, max_bytes, s->saved_bytes);
		rc = SAMPLE_EQUOTA;
		goto out_free;
	}
	fd = out_dir_fd(vm);
	rc = fd < 0 ? fd : text_write_file_beneath(fd, name, text_bytes_body, &b);
	if (rc != 0) {
		why = refusal(rc);
		guest_warn(vm, "%s at 0x%08x: %s/%s not written (%s): %s", call, vm->pc, dir, shown,
			   why ? "CY_EBAD_NAME" : "CY_EIO", why ? why : strerror(-rc));
		rc = why ? SAMPLE_EBAD_NAME : SAMPLE_EIO;
		goto out_free;
	}
	s->saves++;
	s->saved_bytes += b.len;
out_free:
	free((void *)b.p);
	free(out.other_pc);
	free(out.other_count);
	return rc;
}

int32_t sample_syscall(struct cy_vm *vm, uint32_t nr)
{
	struct sampler *s = vm->sampler;
	const char *call = call_names[nr - SAMPLE_SYSCALL_FIRST];

	if (nr == SAMPLE_SYSCALL_FIRST)
		return (int32_t)SAMPLE_ON_CYCLOPS_MAGIC;
	if (s->control_only)
		control_settle(vm);
	if (s->by_runs) /* each call below may change how samples are found */
		leave_runs(vm, s->ecall, vm->cycles);
	/* each call below but a pause or a resume reads, clears or frees the
	 * counts (the runs counted by phases keep theirs across a change of
	 * phase: a guest may pause and resume around every call of a
	 * function, and a fold visits every translated block) */
	if (nr != SAMPLE_SYSCALL_FIRST + 2 && nr != SAMPLE_SYSCALL_FIRST + 3)
		sampler_fold(vm);
	if (nr == SAMPLE_SYSCALL_FIRST + 1) {
		int32_t rc = sampler_start(vm);
		if (rc != 0)
			guest_warn(vm, "%s at 0x%08x: out of host memory (CY_ENOMEM)", call,
				   vm->pc);
		return rc;
	}
	if (!s->allocated) {
		guest_warn(vm,
			   "%s at 0x%08x: no histogram (CY_ENO_BUFFER): cy_sample_start was not "
			   "called, or cy_sample_stop freed it",
			   call, vm->pc);
		return SAMPLE_ENO_BUFFER;
	}
	switch (nr - SAMPLE_SYSCALL_FIRST) {
	case 2: sampler_pause(vm); break;
	case 3: sampler_resume(vm); break;
	case 4:
		zero_counts(s); /* the counts exist: this cannot fail */
		s->active_since = vm->cycles;
		break;
	case 5: return guest_save(vm, vm_reg(vm, REG_A0), call);
	default:
		sampler_pause(vm);
		free_counts(s);
		break;
	}
	return 0;
}

int cy_vm_sample_start(cy_vm *vm) { return sampler_start(vm) == 0 ? 0 : -ENOMEM; }

bool cy_vm_sampling(const cy_vm *vm) { return vm->sampler && vm->sampler->allocated; }

int cy_vm_sample_save(cy_vm *vm, const char *path, char *err, size_t err_size)
{
	if (!cy_vm_sampling(vm)) {
		snprintf(err, err_size, "%s: no histogram to save (sampling was stopped)", path);
		return -ENOENT;
	}
	return sampler_save(vm, path, err, err_size);
}

/* Checkpoints and chunks (docs/scale-out.md). The state is the guest's
 * calls' (on, paused, the interval and phase, the saves) and, unless it is
 * the fast pass's, the counts. A fast pass's restored into a counting
 * sampler starts a chunk: its counts start at zero and its clears are
 * noted, for sampler_merge. */
static void range_io(struct sio *io, struct sampler *s, cy_sample_range *r, bool counts)
{
	uint32_t start = r->start, end = r->end;

	sio_u32(io, &start);
	sio_u32(io, &end);
	if (io->load && (start != r->start || end != r->end)) {
		sio_fail(io,
			 "its histogram has the range 0x%08x..0x%08x, the program 0x%08x..0x%08x",
			 start, end, r->start, r->end);
		return;
	}
	if (!counts)
		return;
	if (io->load && !r->counts && !(r->counts = calloc((end - start) / 2 + 1, 8))) {
		sio_fail(io, "out of host memory");
		return;
	}
	(void)s;
	sio_raw(io, r->counts, (size_t)(end - start) / 2 * 8);
}

/* The table of other pcs: in the order they were first sampled when that
 * is known (a chunk's), else in the table's order; restored through the
 * table's own insertion, so that it has the same limit. */
static void other_io(struct sio *io, struct cy_vm *vm, struct sampler *s)
{
	size_t n = s->chunk ? s->n_other_order : s->other_used;

	sio_count(io, &n, OTHER_MAX + 1, 12, "other pcs");
	for (size_t i = 0, k = 0; i < n && sio_ok(io); i++) {
		uint32_t pc = 0;
		uint64_t count = 0;
		if (!io->load) {
			if (s->chunk) {
				pc = s->other_order[i];
				count = s->other_count[other_slot(s, pc)];
			} else {
				while (!s->other_count[k])
					k++;
				pc = s->other_pc[k];
				count = s->other_count[k++];
			}
		}
		sio_u32(io, &pc);
		sio_u64(io, &count);
		if (io->load && sio_ok(io)) {
			if (count == 0 || (s->other_cap && s->other_count[other_slot(s, pc)]))
				sio_fail(io, "other pc 0x%08x is there twice, or with no samples",
					 pc);
			else
				count_other(vm, pc, count);
		}
	}
}

int sampler_state_io(struct sio *io, struct cy_vm *vm)
{
	struct sampler *s = vm->sampler;
	bool counts = !s->control_only;
	size_t n_ranges = s->n_ranges;

	sio_tag(io, "SMPL");
	if (!io->load && s->control_only)
		control_settle(vm);
	if (!io->load)
		sampler_fold(vm);
	sio_bool(io, &s->allocated);
	sio_bool(io, &s->active);
	sio_u64(io, &s->interval);
	sio_u64(io, &s->next);
	sio_u32(io, &s->last_pc);
	sio_u64(io, &s->last_end);
	sio_u64(io, &s->remaining);
	sio_u64(io, &s->active_since);
	sio_u64(io, &s->active_cycles);
	sio_bool(io, &s->by_runs);
	sio_u32(io, &s->saves);
	sio_u64(io, &s->saved_bytes);
	sio_unsigned(io, &s->warnings);
	sio_bool(io, &s->warned_full);
	if (io->load && s->active && (s->interval == 0 || s->interval > SAMPLE_MAX_INTERVAL))
		sio_fail(io, "its sampling interval is %llu", (unsigned long long)s->interval);
	if (io->load && s->active && !s->allocated)
		sio_fail(io, "it samples into no histogram");
	sio_size(io, &n_ranges);
	if (io->load && n_ranges != s->n_ranges) {
		sio_fail(io, "its histogram has %zu code ranges, the program %zu", n_ranges,
			 s->n_ranges);
		return io->err;
	}
	sio_bool(io, &counts);
	if (io->load && counts && s->control_only)
		return sio_fail(io, "its counts cannot go on in a fast pass"), io->err;
	if (counts) {
		sio_bool(io, &s->chunk);
		sio_bool(io, &s->cleared);
		sio_u64(io, &s->total);
	}
	if (io->load && s->other_cap) { /* an empty table for what follows */
		memset(s->other_count, 0, s->other_cap * sizeof(*s->other_count));
		s->other_used = 0;
	}
	if (io->load)
		s->n_other_order = 0;
	for (size_t i = 0; i < s->n_ranges && sio_ok(io); i++)
		range_io(io, s, &s->ranges[i], counts && s->allocated);
	if (counts && s->allocated)
		other_io(io, vm, s);
	if (!io->load || s->control_only)
		return io->err;
	if (!counts) { /* the start of a chunk: counting from zero */
		uint64_t since = s->active_since, cycles = s->active_cycles;
		if (s->allocated && zero_counts(s) != 0)
			return sio_fail(io, "out of host memory"), io->err;
		s->active_since = since;
		s->active_cycles = cycles;
		s->chunk = true;
		s->cleared = false;
		s->total = 0;
		s->by_runs = false;
	}
	s->n_pending = 0;
	s->ecall = NULL;
	sync_deadline(vm);
	return io->err;
}

/* Adds chunk c's counts to acc's (vm's sampler). */
static int merge_counts(struct cy_vm *vm, struct sampler *acc, struct sampler *c)
{
	if (c->cleared) { /* the counts before the chunk's start or reset are gone */
		for (size_t i = 0; i < acc->n_ranges; i++)
			if (acc->ranges[i].counts)
				memset(acc->ranges[i].counts, 0,
				       (acc->ranges[i].end - acc->ranges[i].start) / 2 * 8);
		if (acc->other_cap) {
			memset(acc->other_count, 0, acc->other_cap * sizeof(*acc->other_count));
			acc->other_used = 0;
		}
		acc->total = 0;
	}
	if (!c->allocated) /* stopped: nothing is left to add */
		return 0;
	if (ensure_counts(acc) != 0)
		return -ENOMEM;
	for (size_t i = 0; i < acc->n_ranges; i++) {
		size_t n = (acc->ranges[i].end - acc->ranges[i].start) / 2;
		if (!c->ranges[i].counts)
			continue;
		for (size_t k = 0; k < n; k++)
			acc->ranges[i].counts[k] += c->ranges[i].counts[k];
	}
	for (size_t i = 0; i < c->n_other_order; i++) {
		uint32_t pc = c->other_order[i];
		count_other(vm, pc, c->other_count[other_slot(c, pc)]);
	}
	acc->total += c->total;
	acc->warned_full |= c->warned_full;
	return vm->stop == CY_STOP_FAULT && vm->fault == CY_FAULT_HOST ? -ENOMEM : 0;
}

int sampler_merge_state(struct sio *io, struct cy_vm *vm)
{
	struct sampler *acc = vm->sampler, *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return -ENOMEM;
	c->out_fd = -1;
	c->n_ranges = acc->n_ranges;
	for (size_t i = 0; i < acc->n_ranges; i++)
		c->ranges[i] =
		    (cy_sample_range){ .start = acc->ranges[i].start, .end = acc->ranges[i].end };
	/* the chunk's sampler is restored in the fast pass's place, then added */
	vm->sampler = c;
	rc = sampler_state_io(io, vm);
	vm->sampler = acc;
	if (rc == 0 && !c->chunk) {
		sio_fail(io, "its sampler is not a chunk's");
		rc = io->err;
	}
	if (rc == 0)
		rc = merge_counts(vm, acc, c);
	free_counts(c);
	free(c->other_order);
	free(c);
	return rc;
}

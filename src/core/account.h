/* account.h - the accounting interface: the facts the executor produces for
 * the profilers, at the coarsest grain that keeps them exact.
 *
 * The interpreter never calls a profiler per instruction. It counts each
 * block's whole runs in the block itself (struct block: runs, taken), and
 * calls out only at the edges where something can change:
 *   - a control transfer that may change the call context: every jump with
 *     a call or return hint, and a plain jump or taken branch whose target
 *     lies outside the context range [ctx_lo, ctx_lo + ctx_size) that the
 *     subscribers set (0: report every one);
 *   - an ecall, before it is serviced and when it retires;
 *   - a store into a range a subscriber watches (acct_watch): the code
 *     map's test that every store makes already (block.h) finds it, so
 *     that watching costs nothing while no range is watched, and a store
 *     outside the watched ranges' 1 KiB chunks nothing either;
 *   - cycles an instruction costs beyond its static cost (a division by
 *     zero, wfi's idle cycles, a detailed model's wait states, paging and
 *     segments), reported when it retires;
 *   - a block run that ended early (a fault, a trap, the budget, a store
 *     into decoded code), with how many of its instructions retired;
 *   - a block that a subscriber flagged when it was decoded, when it runs;
 *   - the blocks' run counts before they are thrown away (a cache flush)
 *     or read (fold).
 * A subscriber turns these into exact per-instruction facts: an
 * instruction's static cost is the block's prefix costs (insn.before,
 * insn.after), its dynamic costs arrive as the extra events.
 *
 * Every subscriber also has a reference implementation on the
 * per-instruction events of cy_vm_add_observer (opts.reference), and a
 * differential test proves both give the same output byte for byte. */
#ifndef CY_ACCOUNT_H
#define CY_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "cyclops.h"

struct cy_vm;
struct insn;
struct block;

/* What a subscriber asks for. */
enum acct_event {
	ACCT_TRANSFER = 1u << 0,
	ACCT_ECALL = 1u << 1,
	ACCT_EXTRA = 1u << 2,
	ACCT_PARTIAL = 1u << 3,
	ACCT_FOLD = 1u << 4,
	ACCT_FLAGGED = 1u << 5,
	ACCT_DEADLINE = 1u << 6,
	/* no callback: the interpreter keeps vm->acct.last_from/last_to */
	ACCT_LAST_TRANSFER = 1u << 7,
	/* no callback: the executor lists the blocks whose counts moved
	 * (vm->acct.ran), for a subscriber that hands them out */
	ACCT_RAN = 1u << 8,
	/* a store into a watched range (acct_watch) */
	ACCT_STORE = 1u << 9,
};

struct acct_ops {
	/* A jump or taken branch retired; the clock is after it. Translated
	 * code calls it from inside a region, where the VM's clock and
	 * registers are the region's entry's: the subscriber reads the clock
	 * from its arguments and of the registers only the jump's link
	 * register (in->rd), and moves neither the deadline nor the
	 * histogram. A vm->break_loop it sets acts at the run's next
	 * return, in both engines (the run goes on after the call). */
	void (*transfer)(void *ctx, struct cy_vm *vm, const struct insn *in, uint32_t target,
			 uint64_t cycles, uint64_t instret);
	/* An ecall (number nr) is about to be serviced: the clock before it. */
	void (*ecall)(void *ctx, struct cy_vm *vm, const struct insn *in, uint32_t nr,
		      uint64_t cycles, uint64_t instret);
	/* The ecall retired. before: the clock before it (its cycles are
	 * cycles - before); the ABI may have moved the clock meanwhile. */
	void (*ecall_retired)(void *ctx, struct cy_vm *vm, const struct insn *in, uint64_t before,
			      uint64_t cycles, uint64_t instret);
	/* An instruction retired that cost extra cycles beyond its static cost
	 * (parts: a detailed model's, or NULL); before: the clock before it,
	 * cycles/instret: after it. What it stored, if it is the interpreter's
	 * pending extra: acct.extra_store_addr and _size. */
	void (*extra)(void *ctx, struct cy_vm *vm, const struct insn *in, int64_t extra,
		      const cy_cost_parts *parts, uint64_t before, uint64_t cycles,
		      uint64_t instret);
	/* A store of size bytes at addr, overlapping a watched range, was made
	 * (the memory holds what it wrote); the clock is before its
	 * instruction, which retires next (its cost and extra, if any, follow). */
	void (*store)(void *ctx, struct cy_vm *vm, const struct insn *in, uint64_t addr,
		      uint32_t size, uint64_t cycles, uint64_t instret);
	/* A run of block b ended after its first `retired` instructions
	 * (b->runs does not count it). The clock after them is
	 * (cycles, instret); the VM's clock is now `now` (an instruction that
	 * did not retire may have cost cycles, which nobody is charged).
	 * resumes: a budget cut the run, which goes on at the next
	 * instruction, with no code run in between; else a fault, a trap or a
	 * stop may follow (a trap's handler runs without a report). */
	void (*partial)(void *ctx, struct cy_vm *vm, const struct block *b, uint32_t retired,
			uint64_t cycles, uint64_t instret, uint64_t now, bool resumes);
	/* The blocks' counts are about to be lost or read: add up block b's
	 * (cache_fold calls it for every block, then zeroes the counts, so
	 * that every subscriber sees each run once). */
	void (*fold_block)(void *ctx, struct cy_vm *vm, struct block *b);
	/* A block was decoded: the flag bits the subscriber wants on it. */
	uint8_t (*decoded)(void *ctx, struct cy_vm *vm, struct block *b);
	/* Whether the block being decoded must end after in (so that what the
	 * subscriber learns there acts before the next instruction); NULL: no. */
	bool (*split_after)(void *ctx, struct cy_vm *vm, const struct insn *in);
	/* A flagged block ran its first `retired` entries (pseudo-ops
	 * included); instret is the count after them. A subscriber that sets
	 * vm->break_loop here makes the run return before the next block. */
	void (*flagged)(void *ctx, struct cy_vm *vm, const struct block *b, uint32_t retired,
			uint64_t instret);
	/* The clock reached vm->acct.deadline: block b ran its first
	 * `retired` instructions from clock `from` to clock `to` (each one's
	 * static cost, the last one's up to `to`). Reported when a block ends
	 * past the deadline, and before an instruction in the middle of a
	 * block costs other than its static cost (a division by zero, a data
	 * access's wait states or page-in): then `retired` ends with that
	 * instruction and `to` is its end. Only the accounting interpreters
	 * without per-instruction accounting report it
	 * (exec_reports_deadlines); the subscriber moves the deadline. */
	void (*deadline)(void *ctx, struct cy_vm *vm, struct block *b, uint32_t retired,
			 uint64_t from, uint64_t to);
	/* While vm->acct.phases is set: `runs` whole runs of block b went by
	 * without deadline() calls, each from a clock `from` to from + its
	 * static costs (a taken closing branch: + taken_extra), with its first
	 * sample, the first clock past `from` the deadline's phase reaches, at
	 * from + phase + 1 (phase < the interval). Reported at a fold
	 * (cache_fold: acct_fold_phases), in no particular order. */
	void (*phase_runs)(void *ctx, struct cy_vm *vm, const struct block *b, bool taken,
			   uint32_t phase, uint64_t runs);
};

#define ACCT_MAX_SUBS    4
#define ACCT_MAX_WATCH   4
#define ACCT_NO_DEADLINE UINT64_MAX
/* The largest interval between deadlines that translated code counts by
 * phases (acct.phases); a power of two */
#define ACCT_PHASES_MAX 64u

/* The bits of block.flags (acct_decoded): one per subscriber that flags
 * blocks, so that each one's flagged() can tell its own. */
enum acct_flag {
	ACCT_FLAG_TIMERS = 1u << 0,  /* the channel timers' announcement recogniser */
	ACCT_FLAG_SAMPLER = 1u << 1, /* code the sampler counts as it runs */
	ACCT_FLAG_DEBUG = 1u << 2,   /* the debugger's: a breakpoint may be next */
	/* a block that may fall through out of its function: the call-stack
	 * profiler learns whose the next block's runs are */
	ACCT_FLAG_CALLSTACK = 1u << 3,
};

/* The deadline subscriber's samples, counted by translated code itself
 * (jit_gen.c) instead of through its deadline() call, while counts is set
 * (the sampler, by blocks: sample.c keeps it with vm->acct.deadline). A
 * whole run of a block from clock `from` to `to` at its instructions'
 * static costs (the last one's up to `to`) that reaches *next takes the
 * samples T = *next, *next + interval, ... <= to; each counts the
 * instruction occupying cycle T - 1 (start < T <= end): the n samples of
 * one instruction add n to counts[(pc - lo) / 2] and to *total and move
 * *next by n * interval; *last_pc and *last_end are the last instruction
 * counted and its end, and vm->acct.deadline follows *next. An instruction
 * outside [lo, lo + size) is left to deadline(), the samples before it
 * counted (only the histogram's one range is here). */
struct acct_hist {
	uint64_t *counts;
	uint32_t lo, size;
	uint64_t interval;
	uint64_t *next, *total, *last_end;
	uint32_t *last_pc;
};

/* The blocks whose run counts (runs, taken) moved since the subscriber of
 * ACCT_RAN last emptied the list (its ran_reset), each listed once: a
 * hand-over of counts then visits what ran, not every block there is. A
 * block is listed when a whole run of it is counted and its ran field is
 * not the mark (acct_ran; translated code lists it itself, jit_gen.c);
 * emptying the list moves the mark, so that every block is unlisted at
 * once. With no room left (the list is not grown by translated code),
 * lost says that a block that ran may be missing: the subscriber then
 * visits every block (as does every subscriber while there are two: each
 * empties it). A cache flush empties it (the fold before it has handed
 * every count out). The generated code reads it through a struct
 * of the same layout: 32-bit fields, then the pointer. */
struct acct_ran {
	uint32_t mark;
	uint32_t n, cap;
	uint32_t lost;
	struct block **list;
};

struct acct_sub {
	unsigned events; /* enum acct_event bits */
	const struct acct_ops *ops;
	void *ctx;
};

/* A watched range of guest memory, and whose it is. */
struct acct_watch {
	uint64_t addr;
	uint32_t size;
	void *ctx;
};

struct acct {
	struct acct_sub subs[ACCT_MAX_SUBS];
	int n_subs;
	unsigned events; /* the union of the subscribers' */
	/* the call context: plain transfers into it are not reported */
	uint32_t ctx_lo, ctx_size;
	/* the next clock a subscriber must hear of (ACCT_DEADLINE);
	 * ACCT_NO_DEADLINE: none. There is one such subscriber at most, called
	 * straight from the interpreter (acct_deadline). */
	uint64_t deadline;
	struct acct_sub deadline_sub;
	/* the deadline subscriber's histogram, for translated code */
	struct acct_hist hist;
	/* the deadline's subscriber takes whole runs by phase (phase_runs):
	 * deadlines come every hist.interval cycles (a power of two, at most
	 * ACCT_PHASES_MAX), all of one phase, while the clock is the static
	 * costs', and the blocks outside the histogram's ranges are flagged;
	 * translated code then counts runs by phase instead of checking the
	 * deadline (jit.c), and fold_phases hands them out (cache_fold) */
	bool phases;
	void (*fold_phases)(struct cy_vm *vm);
	/* a subscriber relies on the interpreter's kind (exec_reports_deadlines,
	 * or the plain clock): engine_run returns, instead of changing the
	 * interpreter itself, when counting is turned on or off */
	bool return_on_repick;
	/* the last jump or taken branch (every one, reported or not), kept
	 * while a subscriber asks for ACCT_LAST_TRANSFER */
	bool has_last;
	uint32_t last_from, last_to;
	/* the latest clock an event carried (acct_*: the invariant below) */
	uint64_t clock;
	/* the blocks that ran, for the subscriber of ACCT_RAN, and how many
	 * the list may hold (0: no bound) */
	struct acct_ran ran;
	uint32_t ran_max;
	/* the watched ranges (ACCT_STORE), their chunks marked in the code map */
	struct acct_watch watch[ACCT_MAX_WATCH];
	int n_watch;
	/* the interpreter's: the store its code map test stopped (in memory,
	 * not in a local the loop would keep a register for) */
	uint64_t store_addr;
	uint32_t store_size;
	/* the interpreter's: the store made by the instruction whose extra
	 * (ACCT_EXTRA) is pending, for the extra's subscribers to read
	 * (extra_store_size 0: it stores nothing), as its STORE event says */
	uint64_t extra_store_addr;
	uint32_t extra_store_size;
};

/* The invariant every subscriber relies on: an event never carries a clock
 * older than one an earlier event carried, and an instruction's end is
 * never before its start, so no cost a profile holds is ever negative. The
 * executor's calls below check it; a violation is an internal error: the
 * event is not passed on and the run stops there, with a message
 * (vm->stop_message) naming the clocks and the pc. */

/* Subscribes ops for events; 0, or -EINVAL when there is no room (or a
 * second subscriber of ACCT_DEADLINE). The interpreter is picked again at
 * the next block boundary. */
int acct_subscribe(struct cy_vm *vm, unsigned events, const struct acct_ops *ops, void *ctx);
/* Ends ctx's subscription (from the next block on), and its watching. */
void acct_unsubscribe(struct cy_vm *vm, void *ctx);
/* Changes the events ctx's subscription asks for (from the next block on;
 * ACCT_FLAGGED's flags stay as they are on the blocks decoded so far). */
void acct_set_events(struct cy_vm *vm, void *ctx, unsigned events);
/* Watches [addr, addr + size) for ctx: from the next instruction on, every
 * store that overlaps it is reported to ctx's store() (ACCT_STORE). 0, or
 * -EINVAL when there is no room or the range is past MEM_CODE_LIMIT (where
 * the code map cannot mark it). acct_unwatch ends all of ctx's ranges. */
int acct_watch(struct cy_vm *vm, void *ctx, uint64_t addr, uint32_t size);
void acct_unwatch(struct cy_vm *vm, void *ctx);
/* The context range of the (only) transfer subscriber; 0 size: none. */
void acct_set_context(struct cy_vm *vm, uint32_t lo, uint32_t size);

/* The executor's calls (account.c): each hands the fact to every
 * subscriber that asked for it. acct_fold_block hands a block's run counts to
 * the subscribers of ACCT_FOLD and zeroes them: call it only between two
 * blocks, or in an ecall (the ecall's block is counted when it retires). */
void acct_transfer(struct cy_vm *vm, const struct insn *in, uint32_t target, uint64_t cycles,
		   uint64_t instret);
void acct_ecall(struct cy_vm *vm, const struct insn *in, uint32_t nr, uint64_t cycles,
		uint64_t instret);
void acct_ecall_retired(struct cy_vm *vm, const struct insn *in, uint64_t before, uint64_t cycles,
			uint64_t instret);
void acct_extra(struct cy_vm *vm, const struct insn *in, int64_t extra, const cy_cost_parts *parts,
		uint64_t before, uint64_t cycles, uint64_t instret);
/* A store that the code map's test found in a watched chunk (or code):
 * reported to the watchers of the ranges it overlaps, if any. */
void acct_store(struct cy_vm *vm, const struct insn *in, uint64_t addr, uint32_t size,
		uint64_t cycles, uint64_t instret);
void acct_partial(struct cy_vm *vm, const struct block *b, uint32_t retired, uint64_t cycles,
		  uint64_t instret, uint64_t now, bool resumes);
void acct_fold_block(struct cy_vm *vm, struct block *b);
void acct_phase_runs(struct cy_vm *vm, const struct block *b, bool taken, uint32_t phase,
		     uint64_t runs);
uint8_t acct_decoded(struct cy_vm *vm, struct block *b);
/* A whole run of b was counted and b is not listed (its ran field is not
 * the mark): listed now, if a subscriber asks for ACCT_RAN. */
void acct_ran(struct cy_vm *vm, struct block *b);
/* Frees the list (the VM's end). */
void acct_free(struct cy_vm *vm);
bool acct_split_after(struct cy_vm *vm, const struct insn *in);
void acct_flagged(struct cy_vm *vm, const struct block *b, uint32_t retired, uint64_t instret);
/* the deadline's subscriber, called straight (state.h has struct cy_vm) */
#define acct_deadline(vm, b, retired, from, to)                                                    \
	((vm)->acct.deadline_sub.ops->deadline((vm)->acct.deadline_sub.ctx, (vm), (b), (retired),  \
					       (from), (to)))

#endif

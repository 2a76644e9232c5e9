/* exec_loop.h - the interpreter loop and one handler per instruction.
 * Included several times by exec.c: DETAILED selects whether address-
 * dependent costs are accounted before each instruction, INLINE_COST that
 * they are found by each data access itself (and the whole account runs
 * only where it can matter: a missing page, the end of a segment), BARE the bare
 * platform's checks, ACCT the accounting interface's edges (account.h),
 * OBSERVE the per-instruction event hooks; EXEC_FN names the function. Not
 * a header to include elsewhere. */

/* XLEN: the guest's register width, 32 or 64 (one source, two builds:
 * docs/decisions.md, 64-bit guests). xreg holds a register, sxreg the same
 * signed; a W form's 32-bit result is sign-extended (sext32). */
#undef xreg
#undef sxreg
#undef XREGS
#undef AUIPC_VALUE
#undef MULH
#undef MULHSU
#undef MULHU
#undef DIV_S
#undef REM_S
#undef CSR_ACCESS
#undef BEYOND
#undef CODE_BEYOND
#if XLEN == 64
#define xreg  uint64_t
#define sxreg int64_t
#define XREGS vm->x64
/* the decoder keeps pc + imm in 32 bits; at XLEN 64 the sum may pass 4 GiB */
#define AUIPC_VALUE ((uint64_t)ip->pc + sext32((uint32_t)ip->imm - ip->pc))
#define MULH        mulh64
#define MULHSU      mulhsu64
#define MULHU       mulhu64
#define DIV_S       div_s64
#define REM_S       rem_s64
#define CSR_ACCESS  csr_access64
#define BEYOND(a)   ((a) >= MEM_SPACE_64)
/* a jump target past 4 GiB, where no code can be */
#define CODE_BEYOND(t) ((t) >= MEM_CODE_LIMIT)
#else
#define xreg           uint32_t
#define sxreg          int32_t
#define XREGS          vm->x
#define AUIPC_VALUE    ((uint32_t)ip->imm)
#define MULH           mulh
#define MULHSU         mulhsu
#define MULHU          mulhu
#define DIV_S          div_s
#define REM_S          rem_s
#define CSR_ACCESS     csr_access
#define BEYOND(a)      false
#define CODE_BEYOND(t) false
#endif

/* In the Linux builds mret and wfi are illegal: their dispatch entries
 * name the illegal handler (an extra label changes the code GCC makes of
 * the fast loop, and measurably slows it). */
#undef L_mret
#undef L_wfi
#if !BARE
#define L_mret L_illegal
#define L_wfi  L_illegal
#endif

#undef BEFORE_INSN
#undef FAULT_TRAP
#undef MACHINE_BEFORE
#if BARE
/* The bare platform's devices, interrupts and access faults come first: an
 * instruction that traps costs nothing of its own. */
#define FAULT_TRAP(kind)                                                                           \
	do {                                                                                       \
		if (bare && machine_fault(vm, kind))                                               \
			goto trapped;                                                              \
	} while (0)
#define MACHINE_BEFORE()                                                                           \
	do {                                                                                       \
		if (bare) {                                                                        \
			enum machine_action act_ =                                                 \
			    machine_before(vm, ip, NOW_CYCLES, NOW_INSTRET);                       \
			if (unlikely(act_ != MACHINE_RUN))                                         \
				ACCT_PARTIAL(ip->index, NOW_CYCLES, NOW_INSTRET, vm->cycles);      \
			if (unlikely(act_ == MACHINE_TRAP))                                        \
				goto trapped;                                                      \
			if (unlikely(act_ == MACHINE_STOP))                                        \
				goto out_synced;                                                   \
		}                                                                                  \
	} while (0)
#else
#define FAULT_TRAP(kind) ((void)0)
#define MACHINE_BEFORE() ((void)0)
#endif
#undef PROT_BEFORE
/* Page protections (core/prot.h, SP1 v6's untrusted programs): an
 * instruction whose fetch or data access the pages refuse traps to the
 * guest's handler, retiring as SP1 counts it, or stops the run. */
#define PROT_BEFORE()                                                                              \
	do {                                                                                       \
		enum prot_result pr_ = prot_before(vm, ip);                                        \
		if (pr_ == PROT_TRAPPED)                                                           \
			goto prot_trapped;                                                         \
		if (pr_ == PROT_STOPPED) {                                                         \
			SYNC();                                                                    \
			ACCT_DEADLINE(ip->index, cycles, NOW_CYCLES);                              \
			ACCT_PARTIAL(ip->index, RETIRED_CYCLES, NOW_INSTRET, NOW_CYCLES);          \
			goto out_synced;                                                           \
		}                                                                                  \
	} while (0)
#if DETAILED
/* Stops exactly at the budget, then accounts the instruction's wait states,
 * paging and segment start into the clock before it runs. */
#define BEFORE_INSN()                                                                              \
	do {                                                                                       \
		if (unlikely(NOW_CYCLES >= budget))                                                \
			goto stop_before_insn;                                                     \
		MACHINE_BEFORE();                                                                  \
		insn_clock = NOW_CYCLES;                                                           \
		if (unlikely(prot_on) && ip->op != OP_block_end)                                   \
			PROT_BEFORE();                                                             \
		/* the pseudo-op closing a block is no instruction: the fetch it                   \
		 * stands before is the next block's first instruction's, which                    \
		 * pays for it (no instruction would retire with it here) */                       \
		if (run_cost && ip->op != OP_block_end) {                                          \
			uint32_t x_ = cost_before(vm, ip, insn_clock);                             \
			cycles += x_;                                                              \
			ACCT_PENDING(x_);                                                          \
		}                                                                                  \
	} while (0)
#else
#define BEFORE_INSN() ((void)0)
#endif

/* INLINE_COST: each data access adds its own extra cycles before it is
 * made. With paging, the bitmaps are read inline and the whole account
 * (cost_before) runs only for an access to a page not yet loaded or
 * dirtied; without, the wait states are worked out inline. A block runs
 * only when its code pages are loaded and its worst case (max_worst) fits
 * before the budget and the segment's end (limit); else it is stepped one
 * instruction at a time, each accounted in full first (INLINE_STEP), so
 * segments start exactly where the detailed interpreter starts them. */
#undef DATA_COST
#undef ADD_EXTRA
#undef INLINE_STEP
#undef MAX_COST
#undef OWN_EXTRA
#undef LIMIT
#undef CODE_READY
#undef RELIMIT
#if INLINE_COST
/* shift: in the middle of a block, the clocks of the instructions after
 * this one move (ACCT_SHIFT); a stepped instruction is its block's last */
#define ADD_EXTRA(x, parts_, shift)                                                                \
	do {                                                                                       \
		uint32_t x__ = (x);                                                                \
		if (shift)                                                                         \
			ACCT_SHIFT(x__);                                                           \
		insn_clock = NOW_CYCLES;                                                           \
		extra_ip = ip;                                                                     \
		cycles += x__;                                                                     \
		ACCT_PENDING_PARTS(x__, parts_);                                                   \
	} while (0)
/* accesses: 2 for an AMO's load and store of the same word */
#define DATA_COST(a, size, store, accesses)                                                        \
	do {                                                                                       \
		if (paging) {                                                                      \
			if (unlikely(!pages_present(&vm->cost, depth, (a), (size), (store))))      \
				ADD_EXTRA(cost_before(vm, ip, NOW_CYCLES), &vm->cost.parts, true); \
		} else {                                                                           \
			uint32_t w_ = (accesses)*cost_model_access_wait(&vm->model, (a), (size));  \
			if (unlikely(w_))                                                          \
				ADD_EXTRA(w_, NULL, true);                                         \
		}                                                                                  \
	} while (0)
#define INLINE_STEP()                                                                              \
	do {                                                                                       \
		if (paging && b->insns[0].op != OP_block_end) {                                    \
			ip = b->insns;                                                             \
			ADD_EXTRA(cost_before(vm, ip, cycles), &vm->cost.parts, false);            \
			RELIMIT();                                                                 \
		}                                                                                  \
	} while (0)
#define OWN_EXTRA     (extra_ip == ip ? (uint32_t)(NOW_CYCLES - insn_clock) : 0u)
#define MAX_COST(b)   ((b)->max_worst)
#define LIMIT         limit
#define CODE_READY(b) (!paging || (b)->code_epoch == vm->cost.epoch || code_ready(vm, (b)))
#define RELIMIT()     (limit = inline_limit(vm, budget))
#else
#define DATA_COST(a, size, store, accesses) ((void)0)
#define INLINE_STEP()                       ((void)0)
#if DETAILED
#define OWN_EXTRA (uint32_t)(NOW_CYCLES - insn_clock)
#else
#define OWN_EXTRA 0u
#endif
#define MAX_COST(b)   ((b)->max_cost)
#define LIMIT         budget
#define CODE_READY(b) true
#define RELIMIT()     ((void)0)
#endif

/* The accounting interface (account.h): whole runs are counted in the
 * block; the rest goes out at the edges. RETIRED_CYCLES is the clock after
 * the instructions that retired, when the current one does not: its
 * address-dependent cycles (DETAILED) were already added to the clock. */
/* the link registers of the calling convention (ra, t0): call and return
 * hints (the RISC-V unprivileged specification) */
#undef IS_LINK
#define IS_LINK(r) ((r) == 1 || (r) == 5)
#undef ACCT_RUN
#undef STORE_SEEN
#undef ACCT_PARTIAL
#undef ACCT_PARTIAL_RESUMES
#undef ACCT_PARTIAL_RUN
#undef ACCT_TRANSFER
#undef ACCT_TAKEN
#undef ACCT_DEADLINE
#undef ACCT_SHIFT
#undef ACCT_PENDING
#undef ACCT_PENDING_PARTS
#undef ACCT_RETIRE
#undef ACCT_PENDING_STORE
#undef ACCT_EXTRA_NOW
#undef RETIRED_CYCLES
#if DETAILED
#define RETIRED_CYCLES insn_clock
#elif INLINE_COST && ACCT
#define RETIRED_CYCLES (acct_pending_any ? insn_clock : NOW_CYCLES)
#else
#define RETIRED_CYCLES NOW_CYCLES
#endif
#if ACCT
/* a store the code map's test stopped: code_written tells a watched range
 * (acct_watch) from code */
#define STORE_SEEN(a, size) (vm->acct.store_addr = (a), vm->acct.store_size = (size))
#define ACCT_RUN()                                                                                 \
	do {                                                                                       \
		b->runs++;                                                                         \
		if (unlikely(b->ran != vm->acct.ran.mark))                                         \
			acct_ran(vm, b);                                                           \
		if (unlikely(b->flags)) {                                                          \
			acct_flagged(vm, b, b->n, instret);                                        \
			if (vm->break_loop) /* return before the next block */                     \
				budget = 0, RELIMIT();                                             \
		}                                                                                  \
	} while (0)
#define ACCT_PARTIAL(k, cyc, ins, now)         ACCT_PARTIAL_RUN(k, cyc, ins, now, false)
#define ACCT_PARTIAL_RESUMES(k, cyc, ins, now) ACCT_PARTIAL_RUN(k, cyc, ins, now, true)
#define ACCT_PARTIAL_RUN(k, cyc, ins, now, resumes)                                                \
	do {                                                                                       \
		acct_partial(vm, b, (k), (cyc), (ins), (now), (resumes));                          \
		if (unlikely(b->flags))                                                            \
			acct_flagged(vm, b, (k), (ins));                                           \
	} while (0)
/* after the jump retired (cycles and instret are past it); plain: no call
 * or return hint, so a target inside the context changes nothing */
#define ACCT_TRANSFER(t, plain)                                                                    \
	do {                                                                                       \
		uint32_t t_ = (t);                                                                 \
		if (keep_last) {                                                                   \
			vm->acct.has_last = true;                                                  \
			vm->acct.last_from = ip->pc;                                               \
			vm->acct.last_to = t_;                                                     \
		}                                                                                  \
		if (want_transfer && !((plain) && t_ - vm->acct.ctx_lo < vm->acct.ctx_size))       \
			acct_transfer(vm, ip, t_, cycles, instret);                                \
	} while (0)
#define ACCT_TAKEN() (b->taken++)
#if !DETAILED
/* the plain build's clock is each instruction's static cost: whoever waits
 * for a clock hears of it when a block ends past it */
#define ACCT_DEADLINE(k, from, to)                                                                 \
	do {                                                                                       \
		if (unlikely((to) >= vm->acct.deadline))                                           \
			acct_deadline(vm, b, (k), (from), (to));                                   \
	} while (0)
/* the current instruction, in the middle of its block, costs x more than
 * its static cost (x may be negative: a division by zero): the clocks after
 * it move, so whoever waits for a clock hears first of the instructions up
 * to the end of this one, at their static clocks */
#define ACCT_SHIFT(x)                                                                              \
	do {                                                                                       \
		uint64_t end_ = NOW_CYCLES + (uint64_t)(int64_t)(x) + COST;                        \
		if (unlikely(end_ >= vm->acct.deadline))                                           \
			acct_deadline(vm, b, ip->index + 1u, cycles, end_);                        \
	} while (0)
#else
#define ACCT_DEADLINE(k, from, to) ((void)0)
#define ACCT_SHIFT(x)              ((void)0)
#endif
/* an extra known now, for the instruction that is sure to retire */
#define ACCT_EXTRA_NOW(x, before, after)                                                           \
	acct_extra(vm, ip, (x), NULL, (before), (after), NOW_INSTRET + 1)
#if DETAILED || INLINE_COST
/* a detailed model's extra is reported when its instruction retires */
#define ACCT_PENDING(x) ACCT_PENDING_PARTS(x, detailed ? &vm->cost.parts : NULL)
#define ACCT_PENDING_PARTS(x, parts_)                                                              \
	do {                                                                                       \
		acct_pending = (x);                                                                \
		acct_parts = (parts_);                                                             \
		acct_pending_any = acct_pending || vm->cost.parts.segment_start;                   \
	} while (0)
#define ACCT_RETIRE(after)                                                                         \
	do {                                                                                       \
		if (unlikely(acct_pending_any)) {                                                  \
			acct_extra(vm, ip, acct_pending, acct_parts, insn_clock, (after),          \
				   NOW_INSTRET + 1);                                               \
			acct_pending_any = false;                                                  \
			vm->acct.extra_store_size = 0;                                             \
		}                                                                                  \
	} while (0)
/* the store of an instruction with an extra pending, for the extra */
#define ACCT_PENDING_STORE(a, size)                                                                \
	do {                                                                                       \
		if (unlikely(acct_pending_any)) {                                                  \
			vm->acct.extra_store_addr = (a);                                           \
			vm->acct.extra_store_size = (size);                                        \
		}                                                                                  \
	} while (0)
#else
#define ACCT_PENDING(x)               ((void)0)
#define ACCT_PENDING_PARTS(x, parts_) ((void)0)
#define ACCT_RETIRE(after)            ((void)0)
#define ACCT_PENDING_STORE(a, size)   ((void)0)
#endif
#else
#define STORE_SEEN(a, size)                    ((void)0)
#define ACCT_RUN()                             ((void)0)
#define ACCT_PARTIAL(k, cyc, ins, now)         ((void)0)
#define ACCT_PARTIAL_RESUMES(k, cyc, ins, now) ((void)0)
#define ACCT_TRANSFER(t, plain)                ((void)0)
#define ACCT_TAKEN()                           ((void)0)
#define ACCT_DEADLINE(k, from, to)             ((void)0)
#define ACCT_SHIFT(x)                          ((void)0)
#define ACCT_EXTRA_NOW(x, b, a)                ((void)0)
#define ACCT_PENDING(x)                        ((void)0)
#define ACCT_PENDING_PARTS(x, parts)           ((void)0)
#define ACCT_RETIRE(after)                     ((void)0)
#define ACCT_PENDING_STORE(a, size)            ((void)0)
#endif

#undef OBS_RETIRE
#undef OBS_JUMP
#undef OBS_STORE
#undef OBS_BLOCK
#undef OBS_EVENT
#if OBSERVE
#define OBS_EVENT_AT(kind, cyc, ins, ...)                                                          \
	do {                                                                                       \
		if (obs & CY_EV_BIT(kind)) {                                                       \
			cy_event ev_ = { __VA_ARGS__ };                                            \
			emit(vm, kind, ip, (cyc), (ins), &ev_);                                    \
		}                                                                                  \
	} while (0)
#define OBS_EVENT(kind, ...) OBS_EVENT_AT(kind, NOW_CYCLES, NOW_INSTRET, __VA_ARGS__)
#define OBS_RETIRE(c_)                                                                             \
	OBS_EVENT_AT(CY_EV_RETIRE, NOW_CYCLES + (c_), NOW_INSTRET + 1,                             \
		     .cost = (uint32_t)(NOW_CYCLES + (c_)-insn_clock),                             \
		     .parts = detailed ? &vm->cost.parts : NULL)
#define OBS_JUMP(to)                                                                               \
	OBS_EVENT(CY_EV_JUMP, .target = (to), .rd = (uint8_t)(ip->rd == REG_SINK ? 0 : ip->rd),    \
		  .rs1 = ip->rs1)
#define OBS_STORE(a_, n_) OBS_EVENT(CY_EV_STORE, .addr = (a_), .size = (n_))
#define OBS_BLOCK()       OBS_EVENT(CY_EV_BLOCK, .addr = 0)
#else
#define OBS_EVENT(kind, ...) ((void)0)
#define OBS_RETIRE(cost)     ((void)0)
#define OBS_JUMP(to)         ((void)0)
#define OBS_STORE(a, size)   ((void)0)
#define OBS_BLOCK()          ((void)0)
#endif

/* Runs vm until the budget is reached or the guest stops. Called with a
 * NULL vm, it only returns its handler addresses by opcode. */
/* A division by zero costs what the model says instead (read the divisor
 * before the result can overwrite it). */
#undef DIV_ZERO_COST
#define DIV_ZERO_COST() DIV_ZERO_COST_IF(R2 == 0)
#undef DIV_ZERO_COST_IF
#define DIV_ZERO_COST_IF(zero)                                                                     \
	do {                                                                                       \
		if (unlikely(zero)) {                                                              \
			ACCT_SHIFT(div_zero_delta);                                                \
			cycles += div_zero_delta;                                                  \
			if (div_zero_delta)                                                        \
				ACCT_EXTRA_NOW((int64_t)div_zero_delta,                            \
					       NOW_CYCLES - div_zero_delta, NOW_CYCLES + COST);    \
		}                                                                                  \
	} while (0)

const void *const *EXEC_FN(struct cy_vm *vm, uint64_t budget)
{
#if USE_COMPUTED_GOTO
#define LABEL_ADDR(id, mn, fmt, cls, fl) &&L_##id,
#if XLEN == 64
#define LABEL_RV64(id, mn, fmt, cls, fl) &&L_##id,
#else
#define LABEL_RV64(id, mn, fmt, cls, fl) &&L_illegal, /* the decoder gives none at XLEN 32 */
#endif
	static const void *const labels[OP_COUNT] = { CY_INSN32_LIST(LABEL_ADDR)
							  CY_INSN64_LIST(LABEL_RV64) };
#undef LABEL_ADDR
#undef LABEL_RV64
	if (!vm)
		return labels;
#else
	if (!vm)
		return NULL;
#endif
#if OBSERVE
	const unsigned obs = vm->obs_mask;
#endif
	xreg *const r = XREGS;
	uint8_t *const mem = vm->mem.base;
	const uint32_t taken_extra = vm->cost.taken_extra;
	const uint64_t div_zero_delta = (uint64_t)(int64_t)vm->cost.div_zero_delta;
#if ACCT
	const bool want_transfer = vm->acct.events & ACCT_TRANSFER;
	const bool keep_last = vm->acct.events & ACCT_LAST_TRANSFER;
#endif
#if DETAILED || INLINE_COST
	/* the clock before the current instruction (DETAILED), or before the
	 * last one that cost extra (INLINE_COST) */
	uint64_t insn_clock __attribute__((unused)) = 0;
	/* the cost model's account (cost/detailed.c), through its hook */
	uint32_t (*const cost_before)(struct cy_vm *, const struct insn *, uint64_t) =
	    vm->cost.before;
#if ACCT
	/* the current instruction's extra, until it retires */
	uint32_t acct_pending = 0;
	bool acct_pending_any = false;
	const cy_cost_parts *acct_parts = NULL;
#endif
#endif
#if DETAILED
	/* the observed interpreter runs the cost account only when the model
	 * needs it; its RETIRE events then carry the cost's parts */
	const bool detailed = vm->cost.detailed;
	/* the account runs for the model's costs or the counters' events; the
	 * plain detailed and bare builds are picked only when it must run */
	const bool run_cost = (!OBSERVE && !ACCT) || detailed || vm->ctr.counting;
#endif
#if INLINE_COST
	const struct insn *extra_ip = NULL; /* the instruction that cost it */
	const bool paging = vm->model.paging;
	const uint32_t depth = vm->model.merkle_depth;
	uint64_t limit = inline_limit(vm, budget); /* LIMIT */
#endif
#if BARE
	const bool bare = vm->machine != NULL;
#endif
#if DETAILED
	const bool prot_on = vm->prot != NULL;
#endif
	uint64_t cycles = vm->cycles, instret = vm->instret;
	/* last_pc: the instruction before the current block, for a fault
	 * message; carried from the previous run, so that where a run was
	 * sliced does not change what the message says */
	uint32_t pc = vm->pc, last_pc = vm->last_pc;
	struct block *b = NULL, **succ = NULL;
	const struct insn *ip = NULL;
	uint32_t generation;

	if (cycles >= budget)
		goto out;
	goto lookup;

next_block: /* pc is where to go; succ the slot that caches its block */
	b = *succ;
	if (b->pc != pc) {
		/* the jump that led here, for a fault message (a block that
		 * faults is never entered through a cached successor) */
		last_pc = ip->pc;
	lookup:
		generation = vm->cache.generation;
		b = cache_lookup(vm, pc);
		if (unlikely(!b))
			goto no_memory;
		if (succ) { /* a jump or a fall-through led here */
			b->entered = true;
			if (generation == vm->cache.generation)
				*succ = b;
		}
	}
	/* near the budget, run one instruction at a time so that the run stops
	 * at the first instruction boundary at or past it */
	if (unlikely(cycles + MAX_COST(b) > LIMIT || !CODE_READY(b))) {
		if (cycles >= budget)
			goto out;
		b = cache_single(vm, pc);
		if (unlikely(!b))
			goto no_memory;
		INLINE_STEP();
	}
	ip = b->insns;
	OBS_BLOCK();
	vmdispatch()
	{
		vmcase(lui)
		{
			RD = IMM;
			NEXT;
		}
		vmcase(auipc)
		{
			RD = AUIPC_VALUE;
			NEXT;
		}
		vmcase(jal)
		{
			RD = NEXT_PC;
			OBS_JUMP((uint32_t)ip->imm);
			RETIRE_LAST(0);
			ACCT_TRANSFER((uint32_t)ip->imm, !IS_LINK(ip->rd));
			JUMP((uint32_t)ip->imm, 1);
		}
		vmcase(jalr)
		{
			const xreg t_full = (R1 + IMM) & ~(xreg)1;
			if (unlikely(CODE_BEYOND(t_full)))
				FAULT_AT(CY_FAULT_FETCH, t_full);
			const uint32_t t = (uint32_t)t_full;
			RD = NEXT_PC;
			OBS_JUMP(t);
			RETIRE_LAST(0);
			ACCT_TRANSFER(t, !IS_LINK(ip->rd) && !IS_LINK(ip->rs1));
			JUMP(t, 1);
		}
		vmcase(beq) BRANCH(R1 == R2);
		vmcase(bne) BRANCH(R1 != R2);
		vmcase(blt) BRANCH((sxreg)R1 < (sxreg)R2);
		vmcase(bge) BRANCH((sxreg)R1 >= (sxreg)R2);
		vmcase(bltu) BRANCH(R1 < R2);
		vmcase(bgeu) BRANCH(R1 >= R2);
		vmcase(lb)
		{
			EFFECTIVE(a, R1 + IMM);
			ACCESS(a, 1, false, 1);
			RD = (xreg)(sxreg)(int8_t)mem[a];
			NEXT;
		}
		vmcase(lh)
		{
			EFFECTIVE(a, R1 + IMM);
			ACCESS(a, 2, false, 1);
			RD = (xreg)(sxreg)(int16_t)mem_ld16(mem, a);
			NEXT;
		}
		vmcase(lw)
		{
			EFFECTIVE(a, R1 + IMM);
			ACCESS(a, 4, false, 1);
			RD = (xreg)(sxreg)(int32_t)mem_ld32(mem, a);
			NEXT;
		}
		vmcase(lbu)
		{
			EFFECTIVE(a, R1 + IMM);
			ACCESS(a, 1, false, 1);
			RD = mem[a];
			NEXT;
		}
		vmcase(lhu)
		{
			EFFECTIVE(a, R1 + IMM);
			ACCESS(a, 2, false, 1);
			RD = mem_ld16(mem, a);
			NEXT;
		}
		vmcase(sb) STORE(1, mem[a] = (uint8_t)R2);
		vmcase(sh) STORE(2, mem_st16(mem, a, (uint16_t)R2));
		vmcase(sw) STORE(4, mem_st32(mem, a, (uint32_t)R2));
		vmcase(addi)
		{
			RD = R1 + IMM;
			NEXT;
		}
		vmcase(slti)
		{
			RD = (sxreg)R1 < (sxreg)ip->imm;
			NEXT;
		}
		vmcase(sltiu)
		{
			RD = R1 < IMM;
			NEXT;
		}
		vmcase(xori)
		{
			RD = R1 ^ IMM;
			NEXT;
		}
		vmcase(ori)
		{
			RD = R1 | IMM;
			NEXT;
		}
		vmcase(andi)
		{
			RD = R1 & IMM;
			NEXT;
		}
		vmcase(slli)
		{
			RD = R1 << ip->imm;
			NEXT;
		}
		vmcase(srli)
		{
			RD = R1 >> ip->imm;
			NEXT;
		}
		vmcase(srai)
		{
			RD = (xreg)((sxreg)R1 >> ip->imm);
			NEXT;
		}
		vmcase(add)
		{
			RD = R1 + R2;
			NEXT;
		}
		vmcase(sub)
		{
			RD = R1 - R2;
			NEXT;
		}
		vmcase(sll)
		{
			RD = R1 << (R2 & (XLEN - 1));
			NEXT;
		}
		vmcase(slt)
		{
			RD = (sxreg)R1 < (sxreg)R2;
			NEXT;
		}
		vmcase(sltu)
		{
			RD = R1 < R2;
			NEXT;
		}
		vmcase(xor)
		{
			RD = R1 ^ R2;
			NEXT;
		}
		vmcase(srl)
		{
			RD = R1 >> (R2 & (XLEN - 1));
			NEXT;
		}
		vmcase(sra)
		{
			RD = (xreg)((sxreg)R1 >> (R2 & (XLEN - 1)));
			NEXT;
		}
		vmcase(or)
		{
			RD = R1 | R2;
			NEXT;
		}
		vmcase(and)
		{
			RD = R1 & R2;
			NEXT;
		}
		vmcase(fence) { NEXT; }
		vmcase(fence_i)
		{
			vm->flush_pending = true;
			RETIRE_LAST(0);
			ACCT_RUN();
			pc = NEXT_PC;
			goto out;
		}
		vmcase(ecall)
		{
			SYNC();
#if BARE
			if (bare) { /* mtval 0 */
				ACCT_PARTIAL(ip->index, RETIRED_CYCLES, NOW_INSTRET, NOW_CYCLES);
				if (machine_exception(vm, CAUSE_ECALL_M, 0))
					goto trapped;
				vm_fault(vm, CY_FAULT_ILLEGAL_INSN, ip->pc, last_pc);
				goto out_synced;
			}
#endif
			OBS_EVENT(CY_EV_ECALL, .addr = vm->zkvm ? r[5] : r[17]);
			ACCT_DEADLINE(ip->index, cycles, NOW_CYCLES);
#if ACCT
			const uint64_t ecall_before = RETIRED_CYCLES;
			acct_ecall(vm, ip, vm->zkvm ? r[5] : r[17], ecall_before, NOW_INSTRET);
#endif
			vm->syscall(vm);
			/* cycles the ABI charged to the call (a zkVM accelerator's
			 * own, a model's syscall row) are the ecall's extra, as
			 * wfi's idle cycles are, so the deadlines see them at the
			 * ecall; a clock the ABI put back (an unconstrained block's
			 * end) moves the block's clocks instead */
			uint64_t charged = vm->cycles - NOW_CYCLES;
			if (unlikely(charged > UINT32_MAX || vm->instret != NOW_INSTRET)) {
				RELOAD();
				charged = 0;
			}
			RELIMIT(); /* the ABI may have moved the clock */
			RETIRE_LAST((uint32_t)charged);
#if ACCT
			acct_ecall_retired(vm, ip, ecall_before, cycles, instret);
#endif
			if (unlikely(vm->break_loop)) {
				ACCT_RUN();
				pc = NEXT_PC;
				if (vm->ecall_redirect) {
					pc = vm->ecall_next_pc;
					vm->ecall_redirect = false;
				}
				goto out;
			}
			JUMP(NEXT_PC, 0);
		}
		vmcase(ebreak) FAULT(CY_FAULT_EBREAK);
		vmcase(csrrw) vmcase(csrrs) vmcase(csrrc) vmcase(csrrwi) vmcase(csrrsi)
		    vmcase(csrrci)
		{
			/* the immediate forms carry uimm in rs1 */
			bool imm_form = ip->op >= OP_csrrwi;
			xreg src = imm_form ? ip->rs1 : R1, old, val;
			bool set_clear = ip->op != OP_csrrw && ip->op != OP_csrrwi;
			bool write = !set_clear || ip->rs1 != 0;
			SYNC();
			vm->insn_cycles = COST + OWN_EXTRA;
			if (CSR_ACCESS(vm, (uint32_t)ip->imm, false, 0, &old) != 0)
				FAULT(CY_FAULT_ILLEGAL_INSN);
			val = ip->op == OP_csrrs || ip->op == OP_csrrsi   ? old | src
			      : ip->op == OP_csrrc || ip->op == OP_csrrci ? old & ~src
									  : src;
			if (write && CSR_ACCESS(vm, (uint32_t)ip->imm, true, val, &old) != 0)
				FAULT(CY_FAULT_ILLEGAL_INSN);
			OBS_EVENT(CY_EV_CSR, .addr = (uint32_t)ip->imm, .size = write);
			RELOAD();
			RD = old;
			/* counting turned on or off: a CSR instruction ends its
			 * block (block.c), and with no budget left the run
			 * returns there, to switch interpreters */
			if (unlikely(vm->flush_pending))
				budget = 0, RELIMIT();
			NEXT;
		}
		vmcase(mul)
		{
			RD = R1 * R2;
			NEXT;
		}
		vmcase(mulh)
		{
			RD = MULH(R1, R2);
			NEXT;
		}
		vmcase(mulhsu)
		{
			RD = MULHSU(R1, R2);
			NEXT;
		}
		vmcase(mulhu)
		{
			RD = MULHU(R1, R2);
			NEXT;
		}
		vmcase(div)
		{
			DIV_ZERO_COST();
			RD = DIV_S(R1, R2);
			NEXT;
		}
		vmcase(divu)
		{
			DIV_ZERO_COST();
			RD = R2 ? R1 / R2 : (xreg)-1;
			NEXT;
		}
		vmcase(rem)
		{
			DIV_ZERO_COST();
			RD = REM_S(R1, R2);
			NEXT;
		}
		vmcase(remu)
		{
			DIV_ZERO_COST();
			RD = R2 ? R1 % R2 : R1;
			NEXT;
		}
		vmcase(lr_w)
		{
			EFFECTIVE(a, R1);
			ACCESS(a, 4, false, 1);
			vm->resv_addr = a;
			vm->resv_valid = true;
			RD = (xreg)(sxreg)(int32_t)mem_ld32(mem, a);
			NEXT;
		}
		vmcase(sc_w)
		{
			EFFECTIVE(a, R1);
			if (vm->resv_valid && vm->resv_addr == a) {
				ACCESS(a, 4, true, 1);
				vm->resv_valid = false;
				mem_st32(mem, a, (uint32_t)R2);
				RD = 0;
				STORED(a, 4);
			}
			vm->resv_valid = false;
			RD = 1;
			NEXT;
		}
#define AMO(id, expr)                                                                              \
	vmcase(id)                                                                                 \
	{                                                                                          \
		EFFECTIVE(a, R1);                                                                  \
		uint32_t old, src = (uint32_t)R2;                                                  \
		ACCESS(a, 4, true, 2);                                                             \
		old = mem_ld32(mem, a);                                                            \
		mem_st32(mem, a, (expr));                                                          \
		RD = (xreg)(sxreg)(int32_t)old;                                                    \
		STORED(a, 4);                                                                      \
	}
		AMO(amoswap_w, src)
		AMO(amoadd_w, old + src)
		AMO(amoxor_w, old ^ src)
		AMO(amoand_w, old & src)
		AMO(amoor_w, old | src)
		AMO(amomin_w, min_s(old, src))
		AMO(amomax_w, max_s(old, src))
		AMO(amominu_w, old < src ? old : src)
		AMO(amomaxu_w, old > src ? old : src)
#undef AMO
#if XLEN == 64
		/* RV64's own: doublewords, and the W forms (32-bit results,
		 * sign-extended) */
		vmcase(ld)
		{
			EFFECTIVE(a, R1 + IMM);
			ACCESS(a, 8, false, 1);
			RD = mem_ld64(mem, a);
			NEXT;
		}
		vmcase(lwu)
		{
			EFFECTIVE(a, R1 + IMM);
			ACCESS(a, 4, false, 1);
			RD = mem_ld32(mem, a);
			NEXT;
		}
		vmcase(sd) STORE(8, mem_st64(mem, a, R2));
		vmcase(addiw)
		{
			RD = sext32((uint32_t)R1 + (uint32_t)ip->imm);
			NEXT;
		}
		vmcase(slliw)
		{
			RD = sext32((uint32_t)R1 << ip->imm);
			NEXT;
		}
		vmcase(srliw)
		{
			RD = sext32((uint32_t)R1 >> ip->imm);
			NEXT;
		}
		vmcase(sraiw)
		{
			RD = sext32((uint32_t)((int32_t)R1 >> ip->imm));
			NEXT;
		}
		vmcase(addw)
		{
			RD = sext32((uint32_t)R1 + (uint32_t)R2);
			NEXT;
		}
		vmcase(subw)
		{
			RD = sext32((uint32_t)R1 - (uint32_t)R2);
			NEXT;
		}
		vmcase(sllw)
		{
			RD = sext32((uint32_t)R1 << (R2 & 31));
			NEXT;
		}
		vmcase(srlw)
		{
			RD = sext32((uint32_t)R1 >> (R2 & 31));
			NEXT;
		}
		vmcase(sraw)
		{
			RD = sext32((uint32_t)((int32_t)R1 >> (R2 & 31)));
			NEXT;
		}
		vmcase(mulw)
		{
			RD = sext32((uint32_t)R1 * (uint32_t)R2);
			NEXT;
		}
		vmcase(divw)
		{
			DIV_ZERO_COST_IF((uint32_t)R2 == 0);
			RD = sext32(div_s((uint32_t)R1, (uint32_t)R2));
			NEXT;
		}
		vmcase(divuw)
		{
			DIV_ZERO_COST_IF((uint32_t)R2 == 0);
			RD = sext32((uint32_t)R2 ? (uint32_t)R1 / (uint32_t)R2 : UINT32_MAX);
			NEXT;
		}
		vmcase(remw)
		{
			DIV_ZERO_COST_IF((uint32_t)R2 == 0);
			RD = sext32(rem_s((uint32_t)R1, (uint32_t)R2));
			NEXT;
		}
		vmcase(remuw)
		{
			DIV_ZERO_COST_IF((uint32_t)R2 == 0);
			RD = sext32((uint32_t)R2 ? (uint32_t)R1 % (uint32_t)R2 : (uint32_t)R1);
			NEXT;
		}
		vmcase(lr_d)
		{
			EFFECTIVE(a, R1);
			ACCESS(a, 8, false, 1);
			vm->resv_addr = a;
			vm->resv_valid = true;
			RD = mem_ld64(mem, a);
			NEXT;
		}
		vmcase(sc_d)
		{
			EFFECTIVE(a, R1);
			if (vm->resv_valid && vm->resv_addr == a) {
				ACCESS(a, 8, true, 1);
				vm->resv_valid = false;
				mem_st64(mem, a, R2);
				RD = 0;
				STORED(a, 8);
			}
			vm->resv_valid = false;
			RD = 1;
			NEXT;
		}
#define AMO_D(id, expr)                                                                            \
	vmcase(id)                                                                                 \
	{                                                                                          \
		EFFECTIVE(a, R1);                                                                  \
		uint64_t old, src = R2;                                                            \
		ACCESS(a, 8, true, 2);                                                             \
		old = mem_ld64(mem, a);                                                            \
		mem_st64(mem, a, (expr));                                                          \
		RD = old;                                                                          \
		STORED(a, 8);                                                                      \
	}
		AMO_D(amoswap_d, src)
		AMO_D(amoadd_d, old + src)
		AMO_D(amoxor_d, old ^ src)
		AMO_D(amoand_d, old & src)
		AMO_D(amoor_d, old | src)
		AMO_D(amomin_d, min_s64(old, src))
		AMO_D(amomax_d, max_s64(old, src))
		AMO_D(amominu_d, old < src ? old : src)
		AMO_D(amomaxu_d, old > src ? old : src)
#undef AMO_D
#endif
#if BARE
		vmcase(mret)
		{
			if (bare) {
				const xreg t_full = (xreg)machine_mret(vm);
				if (unlikely(CODE_BEYOND(t_full)))
					FAULT_AT(CY_FAULT_FETCH, t_full);
				const uint32_t t = (uint32_t)t_full;
				OBS_EVENT(CY_EV_TRAP_RETURN, .addr = vm->machine->mcause,
					  .target = t);
				OBS_JUMP(t);
				RETIRE_LAST(0);
				ACCT_TRANSFER(t, false);
				JUMP(t, 1);
			}
			FAULT(CY_FAULT_ILLEGAL_INSN); /* machine mode only */
		}
		vmcase(wfi)
		{
			if (bare) { /* the idle cycles until an interrupt are its own */
				uint32_t idle = (uint32_t)machine_wfi(vm, NOW_CYCLES, budget);
				if (idle)
					ACCT_EXTRA_NOW(idle, NOW_CYCLES, NOW_CYCLES + COST + idle);
				RETIRE_LAST(idle);
				JUMP(NEXT_PC, 0);
			}
			FAULT(CY_FAULT_ILLEGAL_INSN);
		}
#elif !USE_COMPUTED_GOTO
		vmcase(mret) vmcase(wfi) /* illegal in user mode */
#endif
#if !USE_COMPUTED_GOTO && XLEN != 64
#define CASE_RV64(id, mn, fmt, cls, fl) vmcase(id)
		CY_INSN64_LIST(CASE_RV64) /* the decoder gives none at XLEN 32 */
#undef CASE_RV64
#endif
		vmcase(illegal) FAULT(CY_FAULT_ILLEGAL_INSN);
		vmcase(fetch_fault) FAULT(CY_FAULT_FETCH);
		vmcase(jit_enter)
		{
			/* the block's first instruction, whose block a translation
			 * starts (core/jit.c): the run returns to the driver at the
			 * block's start, unless it must stay here */
#if USE_COMPUTED_GOTO
			/* only the builds translated code is made for hand over
			 * (the inline ones: under a detailed model, core/jit.c) */
			if (!vm->jit_driving || DETAILED || BARE || OBSERVE)
				goto *labels[ip->op];
#endif
			vm->jit_entered = true;
			vm->pc = ip->pc;
			vm->cycles = cycles;
			vm->instret = instret;
			goto out_synced;
		}
		vmcase(block_end)
		{
			/* not an instruction: it only moves the clock to its end */
			ACCT_DEADLINE(ip->index, cycles, cycles + ip->after);
			instret += ip->index;
			cycles += ip->after;
			JUMP(ip->pc, 0);
		}
	}

#if DETAILED
prot_trapped: /* a page protection sent the instruction at ip to the trap
	       * handler: it retires, as SP1 counts it, and the run goes on there */
	RETIRE_LAST(0);
	ACCT_PARTIAL(ip->index + 1u, cycles, instret, cycles);
	pc = (uint32_t)prot_target(vm);
	goto out;
#endif
code_written: /* the store just executed changed decoded code, or a watched range */
#if ACCT
	if (vm->acct.n_watch) {
		/* the clock before the store, which retires next */
		acct_store(vm, ip, vm->acct.store_addr, vm->acct.store_size, RETIRED_CYCLES,
			   NOW_INSTRET);
		if (!cache_holds_code(&vm->cache, vm->acct.store_addr, vm->acct.store_size))
			NEXT; /* no code changed: the block goes on */
	}
#endif
	vm->flush_pending = true;
	RETIRE_LAST(0);
	ACCT_PARTIAL(ip->index + 1u, cycles, instret, cycles);
	pc = NEXT_PC;
	goto out;
#if BARE
trapped: /* a trap moved vm->pc to its handler, with the clock in vm */
	pc = vm->pc;
	cycles = vm->cycles;
	instret = vm->instret;
	last_pc = ip->pc;
	succ = NULL;
	if (vm->stop != CY_STOP_NONE || vm->break_loop)
		goto out_synced;
#if OBSERVE
	if (obs & CY_EV_BIT(CY_EV_TRAP)) {
		cy_event ev = { .addr = vm->machine->mcause, .target = pc };
		emit(vm, CY_EV_TRAP, ip, cycles, instret, &ev);
	}
#endif
	goto lookup;
#endif
no_memory: /* no room to decode the block at pc */
	vm->pc = pc;
	vm->cycles = cycles;
	vm->instret = instret;
	vm_fault(vm, CY_FAULT_HOST, pc, last_pc);
	goto out_synced;
#if DETAILED
stop_before_insn: /* the budget ran out before the instruction at ip */
	ACCT_PARTIAL_RESUMES(ip->index, NOW_CYCLES, NOW_INSTRET, NOW_CYCLES);
	pc = ip->pc;
	cycles = NOW_CYCLES;
	instret = NOW_INSTRET;
	/* the run goes on inside the block: what led to it stays the same */
	vm->last_pc = last_pc;
	if (ip > b->insns)
		ip--; /* the last one that retired, for the sampler */
	goto out_at_insn;
#endif
out:            /* cycles and instret are the clock at pc */
	if (ip) /* a run that goes on comes from here */
		vm->last_pc = ip->pc;
#if DETAILED
out_at_insn:
#endif
	if (ip) /* the sampler's: the last instruction that retired */
		vm->retired_pc = ip->op == OP_block_end ? ip[-1].pc : ip->pc;
	vm->pc = pc;
	vm->cycles = cycles;
	vm->instret = instret;
out_synced:
	return NULL;
}

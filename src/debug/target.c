/* target.c - the VM as GDB's target: registers and the target
 * description, memory, breakpoints and watchpoints, and running forwards
 * (the run loop, which history.c runs through target_runner).
 * It reaches the core through narrow ways only: cy_vm_run budgets (one
 * instruction, a cycle), and an accounting subscriber that ends blocks
 * before breakpoints and pauses the run where one may be next
 * (docs/gdb.md, "How it runs"); the interpreter's hot path is unchanged. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/access.h"
#include "core/account.h"
#include "core/csr.h"
#include "core/mem.h"
#include "debug/session.h"

#define GDB_REG_PC        32
#define GDB_REG_FIRST_CSR 65 /* GDB's RISC-V numbering: 65 + the CSR's number */

static const char *const reg_names[32] = {
	"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "fp", "s1", "a0",
	"a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
	"s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const struct {
	uint16_t num;
	const char *name;
} csr_table[] = {
#define CSR_ROW(id, num, name) { num, name },
	CSR_LIST(CSR_ROW)
#undef CSR_ROW
};

/* The register width: the description's, the packets' and the registers'
 * (docs/gdb.md, "RV64"). */
static unsigned target_xlen(void *t)
{
	const struct debug *d = t;

	return d->vm->xlen == 64 ? 64 : 32;
}

/* A CSR at the VM's width. */
static int csr_read(struct debug *d, uint32_t csr, uint64_t *value)
{
	uint32_t v;

	if (d->vm->xlen == 64)
		return csr_access64(d->vm, csr, false, 0, value);
	if (csr_access(d->vm, csr, false, 0, &v) != 0)
		return -1;
	*value = v;
	return 0;
}

static int csr_write(struct debug *d, uint32_t csr, uint64_t value)
{
	uint64_t old64;
	uint32_t old;

	if (d->vm->xlen == 64)
		return csr_access64(d->vm, csr, true, value, &old64);
	return value > UINT32_MAX ? -1 : csr_access(d->vm, csr, true, (uint32_t)value, &old);
}

static bool xml_add(struct debug *d, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool xml_add(struct debug *d, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(d->xml + d->xml_len, *cap - d->xml_len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return false;
		if (d->xml_len + (size_t)n < *cap)
			break;
		char *more = realloc(d->xml, *cap * 2);
		if (!more)
			return false;
		d->xml = more;
		*cap *= 2;
	}
	d->xml_len += (size_t)n;
	return true;
}

/* The target description: the general registers and pc, and the CSRs this
 * machine implements (those a read of succeeds: the counters, and on the
 * bare platform the machine-mode ones). */
static int build_xml(struct debug *d, unsigned xlen)
{
	size_t cap = 8192;
	bool ok;
	uint64_t v;

	d->xml = malloc(cap);
	if (!d->xml)
		return -ENOMEM;
	d->xml_len = 0;
	ok = xml_add(d, &cap,
		     "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
		     "<target version=\"1.0\">\n<architecture>riscv:rv%u</architecture>\n"
		     "<feature name=\"org.gnu.gdb.riscv.cpu\">\n",
		     xlen);
	for (unsigned i = 0; i < 32 && ok; i++)
		ok = xml_add(d, &cap,
			     "<reg name=\"%s\" bitsize=\"%u\" type=\"%s\" regnum=\"%u\"/>\n",
			     reg_names[i], xlen,
			     i == 2 || i == 3 || i == 4 || i == 8 ? "data_ptr"
			     : i == 1                             ? "code_ptr"
								  : "int",
			     i);
	ok = ok && xml_add(d, &cap,
			   "<reg name=\"pc\" bitsize=\"%u\" type=\"code_ptr\" regnum=\"%u\"/>\n"
			   "</feature>\n<feature name=\"org.gnu.gdb.riscv.csr\">\n",
			   xlen, GDB_REG_PC);
	d->n_csrs = 0;
	for (size_t i = 0; i < sizeof(csr_table) / sizeof(csr_table[0]) && ok; i++) {
		if (csr_read(d, csr_table[i].num, &v) != 0)
			continue; /* not this machine's (RV64 has no high halves) */
		if (d->n_csrs < DEBUG_MAX_CSRS)
			d->csrs[d->n_csrs++] = csr_table[i].num;
		ok = xml_add(d, &cap,
			     "<reg name=\"%s\" bitsize=\"%u\" type=\"int\" regnum=\"%u\" "
			     "group=\"csr\"/>\n",
			     csr_table[i].name, xlen, GDB_REG_FIRST_CSR + csr_table[i].num);
	}
	ok = ok && xml_add(d, &cap, "</feature>\n</target>\n");
	return ok ? 0 : -ENOMEM;
}

static const char *target_xml(void *t, size_t *len)
{
	struct debug *d = t;

	*len = d->xml_len;
	return d->xml;
}

static bool has_csr(const struct debug *d, uint32_t csr)
{
	for (uint32_t i = 0; i < d->n_csrs; i++)
		if (d->csrs[i] == csr)
			return true;
	return false;
}

static int read_reg(void *t, unsigned regno, uint64_t *value)
{
	struct debug *d = t;

	if (regno < 32)
		*value = vm_reg(d->vm, regno);
	else if (regno == GDB_REG_PC)
		*value = d->vm->pc;
	else if (regno < GDB_REG_FIRST_CSR || !has_csr(d, regno - GDB_REG_FIRST_CSR) ||
		 csr_read(d, regno - GDB_REG_FIRST_CSR, value) != 0)
		return -1;
	return 0;
}

static int write_reg(void *t, unsigned regno, uint64_t value)
{
	struct debug *d = t;

	if (target_xlen(d) == 32 && value > UINT32_MAX)
		return -1;
	if (regno < 32) {
		if (regno != 0)
			vm_set_reg(d->vm, regno, value);
	} else if (regno == GDB_REG_PC) {
		if (value > UINT32_MAX) /* code lies below 4 GiB at both widths */
			return -1;
		d->vm->pc = (uint32_t)value;
	} else if (regno >= GDB_REG_FIRST_CSR && has_csr(d, regno - GDB_REG_FIRST_CSR)) {
		if (csr_write(d, regno - GDB_REG_FIRST_CSR, value) != 0)
			return -1;
	} else {
		return -1;
	}
	history_diverge(d);
	return 0;
}

/* Whether [addr, addr + len) lies in the guest's memory map (its
 * segments, stack and heap, or the bare platform's RAM). */
static bool mapped(const cy_vm *vm, uint64_t addr, size_t len)
{
	if (!mem_range_ok(&vm->mem, addr, len))
		return false;
	for (uint64_t a = addr & ~(uint64_t)(MEM_PAGE - 1); a < addr + len; a += MEM_PAGE) {
		uint64_t at = a < addr ? addr : a;
		if (at > UINT32_MAX || !mem_is_mapped(&vm->mem, (uint32_t)at))
			return false;
	}
	return true;
}

static int read_mem(void *t, uint64_t addr, uint8_t *buf, size_t len)
{
	struct debug *d = t;

	if (!mapped(d->vm, addr, len))
		return -1;
	return cy_vm_read(d->vm, addr, buf, len) == 0 ? 0 : -1;
}

static int write_mem(void *t, uint64_t addr, const uint8_t *buf, size_t len)
{
	struct debug *d = t;

	if (!mapped(d->vm, addr, len))
		return -1;
	if (len == 0)
		return 0; /* GDB probes the X packet with nothing */
	if (cy_vm_write(d->vm, addr, buf, len) != 0)
		return -1;
	history_diverge(d);
	return 0;
}

static bool is_break(const struct debug *d, uint32_t pc)
{
	for (uint32_t i = 0; i < d->n_breaks; i++)
		if (d->breaks[i] == pc)
			return true;
	return false;
}

void target_sync_points(struct debug *d)
{
	const struct debug_shared *sh = d->sh;

	if (d->applied_gen == sh->points_gen && d->xml)
		return;
	d->applied_gen = sh->points_gen;
	d->n_breaks = 0;
	d->any_watch = false;
	for (uint32_t i = 0; i < sh->n_points; i++) {
		if (sh->points[i].type <= GDB_POINT_HW)
			d->breaks[d->n_breaks++] = (uint32_t)sh->points[i].addr;
		else
			d->any_watch = true;
	}
	d->any_break = d->n_breaks > 0;
	/* on the bare platform a trap is a step of its own: every block is
	 * watched, so that the run pauses at the handler */
	d->flag_all = d->any_break || d->vm->machine;
	d->vm->flush_pending = true; /* decode again with the new block ends */
}

static int point(void *t, enum gdb_point_type type, uint64_t addr, uint64_t kind, bool insert)
{
	struct debug *d = t;
	struct debug_shared *sh = d->sh;
	uint64_t len = type <= GDB_POINT_HW ? 1 : kind;
	uint32_t i;

	if (len == 0 || !mem_range_ok(&d->vm->mem, addr, len) ||
	    (type <= GDB_POINT_HW && addr > UINT32_MAX))
		return -1;
	for (i = 0; i < sh->n_points; i++)
		if (sh->points[i].type == type && sh->points[i].addr == addr &&
		    sh->points[i].len == len)
			break;
	if (insert && i == sh->n_points) {
		if (sh->n_points == DEBUG_MAX_POINTS)
			return -1;
		sh->points[sh->n_points++] = (struct debug_point){ (uint8_t)type, addr, len };
	} else if (!insert && i < sh->n_points) {
		sh->points[i] = sh->points[--sh->n_points];
	}
	sh->points_gen++;
	target_sync_points(d);
	return 0;
}

/* The accounting subscriber: blocks end before every breakpoint, and a
 * block from which the next pc may be a breakpoint pauses the run when it
 * ends (the flagged event): the run returns before the next block. */
static uint8_t on_decoded(void *ctx, struct cy_vm *vm, struct block *b)
{
	const struct debug *d = ctx;

	(void)vm, (void)b;
	return d->flag_all ? ACCT_FLAG_DEBUG : 0;
}

static bool on_split_after(void *ctx, struct cy_vm *vm, const struct insn *in)
{
	const struct debug *d = ctx;

	(void)vm;
	return d->any_break && is_break(d, in->pc + in->len);
}

/* Whether the pc after block b's whole run may be a breakpoint. */
static bool may_reach_break(const struct debug *d, const struct cy_vm *vm, const struct block *b)
{
	const struct insn *last = &b->insns[b->n - 1];

	if (!d->any_break)
		return false;
	if (last->op == OP_block_end)
		return is_break(d, last->pc);
	if (insn_classes[last->op] == CY_CLASS_BRANCH)
		return is_break(d, last->pc + last->len) || is_break(d, (uint32_t)last->imm);
	if (last->op == OP_jal)
		return is_break(d, (uint32_t)last->imm);
	if (last->op == OP_jalr && (last->rd == REG_SINK || last->rd != last->rs1))
		return is_break(d,
				(uint32_t)((vm_reg(vm, last->rs1) + (uint64_t)(int64_t)last->imm) &
					   ~(uint64_t)1));
	return true; /* ecall, mret, a link register overwritten: look */
}

static void on_flagged(void *ctx, struct cy_vm *vm, const struct block *b, uint32_t retired,
		       uint64_t instret)
{
	const struct debug *d = ctx;

	(void)instret;
	if (!(b->flags & ACCT_FLAG_DEBUG))
		return;
	if (retired < b->n || may_reach_break(d, vm, b)) {
		vm->pause = true;
		vm->break_loop = true;
	}
}

static const struct acct_ops debug_acct_ops = {
	.decoded = on_decoded,
	.split_after = on_split_after,
	.flagged = on_flagged,
};

cy_stop target_piece(struct debug *d, uint64_t cycles)
{
	cy_vm *vm = d->vm;
	uint64_t end, now = vm->cycles;
	cy_chunk_report chunk;
	cy_stop stop;

	target_sync_points(d);
	if (d->opts.on_chunk) {
		end = d->chunk_start + vm->opts.chunk_cycles;
		if (end < d->chunk_start)
			end = UINT64_MAX;
		if (now < end && cycles > end - now)
			cycles = end - now;
	}
	stop = cy_vm_run(vm, cycles);
	if (d->opts.on_chunk &&
	    (stop != CY_STOP_NONE || vm->cycles >= d->chunk_start + vm->opts.chunk_cycles)) {
		cy_vm_end_chunk(vm, d->chunk_start, &chunk);
		d->opts.on_chunk(d->opts.chunk_ctx, &chunk);
		d->chunk_start = vm->cycles;
	}
	return stop;
}

/* One piece of forward execution in history's current mode. */
cy_stop target_run_cycles(struct debug *d, uint64_t cycles)
{
	uint64_t limit;
	cy_stop stop;

	history_before_run(d);
	limit = history_run_limit(d);
	stop = target_piece(d, cycles < limit ? cycles : limit);
	history_after_run(d);
	return stop;
}

/* Runs forward to position pos exactly (or until the guest stops). */
static cy_stop run_to(struct debug *d, uint64_t pos)
{
	cy_vm *vm = d->vm;
	uint64_t now;

	/* a budget of n cycles runs at most n instructions (each costs one
	 * at least, and a trap pauses the run), so this never passes pos */
	while (vm->stop == CY_STOP_NONE && (now = debug_position(vm)) < pos)
		target_run_cycles(d, pos - now);
	return vm->stop;
}

static void step_one(struct debug *d)
{
	uint64_t before = debug_position(d->vm);

	while (d->vm->stop == CY_STOP_NONE && debug_position(d->vm) == before)
		target_run_cycles(d, 1);
}

/* The data access the instruction at pc is about to make, if any. */
static bool next_access(const struct debug *d, struct data_access *acc)
{
	const cy_vm *vm = d->vm;
	uint32_t bits = 0;
	struct insn in;

	if (!mapped(vm, vm->pc, 2) || cy_vm_read(vm, vm->pc, &bits, 2) != 0)
		return false;
	if ((bits & 3) == 3 && (!mapped(vm, vm->pc, 4) || cy_vm_read(vm, vm->pc, &bits, 4) != 0))
		return false;
	insn_decode(vm->pc, bits, target_xlen((void *)d), &in);
	*acc = insn_data_access(vm, &in);
	return acc->kind != ACCESS_NONE;
}

/* The watchpoint the access hits: its kind, the address GDB set it at. */
static bool watch_hit(const struct debug *d, const struct data_access *acc, enum gdb_stop_why *why,
		      uint64_t *addr)
{
	const struct debug_shared *sh = d->sh;

	for (uint32_t i = 0; i < sh->n_points; i++) {
		const struct debug_point *p = &sh->points[i];
		bool load = acc->kind != ACCESS_STORE, store = acc->kind != ACCESS_LOAD;
		bool kind = (p->type == GDB_POINT_WRITE && store) ||
			    (p->type == GDB_POINT_READ && load) || p->type == GDB_POINT_ACCESS;
		if (p->type <= GDB_POINT_HW || !kind)
			continue;
		if (acc->addr < p->addr + p->len && p->addr < (uint64_t)acc->addr + acc->size) {
			*why = p->type == GDB_POINT_WRITE  ? GDB_WHY_WATCH
			       : p->type == GDB_POINT_READ ? GDB_WHY_RWATCH
							   : GDB_WHY_AWATCH;
			*addr = p->addr;
			return true;
		}
	}
	return false;
}

void target_final_stop(const cy_vm *vm, struct gdb_stop *stop)
{
	*stop = (struct gdb_stop){ GDB_STOP_KILLED, GDB_SIGKILL, GDB_WHY_NONE, 0 };
	switch (vm->stop) {
	case CY_STOP_EXIT:
		stop->kind = GDB_STOP_EXITED;
		stop->value = vm->exit_code;
		break;
	case CY_STOP_FAULT: /* a stop GDB can look around at, and go back from */
		stop->kind = GDB_STOP_SIGNAL;
		stop->value = vm->fault == CY_FAULT_EBREAK         ? GDB_SIGTRAP
			      : vm->fault == CY_FAULT_ILLEGAL_INSN ? GDB_SIGILL
								   : GDB_SIGSEGV;
		break;
	case CY_STOP_CYCLE_LIMIT:
		stop->kind = GDB_STOP_SIGNAL;
		stop->value = GDB_SIGXCPU;
		break;
	case CY_STOP_INTERRUPTED: stop->value = GDB_SIGINT; break;
	default: break;
	}
}

static bool interrupted(struct debug *d)
{
	if (d->vm->cycles < d->poll_due)
		return false;
	d->poll_due = d->vm->cycles + DEBUG_POLL_CYCLES;
	return gdb_stub_poll_interrupt(&d->sh->stub);
}

static void stop_signal(struct gdb_stop *stop, int sig, enum gdb_stop_why why, uint64_t addr)
{
	*stop = (struct gdb_stop){ GDB_STOP_SIGNAL, sig, why, addr };
}

void target_forward(struct debug *d, bool step, struct gdb_stop *stop)
{
	cy_vm *vm = d->vm;
	struct debug_shared *sh = d->sh;
	enum gdb_stop_why why;
	struct data_access acc;
	uint64_t addr, budget;
	bool first = true;

	/* a fault is where GDB saw the guest stop: going on ends it */
	if (vm->stop != CY_STOP_NONE) {
		target_final_stop(vm, stop);
		if (stop->kind == GDB_STOP_SIGNAL)
			stop->kind = GDB_STOP_KILLED;
		return;
	}
	d->poll_due = vm->cycles + DEBUG_POLL_CYCLES;
	for (;;) {
		target_sync_points(d);
		/* the first instruction is stepped: it may be the breakpoint
		 * GDB stopped at; with watchpoints every one is */
		if (first || step || d->any_watch) {
			/* a watchpoint stops before the access, as RISC-V's
			 * triggers do (GDB then steps over it itself) */
			if (d->any_watch && next_access(d, &acc) &&
			    watch_hit(d, &acc, &why, &addr)) {
				stop_signal(stop, GDB_SIGTRAP, why, addr);
				return;
			}
			step_one(d);
			if (vm->stop != CY_STOP_NONE)
				break;
			if (step) {
				stop_signal(stop, GDB_SIGTRAP, GDB_WHY_NONE, 0);
				return;
			}
		} else {
			budget = DEBUG_POLL_CYCLES;
			if (sh->until_cycle > vm->cycles && sh->until_cycle - vm->cycles < budget)
				budget = sh->until_cycle - vm->cycles;
			if (d->snap_due > vm->cycles && d->snap_due - vm->cycles < budget)
				budget = d->snap_due - vm->cycles;
			target_run_cycles(d, budget);
			if (vm->stop != CY_STOP_NONE)
				break;
		}
		first = false;
		if (sh->until_cycle && vm->cycles >= sh->until_cycle) {
			sh->until_cycle = 0;
			stop_signal(stop, GDB_SIGTRAP, GDB_WHY_NONE, 0);
			return;
		}
		if (d->any_break && is_break(d, vm->pc)) {
			stop_signal(stop, GDB_SIGTRAP, GDB_WHY_SWBREAK, 0);
			return;
		}
		if (interrupted(d)) {
			stop_signal(stop, GDB_SIGINT, GDB_WHY_NONE, 0);
			return;
		}
		history_maybe_snapshot(d);
	}
	target_final_stop(vm, stop);
}

static void note_hit(struct hit *last, uint64_t pos, enum gdb_stop_why why, uint64_t addr)
{
	*last = (struct hit){ pos, why, addr };
}

/* Runs forward up to position limit, noting the last breakpoint or
 * watchpoint hit instead of stopping (history.c's reverse-continue). */
static void scan(struct debug *d, uint64_t limit, struct hit *last)
{
	cy_vm *vm = d->vm;
	enum gdb_stop_why why;
	struct data_access acc;
	uint64_t pos, addr;

	while (vm->stop == CY_STOP_NONE && (pos = debug_position(vm)) < limit) {
		target_sync_points(d);
		if (d->any_break && is_break(d, vm->pc))
			note_hit(last, pos, GDB_WHY_SWBREAK, 0);
		if (d->any_watch) {
			if (next_access(d, &acc) && watch_hit(d, &acc, &why, &addr))
				note_hit(last, pos, why, addr);
			step_one(d);
		} else if (d->any_break && is_break(d, vm->pc)) {
			step_one(d); /* past the breakpoint it stands at */
		} else {
			target_run_cycles(d, limit - pos);
		}
	}
}

/* History lies below the target: it reaches the run loop through this. */
const struct history_runner target_runner = {
	.run_to = run_to,
	.run_cycles = target_run_cycles,
	.scan = scan,
};

static int resume(void *t, enum gdb_resume how, struct gdb_stop *stop)
{
	struct debug *d = t;

	history_settle(d);
	switch (how) {
	case GDB_RESUME_CONTINUE: target_forward(d, false, stop); return 0;
	case GDB_RESUME_STEP: target_forward(d, true, stop); return 0;
	case GDB_RESUME_REVERSE_CONTINUE: return history_reverse(d, false, stop);
	case GDB_RESUME_REVERSE_STEP: return history_reverse(d, true, stop);
	}
	return -1;
}

static int monitor(void *t, const char *cmd, gdb_out_fn out, void *ctx)
{
	return monitor_command(t, cmd, out, ctx);
}

static void detach(void *t) { (void)t; }
static void kill_guest(void *t) { (void)t; }
static bool interrupted_by_signal(void *t) { return ((struct debug *)t)->vm->interrupt != 0; }

const struct gdb_target_ops debug_target_ops = {
	.xlen = target_xlen,
	.target_xml = target_xml,
	.read_reg = read_reg,
	.write_reg = write_reg,
	.read_mem = read_mem,
	.write_mem = write_mem,
	.point = point,
	.resume = resume,
	.monitor = monitor,
	.detach = detach,
	.kill = kill_guest,
	.interrupted = interrupted_by_signal,
};

int target_init(struct debug *d)
{
	int rc = build_xml(d, target_xlen(d));

	if (rc == 0)
		rc = acct_subscribe(d->vm, ACCT_FLAGGED, &debug_acct_ops, d);
	if (rc == 0)
		target_sync_points(d);
	return rc;
}

void target_free(struct debug *d)
{
	free(d->xml);
	d->xml = NULL;
}

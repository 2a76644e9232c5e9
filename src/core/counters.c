/* counters.c - the performance counters firmware reads and writes with CSR
 * instructions: ZERO-RISCY's PULP counters (PCER, PCMR, PCCR0-31, in the
 * FPGA build's one-per-event or the ASIC build's single-counter form) and
 * the standard mcycle, minstret, mhpmcounter3-31 with mhpmevent3-31 and
 * mcountinhibit. Event counts come from the facts the detailed cost account
 * hands over before each instruction (docs/counters.md). */
#include <stdio.h>
#include <string.h>

#include "core/counters.h"
#include "core/csr_list.h"
#include "core/vm.h"
#include "util/state_io.h"

static const char *const event_names[HPM_EV_MISALIGNED + 1] = {
#define PC_NAME(id, index, name) [index] = name,
	PC_EVENT_LIST(PC_NAME)
#undef PC_NAME
	    [HPM_EV_MISALIGNED] = "MISALIGNED",
};

_Static_assert(PC_EVENTS == 16, "PCER holds one bit per event, PCCR0-15");

/* The numbered CSR families: 32 numbers from a base, n = csr & 0x1f. */
#define FAMILY(csr) ((csr) & ~0x1fu)
enum {
	FAM_PCCR = CSR_PCCR0,
	FAM_MHPMCOUNTER = CSR_MHPMCOUNTER3 - HPM_FIRST,
	FAM_MHPMCOUNTERH = CSR_MHPMCOUNTER3H - HPM_FIRST,
	FAM_HPMCOUNTER = CSR_HPMCOUNTER3 - HPM_FIRST,
	FAM_HPMCOUNTERH = CSR_HPMCOUNTER3H - HPM_FIRST,
	FAM_MHPMEVENT = CSR_MHPMEVENT3 - HPM_FIRST,
};
_Static_assert(FAMILY(FAM_MHPMEVENT) == FAM_MHPMEVENT && FAMILY(FAM_PCCR) == FAM_PCCR,
	       "the families start at multiples of 32");
_Static_assert(PCCR_ALL == PCCR_COUNT - 1, "PCCR31 is the last");

const char *counters_event_name(unsigned event)
{
	return event <= HPM_EV_MISALIGNED ? event_names[event] : NULL;
}

void counters_init(struct cy_vm *vm)
{
	struct counters *c = &vm->ctr;

	memset(c, 0, sizeof(*c));
	c->asic = vm->opts.counters_build == CY_COUNTERS_ASIC;
	c->pcmr = PCMR_RESET;
}

/* The counters in a checkpoint: every field, the pending facts included
 * (a checkpoint falls between two runs, where they may wait). */
void counters_state_io(struct sio *io, struct cy_vm *vm)
{
	struct counters *c = &vm->ctr;
	struct insn_facts *f = &c->facts;

	sio_tag(io, "CTRS");
	sio_bool(io, &c->asic);
	sio_bool(io, &c->counting);
	sio_bool(io, &c->repick);
	sio_bool(io, &c->pending);
	sio_u32(io, &f->cycles);
	sio_u32(io, &f->first);
	sio_u32(io, &f->second);
	sio_u32(io, &f->head);
	sio_u32(io, &f->ld_wait);
	sio_u32(io, &f->st_wait);
	sio_u32(io, &f->stall);
	sio_u32(io, &c->pcer);
	sio_u32(io, &c->pcmr);
	for (int i = 0; i < PCCR_COUNT; i++)
		sio_u32(io, &c->pccr[i]);
	sio_u32(io, &c->pcer_seen);
	sio_u32(io, &c->inhibit);
	sio_u64(io, &c->mcycle.offset);
	sio_u64(io, &c->mcycle.frozen);
	sio_u64(io, &c->minstret.offset);
	sio_u64(io, &c->minstret.frozen);
	for (int i = 0; i < HPM_COUNT; i++) {
		sio_u64(io, &c->hpm[i]);
		sio_u32(io, &c->hpm_event[i]);
	}
	sio_u32(io, &c->hpm_running);
	sio_u32(io, &c->hpm_seen);
	if (io->load && c->asic != (vm->opts.counters_build == CY_COUNTERS_ASIC))
		sio_fail(io, "its counters are of the other build (--counters)");
}

bool counters_owns(uint32_t csr)
{
	uint32_t n = csr & 0x1f, family = FAMILY(csr);

	switch (csr) {
	case CSR_CYCLE:
	case CSR_CYCLEH:
	case CSR_INSTRET:
	case CSR_INSTRETH:
	case CSR_MCYCLE:
	case CSR_MCYCLEH:
	case CSR_MINSTRET:
	case CSR_MINSTRETH:
	case CSR_MCOUNTINHIBIT:
	case CSR_PCER:
	case CSR_PCMR: return true;
	}
	if (family == FAM_PCCR)
		return true;
	return n >= HPM_FIRST &&
	       (family == FAM_MHPMCOUNTER || family == FAM_MHPMCOUNTERH ||
		family == FAM_HPMCOUNTER || family == FAM_HPMCOUNTERH || family == FAM_MHPMEVENT);
}

/* Whether cycle k (from 1) of the instruction is in one of the stall
 * ranges of mask: external load waits, external store waits, fetch stalls. */
static bool in_stall(const struct insn_facts *f, uint32_t mask, uint32_t k)
{
	uint32_t ld_lo = f->head + 1, st_lo = ld_lo + f->ld_wait;

	if ((mask & PC_BIT(LD_EXT_CYC)) && k >= ld_lo && k < ld_lo + f->ld_wait)
		return true;
	if ((mask & PC_BIT(ST_EXT_CYC)) && k >= st_lo && k < st_lo + f->st_wait)
		return true;
	return (mask & PC_BIT(IMISS)) && f->stall && k + f->stall > f->cycles && k <= f->cycles;
}

uint32_t counters_cycles_with(const struct insn_facts *f, uint32_t mask)
{
	uint32_t n = 0;

	if (mask & PC_BIT(CYCLES))
		return f->cycles;
	if (mask & PC_BIT(LD_EXT_CYC))
		n += f->ld_wait;
	if (mask & PC_BIT(ST_EXT_CYC))
		n += f->st_wait;
	if (mask & PC_BIT(IMISS))
		n += f->stall;
	if ((f->first & mask) && !in_stall(f, mask, 1))
		n++;
	if ((f->second & mask) && !in_stall(f, mask, 2))
		n++;
	return n;
}

static uint32_t add32(uint32_t v, uint32_t n, bool saturate)
{
	uint32_t sum = v + n;

	return saturate && sum < v ? UINT32_MAX : sum;
}

/* Counts one instruction's events under the configuration in force. */
static void count(struct counters *c, const struct insn_facts *f)
{
	uint32_t on = c->pcmr & PCMR_ACTIVE ? c->pcer & PC_EVENT_MASK : 0;
	bool sat = c->pcmr & PCMR_SATURATE;

	if (c->asic && on) {
		c->pccr[0] = add32(c->pccr[0], counters_cycles_with(f, on), sat);
	} else {
		for (uint32_t m = on; m; m &= m - 1) {
			unsigned i = (unsigned)__builtin_ctz(m);
			c->pccr[i] = add32(c->pccr[i], counters_cycles_with(f, 1u << i), sat);
		}
	}
	for (uint32_t m = c->hpm_running; m; m &= m - 1) {
		unsigned k = (unsigned)__builtin_ctz(m);
		c->hpm[k] += counters_cycles_with(f, c->hpm_event[k]);
	}
}

void counters_before(struct cy_vm *vm, const struct insn_facts *f)
{
	struct counters *c = &vm->ctr;

	if (c->pending)
		count(c, &c->facts);
	c->facts = *f;
	c->pending = true;
}

void counters_settle(struct cy_vm *vm, bool retired)
{
	struct counters *c = &vm->ctr;

	if (c->pending && retired)
		count(c, &c->facts);
	c->pending = false;
}

/* After a write to the configuration: whether an event counter runs now,
 * and if that changed, a new interpreter after this instruction. */
static void update_counting(struct cy_vm *vm)
{
	struct counters *c = &vm->ctr;
	bool counting;

	c->hpm_running = 0;
	for (unsigned k = HPM_FIRST; k < HPM_COUNT; k++)
		if (c->hpm_event[k] && !(c->inhibit & (1u << k)))
			c->hpm_running |= 1u << k;
	counting = ((c->pcmr & PCMR_ACTIVE) && (c->pcer & PC_EVENT_MASK)) || c->hpm_running;
	if (counting != c->counting) {
		c->counting = counting;
		c->repick = true;
		/* the interpreter ends the block as after a write to code */
		vm->flush_pending = true;
	}
}

static uint64_t clock_value(const struct clock_counter *cc, bool inhibited, uint64_t now)
{
	return inhibited ? cc->frozen : now + cc->offset;
}

static void clock_set(struct clock_counter *cc, bool inhibited, uint64_t now, uint64_t value)
{
	if (inhibited)
		cc->frozen = value;
	else
		cc->offset = value - now;
}

/* The value a write leaves: at XLEN 32 one half of the counter (high or
 * low), at XLEN 64 the whole of it (WRITE_WHOLE). */
#define WRITE_WHOLE 2

static uint64_t set_half(uint64_t v, int high, uint64_t value)
{
	if (high == WRITE_WHOLE)
		return value;
	return high ? (v & UINT32_MAX) | (uint64_t)(uint32_t)value << 32
		    : (v & ~(uint64_t)UINT32_MAX) | (uint32_t)value;
}

static uint32_t read_counter(const struct cy_vm *vm, uint32_t csr)
{
	const struct counters *c = &vm->ctr;
	uint32_t n = csr & 0x1f, family = FAMILY(csr);
	uint64_t cy = clock_value(&c->mcycle, c->inhibit & INHIBIT_CY, vm->cycles);
	uint64_t ir = clock_value(&c->minstret, c->inhibit & INHIBIT_IR, vm->instret);

	switch (csr) {
	case CSR_CYCLE:
	case CSR_MCYCLE: return (uint32_t)cy;
	case CSR_CYCLEH:
	case CSR_MCYCLEH: return (uint32_t)(cy >> 32);
	case CSR_INSTRET:
	case CSR_MINSTRET: return (uint32_t)ir;
	case CSR_INSTRETH:
	case CSR_MINSTRETH: return (uint32_t)(ir >> 32);
	case CSR_MCOUNTINHIBIT: return c->inhibit;
	case CSR_PCER: return c->pcer;
	case CSR_PCMR: return c->pcmr;
	}
	if (family == FAM_PCCR)
		return c->asic ? c->pccr[0] : n < PC_EVENTS ? c->pccr[n] : 0;
	if (family == FAM_MHPMEVENT)
		return c->hpm_event[n];
	if (family == FAM_MHPMCOUNTERH || family == FAM_HPMCOUNTERH)
		return (uint32_t)(c->hpm[n] >> 32);
	return (uint32_t)c->hpm[n];
}

/* A write: the instruction's own events are counted first, under the
 * configuration before it; the new one applies from the next instruction. */
static int write_counter(struct cy_vm *vm, uint32_t csr, uint64_t value, bool whole)
{
	struct counters *c = &vm->ctr;
	uint32_t n = csr & 0x1f, family = FAMILY(csr);
	/* the clock after this instruction, which the written value is for */
	uint64_t cy_now = vm->cycles + vm->insn_cycles, ir_now = vm->instret + 1;
	uint64_t cy = clock_value(&c->mcycle, c->inhibit & INHIBIT_CY, cy_now);
	uint64_t ir = clock_value(&c->minstret, c->inhibit & INHIBIT_IR, ir_now);

	/* the user-level counters are read-only: the instruction faults */
	if (family == FAM_HPMCOUNTER || family == FAM_HPMCOUNTERH)
		return -1;
	counters_settle(vm, true);
	switch (csr) {
	/* A write replaces the writing instruction's own increment (the value
	 * written is the one the next instruction reads): the half not written
	 * keeps its value from before the instruction, so the increment cannot
	 * carry into it (riscv-tests rv32mi instret_overflow). */
	case CSR_MCYCLE:
	case CSR_MCYCLEH:
		cy = clock_value(&c->mcycle, c->inhibit & INHIBIT_CY, vm->cycles);
		clock_set(&c->mcycle, c->inhibit & INHIBIT_CY, cy_now,
			  set_half(cy, whole ? WRITE_WHOLE : csr == CSR_MCYCLEH, value));
		return 0;
	case CSR_MINSTRET:
	case CSR_MINSTRETH:
		ir = clock_value(&c->minstret, c->inhibit & INHIBIT_IR, vm->instret);
		clock_set(&c->minstret, c->inhibit & INHIBIT_IR, ir_now,
			  set_half(ir, whole ? WRITE_WHOLE : csr == CSR_MINSTRETH, value));
		return 0;
	case CSR_MCOUNTINHIBIT:
		/* bit 1 (time) does not exist: mcountinhibit is WARL */
		c->inhibit = (uint32_t)value & ~0x2u;
		clock_set(&c->mcycle, c->inhibit & INHIBIT_CY, cy_now, cy);
		clock_set(&c->minstret, c->inhibit & INHIBIT_IR, ir_now, ir);
		break;
	case CSR_PCER:
		c->pcer = (uint32_t)value & PC_EVENT_MASK;
		c->pcer_seen |= c->pcer;
		break;
	case CSR_PCMR: c->pcmr = (uint32_t)value & PCMR_RESET; break;
	default:
		if (family == FAM_PCCR) {
			if (c->asic)
				c->pccr[0] = (uint32_t)value;
			else if (n == PCCR_ALL)
				for (unsigned i = 0; i < PC_EVENTS; i++)
					c->pccr[i] = (uint32_t)value;
			else if (n < PC_EVENTS)
				c->pccr[n] = (uint32_t)value;
		} else if (family == FAM_MHPMEVENT) {
			c->hpm_event[n] = (uint32_t)value & HPM_EVENT_MASK;
			if (c->hpm_event[n])
				c->hpm_seen |= 1u << n;
		} else {
			c->hpm[n] = set_half(
			    c->hpm[n], whole ? WRITE_WHOLE : family == FAM_MHPMCOUNTERH, value);
		}
		break;
	}
	update_counting(vm);
	return 0;
}

int counters_csr(struct cy_vm *vm, uint32_t csr, bool write, uint32_t value, uint32_t *old)
{
	if (!write) {
		*old = read_counter(vm, csr);
		return 0;
	}
	return write_counter(vm, csr, value, false);
}

int counters_csr64(struct cy_vm *vm, uint32_t csr, bool write, uint64_t value, uint64_t *old)
{
	uint32_t family = FAMILY(csr);
	bool wide = csr == CSR_MCYCLE || csr == CSR_MINSTRET || csr == CSR_CYCLE ||
		    csr == CSR_INSTRET || family == FAM_MHPMCOUNTER || family == FAM_HPMCOUNTER;

	if (!write) {
		*old = read_counter(vm, csr);
		if (wide) /* the high half is the same counter's */
			*old |= (uint64_t)read_counter(vm, csr + 0x80) << 32;
		return 0;
	}
	return write_counter(vm, csr, value, wide);
}

const char *cy_counter_event_name(unsigned i) { return counters_event_name(i); }

const char *cy_vm_counters_build(const cy_vm *vm) { return vm->ctr.asic ? "asic" : "fpga"; }

static void add_row(cy_counter *out, size_t max, size_t *n, const char *name, uint32_t csr,
		    uint32_t events, uint64_t value)
{
	if (*n < max) {
		cy_counter *r = &out[*n];
		snprintf(r->name, sizeof(r->name), "%s", name);
		r->csr = csr;
		r->events = events;
		r->value = value;
	}
	(*n)++;
}

size_t cy_vm_counters(const cy_vm *vm, cy_counter *out, size_t max)
{
	const struct counters *c = &vm->ctr;
	char name[24];
	size_t n = 0;

	add_row(out, max, &n, "mcycle", CSR_MCYCLE, PC_BIT(CYCLES),
		clock_value(&c->mcycle, c->inhibit & INHIBIT_CY, vm->cycles));
	add_row(out, max, &n, "minstret", CSR_MINSTRET, PC_BIT(INSTR),
		clock_value(&c->minstret, c->inhibit & INHIBIT_IR, vm->instret));
	if (c->asic && c->pcer_seen) {
		add_row(out, max, &n, "pccr (asic)", CSR_PCCR0, c->pcer, c->pccr[0]);
	} else if (!c->asic) {
		for (uint32_t m = c->pcer_seen; m; m &= m - 1) {
			unsigned i = (unsigned)__builtin_ctz(m);
			snprintf(name, sizeof(name), "pccr%u", i);
			add_row(out, max, &n, name, CSR_PCCR0 + i, 1u << i, c->pccr[i]);
		}
	}
	for (uint32_t m = c->hpm_seen; m; m &= m - 1) {
		unsigned k = (unsigned)__builtin_ctz(m);
		snprintf(name, sizeof(name), "mhpmcounter%u", k);
		add_row(out, max, &n, name, FAM_MHPMCOUNTER + k, c->hpm_event[k], c->hpm[k]);
	}
	return n;
}

/* machine.c - the bare-metal platform: machine-mode CSRs, traps to mtvec,
 * the CLINT timer and software interrupt, HTIF tohost/fromhost, a UART and
 * the memory map whose holes raise access faults. The bare interpreters call
 * machine_before() before every instruction (docs/bare-metal.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/access.h"
#include "core/csr_list.h"
#include "core/machine.h"
#include "core/output.h"
#include "core/vm.h"
#include "util/state_io.h"

#define PAGE_SHIFT 12
#define N_PAGES    (1u << (32 - PAGE_SHIFT))

/* pagemap bits */
#define MPAGE_OK     1u /* loads and stores allowed */
#define MPAGE_DEVICE 2u /* holds device registers or tohost: look closer */

#define MSTATUS_MIE  (1u << 3)
#define MSTATUS_MPIE (1u << 7)
#define MSTATUS_MPP  (3u << 11) /* only machine mode: always 3 */
#define MIE_MSIE     (1u << IRQ_M_SOFT)
#define MIE_MTIE     (1u << IRQ_M_TIMER)
#define MIE_MEIE     (1u << 11)
/* The letters A, C, I, M; MXL (1: 32-bit, 2: 64-bit) in the top two bits */
#define MISA_LETTERS   (1u << ('A' - 'A') | 1u << ('C' - 'A') | 1u << ('I' - 'A') | 1u << ('M' - 'A'))
#define MTVEC_VECTORED 1u

#define HTIF_DEV_SYSCALL 0 /* device 0: bit 0 set is an exit */
#define HTIF_DEV_CONSOLE 1
#define HTIF_CMD_PUTCHAR 1

static uint64_t misa(const struct cy_vm *vm)
{
	return vm->xlen == 64 ? (UINT64_C(2) << 62 | MISA_LETTERS)
			      : (UINT64_C(1) << 30 | MISA_LETTERS);
}

/* mcause's interrupt bit: the top bit of XLEN. */
static uint64_t interrupt_bit(const struct cy_vm *vm)
{
	return vm->xlen == 64 ? UINT64_C(1) << 63 : CAUSE_INTERRUPT;
}

static uint64_t ld64(const struct cy_vm *vm, uint32_t a)
{
	uint64_t v;
	memcpy(&v, vm->mem.base + a, 8);
	return v;
}
static void st64(struct cy_vm *vm, uint32_t a, uint64_t v) { memcpy(vm->mem.base + a, &v, 8); }

static void map_pages(struct machine *m, uint32_t start, uint64_t end, uint8_t bits)
{
	for (uint64_t p = start >> PAGE_SHIFT; p < N_PAGES && p << PAGE_SHIFT < end; p++)
		m->pagemap[p] |= bits;
}

/* "0x80000000:64M": the start and a size with an optional K, M or G. */
static int parse_region(const char *text, uint32_t *start, uint64_t *end, char *why, size_t n)
{
	char *rest;
	unsigned long long a, size;
	unsigned shift = 0;

	errno = 0;
	a = strtoull(text, &rest, 0);
	if (errno || rest == text || *rest != ':' || a > UINT32_MAX) {
		snprintf(why, n, "--ram '%s': expected ADDR:SIZE such as 0x80000000:64M", text);
		return -EINVAL;
	}
	text = rest + 1;
	size = strtoull(text, &rest, 0);
	if (errno || rest == text) {
		snprintf(why, n, "--ram: '%s' is not a size (such as 64M)", text);
		return -EINVAL;
	}
	/* a K, M or G suffix: shift by 10, 20, 30 */
	if (*rest && strchr("KkMmGg", *rest)) {
		shift = *rest == 'K' || *rest == 'k' ? 10 : *rest == 'M' || *rest == 'm' ? 20 : 30;
		rest++;
	}
	if ((*rest && *rest != ',') || size == 0 || size > MEM_SPACE_32 >> shift ||
	    a + (size << shift) > MEM_SPACE_32) {
		snprintf(why, n, "--ram: region 0x%llx:%s is empty or passes 4 GiB", a, text);
		return -EINVAL;
	}
	*start = (uint32_t)a;
	*end = a + (size << shift);
	return 0;
}

/* opts.ram's regions, "ADDR:SIZE[,ADDR:SIZE...]" (NULL: the default). */
static int parse_ram(const struct cy_opts *opts, uint32_t start[MACHINE_MAX_RAM],
		     uint64_t end[MACHINE_MAX_RAM], int *n_ram, char *why, size_t n)
{
	const char *ram = opts->ram ? opts->ram : MACHINE_DEFAULT_RAM;
	int rc;

	*n_ram = 0;
	for (const char *p = ram; *p; (*n_ram)++) {
		if (*n_ram == MACHINE_MAX_RAM) {
			snprintf(why, n, "--ram: more than %d regions", MACHINE_MAX_RAM);
			return -EINVAL;
		}
		if ((rc = parse_region(p, &start[*n_ram], &end[*n_ram], why, n)) != 0)
			return rc;
		p = strchr(p, ',');
		p = p ? p + 1 : "";
	}
	return 0;
}

static uint32_t uart_base(const struct cy_opts *opts)
{
	return opts->uart_base ? opts->uart_base : UART_DEFAULT_BASE;
}

static int check_uart(uint32_t uart, char *why, size_t n)
{
	if (uart & 7 || (uart >= CLINT_BASE && uart < CLINT_BASE + CLINT_SIZE)) {
		snprintf(why, n, "--uart 0x%x: not 8-byte aligned or inside the CLINT", uart);
		return -EINVAL;
	}
	return 0;
}

int machine_check_options(const struct cy_opts *opts, char *why, size_t n)
{
	uint32_t start[MACHINE_MAX_RAM];
	uint64_t end[MACHINE_MAX_RAM];
	int n_ram, rc = parse_ram(opts, start, end, &n_ram, why, n);

	return rc != 0 ? rc : check_uart(uart_base(opts), why, n);
}

bool machine_detect(const struct cy_vm *vm) { return vm->has_tohost; }

static void update_irq(struct machine *m)
{
	m->irq_at = UINT64_MAX;
	if (!(m->mstatus & MSTATUS_MIE))
		return;
	if ((m->mie & MIE_MSIE) && (m->msip & 1))
		m->irq_at = 0;
	else if (m->mie & MIE_MTIE) /* mtime >= mtimecmp, mtime = cycles + offset */
		m->irq_at = m->mtimecmp >= m->mtime_offset ? m->mtimecmp - m->mtime_offset : 0;
}

int machine_setup(struct cy_vm *vm, char *why, size_t n)
{
	struct machine *m = calloc(1, sizeof(*m));
	uint32_t start[MACHINE_MAX_RAM];
	uint64_t end[MACHINE_MAX_RAM];
	int n_ram, rc = parse_ram(&vm->opts, start, end, &n_ram, why, n);

	if (!m || !(m->pagemap = calloc(N_PAGES, 1))) {
		free(m);
		snprintf(why, n, "out of memory");
		return -ENOMEM;
	}
	vm->machine = m;
	if (rc != 0 || (rc = check_uart(uart_base(&vm->opts), why, n)) != 0)
		return rc;
	for (int i = 0; i < vm->mem.n_regions; i++) /* the ELF's segments */
		map_pages(m, vm->mem.regions[i].start, vm->mem.regions[i].end, MPAGE_OK);
	for (int i = 0; i < n_ram; i++) {
		char name[16];
		snprintf(name, sizeof(name), "ram%d", i);
		if (mem_set_region(&vm->mem, name, start[i], end[i]) != 0) {
			snprintf(why, n, "--ram: too many memory regions");
			return -ENOSPC;
		}
		map_pages(m, start[i], end[i], MPAGE_OK);
	}
	m->uart_base = uart_base(&vm->opts);
	map_pages(m, CLINT_BASE, (uint64_t)CLINT_BASE + CLINT_SIZE, MPAGE_OK | MPAGE_DEVICE);
	map_pages(m, m->uart_base, (uint64_t)m->uart_base + 8, MPAGE_OK | MPAGE_DEVICE);
	vm->mem.base[m->uart_base + UART_LSR] = UART_LSR_IDLE;
	if (vm->has_tohost) {
		m->has_tohost = true;
		m->tohost = vm->tohost;
		map_pages(m, vm->tohost, (uint64_t)vm->tohost + 8, MPAGE_DEVICE);
	}
	m->fromhost = vm->fromhost;
	m->mstatus = MSTATUS_MPP;
	m->mtimecmp = UINT64_MAX;
	st64(vm, CLINT_MTIMECMP, m->mtimecmp);
	update_irq(m);
	return 0;
}

void machine_free(struct cy_vm *vm)
{
	if (!vm->machine)
		return;
	free(vm->machine->pagemap);
	free(vm->machine);
	vm->machine = NULL;
}

/* cause: the exception code, or an interrupt's number with interrupt set. */
static void enter_trap(struct cy_vm *vm, uint32_t cause, bool interrupt, uint64_t epc,
		       uint64_t tval)
{
	struct machine *m = vm->machine;
	uint32_t base = (uint32_t)(m->mtvec & ~UINT64_C(3)); /* below 4 GiB: machine_csr */

	m->mepc = epc;
	m->mcause = cause | (interrupt ? interrupt_bit(vm) : 0);
	m->mtval = tval;
	m->mstatus = (m->mstatus & MSTATUS_MIE ? MSTATUS_MPIE : 0) | MSTATUS_MPP;
	vm->pc = base;
	if (interrupt && (m->mtvec & 3) == MTVEC_VECTORED)
		vm->pc = base + 4 * cause;
	update_irq(m);
}

bool machine_exception(struct cy_vm *vm, uint32_t cause, uint64_t tval)
{
	if ((vm->machine->mtvec & ~UINT64_C(3)) == vm->pc)
		return false; /* the handler itself faults: it would run forever */
	vm->machine->exceptions++;
	enter_trap(vm, cause, false, vm->pc, tval);
	return true;
}

bool machine_fault(struct cy_vm *vm, cy_fault fault)
{
	uint32_t bits = mem_ld32(vm->mem.base, vm->pc);

	switch (fault) {
	case CY_FAULT_ILLEGAL_INSN: /* mtval: the instruction's own bits */
		return machine_exception(vm, CAUSE_ILLEGAL_INSN,
					 insn_length(bits & 0xffff) == 2 ? bits & 0xffff : bits);
	case CY_FAULT_FETCH:
		if (vm->fault_has_addr) {
			/* a jump (or mret) past 4 GiB: the fault is the target's, which
			 * mepc and mtval hold whole (docs/bare-metal.md) */
			if ((vm->machine->mtvec & ~UINT64_C(3)) == vm->pc)
				return false;
			vm->fault_has_addr = false;
			vm->machine->exceptions++;
			enter_trap(vm, CAUSE_FETCH_ACCESS, false, vm->fault_addr, vm->fault_addr);
			return true;
		}
		return machine_exception(vm, CAUSE_FETCH_ACCESS, vm->pc);
	case CY_FAULT_EBREAK: return machine_exception(vm, CAUSE_BREAKPOINT, vm->pc);
	default: return false;
	}
}

uint64_t machine_mret(struct cy_vm *vm)
{
	struct machine *m = vm->machine;

	m->mstatus = (m->mstatus & MSTATUS_MPIE ? MSTATUS_MIE : 0) | MSTATUS_MPIE | MSTATUS_MPP;
	update_irq(m);
	return m->mepc;
}

uint64_t machine_wfi(struct cy_vm *vm, uint64_t now, uint64_t budget)
{
	struct machine *m = vm->machine;
	uint64_t wake;

	/* wfi wakes on an interrupt pending and enabled in mie, whatever
	 * mstatus.MIE says; with none that could come it is a nop */
	if (!(m->mie & MIE_MTIE) || ((m->mie & MIE_MSIE) && (m->msip & 1)))
		return 0;
	wake = m->mtimecmp >= m->mtime_offset ? m->mtimecmp - m->mtime_offset : 0;
	if (wake > budget)
		wake = budget;
	return wake > now ? wake - now : 0;
}

int machine_csr(struct cy_vm *vm, uint32_t csr, bool write, uint64_t value, uint64_t *old)
{
	struct machine *m = vm->machine;
	uint64_t mtime = vm->cycles + m->mtime_offset;

	switch (csr) {
	case CSR_MSTATUS:
		*old = m->mstatus;
		if (write)
			m->mstatus = (value & (MSTATUS_MIE | MSTATUS_MPIE)) | MSTATUS_MPP;
		break;
	case CSR_MISA: *old = misa(vm); break; /* WARL: writes ignored */
	case CSR_MIE:
		*old = m->mie;
		if (write)
			m->mie = (uint32_t)value & (MIE_MSIE | MIE_MTIE | MIE_MEIE);
		break;
	case CSR_MIP: /* MSIP and MTIP mirror the CLINT: read-only here */
		*old = (m->msip & 1 ? MIE_MSIE : 0) | (mtime >= m->mtimecmp ? MIE_MTIE : 0);
		break;
	case CSR_MTVEC:
		*old = m->mtvec;
		/* modes 2 and 3 are reserved: they read as direct; a base past 4 GiB,
		 * where no code can be, is not a legal value (WARL): ignored */
		if (write && value < MEM_CODE_LIMIT)
			m->mtvec = (value & ~UINT64_C(3)) | ((value & 3) == MTVEC_VECTORED);
		break;
	case CSR_MSCRATCH:
		*old = m->mscratch;
		if (write)
			m->mscratch = value;
		break;
	case CSR_MEPC:
		*old = m->mepc;
		if (write) /* IALIGN 16: bit 0 is always 0 */
			m->mepc = value & ~UINT64_C(1);
		break;
	case CSR_MCAUSE:
		*old = m->mcause;
		if (write)
			m->mcause = value;
		break;
	case CSR_MTVAL:
		*old = m->mtval;
		if (write)
			m->mtval = value;
		break;
	case CSR_PMPCFG0:
	case CSR_PMPCFG1:
	case CSR_PMPCFG2:
	case CSR_PMPCFG3:
		*old = m->pmpcfg[csr - CSR_PMPCFG0];
		if (write) /* kept, not enforced */
			m->pmpcfg[csr - CSR_PMPCFG0] = (uint32_t)value;
		break;
	case CSR_MEDELEG:
	case CSR_MIDELEG:
	case CSR_MSTATUSH:
	case CSR_SATP: *old = 0; break; /* no S/U mode, no paging: legal no-ops */
	case CSR_MVENDORID:
	case CSR_MARCHID:
	case CSR_MIMPID:
	case CSR_MHARTID: *old = 0; return write ? -1 : 0; /* read-only */
	default:
		if (csr >= CSR_PMPADDR0 && csr <= CSR_PMPADDR15) {
			*old = m->pmpaddr[csr - CSR_PMPADDR0];
			if (write)
				m->pmpaddr[csr - CSR_PMPADDR0] = (uint32_t)value;
			break;
		}
		return -1;
	}
	if (write)
		update_irq(m);
	return 0;
}

/* The device store of the previous instruction is in memory now. Returns
 * true when the run stops (a tohost exit). */
static bool settle(struct cy_vm *vm)
{
	struct machine *m = vm->machine;
	uint32_t a = m->pending_addr;

	m->pending = false;
	if (m->has_tohost && a - m->tohost < 8) {
		uint64_t v = ld64(vm, m->tohost);
		unsigned dev = (unsigned)(v >> 56), cmd = (unsigned)(v >> 48) & 0xff;
		if (v == 0)
			return false;
		if (dev == HTIF_DEV_SYSCALL && (v & 1)) {
			vm->stop = CY_STOP_EXIT;
			vm->exit_code = (int)(uint32_t)((v & 0xffffffffffffull) >> 1);
			return true;
		}
		if (dev == HTIF_DEV_CONSOLE && cmd == HTIF_CMD_PUTCHAR)
			output_write(vm, 1, m->tohost, 1); /* the payload's low byte */
		else
			vm_warn(vm,
				"tohost: HTIF command 0x%016llx not supported (device %u, "
				"command %u); ignored",
				(unsigned long long)v, dev, cmd);
		st64(vm, m->tohost, 0); /* done: the host clears tohost */
		return false;
	}
	if (a - m->uart_base < 8) {
		if (a == m->uart_base + UART_THR)
			output_write(vm, 1, a, 1);
		vm->mem.base[m->uart_base + UART_LSR] = UART_LSR_IDLE;
		return false;
	}
	if (a - CLINT_MTIME < 8) /* the guest sets the time */
		m->mtime_offset = ld64(vm, CLINT_MTIME) - m->pending_now;
	m->msip = mem_ld32(vm->mem.base, CLINT_MSIP) & 1;
	m->mtimecmp = ld64(vm, CLINT_MTIMECMP);
	update_irq(m);
	return false;
}

/* An access fault in the instruction mtvec points to would trap to itself
 * forever without spending a cycle: stop the run with a fault instead. */
static void handler_faults(struct cy_vm *vm, uint32_t cause, uint64_t addr)
{
	char at[200];

	vm_describe_at(vm, vm->pc, true, at, sizeof(at));
	vm->stop = CY_STOP_FAULT;
	vm->fault = CY_FAULT_ACCESS;
	vm->break_loop = true;
	snprintf(vm->stop_message, sizeof(vm->stop_message),
		 "%s (address 0x%08llx) at %s would trap to itself (mtvec)", cy_trap_name(cause),
		 (unsigned long long)addr, at);
}

enum machine_action machine_before(struct cy_vm *vm, const struct insn *in, uint64_t now,
				   uint64_t instret)
{
	struct machine *m = vm->machine;
	struct data_access acc = insn_data_access(vm, in);
	uint64_t addr = acc.addr;
	uint32_t size = acc.size;
	/* AMOs and sc fault as stores (store/AMO access faults) */
	bool store = acc.kind >= ACCESS_STORE;
	uint8_t flags;

	/* a 64-bit tohost write is two stores: act once both are done */
	if (unlikely(m->pending) &&
	    !(store && m->has_tohost && m->pending_addr - m->tohost < 8 && addr - m->tohost < 8)) {
		/* the clock of the output, for the cycle tracker */
		vm->pc = in->pc;
		vm->cycles = now;
		vm->instret = instret;
		if (settle(vm))
			return MACHINE_STOP;
	}
	if (unlikely(now >= m->irq_at)) {
		bool soft = (m->mie & MIE_MSIE) && (m->msip & 1);
		vm->pc = in->pc;
		vm->cycles = now;
		vm->instret = instret;
		m->interrupts++;
		enter_trap(vm, soft ? IRQ_M_SOFT : IRQ_M_TIMER, true, in->pc, 0);
		return MACHINE_TRAP;
	}
	if (likely(size == 0))
		return MACHINE_RUN;
	/* the map covers 4 GiB: nothing answers above it (RV64) */
	flags = addr + size > MEM_CODE_LIMIT
		    ? 0
		    : m->pagemap[addr >> PAGE_SHIFT] & m->pagemap[(addr + size - 1) >> PAGE_SHIFT];
	if (unlikely(!(flags & MPAGE_OK) ||
		     (insn_classes[in->op] == CY_CLASS_AMO && (addr & (size - 1))))) {
		uint32_t cause = store ? CAUSE_STORE_ACCESS : CAUSE_LOAD_ACCESS;
		if (flags & MPAGE_OK) /* lr/sc/AMOs need natural alignment */
			cause = store ? CAUSE_STORE_MISALIGNED : CAUSE_LOAD_MISALIGNED;
		vm->pc = in->pc;
		vm->cycles = now;
		vm->instret = instret;
		if ((m->mtvec & ~UINT64_C(3)) == in->pc) {
			handler_faults(vm, cause, addr);
			return MACHINE_STOP;
		}
		m->exceptions++;
		enter_trap(vm, cause, false, in->pc, addr);
		return MACHINE_TRAP;
	}
	if (unlikely(
		(m->pagemap[addr >> PAGE_SHIFT] | m->pagemap[(addr + size - 1) >> PAGE_SHIFT]) &
		MPAGE_DEVICE)) {
		if (store) {
			m->pending = true;
			m->pending_addr = (uint32_t)addr; /* below 4 GiB: flags */
			m->pending_now = now;
		} else if (addr - CLINT_BASE < CLINT_SIZE) {
			st64(vm, CLINT_MTIME, now + m->mtime_offset);
		}
	}
	return MACHINE_RUN;
}

int cy_vm_signature(const cy_vm *vm, uint32_t *begin, uint32_t *end)
{
	if (!vm->has_signature_begin || !vm->has_signature_end ||
	    vm->signature_end < vm->signature_begin)
		return -ENOENT;
	*begin = vm->signature_begin;
	*end = vm->signature_end;
	return 0;
}

cy_platform cy_vm_platform(const cy_vm *vm)
{
	return vm->machine ? CY_PLATFORM_BARE : CY_PLATFORM_LINUX;
}

const char *cy_platform_name(cy_platform platform)
{
	switch (platform) {
	case CY_PLATFORM_LINUX: return "linux";
	case CY_PLATFORM_BARE: return "bare";
	default: return "auto";
	}
}

int cy_platform_parse(const char *text, cy_platform *out)
{
	for (int p = CY_PLATFORM_AUTO; p <= CY_PLATFORM_BARE; p++)
		if (strcmp(text, cy_platform_name((cy_platform)p)) == 0) {
			*out = (cy_platform)p;
			return 0;
		}
	return -EINVAL;
}

void cy_vm_machine_stats(const cy_vm *vm, cy_machine_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (!vm->machine)
		return;
	out->exceptions = vm->machine->exceptions;
	out->interrupts = vm->machine->interrupts;
	out->mcause = vm->machine->mcause;
	out->xlen = vm->xlen;
	out->mepc = vm->machine->mepc;
	out->mtval = vm->machine->mtval;
}

const char *cy_trap_name(uint64_t mcause)
{
	/* an interrupt has the top bit of XLEN set: bit 31 or bit 63 */
	if (mcause >> 63)
		mcause = CAUSE_INTERRUPT | (mcause & 0x7fffffff);
	switch (mcause) {
	case CAUSE_FETCH_ACCESS: return "instruction access fault";
	case CAUSE_ILLEGAL_INSN: return "illegal instruction";
	case CAUSE_BREAKPOINT: return "breakpoint";
	case CAUSE_LOAD_MISALIGNED: return "load address misaligned";
	case CAUSE_LOAD_ACCESS: return "load access fault";
	case CAUSE_STORE_MISALIGNED: return "store address misaligned";
	case CAUSE_STORE_ACCESS: return "store access fault";
	case CAUSE_ECALL_M: return "ecall";
	case CAUSE_INTERRUPT | IRQ_M_SOFT: return "software interrupt";
	case CAUSE_INTERRUPT | IRQ_M_TIMER: return "timer interrupt";
	default: return "trap";
	}
}

/* The machine in a checkpoint: its CSRs, devices and trap counts. The
 * memory map comes from the ELF and --ram, which a restore is given again. */
void machine_state_io(struct sio *io, struct cy_vm *vm)
{
	struct machine *m = vm->machine;

	sio_tag(io, "MACH");
	sio_u64(io, &m->mstatus);
	sio_u64(io, &m->mtvec);
	sio_u64(io, &m->mscratch);
	sio_u64(io, &m->mepc);
	sio_u64(io, &m->mcause);
	sio_u64(io, &m->mtval);
	sio_u32(io, &m->mie);
	for (int i = 0; i < 4; i++)
		sio_u32(io, &m->pmpcfg[i]);
	for (int i = 0; i < 16; i++)
		sio_u32(io, &m->pmpaddr[i]);
	sio_u64(io, &m->mtimecmp);
	sio_u64(io, &m->mtime_offset);
	sio_u32(io, &m->msip);
	sio_u64(io, &m->irq_at);
	sio_bool(io, &m->pending);
	sio_u32(io, &m->pending_addr);
	sio_u64(io, &m->pending_now);
	sio_u64(io, &m->exceptions);
	sio_u64(io, &m->interrupts);
	if (io->load && m->mtvec >> 32)
		sio_fail(io, "mtvec 0x%llx is past 4 GiB, where no handler can be",
			 (unsigned long long)m->mtvec);
}

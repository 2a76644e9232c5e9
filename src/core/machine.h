/* machine.h - the bare-metal platform: machine-mode CSRs, traps and
 * interrupts, the memory map with access faults, and the devices (CLINT timer,
 * HTIF tohost/fromhost, a 16550-style UART). See docs/bare-metal.md. */
#ifndef CY_MACHINE_H
#define CY_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/isa.h"

struct cy_vm;

/* mcause values (privileged specification, table "Machine cause register
 * values after trap"); interrupts have the top bit set. */
#define CAUSE_INTERRUPT        0x80000000u
#define CAUSE_FETCH_ACCESS     1u
#define CAUSE_ILLEGAL_INSN     2u
#define CAUSE_BREAKPOINT       3u
#define CAUSE_LOAD_MISALIGNED  4u
#define CAUSE_LOAD_ACCESS      5u
#define CAUSE_STORE_MISALIGNED 6u
#define CAUSE_STORE_ACCESS     7u
#define CAUSE_ECALL_M          11u
#define IRQ_M_SOFT             3u
#define IRQ_M_TIMER            7u

/* The conventional CLINT layout (SiFive, Spike, QEMU virt). */
#define CLINT_BASE     0x02000000u
#define CLINT_SIZE     0x00010000u
#define CLINT_MSIP     0x02000000u
#define CLINT_MTIMECMP 0x02004000u
#define CLINT_MTIME    0x0200bff8u

#define UART_DEFAULT_BASE 0x10000000u
#define UART_THR          0    /* transmit holding register (write) */
#define UART_LSR          5    /* line status register (read) */
#define UART_LSR_IDLE     0x60 /* THR empty, transmitter empty */

#define MACHINE_DEFAULT_RAM "0x80000000:64M"
#define MACHINE_MAX_RAM     8

/* What machine_before tells the interpreter. */
enum machine_action {
	MACHINE_RUN = 0, /* execute the instruction */
	MACHINE_TRAP,    /* a trap or interrupt moved vm->pc to the handler */
	MACHINE_STOP,    /* the run stopped (tohost exit) before the instruction */
};

struct machine {
	/* XLEN bits wide (held in 64); mtvec below 4 GiB, where code can be */
	uint64_t mstatus, mtvec, mscratch, mepc, mcause, mtval;
	uint32_t mie;
	uint32_t pmpcfg[4], pmpaddr[16];
	uint64_t mtimecmp;
	uint64_t mtime_offset; /* mtime = cycles + offset (wraps) */
	uint32_t msip;
	uint64_t irq_at;  /* the clock from which an interrupt is taken */
	uint8_t *pagemap; /* per 4 KiB page: MPAGE_* bits */
	uint32_t tohost, fromhost;
	bool has_tohost;
	uint32_t uart_base;
	/* a store to a device the previous instruction made, acted upon at
	 * the next instruction boundary (when its bytes are in memory) */
	bool pending;
	uint32_t pending_addr;
	uint64_t pending_now;
	uint64_t exceptions, interrupts;
};

/* Checks opts.ram and opts.uart_base before anything is loaded; 0, or
 * -EINVAL with the reason in why. */
int machine_check_options(const struct cy_opts *opts, char *why, size_t why_size);
/* Sets up the machine for vm after the ELF is loaded: the memory map from
 * the segments and opts.ram, the devices and the reset state. */
int machine_setup(struct cy_vm *vm, char *err, size_t err_size);
void machine_free(struct cy_vm *vm);
struct sio;
/* Saves or restores the machine's CSRs and devices (util/state_io.h). */
void machine_state_io(struct sio *io, struct cy_vm *vm);
/* Whether the ELF asks for the bare platform (it has a tohost symbol). */
bool machine_detect(const struct cy_vm *vm);

/* Before every instruction of the bare interpreters: devices, interrupts
 * and the memory map's access faults. now/instret: the clock before it. */
enum machine_action machine_before(struct cy_vm *vm, const struct insn *in, uint64_t now,
				   uint64_t instret);
/* Takes a synchronous exception at vm->pc (the clock synced in vm);
 * returns false when the trap would loop on itself (the handler address
 * is the faulting one): the caller then stops with the fault. */
bool machine_exception(struct cy_vm *vm, uint32_t cause, uint64_t tval);
/* The same for an interpreter fault: maps it to its cause and mtval. */
bool machine_fault(struct cy_vm *vm, cy_fault fault);
/* mret: returns the address to continue at (mepc: at XLEN 64 it may be
 * past 4 GiB, which the caller takes as a fetch fault there). */
uint64_t machine_mret(struct cy_vm *vm);
/* wfi at clock now: the cycles to skip until an enabled interrupt is
 * pending, at most up to budget. */
uint64_t machine_wfi(struct cy_vm *vm, uint64_t now, uint64_t budget);
/* Machine-mode CSRs (csr_access's fallback); 0 or -1 (illegal). */
int machine_csr(struct cy_vm *vm, uint32_t csr, bool write, uint64_t value, uint64_t *old);

#endif

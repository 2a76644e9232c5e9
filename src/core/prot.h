/* prot.h - page protections and user-level traps, as SP1 v6's executor
 * runs a program built in its untrusted-programs mode (docs/zkvm.md,
 * "Untrusted programs"): a protection byte per 4 KiB page, checked before
 * each fetch outside the trusted code and each data access; a failure
 * jumps to the handler the guest's trap context names, or stops the run.
 * The interpreter's detailed builds call prot_before; the ABI sets pages
 * (MPROTECT) and checks a precompile's operands with prot_span. */
#ifndef CY_PROT_H
#define CY_PROT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/isa.h"

struct cy_vm;

/* A page's protection: the ELF segment flags' bits (PF_X, PF_W, PF_R). */
#define PROT_X    1u
#define PROT_W    2u
#define PROT_R    4u
#define PROT_PAGE 4096u
/* A page no segment covers and no MPROTECT set: read and write. */
#define PROT_DEFAULT (PROT_R | PROT_W)

/* The trap codes SP1 writes to the trap context, RISC-V's mcause values
 * for the access faults (instruction, load, store). */
#define PROT_FAIL_EXEC  1u
#define PROT_FAIL_READ  5u
#define PROT_FAIL_WRITE 7u

/* The trap context's words: the handler's address, then the code and the
 * pc of the instruction that failed (SP1's __SUCCINCT_TRAP_CONTEXT). */
#define PROT_CTX_HANDLER 0u
#define PROT_CTX_CODE    8u
#define PROT_CTX_PC      16u

struct prot_setup {
	/* the trusted code, which is fetched unchecked: the executable
	 * segments without SP1's PF_UNTRUSTED flag */
	uint64_t trusted_lo, trusted_hi;
	bool has_trap_ctx;
	uint64_t trap_ctx; /* the address of __SUCCINCT_TRAP_CONTEXT */
};

/* Turns the checks on for the VM's run; every page starts at PROT_DEFAULT.
 * 0 or -ENOMEM. */
int prot_enable(struct cy_vm *vm, const struct prot_setup *setup);
void prot_free(struct cy_vm *vm);
/* Sets the protection of [start, end)'s pages (end exclusive). 0 or -ENOMEM. */
int prot_set(struct cy_vm *vm, uint64_t start, uint64_t end, uint8_t prot);
uint8_t prot_get(const struct cy_vm *vm, uint64_t addr);

/* Checks want (PROT_* bits) on the pages of n 8-byte words from addr, in
 * order, as SP1 checks a precompile's operand: 0 when allowed, else the
 * trap code of the first failure (execute, then read, then write). */
uint32_t prot_span(const struct cy_vm *vm, uint64_t addr, uint64_t words, uint8_t want);

/* Traps the instruction at pc with code: the trap context gets the code and
 * pc, and *target the handler. false when the guest has no trap context:
 * the run is stopped instead, naming the access (addr, the page's bits). */
bool prot_trap(struct cy_vm *vm, uint32_t code, uint32_t pc, uint64_t addr, uint64_t *target);

enum prot_result {
	PROT_OK = 0,
	PROT_TRAPPED, /* prot_target() is where the run goes on */
	PROT_STOPPED, /* vm->stop is set */
};

/* The checks before the instruction in runs: its fetch (outside the trusted
 * code) and its data access. */
enum prot_result prot_before(struct cy_vm *vm, const struct insn *in);
struct sio;
/* The table's part of a checkpoint (util/state_io.h). */
void prot_state_io(struct sio *io, struct cy_vm *vm);

/* Where the last trap prot_before took goes on: the handler. */
uint64_t prot_target(const struct cy_vm *vm);

#endif

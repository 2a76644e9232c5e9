/* exec.h - the interpreter (exec.c): runs cached blocks until the cycle
 * budget is spent or the guest stops. */
#ifndef CY_EXEC_H
#define CY_EXEC_H

#include "core/state.h"

/* The interpreter alone (engine_run, and the translation tier's driver
 * for what it has not translated). */
void exec_interp(struct cy_vm *vm, uint64_t budget);
/* Whether the interpreter exec_interp picks now reports ACCT_DEADLINE (the
 * accounting builds whose clock is static costs plus extras announced as
 * they happen: not the per-instruction ones). */
bool exec_reports_deadlines(const struct cy_vm *vm);
/* Whether it is the plain accounting build: every instruction costs its
 * static cost, plus the extras it reports (ACCT_EXTRA) as it retires. */
bool exec_plain_clock(const struct cy_vm *vm);
/* Whether it is the accounting build that finds a detailed model's costs
 * inline (INLINE_COST): its extras (ACCT_EXTRA) are then a paging model's
 * page-ins, dirtied pages and segment starts alone, each with the
 * account's parts as the instruction's RETIRE event would carry them, or
 * the wait states of data accesses, with no parts. */
bool exec_costs_inline(const struct cy_vm *vm);
/* Handler addresses, by opcode, of the interpreter that vm needs now. */
const void *const *exec_handlers(const struct cy_vm *vm);

/* The interpreter's builds at one width (exec_builds.h; exec_rv32.c and
 * exec_rv64.c). Called with a NULL vm, a build only returns its handler
 * addresses by opcode. */
typedef const void *const *(*exec_fn)(struct cy_vm *vm, uint64_t budget);
struct exec_builds {
	exec_fn fast, detailed, inline_, bare, acct, acct_inline, acct_detailed, observed;
};
extern const struct exec_builds exec_builds_rv32, exec_builds_rv64;

#endif

/* exec.h - the interpreter (exec.c): runs cached blocks until the cycle
 * budget is spent or the guest stops. */
#ifndef CY_EXEC_H
#define CY_EXEC_H

#include "core/state.h"

void exec_run(struct cy_vm *vm, uint64_t budget);
/* Whether the interpreter exec_run picks now reports ACCT_DEADLINE (the
 * accounting builds whose clock is static costs plus extras announced as
 * they happen: not the per-instruction ones). */
bool exec_reports_deadlines(const struct cy_vm *vm);
/* Whether it is the plain accounting build: every instruction costs its
 * static cost, plus the extras it reports (ACCT_EXTRA) as it retires. */
bool exec_plain_clock(const struct cy_vm *vm);
/* Handler addresses, by opcode, of the interpreter that vm needs now. */
const void *const *exec_handlers(const struct cy_vm *vm);

#endif

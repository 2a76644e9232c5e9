/* exec_builds.h - the interpreter's builds at one register width:
 * exec_rv32.c includes this with XLEN 32 and BUILD(n) n##_rv32, exec_rv64.c
 * with XLEN 64 and BUILD(n) n##_rv64. Each build is exec_loop.h compiled
 * with other switches; what is off in a build costs it nothing. Not a
 * header to include elsewhere. */

/* Static costs only, no event code. */
#define OBSERVE     0
#define ACCT        0
#define DETAILED    0
#define INLINE_COST 0
#define BARE        0
#define EXEC_FN     BUILD(exec_fast)
#include "core/exec_loop.h"
#undef DETAILED
#undef EXEC_FN

/* The cost account before each instruction (cost/detailed.c). */
#define DETAILED 1
#define EXEC_FN  BUILD(exec_detailed)
#include "core/exec_loop.h"
#undef DETAILED
#undef INLINE_COST
#undef EXEC_FN

/* INLINE_COST: the detailed models' costs found by the data accesses
 * themselves (exec_loop.h), for models whose extra cycles come from data
 * accesses and paging alone */
#define DETAILED    0
#define INLINE_COST 1
#define EXEC_FN     BUILD(exec_inline)
#include "core/exec_loop.h"
#undef DETAILED
#undef INLINE_COST
#undef BARE
#undef EXEC_FN

/* BARE: the machine's checks before each instruction and traps instead of
 * faults (machine.c); the builds below test vm->machine at run time. */
#define DETAILED    1
#define INLINE_COST 0
#define BARE        1
#define EXEC_FN     BUILD(exec_bare)
#include "core/exec_loop.h"
#undef ACCT
#undef DETAILED
#undef BARE
#undef EXEC_FN

/* ACCT: the accounting interface's edges (account.h), for the profilers;
 * exec_acct_detailed also runs the cost account and the bare platform. */
#define ACCT     1
#define DETAILED 0
#define BARE     0
#define EXEC_FN  BUILD(exec_acct)
#include "core/exec_loop.h"
#undef DETAILED
#undef INLINE_COST
#undef EXEC_FN

#define DETAILED    0
#define INLINE_COST 1
#define EXEC_FN     BUILD(exec_acct_inline)
#include "core/exec_loop.h"
#undef DETAILED
#undef INLINE_COST
#undef BARE
#undef EXEC_FN

#define DETAILED    1
#define INLINE_COST 0
#define BARE        1
#define EXEC_FN     BUILD(exec_acct_detailed)
#include "core/exec_loop.h"
#undef OBSERVE
#undef EXEC_FN

/* OBSERVE: every instruction's events for cy_vm_add_observer, and the
 * accounting edges too. */
#define OBSERVE 1
#define EXEC_FN BUILD(exec_observed)
#include "core/exec_loop.h"
#undef OBSERVE
#undef ACCT
#undef DETAILED
#undef INLINE_COST
#undef BARE
#undef EXEC_FN

const struct exec_builds BUILD(exec_builds) = {
	BUILD(exec_fast), BUILD(exec_detailed),    BUILD(exec_inline),        BUILD(exec_bare),
	BUILD(exec_acct), BUILD(exec_acct_inline), BUILD(exec_acct_detailed), BUILD(exec_observed),
};

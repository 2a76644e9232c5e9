/* exec_builds.h - the interpreter's builds at one register width:
 * exec_rv32.c includes this with XLEN 32 and BUILD(n) n##_rv32, exec_rv64.c
 * with XLEN 64 and BUILD(n) n##_rv64. Each build is exec_loop.h compiled
 * with other switches; what is off in a build costs it nothing. Not a
 * header to include elsewhere.
 *
 * EXEC_PART picks half of them: 1 the plain builds (exec_rv32.c), 2 the
 * accounting and observed builds and the table (exec_rv32_acct.c), so that
 * each half is compiled with its own flags (mk/cyclops.mk). */
#if EXEC_PART == 1

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

#elif EXEC_PART == 2

#define OBSERVE     0
#define INLINE_COST 0

/* ACCT: the accounting interface's edges (account.h), for the profilers;
 * exec_acct_detailed also runs the cost account and the bare platform. */
#define ACCT        1
#define DETAILED    0
#define BARE        0
#define EXEC_FN     BUILD(exec_acct)
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

/* the plain builds, in the other half */
const void *const *BUILD(exec_fast)(struct cy_vm *vm, uint64_t budget);
const void *const *BUILD(exec_detailed)(struct cy_vm *vm, uint64_t budget);
const void *const *BUILD(exec_inline)(struct cy_vm *vm, uint64_t budget);
const void *const *BUILD(exec_bare)(struct cy_vm *vm, uint64_t budget);

const struct exec_builds BUILD(exec_builds) = {
	BUILD(exec_fast), BUILD(exec_detailed),    BUILD(exec_inline),        BUILD(exec_bare),
	BUILD(exec_acct), BUILD(exec_acct_inline), BUILD(exec_acct_detailed), BUILD(exec_observed),
};

#else
#error "EXEC_PART must be 1 or 2"
#endif

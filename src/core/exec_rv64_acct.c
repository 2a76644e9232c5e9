/* exec_rv64_acct.c - the interpreter's accounting and observed builds for
 * 64-bit guests, and the table of all of them, exec_builds_rv64 (exec.c
 * picks one per run). Apart from exec_rv64.c for their own flags
 * (mk/cyclops.mk). */
#include "core/exec_impl.h"

#define XLEN      64
#define BUILD(n)  n##_rv64
#define EXEC_PART 2
#include "core/exec_builds.h"

/* exec_rv32_acct.c - the interpreter's accounting and observed builds for
 * 32-bit guests, and the table of all of them, exec_builds_rv32 (exec.c
 * picks one per run). Apart from exec_rv32.c for their own flags
 * (mk/cyclops.mk). */
#include "core/exec_impl.h"

#define XLEN      32
#define BUILD(n)  n##_rv32
#define EXEC_PART 2
#include "core/exec_builds.h"

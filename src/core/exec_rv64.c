/* exec_rv64.c - the interpreter's plain builds for 64-bit guests:
 * exec_builds.h at XLEN 64 (the accounting ones are in exec_rv64_acct.c). The
 * two widths are separate files so that each compiles on its own. */
#include "core/exec_impl.h"

#define XLEN      64
#define BUILD(n)  n##_rv64
#define EXEC_PART 1
#include "core/exec_builds.h"

/* exec_rv32.c - the interpreter's plain builds for 32-bit guests:
 * exec_builds.h at XLEN 32 (the accounting ones are in exec_rv32_acct.c). The
 * two widths are separate files so that each compiles on its own. */
#include "core/exec_impl.h"

#define XLEN      32
#define BUILD(n)  n##_rv32
#define EXEC_PART 1
#include "core/exec_builds.h"

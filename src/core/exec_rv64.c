/* exec_rv64.c - the interpreter's builds for 64-bit guests: exec_builds.h
 * at XLEN 64, gathered in exec_builds_rv64 (exec.c picks one per run). The
 * two widths are separate files so that each compiles on its own. */
#include "core/exec_impl.h"

#define XLEN     64
#define BUILD(n) n##_rv64
#include "core/exec_builds.h"

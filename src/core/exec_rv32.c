/* exec_rv32.c - the interpreter's builds for 32-bit guests: exec_builds.h
 * at XLEN 32, gathered in exec_builds_rv32 (exec.c picks one per run). The
 * two widths are separate files so that each compiles on its own. */
#include "core/exec_impl.h"

#define XLEN     32
#define BUILD(n) n##_rv32
#include "core/exec_builds.h"

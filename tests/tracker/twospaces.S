# Rule: the request is everything after the one space of the prefix, so with
# two spaces the name begins with a space (as in the reference).
#
#   0  WRITE start_sp_y  ecall at  5   start " y" at 5
#   6  NOPS 5            6..10
#  11  WRITE end_y       ecall at 16   end "y": a different name, no start: 0
#  17  WRITE end_sp_y    ecall at 22   end " y": 22 - 5 = 17
#  23  EXIT              23..25: 26 instructions
# EXPECT: r["cycle_tracker"] == {"y": [0], " y": [17]}
# EXPECT: r["warnings"] == [{"kind": "unmatched_end", "name": "y", "count": 1, "cycle": 16}]
# EXPECT: r["instructions"] == 26
#include "macros.inc"
    STR start_sp_y, "cycle-tracker-start:  y\n"
    STR end_y, "cycle-tracker-end: y\n"
    STR end_sp_y, "cycle-tracker-end:  y\n"
_start:
    WRITE 1, start_sp_y
    NOPS 5
    WRITE 1, end_y
    WRITE 1, end_sp_y
    EXIT

# Rule: an end with no start inserts the current clock as the start, so it
# records 0 and leaves that start behind, as the reference does.
#
#   0  NOPS 3       0..2
#   3  WRITE end_b  ecall at  8   end b, no start: records 0, start b = 8
#   9  NOPS 4       9..12
#  13  WRITE end_b  ecall at 18   end b: 18 - 8 = 10
#  19  EXIT         19..21: 22 instructions
# EXPECT: r["cycle_tracker"] == {"b": [0, 10]}
# EXPECT: r["warnings"] == [{"kind": "unmatched_end", "name": "b", "count": 1, "cycle": 8}]
# EXPECT: "warning: cycle-tracker-end: b with no start (once, at cycle 8): recorded 0" in err
#include "macros.inc"
    STR end_b, "cycle-tracker-end: b\n"
_start:
    NOPS 3
    WRITE 1, end_b
    NOPS 4
    WRITE 1, end_b
    EXIT

# Rule: an end does not consume the start; the same name ended twice
# measures both from the one start.
#
#   0  WRITE start_c  ecall at  5   start c at 5
#   6  NOPS 2         6..7
#   8  WRITE end_c    ecall at 13   end c: 13 - 5 = 8
#  14  NOPS 6         14..19
#  20  WRITE end_c    ecall at 25   end c: 25 - 5 = 20
#  26  EXIT           26..28: 29 instructions
# EXPECT: r["cycle_tracker"] == {"c": [8, 20]}
# EXPECT: r["spans"] == [{"name": "c", "depth": 0, "parent": -1, "count": 2, "total": 28, "min": 8, "max": 20, "open": False}]
# EXPECT: r["warnings"] == []
#include "macros.inc"
    STR start_c, "cycle-tracker-start: c\n"
    STR end_c, "cycle-tracker-end: c\n"
_start:
    WRITE 1, start_c
    NOPS 2
    WRITE 1, end_c
    NOPS 6
    WRITE 1, end_c
    EXIT

# Rule: a start stores the clock, overwriting an earlier start of the name.
#
#   0  WRITE start_a  ecall at  5   start a at 5
#   6  NOPS 10        6..15
#  16  WRITE start_a  ecall at 21   start a again: 21 replaces 5
#  22  NOPS 3         22..24
#  25  WRITE end_a    ecall at 30   end a: 30 - 21 = 9 (from the first: 25)
#  31  EXIT           31..33: 34 instructions
# EXPECT: r["cycle_tracker"] == {"a": [9]}
# EXPECT: r["warnings"] == [{"kind": "restarted", "name": "a", "count": 1, "cycle": 21}]
# EXPECT: r["instructions"] == 34
#include "macros.inc"
    STR start_a, "cycle-tracker-start: a\n"
    STR end_a, "cycle-tracker-end: a\n"
_start:
    WRITE 1, start_a
    NOPS 10
    WRITE 1, start_a
    NOPS 3
    WRITE 1, end_a
    EXIT

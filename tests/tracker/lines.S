# Rule: several lines in one write are several requests, serviced in order,
# all at the clock of that write.
#
#   0  WRITE two_starts     ecall at  5   start a, start b, both at 5
#   6  NOPS 3               6..8
#   9  WRITE end_a          ecall at 14   end a: 14 - 5 = 9
#  15  WRITE end_b_start_b  ecall at 20   end b: 20 - 5 = 15, a plain line,
#                                         then start b again at 20
#  21  NOPS 2               21..22
#  23  WRITE end_b          ecall at 28   end b: 28 - 20 = 8
#  29  EXIT                 29..31: 32 instructions
# Out of order (the start before the end at 20), b would be [0, 8].
# EXPECT: r["cycle_tracker"] == {"a": [9], "b": [15, 8]}
# EXPECT: r["warnings"] == []
# EXPECT: r["instructions"] == 32
# EXPECT: "\nplain text\n" in out
#include "macros.inc"
    STR two_starts, "cycle-tracker-start: a\ncycle-tracker-start: b\n"
    STR end_a, "cycle-tracker-end: a\n"
    STR end_b_start_b, "cycle-tracker-end: b\nplain text\ncycle-tracker-start: b\n"
    STR end_b, "cycle-tracker-end: b\n"
_start:
    WRITE 1, two_starts
    NOPS 3
    WRITE 1, end_a
    WRITE 1, end_b_start_b
    NOPS 2
    WRITE 1, end_b
    EXIT

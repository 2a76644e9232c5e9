# Rule: the prefixes are exact; with no space after the colon a line is
# ordinary output, not a request.
#
#   0  WRITE start_nospace  ecall at  5   "cycle-tracker-start:x": output only
#   6  NOPS 4               6..9
#  10  WRITE end_nospace    ecall at 15   "cycle-tracker-end:x": output only
#  16  WRITE end_x          ecall at 21   end x with no start: records 0
#  22  EXIT                 22..24: 25 instructions
# Had the first line been a start, x would be [16]; had the second been an
# end, x would be [10, ...].
# EXPECT: r["cycle_tracker"] == {"x": [0]}
# EXPECT: out.startswith("cycle-tracker-start:x\ncycle-tracker-end:x\n")
# EXPECT: r["instructions"] == 25
#include "macros.inc"
    STR start_nospace, "cycle-tracker-start:x\n"
    STR end_nospace, "cycle-tracker-end:x\n"
    STR end_x, "cycle-tracker-end: x\n"
_start:
    WRITE 1, start_nospace
    NOPS 4
    WRITE 1, end_nospace
    WRITE 1, end_x
    EXIT

# Rule: cycle-tracker-report-start/-end measure like start/end (one set of
# starts), and their results are also summed per name into a total and a
# count; plain ends are not. An unmatched report-end records 0 and counts.
#
#   0  WRITE rstart_r  ecall at  5   report-start r at 5
#   6  NOPS 1          6
#   7  WRITE rend_r    ecall at 12   report-end r: 12 - 5 = 7
#  13  WRITE rstart_r  ecall at 18   report-start r at 18
#  19  NOPS 4          19..22
#  23  WRITE rend_r    ecall at 28   report-end r: 28 - 18 = 10
#  29  WRITE start_r   ecall at 34   start r at 34
#  35  NOPS 2          35..36
#  37  WRITE end_r     ecall at 42   end r: 42 - 34 = 8 (not in the total)
#  43  WRITE rstart_r  ecall at 48   report-start r at 48
#  49  WRITE rend_r    ecall at 54   report-end r: 54 - 48 = 6
#  55  WRITE rend_u    ecall at 60   report-end u, no start: 0
#  61  EXIT            61..63: 64 instructions
# r: total 7 + 10 + 6 = 23 over 3 report-ends; u: total 0, count 1.
# EXPECT: r["cycle_tracker"] == {"r": [7, 10, 8, 6], "u": [0]}
# EXPECT: r["cycle_tracker_report"] == {"r": {"total": 23, "count": 3}, "u": {"total": 0, "count": 1}}
# EXPECT: [l.split() for l in err.splitlines() if l.startswith("r ")][-1] == ["r", "3", "23", "35.9%"]
# EXPECT: r["instructions"] == 64
#include "macros.inc"
    STR rstart_r, "cycle-tracker-report-start: r\n"
    STR rend_r, "cycle-tracker-report-end: r\n"
    STR start_r, "cycle-tracker-start: r\n"
    STR end_r, "cycle-tracker-end: r\n"
    STR rend_u, "cycle-tracker-report-end: u\n"
_start:
    WRITE 1, rstart_r
    NOPS 1
    WRITE 1, rend_r
    WRITE 1, rstart_r
    NOPS 4
    WRITE 1, rend_r
    WRITE 1, start_r
    NOPS 2
    WRITE 1, end_r
    WRITE 1, rstart_r
    WRITE 1, rend_r
    WRITE 1, rend_u
    EXIT

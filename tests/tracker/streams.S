# Rule: requests come on stdout and on stderr, each stream with a line
# buffer of its own; a start on one and its end on the other pair up.
#
#   0  WRITE 1 pre        ecall at  5   stdout: "cycle-tracker-start: " (pending)
#   6  WRITE 2 err_line   ecall at 11   stderr: start e at 11
#  12  WRITE 1 out_rest   ecall at 17   stdout: "o\n" completes start o at 17
#  18  NOPS 4             18..21
#  22  WRITE 2 end_o      ecall at 27   stderr: end o: 27 - 17 = 10
#  28  WRITE 1 end_e      ecall at 33   stdout: end e: 33 - 11 = 22
#  34  EXIT               34..36: 37 instructions
# With one buffer for both, stdout's pending prefix would swallow the
# stderr request; with stderr ignored, e would never start.
# EXPECT: r["cycle_tracker"] == {"o": [10], "e": [22]}
# EXPECT: r["instructions"] == 37
# EXPECT: out == "cycle-tracker-start: o\ncycle-tracker-end: e\n"
# EXPECT: "cycle-tracker-start: e\ncycle-tracker-end: o\n" in err
#include "macros.inc"
    STR pre, "cycle-tracker-start: "
    STR err_line, "cycle-tracker-start: e\n"
    STR out_rest, "o\n"
    STR end_o, "cycle-tracker-end: o\n"
    STR end_e, "cycle-tracker-end: e\n"
_start:
    WRITE 1, pre
    WRITE 2, err_line
    WRITE 1, out_rest
    NOPS 4
    WRITE 2, end_o
    WRITE 1, end_e
    EXIT

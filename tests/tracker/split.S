# Rule: a request is serviced only when its newline arrives, at the clock of
# the write that delivered it; a line split over three writes is one request.
#
# clock = instructions executed before; each WRITE is 6 (macros.inc)
#   0  WRITE pre        ecall at  5   "cycle-tracker-start: "  (nothing yet)
#   6  WRITE name       ecall at 11   "split"                  (nothing yet)
#  12  WRITE newline    ecall at 17   "\n": start split at 17
#  18  NOPS 10          18..27
#  28  WRITE end_split  ecall at 33   end split: 33 - 17 = 16
#  34  WRITE start_two  ecall at 39   start two at 39
#  40  WRITE end_two_a  ecall at 45   "cycle-tracker-end: tw" (nothing yet)
#  46  NOPS 7           46..52
#  53  WRITE end_two_b  ecall at 58   "o\n": end two: 58 - 39 = 19
#  59  EXIT             59..61: 62 instructions
# Serviced at the first write, split would be 33 - 5 = 28; at the second, 22.
# EXPECT: r["cycle_tracker"] == {"split": [16], "two": [19]}
# EXPECT: r["instructions"] == 62 and r["cycles"] == 62
# EXPECT: out == "cycle-tracker-start: split\ncycle-tracker-end: split\ncycle-tracker-start: two\ncycle-tracker-end: two\n"
#include "macros.inc"
    STR pre, "cycle-tracker-start: "
    STR name, "split"
    STR newline, "\n"
    STR end_split, "cycle-tracker-end: split\n"
    STR start_two, "cycle-tracker-start: two\n"
    STR end_two_a, "cycle-tracker-end: tw"
    STR end_two_b, "o\n"
_start:
    WRITE 1, pre
    WRITE 1, name
    WRITE 1, newline
    NOPS 10
    WRITE 1, end_split
    WRITE 1, start_two
    WRITE 1, end_two_a
    NOPS 7
    WRITE 1, end_two_b
    EXIT

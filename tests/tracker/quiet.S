# Rule: with --cycle-tracker=quiet the request lines are serviced but left
# out of the guest's output; everything else goes out, in order, also text
# that looked like a request until it did not, and a last partial line (no
# newline) when the guest exits.
#
#   0  WRITE 1 hello_start  ecall at  5   "hello", start q at 5
#   6  WRITE 1 part1        ecall at 11   "cycle-tr" (held back)
#  12  WRITE 1 part2        ecall at 17   completes end q: 17 - 5 = 12, then
#                                         "bye" and "cycle-" (held back)
#  18  WRITE 1 part3        ecall at 23   "trackerX\n": not a request after all
#  24  WRITE 2 err_start    ecall at 29   stderr: start w at 29
#  30  WRITE 2 err_end      ecall at 35   stderr: end w: 35 - 29 = 6
#  36  WRITE 1 last         ecall at 41   "partial" (no newline)
#  42  EXIT                 42..44: 45 instructions
# ARGS: --cycle-tracker=quiet
# EXPECT: r["cycle_tracker"] == {"q": [12], "w": [6]}
# EXPECT: out == "hello\nbye\ncycle-trackerX\npartial"
# EXPECT: "cycle-tracker-" not in err.split("cyclops:")[0]
#include "macros.inc"
    STR hello_start, "hello\ncycle-tracker-start: q\n"
    STR part1, "cycle-tr"
    STR part2, "acker-end: q\nbye\ncycle-"
    STR part3, "trackerX\n"
    STR err_start, "cycle-tracker-start: w\n"
    STR err_end, "cycle-tracker-end: w\n"
    STR last, "partial"
_start:
    WRITE 1, hello_start
    WRITE 1, part1
    WRITE 1, part2
    WRITE 1, part3
    WRITE 2, err_start
    WRITE 2, err_end
    WRITE 1, last
    EXIT

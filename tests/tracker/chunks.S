# Rule: chunks report only the ends that happened in them, with the full
# length of spans that started in an earlier chunk. Run with chunks of 10
# cycles: chunk i runs the instructions at clocks 10i .. 10i + 9.
#
#   0  WRITE start_long   ecall at  5   start long at 5        (chunk 0)
#   6  DELAY 30           6..66 (1 + 2 * 30 = 61 instructions)
#  67  WRITE end_long     ecall at 72   end long: 72 - 5 = 67  (chunk 7)
#  73  WRITE start_short  ecall at 78   start short at 78      (chunk 7)
#  79  WRITE end_short    ecall at 84   end short: 84 - 78 = 6 (chunk 8)
#  85  EXIT               85..87: 88 instructions; chunk 8 is [80, 88), done
# ARGS: --chunk-cycles 10
# EXPECT: r["cycle_tracker"] == {"long": [67], "short": [6]}
# EXPECT: [(c["index"], c["start_cycle"], c["end_cycle"], c["done"]) for c in r["chunks"]] == [(i, 10 * i, min(10 * i + 10, 88), i == 8) for i in range(9)]
# EXPECT: [c["cycle_tracker"] for c in r["chunks"]] == [{}] * 7 + [{"long": [67]}, {"short": [6]}]
# EXPECT: r["instructions"] == 88
#include "macros.inc"
    STR start_long, "cycle-tracker-start: long\n"
    STR end_long, "cycle-tracker-end: long\n"
    STR start_short, "cycle-tracker-start: short\n"
    STR end_short, "cycle-tracker-end: short\n"
_start:
    WRITE 1, start_long
    DELAY 30
    WRITE 1, end_long
    WRITE 1, start_short
    WRITE 1, end_short
    EXIT

# "Walking on water": the timers cost the guest exactly their own
# instructions. Built twice (build/walk.elf, build/walk-off.elf with the
# timers compiled out); the totals differ by the cost of TIMER_INIT,
# TIMER_START work (a 4-byte label) and TIMER_STOP, derived from
# timer.inc's instruction lists:
#
# unit (one cycle each): INIT 10 + START 9 + 6 * 4 = 33 + STOP 3 = 46
# zero-riscy (alu 1, load 2, store 2, branch 1, taken 3):
#   INIT       10 alu                                              10
#   START      la, la, li: 5 alu                                    5
#              4 bytes of lbu 2 + sb 2 + 3 addi: 7 each            28
#              bnez taken 3 times (3) and not taken once (1)       10
#              la, li: 3 alu; sw 2                                  5  = 48
#   STOP       la: 2 alu; sw 2                                      4
#                                                                     = 62
# The loop: 50 times add, addi, bnez: 150 instructions; zero-riscy
# 49 * (1 + 1 + 3) + (1 + 1 + 1) = 248 cycles. The timer "work" holds the
# length store that starts it (as profiler0 counts), the loop and STOP's
# la: unit 153, zero-riscy 252.
# Off: li, li, the loop, EXIT: 2 + 150 + 3 = 155 instructions.
# EXPECT-DIFF unit: 46
# EXPECT-DIFF zero-riscy: 62
# EXPECT: [(t["label"], t["cycles"], t["instructions"]) for t in r["timers"]["tree"]] == [("work", 153, 153)] and r["instructions"] == 201
#include "timer.inc"
    TIMER_LABEL work, "work"
_start:
    TIMER_INIT
    li t4, 0
    li t5, 50
    TIMER_START work
loop:
    add t4, t4, t5
    addi t5, t5, -1
    bnez t5, loop
    TIMER_STOP
    EXIT

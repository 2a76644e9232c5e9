# The announcement inside a hot loop: 2000 runs of a loop body that starts
# and stops the timer "work", whose announcement (TIMER_INIT) runs once, in
# the run with t5 = 500, behind a branch taken in every other run. By then
# the loop is hot, so translated code (the timer layer runs it EAGER, with
# and without the sampler) meets the announcement's flagged block inside a
# region: it must leave for the driver there, or the timers never hear of
# the announcement. Before it the stores to the channels are not watched;
# from it on, every run's START and STOP are a slice of "work".
#
# Instructions, from timer.inc's lists (unit: one cycle each):
#   li t4, li t5 (2000 fits addi's immediate)                    2
#   per run: li t6 (500: addi), bne, START work (9 + 6 * 4 = 33),
#            addi t4, STOP (3), addi t5, bnez                    41
#   the announcement, once                                       10
#   EXIT                                                          3
#   = 2 + 2000 * 41 + 10 + 3 = 82015
# The timer's runs: t5 = 500 down to 1, 500 of them; each holds the length
# store that opens it, the addi t4 and STOP's la (2): 4 instructions.
# Off: li, li, 2000 * (li, bne, addi, addi, bnez), EXIT: 2 + 10000 + 3 =
# 10005; the timers cost 82015 - 10005 = 72010 (2000 * 36 + 10).
# EXPECT-DIFF unit: 72010
# EXPECT: r["instructions"] == 82015 and [(t["label"], t["count"], t["cycles"], t["instructions"]) for t in r["timers"]["tree"]] == [("work", 500, 2000, 2000)]
#include "timer.inc"
    TIMER_LABEL work, "work"
_start:
    li t4, 0
    li t5, 2000
loop:
    li t6, 500
    bne t5, t6, announced
    TIMER_INIT
announced:
    TIMER_START work
    addi t4, t4, 1
    TIMER_STOP
    addi t5, t5, -1
    bnez t5, loop
    EXIT

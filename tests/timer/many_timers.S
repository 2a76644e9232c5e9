# More timers than the tree holds (2^16 = 65536, CY_TIMER_MAX_NODES,
# docs/robustness.md#limits): N = 65540 timers at the top level, each with
# its own 4-byte label, then a new label with a known one inside it. With
# the tree full, a start with a new label is ignored, and so is every
# start inside it; their stops close them, not the timers around. Unit
# model (one cycle per instruction; clock = instructions so far).
#
# START_NUM reg starts a timer labelled by the base-64 digits of reg,
# lowest first, each as the byte 48 + digit ("0000" for 0, "00@0" for
# 65536): la (2), 4 digits (3 + 3 * 4 = 15 instructions: andi, addi, sb,
# and a srli for the upper three), la (2), li (1), the length store:
# 21 instructions; the timer opens before the 21st (it holds its start's
# length store).
#
#   0  TIMER_INIT                              0..9
#  10  li s0, 0; li s1, N (lui + addi)         10..12
#  per timer k = 0, 1, ..., N - 1 (26 instructions, from 13 + 26k):
#      START_NUM s0                            opens at 33 + 26k
#      TIMER_STOP (la: 2)                      closes at 36 + 26k: 3 cycles
#      addi s0, s0, 1; bne s0, s1, loop
#  T = 13 + 26 * 65540 = 1704053:
#      TIMER_START x (15)                      new label, tree full: ignored
#      START_NUM zero (21)                     "0000", known, but inside x:
#                                              ignored
#      TIMER_STOP; TIMER_STOP (6)              close the two ignored timers
#      START_NUM zero (21)                     "0000" at the top: opens at
#                                              T + 62 = 1704115
#      TIMER_STOP (3)                          closes at 1704118
#      EXIT (3)                                T + 69 = 1704122 instructions
# The tree: timers 0..65535, at the top, once each for 3 cycles, but "0000"
# twice (6 cycles). Ignored: the starts of 65536..65539 and the two of the
# end, 6, the first at 33 + 26 * 65536 = 1703969 ("00@0"). Slices: 65537,
# the last "0000" again. Nothing is left open and no stop is unmatched.
# Compiled out: 10 + 24 * N + 66 fewer instructions (INIT, the starts and
# stops of the loop, the end's 15 + 21 + 3 + 3 + 21 + 3):
# EXPECT-DIFF unit: 1573036
#
# EXPECT: r["instructions"] == 1704122 and r["cycles"] == 1704122
# EXPECT: len(r["timers"]["tree"]) == 65536
# EXPECT: all((t["label"], t["depth"], t["parent"], t["count"], t["cycles"], t["open"]) == ("".join(chr(48 + (k >> s & 63)) for s in (0, 6, 12, 18)), 0, -1, 2 if k == 0 else 1, 6 if k == 0 else 3, False) for k, t in enumerate(r["timers"]["tree"]))
# EXPECT: [(w["kind"], w["label"], w["count"], w["cycle"]) for w in r["timers"]["warnings"]] == [("too_many_timers", "00@0", 6, 1703969)]
# EXPECT: len(r["timers"]["slices"]) == 65537 and [(s["timer"], s["start_cycle"], s["end_cycle"]) for s in r["timers"]["slices"][-2:]] == [(65535, 33 + 26 * 65535, 36 + 26 * 65535), (0, 1704115, 1704118)]
# EXPECT: err.count("cyclops: warning: timers: more than 65536 timers; a start with a new label is ignored from here on, with every timer inside it: their time stays in the enclosing timer\n") == 1
# EXPECT: "6 timer starts ignored past the limit of 65536 timers (first at cycle 1703969: 00@0): their time is in the enclosing timer" in err
#include "timer.inc"

#define N 65540

.macro START_NUM reg
#if TIMERS
    la t1, MSG_CHANNEL
    andi t2, \reg, 63
    addi t2, t2, 48
    sb t2, 0(t1)
    .irp shift, 6, 12, 18
    srli t3, \reg, \shift
    andi t2, t3, 63
    addi t2, t2, 48
    sb t2, \shift / 6(t1)
    .endr
    la t1, LEN_CHANNEL
    li t2, 4
    sw t2, 0(t1)
#endif
.endm

    TIMER_LABEL x, "x"
_start:
    TIMER_INIT
    li s0, 0
    li s1, N
loop:
    START_NUM s0
    TIMER_STOP
    addi s0, s0, 1
    bne s0, s1, loop
    TIMER_START x
    START_NUM zero
    TIMER_STOP
    TIMER_STOP
    START_NUM zero
    TIMER_STOP
    EXIT

# A length above the 512-byte message buffer: the label is cut to 512 bytes
# (here the untouched buffer: 512 NULs) and a long_label warning names the
# clock. Unit model.
#
#   0  TIMER_INIT                        0..9
#  10  la t1, LEN_CHANNEL; li t2, 600   10..12
#  13  sw t2, 0(t1)                     length 600 at 13: opens at 13, the
#                                      clock before the length store
#  14  TIMER_STOP                       la 14, 15; signal store at 16: 3 cycles
#  17  EXIT                             17..19: 20 instructions
#
# EXPECT: r["instructions"] == 20
# EXPECT: [(t["label"], t["count"], t["cycles"]) for t in r["timers"]["tree"]] == [("\0" * 512, 1, 3)]
# EXPECT: [(w["kind"], w["count"], w["cycle"]) for w in r["timers"]["warnings"]] == [("long_label", 1, 13)]
# EXPECT: "timer label longer than the 512-byte channel (1 time, first at cycle 13): cut to 512 bytes" in err
#include "timer.inc"
_start:
    TIMER_INIT
    la t1, LEN_CHANNEL
    li t2, 600
    sw t2, 0(t1)
    TIMER_STOP
    EXIT

# Nesting, STOP_START, an unmatched stop and a timer never stopped, under
# the unit model (one cycle per instruction; clock = instructions so far).
# Every label is 5 bytes: a TIMER_START is 9 + 6 * 5 = 39 instructions.
#
#   0  TIMER_INIT               0..9
# A timer holds its start's length store (profiler0 counts from the clock
# before it) and stops before the signal store.
#
#  10  TIMER_START outer        10..48, length store at 48: outer opens at 48
#  49  NOPS 3                   49..51
#  52  TIMER_START inner        52..90: inner opens at 90 (under outer)
#  91  NOPS 4                   91..94
#  95  TIMER_STOP_START other   la 95, 96; signal store at 97: inner closes
#                               at 97: 97 - 90 = 7 cycles, 7 instructions;
#                               START 98..136: other opens at 136 (under
#                               outer: inner is closed)
# 137  NOPS 2                   137..138
# 139  TIMER_STOP               la 139, 140; store at 141: other = 141 - 136 = 5
# 142  NOPS 1                   142
# 143  TIMER_STOP               la 143, 144; store at 145: outer = 145 - 48 = 97
# 146  TIMER_STOP               la 146, 147; store at 148: nothing open, a
#                               warning (unmatched_stop at cycle 148)
# 149  TIMER_START never        149..187: never opens at 187, at the top
# 188  EXIT                     188..190: 191 instructions
# never is left open: a warning (never_stopped, started at 187).
# Compiled out: 191 - 10 (INIT) - 4 * 39 (STARTs) - 4 * 3 (STOPs) = 13
# instructions (the nops and the exit), 178 fewer:
# EXPECT-DIFF unit: 178
# Nothing costs 1000 cycles: no explained steps.
#
# EXPECT: r["instructions"] == 191 and r["cycles"] == 191
# EXPECT: [(t["label"], t["depth"], t["parent"], t["count"], t["cycles"], t["instructions"], t["open"]) for t in r["timers"]["tree"]] == [("outer", 0, -1, 1, 97, 97, False), ("inner", 1, 0, 1, 7, 7, False), ("other", 1, 0, 1, 5, 5, False), ("never", 0, -1, 0, 0, 0, True)]
# EXPECT: [(w["kind"], w["label"], w["count"], w["cycle"]) for w in r["timers"]["warnings"]] == [("unmatched_stop", "", 1, 148), ("never_stopped", "never", 1, 187)]
# EXPECT: [(s["timer"], s["start_cycle"], s["end_cycle"], s["open"]) for s in r["timers"]["slices"]] == [(0, 48, 145, False), (1, 90, 97, False), (2, 136, 141, False), (3, 187, 191, True)]
# EXPECT: r["timers"]["channels"] == {"message": 0x300000, "length": 0x300200, "signal": 0x300204}
# EXPECT: all(t["steps"] == [] for t in r["timers"]["tree"])
# EXPECT: [l.split()[:4] for l in err.splitlines() if l.startswith(("outer", "  inner", "  other", "never"))] == [["outer", "1", "97", "97"], ["inner", "1", "7", "7"], ["other", "1", "5", "5"], ["never", "0", "0", "0"]]
# EXPECT: "timer stop with no timer open (1 time, first at cycle 148)" in err
# EXPECT: "timer never started at cycle 187 never stopped" in err
#include "timer.inc"
    TIMER_LABEL outer, "outer"
    TIMER_LABEL inner, "inner"
    TIMER_LABEL other, "other"
    TIMER_LABEL never, "never"
_start:
    TIMER_INIT
    TIMER_START outer
    NOPS 3
    TIMER_START inner
    NOPS 4
    TIMER_STOP_START other
    NOPS 2
    TIMER_STOP
    NOPS 1
    TIMER_STOP
    TIMER_STOP
    TIMER_START never
    EXIT

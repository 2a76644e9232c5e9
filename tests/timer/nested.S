# Nesting, STOP_START, an unmatched stop and a timer never stopped, under
# the unit model (one cycle per instruction; clock = instructions so far).
# Every label is 5 bytes: a TIMER_START is 9 + 6 * 5 = 39 instructions.
#
#   0  TIMER_INIT               0..9
#  10  TIMER_START outer        10..48, length store at 48: outer opens at 49
#  49  NOPS 3                   49..51
#  52  TIMER_START inner        52..90: inner opens at 91 (under outer)
#  91  NOPS 4                   91..94
#  95  TIMER_STOP_START other   la 95, 96; signal store at 97: inner closes
#                               at 97: 97 - 91 = 6 cycles, 6 instructions;
#                               START 98..136: other opens at 137 (under
#                               outer: inner is closed)
# 137  NOPS 2                   137..138
# 139  TIMER_STOP               la 139, 140; store at 141: other = 141 - 137 = 4
# 142  NOPS 1                   142
# 143  TIMER_STOP               la 143, 144; store at 145: outer = 145 - 49 = 96
# 146  TIMER_STOP               la 146, 147; store at 148: nothing open, a
#                               warning (unmatched_stop at cycle 148)
# 149  TIMER_START never        149..187: never opens at 188, at the top
# 188  EXIT                     188..190: 191 instructions
# never is left open: a warning (never_stopped, started at 188).
# Compiled out: 191 - 10 (INIT) - 4 * 39 (STARTs) - 4 * 3 (STOPs) = 13
# instructions (the nops and the exit), 178 fewer:
# EXPECT-DIFF unit: 178
# Nothing costs 1000 cycles: no explained steps.
#
# EXPECT: r["instructions"] == 191 and r["cycles"] == 191
# EXPECT: [(t["label"], t["depth"], t["parent"], t["count"], t["cycles"], t["instructions"], t["open"]) for t in r["timers"]["tree"]] == [("outer", 0, -1, 1, 96, 96, False), ("inner", 1, 0, 1, 6, 6, False), ("other", 1, 0, 1, 4, 4, False), ("never", 0, -1, 0, 0, 0, True)]
# EXPECT: [(w["kind"], w["label"], w["count"], w["cycle"]) for w in r["timers"]["warnings"]] == [("unmatched_stop", "", 1, 148), ("never_stopped", "never", 1, 188)]
# EXPECT: [(s["timer"], s["start_cycle"], s["end_cycle"], s["open"]) for s in r["timers"]["slices"]] == [(0, 49, 145, False), (1, 91, 97, False), (2, 137, 141, False), (3, 188, 191, True)]
# EXPECT: r["timers"]["channels"] == {"message": 0x300000, "length": 0x300200, "signal": 0x300204}
# EXPECT: all(t["steps"] == [] for t in r["timers"]["tree"])
# EXPECT: [l.split()[:4] for l in err.splitlines() if l.startswith(("outer", "  inner", "  other", "never"))] == [["outer", "1", "96", "96"], ["inner", "1", "6", "6"], ["other", "1", "4", "4"], ["never", "0", "0", "0"]]
# EXPECT: "timer stop with no timer open (1 time, first at cycle 148)" in err
# EXPECT: "timer never started at cycle 188 never stopped" in err
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

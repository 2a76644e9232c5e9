# More timer slices than the VM keeps (2^18 = 262144, CY_TIMER_MAX_SLICES,
# docs/robustness.md#limits): one timer "t" run N = 270000 times. The
# slices past the limit are not kept; the tree's totals stay exact. Unit
# model (one cycle per instruction; clock = instructions so far).
#
#   0  TIMER_INIT                         0..9
#  10  li s0, N (lui + addi)              10, 11
#  per run k = 0, 1, ... (23 instructions, from 12 + 23k):
#      TIMER_START t (9 + 6 = 15)         the length store at 26 + 23k:
#                                         t opens at 27 + 23k
#      NOPS 3; TIMER_STOP (la: 2)         the signal store at 32 + 23k:
#                                         t closes: 5 cycles, 5 instructions
#      addi s0, s0, -1; bnez s0, loop
#  EXIT (3): 12 + 23 * 270000 + 3 = 6210015 instructions
# t: 270000 runs, 5 * 270000 = 1350000 cycles and instructions. Slices
# 0..262143 are kept, the last from 27 + 23 * 262143 = 6029316 to 6029321;
# 270000 - 262144 = 7856 are not, the first starting at 27 + 23 * 262144 =
# 6029339. Compiled out: 10 + 18 * N fewer instructions (INIT, START, STOP):
# EXPECT-DIFF unit: 4860010
#
# EXPECT: r["instructions"] == 6210015 and r["cycles"] == 6210015
# EXPECT: [(t["label"], t["count"], t["cycles"], t["instructions"], t["open"]) for t in r["timers"]["tree"]] == [("t", 270000, 1350000, 1350000, False)]
# EXPECT: len(r["timers"]["slices"]) == 262144
# EXPECT: [(s["timer"], s["start_cycle"], s["end_cycle"], s["open"]) for s in r["timers"]["slices"][:1] + r["timers"]["slices"][-1:]] == [(0, 27, 32, False), (0, 6029316, 6029321, False)]
# EXPECT: [(w["kind"], w["label"], w["count"], w["cycle"]) for w in r["timers"]["warnings"]] == [("too_many_slices", "", 7856, 6029339)]
# EXPECT: err.count("cyclops: warning: timers: more than 262144 timer slices; later ones are not kept, the tree's totals stay exact\n") == 1
# EXPECT: "7856 timer slices not kept past the limit of 262144 (first at cycle 6029339): the tree's totals include them" in err
#
# With --significant 1 every instruction inside t is an explained step: 5
# per run, 1350000; the first 10000 (CY_TIMER_MAX_STEPS) are kept, those
# of runs 0..1999, the last five those of run 1999 from 27 + 23 * 1999 =
# 46004 (the nops, then the stop's auipc and addi: objdump shows them);
# the first not kept is the first nop of run 2000, at 27 + 23 * 2000 =
# 46027.
# RUN steps: --timers --significant 1
# EXPECT-steps: [(t["label"], t["count"], t["cycles"], t["significant_steps"], len(t["steps"])) for t in r["timers"]["tree"]] == [("t", 270000, 1350000, 1350000, 10000)]
# EXPECT-steps: [(s["cycle_before"], s["insn"]) for s in r["timers"]["tree"][0]["steps"][-5:]] == [(46004, "addi x0,x0,0"), (46005, "addi x0,x0,0"), (46006, "addi x0,x0,0"), (46007, "auipc x6,0x2f0"), (46008, "addi x6,x6,408")]
# EXPECT-steps: [(w["kind"], w["count"], w["cycle"]) for w in r["timers"]["warnings"]] == [("too_many_slices", 7856, 6029339), ("too_many_steps", 1340000, 46027)]
# EXPECT-steps: err.count("cyclops: warning: timers: more than 10000 explained steps; later ones are counted but not kept\n") == 1
# EXPECT-steps: "1340000 explained steps not kept past the limit of 10000 (first at cycle 46027)" in err
#include "timer.inc"

#define N 270000

    TIMER_LABEL t, "t"
_start:
    TIMER_INIT
    li s0, N
loop:
    TIMER_START t
    NOPS 3
    TIMER_STOP
    addi s0, s0, -1
    bnez s0, loop
    EXIT

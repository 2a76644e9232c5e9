# More timer slices than the VM keeps (2^18 = 262144, CY_TIMER_MAX_SLICES,
# docs/robustness.md#limits): one timer "t" run N = 270000 times. The
# slices past the limit are not kept; the tree's totals stay exact. Unit
# model (one cycle per instruction; clock = instructions so far).
#
#   0  TIMER_INIT                         0..9
#  10  li s0, N (lui + addi)              10, 11
#  per run k = 0, 1, ... (23 instructions, from 12 + 23k):
#      TIMER_START t (9 + 6 = 15)         the length store at 26 + 23k:
#                                         t opens at 26 + 23k, holding it
#      NOPS 3; TIMER_STOP (la: 2)         the signal store at 32 + 23k:
#                                         t closes: 6 cycles, 6 instructions
#      addi s0, s0, -1; bnez s0, loop
#  EXIT (3): 12 + 23 * 270000 + 3 = 6210015 instructions
# t: 270000 runs, 6 * 270000 = 1620000 cycles and instructions. Slices
# 0..262143 are kept, the last from 26 + 23 * 262143 = 6029315 to 6029321;
# 270000 - 262144 = 7856 are not, the first starting at 26 + 23 * 262144 =
# 6029338. Compiled out: 10 + 18 * N fewer instructions (INIT, START, STOP):
# EXPECT-DIFF unit: 4860010
#
# EXPECT: r["instructions"] == 6210015 and r["cycles"] == 6210015
# EXPECT: [(t["label"], t["count"], t["cycles"], t["instructions"], t["open"]) for t in r["timers"]["tree"]] == [("t", 270000, 1620000, 1620000, False)]
# EXPECT: len(r["timers"]["slices"]) == 262144
# EXPECT: [(s["timer"], s["start_cycle"], s["end_cycle"], s["open"]) for s in r["timers"]["slices"][:1] + r["timers"]["slices"][-1:]] == [(0, 26, 32, False), (0, 6029315, 6029321, False)]
# EXPECT: [(w["kind"], w["label"], w["count"], w["cycle"]) for w in r["timers"]["warnings"]] == [("too_many_slices", "", 7856, 6029338)]
# EXPECT: err.count("cyclops: warning: timers: more than 262144 timer slices; later ones are not kept, the tree's totals stay exact\n") == 1
# EXPECT: "7856 timer slices not kept past the limit of 262144 (first at cycle 6029338): the tree's totals include them" in err
#
# With --significant 1 every instruction inside t is an explained step: 6
# per run (the length store, the nops, the stop's auipc and addi: objdump
# shows them), 1620000; the first 10000 (CY_TIMER_MAX_STEPS) are kept,
# those of runs 0..1665 (9996) and the first four of run 1666: the last
# five are run 1665's addi at 31 + 23 * 1665 = 38326 and run 1666's store
# and nops from 26 + 23 * 1666 = 38344; the first not kept is run 1666's
# auipc, at 38348.
# RUN steps: --timers --significant 1
# EXPECT-steps: [(t["label"], t["count"], t["cycles"], t["significant_steps"], len(t["steps"])) for t in r["timers"]["tree"]] == [("t", 270000, 1620000, 1620000, 10000)]
# EXPECT-steps: [(s["cycle_before"], s["insn"]) for s in r["timers"]["tree"][0]["steps"][-5:]] == [(38326, "addi x6,x6,408"), (38344, "sw x7,0(x6)"), (38345, "addi x0,x0,0"), (38346, "addi x0,x0,0"), (38347, "addi x0,x0,0")]
# EXPECT-steps: [(w["kind"], w["count"], w["cycle"]) for w in r["timers"]["warnings"]] == [("too_many_slices", 7856, 6029338), ("too_many_steps", 1610000, 38348)]
# EXPECT-steps: err.count("cyclops: warning: timers: more than 10000 explained steps; later ones are counted but not kept\n") == 1
# EXPECT-steps: "1610000 explained steps not kept past the limit of 10000 (first at cycle 38348)" in err
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

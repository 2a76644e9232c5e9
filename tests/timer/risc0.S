# Explained steps under the risc0 model: a timer around instructions that
# touch fresh pages, derived by hand from docs/cost-models.md (1 KiB pages;
# a page-in costs 322 plus 13 per Merkle node on its path not yet loaded in
# the segment, the node of page p at level L = 1..22 being p >> L; the
# first store to a page costs the same again against the dirty nodes; a
# segment costs 4113 + 10 at its first instruction). The default threshold
# is the page-in cost, 322.
#
# Code at 0x10000 (page 64): the label "fresh" (8 bytes with padding), then
# _start at 0x10008; everything before `far` is within page 64. `far` is at
# 0x10400 (page 65). Channels at 0x300000.. (page 3072, timer.inc).
#
# Before the timer (not explained: no timer is open yet):
#   INIT (10): the first instruction starts the segment (4123) and pages in
#     page 64 (fetch, 608: all 22 nodes new). Clock after INIT: 4732 + 9 = 4741.
#   START fresh (9 + 6 * 5 = 39): the first sb pages in 3072 (store): its
#     path 1536, 768, 384, 192, 96, 48, 24, 12, 6, 3, 1 (levels 1..11) is
#     new (page 64's path is 0 from level 7, and 3072's levels 1..6 differ
#     from 32, 16, 8, 4, 2, 1), level 12+ is 0, loaded: 322 + 11 * 13 = 465;
#     and makes it dirty, the first dirty page: 608. 4741 + 39 + 1073 = 5853.
# The timer opens at 5852, before START's length store (page 3072, loaded
# and dirty already: 1 cycle), which it holds.
#   lui t0, 0x200      5853 -> 5854
#   lw a0, 0(t0)       page 2048 (0x200000) in, load: path 1024, 512, ...,
#                      2 (levels 1..10) new, level 11 is 1 = 3072's: loaded:
#                      322 + 10 * 13 = 452; 5854 -> 6307 (453)
#   sw a0, 0(t0)       2048 made dirty: levels 1..10 new against 3072's
#                      dirty path: 452; 6307 -> 6760 (453)
#   lui t1, 0x400      6760 -> 6761
#   sw a0, 0(t1)       page 4096 (0x400000) in, store: levels 1..12 (2048,
#                      1024, ..., 2, 1) new (at level 12 the others have 0),
#                      13+ loaded: 322 + 12 * 13 = 478; and dirty: 478;
#                      6761 -> 7718 (957)
#   j far              7718 -> 7719
#   far: la t1, signal (TIMER_STOP): the auipc is fetched from page 65: in,
#                      fetch: level 1 node 32 is page 64's: 322;
#                      7719 -> 8042 (323), reached by the jump; addi -> 8043
# The timer closes at 8043: 8043 - 5852 = 2191 cycles, 9 instructions. Four steps reach
# 322: the lw, the two sw and the auipc.
#   sw zero (signal)   page 3072 loaded and dirty: 8043 -> 8044
#   EXIT               8047; 61 instructions.
#
# EXPECT: r["cycles"] == 8047 and r["instructions"] == 61
# EXPECT: [(t["label"], t["cycles"], t["instructions"], t["significant_steps"]) for t in r["timers"]["tree"]] == [("fresh", 2191, 9, 4)]
# EXPECT: [(s["cycle_before"], s["cycle_after"], s["insn"].split()[0]) for s in r["timers"]["tree"][0]["steps"]] == [(5854, 6307, "lw"), (6307, 6760, "sw"), (6761, 7718, "sw"), (7719, 8042, "auipc")]
# EXPECT: [[(p["page"], p["reason"]) for p in s["pages_in"]] for s in r["timers"]["tree"][0]["steps"]] == [[(0x200000, "load")], [], [(0x400000, "store")], [(0x10400, "fetch")]]
# EXPECT: [s["pages_out"] for s in r["timers"]["tree"][0]["steps"]] == [[], [0x200000], [0x400000], []]
# EXPECT: [(s["page_in"], s["page_out"], s["segment_start"]) for s in r["timers"]["tree"][0]["steps"]] == [(452, 0, False), (0, 452, False), (478, 478, False), (322, 0, False)]
# EXPECT: [s["writes"] for s in r["timers"]["tree"][0]["steps"]] == [[], [{"addr": 0x200000, "size": 4}], [{"addr": 0x400000, "size": 4}], []]
# EXPECT: r["timers"]["tree"][0]["steps"][3]["jump"]["to"] == 0x10400 == r["timers"]["tree"][0]["steps"][3]["pc"] and r["timers"]["tree"][0]["steps"][3]["symbol"] == "far"
# EXPECT: r["timers"]["significant"] == 322
# EXPECT: "paged in 1 page, 452 cycles: 0x00200000 (load)" in err and "made 1 page dirty, 452 cycles: 0x00200000" in err and "paged in 1 page, 322 cycles: 0x00010400 (fetch)" in err
#
# With --segment-po2 15 a segment holds 32768 - 25000 = 7768 cycles. Up to
# the j everything fits (the sw ends at 7718). The auipc at far would end
# at 7719 + 323 = 8042 > 7768: a new segment starts there. Nothing is
# loaded in it: page 65 is its first page-in, 608, plus 4113 + 10: the
# auipc costs 1 + 4123 + 608 = 4732, 7719 -> 12451; addi -> 12452. The
# timer: 12452 - 5852 = 6600. The signal sw pages 3072 in again (its path
# against page 65's 32, 16, 8, 4, 2, 1, 0...: levels 1..11 new: 465) and
# dirty (first in the segment: 608): 1074 -> 13526; EXIT -> 13529.
# RUN seg: --timers --segment-po2 15
# EXPECT-seg: r["cycles"] == 13529 and r["timers"]["tree"][0]["cycles"] == 6600
# EXPECT-seg: [(s["cycle_before"], s["cycle_after"], s["segment_start"], s["segment"], s["page_in"], [(p["page"], p["reason"]) for p in s["pages_in"]]) for s in r["timers"]["tree"][0]["steps"]][3] == (7719, 12451, True, 4123, 608, [(0x10400, "fetch")])
# EXPECT-seg: "first instruction of a new segment: 4123 cycles" in err
# MODEL: risc0
#include "timer.inc"
    TIMER_LABEL fresh, "fresh"
_start:
    TIMER_INIT
    TIMER_START fresh
    lui t0, 0x200
    lw a0, 0(t0)
    sw a0, 0(t0)
    lui t1, 0x400
    sw a0, 0(t1)
    j far
    .org 0x400
far:
    TIMER_STOP
    EXIT

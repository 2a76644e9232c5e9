# Explained steps of the instructions whose store or cost the accounting
# interface must tell as every instruction's events would (docs/timers.md):
# under risc0, an AMO whose rd is its rs1 (its address register is
# overwritten by the time it retires), an lr/sc pair, an sc that fails (no
# store), and an ecall that pages its own fetch in (one step, not one for
# the page-in and one for the ecall). Derived by hand as in risc0.S (1 KiB
# pages; a page-in costs 322 plus 13 per Merkle node on its path not yet
# loaded in the segment, the node of page p at level L = 1..22 being
# p >> L; the first store to a page costs the same again against the dirty
# nodes). The default threshold is the page-in cost, 322.
#
# Code at 0x10000 (page 64): the label "edges" (8 bytes with padding),
# _start at 0x10008; `far` at 0x10400 (page 65). Channels at 0x300000
# (page 3072, timer.inc). Up to the timer this is risc0.S's prologue (a
# 5-byte label too): INIT 10 instructions, 4741 cycles; START 39, the
# timer opening at 5852 before the length store, 5853 after it.
#   lui t0, 0x200            5853 -> 5854
#   amoswap.w t0, t0, (t0)   a load and a store of 0x200000: page 2048 in
#                            (load: levels 1..10 new, 11 is 3072's: 452)
#                            and made dirty (the same against 3072's dirty
#                            path: 452): 5854 -> 6759; t0 = 0 after it, the
#                            old word
#   lui t1, 0x400            6759 -> 6760
#   lr.w a0, (t1)            page 4096 in (load: levels 1..12 new, 478):
#                            6760 -> 7239
#   sc.w a1, a0, (t1)        the reservation holds: a store, 4096 made
#                            dirty (478): 7239 -> 7718; a1 = 0
#   lui t2, 0x600            7718 -> 7719
#   sc.w a2, a0, (t2)        no reservation: no store, no access: 7720
#   li a0, 1; li a7, 64      write(1, 0, 0): 7722
#   j far                    7723
#   far: ecall               fetched from page 65 (level 1 node 32 is page
#                            64's: 322), the ABI charges nothing: 7723 ->
#                            8046, reached by the jump
#   la t1, signal            8048: the timer closes, 8048 - 5852 = 2196
#                            cycles; 1 + 11 + 2 = 14 instructions
#   sw zero (signal)         8049; EXIT 8052; 10 + 39 + 11 + 3 + 3 = 66
#                            instructions
# Four steps reach 322: the amoswap, the lr, the first sc and the ecall.
#
# EXPECT: r["cycles"] == 8052 and r["instructions"] == 66
# EXPECT: [(t["label"], t["cycles"], t["instructions"], t["significant_steps"]) for t in r["timers"]["tree"]] == [("edges", 2196, 14, 4)]
# EXPECT: [(s["cycle_before"], s["cycle_after"], s["insn"].split()[0]) for s in r["timers"]["tree"][0]["steps"]] == [(5854, 6759, "amoswap.w"), (6760, 7239, "lr.w"), (7239, 7718, "sc.w"), (7723, 8046, "ecall")]
# EXPECT: [s["writes"] for s in r["timers"]["tree"][0]["steps"]] == [[{"addr": 0x200000, "size": 4}], [], [{"addr": 0x400000, "size": 4}], []]
# EXPECT: [[(p["page"], p["reason"]) for p in s["pages_in"]] for s in r["timers"]["tree"][0]["steps"]] == [[(0x200000, "load")], [(0x400000, "load")], [], [(0x10400, "fetch")]]
# EXPECT: [s["pages_out"] for s in r["timers"]["tree"][0]["steps"]] == [[0x200000], [], [0x400000], []]
# EXPECT: r["timers"]["tree"][0]["steps"][3]["jump"]["to"] == 0x10400 == r["timers"]["tree"][0]["steps"][3]["pc"]
# MODEL: risc0
#include "timer.inc"
    TIMER_LABEL edges, "edges"
_start:
    TIMER_INIT
    TIMER_START edges
    lui t0, 0x200
    amoswap.w t0, t0, (t0)
    lui t1, 0x400
    lr.w a0, (t1)
    sc.w a1, a0, (t1)
    lui t2, 0x600
    sc.w a2, a0, (t2)
    li a0, 1
    li a7, 64
    j far
    .org 0x400
far:
    ecall
    TIMER_STOP
    EXIT

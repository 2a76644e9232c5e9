# Steps that come from events (docs/timers.md): under events.model (unit
# costs, a division by zero 1200 cycles) no instruction's static cost
# reaches the threshold of 1000, so once announced the timers run on the
# accounting interface: the channel words are watched, and the divisions
# by zero inside a timer are its steps (extra events), each with the last
# jump before it. A second announcement moves the channels: stores to the
# old words do nothing from then on. No compressed forms, so that every
# instruction is 4 bytes: _start is 0x10000, and instruction k of the
# straight code at 0x10000 + 4k (the labels t and u are in .rodata).
# Clock: one cycle per instruction, 1199 more per division by zero.
#
#   0  TIMER_INIT                     0..9
#  10  TIMER_START t                  10..24: the length store at 24: t
#                                     opens at 24
#  25  li a0, 7; li a1, 0             25, 26
#  27  jal ra, divide (0x1006c)       27: to divide at 0x10108 (below)
#  28  div a2, a0, a1 (by zero)       28 -> 1228: t's step (before 28,
#                                     after 1228; the jump 0x1006c ->
#                                     0x10108)
#  29  ret                            1228 -> 1229, to 0x10070
#  30  TIMER_STOP                     la 1229, 1230; the signal store at
#                                     1231: t = 1231 - 24 = 1207 cycles,
#                                     32 - 24 = 8 instructions
#  33  divu a3, a0, a1 (by zero)      1232 -> 2432: no timer open, no step
#  34  the second announcement        2432..2441 (10): the channels are
#                                     MSG2 0x300400, LEN2 0x300600, SIG2
#                                     0x300604 (their own 1 KiB chunk)
#  44  la t1, LEN_CHANNEL; li; sw     2442..2445: the old length word:
#                                     nothing opens
#  48  la t0, MSG2; li t2, 'u'; sb    2446..2449: u's label
#  52  la t1, LEN2; li t2, 1; sw      2450..2453: u opens at 2453
#  56  beq zero, zero, 1f (0x100d8)   2454: taken, over a nop, to 0x100e0
#  57  rem a4, a0, a1 (by zero)       2455 -> 3655: u's step (the jump
#                                     0x100d8 -> 0x100e0)
#  58  la t1, SIG2; sw zero           3655, 3656; the signal store at
#                                     3657: u = 3657 - 2453 = 1204
#                                     cycles, 60 - 55 = 5 instructions
#  61  la t1, SIGNAL_CHANNEL; sw zero 3658..3660: the old signal word:
#                                     nothing closes, no warning
#  64  EXIT                           3661..3663: 67 instructions,
#                                     67 + 3 * 1199 = 3664 cycles
# MODEL: tests/timer/events.model
#
# EXPECT: r["instructions"] == 67 and r["cycles"] == 3664
# EXPECT: r["timers"]["channels"] == {"message": 0x300400, "length": 0x300600, "signal": 0x300604}
# EXPECT: [(t["label"], t["depth"], t["count"], t["cycles"], t["instructions"], t["open"], t["significant_steps"]) for t in r["timers"]["tree"]] == [("t", 0, 1, 1207, 8, False, 1), ("u", 0, 1, 1204, 5, False, 1)]
# EXPECT: [(s["cycle_before"], s["cycle_after"], s["pc"], s["insn"].split()[0], s["jump"], s["writes"]) for s in r["timers"]["tree"][0]["steps"]] == [(28, 1228, 0x10108, "div", {"from": 0x1006c, "to": 0x10108}, [])]
# EXPECT: [(s["cycle_before"], s["cycle_after"], s["pc"], s["insn"].split()[0], s["jump"], s["writes"]) for s in r["timers"]["tree"][1]["steps"]] == [(2455, 3655, 0x100e0, "rem", {"from": 0x100d8, "to": 0x100e0}, [])]
# EXPECT: r["timers"]["warnings"] == []
#include "timer.inc"
    .option norvc
    .pushsection .channels, "aw", @nobits
    .balign 1024
MSG2: .skip 512
LEN2: .skip 4
SIG2: .skip 4
    .popsection
    .pushsection .rodata
    TIMER_LABEL t, "t"
    TIMER_LABEL u, "u"
    .popsection
_start:
    TIMER_INIT
    TIMER_START t
    li a0, 7
    li a1, 0
    jal ra, divide
    TIMER_STOP
    divu a3, a0, a1
#if TIMERS
    nop
    li x0, 0xCDCDCDCD
    la x0, MSG2
    la x0, LEN2
    la x0, SIG2
    nop
    la t1, LEN_CHANNEL
    li t2, 1
    sw t2, 0(t1)
    la t0, MSG2
    li t2, 'u'
    sb t2, 0(t0)
    la t1, LEN2
    li t2, 1
    sw t2, 0(t1)
    beq zero, zero, 1f
    nop
1:  rem a4, a0, a1
    la t1, SIG2
    sw zero, 0(t1)
    la t1, SIGNAL_CHANNEL
    sw zero, 0(t1)
#endif
    EXIT
divide:
    div a2, a0, a1
    ret

# Paging under the risc0 model (default po2 20: one segment), derived by hand
# from the rules in docs/cost-models.md: 1 KiB pages, a page-in costs 322 plus
# 13 per Merkle node on its path to the root (levels 1..22; the node of page p
# at level L is p >> L) not yet loaded in the segment; the first store to a
# page costs the same again against the set of dirty nodes. A segment costs
# 4113 reserved + 10 paging cycles.
#
# Code is at 0x10000 (page 64, < 1 KiB, so every fetch is from page 64).
#  1 lui t0, 0x200      fetch: page 64 in, 22 new nodes: 322 + 286 = 608
#  2 lw a0, 0(t0)       page 2048 in: levels 1..11 differ from page 64's
#                       (64 >> L = 0 from L = 7, 2048 >> L = 0 from L = 12):
#                       322 + 11 * 13 = 465
#  3 lw a0, 1024(t0)    page 2049 in: level 1 (1024) is loaded: 322
#  4 lui t1, 0x201      t1 = 0x201000, page 2052
#  5 lw a0, 0(t1)       page 2052 in: 1026 (L1), 513 (L2) new, 256 (L3)
#                       loaded: 322 + 26 = 348
#  6 sw a0, 0(t0)       page 2048 out, no node dirty yet: 322 + 22 * 13 = 608
#  7 sw a0, 4(t0)       2048 already dirty: 0
#  8 sw a0, 0(t1)       page 2052 out: 1026, 513 new, 256 dirty: 348
#  9 lui t2, 0x400      t2 = 0x400000, page 4096
# 10 sw a0, 0(t2)       page 4096 in: levels 1..12 new (4096 >> 12 = 1, all
#                       pages so far have 0 there), 13+ loaded: 322 + 156 =
#                       478; and out, same against the dirty nodes: 478
# 11 sw a0, -2(t1)      misaligned, 0x200ffe..0x201001: pages 2051 and 2052;
#                       2051 in: 1025 (L1) new, 512 (L2) loaded: 335; 2051
#                       out: 1025 new, 512 dirty: 335; 2052: nothing new
# 12-14 li a0, 0; li a7, 93; ecall
#
# paging = 608 + 465 + 322 + 348 + 608 + 348 + 478 + 478 + 335 + 335 + 10
#        = 4335; reserved = 4113; user = 14 instructions
# total = 14 + 4335 + 4113 = 8462; pages in: 64 2048 2049 2052 4096 2051 (6);
# pages out: 2048 2052 4096 2051 (4)
# The parts an observer sees: base 14 (one cycle each), page-in 608 + 465 +
# 322 + 348 + 478 + 335 = 2556, page-out 608 + 348 + 478 + 335 = 1769,
# segment 4113 + 10 = 4123.
# EXPECT-PARTS risc0: base 14, wait 0, page-in 2556, page-out 1769, segment 4123
# EXPECT-INSTRUCTIONS: 14
# EXPECT-CYCLES risc0: 8462
# EXPECT-SUMMARY risc0: 1 segments, 8462 cycles = 14 user (0.2%) + 4335 paging (51.2%) + 4113 reserved (48.6%); 6 pages in, 4 out

    .text
    .globl _start
_start:
    .option norvc
    lui t0, 0x200
    lw a0, 0(t0)
    lw a0, 1024(t0)
    lui t1, 0x201
    lw a0, 0(t1)
    sw a0, 0(t0)
    sw a0, 4(t0)
    sw a0, 0(t1)
    lui t2, 0x400
    sw a0, 0(t2)
    sw a0, -2(t1)
    li a0, 0
    li a7, 93
    ecall

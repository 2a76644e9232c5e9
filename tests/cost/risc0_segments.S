# Segments under the risc0 model with --segment-po2 15, derived by hand: a
# segment holds 2^15 - 25000 = 7768 cycles; its first instruction pays the
# 4113 reserved + 10 paging cycles and, the segment starting with nothing
# loaded, the fetch of code page 64 (322 + 22 * 13 = 608).
#
# The program: li s0, 5000 (lui + addi: 2 instructions), then 5000 times
# addi + bnez (10000), then li, li, ecall (3): 10005 instructions, 1 cycle
# each, all fetched from page 64.
#
# Segment 1: instruction 1 costs 1 + 4123 + 608 = 4732; each next one 1. An
# instruction that would take the segment past 7768 starts a new one:
# 4732 + k <= 7768 for k = 3036 more, so instructions 1..3037 (7768 cycles).
# Segments 2 and 3 the same: 3038..6074, 6075..9111. Segment 4: 9112..10005.
# total = 10005 + 4 * (608 + 10) paging + 4 * 4113 reserved
#       = 10005 + 2472 + 16452 = 28929
# With the default po2 20 (1023576 cycles a segment) it is one segment:
# 10005 + 618 + 4113 = 14736.
# EXPECT-INSTRUCTIONS: 10005
# EXPECT-CYCLES risc0 --segment-po2 15: 28929
# EXPECT-SUMMARY risc0 --segment-po2 15: 4 segments, 28929 cycles = 10005 user (34.6%) + 2472 paging (8.5%) + 16452 reserved (56.9%); 4 pages in, 0 out
# EXPECT-CYCLES risc0: 14736

    .text
    .globl _start
_start:
    li s0, 5000
loop:
    addi s0, s0, -1
    bnez s0, loop
    li a0, 0
    li a7, 93
    ecall

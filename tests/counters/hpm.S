# The standard counters under --model zero-riscy (csr/alu 1 cycle, load 2,
# misaligned +1, mul 3, branch 1 / 3 taken): mcycle and minstret written
# and read back, cycle/instret as their shadows, mcountinhibit, the HPM
# counters with mhpmevent, 64-bit values through the high halves, and the
# rdcycleh/rdcycle/rdcycleh loop across a carry. A write gives the value
# the counter has after the writing instruction; a read gives the value
# before the reading one (docs/counters.md).
#
# 1. reset: mcountinhibit 0 (counters run from the start), mhpmevent3 0.
# 2. csrw minstret, 100 -> csrr 100, csrr 101. csrw mcycle, 1000 -> csrr
#    1000, mul (3), csrr 1000 + 1 + 3 = 1004, csrr cycle 1005.
# 3. mcycle = 1000; li (1001); csrwi mcountinhibit, 5 (CY|IR) counts its own
#    cycle under the old setting: frozen at 1002; mul, addi and the csrr of
#    mcycle (1002) do not count; csrwi mcountinhibit, 0 does not either;
#    csrr 1002, csrr 1003. minstret alike: 200 written, li 201, csrwi
#    inhibit 202 frozen, csrr 202, csrwi 0, csrr 202, csrr 203.
# 4. HPM (all counters zero first): mhpmevent3 = LD, 4 = BRANCH|BTAKEN,
#    5 = CYCLES, 6 = LD_STALL|JMP_STALL, 7 = bit 11 (not an event: reads 0),
#    8 = INSTR with mhpmcounter8 = 0x0_FFFFFFFF. Each counts from the
#    instruction after its mhpmevent write:
#      lw 0(s0)  2   LD
#      lw 2(s0)  3   LD; LD (cycle 2)
#      beq taken 3   BRANCH BTAKEN (one cycle)
#      bne not   1   BRANCH
#      li t0, 8  1
#      csrw mcountinhibit, t0  1  (stops counter 3 after it)
#      lw 0(s0)  2   LD (counter 3 inhibited)
#      li t0, -1 1
#      csrw mcountinhibit, t0  1  (counted, then everything stops)
#    counter3 = 1 + 2 = 3; counter4 = 2 (cycles with a branch event);
#    counter5 = the 7 one-cycle instructions after its mhpmevent5 write
#    (li, csrw 6, li 1 << 11 = lui + addi, csrw 7, li, csrw 8) + the 15
#    cycles above (2+3+3+1+1+1+2+1+1) = 22; counter6 = 0;
#    counter8 = 0xFFFFFFFF + 9 instructions = 0x1_00000008.
# 5. mcycleh = 0, mcycle = 0xFFFFFFFF (after the write), then
#      loop: csrr t0, cycleh; csrr t1, cycle; csrr t2, cycleh;
#            addi s9, s9, 1; bne t0, t2, loop
#    pass 1 reads high 0 at 0x0_FFFFFFFF, low 0 at 0x1_00000000, high 1 at
#    0x1_00000001: differ, bne taken (3) from 0x1_00000003; pass 2 reads
#    high 1 at 0x1_00000006, low 7, high 1: s9 = 2, t0 = 1, t1 = 7.
# RUN: --model zero-riscy

#include "check.inc"

    .equ MCOUNTINHIBIT, 0x320

    .option norvc
    .text
    .globl _start
_start:
    la s0, buf
    # 1.
    CHECK_CSR MCOUNTINHIBIT, 0
    CHECK_CSR mhpmevent3, 0
    CHECK_CSR mhpmcounter3, 0

    # 2.
    li t0, 100
    csrw minstret, t0
    csrr t1, minstret
    csrr t2, minstret
    CHECK t1, 100
    CHECK t2, 101
    li t0, 1000
    csrw mcycle, t0
    csrr t1, mcycle
    mul t3, t0, t0
    csrr t2, mcycle
    csrr t3, cycle
    CHECK t1, 1000
    CHECK t2, 1004
    CHECK t3, 1005

    # 3.
    li t0, 1000
    csrw mcycle, t0
    li t0, 5
    csrwi MCOUNTINHIBIT, 5
    mul t3, t0, t0
    addi t3, t3, 1
    csrr t1, mcycle
    csrwi MCOUNTINHIBIT, 0
    csrr t2, mcycle
    csrr t3, mcycle
    CHECK t1, 1002
    CHECK t2, 1002
    CHECK t3, 1003
    li t0, 200
    csrw minstret, t0
    li t0, 5
    csrwi MCOUNTINHIBIT, 5
    csrr t1, minstret
    csrwi MCOUNTINHIBIT, 0
    csrr t2, minstret
    csrr t3, minstret
    CHECK t1, 202
    CHECK t2, 202
    CHECK t3, 203

    # 4.
    li t0, -1
    csrw mhpmcounter8, t0
    li t0, 1 << 5
    csrw mhpmevent3, t0
    li t0, (1 << 8) | (1 << 9)
    csrw mhpmevent4, t0
    li t0, 1
    csrw mhpmevent5, t0
    li t0, 0xc
    csrw mhpmevent6, t0
    li t0, 1 << 11
    csrw mhpmevent7, t0
    li t0, 2
    csrw mhpmevent8, t0
    lw t1, 0(s0)
    lw t1, 2(s0)
    beq zero, zero, 1f
1:  bne zero, zero, 1f
1:  li t0, 8
    csrw MCOUNTINHIBIT, t0
    lw t1, 0(s0)
    li t0, -1
    csrw MCOUNTINHIBIT, t0
    CHECK_CSR mhpmcounter3, 3
    CHECK_CSR mhpmcounter4, 2
    CHECK_CSR mhpmcounter5, 22
    CHECK_CSR mhpmcounter6, 0
    CHECK_CSR mhpmevent6, 0xc
    CHECK_CSR mhpmevent7, 0
    CHECK_CSR hpmcounter8, 8
    CHECK_CSR hpmcounter8h, 1
    CHECK_CSR mhpmcounter3h, 0
    li t0, ~5                   # mcycle and minstret run again; the HPM
    csrw MCOUNTINHIBIT, t0      # counters keep these values to the end

    # 5.
    csrw mcycleh, zero
    li t0, -1
    csrw mcycle, t0
loop:
    csrr t0, cycleh
    csrr t1, cycle
    csrr t2, cycleh
    addi s9, s9, 1
    bne t0, t2, loop
    CHECK s9, 2
    CHECK t0, 1
    CHECK t1, 7
    li t0, 2
    csrw minstreth, t0
    CHECK_CSR minstreth, 2
    EXIT_PASS

    .data
    .balign 4
buf:
    .word 1, 2

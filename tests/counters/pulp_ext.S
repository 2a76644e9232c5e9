# The external-memory and fetch-stall events under the slow test model
# (tests/cost/zero-riscy-slow.model: the zero-riscy table, the stack above
# 0x0fffffff is outside the fast data range and waits 2 cycles per word
# access, and code at 0x10000 is outside the fast code range: every
# instruction stalls 1 cycle, IMISS). buf (in .data, near 0x11000) is fast.
#
# docs/counters.md lays an instruction's cycles out as: head (class cost,
# misaligned extra; events in cycle 1, a misaligned second word in cycle 2),
# then the load waits (LD_EXT_CYC), the store waits (ST_EXT_CYC), then the
# fetch stall (IMISS) last.
#
#   instruction          cycles                      events
#   lw t0, 0(sp)     2 + 2 wait + 1 stall = 5   c1 INSTR LD LD_EXT; c3-4 LD_EXT_CYC; c5 IMISS
#   sw t0, 4(sp)     2 + 2 + 1 = 5              c1 INSTR ST ST_EXT; c3-4 ST_EXT_CYC; c5 IMISS
#   lw t1, 2(sp)     2 + 1 mis + 2x2 + 1 = 8    c1 INSTR LD LD_EXT; c2 LD LD_EXT;
#                    (words sp, sp+4)            c4-7 LD_EXT_CYC; c8 IMISS
#   lw t2, 0(s0)     2 + 1 = 3                  c1 INSTR LD; c3 IMISS
#   sw t2, 4(s0)     2 + 1 = 3                  c1 INSTR ST; c3 IMISS
#   sw t2, 6(sp)     2 + 1 + 2x2 + 1 = 8        c1 INSTR ST ST_EXT; c2 ST ST_EXT;
#                    (words sp+4, sp+8)          c4-7 ST_EXT_CYC; c8 IMISS
#   csrw PCMR, zero  1 + 1 = 2                  c1 INSTR; c2 IMISS
#   total            34 cycles, 7 instructions
# FPGA: CYCLES 34, INSTR 7, IMISS 7, LD 4, ST 4, LD_EXT 3, ST_EXT 3,
#   LD_EXT_CYC 2 + 4 = 6, ST_EXT_CYC 2 + 4 = 6, the others 0.
# ASIC (cycles with at least one enabled event): each event alone as in
#   the FPGA, and
#   INSTR|IMISS 14 (cycle 1 and the last cycle of each, never the same);
#   LD|LD_EXT_CYC 3 + 6 + 1 = 10; LD|LD_EXT 4 (LD_EXT is in LD's cycles);
#   IMISS|LD_EXT_CYC|ST_EXT_CYC 7 + 6 + 6 = 19; ST|ST_EXT_CYC 3 + 1 + 6 = 10;
#   INSTR|ST_EXT 7 + 1 (cycle 2 of the misaligned sw) = 8.
# RUN: --model tests/cost/zero-riscy-slow.model --counters fpga -- fpga
# RUN: --model tests/cost/zero-riscy-slow.model --counters asic -- asic

#include "check.inc"

    .option norvc
    .text
    .globl _start
_start:
    la s0, buf
    DETECT_BUILD
    addi sp, sp, -16
    bnez s10, asic

    li a0, 0xffff
    jal measure
    CHECK_CSR PCCR0, 34
    CHECK_CSR PCCR1, 7
    CHECK_CSR PCCR4, 7
    CHECK_CSR PCCR5, 4
    CHECK_CSR PCCR6, 4
    CHECK_CSR PCCR7, 0
    CHECK_CSR PCCR8, 0
    CHECK_CSR PCCR10, 0
    CHECK_CSR PCCR11, 3
    CHECK_CSR PCCR12, 3
    CHECK_CSR PCCR13, 6
    CHECK_CSR PCCR14, 6
    CHECK_CSR PCCR15, 0
    j done

    .macro ASIC_CASE mask, want
    li a0, \mask
    jal measure
    CHECK_CSR PCCR0, \want
    .endm
asic:
    ASIC_CASE EV_CYCLES, 34
    ASIC_CASE EV_INSTR, 7
    ASIC_CASE EV_IMISS, 7
    ASIC_CASE EV_LD, 4
    ASIC_CASE EV_ST, 4
    ASIC_CASE EV_LD_EXT, 3
    ASIC_CASE EV_ST_EXT, 3
    ASIC_CASE EV_LD_EXT_CYC, 6
    ASIC_CASE EV_ST_EXT_CYC, 6
    ASIC_CASE EV_TCDM_CONT, 0
    ASIC_CASE EV_INSTR | EV_IMISS, 14
    ASIC_CASE EV_LD | EV_LD_EXT_CYC, 10
    ASIC_CASE EV_LD | EV_LD_EXT, 4
    ASIC_CASE EV_IMISS | EV_LD_EXT_CYC | EV_ST_EXT_CYC, 19
    ASIC_CASE EV_ST | EV_ST_EXT_CYC, 10
    ASIC_CASE EV_INSTR | EV_ST_EXT, 8
done:
    EXIT_PASS

measure:
    csrw PCMR, zero
    csrw PCER, a0
    csrw PCCR31, zero
    csrwi PCMR, 1
    # --- the region ---
    lw t0, 0(sp)
    sw t0, 4(sp)
    lw t1, 2(sp)
    lw t2, 0(s0)
    sw t2, 4(s0)
    sw t2, 6(sp)
    csrw PCMR, zero
    # --- end ---
    ret

    .data
    .balign 4
buf:
    .word 1, 2

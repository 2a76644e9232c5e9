# Every PULP event under --model zero-riscy (single-cycle memory: nothing is
# external, no fetch stalls), in both builds. The region below runs between
# enabling and disabling the counters; its counts, by the zero-riscy table
# (alu/csr 1, load/store 2, misaligned +1, mul 3, div by zero 2, jump 2,
# branch 1 not taken / 3 taken) and docs/counters.md (an instruction's
# events are counted under the configuration before it runs; the second
# word of a misaligned access is in its cycle 2):
#
#   instruction             cycles  events (first cycle; second word: cycle 2)
#   addi t1, zero, 5           1    INSTR
#   lw   t2, 0(s0)             2    INSTR LD
#   sw   t2, 4(s0)             2    INSTR ST
#   lw   t3, 2(s0)  misal.     3    INSTR LD; LD
#   sh   t3, 3(s0)  misal.     3    INSTR ST; ST           (bytes 3-4: two words)
#   mul  t4, t1, t1            3    INSTR
#   div  t4, t1, zero          2    INSTR                  (by zero)
#   jal  ra, leaf              2    INSTR JUMP
#   jalr zero, 0(ra) (leaf)    2    INSTR JUMP
#   beq  zero, t1, over        1    INSTR BRANCH           (not taken: t1 = 5)
#   bne  zero, t1, over        3    INSTR BRANCH BTAKEN
#   c.addi t1, 1               1    INSTR RVC              (addi skipped)
#   csrw PCMR, zero            1    INSTR                  (counted: it runs
#                                                           under PCMR active)
#   total                     26    13 INSTR, LD 3, ST 3, JUMP 2, BRANCH 2,
#                                   BTAKEN 1, RVC 1, IMISS/ *_EXT* / TCDM 0
#
# The instructions before the region (csrw PCMR/PCER/PCCR31, csrwi PCMR)
# run with PCMR = 0 and count nothing. FPGA: PCCRi = the event's count.
# ASIC: the one counter counts cycles with at least one enabled event, so
#   CYCLES 26; INSTR 13; LD 3; ST 3; JUMP 2; BRANCH 2; BTAKEN 1; RVC 1;
#   CYCLES|LD 26 (every cycle has CYCLES);
#   INSTR|LD 14 (cycle 1 of all 13, plus cycle 2 of the misaligned lw);
#   LD|ST 6 (never in the same cycle);
#   BRANCH|BTAKEN 2 (the taken branch has both in its cycle 1);
#   IMISS|LD_EXT|ST_EXT|LD_EXT_CYC|ST_EXT_CYC|TCDM_CONT 0.
# RUN: --model zero-riscy --counters fpga -- fpga
# RUN: --model zero-riscy --counters asic -- asic

#include "check.inc"

    .option norvc
    .text
    .globl _start
_start:
    la s0, buf
    DETECT_BUILD
    bnez s10, asic

    li a0, 0xffff               # every event
    jal measure
    CHECK_CSR PCER, 0xffff
    CHECK_CSR PCMR, 0
    CHECK_CSR PCCR0, 26
    CHECK_CSR PCCR1, 13
    CHECK_CSR PCCR2, 0
    CHECK_CSR PCCR3, 0
    CHECK_CSR PCCR4, 0
    CHECK_CSR PCCR5, 3
    CHECK_CSR PCCR6, 3
    CHECK_CSR PCCR7, 2
    CHECK_CSR PCCR8, 2
    CHECK_CSR PCCR9, 1
    CHECK_CSR PCCR10, 1
    CHECK_CSR PCCR11, 0
    CHECK_CSR PCCR12, 0
    CHECK_CSR PCCR13, 0
    CHECK_CSR PCCR14, 0
    CHECK_CSR PCCR15, 0
    CHECK_CSR PCCR16, 0         # no counter beyond the events
    j done

    .macro ASIC_CASE mask, want
    li a0, \mask
    jal measure
    CHECK_CSR PCCR0, \want
    CHECK_CSR PCCR31, \want     # every PCCR address is the one counter
    .endm
asic:
    ASIC_CASE EV_CYCLES, 26
    ASIC_CASE EV_INSTR, 13
    ASIC_CASE EV_LD, 3
    ASIC_CASE EV_ST, 3
    ASIC_CASE EV_JUMP, 2
    ASIC_CASE EV_BRANCH, 2
    ASIC_CASE EV_BTAKEN, 1
    ASIC_CASE EV_RVC, 1
    ASIC_CASE EV_CYCLES | EV_LD, 26
    ASIC_CASE EV_INSTR | EV_LD, 14
    ASIC_CASE EV_LD | EV_ST, 6
    ASIC_CASE EV_BRANCH | EV_BTAKEN, 2
    ASIC_CASE EV_IMISS | EV_LD_EXT | EV_ST_EXT | EV_LD_EXT_CYC | EV_ST_EXT_CYC | EV_TCDM_CONT, 0
done:
    EXIT_PASS

# measure: counts the region with PCER = a0, from zero, wrapping.
measure:
    mv s9, ra                   # the region's jal overwrites ra
    csrw PCMR, zero
    csrw PCER, a0
    csrw PCCR31, zero
    csrwi PCMR, 1               # active, not saturating
    # --- the region ---
    addi t1, zero, 5
    lw t2, 0(s0)
    sw t2, 4(s0)
    lw t3, 2(s0)
    sh t3, 3(s0)
    mul t4, t1, t1
    div t4, t1, zero
    jal ra, leaf
    beq zero, t1, over
    bne zero, t1, over
    addi t1, t1, 100
over:
    .option push
    .option rvc
    c.addi t1, 1
    .option pop
    csrw PCMR, zero
    # --- end ---
    jr s9

leaf:
    ret

    .data
    .balign 4
buf:
    .word 0x11223344, 0x55667788, 0

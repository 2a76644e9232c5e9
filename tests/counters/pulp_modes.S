# PCMR and PCER at work under --model zero-riscy: reset values, saturation
# and wrap-around at 0xFFFFFFFF, enabling and disabling mid-run through PCER
# and through PCMR, PCCR31, and a read while counting. The rule
# (docs/counters.md): an instruction's events are counted under the
# configuration in force before it runs, and a read of a counter does not
# count the reading instruction. addi/li/csr* cost 1 cycle, mul 3.
#
# A. saturation: PCER = CYCLES|INSTR, PCCR0 = 0xFFFFFFFE, PCCR1 =
#    0xFFFFFFFD, then csrwi PCMR, 3 (counted under PCMR 0: nothing), 5 x
#    addi and csrw PCMR, zero are counted: 6 cycles, 6 instructions.
#    PCCR0 = PCCR1 = 0xFFFFFFFF (they stop there).
# B. wrap: the same with PCMR = 1: PCCR0 = 0xFFFFFFFE + 6 = 4 and PCCR1 =
#    0xFFFFFFFD + 6 = 3. (ASIC: one counter, CYCLES|INSTR is 1 per cycle:
#    A gives 0xFFFFFFFF from 0xFFFFFFFE, B 0xFFFFFFFE + 6 = 4.)
# C. PCER mid-run (PCMR 1, PCER = INSTR, counter zeroed): 3 x addi, then
#    csrw PCER, zero (counted: PCER had INSTR) = 4; 5 x addi and li t0 not
#    counted, csrw PCER, t0 not counted (PCER was 0); 2 x addi and
#    csrw PCMR, zero counted: 4 + 3 = 7.
# D. PCMR mid-run (PCER = CYCLES and INSTR in FPGA; the counters zeroed):
#    2 x addi + mul + csrwi PCMR, 0 counted: 4 instructions, 1+1+3+1 = 6
#    cycles; mul, csrwi PCMR, 1 not counted; addi + csrw PCMR, zero counted:
#    6 instructions, 8 cycles.
# E. a write to PCCR31 sets every counter (FPGA: PCCR0-15).
# F. reads while counting (PCER = INSTR, counter zeroed by csrw PCCR31,
#    zero, which counts and is then overwritten): addi, addi, csrr t0 = 2
#    (not itself), csrr t1 = 3 (the first csrr now counted).
# RUN: --model zero-riscy --counters fpga -- fpga
# RUN: --model zero-riscy --counters asic -- asic

#include "check.inc"

    .option norvc
    .text
    .globl _start
_start:
    CHECK_CSR PCMR, 3           # reset: active and saturating (SDK bits)
    CHECK_CSR PCER, 0
    DETECT_BUILD

    # A. saturation
    csrw PCMR, zero
    li t0, EV_CYCLES | EV_INSTR
    csrw PCER, t0
    li t0, 0xfffffffe
    csrw PCCR0, t0
    li t0, 0xfffffffd
    bnez s10, 1f                # ASIC: PCCR1 is PCCR0
    csrw PCCR1, t0
1:  csrwi PCMR, 3
    addi t1, t1, 1
    addi t1, t1, 1
    addi t1, t1, 1
    addi t1, t1, 1
    addi t1, t1, 1
    csrw PCMR, zero
    CHECK_CSR PCCR0, 0xffffffff
    CHECK_CSR PCCR1, 0xffffffff

    # B. wrap-around
    li t0, 0xfffffffe
    csrw PCCR0, t0
    li t0, 0xfffffffd
    bnez s10, 1f
    csrw PCCR1, t0
1:  csrwi PCMR, 1
    addi t1, t1, 1
    addi t1, t1, 1
    addi t1, t1, 1
    addi t1, t1, 1
    addi t1, t1, 1
    csrw PCMR, zero
    bnez s10, 1f
    CHECK_CSR PCCR0, 4
    CHECK_CSR PCCR1, 3
    j 2f
1:  CHECK_CSR PCCR0, 4
2:

    # C. PCER mid-run
    li t0, EV_INSTR
    csrw PCER, t0
    csrw PCCR31, zero
    csrwi PCMR, 1
    addi t1, t1, 1
    addi t1, t1, 1
    addi t1, t1, 1
    csrw PCER, zero
    addi t1, t1, 1
    addi t1, t1, 1
    addi t1, t1, 1
    addi t1, t1, 1
    addi t1, t1, 1
    li t0, EV_INSTR
    csrw PCER, t0
    addi t1, t1, 1
    addi t1, t1, 1
    csrw PCMR, zero
    CHECK_CSR PCCR1, 7

    # D. PCMR mid-run (FPGA: CYCLES and INSTR; ASIC: INSTR only)
    li t0, EV_CYCLES | EV_INSTR
    bnez s10, 1f
    csrw PCER, t0
1:  csrw PCCR31, zero
    csrwi PCMR, 1
    addi t1, t1, 1
    addi t1, t1, 1
    mul t1, t1, t1
    csrwi PCMR, 0
    mul t1, t1, t1
    csrwi PCMR, 1
    addi t1, t1, 1
    csrw PCMR, zero
    CHECK_CSR PCCR1, 6
    bnez s10, 1f
    CHECK_CSR PCCR0, 8

    # E. PCCR31 sets them all (FPGA)
    li t0, 0x1234
    csrw PCCR31, t0
    CHECK_CSR PCCR0, 0x1234
    CHECK_CSR PCCR5, 0x1234
    CHECK_CSR PCCR15, 0x1234
    CHECK_CSR PCCR31, 0         # FPGA: no counter of its own
    j 2f
1:  li t0, 0x1234               # E. (ASIC) PCCR31 is the one counter too
    csrw PCCR31, t0
    CHECK_CSR PCCR0, 0x1234
    CHECK_CSR PCCR31, 0x1234
2:

    # F. reads while counting
    li t0, EV_INSTR
    csrw PCER, t0
    csrwi PCMR, 1
    csrw PCCR31, zero
    addi t1, t1, 1
    addi t1, t1, 1
    csrr t2, PCCR1
    csrr t3, PCCR1
    csrw PCMR, zero
    CHECK t2, 2
    CHECK t3, 3
    EXIT_PASS

# The user-level counters are read-only: csrw cycle faults (illegal
# instruction, exit status 252), and so does a counter CSR that does not
# exist (0xb01). tests/run.sh runs it with and without an argument. The
# faulting instruction's events are not counted.
# FAULT

    .option norvc
    .text
    .globl _start
_start:
    lw t0, 0(sp)                # argc
    addi t0, t0, -1
    bnez t0, 1f
    li t0, 2                    # PCER = INSTR (PCMR is active from reset):
    csrw 0x7a0, t0              # not counted (PCER was 0)
    addi t1, t1, 1              # counted
    addi t1, t1, 1              # counted
    csrw cycle, zero            # faults, does not retire: PCCR1 = 2
1:  csrr t1, 0xb01
    li a0, 0
    li a7, 93
    ecall

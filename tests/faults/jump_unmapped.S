# Jumps through a register to 0x50000000, where nothing is mapped: cyclops
# must report the target and the jump that led there (the jalr in `leap`).
    .text
    .globl _start
_start:
    call leap
    li a0, 0
    li a7, 93
    ecall

    .globl leap
    .type leap, @function
leap:
    .option norvc
    li t0, 0x50000000
    jalr t0
    ret
    .size leap, . - leap

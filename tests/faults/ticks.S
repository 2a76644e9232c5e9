# Writes "tick\n" to stdout four times, about 2^29 cycles apart (a second
# or so each at the interpreter's speed: tests/run.sh runs it interpreted), then exits 0: on a terminal the
# progress line is up when each tick is written, and must be erased first.
    .text
    .globl _start
_start:
    li s0, 4
1:  li t0, 1 << 28
2:  addi t0, t0, -1         # 2 instructions an iteration
    bnez t0, 2b
    li a0, 1                # stdout
    la a1, tick
    li a2, 5
    li a7, 64               # write
    ecall
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93               # exit
    ecall

    .section .rodata
tick: .ascii "tick\n"

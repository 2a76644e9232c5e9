# Touches one more 4 KiB page per iteration: 16384 pages (64 MiB) upwards
# from 0x20000000, then exits 0. --max-memory below 64 MiB must stop it
# (docs/robustness.md); with no limit or a larger one it exits 0. A delay
# loop of 64 iterations per page makes it take about 2.2 million cycles, so
# that the limit is reached well after the first memory check.
    .text
    .globl _start
_start:
    li t0, 0x20000000
    li t1, 16384
    li t2, 4096
    .globl touch
    .type touch, @function
touch:
    sw t1, 0(t0)
    add t0, t0, t2
    li t3, 64
delay:
    addi t3, t3, -1
    bnez t3, delay
    addi t1, t1, -1
    bnez t1, touch
    .size touch, . - touch
    li a0, 0
    li a7, 93          # exit
    ecall

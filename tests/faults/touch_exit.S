# Touches 1024 pages (4 MiB) upwards from 0x20000000 in about 4100 cycles,
# far fewer than the 2^16 cycles between two --max-memory checks, then
# exits 0: only a check at exit can see that it passed a 1 MiB limit.
    .text
    .globl _start
_start:
    li t0, 0x20000000
    li t1, 1024
    li t2, 4096
touch:
    sw t1, 0(t0)
    add t0, t0, t2
    addi t1, t1, -1
    bnez t1, touch
    li a0, 0
    li a7, 93          # exit
    ecall

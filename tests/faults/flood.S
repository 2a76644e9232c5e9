# Writes 1 GiB to stdout in 4 writes of 256 MiB from a buffer the guest never
# touches (zeros), then exits 0. With the cycle tracker in quiet mode every
# byte passes through the tracker: the test checks that cyclops's memory
# stays small (the tracker gets each write in pieces) and nothing is lost.
    .text
    .globl _start
_start:
    li s0, 4
1:  li a0, 1                # stdout
    la a1, buf
    li a2, 256 << 20
    li a7, 64               # write
    ecall
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93               # exit
    ecall

    .bss
buf: .space 256 << 20

# Grows the heap by 1.5 GiB, writes its first and last byte, gives it all
# back, takes it again and exits with the two bytes read back OR-ed (0: the
# memory given back reads as zero, as on Linux). Only two pages are ever
# touched by the guest, so the run needs no more than a few MiB of host
# memory if cyclops does not touch the rest itself.
    .text
    .globl _start
_start:
    li a7, 214         # brk(0): the current break
    li a0, 0
    ecall
    mv s0, a0
    li s1, 0x60000000
    add s2, s0, s1     # the break 1.5 GiB higher
    li a7, 214
    mv a0, s2
    ecall
    bne a0, s2, fail
    li t0, 0x5a
    sb t0, 0(s0)
    sb t0, -1(s2)
    li a7, 214         # give it back
    mv a0, s0
    ecall
    li a7, 214         # and take it again
    mv a0, s2
    ecall
    bne a0, s2, fail
    lbu a0, 0(s0)
    lbu t0, -1(s2)
    or a0, a0, t0
    li a7, 93          # exit(first | last)
    ecall
fail:
    li a0, 99
    li a7, 93
    ecall

# Writes 320 KiB from a buffer the guest has touched in four places only,
# in one write(1, buf, 327680): 'A' at 5000, "\ncycle-tracker-start: x\n" at
# 70000, "\ncycle-tracker-end: x\n" at 200000 and 'Z' in the last byte; the
# rest is zeros it never touched. cyclops reads such pages as zeros without
# backing them (core/mem.c, mem_copy_sparse); the test checks every byte,
# and that the cycle tracker sees both requests.
    .text
    .globl _start
_start:
    la s0, buf
    li t0, 'A'
    li t1, 5000
    add t1, s0, t1
    sb t0, 0(t1)
    li a0, 70000
    add a0, s0, a0
    la a1, start_line
    li a2, 24               # its length
    call copy
    li a0, 200000
    add a0, s0, a0
    la a1, end_line
    li a2, 22               # its length
    call copy
    li t0, 'Z'
    li t1, 327679
    add t1, s0, t1
    sb t0, 0(t1)
    li a0, 1                # stdout
    mv a1, s0
    li a2, 327680
    li a7, 64               # write
    ecall
    li t0, 327680
    bne a0, t0, fail
    li a0, 0
    li a7, 93               # exit
    ecall
fail:
    li a0, 1
    li a7, 93
    ecall

# copy(dst a0, src a1, n a2)
copy:
    lbu t0, 0(a1)
    sb t0, 0(a0)
    addi a0, a0, 1
    addi a1, a1, 1
    addi a2, a2, -1
    bnez a2, copy
    ret

    .section .rodata
start_line: .ascii "\ncycle-tracker-start: x\n"
end_line: .ascii "\ncycle-tracker-end: x\n"

    .bss
    .balign 4096
buf: .space 327680

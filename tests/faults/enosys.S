# Calls syscalls cyclops does not implement: openat (56) twice and 1234 once.
# Each must return -ENOSYS (-38) to the guest, and cyclops must warn once per
# syscall number, naming it when it has a name. Exits 0 when every return
# value was -38, else 1. (Not run under qemu: qemu implements openat.)
    .text
    .globl _start
_start:
    li s0, -38
    li a7, 56           # openat(AT_FDCWD, "", 0)
    li a0, -100
    la a1, empty
    li a2, 0
    ecall
    bne a0, s0, bad
    li a7, 56
    li a0, -100
    la a1, empty
    li a2, 0
    ecall
    bne a0, s0, bad
    li a7, 1234
    ecall
    bne a0, s0, bad
    li a0, 0
    li a7, 93
    ecall
bad:
    li a0, 1
    li a7, 93
    ecall

    .section .rodata
empty: .byte 0

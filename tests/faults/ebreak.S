# Writes "before ebreak\n", then executes a 32-bit ebreak inside the function
# `trap_here`: with no debugger attached, cyclops must stop with a report
# naming the pc and the symbol. Under qemu-riscv32 the guest dies of SIGTRAP.
    .text
    .globl _start
_start:
    li a0, 1
    la a1, msg
    li a2, 14
    li a7, 64
    ecall
    call trap_here
    li a0, 0
    li a7, 93
    ecall

    .globl trap_here
    .type trap_here, @function
trap_here:
    .option norvc
    nop
    ebreak
    ret
    .size trap_here, . - trap_here

    .section .rodata
msg: .ascii "before ebreak\n"

# Intentionally illegal program: executes the all-zero word, which is an
# illegal instruction in every RISC-V encoding. It prints nothing; the VM must
# report an illegal instruction (qemu-riscv32 dies of SIGILL, shell exit 132).
    .option norvc
    .text
    .globl _start
_start:
    .word 0
    # Never reached: a VM that skips the bad word exits 3, visibly not 132.
    li a0, 3
    li a7, 93
    ecall

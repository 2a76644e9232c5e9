# Intentionally illegal program: writes the read-only instret CSR (csrrw),
# which is an illegal instruction in user mode. It prints nothing; the VM must
# report an illegal instruction (qemu-riscv32 dies of SIGILL, shell exit 132).
    .option norvc
    .text
    .globl _start
_start:
    li a0, 0
    csrw instret, a0
    # Never reached: a VM that ignores the write exits 3, visibly not 132.
    li a0, 3
    li a7, 93
    ecall

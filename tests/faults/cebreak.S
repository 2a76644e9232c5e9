# Executes the compressed c.ebreak as its first instruction: cyclops must stop
# with the same ebreak report as for the 32-bit form.
    .text
    .globl _start
_start:
    .option rvc
    c.ebreak
    li a0, 0
    li a7, 93
    ecall

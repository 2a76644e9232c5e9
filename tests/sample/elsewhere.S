# Runs two instructions it writes on the stack, outside the ELF's
# executable segments: their samples go to the histogram's table of other
# pcs, and cyclops hist reports them without a symbol. Unit model, so with
# --sample=1 each of the two gets exactly one sample. Exits with 7.
    .text
    .globl _start
_start:
    addi sp, sp, -16
    li t0, 0x00700513       # addi a0, zero, 7
    sw t0, 0(sp)
    li t0, 0x00008067       # jalr zero, 0(ra)
    sw t0, 4(sp)
    fence.i
    jalr ra, 0(sp)
    li a7, 93
    ecall

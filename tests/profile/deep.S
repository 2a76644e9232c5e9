# Call stacks deeper than the text formats write whole: sum(n) = n +
# sum(n - 1) called as sum(2000), so the innermost stack is _start and 2001
# frames of sum. Under the unit model (see recursion.S for the counts):
#   _start: li, jal, li = 3 (the ecall is its own [ecall exit] frame, 1)
#   sum(n > 0): 11 each of 2000; sum(0): 2
#   total 3 + 1 + 2000 * 11 + 2 = 22006; exit status 2001000 & 0xff = 104
# A .folded line or speedscope sample of more than 256 frames keeps the
# outermost 128 and the innermost 127 with one marked frame between:
# the innermost stack (2002 frames) elides 2002 - 255 = 1747.
# EXPECT-EXIT: 104
    .option norvc
    .text
    .globl _start
    .type _start, @function
_start:
    li a0, 2000
    jal sum
    li a7, 93
    ecall
    .size _start, . - _start

    .globl sum
    .type sum, @function
sum:
    beqz a0, 1f
    addi sp, sp, -16
    sw ra, 12(sp)
    sw a0, 8(sp)
    addi a0, a0, -1
    jal sum
    lw t0, 8(sp)
    add a0, a0, t0
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
1:
    ret
    .size sum, . - sum

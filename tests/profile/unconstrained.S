# Call stacks of an SP1 guest with an unconstrained block: nothing the
# block runs (a call to work and its 1000 turns) is part of any count, so
# every format totals the constrained cycles alone (issue 19). The marker
# label sp1_zkvm_marker makes the ABI sp1. Under the unit model:
#
#   _start: li s0, jal helper, li t0 (ENTER), ecall, then after the exit
#           the beqz again (taken now: t0 = 0), jal helper, li a0, li t0,
#           ecall (HALT)                         self 7, two ecalls 1 each
#   helper: addi, ret, called twice              4
#   the block: beqz (not taken), li a0, jal work, 1000 x (addi, bnez), ret,
#              li t0, ecall (EXIT)               nothing
#   total 7 + 1 + 1 + 4                          13
# EXPECT-EXIT: 0
# EXPECT-CYCLES: 13
# EXPECT-FOLDED: _start 7
# EXPECT-FOLDED: _start;[ecall ENTER_UNCONSTRAINED] 1
# EXPECT-FOLDED: _start;helper 4
# EXPECT-FOLDED: _start;[ecall HALT] 1
# EXPECT-PPROF: helper flat 4 cum 4
# EXPECT-PPROF: _start flat 7 cum 13

    .option norvc
    .text
    .globl _start
    .type _start, @function
_start:
    li s0, 3
    jal helper
    li t0, 3            /* ENTER_UNCONSTRAINED: t0 = 1, later 0 */
    ecall
    beqz t0, after
    li a0, 1000
    jal work
    li t0, 4            /* EXIT_UNCONSTRAINED */
    ecall
after:
    jal helper
    li a0, 0
    li t0, 0            /* HALT */
    ecall
    .size _start, .-_start

    .type helper, @function
helper:
    addi s0, s0, -1
    ret
    .size helper, .-helper

    .type work, @function
work:
    addi a0, a0, -1
    bnez a0, work
    ret
    .size work, .-work
sp1_zkvm_marker:
    nop

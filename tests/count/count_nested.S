# Instruction-count guest, nested-loop shape: an outer loop of 4 trips whose
# inner loop runs (outer counter) trips, with an if/else inside whose branch
# is taken for even and not taken for odd inner counters.
#
# Derivation (instruction counts per path, marked on each line below):
#   prologue: li s0, li s1                                         =   2
#   inner iteration, s2 odd:  andi, beqz (not taken), c.addi, c.j,
#                             addi, bnez                           =   6
#   inner iteration, s2 even: andi, beqz (taken), c.addi,
#                             addi, bnez                           =   5
#   outer trip with s1 = n: c.mv s2 (1) + inner over s2 = n..1
#                           + addi s1 + bnez s1 (2)
#       n = 4: s2 = 4,3,2,1 -> 5+6+5+6 = 22, trip = 22 + 3        =  25
#       n = 3: s2 = 3,2,1   -> 6+5+6   = 17, trip = 17 + 3        =  20
#       n = 2: s2 = 2,1     -> 5+6     = 11, trip = 11 + 3        =  14
#       n = 1: s2 = 1       -> 6,            trip =  6 + 3        =   9
#   epilogue: mv a0, li a7, ecall                                   =   3
#   total 2 + 25 + 20 + 14 + 9 + 3                                  =  73
#   The exit code is the sum s0: odd adds 3, even adds 1:
#   (1+3+1+3) + (3+1+3) + (1+3) + 3 = 22.
# EXPECT-INSTRUCTIONS: 73

    .text
    .globl _start
    .option norvc
_start:
    li s0, 0                    # prologue
    li s1, 4                    # prologue
outer:
    .option rvc
    c.mv s2, s1                 # once per outer trip
    .option norvc
inner:
    andi t0, s2, 1              # every inner iteration
    beqz t0, even               # every inner iteration; taken if s2 even
    .option rvc
    c.addi s0, 3                # odd only
    c.j next                    # odd only
even:
    c.addi s0, 1                # even only
    .option norvc
next:
    addi s2, s2, -1             # every inner iteration
    bnez s2, inner              # every inner iteration; taken but the last
    addi s1, s1, -1             # once per outer trip
    bnez s1, outer              # once per outer trip; taken but the last
    mv a0, s0                   # epilogue
    li a7, 93                   # epilogue
    ecall                       # epilogue

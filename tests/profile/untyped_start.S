# The entry point is a label with no type and no size, as the zkVM SDKs'
# _start (written in global assembly): the root frame is still named for it
# (issue 19: it was [unknown]), reaching up to the next symbol, f. Under
# the unit model: _start li a0, jal f, li a7, ecall = 3 + the ecall;
# f addi, ret = 2.
# EXPECT-EXIT: 8
# EXPECT-CYCLES: 6
# EXPECT-FOLDED: _start 3
# EXPECT-FOLDED: _start;[ecall exit] 1
# EXPECT-FOLDED: _start;f 2
# EXPECT-PPROF: f flat 2 cum 2
# EXPECT-PPROF: _start flat 3 cum 6

    .option norvc
    .text
    .globl _start
_start:
    li a0, 7
    jal f
    li a7, 93
    ecall

    .type f, @function
f:
    addi a0, a0, 1
    ret
    .size f, .-f

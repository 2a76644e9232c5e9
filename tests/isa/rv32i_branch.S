# Self-checking test of the RV32I conditional branches: every branch taken and
# not taken, forward and backward, signed vs unsigned edge cases, x0 operands,
# the assembler's swapped-operand pseudo forms, and the +-4 KiB offset limits.
#include "test.h"

    # ---- beq / bne
    TEST_BR_TAKEN(beq, 0, 0)
    TEST_BR_TAKEN(beq, 1, 1)
    TEST_BR_TAKEN(beq, -1, -1)
    TEST_BR_TAKEN(beq, 0x80000000, 0x80000000)
    TEST_BR_TAKEN_BACK(beq, 0x12345678, 0x12345678)
    TEST_BR_NOT_TAKEN(beq, 0, 1)
    TEST_BR_NOT_TAKEN(beq, 1, 0)
    TEST_BR_NOT_TAKEN(beq, -1, 1)
    TEST_BR_NOT_TAKEN(beq, 0x80000000, 0)
    TEST_BR_NOT_TAKEN(beq, 0xffffffff, 0x7fffffff)

    TEST_BR_TAKEN(bne, 0, 1)
    TEST_BR_TAKEN(bne, 1, 0)
    TEST_BR_TAKEN(bne, -1, 1)
    TEST_BR_TAKEN(bne, 0x80000000, 0)
    TEST_BR_TAKEN_BACK(bne, 0xffffffff, 0x7fffffff)
    TEST_BR_NOT_TAKEN(bne, 0, 0)
    TEST_BR_NOT_TAKEN(bne, 1, 1)
    TEST_BR_NOT_TAKEN(bne, -1, -1)
    TEST_BR_NOT_TAKEN(bne, 0x80000000, 0x80000000)

    # ---- blt / bge: signed, so 0x80000000 is the smallest value
    TEST_BR_TAKEN(blt, 0, 1)
    TEST_BR_TAKEN(blt, -1, 1)
    TEST_BR_TAKEN(blt, -2, -1)
    TEST_BR_TAKEN(blt, 0x80000000, 0x7fffffff)
    TEST_BR_TAKEN(blt, 0x80000000, 0)
    TEST_BR_TAKEN(blt, -1, 0)
    TEST_BR_TAKEN_BACK(blt, 0x80000000, 0xffffffff)
    TEST_BR_NOT_TAKEN(blt, 1, 0)
    TEST_BR_NOT_TAKEN(blt, 1, -1)
    TEST_BR_NOT_TAKEN(blt, -1, -2)
    TEST_BR_NOT_TAKEN(blt, 0x7fffffff, 0x80000000)
    TEST_BR_NOT_TAKEN(blt, 0, 0)
    TEST_BR_NOT_TAKEN(blt, -1, -1)
    TEST_BR_NOT_TAKEN(blt, 0x80000000, 0x80000000)

    TEST_BR_TAKEN(bge, 1, 0)
    TEST_BR_TAKEN(bge, 1, -1)
    TEST_BR_TAKEN(bge, -1, -2)
    TEST_BR_TAKEN(bge, 0x7fffffff, 0x80000000)
    TEST_BR_TAKEN(bge, 0, 0)
    TEST_BR_TAKEN(bge, -1, -1)
    TEST_BR_TAKEN(bge, 0x80000000, 0x80000000)
    TEST_BR_TAKEN_BACK(bge, 0, 0xffffffff)
    TEST_BR_NOT_TAKEN(bge, 0, 1)
    TEST_BR_NOT_TAKEN(bge, -1, 1)
    TEST_BR_NOT_TAKEN(bge, -2, -1)
    TEST_BR_NOT_TAKEN(bge, 0x80000000, 0x7fffffff)
    TEST_BR_NOT_TAKEN(bge, -1, 0)

    # ---- bltu / bgeu: unsigned, so 0xffffffff is the largest value
    TEST_BR_TAKEN(bltu, 0, 1)
    TEST_BR_TAKEN(bltu, 1, -1)
    TEST_BR_TAKEN(bltu, 0x7fffffff, 0x80000000)
    TEST_BR_TAKEN(bltu, 0, 0xffffffff)
    TEST_BR_TAKEN(bltu, 0xfffffffe, 0xffffffff)
    TEST_BR_TAKEN_BACK(bltu, 1, 0x80000000)
    TEST_BR_NOT_TAKEN(bltu, 1, 0)
    TEST_BR_NOT_TAKEN(bltu, -1, 1)
    TEST_BR_NOT_TAKEN(bltu, 0x80000000, 0x7fffffff)
    TEST_BR_NOT_TAKEN(bltu, 0, 0)
    TEST_BR_NOT_TAKEN(bltu, -1, -1)
    TEST_BR_NOT_TAKEN(bltu, 0xffffffff, 0xfffffffe)

    TEST_BR_TAKEN(bgeu, 1, 0)
    TEST_BR_TAKEN(bgeu, -1, 1)
    TEST_BR_TAKEN(bgeu, 0x80000000, 0x7fffffff)
    TEST_BR_TAKEN(bgeu, 0, 0)
    TEST_BR_TAKEN(bgeu, -1, -1)
    TEST_BR_TAKEN(bgeu, 0xffffffff, 0xfffffffe)
    TEST_BR_TAKEN_BACK(bgeu, 0x80000000, 1)
    TEST_BR_NOT_TAKEN(bgeu, 0, 1)
    TEST_BR_NOT_TAKEN(bgeu, 1, -1)
    TEST_BR_NOT_TAKEN(bgeu, 0x7fffffff, 0x80000000)
    TEST_BR_NOT_TAKEN(bgeu, 0, 0xffffffff)

    # ---- swapped-operand pseudo forms (the encoding swaps rs1 and rs2)
    TEST_BR_TAKEN(bgt, 1, 0)
    TEST_BR_NOT_TAKEN(bgt, 0, 0)
    TEST_BR_TAKEN(ble, 0x80000000, 0x7fffffff)
    TEST_BR_NOT_TAKEN(ble, 1, -1)
    TEST_BR_TAKEN(bgtu, -1, 1)
    TEST_BR_NOT_TAKEN(bgtu, 1, -1)
    TEST_BR_TAKEN(bleu, 1, 1)
    TEST_BR_NOT_TAKEN(bleu, 0x80000000, 0x7fffffff)

    # ---- x0 as an operand (beqz/bnez/bltz/bgez/blez/bgtz)
    TEST_NEXT
    beq x0, x0, 1f
    FAIL
1:
    TEST_NEXT
    bne x0, x0, 1f
    j 2f
1:  FAIL
2:
    TEST_NEXT
    li a1, 0x80000000
    bltz a1, 1f
    FAIL
1:
    TEST_NEXT
    bgez a1, 1f
    j 2f
1:  FAIL
2:
    TEST_NEXT
    li a1, 0
    bgez a1, 1f
    FAIL
1:
    TEST_NEXT
    blez a1, 1f
    FAIL
1:
    TEST_NEXT
    bgtz a1, 1f
    j 2f
1:  FAIL
2:
    TEST_NEXT
    li a1, 1
    bgtz a1, 1f
    FAIL
1:
    TEST_NEXT
    bltu x0, a1, 1f             # snez-style: taken for any non-zero a1
    FAIL
1:
    TEST_NEXT
    bltu a1, x0, 1f             # never taken: nothing is below 0 unsigned
    j 2f
1:  FAIL
2:

    # ---- a counted backward loop: the branch is taken 9 times, then not
    li a0, 0
    li a1, 10
1:
    addi a0, a0, 1
    blt a0, a1, 1b
    CHECK(a0, 10)

    # ---- the offset limits: +4092 (largest 4-aligned) and -4096
    TEST_NEXT
    beq x0, x0, 1f              # offset +4092
    .skip 4088                  # zeros: executing any of them traps
1:
    TEST_NEXT
    j 2f
1:
    j 3f
    .skip 4092
2:
    bgeu x0, x0, 1b             # offset -4096
    FAIL
3:

    TEST_END

# Self-checking test of the C extension: every RV32C instruction, written
# explicitly with its c. mnemonic so the encoding is certain, plus 32-bit
# instructions at 2-byte-aligned addresses, across a page boundary, and
# 32-bit jumps to 2-byte-aligned targets. Link values of c.jal/c.jalr are pc+2.
#include "test.h"

    .option rvc

    # ---- c.addi4spn: rd' = sp + nzuimm (scaled by 4, 4..1020)
    c.addi4spn a0, sp, 4
    addi t0, sp, 4
    CHECK_EQ(a0, t0)
    c.addi4spn a5, sp, 16
    addi t0, sp, 16
    CHECK_EQ(a5, t0)
    c.addi4spn s1, sp, 1020
    addi t0, sp, 1020
    CHECK_EQ(s1, t0)

    # ---- c.lw / c.sw: base and data in x8-x15, offsets 0..124
    la s0, cbuf
    c.lw a0, 0(s0)
    CHECK(a0, 0x01234567)
    c.lw a1, 4(s0)
    CHECK(a1, 0xfedcba98)
    c.lw a2, 124(s0)
    CHECK(a2, 0x89abcdef)
    li a3, 0x13572468
    c.sw a3, 8(s0)
    c.sw a3, 120(s0)
    .option norvc
    lw a4, 8(s0)
    lw a5, 120(s0)
    .option rvc
    CHECK(a4, 0x13572468)
    CHECK(a5, 0x13572468)
    .option norvc
    lw a4, 116(s0)              # the word below was not touched
    .option rvc
    CHECK(a4, 0x00000000)
    c.lw s0, 12(s0)             # rd == base
    CHECK(s0, 0x0badf00d)

    # ---- c.nop changes nothing
    li a0, 0x5555
    c.nop
    CHECK(a0, 0x5555)

    # ---- c.addi: sign-extended 6-bit immediate (-32..31), any rd
    li a0, 0
    c.addi a0, -1
    CHECK(a0, 0xffffffff)
    c.addi a0, 31
    CHECK(a0, 30)
    c.addi a0, -32
    CHECK(a0, 0xfffffffe)
    li t0, 100
    c.addi t0, 5
    CHECK(t0, 105)
    li ra, 0x7fffffff
    c.addi ra, 1
    CHECK(ra, 0x80000000)

    # ---- c.jal: ra = pc + 2, forward and backward
    TEST_NEXT
    c.jal 1f
cjal_ret1:
    FAIL
1:
    la a0, cjal_ret1
    CHECK_EQ(ra, a0)

    TEST_NEXT
    c.j 2f
1:
    la a0, cjal_ret2
    CHECK_EQ(ra, a0)
    c.j 3f
2:
    c.jal 1b
cjal_ret2:
    FAIL
3:

    # ---- c.li: sign-extended 6-bit immediate
    c.li a0, -32
    CHECK(a0, 0xffffffe0)
    c.li a0, 31
    CHECK(a0, 0x0000001f)
    li t1, 0x12345678
    c.li t1, 0
    CHECK(t1, 0)
    c.li a5, -1
    CHECK(a5, 0xffffffff)

    # ---- c.addi16sp: sp += nzimm (scaled by 16, -512..496)
    c.mv s1, sp
    c.addi16sp sp, 496
    sub a0, sp, s1
    CHECK(a0, 496)
    c.addi16sp sp, -512
    sub a0, sp, s1
    CHECK(a0, 0xfffffff0)
    c.addi16sp sp, -16
    sub a0, sp, s1
    CHECK(a0, 0xffffffe0)
    c.addi16sp sp, 32
    CHECK_EQ(sp, s1)
    c.mv sp, s1

    # ---- c.lui: rd = sign-extended 6-bit immediate << 12
    c.lui a0, 1
    CHECK(a0, 0x00001000)
    c.lui a0, 31
    CHECK(a0, 0x0001f000)
    c.lui a0, 0xfffff
    CHECK(a0, 0xfffff000)
    c.lui t2, 0xfffe0
    CHECK(t2, 0xfffe0000)
    c.lui t3, 0x10
    CHECK(t3, 0x00010000)
    li ra, 0xffffffff
    c.lui ra, 0x3
    CHECK(ra, 0x00003000)

    # ---- c.srli / c.srai / c.andi on x8-x15
    li a0, 0x80000000
    c.srli a0, 1
    CHECK(a0, 0x40000000)
    li a0, 0x80000000
    c.srli a0, 31
    CHECK(a0, 0x00000001)
    li a1, 0xffffffff
    c.srli a1, 4
    CHECK(a1, 0x0fffffff)
    li a0, 0x80000000
    c.srai a0, 1
    CHECK(a0, 0xc0000000)
    li a0, 0x80000000
    c.srai a0, 31
    CHECK(a0, 0xffffffff)
    li a2, 0x7fffffff
    c.srai a2, 31
    CHECK(a2, 0x00000000)
    li s1, 0x81818181
    c.srai s1, 7
    CHECK(s1, 0xff030303)
    li a0, 0x12345678
    c.andi a0, -16
    CHECK(a0, 0x12345670)
    li a3, 0x12345678
    c.andi a3, 15
    CHECK(a3, 0x00000008)
    li a4, 0xffffffff
    c.andi a4, -32
    CHECK(a4, 0xffffffe0)
    li a5, 0xff
    c.andi a5, 0
    CHECK(a5, 0x00000000)
    li s1, 0x3f
    c.andi s1, 31
    CHECK(s1, 0x0000001f)

    # ---- c.sub / c.xor / c.or / c.and on x8-x15
    li a0, 7
    li a1, 10
    c.sub a0, a1
    CHECK(a0, 0xfffffffd)
    li s0, 0x80000000
    li s1, 1
    c.sub s0, s1
    CHECK(s0, 0x7fffffff)
    li a5, 0x1234
    c.sub a5, a5
    CHECK(a5, 0)
    li a2, 0xff00ff00
    li a3, 0x0f0f0f0f
    c.xor a2, a3
    CHECK(a2, 0xf00ff00f)
    li a2, 0xff00ff00
    c.or a2, a3
    CHECK(a2, 0xff0fff0f)
    li a2, 0xff00ff00
    c.and a2, a3
    CHECK(a2, 0x0f000f00)
    CHECK(a3, 0x0f0f0f0f)
    li a4, 0x5a5a5a5a
    c.xor a4, a4
    CHECK(a4, 0)
    li s0, 0x0000ffff           # other register fields than above
    li a5, 0x00ff00ff
    c.or s0, a5
    CHECK(s0, 0x00ffffff)
    li a5, 0xf0f0f0f0
    li a4, 0x0ff00ff0
    c.and a5, a4
    CHECK(a5, 0x00f000f0)
    li s1, 0x00000003
    c.xor s1, a4
    CHECK(s1, 0x0ff00ff3)

    # ---- c.j forward and backward, and near its +-2 KiB range
    TEST_NEXT
    c.j 1f
    FAIL
1:
    TEST_NEXT
    c.j 2f
1:
    c.j 3f
2:
    c.j 1b
    FAIL
3:
    TEST_NEXT
    c.j 1f                      # offset +2044
    .skip 2042                  # zeros: executing any of them traps
1:

    # ---- c.beqz / c.bnez, both ways, forward and backward
    TEST_NEXT
    li a0, 0
    c.beqz a0, 1f
    FAIL
1:
    TEST_NEXT
    li a0, 5
    c.beqz a0, 1f
    c.j 2f
1:  FAIL
2:
    TEST_NEXT
    li a0, 0x80000000           # only the top bit set is still non-zero
    c.beqz a0, 1f
    c.j 2f
1:  FAIL
2:
    TEST_NEXT
    c.bnez a0, 1f
    FAIL
1:
    TEST_NEXT
    li a0, 0
    c.bnez a0, 1f
    c.j 2f
1:  FAIL
2:
    li s0, 3
    li s1, 0
1:
    c.addi s1, 1
    c.addi s0, -1
    c.bnez s0, 1b               # taken twice, then falls through
    CHECK(s1, 3)
    li s0, 0
1:
    c.addi s0, 1
    addi a0, s0, -4
    c.beqz a0, 2f
    c.j 1b
2:
    CHECK(s0, 4)
    TEST_NEXT
    li a1, 0
    c.beqz a1, 1f               # offset +254, the largest
    .skip 252
1:
    TEST_NEXT
    c.j 2f
1:
    c.j 3f
    .skip 254
2:
    c.beqz a1, 1b               # offset -256, the smallest
    FAIL
3:

    # ---- c.slli: any rd, shamt 1..31
    li a0, 1
    c.slli a0, 1
    CHECK(a0, 0x00000002)
    c.slli a0, 30
    CHECK(a0, 0x80000000)
    li t3, 0x21212121
    c.slli t3, 7
    CHECK(t3, 0x90909080)
    li ra, 0xffffffff
    c.slli ra, 31
    CHECK(ra, 0x80000000)

    # ---- c.swsp / c.lwsp: sp-relative, offsets 0..252, any register
    c.mv s1, sp
    addi sp, sp, -256
    li t0, 0x11112222
    c.swsp t0, 0(sp)
    li a0, 0x33334444
    c.swsp a0, 252(sp)
    li t5, 0x55556666
    c.swsp t5, 128(sp)
    .option norvc
    lw a1, 0(sp)
    lw a2, 252(sp)
    lw a3, 128(sp)
    .option rvc
    CHECK(a1, 0x11112222)
    CHECK(a2, 0x33334444)
    CHECK(a3, 0x55556666)
    c.lwsp a4, 252(sp)
    CHECK(a4, 0x33334444)
    c.lwsp t2, 0(sp)
    CHECK(t2, 0x11112222)
    c.lwsp ra, 128(sp)
    CHECK(ra, 0x55556666)
    c.mv sp, s1

    # ---- c.jr: jump to rs1, no link
    TEST_NEXT
    la a0, 1f
    li ra, 0x77
    c.jr a0
    FAIL
1:
    CHECK(ra, 0x77)
    TEST_NEXT
    la ra, 1f
    c.jr ra
    FAIL
1:

    # ---- c.mv: rd = rs2, any registers
    li t0, 0x12345678
    c.mv a0, t0
    CHECK(a0, 0x12345678)
    li s1, 0x87654321
    c.mv t3, s1
    CHECK(t3, 0x87654321)
    CHECK(s1, 0x87654321)

    # ---- c.ebreak is not executed here: it stops the program (SIGTRAP
    # under qemu), so its encoding is covered where traps are tested, not
    # in a self-checking program.

    # ---- c.jalr: ra = pc + 2; with rs1 == ra the old ra is the target
    TEST_NEXT
    la a0, 1f
    c.jalr a0
cjalr_ret1:
    FAIL
1:
    la a0, cjalr_ret1
    CHECK_EQ(ra, a0)
    TEST_NEXT
    la ra, 1f
    c.jalr ra
cjalr_ret2:
    FAIL
1:
    la a0, cjalr_ret2
    CHECK_EQ(ra, a0)

    # ---- c.add: rd += rs2, any registers
    li a0, 5
    li a1, 7
    c.add a0, a1
    CHECK(a0, 12)
    li t0, 0x40000000
    c.add t0, t0
    CHECK(t0, 0x80000000)
    li s0, 0xffffffff
    li t2, 2
    c.add s0, t2
    CHECK(s0, 1)
    CHECK(t2, 2)

    # ---- a 32-bit instruction at an address that is 2 mod 4
    .balign 4
    c.nop
    .option norvc
    addi a0, x0, 0x123
    .option rvc
    CHECK(a0, 0x123)

    # ---- 32-bit jalr and branch to 2-byte-aligned targets
    TEST_NEXT
    la a0, 2f
    .option norvc
    jalr ra, 0(a0)
cjalr_ret3:
    .option rvc
    FAIL
    .balign 4
    c.nop
2:
    la a0, cjalr_ret3
    CHECK_EQ(ra, a0)
    TEST_NEXT
    .option norvc
    beq x0, x0, 2f
    .option rvc
    FAIL
    .balign 4
    c.nop
2:

    # ---- a 32-bit instruction that straddles a page boundary
    c.j 1f
    .balign 4096
    .skip 4094
1:
    .option norvc
    addi a0, x0, 0x2bc
    .option rvc
    CHECK(a0, 0x2bc)

    TEST_END

    .data
    .balign 4
cbuf:
    .word 0x01234567, 0xfedcba98, 0, 0x0badf00d
    .space 26 * 4
    .word 0, 0x89abcdef

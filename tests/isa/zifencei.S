# Self-checking test of fence.i with self-modifying code: code in a writable
# and executable section (.smc) is run, overwritten with new instruction words,
# synchronised with fence.i and run again. A VM that caches decoded code must
# notice the stores; the instruction after the patching store is patched too.
#include "test.h"

/* addi a0, x0, imm (I-type: imm[11:0] rs1=0 funct3=0 rd=10 opcode=0x13). */
#define ADDI_A0_X0(imm) ((((imm) & 0xfff) << 20) | (10 << 7) | 0x13)
/* lui a0, imm20 (U-type: opcode=0x37). */
#define LUI_A0(imm20) (((imm20) << 12) | (10 << 7) | 0x37)
/* c.li a0, imm (CI: funct3=010, imm[5] at bit 12, rd, imm[4:0], op=01). */
#define C_LI_A0(imm)                                                          \
    ((2 << 13) | ((((imm) >> 5) & 1) << 12) | (10 << 7) |                     \
     (((imm) & 0x1f) << 2) | 1)

    # ---- patch smc_func twice, running it before and after each patch
    call smc_func
    CHECK(a0, 1)
    la a1, smc_func
    li a2, ADDI_A0_X0(42)
    sw a2, 0(a1)
    fence.i
    call smc_func
    CHECK(a0, 42)
    la a1, smc_func
    li a2, ADDI_A0_X0(-5)
    sw a2, 0(a1)
    fence.i
    call smc_func
    CHECK(a0, 0xfffffffb)

    # ---- replace the addi with an instruction of another kind (lui)
    la a1, smc_func
    li a2, LUI_A0(0xabcde)
    sw a2, 0(a1)
    fence.i
    call smc_func
    CHECK(a0, 0xabcde000)

    # ---- patch and rerun the same code ten times in a loop, with
    # immediates -100, -63, ..., 233 built at run time
    li s2, -100                 # immediate for this trip
    li s3, 10                   # trips left
    li s4, 0                    # sum of the results
1:
    slli a2, s2, 20             # imm[11:0] into bits 31:20
    li t0, ADDI_A0_X0(0)
    or a2, a2, t0
    la a1, smc_func
    sw a2, 0(a1)
    fence.i
    call smc_func
    CHECK_EQ(a0, s2)
    add s4, s4, a0
    addi s2, s2, 37
    addi s3, s3, -1
    bnez s3, 1b
    CHECK(s4, 665)

    # ---- patch the instruction right after the store, in the same run of
    # straight-line code (a VM decoding whole blocks ahead must re-decode)
    li a1, ADDI_A0_X0(7)
    la a2, smc_next_insn
    call smc_patch_next
    CHECK(a0, 7)
    li a1, ADDI_A0_X0(77)
    la a2, smc_next_insn
    call smc_patch_next
    CHECK(a0, 77)
    li a1, ADDI_A0_X0(-777)
    la a2, smc_next_insn
    call smc_patch_next
    CHECK(a0, 0xfffffcf7)

    # ---- patch a 16-bit instruction with a halfword store
    call smc_func16
    CHECK(a0, 5)
    la a1, smc_func16
    li a2, C_LI_A0(-3)
    sh a2, 0(a1)
    fence.i
    call smc_func16
    CHECK(a0, 0xfffffffd)
    la a1, smc_func16
    li a2, C_LI_A0(31)
    sh a2, 0(a1)
    fence.i
    call smc_func16
    CHECK(a0, 31)

    TEST_END

    .section .smc, "awx"
    .balign 4
# Returns in a0 the immediate of its first instruction (patched above).
smc_func:
    addi a0, x0, 1
    ret

# Stores a1 over smc_next_insn (address in a2), then runs it.
smc_patch_next:
    sw a1, 0(a2)
    fence.i
smc_next_insn:
    addi a0, x0, 0
    ret

# The same as smc_func with a compressed first instruction.
    .option rvc
smc_func16:
    c.li a0, 5
    ret
    .option norvc

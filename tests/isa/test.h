/* test.h - harness shared by the self-checking ISA tests in tests/isa/.
 * Included (through the C preprocessor) at the top of each .S file; it emits
 * _start and the pass/fail reporting code, and defines the TEST_* and CHECK macros.
 *
 * Register contract (tests must not use these for anything else):
 *   s11 (x27)  TESTNUM: number of the current check, incremented by every
 *              TEST_NEXT / CHECK* / TEST_* macro before it checks anything.
 *   t4  (x29)  set on failure to the address just after the failing check's jal.
 *   t5  (x30)  value found by the failing CHECK   (scratch otherwise).
 *   t6  (x31)  value expected by the failing CHECK (scratch otherwise).
 * So t4-t6 and s11 are never valid operands of a CHECK macro. The failure
 * path also uses s6-s10 and a0-a7, but only after the test has failed.
 *
 * On the first mismatch the program writes "FAIL <name> test <n>\n" to stdout,
 * a detail line ("  at pc 0x..., got 0x..., expected 0x...") to stderr, and
 * exits with code 1. TEST_END writes "PASS <name>\n" and exits with code 0.
 * <name> is TEST_NAME (the Makefile passes the file name without .S).
 *
 * Only write (64) and exit (93) are used, as those are all the VM promises.
 * The reporting code avoids the M extension so that a broken divider still
 * gets a readable FAIL line.
 */

#ifndef CYCLOPS_TEST_H
#define CYCLOPS_TEST_H

#ifndef TEST_NAME
#define TEST_NAME __BASE_FILE__
#endif

#define TESTNUM s11

#define SYS_WRITE 64
#define SYS_EXIT 93
#define FD_STDOUT 1
#define FD_STDERR 2

/* ---- checking macros ------------------------------------------------- */

/* Start a new numbered check (for hand-written checks that end in FAIL). */
#define TEST_NEXT addi TESTNUM, TESTNUM, 1

/* Unconditional failure of the current check (wrong branch taken etc.). */
#define FAIL jal t4, test_fail

/* Fail unless reg == expected (any constant li accepts: 64 bits on RV64). */
#define CHECK(reg, expected)                                                  \
    TEST_NEXT;                                                                \
    mv t5, reg;                                                               \
    li t6, expected;                                                          \
    beq t5, t6, 8881f;                                                        \
    jal t4, test_fail_value;                                                  \
8881:

/* Fail unless register a == register b (b is the "expected" one). */
#define CHECK_EQ(a, b)                                                        \
    TEST_NEXT;                                                                \
    mv t6, b;                                                                 \
    mv t5, a;                                                                 \
    beq t5, t6, 8882f;                                                        \
    jal t4, test_fail_value;                                                  \
8882:

/* Register-register op: result in a fresh rd, and with rd aliasing sources,
 * because a VM that reads a source after writing rd only fails when aliased. */
#define TEST_RR(op, expected, a, b)                                           \
    li a1, a;                                                                 \
    li a2, b;                                                                 \
    op a0, a1, a2;                                                            \
    CHECK(a0, expected)

#define TEST_RR_RD_RS1(op, expected, a, b)                                    \
    li a1, a;                                                                 \
    li a2, b;                                                                 \
    op a1, a1, a2;                                                            \
    CHECK(a1, expected)

#define TEST_RR_RD_RS2(op, expected, a, b)                                    \
    li a1, a;                                                                 \
    li a2, b;                                                                 \
    op a2, a1, a2;                                                            \
    CHECK(a2, expected)

#define TEST_RR_RS1_RS2(op, expected, a)                                      \
    li a1, a;                                                                 \
    op a0, a1, a1;                                                            \
    CHECK(a0, expected)

#define TEST_RR_RD_RS1_RS2(op, expected, a)                                   \
    li a1, a;                                                                 \
    op a1, a1, a1;                                                            \
    CHECK(a1, expected)

/* x0 as a source reads 0; x0 as rd discards the result. */
#define TEST_RR_X0_RS1(op, expected, b)                                       \
    li a2, b;                                                                 \
    op a0, x0, a2;                                                            \
    CHECK(a0, expected)

#define TEST_RR_X0_RS2(op, expected, a)                                       \
    li a1, a;                                                                 \
    op a0, a1, x0;                                                            \
    CHECK(a0, expected)

#define TEST_RR_X0_RD(op, a, b)                                               \
    li a1, a;                                                                 \
    li a2, b;                                                                 \
    op x0, a1, a2;                                                            \
    CHECK(x0, 0)

/* Register-immediate op. */
#define TEST_RI(op, expected, a, imm)                                         \
    li a1, a;                                                                 \
    op a0, a1, imm;                                                           \
    CHECK(a0, expected)

#define TEST_RI_RD_RS1(op, expected, a, imm)                                  \
    li a1, a;                                                                 \
    op a1, a1, imm;                                                           \
    CHECK(a1, expected)

#define TEST_RI_X0_RS1(op, expected, imm)                                     \
    op a0, x0, imm;                                                           \
    CHECK(a0, expected)

#define TEST_RI_X0_RD(op, a, imm)                                             \
    li a1, a;                                                                 \
    op x0, a1, imm;                                                           \
    CHECK(x0, 0)

/* Two-register branches, forward and backward, both directions. */
#define TEST_BR_TAKEN(op, a, b)                                               \
    TEST_NEXT;                                                                \
    li a1, a;                                                                 \
    li a2, b;                                                                 \
    op a1, a2, 8883f;                                                         \
    FAIL;                                                                     \
8883:

#define TEST_BR_TAKEN_BACK(op, a, b)                                          \
    TEST_NEXT;                                                                \
    li a1, a;                                                                 \
    li a2, b;                                                                 \
    j 8885f;                                                                  \
8884:                                                                         \
    j 8886f;                                                                  \
8885:                                                                         \
    op a1, a2, 8884b;                                                         \
    FAIL;                                                                     \
8886:

#define TEST_BR_NOT_TAKEN(op, a, b)                                           \
    TEST_NEXT;                                                                \
    li a1, a;                                                                 \
    li a2, b;                                                                 \
    op a1, a2, 8887f;                                                         \
    j 8888f;                                                                  \
8887:                                                                         \
    FAIL;                                                                     \
8888:

/* Last line of every test: report PASS and exit 0. */
#define TEST_END j test_pass

/* ---- harness code, emitted once per test program ---------------------- */

    .option norvc   /* tests opt in to compressed encodings explicitly */

/* The strings come before the code: li needs their lengths already defined. */
    .section .rodata.harness, "a"
    .balign 4
test_pow10:
    .word 1000000000, 100000000, 10000000, 1000000, 100000
    .word 10000, 1000, 100, 10, 1, 0
test_hexdigits:
    .ascii "0123456789abcdef"
msg_fail:
    .ascii "FAIL "
    .equ msg_fail_len, . - msg_fail
msg_pass:
    .ascii "PASS "
    .equ msg_pass_len, . - msg_pass
msg_name:
    .ascii TEST_NAME
    .equ msg_name_len, . - msg_name
msg_test:
    .ascii " test "
    .equ msg_test_len, . - msg_test
msg_at:
    .ascii "  at pc "
    .equ msg_at_len, . - msg_at
msg_got:
    .ascii ", got "
    .equ msg_got_len, . - msg_got
msg_exp:
    .ascii ", expected "
    .equ msg_exp_len, . - msg_exp
msg_nl:
    .ascii "\n"

    .section .bss.harness, "aw", @nobits
    .balign 4
test_numbuf:
    .space 20

    .section .text.harness, "ax"
    .balign 4

/* Both failure entries arrive by "jal t4, ..." from the failing check. */
test_fail_value:
    li s10, 1                   /* t5/t6 hold got/expected */
    j 1f
test_fail:
    li s10, 0
1:
    addi s9, t4, -4             /* pc of the failing jal */
    mv s8, t5
    mv s7, t6

    li a0, FD_STDOUT
    la a1, msg_fail
    li a2, msg_fail_len
    jal ra, test_write
    li a0, FD_STDOUT
    la a1, msg_name
    li a2, msg_name_len
    jal ra, test_write
    li a0, FD_STDOUT
    la a1, msg_test
    li a2, msg_test_len
    jal ra, test_write
    mv a0, TESTNUM
    jal ra, test_print_dec
    li a0, FD_STDOUT
    la a1, msg_nl
    li a2, 1
    jal ra, test_write

    /* Detail for a human goes to stderr so stdout stays one line. */
    li a0, FD_STDERR
    la a1, msg_at
    li a2, msg_at_len
    jal ra, test_write
    mv a0, s9
    jal ra, test_print_hex
    beqz s10, 2f
    li a0, FD_STDERR
    la a1, msg_got
    li a2, msg_got_len
    jal ra, test_write
    mv a0, s8
    jal ra, test_print_hex
    li a0, FD_STDERR
    la a1, msg_exp
    li a2, msg_exp_len
    jal ra, test_write
    mv a0, s7
    jal ra, test_print_hex
2:
    li a0, FD_STDERR
    la a1, msg_nl
    li a2, 1
    jal ra, test_write

    li a0, 1
    li a7, SYS_EXIT
    ecall

test_pass:
    li a0, FD_STDOUT
    la a1, msg_pass
    li a2, msg_pass_len
    jal ra, test_write
    li a0, FD_STDOUT
    la a1, msg_name
    li a2, msg_name_len
    jal ra, test_write
    li a0, FD_STDOUT
    la a1, msg_nl
    li a2, 1
    jal ra, test_write
    li a0, 0
    li a7, SYS_EXIT
    ecall

/* write(a0 fd, a1 buf, a2 len); the result is ignored. */
test_write:
    li a7, SYS_WRITE
    ecall
    ret

/* Print a0 in decimal to stdout, by subtracting powers of ten (no M). */
test_print_dec:
    mv s6, ra
    la t0, test_pow10
    la t1, test_numbuf
1:
    lw t2, 0(t0)
    beqz t2, 3f
    li t3, '0'
2:
    bltu a0, t2, 4f
    sub a0, a0, t2
    addi t3, t3, 1
    j 2b
4:
    sb t3, 0(t1)
    addi t1, t1, 1
    addi t0, t0, 4
    j 1b
3:
    /* Skip leading zeros but keep the last digit. */
    la a1, test_numbuf
    addi t1, a1, 9
    li t3, '0'
5:
    beq a1, t1, 6f
    lbu t2, 0(a1)
    bne t2, t3, 6f
    addi a1, a1, 1
    j 5b
6:
    la a2, test_numbuf + 10
    sub a2, a2, a1
    li a0, FD_STDOUT
    jal ra, test_write
    mv ra, s6
    ret

/* Print "0x" and a0 as XLEN/4 hex digits to stderr. */
#if __riscv_xlen == 64
#define HEX_DIGITS 16
#else
#define HEX_DIGITS 8
#endif
test_print_hex:
    mv s6, ra
    la t1, test_numbuf
    li t3, '0'
    sb t3, 0(t1)
    li t3, 'x'
    sb t3, 1(t1)
    addi t1, t1, 2
    la t0, test_hexdigits
    li t2, HEX_DIGITS
1:
    srli t3, a0, 4 * HEX_DIGITS - 4
    add t3, t3, t0
    lbu t3, 0(t3)
    sb t3, 0(t1)
    addi t1, t1, 1
    slli a0, a0, 4
    addi t2, t2, -1
    bnez t2, 1b
    li a0, FD_STDERR
    la a1, test_numbuf
    li a2, HEX_DIGITS + 2
    jal ra, test_write
    mv ra, s6
    ret

/* The test body follows _start in .text. */
    .text
    .balign 4
    .globl _start
_start:
    li TESTNUM, 0

#endif /* CYCLOPS_TEST_H */

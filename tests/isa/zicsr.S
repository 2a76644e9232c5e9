# Self-checking test of the user counter CSRs (cycle, time, instret and their
# high halves): every read-only access form works, rd = x0 is allowed, and the
# counters only move forward. Values are not deterministic (qemu returns host
# ticks), so only properties are checked; writes are illegal (illegal_csrw.S).
#include "test.h"

/* hi:lo = one consistent 64-bit read (retried if the high half moved). */
#define READ64(hi, lo, csr_lo, csr_hi)                                        \
8890:                                                                         \
    csrr hi, csr_hi;                                                          \
    csrr lo, csr_lo;                                                          \
    csrr t0, csr_hi;                                                          \
    bne hi, t0, 8890b

/* Fail unless a1:a0 <= a3:a2 as unsigned 64-bit numbers. */
#define CHECK_64_LE                                                           \
    TEST_NEXT;                                                                \
    bltu a1, a3, 8891f;                                                       \
    bne a1, a3, 8892f;                                                        \
    bgeu a2, a0, 8891f;                                                       \
8892:                                                                         \
    FAIL;                                                                     \
8891:

/* Fail unless the unsigned difference (b - base) <= (c - base); using
 * differences keeps the check right when the low 32 bits wrap around. */
#define CHECK_ORDERED(base, b, c)                                             \
    TEST_NEXT;                                                                \
    sub t0, b, base;                                                          \
    sub t1, c, base;                                                          \
    bgeu t1, t0, 8893f;                                                       \
    FAIL;                                                                     \
8893:

/* As CHECK_ORDERED, but strictly increasing (for instret: each read retires). */
#define CHECK_STRICT(base, b, c)                                              \
    TEST_NEXT;                                                                \
    sub t0, b, base;                                                          \
    sub t1, c, base;                                                          \
    bltu t0, t1, 8894f;                                                       \
    FAIL;                                                                     \
8894:

    # ---- every counter and high half can be read with the usual pseudos
    TEST_NEXT
    rdcycle a0
    rdcycleh a0
    rdtime a0
    rdtimeh a0
    rdinstret a0
    rdinstreth a0

    # ---- reads with rd = x0 are legal and write nothing
    csrrs x0, instret, x0
    csrrs x0, cycle, x0
    csrrc x0, time, x0
    csrrsi x0, instret, 0
    csrrci x0, cycleh, 0
    csrrs x0, instreth, x0
    CHECK(x0, 0)

    # ---- 64-bit values never go backwards
    READ64(a1, a0, instret, instreth)
    READ64(a3, a2, instret, instreth)
    CHECK_64_LE
    READ64(a1, a0, cycle, cycleh)
    READ64(a3, a2, cycle, cycleh)
    CHECK_64_LE
    READ64(a1, a0, time, timeh)
    READ64(a3, a2, time, timeh)
    CHECK_64_LE

    # ---- csrrs/csrrc with rs1 = x0 and csrrsi/csrrci with uimm = 0 read
    # without writing: the values fall in order between plain reads
    rdinstret s0
    csrrs a2, instret, x0
    csrrc a3, instret, x0
    csrrsi a4, instret, 0
    csrrci a5, instret, 0
    rdinstret s1
    CHECK_STRICT(s0, s0, a2)
    CHECK_STRICT(s0, a2, a3)
    CHECK_STRICT(s0, a3, a4)
    CHECK_STRICT(s0, a4, a5)
    CHECK_STRICT(s0, a5, s1)

    rdcycle s0
    csrrs a2, cycle, x0
    csrrc a3, cycle, x0
    csrrsi a4, cycle, 0
    csrrci a5, cycle, 0
    rdcycle s1
    CHECK_ORDERED(s0, s0, a2)
    CHECK_ORDERED(s0, a2, a3)
    CHECK_ORDERED(s0, a3, a4)
    CHECK_ORDERED(s0, a4, a5)
    CHECK_ORDERED(s0, a5, s1)

    rdtime s0
    csrrs a2, time, x0
    csrrc a3, time, x0
    csrrsi a4, time, 0
    csrrci a5, time, 0
    rdtime s1
    CHECK_ORDERED(s0, s0, a2)
    CHECK_ORDERED(s0, a2, a3)
    CHECK_ORDERED(s0, a3, a4)
    CHECK_ORDERED(s0, a4, a5)
    CHECK_ORDERED(s0, a5, s1)

    # The high halves through the same forms: equal, or one step apart if
    # the low half wrapped in between.
    rdinstreth s0
    csrrs a2, instreth, x0
    csrrc a3, instreth, x0
    csrrsi a4, instreth, 0
    csrrci a5, instreth, 0
    rdinstreth s1
    CHECK_ORDERED(s0, a2, a3)
    CHECK_ORDERED(s0, a3, a4)
    CHECK_ORDERED(s0, a4, a5)
    CHECK_ORDERED(s0, a5, s1)
    sub a0, s1, s0
    sltiu a0, a0, 2
    CHECK(a0, 1)
    rdcycleh s0
    csrrs a2, cycleh, x0
    csrrci a3, cycleh, 0
    rdcycleh s1
    CHECK_ORDERED(s0, a2, a3)
    CHECK_ORDERED(s0, a3, s1)
    rdtimeh s0
    csrrc a2, timeh, x0
    csrrsi a3, timeh, 0
    rdtimeh s1
    CHECK_ORDERED(s0, a2, a3)
    CHECK_ORDERED(s0, a3, s1)

    # ---- across a straight line of 32 instructions, instret grows by at
    # least 33 (the 32 plus the first read itself); cycle grows too
    rdcycle s2
    rdinstret s0
    .rept 32
    addi a0, a0, 1
    .endr
    rdinstret s1
    rdcycle s3
    sub a0, s1, s0
    sltiu a0, a0, 33
    CHECK(a0, 0)
    sub a0, s3, s2
    sltiu a0, a0, 1
    CHECK(a0, 0)

    # ---- and across a loop of 100 trips of 2 instructions, at least 200
    rdinstret s0
    li a1, 100
1:
    addi a1, a1, -1
    bnez a1, 1b
    rdinstret s1
    sub a0, s1, s0
    sltiu a0, a0, 200
    CHECK(a0, 0)

    TEST_END

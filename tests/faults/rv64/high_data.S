# RV64 data far above 4 GiB is ordinary memory (SP1 v6 keeps its inputs at
# 2^37 - 2^34): a doubleword stored at 0x1c00000000 and at the last 8 bytes
# of the 1 TiB space reads back, and the program exits with the low byte of
# the sum of the two values read (0x11 + 0x22 = 0x33 = 51).
    .globl _start
_start:
    li a0, 0x1c00000000
    li a1, 0x11
    sd a1, 0(a0)
    li a2, 0xfffffffff8         /* 2^40 - 8 */
    li a3, 0x22
    sd a3, 0(a2)
    ld a4, 0(a0)
    ld a5, 0(a2)
    add a0, a4, a5
    li a7, 93
    ecall

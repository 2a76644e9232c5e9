# Rule: a trailing carriage return is not part of the request.
#
#   0  WRITE start_crlf  ecall at  5   "cycle-tracker-start: z\r\n": start z at 5
#   6  NOPS 2            6..7
#   8  WRITE end_z       ecall at 13   end z: 13 - 5 = 8
#  14  EXIT              14..16: 17 instructions
# EXPECT: r["cycle_tracker"] == {"z": [8]}
# EXPECT: r["warnings"] == []
#include "macros.inc"
    STR start_crlf, "cycle-tracker-start: z\r\n"
    STR end_z, "cycle-tracker-end: z\n"
_start:
    WRITE 1, start_crlf
    NOPS 2
    WRITE 1, end_z
    EXIT

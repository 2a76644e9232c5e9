# Names are the guest's bytes: the JSON report escapes what JSON requires and
# control characters, and turns invalid UTF-8 into U+FFFD; the tree on the
# terminal shows control characters and invalid bytes as \xNN (a backslash
# doubled) and never passes an escape sequence through.
# The first name is: q " b \ s 0x01 ESC 0xff (invalid) e-acute (c3 a9) TAB.
#
#   0  WRITE start_odd  ecall at  5   start the odd name at 5
#   6  NOPS 1           6
#   7  WRITE end_odd    ecall at 12   end it: 12 - 5 = 7
#  13  WRITE start_nul  ecall at 18   start "n\0ul" at 18
#  19  WRITE end_nul    ecall at 24   end it: 24 - 18 = 6
#  25  EXIT             25..27: 28 instructions
# EXPECT: r["cycle_tracker"] == {'q"b\\s\x01\x1b\ufffd\u00e9\t': [7], "n\x00ul": [6]}
# EXPECT: 'q"b\\\\s\\x01\\x1b\\xff\u00e9\\x09 ' in err and "n\\x00ul " in err
# EXPECT: "\x1b" not in err
#include "macros.inc"
    STR start_odd, "cycle-tracker-start: q\"b\\s\001\033\377\303\251\t\n"
    STR end_odd, "cycle-tracker-end: q\"b\\s\001\033\377\303\251\t\n"
    STR start_nul, "cycle-tracker-start: n\000ul\n"
    STR end_nul, "cycle-tracker-end: n\000ul\n"
_start:
    WRITE 1, start_odd
    NOPS 1
    WRITE 1, end_odd
    WRITE 1, start_nul
    WRITE 1, end_nul
    EXIT

# Rule: spans nest by the order in which they were open (a real stack): a
# span that starts while another is open is its child, also when the outer
# one ends first.
#
#   0  WRITE start_outer  ecall at  5   start outer at 5
#   6  NOPS 1             6
#   7  WRITE start_inner  ecall at 12   start inner at 12 (under outer)
#  13  NOPS 2             13..14
#  15  WRITE end_inner    ecall at 20   end inner: 20 - 12 = 8
#  21  WRITE start_inner  ecall at 26   start inner at 26 (under outer)
#  27  NOPS 4             27..30
#  31  WRITE end_inner    ecall at 36   end inner: 36 - 26 = 10
#  37  NOPS 3             37..39
#  40  WRITE end_outer    ecall at 45   end outer: 45 - 5 = 40
#  46  WRITE start_a      ecall at 51   start a at 51
#  52  WRITE start_b      ecall at 57   start b at 57 (under a)
#  58  WRITE end_a        ecall at 63   end a: 63 - 51 = 12 (b still open)
#  64  NOPS 1             64
#  65  WRITE end_b        ecall at 70   end b: 70 - 57 = 13
#  71  EXIT               71..73: 74 instructions
# EXPECT: r["cycle_tracker"] == {"inner": [8, 10], "outer": [40], "a": [12], "b": [13]}
# EXPECT: [(s["name"], s["depth"], s["parent"], s["count"], s["total"], s["min"], s["max"]) for s in r["spans"]] == [("outer", 0, -1, 1, 40, 40, 40), ("inner", 1, 0, 2, 18, 8, 10), ("a", 0, -1, 1, 12, 12, 12), ("b", 1, 2, 1, 13, 13, 13)]
# EXPECT: [l.split()[:3] for l in err.splitlines() if l.startswith(("outer", "  inner", "a ", "  b "))] == [["outer", "1", "40"], ["inner", "2", "18"], ["a", "1", "12"], ["b", "1", "13"]]
# EXPECT: "\n  inner " in err and "\n  b " in err
# EXPECT: r["instructions"] == 74
#include "macros.inc"
    STR start_outer, "cycle-tracker-start: outer\n"
    STR end_outer, "cycle-tracker-end: outer\n"
    STR start_inner, "cycle-tracker-start: inner\n"
    STR end_inner, "cycle-tracker-end: inner\n"
    STR start_a, "cycle-tracker-start: a\n"
    STR end_a, "cycle-tracker-end: a\n"
    STR start_b, "cycle-tracker-start: b\n"
    STR end_b, "cycle-tracker-end: b\n"
_start:
    WRITE 1, start_outer
    NOPS 1
    WRITE 1, start_inner
    NOPS 2
    WRITE 1, end_inner
    WRITE 1, start_inner
    NOPS 4
    WRITE 1, end_inner
    NOPS 3
    WRITE 1, end_outer
    WRITE 1, start_a
    WRITE 1, start_b
    WRITE 1, end_a
    NOPS 1
    WRITE 1, end_b
    EXIT

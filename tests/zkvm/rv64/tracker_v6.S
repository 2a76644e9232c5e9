/* tracker_v6.S - SP1 v6's cycle-tracker rule: each line of a write is a
 * request, at the clock of that write's ecall. Each WRITE is 6
 * instructions (li a0, auipc + addi, li a2, li t0, ecall), its ecall at
 * c + 5:
 *   0 WRITE "cycle-tracker-start: x\ncycle-tracker-end: x\n"  ecall at 5:
 *            start x and end x at 5: x = 0 (v3-v5 would take the whole
 *            write for one request, a start named "x\ncycle-tracker-end: x")
 *   6 WRITE "cycle-tracker-start: y"   ecall at 11: the line has no
 *            newline yet, and is a request all the same: start y at 11
 *  12 WRITE "\n"                        ecall at 17: an empty line
 *  18 WRITE "cycle-tracker-end: y\n"    ecall at 23: y = 12
 *  24 li a0, li t0, ecall (HALT)        27 instructions */
	.option norvc
.macro STR sym, text
	.pushsection .rodata
\sym: .ascii "\text"
	.equ \sym\()_len, . - \sym
	.popsection
.endm
.macro WRITE sym
	li a0, 1
	lla a1, \sym
	li a2, \sym\()_len
	li t0, 2
	ecall
.endm
	STR both_x, "cycle-tracker-start: x\ncycle-tracker-end: x\n"
	STR start_y, "cycle-tracker-start: y"
	STR newline, "\n"
	STR end_y, "cycle-tracker-end: y\n"
	.text
	.globl _start
_start:
	WRITE both_x
	WRITE start_y
	WRITE newline
	WRITE end_y
	li a0, 0
	li t0, 0
	ecall

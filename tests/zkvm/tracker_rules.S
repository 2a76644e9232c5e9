/* tracker_rules.S - the cycle-tracker rules of SP1 and of Pico on one
 * guest (docs/api.md, "The cycle tracker"). Each WRITE is 6 instructions,
 * its ecall the last (li a0, auipc + addi, li a2, li t0, ecall): one that
 * starts at clock c makes its ecall at c + 5, the clock the request sees.
 *
 *   0 WRITE 1 "cycle-tracker-start: a\n"   ecall at  5: start a
 *   6 WRITE 1 "cycle-tracker-end: a\n"     ecall at 11: a = 6
 *  12 WRITE 1 "cycle-tracker-end: a\n"     ecall at 17: SP1 took a's start
 *                                           away: nothing; Pico: a = 12
 *  18 WRITE 1 "cycle-tracker-end: b\n"     ecall at 23: no start: SP1
 *                                           nothing; Pico b = 0
 *  24 WRITE 2 "cycle-tracker-start: c\n"   ecall at 29: SP1 reads stdout
 *                                           only; Pico starts c
 *  30 WRITE 1 "cycle-tracker-end: c\n"     ecall at 35: SP1 nothing;
 *                                           Pico c = 6
 *  36 WRITE 1 "cycle-tracker-start:  sp \n" ecall at 41: SP1 trims the
 *                                           name: start sp; Pico starts " sp "
 *  42 WRITE 1 "cycle-tracker-end: sp\n"    ecall at 47: SP1 sp = 6; Pico:
 *                                           no start of sp: sp = 0
 *  48 HALT: li a0, li t0, ecall            51 instructions
 * SP1: {a: [6], sp: [6]}, one end with no start of a, one of b, one of c;
 * Pico: {a: [6, 12], b: [0], c: [6], sp: [0]}, " sp " never ended. */
	.option norvc

.macro STR sym, text
	.pushsection .rodata
\sym: .ascii "\text"
	.equ \sym\()_len, . - \sym
	.popsection
.endm

.macro WRITE fd, sym
	li a0, \fd
	lla a1, \sym
	li a2, \sym\()_len
	li t0, 2
	ecall
.endm

	STR start_a, "cycle-tracker-start: a\n"
	STR end_a, "cycle-tracker-end: a\n"
	STR end_b, "cycle-tracker-end: b\n"
	STR start_c, "cycle-tracker-start: c\n"
	STR end_c, "cycle-tracker-end: c\n"
	STR start_sp, "cycle-tracker-start:  sp \n"
	STR end_sp, "cycle-tracker-end: sp\n"

	.text
	.globl _start
_start:
	WRITE 1, start_a
	WRITE 1, end_a
	WRITE 1, end_a
	WRITE 1, end_b
	WRITE 2, start_c
	WRITE 1, end_c
	WRITE 1, start_sp
	WRITE 1, end_sp
	li a0, 0
	li t0, 0
	ecall

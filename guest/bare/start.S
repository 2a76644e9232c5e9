/* start.S - reset entry of C firmware for the bare platform: gp, sp, a
 * cleared .bss, then main(); its return value leaves through tohost
 * (bare_exit). Traps go to bare_trap_entry until the firmware installs its
 * own handler; that one stops the run with exit code 0x7ff | mcause bits
 * so an unexpected trap is never silent. */
	.section .text.init, "ax"
	.globl _start
_start:
	.option push
	.option norelax
	la gp, __global_pointer$
	.option pop
	la sp, __stack_top
	la t0, bare_trap_entry
	csrw mtvec, t0
	la t0, __bss_start
	la t1, __bss_end
1:	bgeu t0, t1, 2f
	sw zero, 0(t0)
	addi t0, t0, 4
	j 1b
2:	call main
	call bare_exit
3:	j 3b

	.align 2
	.globl bare_trap_entry
bare_trap_entry:	/* unexpected trap: exit code 100 + mcause (low bits) */
	csrr a0, mcause
	andi a0, a0, 0x1f
	addi a0, a0, 100
	call bare_exit
4:	j 4b

	/* HTIF words: the host finds them by these symbols */
	.section .tohost, "aw", @progbits
	.align 6
	.globl tohost
tohost:	.dword 0
	.align 6
	.globl fromhost
fromhost: .dword 0

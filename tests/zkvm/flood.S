/* flood.S - WRITEs 1 MiB of public values (fd 3) 300 times: the 257th
 * would take them past the 256 MiB a guest may write (docs/robustness.md),
 * so the run stops there with exit status 254, after 256 WRITEs. */
	.globl _start
_start:
	li s0, 0           /* WRITEs done */
	li s1, 300
1:	li a0, 3           /* fd: public values */
	la a1, buf
	li a2, 1 << 20
	li t0, 2           /* WRITE */
	ecall
	addi s0, s0, 1
	blt s0, s1, 1b
	li a0, 0
	li t0, 0           /* HALT */
	ecall

	.bss
buf:	.space 1 << 20

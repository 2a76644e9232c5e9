/* unconstrained_big.S - 64 MiB of memory in use (a word stored in each of
 * 16384 pages from 0x20000000), then 1000 unconstrained blocks that each
 * overwrite the first of those words and store into a page never touched
 * before (0x50000000). After every block the word must read 16384 again
 * and the fresh page zero: exit 0 if they always do, 1 at the first that
 * does not. A block must cost what it touches: the run holds no second
 * copy of the 64 MiB (tests/zkvm/tests.sh measures its peak memory). */
	.globl _start
_start:
	li t1, 0x20000000
	li t2, 16384
	li t3, 4096
touch:
	sw t2, 0(t1)
	add t1, t1, t3
	addi t2, t2, -1
	bnez t2, touch
	li t1, 0x20000000    /* the first page holds 16384, stored first */
	li s1, 1000          /* rounds */
round:
	li t0, 3             /* ENTER_UNCONSTRAINED */
	ecall
	beqz t0, after
	li t2, 99
	sw t2, 0(t1)
	li t4, 0x50000000
	sw t2, 0(t4)
	li t0, 4             /* EXIT_UNCONSTRAINED */
	ecall
after:
	lw t2, 0(t1)
	li t3, 16384
	bne t2, t3, bad
	li t4, 0x50000000
	lw t2, 0(t4)
	bnez t2, bad
	addi s1, s1, -1
	bnez s1, round
	li a0, 0
	li t0, 0             /* HALT */
	ecall
bad:
	li a0, 1
	li t0, 0
	ecall

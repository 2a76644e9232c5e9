/* unconstrained_hot.S - a function made hot outside unconstrained blocks
 * (so that the translation tier compiles it) is then called inside one:
 * there the interpreter must run through the translated code's entry, as
 * no translated code runs in a block. The label sp1_zkvm_marker makes the
 * ABI SP1's. Counted at one cycle an instruction: li s1 (1); 200 rounds of
 * li a0 + call (auipc, jalr: no relaxation) + 1000 x (addi, bnez) + ret +
 * addi + bnez = 2006 each (401200); li t0 + the ecall that enters (2); the
 * exit puts the clock back to 401203 and its ecall retires in the enter's
 * place; then beqz, li a0, li t0 and the halting ecall (4): 401207 cycles,
 * exit code 7. */
	.globl _start
_start:
	li s1, 200
warm:
	li a0, 1000
	call count
	addi s1, s1, -1
	bnez s1, warm
	li t0, 3             /* ENTER_UNCONSTRAINED */
	ecall                /* t0 = 1, then 0 after the exit */
	beqz t0, after
	li a0, 1000
	call count           /* the hot function, inside the block */
	li t0, 4             /* EXIT_UNCONSTRAINED */
	ecall
after:
	li a0, 7
	li t0, 0             /* HALT */
	ecall

count:
	addi a0, a0, -1
	bnez a0, count
	ret

	.globl sp1_zkvm_marker
sp1_zkvm_marker:
	nop

/* entry.S - the start of a zkVM (SP1/Pico-style) guest: sets gp and sp as
 * the SDKs' entry does, calls main and halts with its return value (the
 * Ethereum zkVM standard's termination: 0 succeeds, anything else fails
 * with that code). The marker label names the ABI, so that cyclops
 * detects it (docs/zkvm.md). */
#if __riscv_xlen == 64
#define STACK_TOP 0x78000000 /* SP1 v6's: the stack below, the program above */
#else
#define STACK_TOP 0x00200400 /* SP1's: the stack grows down from here */
#endif

	.section .text.start, "ax"
	.globl _start
_start:
	.option push
	.option norelax
	la gp, __global_pointer$
	.option pop
	li sp, STACK_TOP
	call main
	li t0, 0 /* HALT, exit code in a0 */
	ecall
#ifdef CY_ZKVM_PICO
	.globl pico_sdk_c_entry
pico_sdk_c_entry:
#else
	.globl sp1_zkvm_c_entry
sp1_zkvm_c_entry:
#endif
	j _start

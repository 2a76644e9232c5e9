/* Start file for cyclops guests: the Linux user-mode entry point. It turns the
 * initial stack the loader built (argc, argv[], NULL, envp[], NULL, auxv) into
 * main(argc, argv, envp), then leaves through exit() so stdio gets flushed. */

#include <cyclops/syscall.h>

	/* Its own section so that link.ld can put _start first, at the start of text. */
	.section .text.start, "ax", @progbits
	.globl _start
	.type _start, @function
_start:
	/* Not relaxable: relaxing this would compute gp relative to gp itself. */
	.option push
	.option norelax
	la gp, __global_pointer$
	.option pop

	/* picolibc keeps errno in thread-local storage addressed through tp. With
	 * one thread the TLS image the loader put in memory is the block itself
	 * (link.ld reserves room for .tbss), so tp only has to point at it. */
	la tp, __tls_base

	/* The stack's words are XLEN bits wide: 4 bytes on RV32, 8 on RV64. */
#if __riscv_xlen == 64
#define LOAD_WORD ld
#define STORE_WORD sd
#define WORD_SHIFT 3
#else
#define LOAD_WORD lw
#define STORE_WORD sw
#define WORD_SHIFT 2
#endif
	LOAD_WORD s0, 0(sp)		/* argc */
	addi s1, sp, 1 << WORD_SHIFT	/* argv */
	slli t0, s0, WORD_SHIFT
	add s2, s1, t0
	addi s2, s2, 1 << WORD_SHIFT	/* envp: after argv's NULL terminator */

	/* Lets getenv() see the environment. */
	la t0, environ
	STORE_WORD s2, 0(t0)

	/* The psABI wants sp 16-byte aligned at every call; Linux gives that
	 * already, this keeps a less careful loader from breaking it. */
	andi sp, sp, -16

	/* Constructors (.preinit_array, .init_array). s0..s2 survive the call. */
	call __libc_init_array

	mv a0, s0
	mv a1, s1
	mv a2, s2
	call main

	/* exit() runs atexit handlers and destructors; lib/stdio.c flushes
	 * stdout and stderr from a destructor. It does not return. */
	call exit

	/* Not reached unless exit() is broken; make sure the program still ends. */
	li a7, CY_SYS_EXIT
	ecall
1:	j 1b
	.size _start, . - _start

# echo.S - reads up to 64 bytes from stdin and writes them back, for the
# debugger's input log (tests/run.sh, gdb layer): going back before the
# read and forward again must give the guest the same bytes without
# reading stdin again, and the output must appear once.
	.text
	.globl _start
_start:
	li a0, 0
	la a1, buf
	li a2, 64
	li a7, 63
	ecall
	mv s1, a0
	.globl after_read
after_read:
	li a0, 1
	la a1, buf
	mv a2, s1
	li a7, 64
	ecall
	.globl done
done:
	li a0, 0
	li a7, 93
	ecall

	.bss
	.globl buf
buf:
	.space 64

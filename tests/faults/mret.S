# A Linux user program that executes mret: on the linux platform it is an
# illegal instruction (user mode has no machine-mode instructions), and the
# report says so; under --platform bare it would be a trap return.
    .text
    .globl _start
_start:
    mret

# Bare firmware (it has a tohost symbol) whose trap handler is itself an
# ecall: the ecall at mtvec would trap to itself forever without spending a
# cycle, so cyclops stops with a report instead (docs/bare-metal.md).
    .text
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    .align 2
handler:
    ecall

    .data
    .globl tohost
tohost: .dword 0

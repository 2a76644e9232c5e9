# Bare firmware whose trap handler's first instruction loads from address 0,
# where the machine has no memory: the load access fault would trap to the
# handler again and again without spending a cycle (fuzz/regressions/exec/
# timeout-a66fc883 found it), so cyclops stops with a report instead.
    .text
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    li a0, 0
    lw a1, 0(a0)
    .align 2
handler:
    lw a1, 0(a0)

    .data
    .globl tohost
tohost: .dword 0

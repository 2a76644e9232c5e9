# Mangled names are shown demangled (libiberty): a C++ function
# _ZN3foo3barEv is foo::bar() (N...E nests the names "foo" and "bar", v: no
# parameters); a Rust legacy one, _ZN7mycrate4work17h0123456789abcdefE, is
# mycrate::work (its last part, h and 16 hex digits, is the hash, dropped);
# a Rust v0 one, _RNvCs1234_7mycrate6helper, is mycrate::helper (Nv: a value
# in the namespace of Cs1234_7mycrate, the crate "mycrate" with its
# disambiguator). Exit status 0.
#
#   _start:          jal, jal, li a0, li a7           = 4, ecall 1
#   foo::bar():      li, ret                          = 2
#   mycrate::work:   mv, jal, mv, ret                 = 4
#   mycrate::helper: ret                              = 1
#   total 4 + 1 + 2 + 4 + 1                           = 12
# EXPECT-EXIT: 0
# EXPECT-CYCLES: 12
# EXPECT-FOLDED: _start 4
# EXPECT-FOLDED: _start;[ecall exit] 1
# EXPECT-FOLDED: _start;foo::bar() 2
# EXPECT-FOLDED: _start;mycrate::work 4
# EXPECT-FOLDED: _start;mycrate::work;mycrate::helper 1
# EXPECT-PPROF: mycrate::work flat 4 cum 5

    .option norvc
    .text
    .globl _start
    .type _start, @function
_start:
    jal ra, _ZN3foo3barEv
    jal ra, _ZN7mycrate4work17h0123456789abcdefE
    li a0, 0
    li a7, 93
    ecall
    .size _start, .-_start

    .type _ZN3foo3barEv, @function
_ZN3foo3barEv:
    li t0, 1
    ret
    .size _ZN3foo3barEv, .-_ZN3foo3barEv

    .type _ZN7mycrate4work17h0123456789abcdefE, @function
_ZN7mycrate4work17h0123456789abcdefE:
    mv t2, ra
    jal ra, _RNvCs1234_7mycrate6helper
    mv ra, t2
    ret
    .size _ZN7mycrate4work17h0123456789abcdefE, .-_ZN7mycrate4work17h0123456789abcdefE

    .type _RNvCs1234_7mycrate6helper, @function
_RNvCs1234_7mycrate6helper:
    ret
    .size _RNvCs1234_7mycrate6helper, .-_RNvCs1234_7mycrate6helper

# Never ends: a two-instruction loop in the function `spin`. With
# --max-cycles N, cyclops must stop it after exactly N cycles (unit model:
# N instructions) and name the place.
    .text
    .globl _start
_start:
    .option norvc
    li t0, 0          # 1 instruction before the loop
    j spin            # 2
    .globl spin
    .type spin, @function
spin:
    addi t0, t0, 1
    j spin
    .size spin, . - spin

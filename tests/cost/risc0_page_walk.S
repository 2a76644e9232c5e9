# A loop whose every iteration calls a function that loads from and stores
# to a page it has not touched yet (1 KiB apart, 96 of them), and loads a
# word that starts 2 bytes before the next page (misaligned, over two
# pages: the next page in, but for the last iteration's), so that under
# risc0 page-ins and page-outs fall inside code that runs translated:
# the region must leave before each such access (the interpreter prices
# it) and go on after it, with every profiler on, as the interpreter does.
# The jit layer compares the two engines' outputs byte for byte
# (tests/engines.sh) and checks that the loop ran translated. Under the
# unit model it is 2 + 96 * 10 + 3 = 965 instructions:
# EXPECT-INSTRUCTIONS: 965
# EXPECT-CYCLES unit: 965

    .text
    .globl _start
_start:
    li s0, 96              # 1 instruction (addi)
    lui s1, 0x200          # page 2048
loop:                      # 10 instructions an iteration, touch's 5 included
    mv a0, s1
    jal ra, touch
    addi s1, s1, 1024
    addi s0, s0, -1
    bnez s0, loop
    li a0, 0
    li a7, 93
    ecall

    .type touch, @function
touch:
    lw t0, 0(a0)           # a new page: in
    addi t0, t0, 1
    sw t0, 0(a0)           # and out
    lw t1, 1022(a0)        # misaligned, over into the next page: in
    ret
    .size touch, . - touch

# decode_cases.S - the cases of tests/unit/test_decode.c. GNU as encodes
# each instruction; the text after it is what cyclops must print, written by
# hand from the RISC-V specification (objdump "-M no-aliases,numeric" style,
# compressed forms as their 32-bit expansion, absolute branch targets).
#
#   case "TEXT", INSN            INSN at pc 0x10000 disassembles as TEXT
#   case_at PC, "TEXT", INSN     the same at PC (pc-relative targets: the
#                                encoding holds only the offset, so the case
#                                says which pc the test decodes it at)
#   illegal INSN                 INSN must be rejected (cy_disasm returns 0)
#
# Each case adds its words to .text and a record to .cases: pc, offset of
# the instruction in .text, its length, INSN as written, TEXT ("" for an
# illegal one). The Makefile links the object (no relaxation) so that every
# offset is resolved; the test reads both sections from that ELF.

	.include "decode_case.inc"

	.text
.Ltext0:
	# 32-bit instructions: no compression behind our back.
	.option norvc

	# ---- RV32I: lui, auipc (the operand is the 20-bit field, in hex)
	case "lui x1,0x12345", lui x1, 0x12345
	case "lui x31,0xfffff", lui x31, 0xfffff
	case "lui x5,0x80000", lui x5, 0x80000
	case "lui x0,0x0", lui x0, 0
	case "auipc x1,0x12345", auipc x1, 0x12345
	case "auipc x0,0x0", auipc x0, 0
	case "auipc x31,0x80000", auipc x31, 0x80000
	# pc + imm wraps past 4 GiB; the field printed is still the encoded one
	case_at 0xfffff000, "auipc x2,0xfffff", auipc x2, 0xfffff

	# ---- jal: target = pc + offset, offsets -1 MiB .. 1 MiB - 2
	case_at 0x10000, "jal x1,0x10074", jal x1, . + 0x74
	case_at 0x10000, "jal x5,0x10000", jal x5, .
	case_at 0x200000, "jal x0,0x2ffffe", jal x0, . + 1048574
	case_at 0x200000, "jal x1,0x100000", jal x1, . - 1048576
	case_at 0x10000, "jal x31,0xfffe", jal x31, . - 2
	# every offset bit on its own group: 0x55554 and 0xaaaaa
	case_at 0x100000, "jal x0,0x155554", jal x0, . + 0x55554
	case_at 0x100000, "jal x0,0x1aaaaa", jal x0, . + 0xaaaaa
	# wrap-around at both ends of the address space
	case_at 0x0, "jal x0,0xfffffffc", jal x0, . - 4
	case_at 0xfffffffc, "jal x1,0x4", jal x1, . + 8

	# ---- jalr: imm(rs1)
	case "jalr x1,0(x2)", jalr x1, 0(x2)
	case "jalr x0,0(x1)", jalr x0, 0(x1)
	case "jalr x5,-2048(x31)", jalr x5, -2048(x31)
	case "jalr x31,2047(x6)", jalr x31, 2047(x6)

	# ---- branches: offsets -4096 .. 4094
	case_at 0x10000, "beq x1,x2,0x10ffe", beq x1, x2, . + 4094
	case_at 0x10000, "beq x0,x0,0xf000", beq x0, x0, . - 4096
	case_at 0x10000, "bne x3,x4,0xf000", bne x3, x4, . - 4096
	case_at 0x10000, "bne x31,x30,0x10ffe", bne x31, x30, . + 4094
	case_at 0x10000, "blt x5,x6,0x10008", blt x5, x6, . + 8
	case_at 0x10000, "blt x0,x31,0x10554", blt x0, x31, . + 0x554
	case_at 0x10000, "bge x31,x0,0xfffe", bge x31, x0, . - 2
	case_at 0x10000, "bge x1,x1,0x10aaa", bge x1, x1, . + 0xaaa
	case_at 0x10000, "bltu x0,x31,0x10074", bltu x0, x31, . + 0x74
	case_at 0x10000, "bltu x8,x9,0xf800", bltu x8, x9, . - 2048
	case_at 0x10000, "bgeu x10,x11,0x10000", bgeu x10, x11, .
	case_at 0x10000, "bgeu x12,x13,0x10800", bgeu x12, x13, . + 2048
	case_at 0x0, "beq x1,x2,0xfffff000", beq x1, x2, . - 4096

	# ---- loads and stores: imm(rs1), imm -2048 .. 2047
	case "lb x1,-2048(x2)", lb x1, -2048(x2)
	case "lb x0,0(x1)", lb x0, 0(x1)
	case "lh x3,2047(x4)", lh x3, 2047(x4)
	case "lw x1,8(x2)", lw x1, 8(x2)
	case "lw x0,0(x0)", lw x0, 0(x0)
	case "lw x31,-1(x31)", lw x31, -1(x31)
	case "lbu x31,0(x31)", lbu x31, 0(x31)
	case "lbu x5,2047(x6)", lbu x5, 2047(x6)
	case "lhu x0,-1(x1)", lhu x0, -1(x1)
	case "lhu x7,-2048(x8)", lhu x7, -2048(x8)
	case "sb x3,-2048(x2)", sb x3, -2048(x2)
	case "sb x0,0(x0)", sb x0, 0(x0)
	case "sh x31,2047(x1)", sh x31, 2047(x1)
	case "sh x5,-2(x6)", sh x5, -2(x6)
	case "sw x3,8(x2)", sw x3, 8(x2)
	case "sw x0,-4(x2)", sw x0, -4(x2)
	case "sw x31,2047(x31)", sw x31, 2047(x31)
	case "sw x1,-2048(x1)", sw x1, -2048(x1)

	# ---- OP-IMM: imm -2048 .. 2047; shifts print shamt in hex
	case "addi x1,x2,-5", addi x1, x2, -5
	case "addi x1,x2,-2048", addi x1, x2, -2048
	case "addi x31,x31,2047", addi x31, x31, 2047
	case "addi x0,x0,0", addi x0, x0, 0
	case "addi x0,x1,1", addi x0, x1, 1
	case "slti x1,x2,-2048", slti x1, x2, -2048
	case "slti x3,x4,2047", slti x3, x4, 2047
	case "sltiu x1,x2,-1", sltiu x1, x2, -1
	case "sltiu x5,x6,1", sltiu x5, x6, 1
	case "xori x1,x2,-1", xori x1, x2, -1
	case "xori x0,x31,2047", xori x0, x31, 2047
	case "ori x1,x2,2047", ori x1, x2, 2047
	case "ori x9,x10,-2048", ori x9, x10, -2048
	case "andi x1,x2,-2048", andi x1, x2, -2048
	case "andi x11,x12,255", andi x11, x12, 255
	case "slli x1,x2,0x0", slli x1, x2, 0
	case "slli x1,x2,0x1f", slli x1, x2, 31
	case "slli x0,x31,0x10", slli x0, x31, 16
	case "srli x3,x4,0x1", srli x3, x4, 1
	case "srli x31,x31,0x1f", srli x31, x31, 31
	case "srai x1,x2,0x1f", srai x1, x2, 31
	case "srai x5,x6,0x0", srai x5, x6, 0
	case "srai x7,x8,0x15", srai x7, x8, 21

	# ---- OP
	case "add x1,x2,x3", add x1, x2, x3
	case "add x0,x0,x0", add x0, x0, x0
	case "sub x31,x0,x1", sub x31, x0, x1
	case "sub x1,x2,x3", sub x1, x2, x3
	case "sll x4,x5,x6", sll x4, x5, x6
	case "slt x7,x8,x9", slt x7, x8, x9
	case "sltu x10,x11,x12", sltu x10, x11, x12
	case "sltu x13,x0,x14", sltu x13, x0, x14
	case "xor x15,x16,x17", xor x15, x16, x17
	case "srl x18,x19,x20", srl x18, x19, x20
	case "sra x21,x22,x23", sra x21, x22, x23
	case "or x24,x25,x26", or x24, x25, x26
	case "and x27,x28,x29", and x27, x28, x29
	case "and x0,x30,x31", and x0, x30, x31

	# ---- fences, ecall, ebreak
	case "fence iorw,iorw", fence iorw, iorw
	case "fence iorw,iorw", fence
	case "fence r,w", fence r, w
	case "fence rw,rw", fence rw, rw
	case "fence ow,ir", fence ow, ir
	case "fence i,o", fence i, o
	# fence.tso (fm 1000, rw,rw): an ordinary fence rw,rw is at least as strong
	case "fence rw,rw", fence.tso
	# pause (Zihintpause) is fence w,0: a HINT
	case "fence w,0", .insn i 0x0f, 0, x0, x0, 0x010
	# rd, rs1 (and for fence.i the immediate) are reserved and ignored
	case "fence iorw,iorw", .insn i 0x0f, 0, x1, x2, 0x0ff
	case "fence.i", fence.i
	case "fence.i", .insn i 0x0f, 1, x1, x2, 5
	case "ecall", ecall
	case "ebreak", ebreak
	# machine mode (privileged spec): mret 0x30200073, wfi 0x10500073;
	# they decode, and only the bare platform executes them
	case "mret", mret
	case "wfi", wfi

	# ---- Zicsr: names for the CSRs cyclops knows (csr.h: the counters,
	# ZERO-RISCY's PCER/PCMR/PCCRs, the HPM family), else hex
	case "csrrs x1,cycle,x0", csrrs x1, cycle, x0
	case "csrrs x2,time,x0", csrrs x2, time, x0
	case "csrrs x3,instret,x0", csrrs x3, instret, x0
	case "csrrs x4,cycleh,x0", csrrs x4, cycleh, x0
	case "csrrs x5,timeh,x0", csrrs x5, timeh, x0
	case "csrrs x6,instreth,x0", csrrs x6, instreth, x0
	case "csrrw x0,pcer,x5", csrrw x0, 0x7a0, x5
	case "csrrw x1,instret,x2", csrrw x1, instret, x2
	case "csrrs x1,0x0,x0", csrrs x1, 0x000, x0
	case "csrrs x1,hpmcounter3,x0", csrrs x1, 0xc03, x0
	case "csrrs x1,mcycle,x0", csrrs x1, 0xb00, x0
	case "csrrs x1,pcer,x0", csrrs x1, 0x7a0, x0
	case "csrrc x31,0xfff,x31", csrrc x31, 0xfff, x31
	case "csrrc x7,cycle,x0", csrrc x7, cycle, x0
	case "csrrwi x1,pcer,31", csrrwi x1, 0x7a0, 31
	case "csrrwi x0,timeh,0", csrrwi x0, timeh, 0
	case "csrrsi x1,instret,5", csrrsi x1, instret, 5
	case "csrrsi x9,0x800,31", csrrsi x9, 0x800, 31
	case "csrrs x1,0xb01,x0", csrrs x1, 0xb01, x0
	case "csrrw x0,pccr31,x1", csrrw x0, 0x79f, x1
	case "csrrs x2,mhpmevent31,x0", csrrs x2, 0x33f, x0
	case "csrrs x3,mhpmcounter17h,x0", csrrs x3, 0xb91, x0
	case "csrrci x0,cycle,0", csrrci x0, cycle, 0
	case "csrrci x31,instreth,16", csrrci x31, instreth, 16

	# ---- M
	case "mul x1,x2,x3", mul x1, x2, x3
	case "mul x0,x31,x30", mul x0, x31, x30
	case "mulh x4,x5,x6", mulh x4, x5, x6
	case "mulhsu x7,x8,x9", mulhsu x7, x8, x9
	case "mulhu x10,x11,x12", mulhu x10, x11, x12
	case "div x13,x14,x15", div x13, x14, x15
	case "divu x16,x17,x18", divu x16, x17, x18
	case "rem x19,x20,x21", rem x19, x20, x21
	case "remu x22,x23,x24", remu x22, x23, x24
	case "remu x31,x0,x0", remu x31, x0, x0

	# ---- A: rd, rs2, (rs1); aq/rl do not change the text
	case "lr.w x1,(x2)", lr.w x1, (x2)
	case "lr.w x31,(x0)", lr.w.aq x31, (x0)
	case "sc.w x1,x3,(x2)", sc.w x1, x3, (x2)
	case "sc.w x0,x31,(x30)", sc.w.rl x0, x31, (x30)
	case "amoswap.w x1,x3,(x2)", amoswap.w x1, x3, (x2)
	case "amoswap.w x0,x3,(x2)", amoswap.w x0, x3, (x2)
	case "amoadd.w x1,x3,(x2)", amoadd.w x1, x3, (x2)
	case "amoadd.w x4,x5,(x6)", amoadd.w.aqrl x4, x5, (x6)
	case "amoxor.w x7,x8,(x9)", amoxor.w x7, x8, (x9)
	case "amoand.w x10,x11,(x12)", amoand.w x10, x11, (x12)
	case "amoor.w x13,x14,(x15)", amoor.w.aq x13, x14, (x15)
	case "amomin.w x16,x17,(x18)", amomin.w x16, x17, (x18)
	case "amomax.w x19,x20,(x21)", amomax.w.rl x19, x20, (x21)
	case "amominu.w x22,x23,(x24)", amominu.w x22, x23, (x24)
	case "amomaxu.w x25,x26,(x27)", amomaxu.w x25, x26, (x27)

	# ---- C, quadrant 0
	.option rvc
	case "addi x8,x2,4", c.addi4spn x8, sp, 4
	case "addi x15,x2,1020", c.addi4spn x15, sp, 1020
	case "addi x9,x2,336", c.addi4spn x9, sp, 336
	case "addi x10,x2,680", c.addi4spn x10, sp, 680
	case "lw x8,0(x9)", c.lw x8, 0(x9)
	case "lw x15,124(x8)", c.lw x15, 124(x8)
	case "lw x10,64(x11)", c.lw x10, 64(x11)
	case "lw x9,4(x10)", c.lw x9, 4(x10)
	case "lw x12,40(x13)", c.lw x12, 40(x13)
	case "sw x9,124(x15)", c.sw x9, 124(x15)
	case "sw x8,0(x8)", c.sw x8, 0(x8)
	case "sw x12,68(x13)", c.sw x12, 68(x13)
	case "sw x14,56(x11)", c.sw x14, 56(x11)

	# ---- C, quadrant 1
	case "addi x0,x0,0", c.nop
	case "addi x10,x10,1", c.addi x10, 1
	case "addi x31,x31,-32", c.addi x31, -32
	case "addi x1,x1,31", c.addi x1, 31
	case "addi x5,x5,-1", c.addi x5, -1
	# HINTs (nzimm 0, rd x0): valid, they do nothing
	case "addi x1,x1,0", c.addi x1, 0
	case "addi x0,x0,5", c.addi x0, 5
	case_at 0x10000, "jal x1,0x107fe", c.jal . + 2046
	case_at 0x10000, "jal x1,0xf800", c.jal . - 2048
	case_at 0x10000, "jal x1,0x10554", c.jal . + 0x554
	case_at 0x10000, "jal x1,0x102aa", c.jal . + 0x2aa
	case_at 0x10000, "jal x1,0xfffe", c.jal . - 2
	case "addi x10,x0,-1", c.li x10, -1
	case "addi x31,x0,31", c.li x31, 31
	case "addi x1,x0,-32", c.li x1, -32
	case "addi x2,x0,0", c.li x2, 0
	case "addi x0,x0,1", c.li x0, 1
	case "addi x2,x2,-512", c.addi16sp sp, -512
	case "addi x2,x2,496", c.addi16sp sp, 496
	case "addi x2,x2,16", c.addi16sp sp, 16
	case "addi x2,x2,-16", c.addi16sp sp, -16
	case "addi x2,x2,416", c.addi16sp sp, 416
	case "addi x2,x2,80", c.addi16sp sp, 80
	case "lui x10,0xfffff", c.lui x10, 0xfffff
	case "lui x10,0x1", c.lui x10, 1
	case "lui x31,0x1f", c.lui x31, 31
	case "lui x3,0xfffe0", c.lui x3, 0xfffe0
	case "lui x1,0x15", c.lui x1, 0x15
	case "lui x4,0xfffea", c.lui x4, 0xfffea
	case "srli x8,x8,0x1f", c.srli x8, 31
	case "srli x15,x15,0x1", c.srli x15, 1
	case "srli x9,x9,0xa", c.srli x9, 10
	case "srai x8,x8,0x1f", c.srai x8, 31
	case "srai x12,x12,0x10", c.srai x12, 16
	case "srai x15,x15,0x1", c.srai x15, 1
	case "andi x8,x8,-32", c.andi x8, -32
	case "andi x15,x15,31", c.andi x15, 31
	case "andi x9,x9,0", c.andi x9, 0
	case "andi x10,x10,-1", c.andi x10, -1
	case "sub x8,x8,x15", c.sub x8, x15
	case "sub x15,x15,x8", c.sub x15, x8
	case "xor x9,x9,x10", c.xor x9, x10
	case "or x11,x11,x12", c.or x11, x12
	case "and x15,x15,x8", c.and x15, x8
	case "and x13,x13,x14", c.and x13, x14
	case_at 0x10000, "jal x0,0x107fe", c.j . + 2046
	case_at 0x10000, "jal x0,0xf800", c.j . - 2048
	case_at 0x10000, "jal x0,0x10554", c.j . + 0x554
	case_at 0x10000, "jal x0,0x102aa", c.j . + 0x2aa
	case_at 0x10000, "jal x0,0x10000", c.j .
	case_at 0x0, "jal x0,0xfffff800", c.j . - 2048
	case_at 0x10000, "beq x8,x0,0x100fe", c.beqz x8, . + 254
	case_at 0x10000, "beq x15,x0,0xff00", c.beqz x15, . - 256
	case_at 0x10000, "beq x9,x0,0x100aa", c.beqz x9, . + 0xaa
	case_at 0x10000, "beq x10,x0,0x10054", c.beqz x10, . + 0x54
	case_at 0x10000, "bne x9,x0,0x100aa", c.bnez x9, . + 0xaa
	case_at 0x10000, "bne x10,x0,0x10054", c.bnez x10, . + 0x54
	case_at 0x10000, "bne x15,x0,0xfffe", c.bnez x15, . - 2
	case_at 0x10000, "bne x8,x0,0x100fe", c.bnez x8, . + 254
	case_at 0x10000, "bne x11,x0,0xff00", c.bnez x11, . - 256

	# ---- C, quadrant 2
	case "slli x1,x1,0x1f", c.slli x1, 31
	case "slli x31,x31,0x1", c.slli x31, 1
	case "slli x10,x10,0x10", c.slli x10, 16
	case "slli x0,x0,0x1", c.slli x0, 1
	case "lw x1,252(x2)", c.lwsp x1, 252(sp)
	case "lw x31,0(x2)", c.lwsp x31, 0(sp)
	case "lw x10,164(x2)", c.lwsp x10, 164(sp)
	case "lw x2,88(x2)", c.lwsp x2, 88(sp)
	case "sw x1,252(x2)", c.swsp x1, 252(sp)
	case "sw x0,0(x2)", c.swsp x0, 0(sp)
	case "sw x31,164(x2)", c.swsp x31, 164(sp)
	case "sw x10,88(x2)", c.swsp x10, 88(sp)
	case "jalr x0,0(x1)", c.jr x1
	case "jalr x0,0(x31)", c.jr x31
	case "add x10,x0,x11", c.mv x10, x11
	case "add x31,x0,x1", c.mv x31, x1
	case "add x0,x0,x1", c.mv x0, x1
	case "ebreak", c.ebreak
	case "jalr x1,0(x5)", c.jalr x5
	case "jalr x1,0(x1)", c.jalr x1
	case "jalr x1,0(x31)", c.jalr x31
	case "add x10,x10,x11", c.add x10, x11
	case "add x31,x31,x31", c.add x31, x31
	case "add x0,x0,x5", c.add x0, x5

	# ---- a pc that is only 2-aligned (after a compressed instruction)
	.option norvc
	case_at 0x10002, "jal x1,0x10076", jal x1, . + 0x74
	case_at 0x10002, "bne x1,x2,0x10000", bne x1, x2, . - 2

	# ---- illegal: the all-zero and all-one words
	.option rvc
	illegal .word 0x00000000
	illegal .hword 0x0000
	illegal .word 0xffffffff

	# ---- illegal compressed encodings (fields: funct3 | ... | op)
	# c.addi4spn with nzuimm 0 (rd x9, x15)
	illegal .hword 0x0004
	illegal .hword 0x001c
	# c.addi16sp with nzimm 0
	illegal .hword 0x6101
	# c.lui with nzimm 0 (rd x10, x31)
	illegal .hword 0x6501
	illegal .hword 0x6f81
	# c.lwsp with rd x0 (offsets 0 and 252)
	illegal .hword 0x4002
	illegal .hword 0x507e
	# c.jr with rs1 x0
	illegal .hword 0x8002
	# quadrant 0, funct3 100: reserved
	illegal .hword 0x8004
	# RV64-only: c.subw, c.addw and the two reserved ones after them
	illegal .hword 0x9c05
	illegal .hword 0x9c25
	illegal .hword 0x9c45
	illegal .hword 0x9c65
	# shamt[5] = 1 is RV64-only: c.srli x8,32; c.srai x8,32; c.slli x1,32
	illegal .hword 0x9001
	illegal .hword 0x9401
	illegal .hword 0x1082
	# floating point (no F or D in RV32IMAC)
	.option push
	.option arch, +d
	illegal c.flw f8, 4(x9)
	illegal c.fld f8, 8(x9)
	illegal c.fsw f8, 4(x9)
	illegal c.fsd f8, 8(x9)
	illegal c.flwsp f1, 4(sp)
	illegal c.fldsp f1, 8(sp)
	illegal c.fswsp f1, 4(sp)
	illegal c.fsdsp f1, 8(sp)
	.option norvc
	illegal flw f1, 0(x2)
	illegal fsw f1, 0(x2)
	illegal fadd.s f1, f2, f3
	illegal fmadd.s f1, f2, f3, f4
	.option pop

	# ---- illegal 32-bit encodings
	.option norvc
	# slli/srli/srai with shamt[5] (bit 25) set: RV64 shifts by 32
	illegal .insn i 0x13, 1, x1, x2, 32
	illegal .insn i 0x13, 5, x1, x2, 32
	illegal .insn i 0x13, 5, x1, x2, 0x420
	# shifts with another funct7
	illegal .insn i 0x13, 1, x1, x2, 0x400
	illegal .insn i 0x13, 5, x1, x2, 0x201
	illegal .insn i 0x13, 5, x1, x2, 0x7ff
	# OP: funct7 0x20 only with add (sub) and srl (sra); unknown funct7
	illegal .insn r 0x33, 1, 0x20, x1, x2, x3
	illegal .insn r 0x33, 2, 0x20, x1, x2, x3
	illegal .insn r 0x33, 3, 0x20, x1, x2, x3
	illegal .insn r 0x33, 4, 0x20, x1, x2, x3
	illegal .insn r 0x33, 6, 0x20, x1, x2, x3
	illegal .insn r 0x33, 7, 0x20, x1, x2, x3
	illegal .insn r 0x33, 0, 0x40, x1, x2, x3
	illegal .insn r 0x33, 5, 0x40, x1, x2, x3
	illegal .insn r 0x33, 0, 0x02, x1, x2, x3
	illegal .insn r 0x33, 0, 0x21, x1, x2, x3
	illegal .insn r 0x33, 7, 0x7f, x1, x2, x3
	# branches with funct3 2 and 3
	illegal .insn b 0x63, 2, x1, x2, . + 8
	illegal .insn b 0x63, 3, x1, x2, . + 8
	# loads with funct3 3 (ld), 6 (lwu), 7
	illegal .insn i 0x03, 3, x1, 0(x2)
	illegal .insn i 0x03, 6, x1, 0(x2)
	illegal .insn i 0x03, 7, x1, 0(x2)
	# stores with funct3 3 (sd) .. 7
	illegal .insn s 0x23, 3, x3, 0(x2)
	illegal .insn s 0x23, 4, x3, 0(x2)
	illegal .insn s 0x23, 5, x3, 0(x2)
	illegal .insn s 0x23, 6, x3, 0(x2)
	illegal .insn s 0x23, 7, x3, 0(x2)
	# AMO: only .w (funct3 2) on RV32; lr.w needs rs2 x0; unknown funct5
	illegal .insn r 0x2f, 3, 0x00, x1, x2, x3
	illegal .insn r 0x2f, 3, 0x08, x1, x2, x0
	illegal .insn r 0x2f, 0, 0x00, x1, x2, x3
	illegal .insn r 0x2f, 7, 0x04, x1, x2, x3
	illegal .insn r 0x2f, 2, 0x08, x1, x2, x3
	illegal .insn r 0x2f, 2, 0x14, x1, x2, x3
	illegal .insn r 0x2f, 2, 0x18, x1, x2, x3
	illegal .insn r 0x2f, 2, 0x7c, x1, x2, x3
	# SYSTEM: funct3 4; privileged instructions of other modes (sret: no S
	# mode; mret and wfi are machine-mode cases above); ecall/ebreak with
	# other fields
	illegal .insn i 0x73, 4, x1, x2, -1024	# csr 0xc00
	illegal sret
	illegal .insn i 0x73, 0, x0, x0, 0x302 | 0x400	# mret with a bad funct7 bit
	illegal .insn i 0x73, 0, x1, x0, 0
	illegal .insn i 0x73, 0, x0, x1, 1
	illegal .insn i 0x73, 0, x0, x0, 2
	# jalr with funct3 != 0
	illegal .insn i 0x67, 1, x1, x2, 0
	illegal .insn i 0x67, 7, x1, x2, 0
	# MISC-MEM funct3 2..7 (cbo.* and reserved)
	illegal .insn i 0x0f, 2, x0, x0, 0
	illegal .insn i 0x0f, 7, x0, x0, 0
	# unknown major opcodes: custom-0..3, vector, RV64 OP-IMM-32 and OP-32,
	# reserved, and the 48-, 64- and 80-bit length prefixes
	illegal .insn i 0x0b, 0, x1, x2, 0
	illegal .insn i 0x2b, 0, x1, x2, 0
	illegal .insn i 0x5b, 0, x1, x2, 0
	illegal .insn i 0x7b, 0, x1, x2, 0
	illegal .insn r 0x57, 0, 0, x1, x2, x3
	illegal .insn i 0x1b, 0, x1, x2, 1
	illegal .insn r 0x3b, 0, 0, x1, x2, x3
	illegal .insn i 0x77, 0, x1, x2, 0
	illegal .word 0x0000001f
	illegal .word 0x0000003f
	illegal .word 0x0000007f

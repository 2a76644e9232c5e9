# decode_cases64.S - the RV64 cases of tests/unit/test_decode.c: what XLEN 64
# adds to RV32 or decodes otherwise (the rest decodes alike, and
# decode_cases.S has it). GNU as encodes each instruction; the text after it
# is what cyclops must print, written by hand from the RISC-V unprivileged
# specification (RV64I, "M" and "A" for RV64, "C" for RV64), in the style of
# decode_cases.S: objdump "-M no-aliases,numeric", compressed forms as their
# 32-bit expansion. Built as an ELFCLASS64 file, so the test decodes it at
# XLEN 64 (mk/unit.mk).

	.include "decode_case.inc"

	.text
.Ltext0:
	.option norvc

	# ---- loads and stores of doublewords, and lwu (zero-extends)
	case "ld x1,8(x2)", ld x1, 8(x2)
	case "ld x31,-2048(x0)", ld x31, -2048(x0)
	case "ld x0,2047(x31)", ld x0, 2047(x31)
	case "lwu x5,2047(x6)", lwu x5, 2047(x6)
	case "lwu x10,-4(x2)", lwu x10, -4(x2)
	case "sd x7,-8(x8)", sd x7, -8(x8)
	case "sd x31,2047(x0)", sd x31, 2047(x0)
	case "sd x0,-2048(x2)", sd x0, -2048(x2)

	# ---- shifts by 0..63: shamt[5] is bit 25
	case "slli x1,x2,0x3f", slli x1, x2, 63
	case "slli x1,x2,0x20", slli x1, x2, 32
	case "srli x3,x4,0x20", srli x3, x4, 32
	case "srli x3,x4,0x1f", srli x3, x4, 31
	case "srai x5,x6,0x2d", srai x5, x6, 45
	case "srai x5,x6,0x3f", srai x5, x6, 63

	# ---- OP-IMM-32: addiw (sext.w is addiw rd,rs,0), word shifts by 0..31
	case "addiw x1,x2,-1", addiw x1, x2, -1
	case "addiw x10,x10,0", addiw x10, x10, 0
	case "addiw x31,x0,2047", addiw x31, x0, 2047
	case "addiw x0,x1,-2048", addiw x0, x1, -2048
	case "slliw x1,x2,0x1f", slliw x1, x2, 31
	case "slliw x3,x4,0x0", slliw x3, x4, 0
	case "srliw x5,x6,0x10", srliw x5, x6, 16
	case "sraiw x7,x8,0x1", sraiw x7, x8, 1
	case "sraiw x31,x31,0x1f", sraiw x31, x31, 31

	# ---- OP-32: the word forms
	case "addw x1,x2,x3", addw x1, x2, x3
	case "subw x4,x5,x6", subw x4, x5, x6
	case "sllw x7,x8,x9", sllw x7, x8, x9
	case "srlw x10,x11,x12", srlw x10, x11, x12
	case "sraw x13,x14,x15", sraw x13, x14, x15
	case "mulw x16,x17,x18", mulw x16, x17, x18
	case "divw x19,x20,x21", divw x19, x20, x21
	case "divuw x22,x23,x24", divuw x22, x23, x24
	case "remw x25,x26,x27", remw x25, x26, x27
	case "remuw x28,x29,x30", remuw x28, x29, x30
	case "addw x0,x31,x0", addw x0, x31, x0

	# ---- A: the doubleword forms; aq/rl do not change the text
	case "lr.d x1,(x2)", lr.d x1, (x2)
	case "lr.d x31,(x0)", lr.d.aqrl x31, (x0)
	case "sc.d x3,x4,(x5)", sc.d x3, x4, (x5)
	case "amoswap.d x6,x7,(x8)", amoswap.d x6, x7, (x8)
	case "amoadd.d x9,x10,(x11)", amoadd.d.aq x9, x10, (x11)
	case "amoxor.d x12,x13,(x14)", amoxor.d x12, x13, (x14)
	case "amoand.d x15,x16,(x17)", amoand.d.rl x15, x16, (x17)
	case "amoor.d x18,x19,(x20)", amoor.d x18, x19, (x20)
	case "amomin.d x21,x22,(x23)", amomin.d x21, x22, (x23)
	case "amomax.d x24,x25,(x26)", amomax.d x24, x25, (x26)
	case "amominu.d x27,x28,(x29)", amominu.d x27, x28, (x29)
	case "amomaxu.d x30,x31,(x1)", amomaxu.d x30, x31, (x1)
	# the word forms are there at XLEN 64 too
	case "amoadd.w x1,x2,(x3)", amoadd.w x1, x2, (x3)

	# ---- C: the forms RV64 adds in the places of RV32's FP ones and c.jal
	.option rvc
	# c.ld/c.sd: uimm[5:3] in 12:10, uimm[7:6] in 6:5 (0..248, multiples of 8)
	case "ld x8,0(x9)", c.ld x8, 0(x9)
	case "ld x15,248(x15)", c.ld x15, 248(x15)
	case "ld x10,64(x11)", c.ld x10, 64(x11)
	case "ld x9,8(x8)", c.ld x9, 8(x8)
	case "sd x9,16(x10)", c.sd x9, 16(x10)
	case "sd x8,248(x15)", c.sd x8, 248(x15)
	case "sd x14,128(x13)", c.sd x14, 128(x13)
	# c.ldsp: uimm[5] in 12, [4:3] in 6:5, [8:6] in 4:2 (0..504)
	case "ld x1,0(x2)", c.ldsp x1, 0(sp)
	case "ld x31,504(x2)", c.ldsp x31, 504(sp)
	case "ld x10,32(x2)", c.ldsp x10, 32(sp)
	case "ld x5,456(x2)", c.ldsp x5, 456(sp)
	# c.sdsp: uimm[5:3] in 12:10, [8:6] in 9:7
	case "sd x0,0(x2)", c.sdsp x0, 0(sp)
	case "sd x31,504(x2)", c.sdsp x31, 504(sp)
	case "sd x1,448(x2)", c.sdsp x1, 448(sp)
	case "sd x8,56(x2)", c.sdsp x8, 56(sp)
	# c.addiw (RV32's c.jal): imm[5] in 12, [4:0] in 6:2
	case "addiw x10,x10,-32", c.addiw x10, -32
	case "addiw x1,x1,31", c.addiw x1, 31
	case "addiw x5,x5,0", c.addiw x5, 0
	case "addiw x31,x31,-1", c.addiw x31, -1
	# c.addw, c.subw (reserved on RV32)
	case "addw x8,x8,x9", c.addw x8, x9
	case "addw x15,x15,x15", c.addw x15, x15
	case "subw x15,x15,x14", c.subw x15, x14
	case "subw x8,x8,x10", c.subw x8, x10
	# shifts by 32..63: shamt[5] in bit 12
	case "slli x1,x1,0x3f", c.slli x1, 63
	case "slli x10,x10,0x20", c.slli x10, 32
	case "srli x8,x8,0x20", c.srli x8, 32
	case "srli x9,x9,0x3f", c.srli x9, 63
	case "srai x15,x15,0x21", c.srai x15, 33
	case "srai x8,x8,0x3f", c.srai x8, 63

	# ---- illegal at XLEN 64
	# c.addiw with rd x0; c.ldsp with rd x0; the two reserved forms after c.addw
	illegal .hword 0x2001
	illegal .hword 0x307d
	illegal .hword 0x6002
	illegal .hword 0x707e
	illegal .hword 0x9c45
	illegal .hword 0x9c65
	.option norvc
	# slliw/srliw/sraiw with shamt[5] (bit 25) set, and other funct7
	illegal .insn i 0x1b, 1, x1, x2, 32
	illegal .insn i 0x1b, 5, x1, x2, 32
	illegal .insn i 0x1b, 5, x1, x2, 0x420
	illegal .insn i 0x1b, 1, x1, x2, 0x400
	# OP-IMM-32 with funct3 2, 3, 4, 6, 7
	illegal .insn i 0x1b, 2, x1, x2, 0
	illegal .insn i 0x1b, 3, x1, x2, 0
	illegal .insn i 0x1b, 4, x1, x2, 0
	illegal .insn i 0x1b, 6, x1, x2, 0
	illegal .insn i 0x1b, 7, x1, x2, 0
	# OP-32: funct7 0x20 only with addw (subw) and srlw (sraw); M's funct3
	# 1..3 have no word form; unknown funct7
	illegal .insn r 0x3b, 1, 0x20, x1, x2, x3
	illegal .insn r 0x3b, 2, 0x00, x1, x2, x3
	illegal .insn r 0x3b, 3, 0x00, x1, x2, x3
	illegal .insn r 0x3b, 4, 0x00, x1, x2, x3
	illegal .insn r 0x3b, 6, 0x00, x1, x2, x3
	illegal .insn r 0x3b, 7, 0x00, x1, x2, x3
	illegal .insn r 0x3b, 1, 0x01, x1, x2, x3
	illegal .insn r 0x3b, 2, 0x01, x1, x2, x3
	illegal .insn r 0x3b, 3, 0x01, x1, x2, x3
	illegal .insn r 0x3b, 0, 0x40, x1, x2, x3
	# slli/srli/srai with another funct6
	illegal .insn i 0x13, 1, x1, x2, 0x400
	illegal .insn i 0x13, 5, x1, x2, 0x7ff
	# loads with funct3 7, stores with funct3 4..7
	illegal .insn i 0x03, 7, x1, 0(x2)
	illegal .insn s 0x23, 4, x3, 0(x2)
	illegal .insn s 0x23, 7, x3, 0(x2)
	# lr.d with rs2 set; AMO funct3 4 (no quadword); an unknown funct5
	illegal .insn r 0x2f, 3, 0x08, x1, x2, x3
	illegal .insn r 0x2f, 4, 0x00, x1, x2, x3
	illegal .insn r 0x2f, 3, 0x28, x1, x2, x3

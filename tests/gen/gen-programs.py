#!/usr/bin/env python3
"""gen-programs.py - random RV32IMC or RV64IMC Linux guests for the engines'
differential test (tests/engines.sh) and the differential runs against qemu:
each program has a few functions that call each other (calls, returns, tail
calls, calls through registers and t0-linked calls), counted loops, forward
branches, loads and stores, multiplies and divisions (by zero too), writes to
stdout with cycle-tracker lines, and ends by writing its registers to stdout
(so that a comparison sees every value they computed) and exit. RV64 programs
add the word (W) forms, doubleword loads and stores and 6-bit shifts. Every
program terminates, and soon: functions only call functions with a higher
number, every loop counts down, and every loop iteration spends one unit of
fuel (s4, 20000 units) whose end sends the program to its last words, so
that nested loops and calls cannot multiply into billions of instructions.

  tests/gen/gen-programs.py [--xlen 64] SEED COUNT DIR

writes DIR/gen-SEED-K.S (gen64-SEED-K.S for RV64) for K in 0..COUNT-1; the
same seed gives the same files.
"""

import os
import random
import sys

REGS = ["a0", "a1", "a2", "a3", "a4", "a5", "t1", "t2", "t3", "t4", "s1"]
ALU_RR = ["add", "sub", "xor", "or", "and", "sll", "srl", "sra", "slt", "sltu",
          "mul", "mulh", "mulhu", "mulhsu", "div", "divu", "rem", "remu"]
ALU_RI = ["addi", "xori", "ori", "andi", "slti", "sltiu"]
SHIFT_RI = ["slli", "srli", "srai"]
# what RV64 adds (the W forms compute on the low 32 bits, sign-extended)
ALU_RR_64 = ["addw", "subw", "sllw", "srlw", "sraw", "mulw", "divw", "divuw", "remw", "remuw"]
SHIFT_RI_64 = ["slliw", "srliw", "sraiw"]


class Gen:
    def __init__(self, rng, nfuncs, xlen):
        self.r = rng
        self.nfuncs = nfuncs
        self.xlen = xlen
        self.word = xlen // 8  # bytes of a register
        self.st = "sd" if xlen == 64 else "sw"
        self.ld = "ld" if xlen == 64 else "lw"
        self.label = 0
        self.out = []

    def emit(self, line):
        self.out.append("    " + line)

    def new_label(self):
        self.label += 1
        return f".L{self.label}"

    def reg(self):
        return self.r.choice(REGS)

    def straight(self, n):
        w64 = self.xlen == 64
        for _ in range(n):
            k = self.r.random()
            if k < 0.45:
                ops = ALU_RR + (ALU_RR_64 if w64 and self.r.random() < 0.4 else [])
                self.emit(f"{self.r.choice(ops)} {self.reg()}, {self.reg()}, {self.reg()}")
            elif k < 0.65:
                ops = ALU_RI + (["addiw"] if w64 else [])
                self.emit(f"{self.r.choice(ops)} {self.reg()}, {self.reg()}, "
                          f"{self.r.randint(-2048, 2047)}")
            elif k < 0.72:
                if w64 and self.r.random() < 0.4:
                    self.emit(f"{self.r.choice(SHIFT_RI_64)} {self.reg()}, {self.reg()}, "
                              f"{self.r.randint(0, 31)}")
                else:
                    self.emit(f"{self.r.choice(SHIFT_RI)} {self.reg()}, {self.reg()}, "
                              f"{self.r.randint(0, self.xlen - 1)}")
            elif k < 0.80:
                op = self.r.choice(["sw", "sd"] if w64 else ["sw"])
                off = 8 * self.r.randint(0, 31) if op == "sd" else 4 * self.r.randint(0, 63)
                self.emit(f"{op} {self.reg()}, {off}(s0)")
            elif k < 0.88:
                op = self.r.choice(["lw", "ld", "lwu"] if w64 else ["lw"])
                off = 8 * self.r.randint(0, 31) if op == "ld" else 4 * self.r.randint(0, 63)
                self.emit(f"{op} {self.reg()}, {off}(s0)")
            elif k < 0.92:
                off = self.r.randint(0, 255)
                op = self.r.choice(["lb", "lbu", "sb"])
                self.emit(f"{op} {self.reg()}, {off}(s0)")
            elif k < 0.95:  # a division by zero, whatever the model makes of it
                ops = ["div", "divu", "rem", "remu"] + (["divw", "remuw"] if w64 else [])
                self.emit(f"{self.r.choice(ops)} {self.reg()}, {self.reg()}, zero")
            else:
                self.emit(f"lui {self.reg()}, {self.r.randint(0, 0xfffff)}")

    def body(self, me, depth):
        for _ in range(self.r.randint(2, 6)):
            k = self.r.random()
            if k < 0.3:
                self.straight(self.r.randint(1, 8))
            elif k < 0.5:  # a counted loop
                top = self.new_label()
                cnt = "s2" if depth == 0 else "s3"
                self.emit(f"li {cnt}, {self.r.randint(1, 40)}")
                self.out.append(f"{top}:")
                self.straight(self.r.randint(1, 6))
                if depth == 0 and self.r.random() < 0.5:
                    self.body(me, depth + 1)
                self.emit(f"addi {cnt}, {cnt}, -1")
                self.emit("addi s4, s4, -1")
                self.emit("beqz s4, finish")
                self.emit(f"bnez {cnt}, {top}")
            elif k < 0.65:  # a forward branch on data
                skip = self.new_label()
                br = self.r.choice(["beq", "bne", "blt", "bge", "bltu", "bgeu"])
                self.emit(f"{br} {self.reg()}, {self.reg()}, {skip}")
                self.straight(self.r.randint(1, 5))
                self.out.append(f"{skip}:")
            elif k < 0.9 and me + 1 < self.nfuncs:  # a call
                callee = self.r.randint(me + 1, self.nfuncs - 1)
                how = self.r.random()
                if how < 0.6:
                    self.emit(f"call f{callee}")
                else:  # through a register
                    self.emit(f"la t6, f{callee}")
                    self.emit("jalr ra, 0(t6)")
            elif k < 0.95:  # a write with a cycle-tracker line
                self.emit(f"la a1, msg{self.r.randint(0, 1)}")
                self.emit("li a0, 1")
                self.emit("li a2, 23")
                self.emit("li a7, 64")
                self.emit("ecall")
            else:
                self.straight(2)

    def function(self, me):
        self.out.append(f"    .globl f{me}\n    .type f{me}, @function\nf{me}:")
        w, st, ld = self.word, self.st, self.ld
        self.emit("addi sp, sp, -32")
        self.emit(f"{st} ra, {3 * w}(sp)")
        self.emit(f"{st} s2, {2 * w}(sp)")
        self.emit(f"{st} s3, {w}(sp)")
        self.body(me, 0)
        self.emit(f"{ld} s3, {w}(sp)")
        self.emit(f"{ld} s2, {2 * w}(sp)")
        self.emit(f"{ld} ra, {3 * w}(sp)")
        self.emit("addi sp, sp, 32")
        if me + 1 < self.nfuncs and self.r.random() < 0.2:  # a tail call
            self.emit(f"tail f{self.r.randint(me + 1, self.nfuncs - 1)}")
        else:
            self.emit("ret")
        self.out.append(f"    .size f{me}, .-f{me}")

    def program(self, seed, k):
        rvc = self.r.random() < 0.5
        head = [f"# generated by tests/gen/gen-programs.py --xlen {self.xlen} {seed} "
                f"(program {k}): not edited",
                "    .option " + ("rvc" if rvc else "norvc"),
                "    .data", "buf: .space 512",
                'msg0: .ascii "cycle-tracker-start: x\\n"',
                'msg1: .ascii "cycle-tracker-end: x  \\n"',
                "    .text", "    .globl _start", "    .type _start, @function", "_start:",
                "    la s0, buf"]
        self.out = head
        for i, r in enumerate(REGS):
            self.emit(f"li {r}, {self.r.randint(-3000, 3000) * (i + 1)}")
        self.emit("li s4, 20000")
        for _ in range(self.r.randint(1, 3)):
            self.emit("call f0")
        # the registers to stdout, then exit (also when the fuel runs out)
        self.out.append("finish:")
        for i, r in enumerate(REGS):
            self.emit(f"{self.st} {r}, {i * self.word}(s0)")
        self.emit("mv a1, s0")
        self.emit("li a0, 1")
        self.emit(f"li a2, {len(REGS) * self.word}")
        self.emit("li a7, 64")
        self.emit("ecall")
        self.emit("li a0, 0")
        self.emit("li a7, 93")
        self.emit("ecall")
        self.out.append("    .size _start, .-_start")
        for f in range(self.nfuncs):
            self.function(f)
        return "\n".join(self.out) + "\n"


def main(argv):
    xlen = 32
    if argv[:1] == ["--xlen"] and len(argv) > 1:
        xlen, argv = int(argv[1]), argv[2:]
    if len(argv) != 3 or xlen not in (32, 64):
        sys.exit("usage: gen-programs.py [--xlen 32|64] SEED COUNT DIR")
    seed, count, out = int(argv[0]), int(argv[1]), argv[2]
    os.makedirs(out, exist_ok=True)
    for k in range(count):
        rng = random.Random(seed * 100003 + k + (7919 if xlen == 64 else 0))
        text = Gen(rng, rng.randint(2, 6), xlen).program(seed, k)
        name = f"gen-{seed}-{k}.S" if xlen == 32 else f"gen64-{seed}-{k}.S"
        with open(os.path.join(out, name), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])

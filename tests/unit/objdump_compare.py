#!/usr/bin/env python3
"""objdump_compare.py - cyclops's decoder and disassembler against GNU objdump's on
real compiled code, at both widths: every instruction objdump decodes in each
object file must decode in cyclops, at the XLEN of the file's ELF class, to the
same text (objdump -M no-aliases,numeric; its bare hex branch targets written
0x..., .aq/.rl dropped, comments and symbols cut); a compressed one to the
instruction it expands to (the mnemonic family only: cyclops prints the
expansion, objdump the c. form; decode_cases*.S has their operands).

  objdump_compare.py DISASM_WORDS OBJDUMP FILE...

Prints "ok - ..." / "not ok - ..." per file."""

import re
import subprocess
import sys

# c. forms whose expansion is not the name without "c."
EXPANDS = {"c.mv": "add", "c.li": "addi", "c.j": "jal", "c.jal": "jal", "c.jr": "jalr",
           "c.jalr": "jalr", "c.beqz": "beq", "c.bnez": "bne", "c.addi16sp": "addi",
           "c.addi4spn": "addi", "c.ldsp": "ld", "c.sdsp": "sd", "c.lwsp": "lw",
           "c.swsp": "sw", "c.nop": "addi", "c.ebreak": "ebreak"}
TARGETS = {"beq", "bne", "blt", "bge", "bltu", "bgeu", "jal"}
LINE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f]+)\s+\t(\S+)(?:\t(.*))?$")


def objdump_lines(objdump, path):
    out = subprocess.run([objdump, "-d", "-M", "no-aliases,numeric", path],
                         capture_output=True, text=True, check=True).stdout
    xlen = 64 if "elf64-littleriscv" in out else 32
    insns = []
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        pc, hexbits, mn, ops = m.group(1), m.group(2), m.group(3), m.group(4) or ""
        ops = re.sub(r"\s*#.*$", "", ops)
        ops = re.sub(r"\s*<[^>]*>", "", ops).strip()
        insns.append((int(pc, 16), hexbits, mn, ops))
    return xlen, insns


def expected(mn, ops):
    """objdump's text the way cyclops writes it, or (None, family) for a c. form."""
    if mn.startswith("c."):
        return None, EXPANDS.get(mn, mn[2:])
    mn = re.sub(r"\.(aqrl|aq|rl)$", "", mn)
    if mn in TARGETS:
        parts = ops.split(",")
        parts[-1] = "0x" + parts[-1]
        ops = ",".join(parts)
    return f"{mn} {ops}" if ops else mn, mn


def main(argv):
    words, objdump, files = argv[1], argv[2], argv[3:]
    failed = 0
    for path in files:
        xlen, insns = objdump_lines(objdump, path)
        feed = "".join(f"{xlen} {pc:x} {h}\n" for pc, h, _, _ in insns)
        got = subprocess.run([words], input=feed, capture_output=True, text=True,
                             check=True).stdout.splitlines()
        bad = []
        for (pc, h, mn, ops), text in zip(insns, got):
            want, family = expected(mn, ops)
            ok = text == want if want else text.split(" ")[0] == family
            if not ok:
                bad.append(f"0x{pc:x} {h}: objdump '{mn} {ops}', cyclops '{text}'")
        if len(got) != len(insns) or not insns:
            bad.append(f"{len(insns)} instructions, {len(got)} answers")
        name = f"disasm: {path.split('/')[-1]} (XLEN {xlen}): {len(insns)} instructions as objdump"
        if bad:
            failed += 1
            print(f"not ok - {name}: {len(bad)} differ, e.g. " + "; ".join(bad[:3]))
        else:
            print(f"ok - {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Checks a `cyclops hist --json` histogram against an independent answer.

  check.py expect SRC.S ELF HIST.json MODEL N
      the counts of SRC.S's "# EXPECT MODEL N: label=count ..." line, the
      labels' addresses read with nm (riscv64-unknown-elf-nm)
  check.py qemu QEMU.log HIST.json N
      under the unit model every instruction is one cycle, so the sample at
      clock kN counts the kN-th instruction executed: qemu-riscv32's
      -singlestep -d exec,nochain log lists them in order

Every pc with samples must be expected and every expected count must match;
prints what differs and exits 1 otherwise."""
import json
import re
import subprocess
import sys


def hist_counts(path):
    with open(path) as f:
        return {i["address"]: i["samples"] for i in json.load(f)["instructions"]}


def compare(want, got, names=None):
    bad = []
    for pc in sorted(set(want) | set(got)):
        if want.get(pc, 0) != got.get(pc, 0):
            label = names.get(pc, "") if names else ""
            bad.append(f"0x{pc:08x} {label}: expected {want.get(pc, 0)}, got {got.get(pc, 0)}")
    if bad:
        print("\n".join(bad))
        return 1
    return 0


def expect(src, elf, hist, model, n):
    line = None
    for text in open(src):
        m = re.match(rf"# EXPECT {re.escape(model)} {n}: (.*)", text)
        if m:
            line = m.group(1)
    if line is None:
        print(f"{src}: no EXPECT {model} {n} line")
        return 1
    nm = subprocess.run(["riscv64-unknown-elf-nm", elf], capture_output=True, text=True,
                        check=True).stdout
    addr = {}
    for row in nm.splitlines():
        parts = row.split()
        if len(parts) == 3:
            addr[parts[2]] = int(parts[0], 16)
    want = {}
    for item in line.split():
        label, count = item.split("=")
        want[addr[label]] = int(count)
    return compare(want, hist_counts(hist), {v: k for k, v in addr.items()})


def qemu(log, hist, n):
    pcs = re.findall(r"^Trace [0-9]+: [^\[]*\[[0-9a-f]*/([0-9a-f]+)/", open(log).read(), re.M)
    want = {}
    for pc in pcs[n - 1::n]:
        want[int(pc, 16)] = want.get(int(pc, 16), 0) + 1
    return compare(want, hist_counts(hist))


if __name__ == "__main__":
    if sys.argv[1] == "expect":
        sys.exit(expect(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])))
    sys.exit(qemu(sys.argv[2], sys.argv[3], int(sys.argv[4])))

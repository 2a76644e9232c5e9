#!/usr/bin/env python3
"""run-arch.py - riscv-arch-test through cyclops (make check-arch; see
docs/conformance.md). For each test of the suite's rv32i_m directories that
cyclops implements: pick the first RVTEST_CASE whose checks hold for
cyclops's ISA, build the test with that case's definitions and the in-tree
target (tests/arch/model_test.h, link.ld), run it with cyclops run
--signature, and compare the signature with the reference output the
suite's release carries.

    run-arch.py SUITE CYCLOPS WORKDIR [NAME-REGEX]

Prints "ok - arch: DIR/TEST" or "not ok - arch: DIR/TEST: why" per test,
then "N passed, N failed, N skipped"; exits 1 if any failed.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CROSS = os.environ.get("CROSS", "riscv64-unknown-elf-")

# What cyclops implements, as RISCOF's ISA string and its other checks.
ISA = "RV32IMACZicsr_Zifencei"
FACTS = {"hw_data_misaligned_support": "True"}
# The suite's directories for those extensions (F, K and the rest are not).
DIRS = ["I", "M", "C", "Zifencei", "privilege"]


def case_defs(src):
    """The definitions of the first RVTEST_CASE whose checks hold, or None
    with the reason when none does."""
    cases = re.findall(r'RVTEST_CASE\(\s*\d+\s*,\s*"([^"]*)"', src)
    if not cases:
        return None, "no RVTEST_CASE"
    for text in cases:
        ok = True
        for check in re.findall(r"check\s+([^;]*)", text):
            key, _, value = check.partition(":=")
            key, value = key.strip(), value.strip()
            m = re.fullmatch(r"regex\((.*)\)", value)
            if key == "ISA" and m:
                ok = ok and re.match(m.group(1), ISA) is not None
            elif key in FACTS:
                ok = ok and FACTS[key] == value
            else:
                ok = False  # a condition cyclops does not know
        if ok:
            defs = re.findall(r"def\s+([A-Za-z_0-9]+)\s*=\s*([^;\s]*)", text)
            if "hw_data_misaligned_support:=True" in text.replace(" ", ""):
                # the release's references come from a reference model that
                # traps misaligned accesses; cyclops performs them
                return None, "the reference is for hw_data_misaligned_support=False"
            return defs, None
    return None, "no RVTEST_CASE applies to " + ISA


def march_of(makefile):
    """The -march and -D flags of a suite directory's Makefile."""
    text = open(makefile).read()
    m = re.search(r"-march=(\S+)", text)
    march = m.group(1) if m else "rv32i"
    for ext in ("zicsr", "zifencei"):
        if ext not in march:
            march += "_" + ext
    return march, re.findall(r"-D(rvtest_\w+=\w+)", text)


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    suite, cyclops, work = sys.argv[1:4]
    only = re.compile(sys.argv[4]) if len(sys.argv) > 4 else None
    root = os.path.join(suite, "riscv-test-suite")
    env = os.path.join(root, "env")
    passed = failed = skipped = 0
    for d in DIRS:
        base = os.path.join(root, "rv32i_m", d)
        if not os.path.isdir(os.path.join(base, "src")):
            continue
        march, dir_defs = march_of(os.path.join(base, "Makefile"))
        os.makedirs(os.path.join(work, d), exist_ok=True)
        for name in sorted(os.listdir(os.path.join(base, "src"))):
            if not name.endswith(".S"):
                continue
            test = name[:-2]
            label = "rv32i_m/%s/%s" % (d, test)
            if only and not only.search(label):
                continue
            src = open(os.path.join(base, "src", name)).read()
            defs, why = case_defs(src)
            ref = os.path.join(base, "references", test + ".reference_output")
            if defs is None or not os.path.exists(ref):
                skipped += 1
                print("# skip - arch: %s: %s" % (label, why or "no reference output"))
                continue
            elf = os.path.join(work, d, test + ".elf")
            sig = os.path.join(work, d, test + ".signature")
            flags = ["-D%s=%s" % kv for kv in defs] + ["-D" + x for x in dir_defs]
            cc = subprocess.run(
                [CROSS + "gcc", "-march=" + march, "-mabi=ilp32", "-DXLEN=32", "-static",
                 "-mcmodel=medany", "-nostdlib", "-nostartfiles", "-I" + env, "-I" + HERE,
                 "-T", os.path.join(HERE, "link.ld"), "-o", elf,
                 os.path.join(base, "src", name)] + flags,
                capture_output=True, text=True)
            if cc.returncode != 0:
                failed += 1
                print("not ok - arch: %s: does not build: %s" %
                      (label, cc.stderr.strip().splitlines()[-1:]))
                continue
            run = subprocess.run(
                [cyclops, "run", "-q", "--platform", "bare", "--max-cycles", "100M",
                 "--signature", sig, elf], capture_output=True, text=True, timeout=300)
            want = [l.strip() for l in open(ref) if l.strip()]
            got = [l.strip() for l in open(sig)] if os.path.exists(sig) else []
            if run.returncode != 0:
                failed += 1
                print("not ok - arch: %s: exit %d: %s" %
                      (label, run.returncode, run.stderr.strip()[:200]))
            elif got != want:
                at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b),
                          min(len(got), len(want)))
                failed += 1
                print("not ok - arch: %s: signature differs at word %d (%s, reference %s; "
                      "%d words, reference %d)" %
                      (label, at, got[at] if at < len(got) else "-",
                       want[at] if at < len(want) else "-", len(got), len(want)))
            else:
                passed += 1
                print("ok - arch: %s" % label)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())

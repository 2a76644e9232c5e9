#!/usr/bin/env python3
"""check-docs.py - the documentation says what cyclops does (make check runs it):

  - no Markdown table is split by a blank line (the rows after it would
    render as a paragraph of pipes);
  - every example that shows a cyclops command and its output still gives
    that output: each "$ cyclops ..." or "$ build/cyclops ..." line in a code
    block is run (from a scratch directory that sees the tree's build/,
    guest/ and tests/), and the lines shown after it must come out in that
    order; "..." stands for lines left out, and the wall time and MIPS of
    the summary line may differ;
  - the instruction counts in guest/README.md's table of examples are what
    the examples execute. "..." inside a shown line stands for part of it.

  scripts/check-docs.py CYCLOPS      (prints "ok - ..." / "not ok - ...")
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md", "docs/*.md", "guest/README.md", "bench/*.md", "tests/*/README.md"]
# the tree as examples see it from the scratch directory
LINKED = ["build", "guest", "tests", "models", "examples"]

failures = 0


def result(ok, name, why=""):
    global failures
    if ok:
        print("ok - docs: " + name)
    else:
        failures += 1
        print("not ok - docs: %s: %s" % (name, why))


def doc_files():
    out = []
    for p in DOCS:
        out += sorted(glob.glob(os.path.join(ROOT, p)))
    return out


def is_row(line):
    return line.lstrip().startswith("|")


def is_separator(line):
    return re.match(r"^\s*\|?\s*:?-{3,}", line) is not None


def check_tables(path, lines):
    """A row after a blank line that does not start a table (a header row
    followed by a separator) is a table split by that blank line."""
    split = []
    for i, line in enumerate(lines):
        if (is_row(line) and i > 0 and not lines[i - 1].strip() and
                not (i + 1 < len(lines) and is_separator(lines[i + 1]))):
            split.append(str(i + 1))
    rel = os.path.relpath(path, ROOT)
    result(not split, "%s: no table split by a blank line" % rel,
           "rows after a blank line at line %s" % ", ".join(split))


def code_blocks(lines):
    """(first line number, [lines]) of each fenced or indented code block."""
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            blocks.append((i + 2, lines[i + 1:j]))
            i = j + 1
        elif lines[i].startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            blocks.append((i + 1, [l[4:] for l in lines[i:j]]))
            i = j
        else:
            i += 1
    return blocks


def normalise(line):
    line = line.rstrip()
    line = re.sub(r", [0-9.]+ s, [0-9.]+ MIPS$", ", TIME s, RATE MIPS", line)
    return line


def examples(block):
    """(offset, command, [shown output lines]) for the cyclops commands."""
    out = []
    for k, line in enumerate(block):
        m = re.match(r"^\s*\$ (?:build/)?cyclops (.*)$", line)
        if not m:
            continue
        shown = []
        for later in block[k + 1:]:
            if re.match(r"^\s*\$ ", later):
                break
            shown.append(later)
        while shown and not shown[-1].strip():
            shown.pop()
        cmd = re.sub(r"\s+#.*$", "", m.group(1))
        out.append((k, cmd, shown))
    return out


def check_example(rel, lineno, cmd, shown, cyclops, scratch):
    name = "%s:%d: cyclops %s" % (rel, lineno, cmd)
    try:
        r = subprocess.run(["sh", "-c", '"$CYCLOPS" ' + cmd], cwd=scratch, timeout=120,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=dict(os.environ, CYCLOPS=cyclops, NO_COLOR="1"))
    except subprocess.TimeoutExpired:
        result(False, name, "ran for more than 120 s")
        return
    got = [normalise(l) for l in r.stdout.decode("utf-8", "replace").splitlines()]
    at = 0
    for want in shown:
        if want.strip() in ("...", "") :
            continue
        w = normalise(want)
        # "..." inside a line stands for what it leaves out of the line
        pattern = re.compile(".*".join(re.escape(part) for part in re.split(r"\s*\.\.\.\s*", w))
                             + "$")
        while at < len(got) and not pattern.match(got[at]):
            at += 1
        if at == len(got):
            result(False, name, "the output no longer has the line shown: %r" % want.strip())
            return
        at += 1
    if r.returncode in (250, 251):  # usage or bad program: the example itself is stale
        result(False, name, "exits %d: %s" % (r.returncode, got[-1] if got else ""))
        return
    result(True, name + (" (%d lines shown)" % len([s for s in shown if s.strip() not in
                                                   ("", "...")])))


def check_example_table(cyclops, scratch):
    """guest/README.md: | `NAME` | what | INSTRUCTIONS |"""
    path = os.path.join(ROOT, "guest/README.md")
    stale = []
    n = 0
    for line in open(path):
        m = re.match(r"^\|\s*`(\w+)`\s*\|.*\|\s*~?([0-9,]+)\s*\|\s*$", line)
        if not m:
            continue
        n += 1
        # from the top of the tree: the guest's argv[0] is part of its work
        elf = "guest/build/%s.elf" % m.group(1)
        r = subprocess.run([cyclops, "run", "--out-dir", scratch, elf], cwd=ROOT, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=120)
        got = re.findall(rb"^cyclops: ([0-9]+) instructions", r.stderr, re.M)
        want = m.group(2).replace(",", "")
        if not got or got[-1].decode() != want:
            stale.append("%s: %s shown, %s run" % (m.group(1), m.group(2),
                                                   got[-1].decode() if got else "none"))
    result(n > 0 and not stale,
           "guest/README.md: the %d examples' instruction counts are what they execute" % n,
           "; ".join(stale) or "no rows found")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cyclops = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="cyclops-docs.") as scratch:
        for d in LINKED:
            os.symlink(os.path.join(ROOT, d), os.path.join(scratch, d))
        for path in doc_files():
            rel = os.path.relpath(path, ROOT)
            lines = open(path).read().splitlines()
            check_tables(path, lines)
            for first, block in code_blocks(lines):
                for k, cmd, shown in examples(block):
                    check_example(rel, first + k, cmd, shown, cyclops, scratch)
        check_example_table(cyclops, scratch)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""oracle.py - what a guest's source lines and inlined functions cost,
found without cyclops: qemu-riscv32's single-step trace counts every pc
(under the unit model a cycle is an instruction), binutils' decoded line
table (objdump --dwarf=decodedline: the last row at or below a pc) gives
its line, and addr2line -i the chain of functions inlined there (where
addr2line finds no unit, as for a main in .text.startup, the symbol's
function alone, from nm). Files are compared by their base name. The checks
compare cyclops's profiles, read by their own consumers (go tool pprof,
callgrind_annotate) or as text, with those counts.

    oracle.py pprof-lines ELF PROFILE.pb.gz SRC   go tool pprof -top -lines:
        every row of SRC has the flat count of the pcs whose innermost
        function and line it names, and no line of SRC is missing
    oracle.py pprof-list ELF PROFILE.pb.gz SRC FUNC...   go tool pprof -list:
        per line of each FUNC, flat (pcs whose innermost function is FUNC)
        and cum (pcs with FUNC anywhere in their inline chain, at the line
        FUNC is at there)
    oracle.py hot ELF PROFILE.pb.gz SRC   the top row of pprof -top -lines
        is the line marked HOT in SRC, in the function it is in
    oracle.py folded ELF FILE.folded FUNC PREFIX   the stacks under FUNC
        (a function that is only ever called as PREFIX;FUNC): PREFIX, FUNC
        and the functions inlined at each pc, outermost first, with the
        pcs' counts
    oracle.py callgrind ELF FILE.callgrind SRC   callgrind_annotate
        --auto=yes: every line of SRC has the count of the pcs at it
    oracle.py diff ELF_A ELF_B TEXT   cyclops diff's tables for the two runs:
        the total, every function whose pcs ran a different number of
        times (and no other) with that difference, and each span's change
        (the clock between its two write ecalls in the trace)
    oracle.py disasm ELF LISTING FUNC   pprof -disasm's listing of FUNC:
        each instruction row the count of its pc, every pc that ran listed
    oracle.py annotate ELF LISTING FUNC   cyclops annotate's listing of
        FUNC: each instruction row the count of its pc, every pc of FUNC
        that ran listed, each source line the count of FUNC's pcs at it
Prints one line per problem; exits 1 if there was any."""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

CROSS = os.environ.get("CROSS", "riscv64-unknown-elf-")
QEMU = os.environ.get("QEMU", "qemu-riscv32")
TRACE = re.compile(r"^Trace [0-9]+: [^[]*\[[0-9a-f]*/([0-9a-f]+)/")


def cached(kind, elf, make):
    """make(), kept in $ORACLE_CACHE (one test run's scratch) by the ELF's
    path and modification time: qemu's trace is the slow part."""
    d = os.environ.get("ORACLE_CACHE")
    if not d:
        return make()
    st = os.stat(elf)
    path = os.path.join(d, "%s-%s-%d-%d.json" % (kind, os.path.abspath(elf).replace("/", "_"),
                                                  st.st_mtime_ns, st.st_size))
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    v = make()
    with open(path, "w") as f:
        json.dump(v, f)
    return v


def counts(elf):
    """Executions of every pc, from qemu's single-step trace."""
    c = cached("counts", elf, lambda: {str(k): v for k, v in trace_counts(elf).items()})
    return collections.Counter({int(k): v for k, v in c.items()})


def trace_counts(elf):
    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        subprocess.run([QEMU, "-singlestep", "-d", "exec,nochain", "-D", log.name, elf],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = collections.Counter()
        with open(log.name) as f:
            for line in f:
                m = TRACE.match(line)
                if m:
                    out[int(m.group(1), 16)] += 1
    return out


def line_rows(elf):
    """[(address, base name, line)] of every unit's line table, in order,
    a sequence's end with line None."""
    text = subprocess.run([CROSS + "objdump", "--dwarf=decodedline", elf], capture_output=True,
                          text=True, check=True).stdout.splitlines()
    rows = []
    for row in text:
        m = re.match(r"^(\S+)\s+(\d+|-)\s+(0x[0-9a-f]+)(\s|$)", row)
        if m:
            rows.append((int(m.group(3), 16), os.path.basename(m.group(1)),
                         None if m.group(2) == "-" else int(m.group(2))))
    return rows


def symbols(elf):
    """[(start, end, name)] of the sized functions."""
    out = []
    for row in subprocess.run([CROSS + "nm", "-S", "-n", elf], capture_output=True, text=True,
                              check=True).stdout.splitlines():
        f = row.split()
        if len(f) == 4 and f[2] in "Tt":
            out.append((int(f[0], 16), int(f[0], 16) + int(f[1], 16), f[3]))
    return out


def chains(elf, pcs):
    """pc -> [(function, base name, line)], the innermost inlined function
    first, the symbol's function last."""
    pcs = sorted(pcs)
    rows = line_rows(elf)
    order = sorted(range(len(rows)), key=lambda i: (rows[i][0], rows[i][2] is not None, i))
    syms = symbols(elf)
    res = subprocess.run([CROSS + "addr2line", "-e", elf, "-i", "-f", "-a"] +
                         ["0x%x" % pc for pc in pcs], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    out, cur, i = {}, None, 0
    while i < len(res):
        if re.match(r"^0x[0-9a-f]+$", res[i]):
            cur = int(res[i], 16)
            out[cur] = []
            i += 1
            continue
        func, loc = res[i], res[i + 1]
        loc = re.sub(r" \(discriminator \d+\)$", "", loc)
        path, _, line = loc.rpartition(":")
        out[cur].append((func, os.path.basename(path), int(line) if line.isdigit() else 0))
        i += 2
    for pc in pcs:
        # the last row at or below pc (rows at one address: the last one)
        at = None
        for k in order:
            if rows[k][0] > pc:
                break
            at = rows[k]
        file, line = (at[1], at[2]) if at and at[2] is not None else ("??", 0)
        if out[pc][0][1] == "??":  # no unit found: the symbol's function
            name = next((n for lo, hi, n in syms if lo <= pc < hi), "??")
            out[pc] = [(name, file, line)]
        else:
            out[pc][0] = (out[pc][0][0], file, line)
    return out


def oracle(elf):
    c = counts(elf)
    ch = cached("chains", elf, lambda: {str(k): v for k, v in chains(elf, c.keys()).items()})
    return c, {int(k): [tuple(x) for x in v] for k, v in ch.items()}


def same_file(a, b):
    return os.path.basename(a) == os.path.basename(b)


def pprof(*args):
    return subprocess.run(["go", "tool", "pprof"] + list(args), capture_output=True,
                          text=True).stdout


ROW = re.compile(r"^\s*(\d+)\s+\S+%\s+\S+%\s+(\d+)\s+\S+%\s+(\S+) (\S+):(\d+)( \(inline\))?$")


def top_lines(profile):
    """[(flat, cum, function, file, line)] of pprof -top -lines, in order."""
    out = []
    text = pprof("-top", "-lines", "-nodecount=100000", "-nodefraction=0",
                 "-edgefraction=0", profile)
    for row in text.splitlines():
        m = ROW.match(row)
        if m:
            out.append((int(m.group(1)), int(m.group(2)), m.group(3), m.group(4),
                        int(m.group(5))))
    return out


def ecall_clocks(elf):
    """The trace position (instructions before it) of each ecall."""
    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        subprocess.run([QEMU, "-singlestep", "-d", "exec,nochain", "-D", log.name, elf],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pcs = [int(m.group(1), 16) for m in map(TRACE.match, open(log.name)) if m]
    text = subprocess.run([CROSS + "objdump", "-d", elf], capture_output=True, text=True,
                          check=True).stdout
    ecalls = {int(m.group(1), 16) for m in re.finditer(r"^\s*([0-9a-f]+):\s+00000073\s", text, re.M)}
    return [i for i, pc in enumerate(pcs) if pc in ecalls]


def per_function(elf):
    c = counts(elf)
    out = collections.Counter()
    for pc, n in c.items():
        name = next((nm for lo, hi, nm in symbols(elf) if lo <= pc < hi), "??")
        out[name] += n
    return out, sum(c.values())


def check_diff(a, b, path):
    bad = []
    fa, ta = per_function(a)
    fb, tb = per_function(b)
    text = open(path).read()
    m = re.search(r"^total cycles: (\d+) -> (\d+)", text, re.M)
    if not m or (int(m.group(1)), int(m.group(2))) != (ta, tb):
        bad.append("total: %s, qemu %d -> %d" % (m and m.group(0), ta, tb))
    want = {f: fb[f] - fa[f] for f in set(fa) | set(fb) if fb[f] != fa[f]}
    sec = re.search(r"^functions \(self cycles\), by change: .*?(?=^\n|\Z)", text, re.M | re.S)
    got = {}
    for row in (sec.group(0).splitlines()[2:] if sec else []):
        f = row.split()
        if len(f) >= 5 and f[0].isdigit():
            got[f[-1]] = int(f[2])
    if "functions (self cycles)" in text and (not sec or got != want):
        bad.append("functions: cyclops diff %s, qemu and nm %s" % (got, want))
    ea, eb = ecall_clocks(a), ecall_clocks(b)
    span = (eb[1] - eb[0]) - (ea[1] - ea[0])
    m = re.search(r"^\s+\d+\s+\d+\s+([+-]\d+)\s+\S+\s+loop$", text, re.M)
    if "cycle-tracker spans" in text and (not m or int(m.group(1)) != span):
        bad.append("span loop: %s, qemu's ecall clocks %+d" % (m and m.group(1), span))
    return bad


def main():
    bad = []
    what, elf = sys.argv[1], sys.argv[2]
    if what == "diff":
        bad = check_diff(elf, sys.argv[3], sys.argv[4])
        for b in bad:
            print(b)
        return 1 if bad else 0
    c, ch = oracle(elf)
    if sum(c.values()) == 0:
        print("oracle: no trace from %s (is %s installed?)" % (QEMU, QEMU))
        return 1
    if what in ("pprof-lines", "hot"):
        profile, src = sys.argv[3], sys.argv[4]
        want = collections.Counter()
        for pc, n in c.items():
            func, path, line = ch[pc][0]
            if same_file(path, src):
                want[(func, line)] += n
        rows = [r for r in top_lines(profile) if same_file(r[3], src)]
        got = collections.Counter()
        for flat, _, func, _, line in rows:
            got[(func, line)] += flat
        if what == "hot":
            hot = next(i for i, l in enumerate(open(src), 1) if "/* HOT */" in l)
            top = top_lines(profile)[0]
            func = next(ch[pc][0][0] for pc in c if ch[pc][0][2] == hot and
                        same_file(ch[pc][0][1], src))
            if not (same_file(top[3], src) and top[4] == hot and top[2] == func):
                bad.append("top line %s:%d in %s, not the HOT line %d in %s" %
                           (top[3], top[4], top[2], hot, func))
        else:
            for key in sorted(set(want) | set(got)):
                if want[key] != got[key]:
                    bad.append("%s line %d: pprof %d, qemu and addr2line %d" %
                               (key[0], key[1], got[key], want[key]))
            if not want:
                bad.append("no line of %s in the trace" % src)
    elif what == "pprof-list":
        profile, src, funcs = sys.argv[3], sys.argv[4], sys.argv[5:]
        for fn in funcs:
            flat, cum = collections.Counter(), collections.Counter()
            for pc, n in c.items():
                for k, (func, path, line) in enumerate(ch[pc]):
                    if func == fn and same_file(path, src):
                        cum[line] += n
                        if k == 0:
                            flat[line] += n
                        break
            text = pprof("-list", "^%s$" % fn, profile)
            gflat, gcum = collections.Counter(), collections.Counter()
            routine = False
            for row in text.splitlines():
                if row.startswith("ROUTINE"):
                    routine = row.split()[2] == fn
                    continue
                m = re.match(r"^\s*(\S+)\s+(\S+)\s+(\d+):", row)
                if routine and m:
                    line = int(m.group(3))
                    gflat[line] += 0 if m.group(1) == "." else int(m.group(1))
                    gcum[line] += 0 if m.group(2) == "." else int(m.group(2))
            for line in sorted(set(flat) | set(cum) | set(gflat) | set(gcum)):
                if (flat[line], cum[line]) != (gflat[line], gcum[line]):
                    bad.append("-list %s line %d: pprof flat %d cum %d, qemu and addr2line "
                               "flat %d cum %d" % (fn, line, gflat[line], gcum[line],
                                                   flat[line], cum[line]))
            if not cum:
                bad.append("-list %s: no pc of it in the trace" % fn)
    elif what == "folded":
        path, fn, prefix = sys.argv[3], sys.argv[4], sys.argv[5]
        want = collections.Counter()
        for pc, n in c.items():
            if ch[pc][-1][0] == fn:
                want[";".join([prefix, fn] + [f for f, _, _ in reversed(ch[pc][:-1])])] += n
        got = collections.Counter()
        for row in open(path):
            stack, n = row.rsplit(" ", 1)
            if stack == prefix + ";" + fn or stack.startswith(prefix + ";" + fn + ";"):
                got[stack] += int(n)
        for key in sorted(set(want) | set(got)):
            if want[key] != got[key]:
                bad.append("%s: folded %d, qemu and addr2line %d" % (key, got[key], want[key]))
    elif what == "callgrind":
        path, src = sys.argv[3], sys.argv[4]
        want = collections.Counter()
        for pc, n in c.items():
            func, p, line = ch[pc][0]
            if same_file(p, src):
                want[line] += n
        text = subprocess.run(["callgrind_annotate", "--auto=yes", path], capture_output=True,
                              text=True).stdout.splitlines()
        got, line, inside = collections.Counter(), None, False
        for row in text:
            if row.startswith("-- Auto-annotated source:"):
                inside = same_file(row.split(":", 1)[1].strip(), src) or \
                    os.path.basename(row.split(":", 1)[1].strip()) == os.path.basename(src) \
                    and row.split(":", 1)[1].strip().endswith(src.split("/", 1)[-1])
                line = None
                continue
            if "events annotated" in row or row.startswith("The following files"):
                inside = False
            if not inside:
                continue
            m = re.match(r"^-- line (\d+) -+$", row)
            if m:
                line = int(m.group(1))
                continue
            if line is None or row.startswith("---") or not row.strip():
                continue
            m = re.match(r"^\s*([\d,]+|\.)\s+(\([^)]*\)\s+)?([\d,]+|\.)\s+(\([^)]*\)\s+)?(=>)?",
                         row)
            if not m:
                continue
            if m.group(5):  # a call's inclusive cost, under the line of the call
                continue
            if m.group(1) != ".":
                got[line] += int(m.group(1).replace(",", ""))
            line += 1
        for key in sorted(set(want) | set(got)):
            if want[key] != got[key]:
                bad.append("line %d: callgrind_annotate %d, qemu and addr2line %d" %
                           (key, got[key], want[key]))
    elif what == "disasm":
        path, fn = sys.argv[3], sys.argv[4]
        lo, hi = next((lo, hi) for lo, hi, n in symbols(elf) if n == fn)
        want = {pc: n for pc, n in c.items() if lo <= pc < hi}
        got = {}
        for row in open(path):
            r = re.match(r"^\s+(\d+|\.)\s+(\d+|\.)\s+([0-9a-f]+):", row)
            if r and r.group(1) != ".":
                got[int(r.group(3), 16)] = int(r.group(1))
        for pc in sorted(set(want) | set(got)):
            if want.get(pc, 0) != got.get(pc, 0):
                bad.append("%x: pprof -disasm %d, qemu %d" % (pc, got.get(pc, 0), want.get(pc, 0)))
    elif what == "annotate":
        path, fn = sys.argv[3], sys.argv[4]
        lo, hi = next((lo, hi) for lo, hi, n in symbols(elf) if n == fn)
        want_pc = {pc: n for pc, n in c.items() if lo <= pc < hi}
        want_line = collections.Counter()
        for pc, n in want_pc.items():
            want_line[ch[pc][0][2]] += n
        text = open(path).read()
        # the listing of FUNC: from its head to the next function's
        m = re.search(r"^%s: .*?(?=^\S+: \d+ |\Z)" % re.escape(fn), text, re.M | re.S)
        if not m:
            bad.append("no listing of %s" % fn)
        else:
            got_pc, got_line = {}, collections.Counter()
            for row in m.group(0).splitlines():
                r = re.match(r"^\s+[\d.]+%\s+(\d+)(\s+\d+)?\s+([0-9a-f]{8}):  ", row)
                if r:
                    got_pc[int(r.group(3), 16)] = int(r.group(1))
                    continue
                r = re.match(r"^\s+(\d+)\s+[\d.]+%(\s+\d+)?\s+(\d+)  ", row)
                if r:
                    got_line[int(r.group(3))] += int(r.group(1))
            for pc in sorted(set(want_pc) | set(got_pc)):
                if want_pc.get(pc, 0) != got_pc.get(pc, 0):
                    bad.append("%x: annotate %d, qemu %d" % (pc, got_pc.get(pc, 0),
                                                            want_pc.get(pc, 0)))
            for line in sorted(set(want_line) | set(got_line)):
                if want_line[line] != got_line[line]:
                    bad.append("line %d: annotate %d, qemu and binutils %d" %
                               (line, got_line[line], want_line[line]))
    else:
        print("oracle.py: unknown check %s" % what)
        return 1
    for b in bad:
        print(b)
    return 1 if bad else 0


sys.exit(main())

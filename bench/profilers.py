#!/usr/bin/env python3
"""profilers.py - what each profiler and cost model costs, as a ratio to the plain
run of the same guest in the same session (docs/architecture.md, the accounting
interface).

Every mode of every workload runs N times, interleaved round-robin so that machine
noise hits all of them alike; the table gives the median time of each mode divided
by the median of `run -q` on the same guest. With BENCH_BEFORE=PATH (a cyclops
binary built from an earlier commit) the same modes also run on it, side by side,
for a before/after table; `--engine reference` (the per-instruction reference path
the fast one is tested against) is always measured too. Each run's stdout must
equal the plain run's, or the bench stops.

  bench/profilers.py [--update] [--runs=N] [WORKLOAD...]
  env: O=build, BENCH_RUNS=N, BENCH_UPDATE=1, BENCH_BEFORE=PATH, BENCH_RESULTS=FILE
"""

import datetime
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from jit_cache import fill, wait_compiled
from results_md import replace_section

WORKLOADS = ["sha256", "sort", "bytecode", "matmul", "kernels", "keccak"]
# a guest's arguments, where its default run is not about 50 M instructions
# like the others' (kernels: CoreMark's list, matrix, state machine and CRC
# kernels, 300 iterations; keccak: Keccak-f[1600], its default count)
ARGS = {"kernels": ["300"]}
# a guest whose channel timers are announced and used (guest/Makefile), so
# that what the timers cost where they watch something shows; reported
# beside the geometric means, not in them
TIMED = ("bytecode-timed", os.path.join("guest", "build", "bench", "bytecode-timed.elf"))
RESULTS_FILE = os.environ.get("BENCH_RESULTS", "bench/RESULTS.md")
HEADING = "## Profilers"
NEXT_HEADING = "## History"


def modes(tmp):
    p = os.path.join(tmp, "p")
    return [
        ("plain", []),
        ("--counters", ["--counters"]),
        ("--cycle-tracker", ["--cycle-tracker"]),
        ("--timers", ["--timers"]),
        ("--profile (pprof)", ["--profile", p + ".pb.gz"]),
        ("--profile --no-inline (pprof)", ["--profile", p + ".pb.gz", "--no-inline"]),
        ("--sample (every 32)", ["--sample", "--sample-out", p + ".samples"]),
        ("--sample=1", ["--sample=1", "--sample-out", p + ".samples"]),
        ("--model zero-riscy", ["--model", "zero-riscy"]),
        ("--model risc0", ["--model", "risc0"]),
        ("all at once", ["--profile", p + ".pb.gz", "--profile", p + ".folded",
                         "--profile", p + ".callgrind", "--cycle-tracker", "--timers",
                         "--sample", "--sample-out", p + ".samples", "--counters",
                         "--model", "risc0"]),
    ]


def timed(argv):
    """Wall seconds, stdout, exit code and peak RSS (KiB) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=600)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, p.stdout, p.returncode, max(before, after)


LONG_WORKLOADS = ["sha256", "bytecode"]  # guest/build/long/W.elf: the same code, 10x longer


def peak_rss(argv):
    """Peak RSS (KiB) of one run and its stderr, from GNU time: ru_maxrss of
    a child of this process would include Python's own pages."""
    with tempfile.NamedTemporaryFile(mode="r") as f:
        p = subprocess.run(["/usr/bin/time", "-o", f.name, "-f", "%M"] + argv,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           timeout=600)
        if p.returncode != 0:
            sys.exit(f"profilers: {' '.join(argv)} exited {p.returncode}")
        return int(f.read().split()[-1]), p.stderr


def memory_table(build, tmp):
    """The profile's peak RSS for each long workload and its 10x longer run:
    it must grow with the program's distinct stacks, not with the run."""
    p = os.path.join(tmp, "m")
    profile = ["--profile", p + ".pb.gz", "--profile", p + ".folded",
               "--profile", p + ".callgrind"]
    lines = ["| workload | guest instructions | plain peak RSS | --profile peak RSS "
             "| 10x longer: guest instructions | plain peak RSS | --profile peak RSS "
             "| profile's growth |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for w in LONG_WORKLOADS:
        cells = []
        extra = []
        for elf in (os.path.join("guest", "build", w + ".elf"),
                    os.path.join("guest", "build", "long", w + ".elf")):
            plain, err = peak_rss([os.path.join(build, "cyclops"), "run", "--engine", "interp", elf])
            prof, _ = peak_rss([os.path.join(build, "cyclops"), "run", "-q", "--engine", "interp"]
                               + profile + [elf])
            insns = err.strip().splitlines()[-1].split()[1]
            cells += [f"{int(insns):,}", f"{plain / 1024:.1f} MiB", f"{prof / 1024:.1f} MiB"]
            extra.append(prof - plain)
        growth = f"{(extra[1] - extra[0]) / 1024:+.1f} MiB"
        lines.append(f"| {w} | " + " | ".join(cells) + f" | {growth} |")
    return ("Profile memory (`--profile` in pprof, folded and callgrind at once), one run "
            "each, peak RSS from GNU `time -f %M`, every run interpreted (a run that loads "
            "translated regions maps their code, whatever its length); the 10x longer run is "
            "the same code repeating its work (`guest/build/long/`, `make -C guest long`). The growth is "
            "the profile's extra memory in the long run minus that in the short one.\n\n"
            + "\n".join(lines) + "\n")


def steady_table(build, tmp, runs, ms):
    """Each mode under the default engine on the 10x longer workloads, over
    their plain runs: the same ratios with the fixed costs (start-up, loading
    the regions, writing the profiles) spread over ten times the work."""
    cache = os.path.join(tmp, "jit-long")
    cmd = ["env", "CYCLOPS_JIT_CACHE=" + cache, os.path.join(build, "cyclops"), "run", "-q"]
    elfs = [(w, os.path.join("guest", "build", "long", w + ".elf")) for w in LONG_WORKLOADS]
    times = {}
    for w, elf in elfs:
        want = None
        fill(cache, [cmd + extra + [elf] for _, extra in ms])
        for _ in range(runs):
            wait_compiled(cache)
            for name, extra in ms:
                wall, out, rc, _ = timed(cmd + extra + [elf])
                if want is None:
                    want = out
                if rc != 0 or out != want:  # as main's: every mode's stdout the plain run's
                    sys.exit(f"profilers: long {w} {name}: exit {rc}, or stdout differs")
                times.setdefault((w, name), []).append(wall)
    med = {k: statistics.median(v) for k, v in times.items()}
    lines = ["| mode | " + " | ".join(f"{w} x10" for w, _ in elfs) + " | geomean |",
             "|---|" + "---:|" * (len(elfs) + 1)]
    for name, _ in ms[1:]:
        rs = [med[(w, name)] / med[(w, "plain")] for w, _ in elfs]
        g = math.exp(sum(math.log(r) for r in rs) / len(rs))
        lines.append(f"| {name} | " + " | ".join(f"{r:.2f}x" for r in rs) + f" | {g:.2f}x |")
    plain = ", ".join(f"{w} x10 {med[(w, 'plain')] * 1e3:.0f} ms" for w, _ in elfs)
    return ("Steady state: the default engine on the 10x longer runs (`guest/build/long/`, the "
            f"same code repeating its work), median of {runs} runs, each mode over the plain run "
            f"({plain}): the short runs above spend a good part of their few milliseconds on "
            "what does not grow with the run (start-up, loading the regions, writing the "
            "profiles), these on what does.\n\n" + "\n".join(lines) + "\n")


def main(argv):
    update = os.environ.get("BENCH_UPDATE", "") not in ("", "0")
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    workloads = []
    for a in argv:
        if a == "--update":
            update = True
        elif a.startswith("--runs="):
            runs = int(a[7:])
        else:
            workloads.append(a)
    named = bool(workloads)  # workloads named: only those
    workloads = workloads or WORKLOADS
    build = os.environ.get("O", "build")
    tmp = tempfile.mkdtemp(prefix="cyclops-profilers.")
    # the interpreter's accounting against the interpreter's plain run; the
    # default engine (the translation tier where it can run, with a code
    # cache of the bench's own, filled by untimed rounds) against its own
    # plain run: what a user pays; and the per-instruction reference
    cyclops = os.path.join(build, "cyclops")
    engines = [("now", [cyclops, "run", "-q", "--engine", "interp"]),
               ("default", ["env", "CYCLOPS_JIT_CACHE=" + os.path.join(tmp, "jit"), cyclops,
                            "run", "-q"]),
               ("reference", [cyclops, "run", "-q", "--engine", "reference"])]
    before = os.environ.get("BENCH_BEFORE")
    if before:
        # the same engine: a binary from before the tier would not know
        # --engine, but the ones this compares with do
        engines.append(("before", [before, "run", "-q", "--engine", "interp"]))
    ms = modes(tmp)
    times = {}  # (workload, engine, mode) -> [wall]
    elfs = [(w, os.path.join("guest", "build", w + ".elf")) for w in workloads]
    timed_elf = TIMED if os.path.exists(TIMED[1]) and not named else None
    for w, elf in elfs + ([timed_elf] if timed_elf else []):
        want = None
        # the timers guest: the reference engine's every-instruction path
        # would take minutes, and says nothing new
        engs = [e for e in engines if not (timed_elf and w == timed_elf[0] and e[0] == "reference")]
        # untimed rounds of the default engine fill its code cache
        fill(os.path.join(tmp, "jit"),
             [dict(engines)["default"] + extra + [elf] + ARGS.get(w, []) for _, extra in ms])
        for rnd in range(runs):
            wait_compiled(os.path.join(tmp, "jit"))
            for eng, cmd in engs:
                for name, extra in ms:
                    if eng == "reference" and name == "plain":
                        continue
                    # an earlier binary may not know a mode's options
                    if eng == "before" and "--no-inline" in extra:
                        continue
                    wall, out, rc, _ = timed(cmd + extra + [elf] + ARGS.get(w, []))
                    if want is None:
                        want = out
                    if out != want:
                        sys.exit(f"profilers: {w} under {eng} {name}: stdout differs")
                    times.setdefault((w, eng, name), []).append(wall)
    med = {k: statistics.median(v) for k, v in times.items()}

    def ratio(w, eng, name):
        base = med.get((w, eng if eng != "reference" else "now", "plain"))
        t = med.get((w, eng, name))
        return None if base is None or t is None else t / base

    def gmean(xs):
        xs = [x for x in xs if x]
        return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None

    cols = [e for e, _ in engines]
    titles = {"now": "interpreter", "default": "default engine",
              "reference": "--engine reference", "before": "before"}
    head = "| mode | " + " | ".join(titles[e] + " (geomean)" for e in cols) + \
        " | interpreter, per workload | default engine, per workload |"
    if timed_elf:
        head += f" {timed_elf[0]}: interpreter, default engine |"
    lines = [head, "|---|" + "---:|" * len(cols) + "---|---|" + ("---|" if timed_elf else "")]

    def cell(x):
        return "n/a" if x is None else f"{x:.2f}x"

    for name, _ in ms[1:]:
        cells = []
        for e in cols:
            cells.append(cell(gmean([ratio(w, e, name) for w in workloads])))
        per = ", ".join(f"{w} {cell(ratio(w, 'now', name))}" for w in workloads)
        per_default = ", ".join(f"{w} {cell(ratio(w, 'default', name))}" for w in workloads)
        row = f"| {name} | " + " | ".join(cells) + f" | {per} | {per_default} |"
        if timed_elf:
            row += (f" {cell(ratio(timed_elf[0], 'now', name))}, "
                    f"{cell(ratio(timed_elf[0], 'default', name))} |")
        lines.append(row)
    # the inlined frames' own cost: the profile with them over the same
    # profile without (issue 20's target: at most 1.10x)
    inl = {w: med[(w, "now", "--profile (pprof)")] / med[(w, "now", "--profile --no-inline (pprof)")]
           for w in workloads}
    g_inl = gmean(list(inl.values()))
    inline_line = (f"\nInlined frames (DWARF's inlined subroutines, on by default): `--profile` over "
                   f"`--profile --no-inline`, geometric mean {g_inl:.2f}x (target: at most 1.10x); "
                   + ", ".join(f"{w} {inl[w]:.2f}x" for w in workloads) + ".\n")
    every = workloads + ([timed_elf[0]] if timed_elf else [])
    plain = ", ".join(f"{w} {med[(w, 'now', 'plain')] * 1e3:.0f} ms" for w in every)
    plain_default = ", ".join(f"{w} {med[(w, 'default', 'plain')] * 1e3:.0f} ms" for w in every)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "unknown"
    text = (f"{HEADING}\n\nWritten by `bench/profilers.py --update` (`make bench` runs it): "
            f"{now}, commit {commit}, median of {runs} runs, interleaved. Each figure is the "
            f"time of `cyclops run -q MODE W.elf` over the plain `run -q W.elf` of the same "
            f"binary and engine, geometric mean over {', '.join(workloads)}; 1.00x costs "
            f"nothing. `interpreter`: `--engine interp`; `default engine`: no `--engine` (the "
            f"translation tier where it runs, else the interpreter), with a code cache of the "
            f"bench's own that untimed rounds of every mode filled first, until one compiled "
            f"nothing new: what a user pays"
            + (f"; {timed_elf[0]}: `{timed_elf[1]}`, a guest that announces channel timers and "
               f"keeps one open around each of its programs (not in the geometric means; no "
               f"reference run)" if timed_elf else "")
            + f". Plain runs, interpreter: {plain}; default engine: {plain_default}.\n"
            + ("`before`: the binary given as BENCH_BEFORE, measured in the same session.\n"
               if before else "")
            + "\n" + "\n".join(lines) + "\n" + inline_line)
    if all(os.path.exists(os.path.join("guest", "build", "long", w + ".elf"))
           for w in LONG_WORKLOADS):
        text += "\n" + steady_table(build, tmp, runs, ms)
        text += "\n" + memory_table(build, tmp)
    print(text)
    if update:
        replace_section(RESULTS_FILE, HEADING, text, NEXT_HEADING)
        print(f"profilers: wrote {RESULTS_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])

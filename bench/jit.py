#!/usr/bin/env python3
"""jit.py - the translation tier beside qemu, in one session (docs/jit.md).

For long runs of the CoreMark-style kernels, SHA3-256 and sha256 at both
widths and of a bytecode interpreter, it times qemu-riscv32/qemu-riscv64, cyclops's interpreter
(--engine interp), the default engine with an empty code cache (hot code
compiled in the background while the run goes on) and with the cache the
previous run filled, and the default engine with every profiler on (the
accounting variant of the regions, from the same warm cache). Runs are
interleaved round-robin; the table gives medians and the speed ratios
against qemu (>1: cyclops is faster). Every run's stdout must equal qemu's.
Then: the compilation figures (each region's size and compile time, with
CYCLOPS_JIT_EAGER), the code cache's resident memory, and a 1 ms program
under the default engine against the interpreter.

  bench/jit.py [--update] [--runs=N]
  env: O=build, BENCH_RUNS=N, BENCH_UPDATE=1, BENCH_RESULTS=FILE
"""

import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from jit_cache import fill, wait_compiled
from results_md import replace_section

RESULTS_FILE = os.environ.get("BENCH_RESULTS", "bench/RESULTS.md")
HEADING = "## Translation tier"
NEXT_HEADING = "## History"

# (name, elf, arguments, qemu): long enough that compiling pays
WORKLOADS = [
    ("kernels rv32", "guest/build/kernels.elf", ["4000"], "qemu-riscv32"),
    ("keccak rv32", "guest/build/keccak.elf", ["300"], "qemu-riscv32"),
    ("sha256 x10 rv32", "guest/build/long/sha256.elf", [], "qemu-riscv32"),
    # a bytecode interpreter: a switch whose cases a jump table reaches
    ("bytecode x10 rv32", "guest/build/long/bytecode.elf", [], "qemu-riscv32"),
    ("kernels rv64", "guest/build/rv64imac-lp64/kernels.elf", ["4000"], "qemu-riscv64"),
    ("keccak rv64", "guest/build/rv64imac-lp64/keccak.elf", ["300"], "qemu-riscv64"),
]


# the region variants (docs/jit.md, "Accounting"): what each run compiles
VARIANTS = [
    ("plain", []),
    ("--sample (every 32 cycles)", ["--sample", "--sample-out", "P.samples"]),
    ("--sample=1", ["--sample=1", "--sample-out", "P.samples"]),
    ("--sample=1000", ["--sample=1000", "--sample-out", "P.samples"]),
    ("--profile", ["--profile", "P.pb.gz"]),
    ("all at once", ["--profile", "P.pb.gz", "--profile", "P.folded", "--cycle-tracker",
                     "--timers", "--sample", "--sample-out", "P.samples", "--counters",
                     "--model", "risc0"]),
]


def run(argv, env=None):
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                       timeout=900)
    return time.perf_counter() - t0, p.stdout, p.stderr, p.returncode


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def main(argv):
    update = "--update" in argv or os.environ.get("BENCH_UPDATE") == "1"
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    for a in argv:
        if a.startswith("--runs="):
            runs = int(a.split("=", 1)[1])
    cyclops = os.path.join(os.environ.get("O", "build"), "cyclops")
    tmp = tempfile.mkdtemp(prefix="cyclops-bench-jit.")
    try:
        rows, compile_rows, extra = measure(cyclops, runs, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = report(rows, compile_rows, extra, runs)
    print(text)
    if update:
        write_results(text)


def profiled_args(prof):
    return ["--profile", prof + ".pb.gz", "--profile", prof + ".folded", "--profile",
            prof + ".callgrind", "--cycle-tracker", "--timers", "--sample", "--sample-out",
            prof + ".samples", "--counters"]


def insns_of(stderr):
    m = re.search(rb"cyclops: (\d+) instructions", stderr)
    return int(m.group(1)) if m else 0


def measure(cyclops, runs, tmp):
    cold_cache = os.path.join(tmp, "cold")
    warm_cache = os.path.join(tmp, "warm")
    prof = os.path.join(tmp, "p")
    times = {w[0]: {k: [] for k in ("qemu", "interp", "cold", "warm", "profiled")}
             for w in WORKLOADS}
    insns = {}
    ref = {}
    for name, elf, args, qemu in WORKLOADS:  # the reference output, and a warm cache
        _, out, _, rc = run([qemu, elf] + args)
        ref[name] = out
        plain, _ = fill(warm_cache, [[cyclops, "run", elf] + args,
                                     [cyclops, "run", "-q"] + profiled_args(prof) + [elf] + args])
        insns[name] = insns_of(plain.stderr)
    for r in range(runs):
        for name, elf, args, qemu in WORKLOADS:
            modes = [
                ("qemu", [qemu, elf] + args, None),
                ("interp", [cyclops, "run", "-q", "--engine", "interp", elf] + args, None),
                ("cold", [cyclops, "run", "-q", elf] + args,
                 dict(os.environ, CYCLOPS_JIT_CACHE=cold_cache + str(r))),
                ("warm", [cyclops, "run", "-q", elf] + args,
                 dict(os.environ, CYCLOPS_JIT_CACHE=warm_cache)),
                ("profiled", [cyclops, "run", "-q"] + profiled_args(prof) + [elf] + args,
                 dict(os.environ, CYCLOPS_JIT_CACHE=warm_cache)),
            ]
            for key, cmd, env in modes[r % len(modes):] + modes[:r % len(modes)]:
                wall, out, err, rc = run(cmd, env)
                if out != ref[name] and not (key == "profiled" and ref[name] in out):
                    sys.exit(f"bench/jit.py: {name} under {key}: stdout differs from qemu's")
                times[name][key].append(wall)
                if key == "cold":  # its compilations go on after it: not in the next run's time
                    wait_compiled(cold_cache + str(r))
                    # and the machine settles after them: here the next
                    # run of any program took up to 1.5x its time for a
                    # moment after GCC had exited (qemu's as well)
                    time.sleep(1)
    rows = []
    for name, elf, args, qemu in WORKLOADS:
        t = {k: median(v) for k, v in times[name].items()}
        rows.append((name, insns[name], t))
    # compilation: every region of two workloads, compiled at once
    compile_rows = []
    for name, elf, args, qemu in (w for w in WORKLOADS
                                  if w[0] in ("kernels rv32", "keccak rv32", "kernels rv64")):
        env = dict(os.environ, CYCLOPS_JIT_CACHE=os.path.join(tmp, "eager-" + name.replace(" ", "_")),
                   CYCLOPS_JIT_EAGER="1", CYCLOPS_JIT_DEBUG="1")
        _, _, err, _ = run([cyclops, "run", "-q", elf] + args[:0] + ["20"], env)
        for m in re.finditer(rb"jit: (\d+) blocks, (\d+) instructions: ([0-9.]+) ms", err):
            compile_rows.append((name, int(m.group(1)), int(m.group(2)), float(m.group(3))))
    # compilation by variant: kernels' regions compiled eagerly under each
    # profiler, whose accounting is compiled into them (docs/jit.md)
    variants = []
    name, elf, args, qemu = WORKLOADS[0]
    for label, flags in VARIANTS:
        env = dict(os.environ, CYCLOPS_JIT_CACHE=os.path.join(tmp, "variant-" + str(len(variants))),
                   CYCLOPS_JIT_EAGER="1", CYCLOPS_JIT_DEBUG="1")
        flags = [f.replace("P.", os.path.join(tmp, "variant.")) for f in flags]
        _, _, err, _ = run([cyclops, "run", "-q"] + flags + [elf, "20"], env)
        ms = [float(m.group(1)) for m in re.finditer(rb"jit: \d+ blocks, \d+ instructions: ([0-9.]+) ms", err)]
        variants.append((label, len(ms), sum(ms), max(ms, default=0.0)))
    # the code cache's memory: peak RSS with the warm cache, and interpreted
    extra = {}
    name, elf, args, qemu = WORKLOADS[0]
    rss = {}
    for key, cmd, env in (("interp", ["--engine", "interp"], None),
                          ("warm", [], dict(os.environ, CYCLOPS_JIT_CACHE=warm_cache))):
        p = subprocess.run(["/usr/bin/time", "-f", "%M", cyclops, "run", "-q"] + cmd + [elf] + args,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        rss[key] = int(p.stderr.strip().split()[-1])
    extra["rss"] = rss
    # a 1 ms program: the default engine against the interpreter
    short = ["guest/build/kernels.elf", "6"]
    t_def, t_int = [], []
    for i in range(max(runs, 5) * 4):
        for key in (("default", "interp") if i % 2 == 0 else ("interp", "default")):
            cmd = [cyclops, "run", "-q"] + (["--engine", "interp"] if key == "interp" else []) + short
            wall, _, _, _ = run(cmd, dict(os.environ, CYCLOPS_JIT_CACHE=os.path.join(tmp, "short")))
            (t_def if key == "default" else t_int).append(wall)
    extra["short"] = (median(t_def), median(t_int))
    extra["variants"] = variants
    return rows, compile_rows, extra


def report(rows, compile_rows, extra, runs):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                            text=True).stdout.strip()
    lines = [HEADING, "",
             f"Written by `bench/jit.py --update` (`make bench` runs it): {now}, commit {commit}, "
             f"median of {runs} runs, interleaved. Speed = qemu's time / cyclops's (>1: cyclops "
             "is faster), whole processes, start-up included. `cold`: the default engine with an "
             "empty code cache (hot code compiled in the background during the run); `warm`: "
             "with the cache an earlier run filled; `profiled`: the default engine with the warm "
             "cache and the profile in three formats, the tracker, timers, sampling and "
             "counters.", "",
             "| workload | guest instructions | qemu s | interp s | jit cold s | jit warm s | "
             "profiled s | interp/qemu speed | cold/qemu speed | warm/qemu speed | "
             "profiled/qemu speed |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, n, t in rows:
        q = t["qemu"]
        lines.append(f"| {name} | {n:,} | {q:.3f} | {t['interp']:.3f} | {t['cold']:.3f} | "
                     f"{t['warm']:.3f} | {t['profiled']:.3f} | {q / t['interp']:.2f}x | "
                     f"{q / t['cold']:.2f}x | {q / t['warm']:.2f}x | {q / t['profiled']:.2f}x |")
    lines += ["", "Compilation (CYCLOPS_JIT_EAGER, every region of a short run, on this "
              "machine): blocks, guest instructions and milliseconds per region.", "",
              "| workload | blocks | instructions | ms |", "|---|---:|---:|---:|"]
    for name, b, i, ms in compile_rows:
        lines.append(f"| {name} | {b} | {i} | {ms:.0f} |")
    lines += ["", f"Compilation by variant ({rows[0][0]}'s regions, eagerly, as above): the "
              "accounting a run's profilers need is compiled into its regions.", "",
              "| variant | regions | total ms | largest region ms |", "|---|---:|---:|---:|"]
    for label, n, total, most in extra["variants"]:
        lines.append(f"| {label} | {n} | {total:.0f} | {most:.0f} |")
    rss = extra["rss"]
    d, i = extra["short"]
    lines += ["", f"Code cache memory: peak RSS of {rows[0][0]} with the warm cache "
              f"{rss['warm'] / 1024:.1f} MiB, interpreted {rss['interp'] / 1024:.1f} MiB.",
              f"A 1 ms program (kernels, 6 iterations): default engine {d * 1e3:.2f} ms, "
              f"interpreter {i * 1e3:.2f} ms ({d / i:.2f}x).", ""]
    return "\n".join(lines)


def write_results(text):
    replace_section(RESULTS_FILE, HEADING, text, NEXT_HEADING)


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""bench.py - times cyclops (run, run --sample, embed, embed --observe) against qemu-riscv32.

Every command of every workload is run N times, interleaved round-robin so that
machine noise hits all of them alike; the table gives medians. Each run's exit code
must be 0 and its stdout identical to qemu's, or the bench stops. Run via
bench/run.sh; bench/README.md describes the options.
"""

import datetime
import math
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time

from jit_cache import fill

COMPUTE_WORKLOADS = ["sha256", "sort", "bytecode", "matmul"]
DEFAULT_WORKLOADS = COMPUTE_WORKLOADS + ["hello"]
DEFAULT_RUNS = 7
DEFAULT_TIMEOUT_S = 60.0
TARGET_SPEED_RATIO = 0.30  # cyclops must reach this fraction of qemu's speed
RESULTS_FILE = os.environ.get("BENCH_RESULTS", "bench/RESULTS.md")
HISTORY_HEADING = "## History"
SUMMARY_RE = re.compile(rb"cyclops: (\d+) instructions")

USAGE = """usage: bench/run.sh [--update] [--runs=N] [--quick] [WORKLOAD...]
  --update     rewrite bench/RESULTS.md (latest run + a new history row); or BENCH_UPDATE=1
  --runs=N     runs per command, median reported (default 7); or BENCH_RUNS=N
  --quick      one run per command, a smoke test; or BENCH_QUICK=1
  WORKLOAD     names of guest/build/NAME.elf (default: sha256 sort bytecode matmul hello);
               or BENCH_WORKLOADS="sha256 sort"
  env: O=build (build directory), QEMU=qemu-riscv32, BENCH_TIMEOUT=60 (seconds per run)"""


class BenchError(Exception):
    pass


def env_flag(name):
    return os.environ.get(name, "") not in ("", "0", "no", "false")


def parse_args(argv):
    opts = {
        "update": env_flag("BENCH_UPDATE"),
        "quick": env_flag("BENCH_QUICK"),
        "runs": None,
        "workloads": [],
    }
    runs_text = os.environ.get("BENCH_RUNS")
    for arg in argv:
        if arg == "--update":
            opts["update"] = True
        elif arg == "--quick":
            opts["quick"] = True
        elif arg.startswith("--runs="):
            runs_text = arg[len("--runs="):]
        elif arg in ("-h", "--help"):
            print(USAGE)
            sys.exit(0)
        elif arg.startswith("-"):
            raise BenchError(f"{arg}: unknown option\n{USAGE}")
        else:
            opts["workloads"].append(arg)
    if runs_text is not None:
        if not runs_text.isdigit() or int(runs_text) < 1:
            raise BenchError(f"runs: {runs_text!r} is not a positive number")
        opts["runs"] = int(runs_text)
    if opts["runs"] is None:
        opts["runs"] = 1 if opts["quick"] else DEFAULT_RUNS
    if not opts["workloads"]:
        listed = os.environ.get("BENCH_WORKLOADS", "").replace(",", " ").split()
        opts["workloads"] = listed or list(DEFAULT_WORKLOADS)
    opts["workloads"] = list(dict.fromkeys(opts["workloads"]))  # once each, in order
    timeout_text = os.environ.get("BENCH_TIMEOUT", str(DEFAULT_TIMEOUT_S))
    try:
        opts["timeout"] = float(timeout_text)
    except ValueError:
        raise BenchError(f"BENCH_TIMEOUT: {timeout_text!r} is not a number of seconds")
    return opts


def run_child(argv, timeout_s, time_tool=None):
    """Runs argv once; returns (wall seconds, peak RSS in KiB or None, exit code, stdout, stderr).

    Peak RSS comes from GNU time (time_tool) when given: ru_maxrss of a child forked
    from this Python process would count Python's own pages, copied before the exec.
    Timed runs go without it, so that they carry no extra fork and exec.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(mode="r") as rss_file:
        full = argv if time_tool is None else [time_tool, "-o", rss_file.name, "-f", "%M"] + argv
        timed_out = []

        def kill():
            timed_out.append(True)
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # GNU time and its child
            except ProcessLookupError:
                pass

        start = time.perf_counter()
        try:
            proc = subprocess.Popen(full, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    start_new_session=True)
        except OSError as e:
            raise BenchError(f"{full[0]}: {e.strerror}")
        timer = threading.Timer(timeout_s, kill)
        timer.start()
        _, status, _ = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        if timed_out:
            raise BenchError(f"{' '.join(argv)}: killed after {timeout_s:g} s (BENCH_TIMEOUT)")
        rss = None
        if time_tool is not None:
            # GNU time writes "Command exited with non-zero status N" before %M on failure
            last = (rss_file.read().strip().splitlines() or [""])[-1]
            rss = int(last) if last.isdigit() else None
        out.seek(0)
        err.seek(0)
        return wall, rss, proc.returncode, out.read(), err.read()


def first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else b"<end of output>"
        y = lb[i] if i < len(lb) else b"<end of output>"
        if x != y:
            return f"line {i + 1}: qemu {x[:80]!r}, here {y[:80]!r}"
    return "same lines, different bytes"


def check_run(workload, argv, rc, out, err, reference):
    cmd = " ".join(argv)
    if rc != 0:
        tail = err.decode(errors="replace").strip().splitlines()[-3:]
        raise BenchError(f"{workload}: `{cmd}` exited with {rc}: " + " | ".join(tail))
    if reference is not None and out != reference:
        raise BenchError(f"{workload}: stdout of `{cmd}` differs from qemu's "
                         f"({first_difference(reference, out)})")


def commands(tools, elf):
    """The measured commands, in a fixed order; qemu first as the reference."""
    return [
        ("qemu", [tools["qemu"], elf]),
        ("cyclops", [tools["cyclops"], "run", "-q", elf]),
        # PC sampling every 32 cycles, the histogram saved at exit
        ("sample", [tools["cyclops"], "run", "-q", "--sample",
                    "--sample-out", tools["sample_out"], elf]),
        ("embed", [tools["embed"], elf]),
        ("observe", [tools["embed"], "--observe", elf]),
        # the cost of the cost models that need the detailed interpreter
        ("zero-riscy", [tools["cyclops"], "run", "-q", "--model", "zero-riscy", elf]),
        ("risc0", [tools["cyclops"], "run", "-q", "--model", "risc0", elf]),
    ]


def prepare(tools, workloads, timeout_s):
    """The untimed warm-up round: one run of each command, under GNU time for peak RSS.

    qemu's stdout becomes the reference; cyclops runs without -q here, for the
    instruction count in its summary line.
    """
    info = {}
    for w in workloads:
        elf = os.path.join("guest", "build", w + ".elf")
        entry = {"elf": elf, "rss": {}}
        fill(tools["jit_cache"], [argv for name, argv in commands(tools, elf) if name != "qemu"])
        for name, argv in commands(tools, elf):
            if name == "cyclops":
                argv = [a for a in argv if a != "-q"]
            _, rss, rc, out, err = run_child(argv, timeout_s, tools["time"])
            check_run(w, argv, rc, out, err, entry.get("reference"))
            entry["rss"][name] = rss
            if name == "qemu":
                entry["reference"] = out
            elif name == "cyclops":
                m = SUMMARY_RE.search(err)
                if not m:
                    raise BenchError(f"{w}: no 'cyclops: N instructions' summary on stderr of "
                                     f"`{' '.join(argv)}`")
                entry["instructions"] = int(m.group(1))
        info[w] = entry
    return info


def measure(tools, workloads, info, runs, timeout_s):
    """Wall times: runs rounds, each running every command of every workload once."""
    samples = {w: {} for w in workloads}
    for r in range(runs):
        print(f"bench: run {r + 1}/{runs}", file=sys.stderr, flush=True)
        for w in workloads:
            cmds = commands(tools, info[w]["elf"])
            shift = r % len(cmds)  # rotate so no command always follows the same one
            for name, argv in cmds[shift:] + cmds[:shift]:
                wall, _, rc, out, err = run_child(argv, timeout_s)
                check_run(w, argv, rc, out, err, info[w]["reference"])
                samples[w].setdefault(name, []).append(wall)
    if env_flag("BENCH_VERBOSE"):
        for w in workloads:
            for name, walls in samples[w].items():
                ms = " ".join(f"{t * 1e3:.1f}" for t in walls)
                print(f"bench: {w:>10} {name:>8} ms: {ms}", file=sys.stderr)
    return samples


def summarize(workloads, info, samples):
    rows = []
    for w in workloads:
        med = {n: statistics.median(s) for n, s in samples[w].items()}
        rss = info[w]["rss"]
        rows.append({
            "workload": w,
            "instructions": info[w]["instructions"],
            "time": med,
            "rss": rss,
            "mips": info[w]["instructions"] / med["cyclops"] / 1e6,
            "speed": med["qemu"] / med["cyclops"],
            "observer": med["observe"] / med["embed"],
            "zero-riscy": med["zero-riscy"] / med["cyclops"],
            "risc0": med["risc0"] / med["cyclops"],
            "sampling": med["sample"] / med["cyclops"],
            "rss_ratio": rss["cyclops"] / rss["qemu"] if rss["cyclops"] and rss["qemu"] else None,
        })
    return rows


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def mib(kib):
    return "n/a" if kib is None else f"{kib / 1024:.1f} MiB"


def table(rows):
    head = ["workload", "guest instructions", "qemu ms", "cyclops ms", "cyclops --sample ms",
            "embed ms", "embed --observe ms", "cyclops MIPS", "cyclops/qemu speed",
            "sampling overhead", "observer overhead",
            "peak RSS qemu", "peak RSS cyclops", "RSS cyclops/qemu",
            "zero-riscy ms", "risc0 ms", "zero-riscy/unit time", "risc0/unit time"]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    for r in rows:
        t = r["time"]
        cells = [r["workload"], f"{r['instructions']:,}",
                 f"{t['qemu'] * 1e3:.1f}", f"{t['cyclops'] * 1e3:.1f}",
                 f"{t['sample'] * 1e3:.1f}",
                 f"{t['embed'] * 1e3:.1f}", f"{t['observe'] * 1e3:.1f}",
                 f"{r['mips']:.1f}", f"{r['speed']:.2f}x", f"{r['sampling']:.2f}x",
                 f"{r['observer']:.2f}x",
                 mib(r["rss"]["qemu"]), mib(r["rss"]["cyclops"]),
                 "n/a" if r["rss_ratio"] is None else f"{r['rss_ratio']:.2f}x",
                 f"{t['zero-riscy'] * 1e3:.1f}", f"{t['risc0'] * 1e3:.1f}",
                 f"{r['zero-riscy']:.2f}x", f"{r['risc0']:.2f}x"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def verdict(rows):
    compute = [r for r in rows if r["workload"] in COMPUTE_WORKLOADS]
    names = ", ".join(r["workload"] for r in compute)
    g = geomean([r["speed"] for r in compute])
    obs = geomean([r["observer"] for r in compute])
    if g is None:
        return None, None, ["No compute workload selected: no geometric mean."]
    met = "met" if g >= TARGET_SPEED_RATIO else "not met"
    lines = [
        f"Geometric mean of cyclops/qemu speed over {names}: **{g:.3f}x** "
        f"(cyclops takes {1 / g:.2f}x qemu's time).",
        f"Target: cyclops >= {TARGET_SPEED_RATIO:.2f}x qemu's speed: **{met}** "
        f"({g:.3f}x / {TARGET_SPEED_RATIO:.2f}x = {g / TARGET_SPEED_RATIO:.0%} of the target).",
        f"Observer overhead (embed --observe / embed), geometric mean: {obs:.2f}x.",
        f"Cost models (time under the model / time under unit), geometric mean: zero-riscy "
        f"{geomean([r['zero-riscy'] for r in compute]):.2f}x, risc0 "
        f"{geomean([r['risc0'] for r in compute]):.2f}x.",
        "Sampling overhead (run -q --sample / run -q, every 32 cycles), geometric mean: "
        f"{geomean([r['sampling'] for r in compute]):.2f}x.",
    ]
    return g, obs, lines


def command_output(argv):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=30)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def machine(tools):
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": len(os.sched_getaffinity(0)),
        "kernel": f"{platform.system()} {platform.release()}",
        "cc": command_output([os.environ.get("CC", "cc"), "--version"]),
        "qemu": command_output([tools["qemu"], "--version"]),
        "python": platform.python_version(),
    }


def git_commit():
    head = command_output(["git", "rev-parse", "--short", "HEAD"])
    try:
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        dirty = ""
    return head + ("+uncommitted" if dirty else "")


def method(runs):
    times = "time" if runs == 1 else "times"
    text = (
        f"Each command ran {runs} {times} per workload; the table gives the median wall time "
        "(Python `time.perf_counter` from spawn to `wait4`, start-up included). Runs are "
        "interleaved round-robin (round 1 runs every command of every workload once, then "
        "round 2, ...), with the order of the commands rotated each round, so that machine "
        "noise hits them alike. An untimed warm-up round comes first: each command once under "
        "GNU `time -f %M`, which gives the peak resident set size (ru_maxrss of a child forked "
        "straight from Python would include Python's own pages), qemu's stdout as the "
        "reference, and the guest instruction count from `cyclops run`'s summary line. Every "
        "run, warm-up and timed, must exit 0 with stdout byte-identical to qemu's, or the bench "
        "stops. Before it, every cyclops command runs untimed with a code cache of the bench's "
        "own until a round compiles nothing new, so that the translation tier's runs (the "
        "default engine) find their regions compiled, as a user's second run does. Commands: "
        "`qemu-riscv32 W.elf`, `build/cyclops run -q W.elf`, "
        "`build/cyclops run -q --sample --sample-out TMP W.elf` (PC sampling every 32 cycles), "
        "`build/embed W.elf` "
        "(the embedding API, run in slices) and `build/embed --observe W.elf` (with an observer "
        "that receives an event for every retired instruction), and `build/cyclops run -q --model "
        "zero-riscy|risc0 W.elf` (the cost models that need the detailed interpreter). "
        "MIPS = guest instructions / "
        "median `cyclops run -q` time. Speed = qemu time / cyclops time (>1: cyclops is faster). "
        "Observer overhead = `embed --observe` time / `embed` time. Sampling overhead = "
        "`run -q --sample` time / `run -q` time. RSS ratio = cyclops / qemu "
        "(<1: cyclops uses less memory). Model time ratios = time under the model / time under "
        "unit.")
    return textwrap.fill(text, width=88, break_on_hyphens=False)


def write_results(rows, verdict_lines, g, obs, runs, tools):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    m = machine(tools)
    commit = git_commit()
    history_head = ("| date | commit | machine | runs | cyclops/qemu geomean "
                    "| cyclops/qemu per workload | cyclops MIPS | observer overhead |")
    history_sep = "|---|---|---|---:|---:|---|---|---:|"
    per_speed = ", ".join(f"{r['workload']} {r['speed']:.2f}" for r in rows)
    per_mips = ", ".join(f"{r['workload']} {r['mips']:.0f}" for r in rows
                         if r["workload"] in COMPUTE_WORKLOADS)
    row = (f"| {now} | {commit} | {m['cpu']}, {m['cores']} cores | {runs} | "
           f"{'n/a' if g is None else f'{g:.3f}x'} | {per_speed} | {per_mips} | "
           f"{'n/a' if obs is None else f'{obs:.2f}x'} |")

    history = (f"{HISTORY_HEADING}\n\nOne row per `--update` run, newest first.\n\n"
               f"{history_head}\n{history_sep}\n")
    try:
        with open(RESULTS_FILE) as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    # bench/profilers.py's section stays as it was
    profilers = ""
    pat = old.find("## Profilers")
    if pat >= 0:
        end = old.find("\n## ", pat + 1)
        profilers = old[pat:end + 1] if end >= 0 else old[pat:] + "\n"
    at = old.find(HISTORY_HEADING)
    if at >= 0 and history_sep in old[at:]:
        history = old[at:]
        sep = history.index(history_sep) + len(history_sep) + 1
        history = history[:sep] + row + "\n" + history[sep:]
    else:
        history += row + "\n"

    text = f"""# cyclops benchmark results

Written by `bench/run.sh --update` (or `BENCH_UPDATE=1 make bench`): "Latest run" is
rewritten each time, "History" gains one row per run and keeps the earlier ones.

## Latest run

{now}, commit {commit}, median of {runs} {'run' if runs == 1 else 'runs'}.

{table(rows)}

{chr(10).join(verdict_lines)}

### Machine

- CPU: {m['cpu']}, {m['cores']} cores available
- Kernel: {m['kernel']}
- Compiler: {m['cc']}
- Reference: {m['qemu']}
- Python (timing): {m['python']}

### How it was measured

{method(runs)}

{profilers}{history}"""
    with open(RESULTS_FILE, "w") as f:
        f.write(text)
    print(f"bench: wrote {RESULTS_FILE}", file=sys.stderr)


def find_tools():
    build = os.environ.get("O", "build")
    tools = {
        "qemu": os.environ.get("QEMU", "qemu-riscv32"),
        "cyclops": os.path.join(build, "cyclops"),
        "embed": os.path.join(build, "embed"),
    }
    tools["time"] = os.environ.get("TIME_TOOL", "/usr/bin/time")
    if not os.access(tools["time"], os.X_OK):
        print(f"bench: {tools['time']} not found (Debian package time): no peak RSS",
              file=sys.stderr)
        tools["time"] = None
    for name in ("cyclops", "embed"):
        if not os.access(tools[name], os.X_OK):
            raise BenchError(f"{tools[name]}: not built (run `make` first)")
    if shutil.which(tools["qemu"]) is None:
        raise BenchError(f"{tools['qemu']}: not found (Debian package qemu-user)")
    return tools


def main():
    try:
        opts = parse_args(sys.argv[1:])
        tools = find_tools()
        sample_dir = tempfile.mkdtemp(prefix="cyclops-bench.")
        tools["sample_out"] = os.path.join(sample_dir, "bench.samples")
        # a code cache of the bench's own (inherited by every command),
        # filled by untimed rounds before the warm-up (prepare)
        tools["jit_cache"] = os.path.join(sample_dir, "jit")
        os.environ["CYCLOPS_JIT_CACHE"] = tools["jit_cache"]
        for w in opts["workloads"]:
            elf = os.path.join("guest", "build", w + ".elf")
            if not os.path.isfile(elf):
                raise BenchError(f"{w}: no {elf} (run `make -C guest`; default workloads: "
                                 f"{' '.join(DEFAULT_WORKLOADS)})")
        timeout_s = opts["timeout"]
        started = time.perf_counter()
        info = prepare(tools, opts["workloads"], timeout_s)
        samples = measure(tools, opts["workloads"], info, opts["runs"], timeout_s)
    except BenchError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench: interrupted", file=sys.stderr)
        return 130
    shutil.rmtree(os.path.dirname(tools["sample_out"]), ignore_errors=True)
    rows = summarize(opts["workloads"], info, samples)
    g, obs, verdict_lines = verdict(rows)
    print(f"bench: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print(f"cyclops vs qemu-riscv32, median of {opts['runs']} interleaved "
          f"{'run' if opts['runs'] == 1 else 'runs'}; "
          "stdout checked identical, exit codes 0.\n")
    print(table(rows))
    print()
    print("\n".join(verdict_lines))
    if opts["update"]:
        write_results(rows, verdict_lines, g, obs, opts["runs"], tools)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""scale.py - the chunked run's figures (docs/scale-out.md): serial against
`--jobs 2`, the checkpoints' sizes, and a model of K machines.

1. Wall time of `cyclops run` with every profiler on, serially and with
   `--jobs 2` (2 cores: the fast pass and two workers share them), on
   guest/build/xl/bytecode.elf (bytecode repeated 103 times, 5.03 G
   instructions) and on guest/build/long/bytecode-timed.elf (10 times, with
   a channel timer around each program; under the unit model the announced
   timers stay on the accounting interface since issue 16, before that
   --timers watched every instruction); every output of the chunked run must equal the serial
   run's byte for byte, or the bench stops. Target: --jobs 2 at most 0.65x
   the serial wall time.
2. Checkpoint sizes (build/ckpt_size): each checkpoint after the first
   against the zstd-compressed size of the pages the guest stored to since
   the previous one (found by a store observer). Target: at most 1x.
3. The model of K machines: the chunk times of a `--jobs 1` run (the fast
   pass and one worker, each on its own core) and the bytes each message
   carried, replayed for K workers behind one 10 Gb/s link: when each chunk
   could start (its checkpoint sent to every worker), end, and come back.

  bench/scale.py [--update] [--runs=N]
  env: O=build, BENCH_RUNS=N, BENCH_UPDATE=1, BENCH_RESULTS=FILE
"""

import datetime
import filecmp
import gzip
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from jit_cache import fill
from results_md import replace_section

RESULTS_FILE = os.environ.get("BENCH_RESULTS", "bench/RESULTS.md")
HEADING = "## Scale-out"
NEXT_HEADING = "## History"
TARGET_RATIO = 0.65
EVERY = 256 << 20  # cycles per chunk
LINK = 1.25e9  # bytes/s: 10 Gb/s
LATENCY = 50e-6  # s per message
MACHINES = [1, 2, 4, 8, 16, 32, 64]
WORKLOADS = [("xl/bytecode", "bytecode x103"), ("long/bytecode-timed", "bytecode-timed x10")]
SIZE_GUESTS = ["long/sha256", "sort", "matmul", "long/bytecode"]
OUTPUTS = ["json", "samples", "pb.gz", "folded", "callgrind"]


def all_profilers(prefix):
    return ["--report", prefix + ".json", "--cycle-tracker", "--timers", "--counters",
            "--sample", "--sample-out", prefix + ".samples",
            "--profile", prefix + ".pb.gz", "--profile", prefix + ".folded",
            "--profile", prefix + ".callgrind"]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(argv, env=None):
    """Wall time, processor time (user + system, of the run and the
    processes it waited for) and the finished process."""
    c0 = children_cpu()
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                       timeout=3600)
    return time.perf_counter() - t0, children_cpu() - c0, p


def same(a, b):
    for e in OUTPUTS:
        x, y = a + "." + e, b + "." + e
        if e == "pb.gz":
            if gzip.open(x).read() != gzip.open(y).read():
                return e
        elif not filecmp.cmp(x, y, shallow=False):
            return e
    return None


def read_stats(path):
    chunks = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            k, cycles, fast, fast_cpu, cut, worker, worker_cpu, ck, job, res = line.split()
            # processor times: what one dedicated core per process would take
            chunks.append(dict(cycles=int(cycles), fast=float(fast_cpu), cut=float(cut),
                               worker=float(worker_cpu), checkpoint=int(ck), job=int(job),
                               result=int(res)))
    return chunks


def model(chunks, k):
    """Wall time and bytes moved for k worker machines behind one link."""
    link_free = 0.0  # when the driver's link is free again
    fast = 0.0       # the fast pass's clock
    workers = [0.0] * k
    end = 0.0
    moved = 0
    sent = 0.0
    for i, c in enumerate(chunks):
        # the checkpoint at the chunk's start, to every worker
        start_at = fast
        link_free = max(link_free, start_at) + k * (c["checkpoint"] / LINK + LATENCY)
        moved += k * c["checkpoint"]
        sent = link_free
        fast += c["fast"] + c["cut"]
        # the job once the chunk is done, to the worker that is free first
        w = min(range(k), key=lambda j: workers[j])
        link_free = max(link_free, fast) + c["job"] / LINK + LATENCY
        moved += c["job"] + c["result"]
        begin = max(workers[w], link_free, sent)
        workers[w] = begin + c["worker"]
        end = max(end, workers[w] + c["result"] / LINK + LATENCY)
    return max(end, fast), moved


def size_table(ckpt_size):
    rows = []
    for g in SIZE_GUESTS:
        elf = os.path.join("guest", "build", g + ".elf")
        out = subprocess.run([ckpt_size, elf, str(4 << 20)], capture_output=True, text=True,
                             timeout=600).stdout
        n, deltas, refs = 0, 0, 0
        for line in out.splitlines():
            if line.startswith("#"):
                continue
            index, size, written, stored, ref = map(int, line.split())
            if index > 1:
                n += 1
                deltas += size
                refs += ref
        rows.append((g, n, deltas, refs))
    return rows


def main(argv):
    update = "--update" in argv or os.environ.get("BENCH_UPDATE") == "1"
    runs = int(os.environ.get("BENCH_RUNS", "1"))
    for a in argv:
        if a.startswith("--runs="):
            runs = int(a.split("=", 1)[1])
    build = os.environ.get("O", "build")
    cyclops = os.path.join(build, "cyclops")
    for g, _ in WORKLOADS:
        if not os.path.exists(os.path.join("guest", "build", g + ".elf")):
            sys.exit(f"scale: guest/build/{g}.elf is missing (make -C guest long xl)")
    lines = []
    load_start = os.getloadavg()[0]
    tmp = tempfile.mkdtemp(prefix="cyclops-scale.")
    model_chunks = None
    serial_for_model = None
    # a code cache of the bench's own, filled before anything is timed
    # (the serial run's regions, the fast pass's lean ones, the plain run's)
    cache = os.path.join(tmp, "jit")
    cached = dict(os.environ, CYCLOPS_JIT_CACHE=cache)
    for g, label in WORKLOADS:
        elf = os.path.join("guest", "build", g + ".elf")
        serial, jobs, serial_cpu, jobs_cpu, fast_cpu, plain_cpu = [], [], [], [], [], []
        s = os.path.join(tmp, "s")
        j = os.path.join(tmp, "j")
        fill(cache, [[cyclops, "run", "-q", elf],
                     [cyclops, "run", "-q"] + all_profilers(s) + [elf],
                     [cyclops, "run", "-q"] + all_profilers(j) +
                     ["--jobs", "2", "--checkpoint-every", str(EVERY), elf]])
        for r in range(runs):
            t, c, p = timed([cyclops, "run", "-q"] + all_profilers(s) + [elf], cached)
            if p.returncode != 0:
                sys.exit(f"scale: {g}: the serial run exited {p.returncode}")
            serial.append(t)
            serial_cpu.append(c)
            plain_cpu.append(timed([cyclops, "run", "-q", elf], cached)[1])
            env = dict(cached, CYCLOPS_CHUNK_STATS=os.path.join(tmp, "j2.stats"))
            t, c, q = timed([cyclops, "run", "-q"] + all_profilers(j) +
                            ["--jobs", "2", "--checkpoint-every", str(EVERY), elf], env)
            if q.returncode != 0 or q.stdout != p.stdout:
                sys.exit(f"scale: {g}: --jobs 2 exited {q.returncode} or printed otherwise")
            diff = same(s, j)
            if diff:
                sys.exit(f"scale: {g}: --jobs 2 wrote another .{diff} than the serial run")
            jobs.append(t)
            jobs_cpu.append(c)
            fast_cpu.append(sum(x["fast"] + x["cut"]
                                for x in read_stats(os.path.join(tmp, "j2.stats"))))
            print(f"scale: {g}: serial {serial[-1]:.2f} s ({serial_cpu[-1]:.2f} s CPU), "
                  f"--jobs 2 {t:.2f} s ({c:.2f} s CPU, fast pass {fast_cpu[-1]:.2f} s)",
                  file=sys.stderr)
        ms, mj = statistics.median(serial), statistics.median(jobs)
        cs, cj, cf = (statistics.median(serial_cpu), statistics.median(jobs_cpu),
                      statistics.median(fast_cpu))
        # what two idle cores would give at best: the work shared by both,
        # or the fast pass alone, whichever is longer
        bound = max(cf, cj / 2)
        # what any chunked run gives on two cores at best: the plain run's
        # work (at least the fast pass's) and the serial run's shared
        # (docs/scale-out.md, "The bound")
        cp = statistics.median(plain_cpu)
        chunks = len(read_stats(os.path.join(tmp, "j2.stats")))
        lines.append(f"| {label} | {chunks} | {ms:.2f} | {mj:.2f} | **{mj / ms:.2f}x** | "
                     f"{'met' if mj / ms <= TARGET_RATIO else 'missed'} | {cs:.2f} | {cj:.2f} | "
                     f"{cf:.2f} | {bound / cs:.2f}x | {cp:.2f} | {(1 + cp / cs) / 2:.2f}x |")
        if model_chunks is None:
            env = dict(cached, CYCLOPS_CHUNK_STATS=os.path.join(tmp, "j1.stats"))
            t, c, q = timed([cyclops, "run", "-q"] + all_profilers(j) +
                            ["--jobs", "1", "--checkpoint-every", str(EVERY), elf], env)
            model_chunks = read_stats(os.path.join(tmp, "j1.stats"))
            serial_for_model = (label, cs)  # processor time, as the chunks' times are
    # the model
    fast = sum(c["fast"] + c["cut"] for c in model_chunks)
    work = sum(c["worker"] for c in model_chunks)
    ck = sum(c["checkpoint"] for c in model_chunks)
    label, ms = serial_for_model
    mlines = ["| machines | predicted wall | speedup over serial | bytes moved |",
              "|---:|---:|---:|---:|"]
    for k in MACHINES:
        wall, moved = model(model_chunks, k)
        mlines.append(f"| {k} | {wall:.2f} s | {ms / wall:.2f}x | {moved / 1e6:.1f} MB |")
    # checkpoint sizes
    ckpt_size = os.path.join(build, "ckpt_size")
    slines = ["| guest | deltas | their bytes | pages stored to, compressed | ratio |",
              "|---|---:|---:|---:|---:|"]
    for g, n, deltas, refs in size_table(ckpt_size):
        slines.append(f"| {g} | {n} | {deltas:,} | {refs:,} | {deltas / refs:.2f}x |")
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "unknown"
    text = (f"{HEADING}\n\nWritten by `bench/scale.py --update` (`make bench` runs it): {now}, "
            f"commit {commit}, median of {runs} run(s), {os.cpu_count()} cores, load average "
            f"{load_start:.2f} at the start and {os.getloadavg()[0]:.2f} at the end. Every profiler "
            f"on (`--report --cycle-tracker --timers --counters --sample --profile` in three "
            f"formats, unit model); `--jobs 2` in chunks of {EVERY >> 20} M cycles; every output "
            f"of the chunked run equal to the serial run's byte for byte. Target: `--jobs 2` at "
            f"most {TARGET_RATIO}x the serial wall time. Processor time (user + system, "
            f"of every process of the run) beside it: on a shared machine the wall "
            f"times say more of the load than of the run. \"2 idle cores, at best\" is what "
            f"two idle cores would give this run at best, the larger of the fast pass's "
            f"processor time and half of the chunked run's, over the serial run's; \"any "
            f"chunked run, at best\" is what any way of chunking gives on two cores at best, "
            f"(1 + P/S) / 2 for the plain run's processor time P and the serial run's S "
            f"(docs/scale-out.md, \"The bound\").\n\n"
            "| workload | chunks | serial s | --jobs 2 s | ratio | target | serial CPU s "
            "| --jobs 2 CPU s | fast pass CPU s | 2 idle cores, at best | plain CPU s "
            "| any chunked run, at best |\n"
            "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|\n"
            + "\n".join(lines) + "\n\n"
            f"The model of K machines, from the chunk times of a `--jobs 1` run of {label} "
            f"(fast pass {fast:.2f} s, workers {work:.2f} s in all, {len(model_chunks)} "
            f"chunks, {ck / 1e6:.2f} MB of checkpoints), one worker per machine behind a "
            f"10 Gb/s link ({LATENCY * 1e6:.0f} us a message); the serial run took "
            f"{ms:.2f} s of processor time. The fast pass bounds the wall time from below.\n\n"
            + "\n".join(mlines) + "\n\n"
            "Checkpoint sizes (`build/ckpt_size`, a checkpoint every 4 M cycles): the "
            "checkpoints after the first (deltas) against the zstd-compressed pages the guest "
            "stored to since the previous one, found by a store observer. Target: at most "
            "1x.\n\n" + "\n".join(slines) + "\n")
    shutil.rmtree(tmp, ignore_errors=True)
    print(text)
    if update:
        replace_section(RESULTS_FILE, HEADING, text, NEXT_HEADING)
        print(f"scale: wrote {RESULTS_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])

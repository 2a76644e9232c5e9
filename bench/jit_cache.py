"""jit_cache.py - the bench scripts' one way of waiting for the code cache
to settle: a run's compilations end after it (docs/jit.md), each compiler
process holding its region's lock file (flock) until the file is in."""

import fcntl
import os
import subprocess
import time


def compilers(cache):
    """The processes that work for cache (the compiler processes a run
    forked, which inherited its CYCLOPS_JIT_CACHE), by /proc."""
    want = b"CYCLOPS_JIT_CACHE=" + os.fsencode(cache)
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if want in f.read().split(b"\0"):
                    pids.append(int(pid))
        except OSError:
            pass
    return pids


def wait_compiled(cache, timeout=900):
    """Waits for the compiler processes a run left behind in cache: until
    each region's lock is free and the processes have exited. (The locks
    alone let a timed run start while a compiler still ends, or takes the
    next region of its queue, a lock file not there yet: long/sha256's
    warm run after a cold one took 52 ms, not 41.)"""
    for f in os.listdir(cache) if os.path.isdir(cache) else []:
        if f.endswith(".lock"):
            with open(os.path.join(cache, f)) as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
    end = time.monotonic() + timeout
    while compilers(cache) and time.monotonic() < end:
        time.sleep(0.005)


def fill(cache, argvs, rounds=8):
    """Runs every command of argvs in turn with the code cache at cache,
    round after round, until a round compiles nothing new (a run's
    compilations end after it, and a run may make a region again that it
    outgrew, which the next run loads: docs/jit.md). Returns the last
    round's finished processes, in the order of argvs."""
    env = dict(os.environ, CYCLOPS_JIT_CACHE=cache)
    done = []
    for _ in range(rounds):
        had = set(os.listdir(cache)) if os.path.isdir(cache) else set()
        done = [subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                               timeout=3600) for argv in argvs]
        wait_compiled(cache)
        if set(os.listdir(cache)) == had:
            break
    return done

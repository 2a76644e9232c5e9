"""jit_cache.py - the bench scripts' one way of waiting for the code cache
to settle: a run's compilations end after it (docs/jit.md), each compiler
process holding its region's lock file (flock) until the file is in."""

import fcntl
import os


def wait_compiled(cache):
    """Waits for the compiler processes a run left behind in cache."""
    for f in os.listdir(cache) if os.path.isdir(cache) else []:
        if f.endswith(".lock"):
            with open(os.path.join(cache, f)) as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)

#!/usr/bin/env python3
"""check.py - checks one run of a tracker guest: the JSON report it wrote has
every documented field with the right types, its chunks add up to the whole
run, and each "# EXPECT: <python expression>" line of the guest's source
holds, with r = the report, out = the guest's stdout, err = cyclops's stderr.

usage: check.py GUEST.S REPORT.json STDOUT STDERR
Prints "ok - ..." or "not ok - ...: why" per check (tests/run.sh counts them).
"""
import json
import os
import sys


def fields_ok(r):
    """Every field docs/report.md promises, with its type."""
    top = {"cyclops": str, "program": str, "instructions": int, "cycles": int,
           "stop": str, "status": int, "cycle_tracker": dict,
           "cycle_tracker_report": dict, "spans": list, "warnings": list,
           "chunks": list}
    for key, kind in top.items():
        if not isinstance(r.get(key), kind):
            return f"field {key!r} missing or not {kind.__name__}"
    if "exit_code" not in r or not isinstance(r["exit_code"], (int, type(None))):
        return "field 'exit_code' missing"
    if "message" not in r:
        return "field 'message' missing"
    for name, values in r["cycle_tracker"].items():
        if not all(isinstance(v, int) and v >= 0 for v in values):
            return f"cycle_tracker[{name!r}] is not a list of counts"
    for name, tc in r["cycle_tracker_report"].items():
        if set(tc) != {"total", "count"}:
            return f"cycle_tracker_report[{name!r}] is not {{total, count}}"
    for s in r["spans"]:
        if set(s) != {"name", "depth", "parent", "count", "total", "min", "max", "open"}:
            return f"span {s} has other fields"
    for w in r["warnings"]:
        if set(w) != {"kind", "name", "count", "cycle"}:
            return f"warning {w} has other fields"
    for c in r["chunks"]:
        if set(c) != {"index", "start_cycle", "end_cycle", "done", "cycle_tracker",
                      "cycle_tracker_report"}:
            return f"chunk {c.get('index')} has other fields"
    return None


def chunks_add_up(r):
    """Chunks follow each other and their results, concatenated, are the run's."""
    chunks, whole, totals = r["chunks"], {}, {}
    at = 0
    for i, c in enumerate(chunks):
        if c["index"] != i or c["start_cycle"] != at or c["end_cycle"] < at:
            return f"chunk {i} does not follow chunk {i - 1}"
        if c["done"] != (i == len(chunks) - 1):
            return f"chunk {i}: done is {c['done']}"
        at = c["end_cycle"]
        for name, values in c["cycle_tracker"].items():
            whole.setdefault(name, []).extend(values)
        for name, tc in c["cycle_tracker_report"].items():
            t = totals.setdefault(name, {"total": 0, "count": 0})
            t["total"] += tc["total"]
            t["count"] += tc["count"]
    if chunks and at != r["cycles"]:
        return f"the last chunk ends at {at}, the run at {r['cycles']}"
    if whole != r["cycle_tracker"]:
        return "the chunks' cycle_tracker lists, concatenated, differ from the run's"
    if totals != r["cycle_tracker_report"]:
        return "the chunks' report totals differ from the run's"
    return None


def main():
    src, report, out_path, err_path = sys.argv[1:5]
    name = os.path.basename(src)
    failed = 0

    def result(ok, what, why=""):
        nonlocal failed
        if ok:
            print(f"ok - tracker: {name}: {what}")
        else:
            failed += 1
            print(f"not ok - tracker: {name}: {what}: {why}")

    try:
        with open(report, encoding="utf-8") as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        result(False, "the report is JSON", str(e))
        return 1
    with open(out_path, "rb") as f:
        out = f.read().decode("utf-8", "surrogateescape")
    with open(err_path, "rb") as f:
        err = f.read().decode("utf-8", "surrogateescape")
    why = fields_ok(r)
    result(why is None, "the report has every documented field", why)
    if why is None:
        why = chunks_add_up(r)
        result(why is None, "chunks concatenated equal the whole run", why)
    with open(src, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("# EXPECT: "):
                continue
            expr = line[len("# EXPECT: "):].strip()
            try:
                ok = bool(eval(expr, {"r": r, "out": out, "err": err}))
                why = "false"
            except Exception as e:  # a broken expectation is a failure too
                ok, why = False, f"{type(e).__name__}: {e}"
            if not ok and "cycle_tracker" in expr:
                why += f" (cycle_tracker is {r.get('cycle_tracker')})"
            result(ok, expr, why)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

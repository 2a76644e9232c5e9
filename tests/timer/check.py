#!/usr/bin/env python3
"""check.py - checks one run of a channel-timer guest against the lines
derived by hand in its source: "# EXPECT: <python expression>" (or
"# EXPECT-TAG:" for the run "# RUN TAG: ARGS"), with r = the JSON report,
out = the guest's stdout, err = cyclops's stderr. It also checks that the
report's "timers" has every field docs/report.md promises.

usage: check.py GUEST.S TAG REPORT.json STDOUT STDERR
Prints "ok - ..." or "not ok - ...: why" per check (tests/run.sh counts them).
"""
import json
import os
import sys

TREE = {"label", "depth", "parent", "count", "cycles", "instructions", "open",
        "significant_steps", "steps"}
STEP = {"cycle_before", "cycle_after", "pc", "symbol", "insn", "jump", "writes", "base",
        "wait", "memory", "page_in", "page_out", "segment", "segment_start", "pages_in",
        "pages_out", "n_pages_in", "n_pages_out"}


def fields_ok(r):
    t = r.get("timers")
    if not isinstance(t, dict) or set(t) != {"channels", "significant", "tree", "slices",
                                             "warnings"}:
        return "'timers' missing or with other fields"
    for node in t["tree"]:
        if set(node) != TREE:
            return f"timer {node.get('label')!r} has other fields"
        for s in node["steps"]:
            if set(s) != STEP:
                return f"a step of {node['label']!r} has other fields"
    for s in t["slices"]:
        if set(s) != {"timer", "start_cycle", "end_cycle", "start_instret", "end_instret",
                      "open"}:
            return f"slice {s} has other fields"
    for w in t["warnings"]:
        if set(w) != {"kind", "label", "count", "cycle"}:
            return f"warning {w} has other fields"
    return None


def main():
    src, tag, report, out_path, err_path = sys.argv[1:6]
    name = os.path.basename(src) + ("" if tag == "default" else f" ({tag})")
    prefix = "# EXPECT: " if tag == "default" else f"# EXPECT-{tag}: "
    failed = 0

    def result(ok, what, why=""):
        nonlocal failed
        if ok:
            print(f"ok - timers: {name}: {what}")
        else:
            failed += 1
            print(f"not ok - timers: {name}: {what}: {why}")

    r = json.load(open(report))
    out = open(out_path, encoding="utf-8", errors="replace").read()
    err = open(err_path, encoding="utf-8", errors="replace").read()
    why = fields_ok(r)
    result(why is None, "the report's timers have the documented fields", why)
    for line in open(src):
        if not line.startswith(prefix):
            continue
        expr = line[len(prefix):].strip()
        try:
            ok = eval(expr, {"r": r, "out": out, "err": err})
            result(bool(ok), expr[:100], "false")
        except Exception as e:  # a broken expression is a failure too
            result(False, expr[:100], repr(e))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

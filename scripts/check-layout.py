#!/usr/bin/env python3
"""check-layout.py - the source tree's dependency rules (docs/architecture.md).

Reads the #include "..." lines of src/*/*.[ch] and fails when
  - a file includes a header of a stage it may not depend on (the arrows
    point one way: cli -> export -> api -> observe -> core; cost and abi
    plug into core; util is below everything), or
  - the includes between files form a cycle.
Prints one line per problem and exits 1, or prints a summary and exits 0.
"""
import os
import re
import sys

# stage -> the stages its files may include (besides its own)
ALLOWED = {
    "util": set(),
    "core": {"util"},
    "cost": {"core", "util"},
    "abi": {"core", "util"},
    "observe": {"core", "util"},
    "api": {"observe", "abi", "cost", "core", "util"},
    "debug": {"observe", "core", "util"},
    "export": {"util"},
    "cli": {"export", "debug", "util"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def main(root):
    src = os.path.join(root, "src")
    problems = []
    graph = {}
    files = []
    for stage in sorted(os.listdir(src)):
        d = os.path.join(src, stage)
        if not os.path.isdir(d):
            continue
        if stage not in ALLOWED:
            problems.append(f"src/{stage}/: a folder the layout does not know (add it to "
                            f"scripts/check-layout.py and docs/architecture.md)")
            continue
        for name in sorted(os.listdir(d)):
            if name.endswith((".c", ".h")):
                files.append((stage, name))
    for stage, name in files:
        path = f"{stage}/{name}"
        graph[path] = []
        with open(os.path.join(src, stage, name), encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                if "/" not in inc:
                    # a header of the same folder (exec_loop.h), or the public API
                    if os.path.exists(os.path.join(src, stage, inc)):
                        graph[path].append(f"{stage}/{inc}")
                    elif not os.path.exists(os.path.join(root, "include", inc)):
                        problems.append(f"src/{path}:{lineno}: \"{inc}\" is neither beside it "
                                        f"nor in include/")
                    continue
                target_stage = inc.split("/", 1)[0]
                if not os.path.exists(os.path.join(src, inc)):
                    problems.append(f"src/{path}:{lineno}: \"{inc}\" does not exist")
                    continue
                graph[path].append(inc)
                if target_stage != stage and target_stage not in ALLOWED[stage]:
                    problems.append(f"src/{path}:{lineno}: {stage}/ may not include {inc} "
                                    f"(against the direction of the stages)")
    # cycles: depth-first search with colours
    colour = {}
    stack = []

    def visit(node):
        colour[node] = 1
        stack.append(node)
        for nxt in graph.get(node, []):
            if colour.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                problems.append("include cycle: " + " -> ".join(f"src/{c}" for c in cycle))
            elif nxt not in colour:
                visit(nxt)
        stack.pop()
        colour[node] = 2

    for node in sorted(graph):
        if node not in colour:
            visit(node)
    for p in problems:
        print(p)
    if problems:
        print(f"check-layout: {len(problems)} problem(s)")
        return 1
    edges = sum(len(v) for v in graph.values())
    print(f"check-layout: {len(graph)} files, {edges} includes, no cycle, all along the stages")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))

#!/usr/bin/env python3
"""check.py - reads back cyclops's profile files without cyclops's code.

    check.py totals CYCLES FILE...     every file's total equals CYCLES
    check.py pprof-top FILE.pb.gz      "name flat F cum C" per function, from
                                       a protobuf decoder written here
    check.py partial TEXT FILE...      every file is marked partial with a
                                       reason containing TEXT (.folded: none)
    check.py truncated TEXT FILE...    likewise marked truncated (a table of
                                       the profiler reached its limit)
Prints one line per problem and exits 1 if there was any."""
import gzip
import json
import re
import sys
import xml.etree.ElementTree as ET


def varint(buf, i):
    shift = value = 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


def fields(buf):
    """(field number, wire type, value) of a protobuf message."""
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            v, i = varint(buf, i)
        elif wire == 2:
            n, i = varint(buf, i)
            v, i = buf[i:i + n], i + n
        elif wire == 1:
            v, i = buf[i:i + 8], i + 8
        elif wire == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % wire)
        yield num, wire, v


def packed(v, wire):
    if wire == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(x)
    return out


def read_pprof(path):
    """profile.proto: sample_type 1, sample 2, location 4, function 5,
    string_table 6. Returns (sample types, [(stack of names, values)]): a
    location's lines are frames, the innermost (inlined) function first."""
    data = gzip.open(path).read()
    strings, types, samples, locs, funcs = [], [], [], {}, {}
    for num, wire, v in fields(data):
        if num == 6:
            strings.append(v.decode())
        elif num == 1:
            types.append(dict((n, x) for n, _, x in fields(v)))
        elif num == 2:
            ids, vals = [], []
            for n, w, x in fields(v):
                if n == 1:
                    ids += packed(x, w)
                elif n == 2:
                    vals += packed(x, w)
            samples.append((ids, vals))
        elif num == 4:
            loc = {"lines": []}
            for n, w, x in fields(v):
                if n == 1:
                    loc["id"] = x
                elif n == 4:
                    loc["lines"].append(dict((a, b) for a, _, b in fields(x)))
            locs[loc["id"]] = loc
        elif num == 5:
            f = dict((n, x) for n, _, x in fields(v))
            funcs[f[1]] = f
    names = [strings[t[1]] for t in types]
    out = []
    for ids, vals in samples:
        stack = [strings[funcs[line[1]][2]] for i in ids for line in locs[i]["lines"]]
        out.append((stack, vals))
    return names, out


def total(path):
    if path.endswith(".folded"):
        return sum(int(l.rsplit(" ", 1)[1]) for l in open(path) if l.strip())
    if path.endswith(".pb.gz"):
        names, samples = read_pprof(path)
        assert names == ["cycles", "instructions"], names
        return sum(v[0] for _, v in samples)
    if path.endswith(".speedscope.json"):
        doc = json.load(open(path))
        assert doc["$schema"] == "https://www.speedscope.app/file-format-schema.json"
        frames = doc["shared"]["frames"]
        assert all("name" in f for f in frames)
        p = doc["profiles"][0]
        assert p["type"] == "sampled" and p["name"] == "cycles"
        assert len(p["samples"]) == len(p["weights"])
        assert all(0 <= i < len(frames) for s in p["samples"] for i in s)
        assert sum(p["weights"]) == p["endValue"] - p["startValue"]
        return sum(p["weights"])
    if path.endswith(".trace.json"):
        # 1 cycle = 1 ns: ts and dur are microseconds with three decimals
        doc = json.load(open(path))
        assert doc["displayTimeUnit"] == "ns", doc["displayTimeUnit"]
        ev = doc["traceEvents"]
        for e in ev:
            assert e["ph"] in ("X", "M") and "pid" in e and "name" in e, e
            if e["ph"] == "X":
                for k in ("ts", "dur"):
                    assert isinstance(e[k], (int, float)) and e[k] >= 0, e
                    assert abs(e[k] * 1000 - round(e[k] * 1000)) < 1e-6, e
                assert round(e["dur"] * 1000) == e["args"]["cycles"], e
        # the run's track (tid 1) covers the run
        return sum(round(e["dur"] * 1000) for e in ev if e["ph"] == "X" and e["tid"] == 1)
    if path.endswith(".callgrind"):
        text = open(path).read()
        assert "positions: instr line" in text
        costs = 0
        skip = False
        for line in text.splitlines():
            if line.startswith("calls="):
                skip = True  # the next line is a call's inclusive cost
                continue
            if re.match(r"^0x[0-9a-f]+ ", line):
                if not skip:
                    costs += int(line.split()[2])
                skip = False
        m = re.search(r"^totals: (\d+)", text, re.M)
        assert m and int(m.group(1)) == costs, (m and m.group(1), costs)
        return costs
    if path.endswith(".svg") or path.endswith(".html"):
        text = open(path).read()
        if path.endswith(".svg"):
            ET.fromstring(text.encode())  # well-formed XML
        m = re.search(r'data-x="0" data-w="(\d+)" data-name="all"', text)
        return int(m.group(1))
    raise ValueError("unknown format: " + path)


def marker(path, kind):
    """The text of a profile file's marker KIND ("partial" or "truncated"),
    None if it has none."""
    if path.endswith(".pb.gz"):  # profile.proto: comment 13 indexes strings
        data = gzip.open(path).read()
        strings = [v.decode() for n, _, v in fields(data) if n == 6]
        comments = [strings[v] for n, _, v in fields(data) if n == 13]
        return next((c[len(kind) + 2:] for c in comments if c.startswith(kind + ": ")), None)
    if path.endswith(".speedscope.json"):
        # "PROGRAM (truncated: NOTE) (partial: REASON)", either or both
        pattern = r"\(partial: (.*)\)$" if kind == "partial" else r"\(truncated: ([^)]*)\)"
        m = re.search(pattern, json.load(open(path))["name"])
        return m and m.group(1)
    if path.endswith(".trace.json"):
        return json.load(open(path))["otherData"].get(kind)
    if path.endswith(".callgrind"):
        m = re.search(r"^desc: %s: (.*)$" % kind.capitalize(), open(path).read(), re.M)
        return m and m.group(1)
    if path.endswith(".html"):
        m = re.search(r'<td id="%s">([^<]*)</td>' % kind, open(path).read())
        return m and m.group(1)
    raise ValueError("no %s marker in this format: %s" % (kind, path))


def main():
    bad = 0
    if sys.argv[1] == "totals":
        want = int(sys.argv[2])
        for path in sys.argv[3:]:
            try:
                got = total(path)
            except Exception as e:  # a file that does not parse is a failure
                print("%s: %r" % (path, e))
                bad += 1
                continue
            if got != want:
                print("%s: total %d, not %d" % (path, got, want))
                bad += 1
    elif sys.argv[1] in ("partial", "truncated"):
        for path in sys.argv[3:]:
            try:
                reason = marker(path, sys.argv[1])
            except Exception as e:
                print("%s: %r" % (path, e))
                bad += 1
                continue
            if not reason or sys.argv[2] not in reason:
                print("%s: %s marker %r lacks %r" % (path, sys.argv[1], reason, sys.argv[2]))
                bad += 1
    elif sys.argv[1] == "pprof-folded":
        # the per-pc costs of each stack (pprof's samples, made from the
        # blocks' run counts handed to each stack) added up per stack, as
        # folded lines, against the folded stacks given in the file
        # sys.argv[3] (derived from the clock, by hand); equal stacks add up
        _, samples = read_pprof(sys.argv[2])
        got, want = {}, {}
        for stack, vals in samples:
            key = ";".join(reversed(stack))
            got[key] = got.get(key, 0) + vals[0]
        for line in open(sys.argv[3]):
            if line.strip():
                key, n = line.rsplit(" ", 1)
                want[key] = want.get(key, 0) + int(n)
        got = dict((k, v) for k, v in got.items() if v)
        for key in sorted(set(got) | set(want)):
            if got.get(key) != want.get(key):
                print("%s: pprof %s, folded %s" % (key, got.get(key), want.get(key)))
                bad += 1
    elif sys.argv[1] == "pprof-top":
        _, samples = read_pprof(sys.argv[2])
        flat, cum = {}, {}
        for stack, vals in samples:
            flat[stack[0]] = flat.get(stack[0], 0) + vals[0]
            for name in set(stack):  # a recursive function counts once
                cum[name] = cum.get(name, 0) + vals[0]
        for name in sorted(cum):
            print("%s flat %d cum %d" % (name, flat.get(name, 0), cum[name]))
    return 1 if bad else 0


sys.exit(main())

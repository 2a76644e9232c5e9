#!/usr/bin/env python3
"""names.py - what cyclops must write for a function and a source file whose
names hold hostile bytes (tests/run.sh, "profile: escapes:").

    names.py raw                      the function's name, for objcopy
    names.py MODE FILE...             checks an output (folded, callgrind,
                                      svg, html, json, pprof, hist, stderr,
                                      fault, timers); exits 1 with the
                                      differences printed

The expected forms are written out below by hand from the rules of
docs/profiles.md#names, not computed: text outputs (terminal, folded,
callgrind) show a control character or a byte that is not UTF-8 as \\xNN
and a backslash as \\\\ (folded also ';' as '_'); XML shows controls as \\xNN,
bad bytes as U+FFFD and a backslash as itself; JSON holds the exact
characters with bad bytes as U+FFFD."""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

# ESC [31m, a newline and a forged callgrind line, XML's specials, ';', the
# quotes, a backslash, CR, 0xff and a lone 0xc3 (not UTF-8), U+009B (a C1
# control, CSI) and a last letter
RAW = b"evil\x1b[31m\nfn=forged\n<b>&x;y\"'\\\r\xff\xc3(\xc2\x9bz"
TEXT = r"""evil\x1b[31m\x0afn=forged\x0a<b>&x;y"'\\\x0d\xff\xc3(\xc2\x9bz"""
FOLDED = r"""evil\x1b[31m\x0afn=forged\x0a<b>&x_y"'\\\x0d\xff\xc3(\xc2\x9bz"""
XML = r"""evil\x1b[31m\x0afn=forged\x0a<b>&x;y"'\\x0d""" + "\ufffd\ufffd" + r"(\xc2\x9bz"
JSON = "evil\x1b[31m\nfn=forged\n<b>&x;y\"'\\\r\ufffd\ufffd(\u009bz"
# the DWARF file: directory "dir ESC ]0;x BEL" (a terminal title), name
# with ESC, a newline and a forged fl= line, "&amp;;" and two bad bytes
FILE_TEXT = r"dir\x1b]0;x\x07/ev\x1b[31mil\x0afl=forged\x0a<b>&amp;;\xff\xc3.c"
FILE_XML = r"dir\x1b]0;x\x07/ev\x1b[31mil\x0afl=forged\x0a<b>&amp;;" + "\ufffd\ufffd.c"
FILE_JSON = "dir\x1b]0;x\x07/ev\x1b[31mil\nfl=forged\n<b>&amp;;\ufffd\ufffd.c"
STOP = "ebreak at 0x00010014 <%s+0x4>: ebreak (no debugger attached)" % TEXT

problems = []


def want(what, got, expected):
    if got != expected:
        problems.append("%s: got %r, expected %r" % (what, got, expected))


def plain(path):
    """A text file that must be UTF-8 with no control character but \\n."""
    data = open(path, "rb").read()
    text = data.decode("utf-8")  # raises on a bad byte
    bad = sorted(set(c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) < 0xa0))
    want(path + ": control characters", bad, [])
    return text


def check(mode, paths):
    if mode == "folded":
        want("folded lines", sorted(plain(paths[0]).splitlines()),
             sorted(["_start 3", "_start;" + FOLDED + " 2", "_start;[ecall exit] 1"]))
    elif mode == "callgrind":
        lines = plain(paths[0]).splitlines()
        want("fn= lines", [l for l in lines if l.startswith("fn=")], ["fn=_start", "fn=" + TEXT])
        want("cfn= lines", [l for l in lines if l.startswith("cfn=")], ["cfn=" + TEXT])
        want("fl= lines", sorted(set(l for l in lines if l.startswith(("fl=", "cfl=")))),
             ["cfl=" + FILE_TEXT, "fl=" + FILE_TEXT])
    elif mode == "svg":
        ns = "{http://www.w3.org/2000/svg}"
        frames = [g.get("data-name") for g in ET.parse(paths[0]).iter(ns + "g")]
        want("svg frames", frames, ["all", "_start", XML, "[ecall exit]"])
    elif mode in ("html", "fault"):
        cells = []

        class Cells(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.td = None

            def handle_starttag(self, tag, attrs):
                if tag == "td":
                    self.td = ""

            def handle_data(self, data):
                if self.td is not None:
                    self.td += data

            def handle_endtag(self, tag):
                if tag == "td" and self.td is not None:
                    cells.append(self.td)
                    self.td = None

        Cells().feed(plain(paths[-1]))
        if mode == "html":
            want("html: the name in the tables", XML in cells, True)
            want("html: the file in the tables", FILE_XML + ":20" in cells, True)
        else:  # the stop message, printable already, the same in the partial row
            want("html: the partial row", STOP in cells, True)
            lines = plain(paths[0]).splitlines()
            want("callgrind: desc: lines", [l for l in lines if l.startswith("desc:")],
                 ["desc: Partial: " + STOP])
            check("callgrind", paths[:1])
    elif mode == "json":
        frames = json.load(open(paths[0]))["shared"]["frames"]
        want("speedscope frames", [(f["name"], f.get("file")) for f in frames],
             [("_start", FILE_JSON), (JSON, FILE_JSON), ("[ecall exit]", None)])
        events = json.load(open(paths[1]))["traceEvents"]
        # the calls track (tid 6): _start's call of the function, at its clock
        want("trace slices", [e["name"] for e in events if e["ph"] == "X" and e["tid"] == 6],
             ["_start", JSON])
    elif mode == "pprof":
        top = subprocess.run([sys.executable, "tests/profile/check.py", "pprof-top", paths[0]],
                             capture_output=True)
        want("check.py pprof-top", (top.stdout + top.stderr).decode(),
             "[ecall exit] flat 1 cum 1\n_start flat 3 cum 6\n%s flat 2 cum 2\n" % JSON)
    elif mode == "hist":
        lines = plain(paths[0]).splitlines()
        want("hist: the function's row", "         2   33.3%  100.0%  " + TEXT in lines, True)
        want("hist: the line's row", "         2   33.3%  " + FILE_TEXT + ":20" in lines, True)
        want("hist: the annotation's head",
             TEXT + ": 2 samples (33.3%), 0x00010010..0x00010018" in lines, True)
        names = [f["name"] for f in json.load(open(paths[1]))["functions"]]
        want("hist --json functions", names, ["_start", JSON])
    elif mode == "stderr":
        want("the stop line", [l for l in plain(paths[0]).splitlines() if "ebreak" in l],
             ["cyclops: " + STOP])
    elif mode == "timers":
        text = plain(paths[0])
        want("--timers: the step in the function", "0x00010400 <%s>: auipc" % TEXT in text, True)
    else:
        sys.exit("names.py: unknown mode " + mode)


if sys.argv[1] == "raw":
    sys.stdout.buffer.write(RAW)
    sys.exit(0)
check(sys.argv[1], sys.argv[2:])
for p in problems:
    print(p)
sys.exit(1 if problems else 0)

#!/usr/bin/env python3
"""html_check.py DOM.html TERM [FOLDED-FRAMES] - checks what the report's
self-test (#selftest:search=TERM, run by headless Chromium) saw against the
page itself, parsed here: the functions table sorted both ways by self
cycles is the sorted list of its own cells' values, the search found every
frame whose name has TERM and the cycles of the outermost ones, a zoom
makes the frame the graph's width and a reset the root, the details pane
names the frame with its cycles, and with recursion folded TERM has
FOLDED-FRAMES frames (when given). Also: the cycles in the summary are
written with thousands separators. Prints one line per problem."""
import json
import re
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.frames = {}  # svg id -> [(name, x, w)]
        self.svg = None
        self.self_values = []
        self.self_col = None
        self.col = -1
        self.in_table = False
        self.in_td = False
        self.selftest = None
        self.in_selftest = False
        self.cycles_text = ""
        self.in_cycles = False
        self.cycles_v = None
        self.width = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.svg = a.get("id")
            self.frames[self.svg] = []
            self.width[self.svg] = float(a.get("data-width", 0))
        elif tag == "g" and "f" in a.get("class", "").split() and self.svg:
            self.frames[self.svg].append((a["data-name"], int(a["data-x"]), int(a["data-w"])))
        elif tag == "table" and a.get("id") == "functions":
            self.in_table = True
        elif tag == "th" and self.in_table:
            self.col += 1
            if "self" in a.get("class", "").split():
                self.self_col = self.col
        elif tag == "tr" and self.in_table:
            self.cell = -1
        elif tag == "td" and self.in_table:
            self.cell += 1
            if self.cell == self.self_col:
                self.self_values.append(int(a["data-v"]))
        elif tag == "td" and a.get("id") == "cycles":
            self.in_cycles = True
            self.cycles_v = int(a["data-v"])
        elif tag == "pre" and a.get("id") == "selftest":
            self.in_selftest = True
            self.selftest = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_table = False
        elif tag == "td":
            self.in_cycles = False
        elif tag == "pre":
            self.in_selftest = False
        elif tag == "svg":
            self.svg = None

    def handle_data(self, data):
        if self.in_selftest:
            self.selftest += data
        if self.in_cycles:
            self.cycles_text += data


page = Page()
page.feed(open(sys.argv[1], encoding="utf-8").read())
term = sys.argv[2]
bad = []
if not page.selftest:
    print("the self-test wrote nothing")
    sys.exit(1)
r = json.loads(page.selftest)
vals = page.self_values
if r["sorted_desc"] != sorted(vals, reverse=True) or r["sorted_asc"] != sorted(vals):
    bad.append("sorting: %s / %s, the cells: %s" % (r["sorted_desc"], r["sorted_asc"], vals))
frames = page.frames["flame"][1:]  # the root, "all", is no frame
hits = [f for f in frames if term.lower() in f[0].lower()]
outer, end = 0, -1
for name, x, w in sorted(hits, key=lambda f: (f[1], -f[2])):
    if x >= end:
        outer += w
        end = x + w
if r["search"] != {"frames": len(hits), "cycles": outer}:
    bad.append("search: %s, the page has %d frames, %d cycles outermost" % (r["search"], len(hits), outer))
if hits and r.get("zoomed_width") != page.width["flame"]:
    bad.append("zoom: width %s, not %s" % (r.get("zoomed_width"), page.width["flame"]))
if r["reset_width"] != page.width["flame"]:
    bad.append("reset: width %s" % r["reset_width"])
first = next((f for f in frames if term.lower() in f[0].lower()), None)
if first and not r.get("details", "").startswith("%s: %s cycles" % (first[0], format(first[2], ","))):
    bad.append("details: %r, the frame: %s" % (r.get("details"), first))
if len(sys.argv) > 3 and r["folded_frames"] != int(sys.argv[3]):
    bad.append("folded: %d frames of %s, expected %s" % (r["folded_frames"], term, sys.argv[3]))
if page.cycles_text != format(page.cycles_v, ","):
    bad.append("summary cycles %r, not %s with separators" % (page.cycles_text, page.cycles_v))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)

#!/usr/bin/env python3
"""check_html.py COALESCE_LINT PROJECT_DIR FILE.cu...

Checks `coalesce-lint --format=html` (docs/html-report.md) on the given
kernels, first as text with Python's html.parser, then in a real browser:

- size: at most a quarter of the page's size before the findings table and
  the deflated map store (BEFORE_BYTES, below);
- the page is well formed (every element closed, in order) and
  self-contained: no stylesheets, images, frames or fonts to fetch, no src=
  attributes or event-handler attributes, links only to anchors in the page,
  no url()/@import in CSS; its only scripts are the inline script (which
  fetches nothing) and the map store, a data block;
- one summary line in the header, equal to the CLI's last line on stderr
  (`coalesce-lint: <summary>`), and nowhere else on the page;
- one row of the findings table per finding of the text output, with every
  message; the rows in rank order, worst first: the wasted bytes of each row
  are those of an access of the JSON output at its place (recomputed here
  from the JSON's costs, ideals and launch totals, as tools/output/Waste.h
  does), per-launch before per-warp, fewer bytes never before more, rows
  without a waste last, and the first row is the worst of all findings;
- one <details class="access"> per access of the JSON output, one kernel
  section per kernel;
- a warp map in the store for every access that has a lane pattern, with
  32 lane boxes, and for a known case the right targets: bad.cu's strided
  load maps 32 lanes to 32 different sectors, shared_maps.cu's column read
  maps 32 lanes onto bank 0 (32 distinct words);
- in headless Chromium (`chromium --dump-dom`, the DOM after the script ran):
  the script ran, the table opens worst first, the maps of the open
  accesses are drawn, and the URL fragment sorts and filters the table
  (#sort=loc, #sort=-cost&rule=...&level=warning, #q=...).

Chromium is installed by tools/bootstrap.sh (Debian's `chromium`); without
it the test fails (set CHROMIUM=/path/to/chrome for another build).
"""
import base64
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib
from html.parser import HTMLParser

# The page of this test's kernels (tests/CMakeLists.txt: the samples that
# build with the built-in CUDA headers, bad.cu, shared_maps.cu, unknown.cu;
# --cuda-path=none) before the findings table and the map store, with a warp
# map drawn in SVG for each of its 831 accesses: measured on 2026-11-28.
BEFORE_BYTES = 10_940_413

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
FORBIDDEN = {"link", "img", "iframe", "object", "embed", "audio", "video", "source", "image",
             "use", "foreignobject", "base", "frame", "frameset", "applet", "portal"}
MAP_STORE_TYPE = "application/x-coalesce-warp-maps"
# What the inline script must not do: fetch, load, evaluate.
SCRIPT_FORBIDDEN = ["fetch(", "XMLHttpRequest", "import(", "importScripts", "WebSocket",
                    "EventSource", "sendBeacon", "eval(", "Function(", "http:", "https:",
                    ".src", "src=", "createElement('script"]

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
    return cond


class Page(HTMLParser):
    """The page (or Chromium's DOM of it): structure, accesses, table rows."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.accesses = []   # one dict per <details class="access">
        self.kernels = 0
        self.current = None
        self.style = ""
        self.scripts = []    # (attrs, text)
        self.script = None
        self.text = []
        self.doctype = False
        self.summaries = []  # the text of each element with class "summary"
        self.summary = None
        self.rows = []       # the findings table's body rows: attrs, text, cells
        self.row = None
        self.heads = []      # the table's header cells' attrs
        self.in_tbody = False
        self.table_attrs = None
        self.in_table = False
        self.body_attrs = {}
        self.output = None
        self.in_output = False
        self.svg_depth = 0
        self.maps = None     # parsing one map of the store: counts

    def handle_decl(self, decl):
        self.doctype |= decl.lower() == "doctype html"

    def _attrs(self, tag, attrs):
        a = dict(attrs)
        check(tag not in FORBIDDEN, f"external or active element <{tag}>")
        check("src" not in a, f"<{tag}> has a src attribute")
        if "href" in a:
            check(a["href"].startswith("#"), f"<{tag}> links outside the page: {a['href']}")
        for k, v in a.items():
            check(not k.startswith("on"), f"<{tag}> has an event handler {k}")
            if v and "url(" in v:
                failures.append(f"<{tag} {k}> refers to a url()")
        return a

    def handle_starttag(self, tag, attrs):
        a = self._attrs(tag, attrs)
        cls = (a.get("class") or "").split()
        if tag == "body":
            self.body_attrs = a
        if tag == "details" and "access" in cls:
            self.current = {"id": a.get("id"), "cls": cls, "open": "open" in a, "map": None,
                            "svg": 0, "text": []}
            self.accesses.append(self.current)
        if tag == "section" and "kernel" in cls:
            self.kernels += 1
        if tag == "figure" and self.current is not None and "data-map" in a:
            self.current["map"] = int(a["data-map"])
        if tag == "svg" and self.current is not None:
            self.current["svg"] += 1
        if "summary" in cls:
            self.summary = []
            self.summary_depth = len(self.stack)
        if tag == "table" and a.get("id") == "findings-table":
            self.table_attrs = a
            self.in_table = True
        if tag == "th" and self.in_table and not self.in_tbody:
            self.heads.append(a)
        if tag == "tbody" and self.in_table:
            self.in_tbody = True
        if tag == "tr" and self.in_tbody:
            self.row = {"attrs": a, "text": [], "cells": []}
            self.rows.append(self.row)
        if tag == "td" and self.row is not None:
            self.row["cells"].append([])
        if tag == "output":
            self.in_output = True
            self.output = ""
        if tag == "script":
            self.script = (a, [])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        # <rect .../> in SVG: opened and closed.
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not check(self.stack and self.stack[-1] == tag,
                     f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>"):
            return
        self.stack.pop()
        if self.summary is not None and len(self.stack) == self.summary_depth:
            self.summaries.append("".join(self.summary))
            self.summary = None
        if tag == "details":
            self.current = None
        if tag == "tbody":
            self.in_tbody = False
        if tag == "table":
            self.in_table = False
        if tag == "tr":
            self.row = None
        if tag == "output":
            self.in_output = False
        if tag == "style":
            self.in_style = False
        if tag == "script" and self.script is not None:
            self.scripts.append((self.script[0], "".join(self.script[1])))
            self.script = None

    def handle_data(self, data):
        if self.script is not None:
            self.script[1].append(data)
            return
        if self.stack and self.stack[-1] == "style":
            self.style += data
            return
        self.text.append(data)
        if self.current is not None:
            self.current["text"].append(data)
        if self.summary is not None:
            self.summary.append(data)
        if self.row is not None:
            self.row["text"].append(data)
            if self.row["cells"]:
                self.row["cells"][-1].append(data)
        if self.in_output:
            self.output += data


class MapSvg(HTMLParser):
    """One warp map of the store: its lanes, sectors, banks and titles."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.svg = self.lanes = self.sectors = self.banks = 0
        self.titles = []
        self.tag = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        check(tag not in FORBIDDEN and tag != "script", f"map: external or active element <{tag}>")
        check("src" not in a and not any(k.startswith("on") for k in a), f"map: <{tag}> attributes")
        cls = (a.get("class") or "").split()
        self.svg += tag == "svg"
        self.lanes += tag == "rect" and "lane" in cls
        self.sectors += tag == "rect" and "sector" in cls
        self.banks += tag == "rect" and "bank" in cls
        self.tag = tag

    def handle_data(self, data):
        if self.tag == "title":
            self.titles.append(data)


def decode_store(attrs, text):
    enc = attrs.get("data-encoding")
    if enc == "deflate-base64":
        return json.loads(zlib.decompress(base64.b64decode(text.strip())).decode("utf-8"))
    check(enc == "json", f"map store encoding {enc!r}")
    return json.loads(text)


def record_waste(a, spaces):
    """tools/output/Waste.cpp's recordWaste on an access of the JSON output:
    (scope, bytes) or None."""
    keys = spaces[a["space"]]["json"]
    cost, ideal = a.get(keys["cost"]), a.get(keys["ideal"])
    if cost is None or ideal is None or not cost > ideal + 1e-9 * max(1.0, ideal):
        return None
    weight = 32  # every extra unit weighs a sector (Waste.h)
    units, from_launch = 0.0, False
    for t in a["launch_totals"]:
        total = t.get(keys["total"])
        if total is None:
            continue
        extra = max(0.0, total - t["requests"] * ideal)
        if not from_launch or extra > units:
            units = extra
        from_launch = True
    if from_launch:
        scope = "launch"
    else:
        rpw = a["requests_per_warp"]
        scope = "warp" if rpw is not None else "iteration"
        units = (cost - ideal) * (rpw if rpw else 1)
    if not units > 0:
        return None
    return scope, units * weight


def worse(w, v):
    """Waste w ranks before waste v (launch first, then more bytes)."""
    if (w[0] == "launch") != (v[0] == "launch"):
        return w[0] == "launch"
    return w[1] > v[1] * (1 + 1e-6)


def close(x, y):
    return abs(x - y) <= 1e-6 * max(1.0, abs(x), abs(y)) + 0.5


def find_chromium():
    for c in [os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome",
              "google-chrome-stable"]:
        if c and shutil.which(c):
            return shutil.which(c)
    return None


def dump_dom(chromium, page_path, fragment, profile):
    url = "file://" + page_path + fragment
    run = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                          "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + profile,
                          # The maps are inflated asynchronously: let the page's
                          # tasks run before the DOM is dumped.
                          "--virtual-time-budget=10000", "--dump-dom", url],
                         capture_output=True, text=True, timeout=120)
    check(run.returncode == 0 and run.stdout.strip(),
          f"chromium --dump-dom {url}: exit {run.returncode}\n{run.stderr[-2000:]}")
    dom = Page()
    dom.feed(run.stdout)
    dom.close()
    return dom


def visible(rows):
    return [r for r in rows if "hidden" not in r["attrs"]]


def browser_checks(page_src, page, worst, text_findings):
    chromium = find_chromium()
    if not chromium:
        failures.append("chromium not found: the HTML report is checked in headless Chromium "
                        "(tools/bootstrap.sh installs Debian's `chromium`: apt-get install "
                        "chromium; or set CHROMIUM=/path/to/chrome)")
        return
    with tempfile.TemporaryDirectory(prefix="coalesce-html-") as tmp:
        path = os.path.join(tmp, "report.html")
        with open(path, "w", encoding="utf-8") as f:
            f.write(page_src)
        profile = os.path.join(tmp, "profile")
        # Errors of the checks below are about the DOM, not the page's text.
        saved = len(failures)

        # As it opens: worst first, the maps of open accesses drawn.
        dom = dump_dom(chromium, path, "", profile)
        if check("data-ready" in dom.body_attrs, "chromium: the script ran to its end (body[data-ready])"):
            rows = visible(dom.rows)
            check(len(rows) == len(page.rows), f"chromium: {len(rows)} of {len(page.rows)} rows shown")
            check([r["attrs"]["data-rank"] for r in dom.rows] ==
                  [str(i + 1) for i in range(len(dom.rows))], "chromium: rows in rank order on opening")
            if rows and worst:
                first = rows[0]["attrs"]
                check(first["data-loc"] in worst["locs"] and first.get("data-scope") == worst["scope"]
                      and close(float(first.get("data-weight", "nan")), worst["bytes"]),
                      f"chromium: the first row is the worst finding ({worst['scope']}, "
                      f"{worst['bytes']:.0f} bytes at {sorted(worst['locs'])[:3]}), got {first}")
            rank_head = [h for h in dom.heads if h.get("data-sort") == "rank"]
            check(rank_head and rank_head[0].get("aria-sort") == "ascending",
                  "chromium: the rank column is the sorted one")
            check(dom.output and str(len(page.rows)) in dom.output,
                  f"chromium: the count says all {len(page.rows)} rows are shown: {dom.output!r}")
            want = [a for a in dom.accesses if a["open"] and a["map"] is not None]
            drawn = [a for a in want if a["svg"] == 1]
            check(want and len(drawn) == len(want),
                  f"chromium: {len(drawn)} of the {len(want)} open accesses with a map have it drawn")
            folded = [a for a in dom.accesses if not a["open"] and a["svg"]]
            check(not folded, f"chromium: {len(folded)} folded accesses drawn (maps are drawn on opening)")

        # Sorted by place: each file's rows together, by line then column.
        dom = dump_dom(chromium, path, "#sort=loc", profile)
        rows = visible(dom.rows)
        check(len(rows) == len(page.rows), "chromium #sort=loc: every row shown")
        files, last = [], None
        ok = True
        for r in rows:
            f, line, col = r["attrs"]["data-loc"].rsplit(":", 2)
            if not files or files[-1] != f:
                ok &= f not in files
                files.append(f)
                last = None
            ok &= last is None or last <= (int(line), int(col))
            last = (int(line), int(col))
        check(ok and rows, "chromium #sort=loc: rows by file, then line and column")
        loc_head = [h for h in dom.heads if h.get("data-sort") == "loc"]
        check(loc_head and loc_head[0].get("aria-sort") == "ascending", "chromium #sort=loc: aria-sort")
        check((dom.table_attrs or {}).get("data-state", "").startswith("sort=loc&"),
              f"chromium #sort=loc: state {(dom.table_attrs or {}).get('data-state')!r}")

        # Filtered by rule and level, cheapest first.
        rule = "shared-bank-conflict"
        dom = dump_dom(chromium, path, f"#sort=-cost&rule={rule}&level=warning", profile)
        rows = visible(dom.rows)
        want = sum(1 for level, r in text_findings if level == "warning" and r == rule)
        check(want and len(rows) == want,
              f"chromium #rule={rule}&level=warning: {len(rows)} rows shown, {want} such warnings")
        check(all(r["attrs"]["data-rule"] == rule and r["attrs"]["data-level"] == "warning"
                  for r in rows), "chromium #rule=...: only that rule's warnings shown")
        ratios = [float(r["attrs"].get("data-ratio", "inf")) for r in rows]
        check(ratios == sorted(ratios), "chromium #sort=-cost: the cheapest first")
        check(dom.output and dom.output.startswith(f"{len(rows)} of {len(page.rows)}"),
              f"chromium: the count says {len(rows)} of {len(page.rows)}: {dom.output!r}")

        # Filtered by text, in rank order.
        word = "transpose"
        dom = dump_dom(chromium, path, f"#q={word.upper()}", profile)
        rows = visible(dom.rows)
        want = [r["attrs"]["data-rank"] for r in page.rows if word in "".join(r["text"]).lower()]
        check(want and [r["attrs"]["data-rank"] for r in rows] == want,
              f"chromium #q={word}: {len(rows)} rows shown, {len(want)} mention it")
        if len(failures) > saved:
            failures.insert(saved, f"(in {chromium})")


def main():
    lint, project = os.path.abspath(sys.argv[1]), sys.argv[2]
    files = [os.path.relpath(f, project) for f in sys.argv[3:]]
    args = [lint, "--cuda-path=none", "--color=never"]
    run = subprocess.run(args + ["--format=html"] + files, cwd=project, capture_output=True,
                         text=True)
    check(run.returncode == 1, f"html run exits 1 with findings, got {run.returncode}")
    page_src = run.stdout
    cli_summary = [l for l in run.stderr.splitlines() if l.startswith("coalesce-lint: ")]
    cli_summary = cli_summary[-1][len("coalesce-lint: "):] if cli_summary else None
    report = json.loads(subprocess.run(args + ["--format=json"] + files, cwd=project,
                                       capture_output=True, text=True).stdout)
    text = subprocess.run(args + ["--exit-zero"] + files, cwd=project, capture_output=True,
                          text=True).stdout

    # Size.
    size = len(page_src.encode("utf-8"))
    check(size <= BEFORE_BYTES // 4,
          f"the page is {size} bytes, more than a quarter of {BEFORE_BYTES} (before)")

    page = Page()
    page.feed(page_src)
    page.close()
    check(page.doctype, "<!DOCTYPE html>")
    check(not page.stack, f"unclosed elements at the end: {page.stack}")
    check("url(" not in page.style and "@import" not in page.style, "CSS fetches nothing")
    check(page.style.strip(), "inline CSS present")

    # Scripts: the inline one and the map store, nothing else.
    stores = [(a, t) for a, t in page.scripts if a.get("type") == MAP_STORE_TYPE]
    code = [(a, t) for a, t in page.scripts if a.get("type") != MAP_STORE_TYPE]
    check(len(stores) == 1 and len(code) == 1,
          f"one map store and one inline script, got {len(stores)} and {len(code)}")
    for a, t in code:
        check(not a, f"the inline script has no attributes: {a}")
        for bad in SCRIPT_FORBIDDEN:
            check(bad not in t, f"the inline script has {bad!r}")

    # One summary line, the CLI's.
    body = html.unescape("".join(page.text))
    if check(cli_summary, "the CLI prints its summary on stderr"):
        check(page.summaries == [cli_summary],
              f"one summary line equal to the CLI's:\n  page: {page.summaries}\n  cli:  {cli_summary}")
        check(body.count(cli_summary) == 1, "the summary appears once on the page")
        check(not re.search(r"\d+ access(es)? in \d+ kernels?:", body.replace(cli_summary, "")),
              "no second summary line")

    # The findings table.
    findings = [(m.group(1), m.group(2), m.group(3), m.group(4)) for m in re.finditer(
        r"^(\S+:\d+:\d+): (warning|remark): (.*) \[coalesce-([a-z-]+)\]$", text, re.M)]
    text_findings = [(level, rule) for _, level, _, rule in findings]
    check(len(page.rows) == len(findings),
          f"{len(page.rows)} rows in the findings table for {len(findings)} findings")
    row_text = "\n".join(html.unescape("".join(r["text"])) for r in page.rows)
    for loc, level, msg, rule in findings:
        check(msg in row_text, f"finding message in the table: {msg[:80]}")
        check(msg in body, f"finding message on the page: {msg[:80]}")
    check(sorted(r["attrs"]["data-loc"] for r in page.rows) == sorted(f[0] for f in findings),
          "the table's places are the findings'")

    # Worst first: each row's waste is an access's (recomputed from the JSON),
    # in rank order, the first the worst of all findings.
    spaces = {s["space"]: s for s in report["spaces"]}
    waste_at = {}
    for a in report["accesses"]:
        w = record_waste(a, spaces)
        if w:
            at = a.get("shown_at") or a  # a helper's access is shown at its call
            waste_at.setdefault(f"{at['file']}:{at['line']}:{at['column']}", []).append(w)
    check(len(waste_at) > 10, "accesses with a waste in the JSON output")
    check([r["attrs"]["data-rank"] for r in page.rows] == [str(i + 1) for i in range(len(page.rows))],
          "rows numbered 1.. in page order")
    prev, seen_none = None, False
    for r in page.rows:
        a = r["attrs"]
        if "data-weight" not in a:
            seen_none = True
            continue
        w = (a.get("data-scope"), float(a["data-weight"]))
        check(not seen_none, f"row {a['data-rank']}: a row with a waste after one without")
        cands = waste_at.get(a["data-loc"], [])
        check(any(c[0] == w[0] and close(c[1], w[1]) for c in cands),
              f"row {a['data-rank']} ({a['data-loc']}): waste {w} is none of its accesses' {cands}")
        check(prev is None or not worse(w, prev), f"row {a['data-rank']}: {w} ranks before {prev}")
        prev = w
    worst = None
    finding_places = {f[0] for f in findings}
    for key, ws in waste_at.items():
        if key not in finding_places:
            continue
        for w in ws:
            if worst is None or worse(w, (worst["scope"], worst["bytes"])):
                worst = {"scope": w[0], "bytes": w[1], "locs": {key}}
            elif not worse((worst["scope"], worst["bytes"]), w) and w[0] == worst["scope"]:
                worst["locs"].add(key)
    if check(page.rows and worst, "a worst finding"):
        first = page.rows[0]["attrs"]
        check(first["data-loc"] in worst["locs"] and first.get("data-scope") == worst["scope"] and
              close(float(first.get("data-weight", "nan")), worst["bytes"]),
              f"the first row is the worst finding ({worst}), got {first}")

    # Accesses and kernels.
    accesses = report["accesses"]
    check(len(page.accesses) == len(accesses),
          f"{len(page.accesses)} access blocks for {len(accesses)} accesses")
    check(page.kernels >= len(report["kernels"]),
          f"{page.kernels} kernel sections for {len(report['kernels'])} kernels")

    # Warp maps. Local memory's accesses have lane offsets (each lane's own)
    # but no warp map: its interleaved sectors are not drawn.
    maps = decode_store(*stores[0]) if stores else []
    check(all(a["svg"] == 0 for a in page.accesses), "no map drawn in the page's text (the script draws them)")
    with_pattern = sum(1 for a in accesses
                       if a["lane_offsets"] is not None and a["space"] != "local")
    placed = [a for a in page.accesses if a["map"] is not None]
    check(len(placed) == with_pattern,
          f"{len(placed)} warp maps for {with_pattern} accesses with a pattern")
    check(len(set(a["map"] for a in placed)) == len(maps), "every map of the store is used")
    parsed = []
    for i, (svg, caption) in enumerate(maps):
        m = MapSvg()
        m.feed(svg)
        m.close()
        check(m.svg == 1 and m.lanes >= 8, f"map {i}: one svg with its lanes")
        check(m.sectors or m.banks, f"map {i}: the map has sectors or banks")
        check(caption.startswith("warp map of one request"), f"map {i}: caption {caption[:60]}")
        parsed.append(m)
    for a in placed:
        check(0 <= a["map"] < len(maps), f"{a['id']}: map {a['map']} is in the store")

    # Known pictures.
    def map_of(*snippets):
        for a in page.accesses:
            if all(s in "".join(a["text"]) for s in snippets):
                return parsed[a["map"]] if a["map"] is not None and a["map"] < len(parsed) else None
        return None

    strided = map_of("global load from 'in'", "in[i * 1024]")
    if check(strided is not None, "bad.cu's access and its map are on the page"):
        check(strided.lanes == 32 and strided.sectors == 32,
              f"in[i * 1024]: 32 lanes to 32 sectors, got {strided.lanes} / {strided.sectors}")
    # (the reference kernels read other tiles by column too, padded: the
    # conflicted one is shared_maps.cu's)
    column = map_of("shared load from 'tile'", "tile[threadIdx.x][threadIdx.y]", "32-way")
    if check(column is not None, "shared_maps.cu's column read and its map are on the page"):
        check(column.banks == 32, "column read: 32 banks drawn")
        check(any(t.startswith("bank 0: 32 distinct words") for t in column.titles),
              "column read: bank 0 holds 32 distinct words")

    browser_checks(page_src, page, worst, text_findings)

    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print(f"ok: HTML report of {len(files)} files, {size} bytes ({100 * size / BEFORE_BYTES:.1f}% "
          f"of {BEFORE_BYTES} before), {len(page.rows)} findings, {len(page.accesses)} accesses, "
          f"{len(maps)} distinct maps for {len(placed)} accesses; checked in {find_chromium()}")


if __name__ == "__main__":
    main()

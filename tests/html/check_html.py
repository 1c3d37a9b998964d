#!/usr/bin/env python3
"""check_html.py COALESCE_LINT PROJECT_DIR FILE.cu...

Checks `coalesce-lint --format=html` with Python's html.parser (the visual
check in headless Chromium is documented in docs/html-report.md):

- the page is well formed (every element closed, in order) and
  self-contained: no scripts, stylesheets, images, frames or fonts to fetch,
  no src= attributes, links only to anchors in the page, no url()/@import in CSS;
- one <details class="access"> per access of the JSON output, one kernel
  section per kernel;
- a warp-map <svg> for every access that has a lane pattern, with 32 lane
  boxes, and for a known case the right targets: bad.cu's strided load maps
  32 lanes to 32 different sectors, shared_maps.cu's column read maps 32
  lanes onto bank 0 (32 distinct words);
- every finding's message of the text output is on the page.
"""
import html
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
FORBIDDEN = {"script", "link", "img", "iframe", "object", "embed", "audio", "video", "source",
             "image", "use", "foreignobject", "base"}

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
    return cond


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.accesses = []   # one dict per <details class="access">
        self.kernels = 0
        self.current = None
        self.style = ""
        self.in_style = False
        self.text = []
        self.doctype = False

    def handle_decl(self, decl):
        self.doctype |= decl.lower() == "doctype html"

    def _attrs(self, tag, attrs):
        a = dict(attrs)
        check(tag not in FORBIDDEN, f"external or active element <{tag}>")
        check("src" not in a, f"<{tag}> has a src attribute")
        if "href" in a:
            check(a["href"].startswith("#"), f"<{tag}> links outside the page: {a['href']}")
        for k, v in a.items():
            check(not (k.startswith("on")), f"<{tag}> has an event handler {k}")
            if v and "url(" in v:
                failures.append(f"<{tag} {k}> refers to a url()")
        return a

    def handle_starttag(self, tag, attrs):
        a = self._attrs(tag, attrs)
        cls = (a.get("class") or "").split()
        if tag == "details" and "access" in cls:
            self.current = {"id": a.get("id"), "svg": 0, "lanes": 0, "sectors": 0, "banks": 0,
                            "titles": [], "text": []}
            self.accesses.append(self.current)
        if tag == "section" and "kernel" in cls:
            self.kernels += 1
        if self.current is not None:
            if tag == "svg":
                self.current["svg"] += 1
            if tag == "rect" and "lane" in cls:
                self.current["lanes"] += 1
            if tag == "rect" and "sector" in cls:
                self.current["sectors"] += 1
            if tag == "rect" and "bank" in cls:
                self.current["banks"] += 1
        if tag == "style":
            self.in_style = True
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
        if tag == "details":
            self.current = None
        if tag == "style":
            self.in_style = False

    def handle_data(self, data):
        if self.in_style:
            self.style += data
        self.text.append(data)
        if self.current is not None:
            self.current["text"].append(data)
            if self.stack and self.stack[-1] == "title":
                self.current["titles"].append(data)


def main():
    lint, project = os.path.abspath(sys.argv[1]), sys.argv[2]
    files = [os.path.relpath(f, project) for f in sys.argv[3:]]
    args = [lint, "--cuda-path=none", "--color=never"]
    page_src = subprocess.run(args + ["--format=html"] + files, cwd=project, capture_output=True,
                              text=True)
    check(page_src.returncode == 1, f"html run exits 1 with findings, got {page_src.returncode}")
    report = json.loads(subprocess.run(args + ["--format=json"] + files, cwd=project,
                                       capture_output=True, text=True).stdout)
    text = subprocess.run(args + ["--exit-zero"] + files, cwd=project, capture_output=True,
                          text=True).stdout

    page = Page()
    page.feed(page_src.stdout)
    page.close()
    check(page.doctype, "<!DOCTYPE html>")
    check(not page.stack, f"unclosed elements at the end: {page.stack}")
    check("url(" not in page.style and "@import" not in page.style, "CSS fetches nothing")
    check(page.style.strip(), "inline CSS present")

    accesses = report["accesses"]
    check(len(page.accesses) == len(accesses),
          f"{len(page.accesses)} access blocks for {len(accesses)} accesses")
    check(page.kernels >= len(report["kernels"]),
          f"{page.kernels} kernel sections for {len(report['kernels'])} kernels")
    # Local memory's accesses have lane offsets (each lane's own) but no
    # warp map: its interleaved sectors are not drawn.
    with_pattern = sum(1 for a in accesses
                       if a["lane_offsets"] is not None and a["space"] != "local")
    maps = [a for a in page.accesses if a["svg"]]
    check(len(maps) == with_pattern, f"{len(maps)} warp maps for {with_pattern} accesses with a pattern")
    for a in maps:
        check(a["svg"] == 1 and a["lanes"] >= 8, f"{a['id']}: one map with its lanes")
        check(a["sectors"] or a["banks"], f"{a['id']}: the map has sectors or banks")

    body = html.unescape("".join(page.text))
    for m in re.finditer(r"^\S+:\d+:\d+: (?:warning|remark): (.*) \[coalesce-[a-z-]+\]$", text, re.M):
        check(m.group(1) in body, f"finding message on the page: {m.group(1)[:80]}")

    # Known pictures.
    def access_with(*snippets):
        for a in page.accesses:
            if all(s in "".join(a["text"]) for s in snippets):
                return a
        return None

    strided = access_with("global load from 'in'", "in[i * 1024]")
    if check(strided is not None, "bad.cu's access is on the page"):
        check(strided["lanes"] == 32 and strided["sectors"] == 32,
              f"in[i * 1024]: 32 lanes to 32 sectors, got {strided['lanes']} / {strided['sectors']}")
    column = access_with("shared load from 'tile'", "tile[threadIdx.x][threadIdx.y]")
    if check(column is not None, "shared_maps.cu's column read is on the page"):
        check(column["banks"] == 32, "column read: 32 banks drawn")
        check(any(t.startswith("bank 0: 32 distinct words") for t in column["titles"]),
              "column read: bank 0 holds 32 distinct words")

    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print(f"ok: HTML report of {len(files)} files, {len(page.accesses)} accesses, {len(maps)} maps")


if __name__ == "__main__":
    main()

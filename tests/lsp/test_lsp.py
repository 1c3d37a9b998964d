#!/usr/bin/env python3
"""`coalesce-lint lsp` driven by a real LSP client session over stdio.

    test_lsp.py COALESCE_LINT PROJECT_SOURCE_DIR

1. A session on tests/lsp/Inputs/tile.cu (initialize, didOpen, diagnostics,
   inlayHint, hover, codeAction, didChange with the padding edit, shutdown,
   exit): the diagnostics are the CLI's findings (positions, messages, rule
   codes, notes as related information), every access line has its numbers
   as an inlay hint, the hover holds the warp map --explain draws, the code
   action's edit is the padding fix-it, and after the edit (unsaved) the
   analysis of the buffer has no bank conflict left.
2. A file of 50 kernels (tools/bench/gen_kernels.py): the first diagnostics
   arrive within the time of one CLI run on the file (with a generous
   margin), and reopening the unchanged file answers from the cache. Edits
   inside one kernel keep the other kernels' results (those an edit moves
   are analysed again), with the CLI's findings on the edited text.
3. A project's compile_commands.json and .coalesce-lint.yaml, edited
   settings, and a buffer that does not parse; a kernel template in a header
   that only a file of the build instantiates, opened in the editor.
4. Cancellation and outdated versions: a request waiting for an analysis is
   cancelled by $/cancelRequest; results of superseded versions are never
   published.
5. With --witness (nvcc and nvdisasm found): the compiler witness compiles
   in the background and refines the diagnostics when it lands.

Uses the built-in CUDA header (--cuda-path=none) and a temporary copy of the
inputs, so no .coalesce-lint.yaml or compile_commands.json of the checkout
applies.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient  # noqa: E402

FAILURES = []


def check(cond, what, detail=""):
    if cond:
        print("ok: " + what)
    else:
        print("FAIL: " + what + ("\n  " + detail if detail else ""))
        FAILURES.append(what)
    return cond


CLIENT_CAPABILITIES = {
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {
        "publishDiagnostics": {"relatedInformation": True},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "inlayHint": {},
        "codeAction": {"codeActionLiteralSupport": {
            "codeActionKind": {"valueSet": ["quickfix"]}}},
    },
}


def start(lint, work, *extra, capabilities=CLIENT_CAPABILITIES):
    c = LspClient([lint, "lsp", "--cuda-path=none", "--witness=off", *extra], cwd=work)
    init = c.request("initialize", {"processId": os.getpid(), "rootUri": pathlib.Path(work).as_uri(),
                                    "capabilities": capabilities})
    c.notify("initialized", {})
    return c, init


def open_doc(c, path, text, version=1, language="cuda"):
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": path.as_uri(), "languageId": language, "version": version, "text": text}})


def diagnostics_of(c, uri, version, after=0, timeout=120):
    i, params, t = c.wait_notification(
        "textDocument/publishDiagnostics",
        lambda p: p["uri"] == uri and p.get("version") == version, timeout, after)
    return i, params["diagnostics"], t


def cli_findings(lint, work, name):
    """The CLI's text output on work/name: [(line0, col0, level, message, code, [notes])]."""
    out = subprocess.run([lint, "--cuda-path=none", "--witness=off", "--color=never", "--exit-zero", name],
                         cwd=work, capture_output=True, text=True, check=True).stdout
    head = re.compile(r"^" + re.escape(name) + r":(\d+):(\d+): (warning|remark|note): (.*)$")
    findings = []
    for line in out.splitlines():
        m = head.match(line)
        if not m:
            continue
        if m.group(3) == "note":
            findings[-1][5].append(m.group(4))
            continue
        msg, code = re.match(r"^(.*) \[(coalesce-[a-z-]+)\]$", m.group(4)).groups()
        findings.append((int(m.group(1)) - 1, int(m.group(2)) - 1, m.group(3), msg, code, []))
    return findings, out


def lsp_findings(diags):
    level = {2: "warning", 3: "remark"}
    return [(d["range"]["start"]["line"], d["range"]["start"]["character"],
             level.get(d["severity"], str(d["severity"])), d["message"], d.get("code"),
             [r["message"] for r in d.get("relatedInformation", [])]) for d in diags]


def whole(text):
    return {"start": {"line": 0, "character": 0},
            "end": {"line": len(text.splitlines()) + 1, "character": 0}}


def apply_edit(text, edit):
    lines = text.split("\n")
    s, e = edit["range"]["start"], edit["range"]["end"]
    check(s["line"] == e["line"], "the padding edit stays on one line")
    line = lines[s["line"]]
    lines[s["line"]] = line[:s["character"]] + edit["newText"] + line[e["character"]:]
    return "\n".join(lines)


def session(lint, work):
    src = work / "tile.cu"
    text = src.read_text()
    uri = src.as_uri()
    lines = text.splitlines()
    c, init = start(lint, str(work))
    caps = init["capabilities"]
    check(caps.get("inlayHintProvider") and caps.get("hoverProvider") and
          caps.get("codeActionProvider") and caps["textDocumentSync"]["change"] == 2,
          "initialize: inlay hints, hover, code actions, incremental sync")
    check(caps.get("positionEncoding") == "utf-16", "positions in UTF-16 when only that is offered")

    open_doc(c, src, text)
    _, diags, _ = diagnostics_of(c, uri, 1)
    want, cli_out = cli_findings(lint, str(work), "tile.cu")
    got = lsp_findings(diags)
    check(len(want) == 4 and sorted(got) == sorted(want),
          "diagnostics = the CLI's findings (position, level, message, code, notes as "
          "related information)", "lsp: %r\n  cli: %r" % (got, want))
    check(all(d["source"] == "coalesce-lint" for d in diags), "source coalesce-lint")
    check(not [d for d in diags if d["range"]["start"]["line"] == 13],
          "the finding silenced by `coalesce-lint: ignore[...]` is not published")

    # Inlay hints: every access line, at its end, with the numbers.
    hints = c.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole(text)})
    by_line = {h["position"]["line"]: h for h in hints}
    accesses = subprocess.run([lint, "--cuda-path=none", "--witness=off", "--format=json", "tile.cu"], cwd=work,
                              capture_output=True, text=True).stdout
    access_lines = {a["line"] - 1 for a in json.loads(accesses)["accesses"]}
    check(set(by_line) == access_lines,
          "one hint per access line: %r vs %r" % (sorted(by_line), sorted(access_lines)))
    check(all(h["position"]["character"] == len(lines[h["position"]["line"]]) for h in hints),
          "hints sit at the end of their lines")
    expect = {8: "tile 1/1 wavefronts, in 4/4 sectors",
              10: "out 4/4 sectors, tile 32/1 wavefronts (32-way)",
              11: "pairs 2/1 wavefronts (2-way), in 32/4 sectors",
              12: "out 4/4 sectors, in ? sectors (idx[x]), idx 4/4 sectors",
              13: "out 4/4 sectors, in 32/4 sectors"}
    for line, label in expect.items():
        check(by_line.get(line, {}).get("label") == label,
              "hint on line %d: %r (got %r)" % (line + 1, label, by_line.get(line, {}).get("label")))
    check("depends on data loaded by `idx[x]`" in by_line.get(12, {}).get("tooltip", ""),
          "the unknown access's hint has its reason as tooltip")
    part = c.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
        "start": {"line": 10, "character": 0}, "end": {"line": 11, "character": 0}}})
    check([h["position"]["line"] for h in part] == [10, 11], "hints only for the requested lines")

    # Hover on the column read of the tile: the warp map --explain draws.
    col = lines[10].index("tile[x][y]")
    hover = c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                             "position": {"line": 10, "character": col + 2}})
    value = hover["contents"]["value"] if hover else ""
    check(hover and hover["contents"]["kind"] == "markdown" and "```text" in value,
          "hover: markdown with a code block")
    check("**shared load from 'tile'**: 32 wavefronts per request (ideal 1): 32-way bank conflict"
          in value and "out" not in value.split("```")[0], "hover: the access under the cursor only")
    explain = subprocess.run([lint, "--cuda-path=none", "--witness=off", "--color=never", "--exit-zero", "--explain",
                              "tile.cu"], cwd=work, capture_output=True, text=True).stdout
    # The map follows the finding's notes and ends at the next finding.
    block = explain.split("tile.cu:11:21: warning:")[1].split("  warp map:")[1]
    cli_map = ["warp map:" + block.splitlines()[0]]
    for l in block.splitlines()[1:]:
        if l.startswith("tile.cu:"):
            break
        cli_map.append(l)
    hover_map = [l.strip() for l in value.split("```text")[1].split("```")[0].splitlines() if l.strip()]
    check(hover_map == [l.strip() for l in cli_map],
          "hover: the same map as --explain", "hover: %r\n  cli: %r" % (hover_map, cli_map))
    whole_line = c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 10, "character": 0}})
    check(whole_line and whole_line["contents"]["value"].count("```text") == 2,
          "hover at the line's start: both accesses of the line")
    check(c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                           "position": {"line": 9, "character": 3}}) is None,
          "no hover on a line without accesses")

    # The padding fix as a quick fix.
    actions = c.request("textDocument/codeAction", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 10, "character": col}, "end": {"line": 10, "character": col}},
        "context": {"diagnostics": [d for d in diags if d["range"]["start"]["line"] == 10]}})
    check(len(actions) == 1 and actions[0]["kind"] == "quickfix" and
          actions[0]["title"] == "pad 'tile' to tile[32][33]" and
          actions[0]["diagnostics"][0]["code"] == "coalesce-shared-bank-conflict",
          "one quick fix for the conflict: %r" % [a.get("title") for a in actions])
    edits = actions[0]["edit"]["changes"].get(uri, []) if actions else []
    check(edits == [{"range": {"start": {"line": 5, "character": 28}, "end": {"line": 5, "character": 30}},
                     "newText": "33"}], "the edit is the fix-it (6:29, 2 characters -> 33): %r" % edits)
    check(c.request("textDocument/codeAction", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 12, "character": 0}, "end": {"line": 12, "character": 0}},
        "context": {"diagnostics": []}}) == [], "no action where there is no fix")

    # The user applies it: an incremental change, not saved.
    if edits:
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                            "contentChanges": [{"range": edits[0]["range"],
                                                                "text": edits[0]["newText"]}]})
        _, diags2, _ = diagnostics_of(c, uri, 2)
        check(not [d for d in diags2 if d["code"] == "coalesce-shared-bank-conflict" and
                   d["range"]["start"]["line"] == 10],
              "after the edit the buffer's tile read has no conflict left")
        check(len(diags2) == 3, "the other findings remain: %d" % len(diags2))
        hints2 = {h["position"]["line"]: h["label"] for h in c.request(
            "textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole(text)})}
        check(hints2.get(10) == "out 4/4 sectors, tile 1/1 wavefronts",
              "hint after the edit: %r" % hints2.get(10))
        check(src.read_text() == text, "the file on disk is untouched")
        # The CLI on the same text, saved elsewhere, agrees.
        (work / "padded").mkdir()
        (work / "padded" / "tile.cu").write_text(apply_edit(text, edits[0]))
        want2, _ = cli_findings(lint, str(work / "padded"), "tile.cu")
        check(sorted(lsp_findings(diags2)) == sorted(want2),
              "the buffer's findings = the CLI's on that text",
              "lsp: %r\n  cli: %r" % (lsp_findings(diags2), want2))

    c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    _, cleared, _ = c.wait_notification("textDocument/publishDiagnostics",
                                        lambda p: p["uri"] == uri and not p["diagnostics"])
    check(cleared is not None, "closing clears the diagnostics")
    check(c.close() == 0, "shutdown + exit: exit status 0")


def fifty_kernels(lint, work, src_dir):
    k50 = work / "kernels50.cu"
    subprocess.run([sys.executable, str(src_dir / "tools" / "bench" / "gen_kernels.py"),
                    "--kernels", "50", "-o", str(k50)], check=True)
    text = k50.read_text()
    cli = [lint, "--cuda-path=none", "--witness=off", "--color=never", "--exit-zero", k50.name]
    subprocess.run(cli, cwd=work, capture_output=True, check=True)  # the header cache, as the server finds it
    t0 = time.monotonic()
    want, _ = cli_findings(lint, str(work), k50.name)
    t_cli = time.monotonic() - t0

    c, _ = start(lint, str(work))
    uri = k50.as_uri()
    t0 = time.monotonic()
    open_doc(c, k50, text)
    i, first, t1 = diagnostics_of(c, uri, 1)
    t_first = t1 - t0
    check(sorted(lsp_findings(first)) == sorted(want) and len(want) > 50,
          "50 kernels: the CLI's %d findings" % len(want))
    print("50 kernels: one CLI run %.3f s, first diagnostics after %.3f s" % (t_cli, t_first))
    check(t_first <= 2 * t_cli + 1.0,
          "first diagnostics within the time of one CLI run (x2 + 1 s margin)")

    c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    c.wait_notification("textDocument/publishDiagnostics",
                        lambda p: p["uri"] == uri and not p["diagnostics"], after=i + 1)
    logs_before = len(c.logs())
    t0 = time.monotonic()
    open_doc(c, k50, text)
    _, again, t1 = diagnostics_of(c, uri, 1, after=i + 1)
    t_again = t1 - t0
    print("50 kernels: reopened unchanged, diagnostics after %.3f s" % t_again)
    new_logs = c.logs()[logs_before:]
    check(any(str(k50) in m and "unchanged, answered from the cache" in m for m in new_logs),
          "the second open answers from the cache: %r" % new_logs)
    check(again == first, "... with the same diagnostics")
    check(c.close() == 0, "exit status 0")


def kernel_reuse(lint, work, src_dir):
    """Edits inside one kernel of a file of 50: the kernels the edit did not
    touch keep their results (analyzer/KernelReuse.h), and the diagnostics
    are the CLI's on the edited text, byte for byte."""
    src = work / "reuse50.cu"
    subprocess.run([sys.executable, str(src_dir / "tools" / "bench" / "gen_kernels.py"),
                    "--kernels", "50", "-o", str(src)], check=True)
    text = src.read_text()
    uri = src.as_uri()
    c, _ = start(lint, str(work))
    open_doc(c, src, text)
    i, _, _ = diagnostics_of(c, uri, 1)

    def edit_and_compare(version, old, new, what):
        nonlocal text, i
        check(old in text, "%s: the text to edit is there" % what)
        text = text.replace(old, new, 1)
        logs_before = len(c.logs())
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                            "contentChanges": [{"text": text}]})
        i, diags, _ = diagnostics_of(c, uri, version, after=i + 1)
        src.write_text(text)  # the CLI reads the edited text from disk
        want, _ = cli_findings(lint, str(work), src.name)
        check(sorted(lsp_findings(diags)) == sorted(want), "%s: the CLI's findings" % what,
              "%r\n%r" % (sorted(lsp_findings(diags))[:3], sorted(want)[:3]))
        kept = [m for m in c.logs()[logs_before:] if "kernels unchanged" in m]
        m = re.search(r"(\d+) of (\d+) kernels unchanged", kept[0]) if kept else None
        return (int(m.group(1)), int(m.group(2))) if m else (0, 0)

    # The same length, inside the first kernel: every other kernel kept.
    n, total = edit_and_compare(2, "out[i] = in[i * 3 + 32];", "out[i] = in[i * 3 + 64];",
                                "an edit inside copy_0")
    check(total >= 50 and n == total - 1, "... every other kernel's results kept (%d of %d)" % (n, total))
    # Typing inside a line of a kernel in the middle: every other kernel kept.
    at = text.index("__global__", len(text) // 2)
    body = text.index("{", at) + 1
    head = text[at:body]
    n2, total2 = edit_and_compare(3, head, head + " /* typed here */",
                                  "typing inside a kernel in the middle")
    check(n2 == total2 - 1, "... every other kernel's results kept (%d of %d)" % (n2, total2))
    # A line more inside that kernel: the lines after it move (the host code
    # that launches every kernel among them): nothing kept.
    n3, _ = edit_and_compare(4, head + " /* typed here */", head + "\n  // a line more",
                             "a line more inside a kernel")
    check(n3 == 0, "... no kernel's results kept (%d)" % n3)
    # An edit outside every kernel (a helper): nothing kept.
    n4, _ = edit_and_compare(5, "return p[i];", "return p[i + 0];", "an edit in a helper")
    check(n4 == 0, "... no kernel's results kept (%d)" % n4)
    check(c.close() == 0, "exit status 0")


def reuse_equals_fresh(lint, work):
    """Edits inside a kernel that other kernels' results read all the same:
    the server's diagnostics and code actions after the edit are a fresh
    server's on the edited text (a directive spelled `%:`, a file-scope
    `__shared__` array whose layout fix weighs every kernel's uses, a launch
    inside a kernel)."""
    main = "int main() { float *p; a<<<1, 32>>>(p); b<<<1, 32>>>(p); return 0; }\n"
    directive = ("__global__ void a(float *p) {\n%:define STRIDE 1\n  p[threadIdx.x] = 0;\n}\n"
                 "__global__ void b(float *p) {\n  p[threadIdx.x * STRIDE] = 1;\n}\n" + main)
    shared = ("__shared__ float tile[32][32];\n"
              "__global__ void b(float *out) {\n  tile[threadIdx.x][0] = 1.f;\n  __syncthreads();\n"
              "  out[threadIdx.x] = tile[threadIdx.x][1];\n}\n"
              "__global__ void a(float *out) {\n  tile[threadIdx.y][threadIdx.x] = 2.f;\n"
              "  out[threadIdx.x] = tile[threadIdx.y][threadIdx.x];\n}\n" + main)
    nested = ("__global__ void k(float *p) {\n  p[threadIdx.x * 2] = 0;\n}\n"
              "__global__ void j(float *p) {\n  k<<<1, 32>>>(p);\n}\n"
              "int main() { float *p; j<<<1, 1>>>(p); return 0; }\n")
    cases = [("directive", directive, "STRIDE 1", "STRIDE 8"),
             ("shared", shared, "tile[threadIdx.y][threadIdx.x] = 2.f;",
              "*tile[threadIdx.y]             = 2.f;"),
             ("nested", nested, "k<<<1, 32>>>", "k<<<1, 64>>>")]

    def answer(c, uri, version, text, after=0):
        i, d, _ = diagnostics_of(c, uri, version, after=after)
        acts = c.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": whole(text),
                                                     "context": {"diagnostics": d}})
        return i, json.dumps([d, acts], sort_keys=True)

    for name, before, old, new in cases:
        after = before.replace(old, new, 1)
        src = work / ("reuse_" + name + ".cu")
        src.write_text(before)
        uri = src.as_uri()
        c, _ = start(lint, str(work))
        open_doc(c, src, before)
        i, first = answer(c, uri, 1, before)
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                            "contentChanges": [{"text": after}]})
        _, edited = answer(c, uri, 2, after, after=i + 1)
        c.close()
        src.write_text(after)
        c, _ = start(lint, str(work))
        open_doc(c, src, after)
        _, fresh = answer(c, uri, 1, after)
        c.close()
        check(edited != first, "reuse, %s: the edit changes the answer" % name)
        check(edited == fresh, "reuse, %s: after the edit, a fresh server's answer" % name)


def cancel_and_stale(lint, work):
    src = work / "tile.cu"
    text = src.read_text()
    uri = src.as_uri()
    c, _ = start(lint, str(work), "--debounce=1500")
    open_doc(c, src, text)
    diagnostics_of(c, uri, 1)
    # v2 waits for its debounce: a hover about it waits too, until cancelled.
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                        "contentChanges": [{"text": text + "// v2\n"}]})
    rid = c.send_request("textDocument/hover", {"textDocument": {"uri": uri},
                                                "position": {"line": 10, "character": 20}})
    c.notify("$/cancelRequest", {"id": rid})
    t0 = time.monotonic()
    resp = c.response(rid, timeout=30)
    check(resp.get("error", {}).get("code") == -32800 and time.monotonic() - t0 < 1.0,
          "$/cancelRequest answers the waiting request with RequestCancelled: %r" % resp)
    # v3 supersedes v2 before v2 is analysed; its hover is answered for v3.
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                        "contentChanges": [{"text": text + "// v3\n"}]})
    hover = c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                             "position": {"line": 10, "character": 20}})
    check(hover is not None and "32-way" in hover["contents"]["value"], "a later request waits for v3")
    diagnostics_of(c, uri, 3)
    versions = [p.get("version") for p in c.notifications_of("textDocument/publishDiagnostics")]
    check(2 not in versions, "nothing published for the superseded version 2: %r" % versions)
    check(c.close() == 0, "exit status 0")

    # Without debounce, two changes 50 ms apart on a file whose analysis
    # takes longer: the first one's results, if its analysis started, are
    # dropped, never published.
    k50 = work / "kernels50.cu"
    if k50.exists():
        big = k50.read_text()
        c, _ = start(lint, str(work), "--debounce=0")
        kuri = k50.as_uri()
        open_doc(c, k50, big)
        diagnostics_of(c, kuri, 1)
        c.notify("textDocument/didChange", {"textDocument": {"uri": kuri, "version": 2},
                                            "contentChanges": [{"text": big + "// v2\n"}]})
        time.sleep(0.05)  # v2's analysis is under way (it takes longer)
        c.notify("textDocument/didChange", {"textDocument": {"uri": kuri, "version": 3},
                                            "contentChanges": [{"text": big + "// v3\n"}]})
        diagnostics_of(c, kuri, 3)
        versions = [p.get("version") for p in c.notifications_of("textDocument/publishDiagnostics")]
        check(versions == [1, 3], "only versions 1 and 3 published: %r" % versions)
        print("log: " + "; ".join(m for m in c.logs() if "outdated" in m))
        check(c.close() == 0, "exit status 0")


def project(lint, work):
    """A file of a project: its command from the build's compile_commands.json
    (found beside a parent directory, as clang-tidy finds it), its settings
    from the project's .coalesce-lint.yaml; and a buffer that does not parse."""
    proj = work / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "build").mkdir()
    src = proj / "src" / "k.cu"
    text = ("__global__ void k(const float *in, float *out) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  out[i] = in[STRIDE * i];\n"
            "}\n"
            "int main() { float *a, *b; k<<<8, 256>>>(a, b); }\n")
    src.write_text(text)
    (proj / "build" / "compile_commands.json").write_text(json.dumps([{
        "directory": str(proj / "build"), "file": "../src/k.cu",
        "command": "nvcc -DSTRIDE=8 -arch=sm_80 -c ../src/k.cu -o k.o"}]))
    (proj / ".coalesce-lint.yaml").write_text("min-ratio: 10\n")
    uri = src.as_uri()
    caps = dict(CLIENT_CAPABILITIES, general={"positionEncodings": ["utf-16", "utf-8"]},
                workspace={"inlayHint": {"refreshSupport": True}})
    c, init = start(lint, str(work), "--notes-in-message", capabilities=caps)
    check(init["capabilities"]["positionEncoding"] == "utf-8", "UTF-8 positions when offered")
    open_doc(c, src, text)
    _, diags, _ = diagnostics_of(c, uri, 1)
    hints = c.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole(text)})
    check([h["label"] for h in hints] == ["out 4/4 sectors, in 32/4 sectors"],
          "the compile database's -DSTRIDE=8 is used: %r" % [h["label"] for h in hints])
    check(diags == [], "min-ratio 10 from .coalesce-lint.yaml: 8x ideal is not reported")
    (proj / ".coalesce-lint.yaml").write_text("min-ratio: 4\n")
    mark = len(c.notifications)
    c.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    _, diags, _ = diagnostics_of(c, uri, 1, after=mark)
    check([d["code"] for d in diags] == ["coalesce-uncoalesced-global"],
          "the edited settings apply at the next analysis (a save)")
    check(c.wait_server_request("workspace/inlayHint/refresh") is not None,
          "after analysing the saved file again, the client is asked to refresh its hints")
    check(len(diags) == 1 and "relatedInformation" not in diags[0] and
          "\n\nnote: lane 0 -> byte +0, lane 1 -> byte +32" in diags[0]["message"],
          "--notes-in-message: the notes in the message: %r" % diags)
    (proj / ".coalesce-lint.yaml").write_text("min-ratio: high\n")
    mark = len(c.notifications)
    c.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    _, diags, _ = diagnostics_of(c, uri, 1, after=mark)
    check(len(diags) == 1 and "min-ratio" in diags[0]["message"] and
          diags[0]["severity"] == 2, "a bad setting is one diagnostic: %r" % diags)
    (proj / ".coalesce-lint.yaml").write_text("min-ratio: 4\n")
    # The build is reconfigured: the new command applies at the next analysis.
    (proj / "build" / "compile_commands.json").write_text(json.dumps([{
        "directory": str(proj / "build"), "file": "../src/k.cu",
        "command": "nvcc -DSTRIDE=2 -arch=sm_80 -c ../src/k.cu -o k.o"}]))
    mark = len(c.notifications)
    c.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    diagnostics_of(c, uri, 1, after=mark)
    hints = c.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole(text)})
    check([h["label"] for h in hints] == ["out 4/4 sectors, in 8/4 sectors"],
          "a changed compile_commands.json is read again: %r" % [h["label"] for h in hints])

    broken = text.replace("out[i] = in[STRIDE * i];", "out[i] = in[STRIDE * i]")
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                        "contentChanges": [{"text": broken}]})
    _, diags, _ = diagnostics_of(c, uri, 2)
    check(len(diags) == 1 and "does not parse" in diags[0]["message"] and
          "expected ';'" in diags[0]["message"] and diags[0]["range"]["start"]["line"] == 2,
          "a buffer that does not parse: one diagnostic at clang's first error: %r" % diags)
    check(c.request("textDocument/inlayHint", {"textDocument": {"uri": uri},
                                               "range": whole(text)}) == [],
          "... and no hints")

    # A C++ file (an editor may attach the server to all of C++): left alone.
    host = proj / "src" / "host.cpp"
    host.write_text(text)
    open_doc(c, host, text, language="cpp")
    host_doc = {"textDocument": {"uri": host.as_uri()}, "range": whole(text)}
    check(c.request("textDocument/inlayHint", host_doc) == [] and
          diagnostics_of(c, host.as_uri(), 1)[1] == [],
          "a .cpp file is not analysed (no hints, no diagnostics)")
    check(c.close() == 0, "exit status 0")


def header_through_includer(lint, work):
    """A kernel template in a header, instantiated and launched only by a
    file of the build that includes it through another header (SGEMM_CUDA's
    src/kernels/*.cuh): opening the header shows its own diagnostics and
    hints, from the including unit's instantiations; an unsaved edit of the
    header is what is analysed."""
    proj = work / "hproj"
    (proj / "src" / "kernels").mkdir(parents=True)
    (proj / "build").mkdir()
    header = proj / "src" / "kernels" / "transpose.cuh"
    htext = ("template <int W> __global__ void copy_cols(const float *in, float *out) {\n"
             "  out[threadIdx.x] = in[threadIdx.x * W];\n"
             "}\n")
    header.write_text(htext)
    (proj / "src" / "kernels.cuh").write_text('#include "kernels/transpose.cuh"\n')
    (proj / "src" / "runner.cu").write_text(
        '#include "kernels.cuh"\n'
        "void run(const float *a, float *b) { copy_cols<8><<<4, 128>>>(a, b); }\n")
    (proj / "build" / "compile_commands.json").write_text(json.dumps([{
        "directory": str(proj / "build"), "file": "../src/runner.cu",
        "command": "nvcc -I../src -arch=sm_90 -c ../src/runner.cu -o runner.o"}]))
    uri = header.as_uri()
    c, _ = start(lint, str(work))
    open_doc(c, header, htext)
    _, diags, _ = diagnostics_of(c, uri, 1)
    check([(d["code"], d["range"]["start"]["line"]) for d in diags] ==
          [("coalesce-uncoalesced-global", 1)] and "32 sectors per request" in diags[0]["message"],
          "the header's finding, from runner.cu's copy_cols<8>: %r" % diags)
    hints = c.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole(htext)})
    check([h["label"] for h in hints] == ["out 4/4 sectors, in 32/4 sectors"],
          "the header's hints: %r" % [h["label"] for h in hints])
    edited = htext.replace("threadIdx.x * W", "threadIdx.x + W")
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                        "contentChanges": [{"text": edited}]})
    _, diags, _ = diagnostics_of(c, uri, 2)
    check(diags == [], "the unsaved edit is analysed (a coalesced read): %r" % diags)
    check(c.close() == 0, "exit status 0")


WITNESS_KERNEL = """__global__ void four_floats(const float *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = p[4 * i + 0];
  float b = p[4 * i + 1];
  float c = p[4 * i + 2];
  float d = p[4 * i + 3];
  out[i] = a + b + c + d;
}
void launch(float *p, float *o) { four_floats<<<64, 256>>>(p, o); }
"""


def witness_refines(lint, work):
    """5. The compiler witness in the background (docs/witness.md): a saved
    file whose compile is not cached gets the source analysis' diagnostics
    first, then, once nvcc and nvdisasm are done, the same version's
    diagnostics joined with the witness (here: the note that one LDG.E.128
    would do); reopened, the witness answers from its cache at once."""
    src = work / "vectors.cu"
    src.write_text(WITNESS_KERNEL)
    uri = src.as_uri()
    cache = work / "witness-cache"
    env = dict(os.environ, COALESCE_CACHE_DIR=str(cache))
    c = LspClient([lint, "lsp", "--witness=auto"], cwd=str(work), env=env)
    c.request("initialize", {"processId": os.getpid(), "rootUri": work.as_uri(),
                             "capabilities": CLIENT_CAPABILITIES})
    c.notify("initialized", {})
    open_doc(c, src, WITNESS_KERNEL)
    i, first, _ = diagnostics_of(c, uri, 1)
    notes = [r for d in first for r in lsp_findings([d])[0][5]]
    check(len(first) == 4 and not any("nvcc emitted 4 LDG.E" in n for n in notes),
          "first: the source analysis' four warnings, without the witness",
          json.dumps(first)[:600])
    _, second, _ = diagnostics_of(c, uri, 1, after=i + 1, timeout=180)
    notes = [r for d in second for r in lsp_findings([d])[0][5]]
    check(any("nvcc emitted 4 LDG.E" in n and "__builtin_assume_aligned(p, 16)" in n for n in notes),
          "then the same version refined with the witness: one LDG.E.128 would do",
          json.dumps(second)[:600])
    check(any("compiler witness compiled in" in m for m in c.logs()),
          "the background compile is logged", "; ".join(c.logs())[-600:])
    check(c.close() == 0, "exit status 0")
    # Reopened: from the witness's cache, one publication with the note.
    c = LspClient([lint, "lsp", "--witness=auto"], cwd=str(work), env=env)
    c.request("initialize", {"processId": os.getpid(), "rootUri": work.as_uri(),
                             "capabilities": CLIENT_CAPABILITIES})
    c.notify("initialized", {})
    open_doc(c, src, WITNESS_KERNEL)
    _, again, _ = diagnostics_of(c, uri, 1)
    notes = [r for d in again for r in lsp_findings([d])[0][5]]
    check(any("nvcc emitted 4 LDG.E" in n for n in notes),
          "reopened: the witness from its cache in the first publication")
    check(c.close() == 0, "exit status 0")


def bad_usage(lint):
    r = subprocess.run([lint, "lsp", "--debounce=soon"], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    check(r.returncode == 2 and "--debounce expects milliseconds" in r.stderr,
          "a bad option: exit 2 with a message")
    r = subprocess.run([lint, "lsp", "--cuda-path=none"], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    check(r.returncode == 1 and "stopped without a shutdown request" in r.stderr,
          "input ends without exit: exit status 1 and a message")
    bad = b'{"id": 1, "method": "initialize"}'
    r = subprocess.run([lint, "lsp", "--cuda-path=none"], capture_output=True,
                       input=b"Content-Length: %d\r\n\r\n" % len(bad) + bad)
    check(r.returncode == 1 and b"stopped without a shutdown request" in r.stderr,
          "a message that is not JSON-RPC 2.0: exit status 1 and a message")


def main():
    lint, src_dir = os.path.abspath(sys.argv[1]), pathlib.Path(sys.argv[2]).resolve()
    work = pathlib.Path(tempfile.mkdtemp(prefix="coalesce-lsp-")).resolve()
    try:
        shutil.copy(src_dir / "tests" / "lsp" / "Inputs" / "tile.cu", work / "tile.cu")
        bad_usage(lint)
        session(lint, work)
        project(lint, work)
        header_through_includer(lint, work)
        fifty_kernels(lint, work, src_dir)
        kernel_reuse(lint, work, src_dir)
        reuse_equals_fresh(lint, work)
        cancel_and_stale(lint, work)
        if "--witness" in sys.argv[3:]:
            witness_refines(lint, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

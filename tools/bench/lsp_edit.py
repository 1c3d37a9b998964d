#!/usr/bin/env python3
"""How long the language server takes to refresh after one edit (issue 35).

    tools/bench/lsp_edit.py [--occurrence=K] COALESCE_LINT FILE OLD NEW

Starts `COALESCE_LINT lsp --witness=off` in FILE's directory (the header
cache as a user has it), opens FILE, waits for its first diagnostics, then
replaces the first (K-th) line holding the text OLD with NEW as an editor's
incremental change and waits for the diagnostics of that version. Prints
both times (wall seconds, from the notification sent to the diagnostics
received) and the number of diagnostics. Examples, on llm.c's
dev/cuda/layernorm_forward.cu: an edit inside kernel 1 (the second line
holding `float eps = 1e-5f;`; the first is in the CPU reference, host code
that every kernel's results depend on), and one inside kernel 6:

    tools/bench/lsp_edit.py --occurrence=2 build/bin/coalesce-lint \
        layernorm_forward.cu "float eps = 1e-5f;" "float eps = 1e-6f;"
    tools/bench/lsp_edit.py build/bin/coalesce-lint layernorm_forward.cu \
        "const float eps = 1e-5f;" "const float eps = 1e-6f;"
"""
import os
import pathlib
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tests", "lsp"))
from lsp_client import LspClient  # noqa: E402

args = sys.argv[1:]
occurrence = 1
if args and args[0].startswith("--occurrence="):
    occurrence = int(args.pop(0).split("=", 1)[1])
if len(args) != 4:
    sys.exit(__doc__)
lint, path, old, new = os.path.abspath(args[0]), pathlib.Path(args[1]).resolve(), args[2], args[3]
text = path.read_text()
c = LspClient([lint, "lsp", "--witness=off"], cwd=str(path.parent))
c.request("initialize", {"processId": os.getpid(), "rootUri": path.parent.as_uri(), "capabilities": {}})
c.notify("initialized", {})
uri = path.as_uri()
t0 = time.monotonic()
c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}})
i, p, t = c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri and p.get("version") == 1, 300)
print("first diagnostics: %.2f s, %d" % (time.monotonic() - t0, len(p["diagnostics"])))
line = [n for n, l in enumerate(text.splitlines()) if old in l][occurrence - 1]
col = text.splitlines()[line].index(old)
t1 = time.monotonic()
c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
    {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + len(old)}}, "text": new}]})
i, p, t = c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri and p.get("version") == 2, 300, i + 1)
print("after the edit: %.2f s, %d" % (time.monotonic() - t1, len(p["diagnostics"])))
c.request("shutdown", None); c.notify("exit", None)

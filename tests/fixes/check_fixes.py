#!/usr/bin/env python3
"""Apply every layout fix coalesce-lint offers, analyse again, and check.

For each program: the analysis before (JSON), `--fix` on a copy of its
directory tree (a fix may edit a header), the analysis after. For every
shared array that had a layout fix with edits:

  - each of its accesses costs, after the fix, what the fix predicted
    (`layout_fix.wavefronts_after`): the prediction is the analysis of the
    rewritten code;
  - none gets dearer than before;
  - no access of it is left with a conflict where the fix predicted none.

It prints one line per fixed array (before -> after, conflicts left) and
exits non-zero on any failure.

usage: check_fixes.py [--in-place] [--witness] [--cuda-path=DIR] COALESCE_LINT ROOT FILE
                      [FILE ...] [-- COMPILER ARGS]
  ROOT: the directory copied for each run (FILEs are relative to it)
  --in-place: edit the files under ROOT and put them back afterwards, instead
              of copying ROOT (for large trees: tools/survey/survey.py fixes)
  --witness: analyse and fix with the compiler witness (nvcc and nvdisasm):
              the swizzles over reads nvcc merges, offered only when a
              compile of the edited code keeps them merged, are applied too
              (default: --witness=off, the source analysis alone)
  --cuda-path=DIR: coalesce-lint's own option (`none`: its built-in header);
              a sample marked `// requires: CUDA toolkit headers` is skipped
              when there are no toolkit headers, as check_expectations.py does
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples"))
from check_expectations import toolkit_headers  # noqa: E402

# coalesce-lint's own options (--cuda-path), before the file, and the
# witness's mode.
TOOL_ARGS = []
WITNESS = ["--witness=off"]


def analyse(lint, root, rel, extra):
    out = subprocess.run([lint, "--format=json", "--exit-zero"] + WITNESS + TOOL_ARGS + [rel] +
                         (["--"] + extra if extra else []),
                         cwd=root, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("check_fixes: %s failed on %s:\n%s" % (lint, rel, out.stderr[-2000:]))
    return json.loads(out.stdout)


def key(a):
    return (a["file"], a["kernel"], a["line"], a["op"], a["space"], a.get("array"),
            tuple(a["launch"]["block"] or ()), a.get("context", ""))


def check_file(lint, root, rel, extra, in_place, failures):
    """Fixes one file; returns (arrays fixed, accesses left in conflict)."""
    with open(os.path.join(root, rel)) as f:
        if "// requires: CUDA toolkit headers" in f.read() and not toolkit_headers(TOOL_ARGS):
            print("%s: skipped (needs the CUDA toolkit's headers)" % rel)
            return 0, 0
    before = analyse(lint, root, rel, extra)
    fixes = {}
    edited = set()
    for a in before["accesses"]:
        f = a.get("layout_fix")
        if f and f["edits"]:
            fixes[(a["file"], a["kernel"], a["array"])] = f
            edited.update(e["file"] for e in f["edits"])
    if not fixes:
        print("%s: no layout fix with edits" % rel)
        return 0, 0
    if in_place:
        saved = {f: open(os.path.join(root, f), "rb").read() for f in edited}
        try:
            run_fix(lint, root, rel, extra)
            after = analyse(lint, root, rel, extra)
        finally:
            for f, text in saved.items():
                with open(os.path.join(root, f), "wb") as out:
                    out.write(text)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "tree")
            shutil.copytree(root, copy, symlinks=True)
            run_fix(lint, copy, rel, extra)
            after = analyse(lint, copy, rel, extra)
    return compare(before, after, fixes, failures)


def run_fix(lint, root, rel, extra):
    r = subprocess.run([lint, "--fix", "--exit-zero"] + WITNESS + TOOL_ARGS + [rel] +
                       (["--"] + extra if extra else []),
                       cwd=root, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("check_fixes: --fix failed on %s:\n%s" % (rel, r.stderr[-2000:]))


def compare(before, after, fixes, failures):
    fixed_arrays, conflicts_left = 0, 0
    by_key = {}
    for a in after["accesses"]:
        by_key.setdefault(key(a), []).append(a)
    seen = {}
    for (file, kernel, array), fix in sorted(fixes.items()):
        fixed_arrays += 1
        left = 0
        for a in before["accesses"]:
            if (a["file"], a["kernel"], a.get("array")) != (file, kernel, array) or \
                    a["space"] != "shared":
                continue
            k = key(a)
            n = seen.get(k, 0)
            seen[k] = n + 1
            where = "%s:%d %s %s of '%s' in %s" % (file, a["line"], a["space"], a["op"],
                                                  array, kernel)
            cands = by_key.get(k, [])
            if n >= len(cands):
                failures.append("%s: not found after the fix" % where)
                continue
            b = cands[n]
            f = a.get("layout_fix") or {}
            want, got = f.get("wavefronts_after"), b.get("wavefronts_per_request")
            now = a.get("wavefronts_per_request")
            if got is None or want is None:
                failures.append("%s: no number after the fix (%s)" % (where, b.get("reason")))
                continue
            if abs(got - want) > 1e-9:
                failures.append("%s: predicted %s after the fix, the fixed code costs %s"
                                % (where, want, got))
            if now is not None and got > now + 1e-9:
                failures.append("%s: dearer after the fix (%s -> %s)" % (where, now, got))
            if b.get("verdict") == "bank-conflict":
                left += 1
                if abs(want - b.get("ideal_wavefronts", want)) < 1e-9:
                    failures.append("%s: a conflict the fix said it would remove" % where)
        conflicts_left += left
        print("%s: '%s' in %s: %s; %s -> %s wavefronts per warp; %d accesses still in conflict"
              % (file, array, kernel, fix["kind"], fix["array_wavefronts_per_warp_before"],
                 fix["array_wavefronts_per_warp_after"], left))
    return fixed_arrays, conflicts_left


def main(argv):
    in_place = "--in-place" in argv
    if "--witness" in argv:
        WITNESS[:] = ["--witness=auto"]
    TOOL_ARGS[:] = [a for a in argv if a.startswith("--cuda-path=")]
    argv = [a for a in argv if a not in ("--in-place", "--witness") and
            not a.startswith("--cuda-path=")]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    if len(argv) < 4:
        sys.exit(__doc__)
    lint, root = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    files = [os.path.relpath(f, root) if os.path.isabs(f) else f for f in argv[3:]]
    failures, fixed_arrays, conflicts_left = [], 0, 0
    for rel in files:
        n, left = check_file(lint, root, rel, extra, in_place, failures)
        fixed_arrays += n
        conflicts_left += left
    for f in failures:
        print("FAIL: " + f)
    print("check_fixes: %d arrays fixed, %d accesses still in conflict, %d failures"
          % (fixed_arrays, conflicts_left, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""No access of an analysed kernel is silently missing (issue 11).

The analysis lists the memory accesses each kernel's source spells (and
those of the functions it calls: ast/AccessSites.h) and checks every one
against what the interpreter reached; one it should have reached and did
not becomes an unknown record, "the analysis did not evaluate this access:
...". This test runs the CLI on every kernel file of the test corpus and the
reference kernels and fails if any such record appears, i.e. if the
interpreter skips an access anywhere in them. Files that show the fallback
on purpose say so with the line `// EXPECT-UNEVALUATED: N`.

usage: check_every_access.py COALESCE_LINT DIR_OR_FILE...
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys

MARK = "the analysis did not evaluate this access"


def kernel_files(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(".cu"):
                    yield os.path.join(root, f)


def check(binary, path):
    text = open(path, encoding="utf-8", errors="replace").read()
    if "__global__" not in text:
        return path, None, 0, 0, []
    m = re.search(r"//\s*EXPECT-UNEVALUATED:\s*(\d+)", text)
    expected = int(m.group(1)) if m else 0
    cmd = [binary, "--format=json", "--exit-zero", "--color=never", path,
           "--", "-I" + os.path.dirname(path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        # Files that do not parse on purpose (bad-input tests) are not ours.
        return path, None, 0, 0, []
    accesses = report.get("accesses", [])
    missed = [a for a in accesses if (a.get("reason") or "").startswith(MARK)]
    return path, expected, len(accesses), len(report.get("kernels", [])), missed


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, paths = sys.argv[1], sys.argv[2:]
    failures = 0
    files = accesses = kernels = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for path, expected, n, k, missed in pool.map(lambda p: check(binary, p),
                                                      list(kernel_files(paths))):
            if expected is None:
                continue
            files += 1
            accesses += n
            kernels += k
            if len(missed) != expected:
                failures += 1
                print(f"FAIL {path}: {len(missed)} accesses the analysis did not "
                      f"evaluate (expected {expected})")
                for a in missed:
                    print(f"  {a['file']}:{a['line']}:{a['column']}: {a['expression']}: "
                          f"{a['reason']}")
    print(f"{files} files, {kernels} kernels, {accesses} access records; "
          f"{failures} files with accesses the analysis did not evaluate")
    sys.exit(1 if failures or files == 0 else 0)


if __name__ == "__main__":
    main()

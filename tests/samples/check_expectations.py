#!/usr/bin/env python3
"""Checks coalesce-lint's predictions against the expectations written next
to each access in the reference kernels (sample_kernels/*.cu).

An expectation is a comment on the access's line, or on comment lines right
after it (a line may hold several):

    out[i] = in[2 * i]; // expect: load in 8/4; store out 4/4
    // expect(strided_read<2>): load in 8/4
    // expect(block=16x16x1): load tile 8/1

Each entry is `<op> <array> <cost>/<ideal>` (sectors for global accesses,
wavefronts for shared ones, constant-cache requests per instruction for
constant ones), `<op> <array> unknown`, or `<op> <array> none` (the access
has no instruction of its own: nvcc reuses a value, merged it into another
access's instruction, or emitted none). A filter in
parentheses restricts the entries to one kernel instance and/or launch block
shape, and/or to runs with the compiler witness (`witness`) or without it
(`source`, docs/witness.md):

    // expect(source): store s unknown
    // expect(witness): store s none

With --require-witness, a run in which the witness was not used fails. For every (line, kernel, launch shape) the records the tool prints and
the entries that apply must be the same multiset; an expectation that applies
to nothing is stale and fails too.

usage: check_expectations.py [--require-witness] COALESCE_LINT FILE.cu...
                             [-- extra tool args]
"""
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

# The cost fields of each space's records (docs/json-schema.md).
COST_KEYS = {
    "global": ("sectors_per_request", "ideal_sectors_per_request"),
    "shared": ("wavefronts_per_request", "ideal_wavefronts"),
    "local": ("sectors_per_request", "ideal_sectors_per_request"),
    "constant": ("constant_cache_requests_per_instruction", "ideal_constant_cache_requests"),
}
EXPECT = re.compile(r"//\s*expect(?:\(([^)]*)\))?:\s*(.*?)\s*(?=//\s*expect|$)")
TOL = 6e-4


def parse_expectations(path):
    """Returns [(line, filter_kernel, filter_block, entries)]."""
    out = []
    last_code = None
    with open(path) as f:
        for n, text in enumerate(f, 1):
            found = list(EXPECT.finditer(text))
            code = text.split("//", 1)[0].strip()
            if code:
                last_code = n
            if not found:
                continue
            line = n if code else last_code
            if line is None:
                raise SystemExit(f"{path}:{n}: expectation before any code")
            for m in found:
                out.append(parse_one(path, n, line, m))
    return out


def parse_one(path, n, line, m):
    """One `// expect(...): ...` of line n, for the access line `line`."""
    kernel, block, mode = None, None, None
    if m.group(1):
        for item in [s.strip() for s in m.group(1).split(",") if s.strip()]:
            if item in ("witness", "source"):
                mode = item
            elif item.startswith("block="):
                dims = [int(x) for x in item[6:].split("x")]
                block = tuple(dims + [1] * (3 - len(dims)))
            else:
                kernel = item
    entries = []
    for e in [s.strip() for s in m.group(2).split(";") if s.strip()]:
        parts = e.split()
        if len(parts) != 3:
            raise SystemExit(f"{path}:{n}: malformed expectation '{e}'")
        op, array, value = parts
        if value in ("unknown", "none"):
            entries.append((op, array, value, None))
        else:
            cost, ideal = value.split("/")
            entries.append((op, array, float(cost), float(ideal)))
    return (line, kernel, block, mode, entries, (n, m.start()))


def close(a, b):
    return a is not None and b is not None and not isinstance(a, str) and \
        not isinstance(b, str) and abs(a - b) <= TOL


def toolkit_headers(extra):
    """Whether the tool parses with a CUDA toolkit's headers: --cuda-path, else
    CUDA_HOME / CUDA_PATH, else /usr/local/cuda, holding include/mma.h."""
    root = None
    for a in extra:
        if a.startswith("--cuda-path="):
            root = a.split("=", 1)[1]
    if root is None:
        root = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "/usr/local/cuda"
    return root != "none" and os.path.isfile(os.path.join(root, "include", "mma.h"))


def check_file(tool, path, extra, require_witness=False):
    # A sample that needs the CUDA toolkit's own headers (libcu++, mma.h) is
    # not run with the built-in minimal ones (--cuda-path=none, or no
    # toolkit on the machine).
    with open(path) as f:
        if "// requires: CUDA toolkit headers" in f.read() and not toolkit_headers(extra):
            print(f"{path}: skipped (needs the CUDA toolkit's headers)")
            return []
    proc = subprocess.run([tool, "--format=json", *extra, path],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        return [f"{path}: coalesce-lint exited {proc.returncode}: {proc.stderr.strip()}"]
    doc = json.loads(proc.stdout)
    if doc["errors"]:
        return [f"{path}: {e}" for e in doc["errors"]]
    witnessed = any(w.get("used") for w in doc.get("witness", []))
    if require_witness and not witnessed:
        reasons = [w.get("not_used") for w in doc.get("witness", [])]
        return [f"{path}: the compiler witness was not used: {reasons}"]
    mode_now = "witness" if witnessed else "source"
    expectations = [e for e in parse_expectations(path) if e[3] in (None, mode_now)]
    # Records grouped by (line, kernel, block).
    groups = defaultdict(list)
    for a in doc["accesses"]:
        if os.path.realpath(a["file"]) != os.path.realpath(path):
            continue
        block = tuple(a["launch"]["block"]) if a["launch"]["block"] else None
        cost_key, ideal_key = COST_KEYS[a["space"]]
        cost, ideal = a[cost_key], a[ideal_key]
        groups[(a["line"], a["kernel"], block)].append(
            (a["op"], a["array"], cost, ideal, a["verdict"], a["reason"],
             a.get("answer") == "no-instruction"))
    problems = []
    used = Counter()
    for (line, kernel, block), recs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        applicable = []
        for (eline, fk, fb, _mode, entries, src) in expectations:
            if eline != line:
                continue
            if fk is not None and fk != kernel:
                continue
            if fb is not None and fb != block:
                continue
            used[src] += 1
            applicable.extend(entries)
        remaining = list(applicable)
        for (op, array, cost, ideal, verdict, reason, none) in recs:
            match = None
            for i, (eop, earr, ecost, eideal) in enumerate(remaining):
                if eop != op or earr != array:
                    continue
                if ecost == "none" and none:
                    match = i
                    break
                if ecost == "unknown" and verdict == "unknown" and not none:
                    match = i
                    break
                if ecost is not None and verdict != "unknown" and close(ecost, cost) \
                        and close(eideal, ideal):
                    match = i
                    break
            if match is None:
                got = ("none (" + reason + ")" if none else
                       "unknown (" + reason + ")" if verdict == "unknown" else f"{cost}/{ideal}")
                problems.append(f"{path}:{line}: {kernel} {block}: {op} {array} = {got}, "
                                f"no expectation matches")
            else:
                remaining.pop(match)
        for (eop, earr, ecost, eideal) in remaining:
            want = ecost if isinstance(ecost, str) else f"{ecost:g}/{eideal:g}"
            problems.append(f"{path}:{line}: {kernel} {block}: expected {eop} {earr} {want}, "
                            f"not reported")
    for (eline, fk, fb, _mode, entries, src) in expectations:
        if not used[src]:
            problems.append(f"{path}:{src[0]}: expectation applies to no access the tool reported")
    return problems


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    argv = sys.argv[1:]
    require_witness = "--require-witness" in argv
    argv = [a for a in argv if a != "--require-witness"]
    tool = argv[0]
    args = argv[1:]
    extra = []
    if "--" in args:
        i = args.index("--")
        args, extra = args[:i], args[i + 1:]
    problems = []
    checked = 0
    for path in args:
        problems.extend(check_file(tool, path, extra, require_witness))
        checked += 1
    for p in problems:
        print(p)
    print(f"check_expectations: {checked} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks coalesce-lint's predictions against the expectations written next
to each access in the reference kernels (sample_kernels/*.cu).

An expectation is a comment on the access's line, or on comment lines right
after it:

    out[i] = in[2 * i]; // expect: load in 8/4; store out 4/4
    // expect(strided_read<2>): load in 8/4
    // expect(block=16x16x1): load tile 8/1

Each entry is `<op> <array> <cost>/<ideal>` (sectors for global accesses,
wavefronts for shared ones, constant-cache requests per instruction for
constant ones) or `<op> <array> unknown`. A filter in
parentheses restricts the entries to one kernel instance and/or launch block
shape. For every (line, kernel, launch shape) the records the tool prints and
the entries that apply must be the same multiset; an expectation that applies
to nothing is stale and fails too.

usage: check_expectations.py COALESCE_LINT FILE.cu... [-- extra tool args]
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
EXPECT = re.compile(r"//\s*expect(?:\(([^)]*)\))?:\s*(.*?)\s*$")
TOL = 6e-4


def parse_expectations(path):
    """Returns [(line, filter_kernel, filter_block, entries)]."""
    out = []
    last_code = None
    with open(path) as f:
        for n, text in enumerate(f, 1):
            m = EXPECT.search(text)
            code = text.split("//", 1)[0].strip()
            if code:
                last_code = n
            if not m:
                continue
            line = n if code else last_code
            if line is None:
                raise SystemExit(f"{path}:{n}: expectation before any code")
            kernel, block = None, None
            if m.group(1):
                for item in [s.strip() for s in m.group(1).split(",") if s.strip()]:
                    if item.startswith("block="):
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
                if value == "unknown":
                    entries.append((op, array, None, None))
                else:
                    cost, ideal = value.split("/")
                    entries.append((op, array, float(cost), float(ideal)))
            out.append((line, kernel, block, entries, n))
    return out


def close(a, b):
    return a is not None and b is not None and abs(a - b) <= TOL


def check_file(tool, path, extra):
    proc = subprocess.run([tool, "--format=json", *extra, path],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        return [f"{path}: coalesce-lint exited {proc.returncode}: {proc.stderr.strip()}"]
    doc = json.loads(proc.stdout)
    if doc["errors"]:
        return [f"{path}: {e}" for e in doc["errors"]]
    expectations = parse_expectations(path)
    # Records grouped by (line, kernel, block).
    groups = defaultdict(list)
    for a in doc["accesses"]:
        if os.path.realpath(a["file"]) != os.path.realpath(path):
            continue
        block = tuple(a["launch"]["block"]) if a["launch"]["block"] else None
        cost_key, ideal_key = COST_KEYS[a["space"]]
        cost, ideal = a[cost_key], a[ideal_key]
        groups[(a["line"], a["kernel"], block)].append(
            (a["op"], a["array"], cost, ideal, a["verdict"], a["reason"]))
    problems = []
    used = Counter()
    for (line, kernel, block), recs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        applicable = []
        for (eline, fk, fb, entries, src) in expectations:
            if eline != line:
                continue
            if fk is not None and fk != kernel:
                continue
            if fb is not None and fb != block:
                continue
            used[src] += 1
            applicable.extend(entries)
        remaining = list(applicable)
        for (op, array, cost, ideal, verdict, reason) in recs:
            match = None
            for i, (eop, earr, ecost, eideal) in enumerate(remaining):
                if eop != op or earr != array:
                    continue
                if ecost is None and verdict == "unknown":
                    match = i
                    break
                if ecost is not None and verdict != "unknown" and close(ecost, cost) \
                        and close(eideal, ideal):
                    match = i
                    break
            if match is None:
                got = "unknown (" + reason + ")" if verdict == "unknown" else f"{cost}/{ideal}"
                problems.append(f"{path}:{line}: {kernel} {block}: {op} {array} = {got}, "
                                f"no expectation matches")
            else:
                remaining.pop(match)
        for (eop, earr, ecost, eideal) in remaining:
            want = "unknown" if ecost is None else f"{ecost:g}/{eideal:g}"
            problems.append(f"{path}:{line}: {kernel} {block}: expected {eop} {earr} {want}, "
                            f"not reported")
    for (eline, fk, fb, entries, src) in expectations:
        if not used[src]:
            problems.append(f"{path}:{src}: expectation applies to no access the tool reported")
    return problems


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    tool = sys.argv[1]
    args = sys.argv[2:]
    extra = []
    if "--" in args:
        i = args.index("--")
        args, extra = args[:i], args[i + 1:]
    problems = []
    checked = 0
    for path in args:
        problems.extend(check_file(tool, path, extra))
        checked += 1
    for p in problems:
        print(p)
    print(f"check_expectations: {checked} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

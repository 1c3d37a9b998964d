#!/usr/bin/env python3
"""The heavy files of issue 35: two coalesce-lint builds against clang's parse.

    tools/bench/heavy.py BEFORE AFTER [--corpus DIR] [--runs 2]

Each file is analysed as a user would (one job, the precompiled headers
cached by a first run; --witness=off, or with --witness the compiler
witness, its cache filled by that first run), and parsed by `clang++
-fsyntax-only` with the flags the tool reports (--show-command). Printed:
the best user + system CPU seconds of each, the ratio AFTER / clang, and
whether AFTER leaves any access unknown for the analysis budget. The files:
the benchmark's stand-ins of such kernels (tools/bench/standins/row_norms,
column_stats) and, with --corpus, llm.c's dev/cuda softmax_forward.cu and
layernorm_forward.cu (tools/survey/manifest.json's commit) and PolyBench-ACC's
CUDA covariance.cu and correlation.cu (commit 70ea4ca9, checked out as
DIR/cavazos-lab+PolyBench-ACC). A Markdown table goes to stdout.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPAT = os.path.join(ROOT, "analyzer", "driver", "compat", "coalesce_nvcc_compat.h")


def files(corpus):
    s = os.path.join(ROOT, "tools", "bench", "standins")
    out = [(s, "row_norms/rows.cu", []), (s, "column_stats/covariance.cu", [])]
    if corpus:
        llmc = os.path.join(corpus, "karpathy+llm.c", "dev", "cuda")
        pb = os.path.join(corpus, "cavazos-lab+PolyBench-ACC", "CUDA", "datamining")
        for d, f, extra in [(llmc, "softmax_forward.cu", []), (llmc, "layernorm_forward.cu", []),
                            (os.path.join(pb, "covariance"), "covariance.cu",
                             ["-I../../../common"]),
                            (os.path.join(pb, "correlation"), "correlation.cu",
                             ["-I../../../common"])]:
            if os.path.exists(os.path.join(d, f)):
                out.append((d, f, extra))
            else:
                print(f"heavy: no {os.path.join(d, f)}; left out", file=sys.stderr)
    return out


def cpu(cmd, cwd, runs):
    best = float("inf")
    for _ in range(runs):
        p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(p.pid, 0)
        best = min(best, usage.ru_utime + usage.ru_stime)
    return best


def clang_command(binary, cwd, f, extra):
    p = subprocess.run([binary, "--show-command", "--witness=off", "--exit-zero", f, "--"] + extra,
                       cwd=cwd, capture_output=True, text=True)
    for line in p.stderr.splitlines():
        if "parsed with: " in line:
            args = shlex.split(line.split("parsed with: ", 1)[1])
            args = [COMPAT if a.endswith("/coalesce_nvcc_compat.h") else a for a in args]
            return ["clang++-22", "-fsyntax-only"] + args[1:]
    raise SystemExit(f"heavy: no command from --show-command for {f}")


def budget_unknowns(binary, cwd, f, extra):
    p = subprocess.run([binary, "--format=json", "--witness=off", "--exit-zero", f, "--"] + extra,
                       cwd=cwd, capture_output=True, text=True)
    doc = json.loads(p.stdout)
    return sum(1 for a in doc.get("accesses", [])
               if a.get("verdict") == "unknown" and "budget" in (a.get("reason") or ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--corpus")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--witness", action="store_true",
                    help="analyse with the compiler witness (the default a user gets; its "
                         "cache filled by a first run of each binary)")
    a = ap.parse_args()
    witness = "--witness=auto" if a.witness else "--witness=off"
    before, after = os.path.abspath(a.before), os.path.abspath(a.after)
    print("| file | clang -fsyntax-only (s) | before (s) | after (s) | after / clang | "
          "budget-exceeded records before | after |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for d, f, extra in files(a.corpus):
        lint = lambda b: [b, "-j1", witness, "--exit-zero", f, "--"] + extra
        for b in (before, after):  # fill the header (and witness) caches
            subprocess.run(lint(b), cwd=d, capture_output=True)
        c = cpu(clang_command(after, d, f, extra), d, a.runs)
        tb, ta = cpu(lint(before), d, a.runs), cpu(lint(after), d, a.runs)
        path = os.path.join(d, f)
        shown = os.path.relpath(path, ROOT if path.startswith(ROOT) else a.corpus)
        print(f"| {shown} | {c:.2f} | {tb:.2f} | "
              f"{ta:.2f} | {ta / c:.2f}x | {budget_unknowns(before, d, f, extra)} | "
              f"{budget_unknowns(after, d, f, extra)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

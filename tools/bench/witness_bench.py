#!/usr/bin/env python3
"""What the compiler witness costs (docs/witness.md, docs/performance.md).

    tools/bench/witness_bench.py [--runs N] [--lint build/bin/coalesce-lint] [FILE.cu...]

For each file (default: the reference kernels in sample_kernels/ and the
benchmark's stand-ins for real projects in tools/bench/standins/), the wall
time, median of --runs runs, of

    warm, source alone     coalesce-lint --witness=off   (precompiled headers cached)
    warm, with witness     coalesce-lint                 (its disassembly cached too)
    cold witness           coalesce-lint                 (the witness's cache emptied first)
    all cold, alone        coalesce-lint --witness=off   (every cache emptied first)
    all cold, with witness coalesce-lint                 (every cache emptied first)
    nvcc alone             nvcc -cubin -lineinfo -arch=sm_90 (the compile the witness adds)

and the ratios the targets are about (issue 30): a warm run with the witness
within 1.2x of a warm run without it, and a cold run costing at most one
device-only compile on top (all cold with - all cold alone <= nvcc alone; the
witness compiles while clang parses, and nvdisasm adds its own start-up,
about 0.4 s, after). A file with a layout fix that rests on what nvcc emits
for the edited code compiles that code too, once (driver/FixCompile.h, issue
34): the part --time-report gives it is shown apart, and the witness's own
extra without it. One job
(-j1) so the times are one file's. This is not a test: CTest does not run it.
"""
import argparse
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def timed(cmd, env, prepare=None):
    if prepare:
        prepare()
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t
    if p.returncode not in (0, 1):
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    return dt, p


def median(cmd, env, runs, prepare=None):
    return statistics.median(timed(cmd, env, prepare)[0] for _ in range(runs))


LAYOUT_ROW = re.compile(r"^ +([0-9.]+) s .*of the analysis: compiling layout fixes")


def median_split(cmd, env, runs, prepare=None):
    """Medians of the wall time and of the part --time-report gives to
    compiling layout fixes' edited code (issue 34's check, not the
    witness's own compile)."""
    walls, layouts = [], []
    for _ in range(runs):
        dt, p = timed(cmd[:1] + ["--time-report"] + cmd[1:], env, prepare)
        walls.append(dt)
        layouts.append(sum(float(m.group(1)) for m in map(LAYOUT_ROW.match, p.stderr.splitlines())
                           if m))
    return statistics.median(walls), statistics.median(layouts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--lint", default=os.path.join(ROOT, "build", "bin", "coalesce-lint"))
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(ROOT, "sample_kernels", "*.cu"))) + \
        sorted(glob.glob(os.path.join(ROOT, "tools", "bench", "standins", "*", "*.cu")))
    cache = tempfile.mkdtemp(prefix="coalesce-witness-bench-")
    env = dict(os.environ, COALESCE_CACHE_DIR=cache)
    witness_cache = os.path.join(cache, "witness")
    rows = []
    try:
        for f in files:
            inc = ["-I", os.path.dirname(f)]
            base = [args.lint, "-j1", "--exit-zero", "--color=never", f, "--", *inc]
            # Warm up both caches, and check the witness is used.
            timed(base, env)
            _, p = timed([args.lint, "-j1", "--exit-zero", "--format=json", f, "--", *inc], env)
            if "the compiler witness was not used" in p.stderr:
                sys.exit(f"{f}: {p.stderr.strip()}")
            alone = median(base[:1] + ["--witness=off"] + base[1:], env, args.runs)
            warm = median(base, env, args.runs)
            cold = median(base, env, args.runs,
                          prepare=lambda: shutil.rmtree(witness_cache, ignore_errors=True))
            empty = lambda: shutil.rmtree(cache, ignore_errors=True)
            all_alone = median(base[:1] + ["--witness=off"] + base[1:], env, args.runs, empty)
            all_cold, layout = median_split(base, env, args.runs, empty)
            with tempfile.TemporaryDirectory() as tmp:
                nvcc = median([args.nvcc, "-cubin", "-lineinfo", "-arch=sm_90", *inc, "-o",
                               os.path.join(tmp, "x.cubin"), f], env, args.runs)
            rows.append((os.path.relpath(f, ROOT), alone, warm, cold, all_alone, all_cold, nvcc,
                         layout))
            print(f"{rows[-1][0]}: alone {alone:.2f} s, warm {warm:.2f} s, cold {cold:.2f} s, "
                  f"all cold {all_alone:.2f} / {all_cold:.2f} s (layout fixes' compile "
                  f"{layout:.2f} s), nvcc {nvcc:.2f} s", file=sys.stderr)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print("| file | warm, alone (s) | warm, witness (s) | ratio | witness cache cold (s) "
          "| all cold, alone (s) | all cold, witness (s) | of which layout fixes' compile (s) "
          "| nvcc -cubin (s) | all cold extra, in nvcc compiles | witness's own extra "
          "(without the layout fixes' compile) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    ratios, extra, own = [], [], []
    for name, alone, warm, cold, all_alone, all_cold, nvcc, layout in rows:
        ratios.append(warm / alone)
        extra.append((all_cold - all_alone) / nvcc)
        own.append((all_cold - layout - all_alone) / nvcc)
        print(f"| {name} | {alone:.2f} | {warm:.2f} | {warm / alone:.2f}x | {cold:.2f} | "
              f"{all_alone:.2f} | {all_cold:.2f} | {layout:.2f} | {nvcc:.2f} | {extra[-1]:.2f} "
              f"| {own[-1]:.2f} |")
    print(f"\nmedian ratio warm with / without: {statistics.median(ratios):.2f}x "
          f"(max {max(ratios):.2f}x); median all-cold extra: {statistics.median(extra):.2f} nvcc "
          f"compiles (max {max(extra):.2f}); the witness's own (without layout fixes' "
          f"compiles): median {statistics.median(own):.2f} (max {max(own):.2f})")

if __name__ == "__main__":
    main()

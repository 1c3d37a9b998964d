#!/usr/bin/env python3
"""CPU time of two coalesce-lint builds on the same files, side by side.

    tools/bench/compare.py BEFORE AFTER [--runs N] [-- FILE ...]

BEFORE and AFTER are coalesce-lint binaries (build one commit into its own
directory: `git worktree add /tmp/before C && cmake -S /tmp/before -B
/tmp/before/build -G Ninja && ninja -C /tmp/before/build coalesce-lint`).
Each file is analysed with --witness=off and --exit-zero, N times (default
3) per binary; the best user + system CPU time of the child is printed, in
seconds, with the ratio. Without files: the benchmark's stand-ins
(tools/bench/standins) and the reference kernels with shared tiles. This is
how a change's cost on the analysis is reported (not a test).
"""
import glob
import os
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT = sorted(glob.glob(os.path.join(ROOT, "tools", "bench", "standins", "*", "*.cu"))) + [
    os.path.join(ROOT, "sample_kernels", f)
    for f in ("transpose.cu", "matrix_loads.cu", "register_values.cu", "layout_fixes.cu")]


def cpu(binary, path, runs):
    best = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([binary, "--witness=off", "--exit-zero", path], capture_output=True,
                       cwd=os.path.dirname(path))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main(argv):
    runs = 3
    if "--runs" in argv:
        i = argv.index("--runs")
        runs = int(argv[i + 1])
        del argv[i:i + 2]
    files = []
    if "--" in argv:
        i = argv.index("--")
        argv, files = argv[:i], [os.path.abspath(f) for f in argv[i + 1:]]
    if len(argv) != 3:
        sys.exit(__doc__)
    before, after = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    print("| file | before (s) | after (s) | after / before |")
    print("|---|---|---|---|")
    for path in files or DEFAULT:
        b, a = cpu(before, path, runs), cpu(after, path, runs)
        print("| %s | %.2f | %.2f | %.2f |" % (os.path.relpath(path, ROOT), b, a, a / b if b else 0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

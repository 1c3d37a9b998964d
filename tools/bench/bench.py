#!/usr/bin/env python3
"""Times coalesce-lint against clang's own parse of the same files.

    tools/bench/bench.py [--write docs/performance.md] [--runs N] [--quick]

For every file (the reference kernels in sample_kernels/, a synthetic file
of 200 kernels from tools/bench/gen_kernels.py, and the stand-ins for real
projects in tools/bench/standins/, written for this benchmark: a GEMM
tutorial's runner.cu with headers of templated tiled and warp-tiled kernels
launched for several tile configurations; a CUDA sample's cooperative-groups
reductions, templated on the block size; a small GPT trainer's kernels, with
the toolkit's headers only) and for both header
set-ups (the CUDA toolkit's headers when one is installed, and the built-in
header with --cuda-path=none), it measures the wall time of

    coalesce-lint -j1 --exit-zero FILE                 (parse + analysis + rules + output)
    clang++-22 -fsyntax-only <the same flags> FILE     (parse only)

and a batch of 20 files (the 15 reference kernels and 5 synthetic files of 10
kernels) in one coalesce-lint run (-j1, and the default -j) against 20
separate clang parses run one after another. The flags are the ones
analyzer/Invocation.cpp (makeInvocation) gives the analyzer, device side only.

Times are medians of --runs runs after --warmup runs, measured with hyperfine
(`hyperfine -N`) when it is installed and otherwise by this script. The
targets (issue 7): one file costs at most 1.2x clang's parse of it; a batch
of 20 files at most 0.3x of 20 clang parses.

--write FILE replaces the generated part of FILE (between the bench:begin and
bench:end markers) with the machine, the tool versions and the tables; the
rest of the document (the method) is kept. This is not a test: CTest does not
run it.
"""
import argparse
import datetime
import glob
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
SINGLE_TARGET, BATCH_TARGET = 1.2, 0.3


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def cuda_toolkit():
    """The toolkit coalesce-lint would find (analyzer/Invocation.cpp findCudaToolkit)."""
    for var in ("CUDA_PATH", "CUDA_HOME"):
        p = os.environ.get(var)
        if p and os.path.exists(os.path.join(p, "include", "cuda_runtime.h")):
            return p
    if os.path.exists("/usr/local/cuda/include/cuda_runtime.h"):
        return "/usr/local/cuda"
    return None


def cuda_version(path):
    try:
        with open(os.path.join(path, "include", "cuda.h")) as f:
            m = re.search(r"#define CUDA_VERSION (\d+)", f.read())
        v = int(m.group(1))
        return "%d.%d" % (v // 1000, (v % 1000) // 10)
    except (OSError, AttributeError):
        return "unknown"


def clang_flags(mode, toolkit, resource_dir, arch="sm_90"):
    """The clang arguments makeInvocation() builds, for a command line."""
    flags = ["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + arch,
             "-std=c++17", "-resource-dir=" + resource_dir,
             "-Wno-unknown-cuda-version", "-w", "-D__COALESCE_LINT__=1"]
    if mode == "toolkit":
        flags.append("--cuda-path=" + toolkit)
        cccl = os.path.join(toolkit, "include", "cccl")
        if os.path.isdir(cccl):
            flags += ["-isystem", cccl]
        # nvcc's version macros, as nvccVersion() reads them.
        try:
            with open(os.path.join(toolkit, "version.json")) as f:
                v = json.load(f)["cuda_nvcc"]["version"].split(".")
            flags += ["-D__CUDACC_VER_MAJOR__=" + v[0], "-D__CUDACC_VER_MINOR__=" + v[1],
                      "-D__CUDACC_VER_BUILD__=" + v[2]]
        except (OSError, KeyError, ValueError, IndexError):
            pass
    else:
        flags += ["-nocudainc", "-nocudalib", "-isystem",
                  os.path.join(ROOT, "analyzer", "driver", "builtin", "include"),
                  "-include", "cuda_runtime.h"]
    # The declarations nvcc's headers give (docs/nvcc-compat.md), from the
    # header the tool maps in memory, here on disk.
    flags += ["-fgpu-rdc", "-Wno-reserved-user-defined-literal", "-include",
              os.path.join(ROOT, "analyzer", "driver", "compat", "coalesce_nvcc_compat.h")]
    return flags


def machine():
    cpu, cores = "unknown", os.cpu_count()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = "%.0f GiB" % (kb / 1024 / 1024)
    except (OSError, ValueError, IndexError):
        pass
    return cpu, cores, mem


class Timer:
    def __init__(self, runs, warmup, use_hyperfine):
        self.runs, self.warmup = runs, warmup
        self.hyperfine = shutil.which("hyperfine") if use_hyperfine else None

    def median(self, argv, runs=None, prepare=None):
        """Median wall seconds of argv (a list, run without a shell); prepare
        (a directory) is removed before every run, warm-up runs included."""
        runs = runs or self.runs
        if self.hyperfine:
            with tempfile.NamedTemporaryFile(suffix=".json") as out:
                cmd = [self.hyperfine, "-N", "--style", "none", "--warmup",
                       str(self.warmup), "--runs", str(runs), "-i",
                       "--export-json", out.name]
                if prepare:
                    cmd += ["--prepare", "rm -rf " + shlex_quote(prepare)]
                cmd.append(" ".join(shlex_quote(a) for a in argv))
                r = sh(cmd)
                if r.returncode != 0:
                    sys.exit("bench: hyperfine failed: %s\n%s" % (" ".join(cmd), r.stderr))
                res = json.load(open(out.name))["results"][0]
                return statistics.median(res["times"])
        for _ in range(self.warmup):
            if prepare:
                shutil.rmtree(prepare, ignore_errors=True)
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times = []
        for _ in range(runs):
            if prepare:
                shutil.rmtree(prepare, ignore_errors=True)
            t = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - t)
        return statistics.median(times)


def shlex_quote(s):
    import shlex
    return shlex.quote(s)


def check_runs(argv, what, ok=(0, 1)):
    """Runs argv once; a failure stops the benchmark (timing a command that
    fails at once would give a meaningless ratio)."""
    r = sh(argv)
    if r.returncode not in ok:
        sys.exit("bench: %s failed (exit %d):\n%s\n%s" % (what, r.returncode,
                                                           " ".join(argv), r.stderr[-2000:]))
    return r


def fmt_ms(s):
    return "%.0f" % (s * 1000) if s >= 0.1 else "%.1f" % (s * 1000)


LOAD_BEFORE = ""


def main():
    global LOAD_BEFORE
    try:
        LOAD_BEFORE = " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        LOAD_BEFORE = "unknown"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lint", default=os.path.join(ROOT, "build", "bin", "coalesce-lint"))
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--runs", type=int, default=7, help="runs per single-file measurement")
    ap.add_argument("--batch-runs", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--kernels", type=int, default=200, help="kernels in the large synthetic file")
    ap.add_argument("--quick", action="store_true", help="3 runs, 1 batch run (a smoke test)")
    ap.add_argument("--no-hyperfine", action="store_true")
    ap.add_argument("--modes", default="toolkit,builtin")
    ap.add_argument("--write", metavar="FILE", help="update the results section of FILE")
    a = ap.parse_args()
    if a.quick:
        a.runs, a.batch_runs = 3, 1
    if not os.access(a.lint, os.X_OK):
        sys.exit("bench: %s not found; build first (ninja -C build)" % a.lint)
    clang = shutil.which(a.clang)
    if not clang:
        sys.exit("bench: %s not found" % a.clang)
    resource_dir = sh([clang, "-print-resource-dir"]).stdout.strip()
    toolkit = cuda_toolkit()
    modes = [m for m in a.modes.split(",") if m == "builtin" or (m == "toolkit" and toolkit)]
    timer = Timer(a.runs, a.warmup, not a.no_hyperfine)

    tmp = tempfile.mkdtemp(prefix="coalesce-bench-")
    # The preamble cache (analyzer/Preamble.h) lives in a directory of the
    # benchmark's own: warm after the warm-up runs, emptied for the cold batch.
    cache = os.path.join(tmp, "cache")
    os.environ["COALESCE_CACHE_DIR"] = cache
    gen = os.path.join(ROOT, "tools", "bench", "gen_kernels.py")
    large = os.path.join(tmp, "synthetic_%d.cu" % a.kernels)
    subprocess.run([sys.executable, gen, "--kernels", str(a.kernels), "-o", large], check=True)
    samples = sorted(glob.glob(os.path.join(ROOT, "sample_kernels", "*.cu")))
    batch = list(samples)
    for i in range(20 - len(batch)):
        p = os.path.join(tmp, "synthetic_10_seed%d.cu" % (i + 1))
        subprocess.run([sys.executable, gen, "--kernels", "10", "--seed", str(i + 1), "-o", p],
                       check=True)
        batch.append(p)
    batch = batch[:20]
    # Stand-ins for real projects (issue 18): written like them, not copied.
    # The GEMM runner parses with either header set; the reductions and the
    # trainer use cooperative groups, which only the toolkit has.
    standin_dir = os.path.join(ROOT, "tools", "bench", "standins")
    # Issue 35's heavy loops: a row per thread over long rows, and a
    # triangle of columns (column_stats); row_norms uses cooperative groups.
    standins = [os.path.join(standin_dir, "tiled_gemm", "runner.cu"),
                os.path.join(standin_dir, "column_stats", "covariance.cu")]
    toolkit_standins = [os.path.join(standin_dir, "cg_reduction", "reduction.cu"),
                        os.path.join(standin_dir, "trainer", "train.cu"),
                        os.path.join(standin_dir, "row_norms", "rows.cu")]

    def lint_cmd(mode, files, jobs="1", cache=True):
        cmd = [a.lint, "--exit-zero", "--color=never"] + ([] if cache else ["--no-cache"])
        if jobs:
            cmd += ["-j", jobs]
        if mode == "builtin":
            cmd.append("--cuda-path=none")
        elif toolkit:
            cmd.append("--cuda-path=" + toolkit)
        return cmd + files

    def clang_cmd(mode, f):
        return [clang, "-fsyntax-only"] + clang_flags(mode, toolkit, resource_dir) + [f]

    results = {"single": {}, "batch": {}}
    for mode in modes:
        rows = []
        singles = samples + [large] + standins + (toolkit_standins if mode == "toolkit" else [])
        for f in singles:
            name = os.path.relpath(f, ROOT) if f.startswith(ROOT) else os.path.basename(f)
            check_runs(lint_cmd(mode, [f]), "coalesce-lint")
            check_runs(clang_cmd(mode, f), "clang", ok=(0,))
            t_lint = timer.median(lint_cmd(mode, [f]))
            t_nocache = timer.median(lint_cmd(mode, [f], cache=False))
            t_clang = timer.median(clang_cmd(mode, f))
            rows.append((name, t_lint, t_nocache, t_clang))
            print("%-8s %-40s lint %7s ms (no cache %7s ms)  clang %7s ms  ratio %.2f (%.2f)" %
                  (mode, name, fmt_ms(t_lint), fmt_ms(t_nocache), fmt_ms(t_clang),
                   t_lint / t_clang, t_nocache / t_clang), flush=True)
        results["single"][mode] = rows

        script = os.path.join(tmp, "clang_batch_%s.sh" % mode)
        with open(script, "w") as s:
            s.write("#!/bin/sh\nset -e\n")
            for f in batch:
                s.write(" ".join(shlex_quote(x) for x in clang_cmd(mode, f)) + "\n")
        os.chmod(script, 0o755)
        check_runs(lint_cmd(mode, batch), "coalesce-lint (batch)")
        t_b1 = timer.median(lint_cmd(mode, batch), runs=a.batch_runs)
        t_bj = timer.median(lint_cmd(mode, batch, jobs=None), runs=a.batch_runs)
        t_cold = timer.median(lint_cmd(mode, batch), runs=a.batch_runs, prepare=cache)
        t_bc = timer.median([script], runs=a.batch_runs)
        results["batch"][mode] = (t_b1, t_bj, t_cold, t_bc)
        print("%-8s batch of %d: lint -j1 %s ms (empty cache: %s ms), lint -j%d %s ms, "
              "20 clang parses %s ms: ratio %.2f (-j1), %.2f (-j%d)" %
              (mode, len(batch), fmt_ms(t_b1), fmt_ms(t_cold), os.cpu_count(), fmt_ms(t_bj),
               fmt_ms(t_bc), t_b1 / t_bc, t_bj / t_bc, os.cpu_count()), flush=True)
    shutil.rmtree(tmp, ignore_errors=True)

    report = render(a, results, modes, toolkit, clang, batch)
    if a.write:
        write_section(a.write, report)
        print("bench: wrote %s" % a.write)
    else:
        print(report)


def render(a, results, modes, toolkit, clang, batch):
    cpu, cores, mem = machine()
    lint_version = sh([a.lint, "--version"]).stdout.strip()
    clang_version = sh([clang, "--version"]).stdout.splitlines()[0]
    commit = sh(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).stdout.strip()
    dirty = sh(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"]).stdout.strip()
    how = "hyperfine -N" if shutil.which("hyperfine") and not a.no_hyperfine else "bench.py's own timer"
    L = []
    L.append("Generated by `tools/bench/bench.py --write docs/performance.md` on %s." %
             datetime.date.today().isoformat())
    L.append("")
    L.append("| | |")
    L.append("|---|---|")
    L.append("| CPU | %s, %s cores%s |" % (cpu, cores, (", " + mem) if mem else ""))
    L.append("| OS | %s %s |" % (platform.system(), platform.release()))
    L.append("| coalesce-lint | %s, commit %s%s |" % (lint_version, commit,
                                                       " with local changes" if dirty else ""))
    L.append("| clang | %s |" % clang_version)
    L.append("| CUDA toolkit | %s |" % ("%s (%s)" % (toolkit, cuda_version(toolkit))
                                        if toolkit else "none"))
    L.append("| timing | %s; median of %d runs per file, %d per batch, after %d warm-up |" %
             (how, a.runs, a.batch_runs, a.warmup))
    L.append("| load average before the run | %s |" % LOAD_BEFORE)
    L.append("")
    titles = {"toolkit": "CUDA toolkit headers (%s)" % toolkit,
              "builtin": "built-in header (`--cuda-path=none`)"}
    for mode in modes:
        L.append("### One file, %s" % titles[mode])
        L.append("")
        L.append("| file | clang -fsyntax-only (ms) | coalesce-lint -j1 (ms) | ratio | "
                 "within 1.2x | --no-cache (ms) | ratio | within 1.2x |")
        L.append("|---|---:|---:|---:|:---:|---:|---:|:---:|")
        ratios, nratios = [], []
        yes = lambda r: "yes" if r <= SINGLE_TARGET else "**no**"
        for name, tl, tn, tc in results["single"][mode]:
            r, rn = tl / tc, tn / tc
            ratios.append(r)
            nratios.append(rn)
            L.append("| %s | %s | %s | %.2f | %s | %s | %.2f | %s |" %
                     (name, fmt_ms(tc), fmt_ms(tl), r, yes(r), fmt_ms(tn), rn, yes(rn)))
        L.append("| **median over files** | | | **%.2f** | %s | | **%.2f** | %s |" %
                 (statistics.median(ratios), yes(statistics.median(ratios)),
                  statistics.median(nratios), yes(statistics.median(nratios))))
        L.append("")
    L.append("### A batch of %d files in one run" % len(batch))
    L.append("")
    L.append("The 15 reference kernels and 5 synthetic files of 10 kernels "
             "(`gen_kernels.py --kernels 10 --seed 1..5`).")
    L.append("")
    L.append("| headers | 20 clang parses (ms) | coalesce-lint -j1 (ms) | ratio | "
             "within 0.3x | -j1, empty cache (ms) | ratio | -j%d (ms) | ratio |" % os.cpu_count())
    L.append("|---|---:|---:|---:|:---:|---:|---:|---:|---:|")
    for mode in modes:
        b1, bj, cold, bc = results["batch"][mode]
        L.append("| %s | %s | %s | %.2f | %s | %s | %.2f | %s | %.2f |" %
                 (mode, fmt_ms(bc), fmt_ms(b1), b1 / bc,
                  "yes" if b1 / bc <= BATCH_TARGET else "**no**",
                  fmt_ms(cold), cold / bc, fmt_ms(bj), bj / bc))
    L.append("")
    return "\n".join(L)


def write_section(path, report):
    text = open(path).read() if os.path.exists(path) else "# Performance\n\n%s\n%s\n" % (BEGIN, END)
    if BEGIN not in text or END not in text:
        sys.exit("bench: %s has no %s ... %s section" % (path, BEGIN, END))
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w") as f:
        f.write(head + BEGIN + "\n" + report + "\n" + END + tail)


if __name__ == "__main__":
    main()

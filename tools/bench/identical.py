#!/usr/bin/env python3
"""Whether two coalesce-lint binaries print the same thing, byte for byte.

    tools/bench/identical.py BEFORE AFTER [--corpus DIR] [--witness] [--jobs 2]
                             [--keep DIR] [--only SUBSTRING ...]

A change meant to make the analysis faster (issue 35: loop summaries, alike
warps, caches) must not change a single number, note or fix it prints. This
runs both binaries over the reference kernels (sample_kernels/*.cu), the
benchmark's stand-ins (tools/bench/standins) and, with --corpus, the real
files of tools/survey/manifest.json found under DIR (as `survey.py run`
analyses them: same include directories, same flags), each in the JSON
format (every field the tool reports) and the text format, and lists every
file whose output differs, with the first differing lines. The CPU time of
each binary per file is printed beside it, so the same run shows what the
change bought.

The analysis runs with --witness=off unless --witness is given (the compiler
witness needs nvcc and costs a compile per file when its cache is cold).
Exit status 1 when any output differs.
"""
import argparse
import concurrent.futures
import difflib
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "survey"))
import survey  # noqa: E402  (include directories, manifest)


def jobs_of(args):
    """(label, cwd, file, extra clang args) for every file to compare."""
    out = []
    for f in sorted(glob.glob(os.path.join(ROOT, "sample_kernels", "*.cu"))):
        out.append((os.path.relpath(f, ROOT), os.path.dirname(f), os.path.basename(f), []))
    for f in sorted(glob.glob(os.path.join(ROOT, "tools", "bench", "standins", "*", "*.cu"))):
        out.append((os.path.relpath(f, ROOT), os.path.dirname(f), os.path.basename(f), []))
    if args.corpus:
        for p in survey.load_manifest()["projects"]:
            root = survey.checkout_dir(args.corpus, p)
            if not os.path.isdir(root):
                continue
            seen = []
            for g in p["files"]:
                for h in sorted(glob.glob(os.path.join(root, g))):
                    rel = os.path.relpath(h, root)
                    if rel in seen:
                        continue
                    seen.append(rel)
                    incs = survey.include_dirs(root, h, p.get("include", []))
                    extra = ["-I" + os.path.relpath(d, root) for d in incs] + p.get("flags", [])
                    out.append((p["name"] + ":" + rel, root, rel, extra))
    if args.only:
        out = [j for j in out if any(s in j[0] for s in args.only)]
    return out


def run(binary, cwd, path, extra, fmt, witness, timeout):
    cmd = [binary, "--format=" + fmt, "--exit-zero", "-j1", "--color=never"]
    if not witness:
        cmd.append("--witness=off")
    cmd += [path, "--"] + extra
    start = time.monotonic()
    with tempfile.TemporaryFile("w+") as out:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.DEVNULL)
        # This child's own CPU time (the other job's children are not ours).
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > timeout:
                p.kill()
                pid, status, usage = os.wait4(p.pid, 0)
                break
            time.sleep(0.02)
        out.seek(0)
        text = out.read()
    rc = os.waitstatus_to_exitcode(status)
    if time.monotonic() - start > timeout:
        text, rc = "<timed out>", None
    cpu = usage.ru_utime + usage.ru_stime
    if fmt == "json" and rc is not None:
        # Timings are the one thing allowed to differ.
        try:
            doc = json.loads(text)
            doc.pop("timing", None)
            text = json.dumps(doc, indent=1, sort_keys=True)
        except json.JSONDecodeError:
            pass
    return text, rc, cpu, time.monotonic() - start


def compare_one(args, job):
    label, cwd, path, extra = job
    res = {"label": label, "diffs": [], "cpu": [0.0, 0.0]}
    for fmt in ("json", "text"):
        outs = []
        for i, b in enumerate((args.before, args.after)):
            text, rc, cpu, _ = run(b, cwd, path, extra, fmt, args.witness, args.timeout)
            res["cpu"][i] += cpu
            outs.append((text, rc))
        if outs[0] != outs[1]:
            d = list(difflib.unified_diff(outs[0][0].splitlines(), outs[1][0].splitlines(),
                                          "before", "after", lineterm="", n=1))
            res["diffs"].append((fmt, outs[0][1], outs[1][1], d))
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                stem = label.replace("/", "__").replace(":", "__")
                for tag, (text, _) in zip(("before", "after"), outs):
                    with open(os.path.join(args.keep, f"{stem}.{tag}.{fmt}"), "w") as f:
                        f.write(text)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--corpus", help="checkouts named as tools/survey/survey.py sources says")
    ap.add_argument("--witness", action="store_true", help="with the compiler witness")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--keep", help="write both outputs of each differing file here")
    ap.add_argument("--only", action="append", help="files whose label contains this")
    args = ap.parse_args()
    for b in (args.before, args.after):
        if not os.access(b, os.X_OK):
            print(f"identical: no executable at {b}", file=sys.stderr)
            return 2
    args.before, args.after = os.path.abspath(args.before), os.path.abspath(args.after)
    jobs = jobs_of(args)
    differing = 0
    tot = [0.0, 0.0]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for res in pool.map(lambda j: compare_one(args, j), jobs):
            b, a = res["cpu"]
            tot[0] += b
            tot[1] += a
            mark = "DIFFERS" if res["diffs"] else "same"
            print(f"{mark:8} {res['label']}  cpu {b:.2f} s -> {a:.2f} s (json and text)")
            for fmt, rc0, rc1, d in res["diffs"]:
                print(f"    {fmt}: exit {rc0} -> {rc1}")
                for line in d[:12]:
                    print("    " + line)
            differing += bool(res["diffs"])
    print(f"{len(jobs)} files, {differing} differ; cpu {tot[0]:.1f} s -> {tot[1]:.1f} s")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())

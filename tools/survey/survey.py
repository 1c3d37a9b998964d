#!/usr/bin/env python3
"""The real-code survey: coalesce-lint over public CUDA projects, as a user runs it.

    tools/survey/survey.py sources                     how to get the checkouts
    tools/survey/survey.py run --corpus DIR --out R.jsonl [--project P ...]
                               [--jobs 2] [--timeout 120] [--limit N]
                               [--binary build/bin/coalesce-lint] [-- EXTRA]
    tools/survey/survey.py table R.jsonl [--before OLD.jsonl]
    tools/survey/survey.py compare BEFORE_DIR AFTER_DIR   (outputs kept by run --keep)

The projects, their pinned commits and the files of each are listed in
tools/survey/manifest.json. Their sources are not part of this repository:
`DIR/<owner>+<name>/` must hold a checkout of each project at the manifest's
commit (`sources` prints commands that make one from a git clone). `run`
checks the commit where the checkout is a git work tree and says so where it
cannot (an exported tree).

Each file is analysed on its own, from the project's root, exactly as a new
user would:

    coalesce-lint --format=json --exit-zero FILE -- -I<dir> ...

The include directories are derived the same way for every file: its own
directory; `include`, `inc`, `common` and `Common` children of its ancestors;
the project root; `include` directories at most three levels deep; and the
manifest's `include` entries for the project. Two files run at a time (the
machine has two cores), each with a time limit; CPU time and peak memory are
measured per file. One JSON line per file goes to --out.

`table` prints the Markdown tables of docs/real-code.md from such a file:
per project, files analysed, crashes, hangs, accesses and their verdicts, the
unknown share, the records of constant memory, and the unknown accesses by
reason kind; with --before, the same columns of an earlier run beside them.
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MANIFEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "manifest.json")


def load_manifest():
    with open(MANIFEST) as f:
        return json.load(f)


def checkout_dir(corpus, project):
    return os.path.join(corpus, project["repo"].replace("/", "+"))


def cmd_sources(args):
    m = load_manifest()
    print("# Checkouts for tools/survey/survey.py run --corpus DIR (one per project):")
    for p in m["projects"]:
        d = p["repo"].replace("/", "+")
        print(f"git clone https://github.com/{p['repo']} DIR/{d} && "
              f"git -C DIR/{d} checkout {p['commit']}")
    return 0


def include_dirs(root, path, extra):
    """The include directories of the survey's rule for the file at `path`."""
    dirs = []

    def add(d):
        d = os.path.normpath(d)
        if os.path.isdir(d) and d not in dirs:
            dirs.append(d)

    add(os.path.dirname(path))
    d = os.path.dirname(path)
    while True:
        for child in ("include", "inc", "common", "Common"):
            add(os.path.join(d, child))
        if os.path.normpath(d) == os.path.normpath(root) or not d:
            break
        d = os.path.dirname(d)
    add(root)
    for depth in ("*/include", "*/*/include", "*/*/*/include"):
        for d in sorted(glob.glob(os.path.join(root, depth))):
            add(d)
    for e in extra:
        add(os.path.join(root, e))
    return dirs


def git_commit(path):
    """The commit of the git work tree at `path` (None: not the top of one)."""
    try:
        top = subprocess.run(["git", "-C", path, "rev-parse", "--show-toplevel", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.split()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None
    if len(top) != 2 or os.path.realpath(top[0]) != os.path.realpath(path):
        return None
    return top[1]


def summarise(doc):
    """The counts the tables need from one file's JSON document."""
    s = {"accesses": 0, "verdicts": collections.Counter(), "spaces": collections.Counter(),
         "unknown_kinds": collections.Counter(), "constant_records": 0,
         "kernels": 0, "kernels_not_analysed": 0, "kernels_budget": 0,
         "not_analysed": [], "mapping_fixes": collections.Counter()}
    for a in doc.get("accesses", []):
        s["accesses"] += 1
        # The thread-mapping fixes offered on global findings (cost/ThreadSwap.h).
        if a.get("thread_swap"):
            s["mapping_fixes"]["thread_swap"] += 1
        if a.get("staged_transpose"):
            s["mapping_fixes"]["staged_transpose"] += 1
        if a.get("mapping_fix_unavailable"):
            s["mapping_fixes"]["unavailable"] += 1
        s["verdicts"][a.get("verdict")] += 1
        s["spaces"][a.get("space")] += 1
        if a.get("space") == "constant":
            s["constant_records"] += 1
        if a.get("verdict") == "unknown":
            s["unknown_kinds"][a.get("reason_cause") or a.get("reason_kind") or "none"] += 1
    for k in doc.get("kernels", []):
        s["kernels"] += 1
        if k.get("not_analysed"):
            s["kernels_not_analysed"] += 1
            s["not_analysed"].append({"name": k.get("name"), "why": k.get("not_analysed")})
        if k.get("budget_exceeded"):
            s["kernels_budget"] += 1
    return s


def run_one(binary, project, root, rel, timeout, extra_args, keep=None, tool_args=()):
    path = os.path.join(root, rel)
    incs = include_dirs(root, path, project.get("include", []))
    cmd = [binary, "--format=json", "--exit-zero", *tool_args, rel, "--"]
    cmd += ["-I" + os.path.relpath(d, root) for d in incs]
    cmd += project.get("flags", []) + extra_args
    rec = {"project": project["name"], "file": rel, "command": cmd, "hung": False}
    start = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        try:
            # A fresh process group per file, so that a hung analysis is
            # killed whole; wait4 gives this child's own CPU time and memory.
            p = subprocess.Popen(cmd, cwd=root, stdout=out, stderr=err,
                                 start_new_session=True)
        except OSError as e:
            rec.update(rc=None, crashed=False, error=str(e), summary=summarise({}))
            return rec
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > timeout:
                os.killpg(p.pid, 9)
                pid, status, usage = os.wait4(p.pid, 0)
                rec["hung"] = True
                break
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, errtext = out.read(), err.read()
    rec["wall_s"] = round(time.monotonic() - start, 3)
    rec["cpu_s"] = round(usage.ru_utime + usage.ru_stime, 3)
    rec["max_rss_mb"] = round(usage.ru_maxrss / 1024, 1)
    rec["rc"] = None if rec["hung"] else p.returncode
    rec["crashed"] = rec["rc"] is not None and (rec["rc"] < 0 or rec["rc"] > 2)
    rec["stderr_tail"] = errtext[-2000:]
    try:
        doc = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError:
        doc = {}
        rec["bad_json"] = True
    rec["summary"] = summarise(doc)
    rec["errors"] = doc.get("errors", [])[:5]
    if keep:
        # The whole output, for a record-by-record comparison (compare).
        with open(kept_path(keep, project["name"], rel), "w") as f:
            f.write(text)
    return rec


def kept_path(keep, project, rel):
    return os.path.join(keep, project + "__" + rel.replace("/", "__") + ".json")


def cmd_run(args):
    m = load_manifest()
    binary = os.path.abspath(args.binary)
    if not os.path.exists(binary):
        print(f"survey: no coalesce-lint at {binary}", file=sys.stderr)
        return 2
    projects = [p for p in m["projects"] if not args.project or p["name"] in args.project]
    if args.project and len(projects) != len(args.project):
        known = ", ".join(p["name"] for p in m["projects"])
        print(f"survey: unknown project in {args.project} (known: {known})", file=sys.stderr)
        return 2
    jobs = []
    for p in projects:
        root = checkout_dir(args.corpus, p)
        if not os.path.isdir(root):
            print(f"survey: no checkout of {p['repo']} at {root} (see: survey.py sources)",
                  file=sys.stderr)
            return 2
        commit = git_commit(root)
        if commit is None:
            print(f"survey: {root} is not a git work tree; its commit is taken to be "
                  f"{p['commit'][:12]} as the manifest says", file=sys.stderr)
        elif commit != p["commit"]:
            print(f"survey: {root} is at {commit[:12]}, the manifest pins {p['commit'][:12]}",
                  file=sys.stderr)
            return 2
        files = []
        for g in p["files"]:
            hits = sorted(os.path.relpath(f, root) for f in glob.glob(os.path.join(root, g)))
            if not hits:
                print(f"survey: {p['name']}: nothing matches {g}", file=sys.stderr)
                return 2
            files += [h for h in hits if h not in files]
        if args.limit:
            files = files[:args.limit]
        jobs += [(p, root, f) for f in files]
    extra = args.extra[1:] if args.extra and args.extra[0] == "--" else args.extra
    done = 0
    with open(args.out, "w") as out, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
        futs = [pool.submit(run_one, binary, p, root, f, args.timeout, extra, args.keep,
                            args.tool_arg)
                for p, root, f in jobs]
        for fut in concurrent.futures.as_completed(futs):
            rec = fut.result()
            out.write(json.dumps(rec, sort_keys=True) + "\n")
            out.flush()
            done += 1
            s = rec["summary"]
            print(f"[{done}/{len(jobs)}] {rec['project']} {rec['file']}: "
                  f"{s['accesses']} accesses, {s['verdicts'].get('unknown', 0)} unknown, "
                  f"{rec.get('wall_s')} s{' HUNG' if rec['hung'] else ''}"
                  f"{' CRASH' if rec['crashed'] else ''}", file=sys.stderr)
    return 0


def read(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def aggregate(recs):
    by = collections.OrderedDict()
    for r in sorted(recs, key=lambda r: (r["project"], r["file"])):
        a = by.setdefault(r["project"], {
            "files": 0, "with_kernels": 0, "analysed": 0, "crashed": 0, "hung": 0,
            "kernels": 0, "not_analysed": 0, "budget": 0, "accesses": 0,
            "verdicts": collections.Counter(), "kinds": collections.Counter(),
            "constant": 0, "wall": 0.0})
        s = r["summary"]
        a["files"] += 1
        a["crashed"] += bool(r.get("crashed"))
        a["hung"] += bool(r.get("hung"))
        a["kernels"] += s["kernels"]
        a["not_analysed"] += s["kernels_not_analysed"]
        a["budget"] += s["kernels_budget"]
        a["with_kernels"] += s["kernels"] > 0
        a["analysed"] += s["kernels"] > s["kernels_not_analysed"]
        a["accesses"] += s["accesses"]
        a["verdicts"].update(s["verdicts"])
        a["kinds"].update(s["unknown_kinds"])
        a["constant"] += s["constant_records"]
        a["wall"] += r.get("wall_s") or 0
    return by


def pct(n, d):
    return f"{100.0 * n / d:.1f}%" if d else "-"


def cmd_table(args):
    now = aggregate(read(args.results))
    before = aggregate(read(args.before)) if args.before else None
    print("| project | files | with kernels | analysed | crashed | hung | kernels listed | "
          "not analysed | accesses | ok | uncoalesced | bank conflict | unknown | unknown share"
          + (" | unknown share before" if before else "") + " | constant records |")
    print("|" + "---|" * (15 + bool(before)))
    tot = collections.Counter()
    for name, a in now.items():
        v = a["verdicts"]
        row = [name, a["files"], a["with_kernels"], a["analysed"], a["crashed"], a["hung"],
               a["kernels"], a["not_analysed"], a["accesses"], v.get("ok", 0),
               v.get("uncoalesced", 0), v.get("bank-conflict", 0), v.get("unknown", 0),
               pct(v.get("unknown", 0), a["accesses"])]
        if before:
            b = before.get(name)
            row.append(pct(b["verdicts"].get("unknown", 0), b["accesses"]) if b else "-")
        row.append(a["constant"])
        print("| " + " | ".join(str(x) for x in row) + " |")
        for k in ("files", "with_kernels", "analysed", "crashed", "hung", "kernels",
                  "not_analysed", "accesses", "constant"):
            tot[k] += a[k]
        for k in ("ok", "uncoalesced", "bank-conflict", "unknown"):
            tot[k] += v.get(k, 0)
    print()
    print("Unknown accesses by reason kind (the innermost cause):")
    print()
    kinds = collections.Counter()
    for a in now.values():
        kinds.update(a["kinds"])
    names = list(now)
    print("| reason kind | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for kind, _ in kinds.most_common():
        print(f"| `{kind}` | " + " | ".join(str(now[n]["kinds"].get(kind, 0)) for n in names) + " |")
    return 0


def access_key(a):
    launch = a.get("launch") or {}
    return (a["file"], a["line"], a["column"], a["kernel"], a["op"], a["space"],
            str(launch.get("block")), str(launch.get("args")))


def access_number(a):
    if a["space"] == "shared":
        return (a.get("wavefronts_per_request"), a.get("ideal_wavefronts"))
    if a["space"] == "constant":
        return (a.get("constant_cache_requests_per_instruction"),
                a.get("ideal_constant_cache_requests"))
    return (a.get("sectors_per_request"), a.get("ideal_sectors_per_request"))


def cmd_compare(args):
    """Record by record, two runs kept with `run --keep`: every number given
    before must be given after (a record of several call contexts may gain
    numbers where some were unknown); lists every one that changed."""
    stats = collections.Counter()
    names = sorted(set(os.listdir(args.before)) & set(os.listdir(args.after)))
    for n in names:
        docs = []
        for d in (args.before, args.after):
            try:
                with open(os.path.join(d, n)) as f:
                    docs.append(json.loads(f.read() or "{}"))
            except json.JSONDecodeError:
                docs.append(None)
        if None in docs:
            stats["files without output"] += 1
            continue
        recs, extra = [], []
        for doc in docs:
            r = collections.defaultdict(list)
            e = collections.defaultdict(lambda: collections.defaultdict(list))
            for a in doc.get("accesses", []):
                r[access_key(a)].append(access_number(a))
                for field in args.field:
                    e[field][access_key(a)].append(json.dumps(a.get(field), sort_keys=True))
            recs.append(r)
            extra.append(e)
        A, B = recs
        for field in args.field:
            ea, eb = extra[0][field], extra[1][field]
            for k in set(ea) & set(eb):
                if sorted(ea[k]) != sorted(eb[k]):
                    stats[f"{field} differs"] += 1
        for k in sorted(set(A) | set(B)):
            a, b = A.get(k), B.get(k)
            if a is None:
                stats["new records"] += 1
            elif b is None:
                stats["records gone"] += 1
            elif sorted(map(str, a)) == sorted(map(str, b)):
                stats["same"] += 1
            else:
                known_a = collections.Counter(str(x) for x in a if x[0] is not None)
                known_b = collections.Counter(str(x) for x in b if x[0] is not None)
                if not known_a - known_b:
                    stats["unknown -> known"] += 1
                elif not known_b:
                    stats["known -> unknown"] += 1
                    print(f"known -> unknown: {n}: {k[:6]} {sorted(known_a)}")
                else:
                    stats["CHANGED"] += 1
                    print(f"CHANGED: {n}: {k[:6]} {sorted(known_a)} -> {sorted(known_b)}")
    for what, count in sorted(stats.items()):
        print(f"{what}: {count}")
    return 1 if stats["CHANGED"] else 0


def cmd_fixes(args):
    """Every layout fix offered on the projects' files, applied in place
    (and put back) and analysed again: tests/fixes/check_fixes.py."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "fixes"))
    import check_fixes
    if args.witness:
        check_fixes.WITNESS[:] = ["--witness=auto"]
    m = load_manifest()
    binary = os.path.abspath(args.binary)
    projects = [p for p in m["projects"] if not args.project or p["name"] in args.project]
    failures, arrays, left = [], 0, 0
    for p in projects:
        root = checkout_dir(args.corpus, p)
        files = []
        for g in p["files"]:
            files += [os.path.relpath(f, root) for f in sorted(glob.glob(os.path.join(root, g)))]
        for rel in files:
            incs = include_dirs(root, os.path.join(root, rel), p.get("include", []))
            flags = ["-I" + os.path.relpath(d, root) for d in incs] + p.get("flags", [])
            print("== %s %s" % (p["name"], rel), flush=True)
            n, k = check_fixes.check_file(binary, root, rel, flags, True, failures)
            arrays += n
            left += k
    for f in failures:
        print("FAIL: " + f)
    print("survey fixes: %d arrays fixed, %d accesses still in conflict, %d failures"
          % (arrays, left, len(failures)))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("sources")
    r = sub.add_parser("run")
    r.add_argument("--corpus", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--project", action="append")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--timeout", type=int, default=120)
    r.add_argument("--limit", type=int, default=0)
    r.add_argument("--binary", default=os.path.join(ROOT, "build", "bin", "coalesce-lint"))
    r.add_argument("--keep", help="keep each file's JSON output in this directory")
    r.add_argument("--tool-arg", action="append", default=[],
                   help="an option for coalesce-lint itself (repeatable), e.g. --witness=off; "
                        "what follows `--` goes to clang")
    r.add_argument("extra", nargs=argparse.REMAINDER)
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    c.add_argument("--field", action="append", default=[],
                   help="also count the records whose FIELD differs (e.g. sectors_range, "
                        "assumptions); repeatable")
    x = sub.add_parser("fixes", help="apply every layout fix offered and analyse again")
    x.add_argument("--corpus", required=True)
    x.add_argument("--project", action="append")
    x.add_argument("--binary", default=os.path.join(ROOT, "build", "bin", "coalesce-lint"))
    x.add_argument("--witness", action="store_true",
                   help="with the compiler witness (nvcc): also the swizzles over merged reads")
    t = sub.add_parser("table")
    t.add_argument("results")
    t.add_argument("--before")
    args = ap.parse_args()
    return {"sources": cmd_sources, "run": cmd_run, "table": cmd_table,
            "compare": cmd_compare, "fixes": cmd_fixes}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs a source-level test's `%lint` command line through the clang-tidy plugin.

lit.cfg.py runs every source-level test (a .cu file whose RUN lines use %lint)
a second time as tidy-plugin/<path>, with %lint replaced by this script, so the
CLI and the plugin are checked against the same inline expectations. It maps
the CLI options those tests use onto clang-tidy check options:

  --block=B         -> <check>.Block=B (several: joined with ';')
  --assume=F        -> <check>.Assume=F (several: joined with ';')
  --min-ratio=R     -> <check>.MinRatio=R
  --no-unknown      -> <check>.ReportUnknown=false (true otherwise, the default of both)
  --warn-misaligned -> <check>.WarnMisaligned=true
  --header-filter=R -> clang-tidy's --header-filter=R
  --system-headers  -> clang-tidy's --system-headers
  --rules=ID,...    -> --checks=-*,coalesce-ID,...
  --cuda-gpu-arch=X -> the clang flag of the same name
  -- ARGS           -> appended to the clang flags
  --cuda-path=none, --color=..., --exit-zero, -jN: no meaning for the plugin

A command line that asks for output the plugin cannot give (--format=json)
runs through the CLI unchanged. Any other option is an error: such a test
should say `UNSUPPORTED: tidy`, or use `%if tidy %{...%} %else %{...%}` where
the two front-ends differ.

usage: lint_via_tidy.py "LINT" CLANG_TIDY MODULE RULE_IDS "CUDA FLAGS" [coalesce-lint args]
(LINT: what %lint stands for in the CLI run; RULE_IDS: the ids of
rules/Rules.def, comma-separated.)
"""
import shlex
import subprocess
import sys


def fail(msg):
    sys.stderr.write("lint_via_tidy.py: error: %s\n" % msg)
    sys.exit(2)


def main(argv):
    if len(argv) < 6:
        fail("usage: lint_via_tidy.py LINT CLANG_TIDY MODULE RULE_IDS 'CUDA FLAGS' [args]")
    lint, tidy, module = shlex.split(argv[1]), argv[2], argv[3]
    all_rules, flags = argv[4].split(","), shlex.split(argv[5])
    files, extra, rules, tidy_opts = [], [], [], []
    opts = {"ReportUnknown": "true"}
    args = argv[6:]
    own = args[:args.index("--")] if "--" in args else args
    if any(a.startswith("--format") for a in own):
        sys.stderr.write("lint_via_tidy.py: note: --format has no clang-tidy "
                         "equivalent; running the CLI\n")
        sys.stderr.flush()
        return subprocess.call(lint + args)
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            extra = args[i:]
            break
        name, eq, value = a.partition("=")
        if name in ("--block", "--assume", "--min-ratio", "--rules", "--cuda-gpu-arch",
                    "--cuda-path", "--color", "--header-filter") and not eq:
            if i >= len(args):
                fail("%s needs a value" % name)
            value = args[i]
            i += 1
        if name == "--block":
            opts["Block"] = opts["Block"] + ";" + value if "Block" in opts else value
        elif name == "--assume":
            opts["Assume"] = opts["Assume"] + ";" + value if "Assume" in opts else value
        elif name == "--min-ratio":
            opts["MinRatio"] = value
        elif a == "--no-unknown":
            opts["ReportUnknown"] = "false"
        elif a == "--warn-misaligned":
            opts["WarnMisaligned"] = "true"
        elif name == "--header-filter":
            tidy_opts.append("--header-filter=" + value)
        elif a == "--system-headers":
            tidy_opts.append(a)
        elif name == "--rules":
            rules += [r[len("coalesce-"):] if r.startswith("coalesce-") else r
                      for r in value.split(",")]
        elif name == "--cuda-gpu-arch":
            flags = [f for f in flags if not f.startswith("--cuda-gpu-arch=")]
            flags.append("--cuda-gpu-arch=" + value)
        elif name == "--cuda-path":
            if value != "none":
                fail("--cuda-path=%s: the plugin tests use the built-in header" % value)
        elif a == "-j":
            i += 1
        elif name == "--color" or a == "--exit-zero" or a.startswith("-j"):
            pass
        elif a.startswith("-"):
            fail("option '%s' has no clang-tidy equivalent; mark the test "
                 "'UNSUPPORTED: tidy' or use %%if tidy" % a)
        else:
            files.append(a)
    for r in rules:
        if r not in all_rules:
            fail("unknown rule '%s'" % r)
    checks = ",".join("coalesce-" + r for r in (rules or all_rules))
    config = "{CheckOptions: {%s}}" % ", ".join(
        "coalesce-%s.%s: '%s'" % (r, k, v) for r in all_rules for k, v in opts.items())
    cmd = [tidy, "--load=" + module, "--checks=-*," + checks, "--quiet",
           "--config=" + config] + tidy_opts + files + ["--"] + flags + extra
    sys.stdout.flush()
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

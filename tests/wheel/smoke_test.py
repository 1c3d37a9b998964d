#!/usr/bin/env python3
"""smoke_test.py: a release wheel, installed as a user installs it, on the
machine that built it (tools/wheel/release_build.sh) or any other.

  smoke_test.py --wheel WHL --version X.Y.Z --project DIR
                [--llvm-prefix /usr/lib/llvm-22] [--built-from DIR] [--allow-visible-llvm]

DIR is a source tree of the release (test inputs only: tests/lit/Inputs,
tests/verify/fixtures). Unlike tests/wheel/test_wheel.py it needs no CMake
build to compare with, no pre-commit and no PyPI. Checks, in a fresh virtual
environment:

1. the wheel's name and metadata carry version X.Y.Z and this machine's
   architecture;
2. `pip install WHL` works offline;
3. ldd: the binary needs glibc only;
4. `--version` prints `coalesce-lint X.Y.Z (LLVM ...)`;
5. the installed sample kernels (share/coalesce-lint/sample_kernels) are
   analysed without an error, with findings; bad.cu fails with its finding
   and good.cu passes; verify mode agrees with the recorded H200 measurements
   (compiler_witness.cu aside: it needs the compiler witness, nvcc and
   nvdisasm, which the wheel does not bring);

each run with PATH and LD_LIBRARY_PATH holding no LLVM and, in a private
mount namespace, the LLVM prefix and the tree the wheel was built from
(--built-from) hidden. Where mount namespaces do not work (a container
without CAP_SYS_ADMIN) that is a failure, unless --allow-visible-llvm.
"""
import argparse
import glob
import os
import platform
import re
import shutil
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import hide_paths  # noqa: E402
from test_wheel import BAD_FINDING, GLIBC, Step, check, clean_env, failures, run  # noqa: E402


def wheel_metadata_version(wheel):
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        meta = z.read(name).decode("utf-8")
    m = re.search(r"^Version: (\S+)$", meta, re.M)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wheel", required=True)
    ap.add_argument("--version", required=True, help="the release's version, X.Y.Z")
    ap.add_argument("--project", required=True, help="a source tree of the release (test inputs)")
    ap.add_argument("--llvm-prefix", default="/usr/lib/llvm-22")
    ap.add_argument("--built-from", help="the tree the wheel was built from: hidden as well")
    ap.add_argument("--allow-visible-llvm", action="store_true",
                    help="where mount namespaces do not work, rely on PATH, "
                    "LD_LIBRARY_PATH and ldd instead of failing")
    a = ap.parse_args()
    wheel, project = os.path.abspath(a.wheel), os.path.abspath(a.project)

    with Step("1. the wheel's name and metadata"):
        name = os.path.basename(wheel)
        arch = platform.machine()
        check(name.startswith(f"coalesce_lint-{a.version}-py3-none-manylinux_") and
              name.endswith(f"_{arch}.whl"),
              f"the wheel's name {name} says version {a.version}, py3-none, manylinux, {arch}")
        meta = wheel_metadata_version(wheel)
        check(meta == a.version, f"the wheel's metadata says Version: {meta}, not {a.version}")
        print(f"    {name}")

    namespaces = hide_paths.works()
    if not namespaces and not a.allow_visible_llvm:
        check(False, "mount namespaces work here (unshare --mount), to hide "
              f"{a.llvm_prefix} while the wheel runs; in a container, give it CAP_SYS_ADMIN "
              "(--privileged), or pass --allow-visible-llvm")
        return report()
    hide = [a.llvm_prefix] + ([os.path.abspath(a.built_from)] if a.built_from else [])
    hide = hide if namespaces else []
    if not namespaces:
        print("NOTE: no mount namespaces here: LLVM stays visible; the runs rely on PATH, "
              "LD_LIBRARY_PATH and ldd")

    with tempfile.TemporaryDirectory(prefix="coalesce-smoke-") as tmp:
        venv = os.path.join(tmp, "venv")
        with Step("2. fresh virtual environment, pip install the wheel (offline)"):
            rc, out, err = run([sys.executable, "-m", "venv", venv])
            if not check(rc == 0, f"python -m venv exited {rc}", out + err):
                return report()
            rc, out, err = run([os.path.join(venv, "bin", "pip"), "install", "--no-index",
                                "--disable-pip-version-check", wheel])
            if not check(rc == 0, f"pip install {wheel} exited {rc}", out + err):
                return report()
        lint = os.path.join(venv, "bin", "coalesce-lint")

        with Step("3. ldd: glibc only"):
            rc, out, err = run(["ldd", lint])
            libs = [line.split()[0] for line in out.splitlines() if line.strip()]
            other = [lib for lib in libs if not os.path.basename(lib).startswith(GLIBC)]
            check(rc == 0 and libs and not other,
                  f"the installed binary needs glibc only, not {other}", out + err)
            print("    " + " ".join(libs))

        # The inputs, copied out of the tree that may be hidden.
        inputs = os.path.join(tmp, "inputs")
        os.makedirs(inputs)
        for f in ("good.cu", "bad.cu"):
            shutil.copy(os.path.join(project, "tests", "lit", "Inputs", f), inputs)
        fixtures = os.path.join(tmp, "h200")
        shutil.copytree(os.path.join(project, "tests", "verify", "fixtures", "h200"), fixtures)
        env = clean_env(tmp, os.path.join(venv, "bin") + ":/usr/bin:/bin")

        with Step("4. --version"):
            rc, out, err = run(["coalesce-lint", "--version"], env=env, hide=hide)
            check(rc == 0 and out.startswith(f"coalesce-lint {a.version} (LLVM "),
                  f"--version prints 'coalesce-lint {a.version} (LLVM ...)', not {out.strip()!r}",
                  err)
            print("    " + out.strip())

        with Step("5. the installed sample kernels, bad.cu and good.cu, verify mode"):
            samples = sorted(glob.glob(os.path.join(venv, "share", "coalesce-lint",
                                                    "sample_kernels", "*.cu")))
            check(samples, "the wheel installs the sample kernels")
            rc, out, err = run(["coalesce-lint", "--exit-zero", "--color=never"] + samples,
                               cwd=tmp, env=env, hide=hide)
            warnings = sum(1 for line in out.splitlines() if ": warning: " in line)
            check(rc == 0 and warnings and "error:" not in out + err,
                  f"the sample kernels are analysed without an error, with findings "
                  f"(exit {rc}, {warnings} warnings)", out + err)
            print(f"    {len(samples)} sample kernels: {warnings} warnings; "
                  f"{err.strip().splitlines()[-1] if err.strip() else ''}")
            rc, out, err = run(["coalesce-lint", "--color=never", "bad.cu"], cwd=inputs, env=env,
                               hide=hide)
            check(rc == 1 and BAD_FINDING in out, f"bad.cu: exit 1 with the finding, exit {rc}",
                  out + err)
            rc, out, err = run(["coalesce-lint", "--color=never", "good.cu"], cwd=inputs,
                               env=env, hide=hide)
            check(rc == 0, f"good.cu: exit 0, exit {rc}", out + err)
            # Verify mode: the installed script and sample kernels against the
            # recorded measurements. compiler_witness.cu's kernels are
            # predicted right only with the compiler witness (nvcc and
            # nvdisasm, docs/witness.md), which the wheel does not bring:
            # every other access must agree.
            rc, out, err = run(["coalesce-lint", "verify", "--measurements", fixtures], cwd=tmp,
                               env=env, hide=hide)
            agree = re.search(r"(\d+)/(\d+) accesses agree", out)
            wrong = [line for line in out.splitlines()
                     if re.search(r"\sNO\b", line) and not line.startswith("compiler_witness.cu:")]
            check(rc in (0, 1) and agree and agree.group(2) != "0" and not wrong,
                  f"verify mode: every access outside compiler_witness.cu agrees (exit {rc})",
                  "\n".join(wrong) + "\n" + out[-3000:] + err[-3000:])
            if agree:
                print(f"    verify: {agree.group(0)} "
                      f"({int(agree.group(2)) - int(agree.group(1))} in compiler_witness.cu)")
    return report()


def report():
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("ok: the wheel installs and runs without LLVM")


if __name__ == "__main__":
    main()

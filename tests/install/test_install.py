#!/usr/bin/env python3
"""test_install.py BUILD_DIR PROJECT_DIR: `cmake --install` and the CMake
package, as a user of the installed tree meets them.

- `cmake --install BUILD_DIR --prefix TMP` installs the CLI, the clang-tidy
  plugin, the analysis library's headers (analyzer/ as include root, the
  private interp/WarpInterp.h left out) and static libraries, and
  lib/cmake/CoalesceLint/;
- the installed CLI runs from the prefix (it finds the shared LLVM through its
  install RPATH) and reports the finding in bad.cu; with the source tree
  hidden (tests/hide_paths.py), verify mode runs with the script and sample
  kernels installed in share/coalesce-lint/;
- `--component cli` alone installs only the CLI and its data files;
- a separate project (tests/install/consumer) does find_package(CoalesceLint)
  with CMAKE_PREFIX_PATH=TMP, links CoalesceLint::analyzer and
  CoalesceLint::rules, builds, and reports the same finding through the
  library.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import hide_paths  # noqa: E402

failures = []


def check(cond, msg, output=""):
    if not cond:
        failures.append(msg + ("\n--- output:\n" + output if output else ""))
    return cond


def run(cmd, cwd=None, env=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return p.returncode, p.stdout


BAD_FINDING = "bad.cu:3:12: warning: global load from 'in' uses 32 sectors per request (ideal 4)"


def main():
    build, project = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    bad = os.path.join(project, "tests", "lit", "Inputs", "bad.cu")
    cmake = shutil.which("cmake")
    with tempfile.TemporaryDirectory(prefix="coalesce-install-") as tmp:
        prefix = os.path.join(tmp, "prefix")
        rc, out = run([cmake, "--install", build, "--prefix", prefix])
        if not check(rc == 0, f"cmake --install exited {rc}", out):
            return
        def exists(rel, want=True):
            path = os.path.join(prefix, rel)
            check(os.path.exists(path) == want,
                  f"{rel} should {'' if want else 'not '}be installed")
        for rel in ["bin/coalesce-lint", "lib/CoalesceTidyModule.so",
                    "include/coalesce-lint/Analysis.h", "include/coalesce-lint/driver/Runner.h",
                    "include/coalesce-lint/report/Report.h", "include/coalesce-lint/model/Poly.h",
                    "include/coalesce-lint/Rule.h", "include/coalesce-lint/Rules.def",
                    "lib/libcoalesceAnalyzer.a", "lib/libcoalesceRules.a",
                    "lib/libcoalesceSupport.a", "lib/cmake/CoalesceLint/CoalesceLintConfig.cmake",
                    "lib/cmake/CoalesceLint/CoalesceLintConfigVersion.cmake",
                    "lib/cmake/CoalesceLint/CoalesceLintTargets.cmake",
                    "share/coalesce-lint/verify/coalesce_verify.py",
                    "share/coalesce-lint/sample_kernels/transpose.cu"]:
            exists(rel)
        exists("include/coalesce-lint/interp/WarpInterp.h", want=False)
        exists("include/coalesce-lint/driver/builtin", want=False)
        # The shared build uses LLVM's resource directory; only a static build
        # (the wheel) carries clang's headers.
        exists("lib/coalesce-lint/clang", want=False)

        lint = os.path.join(prefix, "bin", "coalesce-lint")
        env = dict(os.environ, LD_LIBRARY_PATH="", COALESCE_CACHE_DIR=os.path.join(tmp, "cache"))
        env.pop("COALESCE_VERIFY_SCRIPT", None)
        # Without the source tree, whose paths are compiled in as fallbacks.
        hide = hide_paths.command([project]) if hide_paths.works() else []
        if not hide:
            print("NOTE: no mount namespaces here (unshare): the source tree stays visible")
        shutil.copy(bad, tmp)
        rc, out = run(hide + [lint, "--cuda-path=none", "--color=never", "bad.cu"], cwd=tmp, env=env)
        check(rc == 1 and BAD_FINDING in out,
              f"the installed coalesce-lint reports bad.cu's finding (exit 1), exited {rc}", out)
        fixtures = os.path.join(tmp, "h200")
        shutil.copytree(os.path.join(project, "tests", "verify", "fixtures", "h200"), fixtures)
        rc, out = run(hide + [lint, "verify", "--measurements", fixtures], cwd=tmp, env=env)
        agreed = re.search(r"(\d+)/(\d+) accesses agree", out)
        check(rc == 0 and agreed and agreed.group(1) == agreed.group(2) and int(agreed.group(1)) > 0
              and "transpose.cu" in out,
              f"verify mode runs with the installed script and sample kernels, exited {rc}", out)

        cli_only = os.path.join(tmp, "cli-only")
        rc, out = run([cmake, "--install", build, "--prefix", cli_only, "--component", "cli"])
        check(rc == 0, f"cmake --install --component cli exited {rc}", out)
        installed = sorted(os.path.relpath(os.path.join(d, f), cli_only)
                           for d, _, files in os.walk(cli_only) for f in files)
        check(all(p == "bin/coalesce-lint" or p.startswith("share/coalesce-lint/")
                  for p in installed) and "bin/coalesce-lint" in installed,
              "--component cli installs bin/coalesce-lint and share/coalesce-lint/ only",
              "\n".join(installed))

        consumer = os.path.join(tmp, "consumer-build")
        rc, out = run([cmake, "-S", os.path.join(project, "tests", "install", "consumer"),
                       "-B", consumer, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                       "-DCMAKE_PREFIX_PATH=" + prefix])
        if not check(rc == 0, f"configuring the consumer project exited {rc}", out):
            return
        rc, out = run([cmake, "--build", consumer])
        if not check(rc == 0, f"building the consumer project exited {rc}", out):
            return
        rc, out = run([os.path.join(consumer, "consumer"), "bad.cu"],
                      cwd=os.path.dirname(bad), env=env)
        check(rc == 1 and "bad.cu: 2 accesses" in out and
              BAD_FINDING.replace(": warning:", ":") in out and
              "[coalesce-uncoalesced-global]" in out,
              f"the consumer reports bad.cu's finding through the library, exited {rc}", out)

    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("ok: cmake --install, the installed CLI, and find_package(CoalesceLint)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""test_wheel.py: the coalesce-lint wheel, as a user installs it.

  test_wheel.py --wheel WHL --cmake-lint BIN --project DIR [--hook-repo REPO]
                [--llvm-prefix /usr/lib/llvm-22]

WHL is the built wheel (tools/wheel/build_wheel.sh), BIN the coalesce-lint of
the CMake build to compare with, DIR the source tree (sample kernels, test
inputs), REPO a git repository holding this project's sources (for
`pre-commit try-repo`). Checks, in a fresh virtual environment:

1. `pip install WHL` (offline) gives bin/coalesce-lint with clang's builtin
   headers (lib/coalesce-lint/clang/<major>/include, cuda_wrappers/ included),
   verify mode's script and the sample kernels (share/coalesce-lint/);
2. ldd: the binary needs glibc only: no libLLVM, libclang-cpp, libstdc++, zstd;
3. `--version` is the CMake build's (it names the LLVM inside);
4. `coalesce-lint --exit-zero sample_kernels/*.cu` prints exactly what the
   CMake build prints, run with PATH and LD_LIBRARY_PATH holding no LLVM and,
   in a private mount namespace, with the LLVM prefix hidden; the same again
   with the CUDA toolkit hidden too (the built-in header), against the CMake
   build without the toolkit; and `verify --measurements` (the installed
   script and sample kernels) as the CMake build. With --built-from, the
   tree the wheel was built from is hidden too, so the wheel uses its own
   files, not the source paths compiled in as fallbacks;
5. pre-commit with the prebuilt wheel: a `repo: local`, `language: python`
   hook whose additional_dependencies is WHL blocks bad.cu and passes good.cu,
   with the LLVM prefix hidden and no coalesce-lint on PATH;
6. with --hook-repo: `pre-commit try-repo REPO coalesce-lint --files bad.cu`
   (the `language: python` hook, which builds coalesce-lint from REPO's
   sources) fails with the finding and passes good.cu, with no coalesce-lint
   on PATH; the coalesce-lint it built needs no libLLVM either.

Each step prints how long it took.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import hide_paths  # noqa: E402

failures = []

BAD_FINDING = "bad.cu:3:12: warning: global load from 'in' uses 32 sectors per request (ideal 4)"
# What a binary that needs glibc only may load.
GLIBC = ("linux-vdso.so", "libc.so", "libm.so", "libpthread.so", "libdl.so", "librt.so",
         "ld-linux-x86-64.so", "ld-linux-aarch64.so")


def check(cond, msg, output=""):
    if not cond:
        failures.append(msg + ("\n--- output:\n" + output[-6000:] if output else ""))
    return cond


def run(cmd, cwd=None, env=None, hide=()):
    """Runs cmd; with `hide`, with those directories hidden (tests/hide_paths.py)."""
    if hide:
        cmd = hide_paths.command(hide) + list(cmd)
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    return p.returncode, p.stdout, p.stderr


class Step:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.start = time.monotonic()
        print(f"--- {self.name}", flush=True)

    def __exit__(self, *exc):
        print(f"    {time.monotonic() - self.start:.0f} s", flush=True)


def ccache_dir():
    """The cache directory ccache uses with the caller's HOME, or None."""
    ccache = shutil.which("ccache")
    if not ccache:
        return None
    p = subprocess.run([ccache, "--get-config", "cache_dir"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip() or None if p.returncode == 0 else None


CCACHE_DIR = ccache_dir()


def clean_env(tmp, path):
    """An environment with PATH = path, no LD_LIBRARY_PATH, and nothing that
    points at coalesce-lint or a toolkit."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_LIBRARY_PATH", "COALESCE_LINT", "CUDA_PATH", "CUDA_HOME",
                        "COALESCE_VERIFY_SCRIPT", "PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = path
    env["LC_ALL"] = "C"
    env["HOME"] = tmp
    # ccache finds its configuration and cache through HOME by default: keep
    # the user's cache, or pre-commit's source builds start cold.
    if CCACHE_DIR and "CCACHE_DIR" not in env:
        env["CCACHE_DIR"] = CCACHE_DIR
    env["COALESCE_CACHE_DIR"] = os.path.join(tmp, "cache")
    return env


def git(args, cwd, env):
    rc, out, err = run(["git", "-c", "user.name=coalesce-test", "-c",
                        "user.email=test@example.invalid", "-c", "commit.gpgsign=false", "-c",
                        "init.defaultBranch=main"] + args, cwd, env)
    if rc != 0:
        sys.exit(f"git {' '.join(args)} failed:\n{out}{err}")
    return out.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wheel", required=True)
    ap.add_argument("--cmake-lint", required=True)
    ap.add_argument("--project", required=True)
    ap.add_argument("--hook-repo")
    ap.add_argument("--llvm-prefix", default="/usr/lib/llvm-22")
    ap.add_argument("--built-from", help="the source tree the wheel was built from: hidden "
                    "while the wheel runs, so that it uses the files it installed")
    a = ap.parse_args()
    wheel, project = os.path.abspath(a.wheel), os.path.abspath(a.project)
    cmake_lint = os.path.abspath(a.cmake_lint)
    system_path = "/usr/bin:/bin"
    namespaces = hide_paths.works()
    hide_llvm = [a.llvm_prefix] if namespaces else []
    if not namespaces:
        print("NOTE: no mount namespaces here (unshare): LLVM and the sources stay visible; "
              "the runs rely on PATH, LD_LIBRARY_PATH and ldd")
    # Where the wheel runs: no LLVM, and not the tree it was built from.
    hide_build = hide_llvm + ([os.path.abspath(a.built_from)] if a.built_from and namespaces
                              else [])

    with tempfile.TemporaryDirectory(prefix="coalesce-wheel-") as tmp:
        venv = os.path.join(tmp, "venv")
        with Step("1. fresh virtual environment, pip install the wheel"):
            rc, out, err = run([sys.executable, "-m", "venv", venv])
            if not check(rc == 0, f"python -m venv exited {rc}", out + err):
                return report()
            rc, out, err = run([os.path.join(venv, "bin", "pip"), "install", "--no-index",
                                "--disable-pip-version-check", wheel])
            if not check(rc == 0, f"pip install {wheel} exited {rc}", out + err):
                return report()
        lint = os.path.join(venv, "bin", "coalesce-lint")
        check(os.access(lint, os.X_OK), "the wheel installs an executable bin/coalesce-lint")
        major = os.path.basename(a.llvm_prefix).rsplit("-", 1)[-1]
        resource = os.path.join(venv, "lib", "coalesce-lint", "clang", major, "include")
        for rel in ("__clang_cuda_runtime_wrapper.h", "__clang_cuda_builtin_vars.h",
                    "cuda_wrappers/new", "stddef.h"):
            check(os.path.isfile(os.path.join(resource, rel)),
                  f"the wheel carries clang's {rel} in {resource}")
        share = os.path.join(venv, "share", "coalesce-lint")
        check(os.path.isfile(os.path.join(share, "verify", "coalesce_verify.py")),
              "the wheel carries verify mode's script")
        check(len(glob.glob(os.path.join(share, "sample_kernels", "*.cu"))) ==
              len(glob.glob(os.path.join(project, "sample_kernels", "*.cu"))),
              "the wheel carries the sample kernels")

        with Step("2. ldd: glibc only"):
            rc, out, err = run(["ldd", lint])
            libs = [line.split()[0] for line in out.splitlines() if line.strip()]
            check(rc == 0 and libs, f"ldd {lint} exited {rc}", out + err)
            check(not any(lib.startswith(("libLLVM", "libclang")) for lib in libs),
                  "the installed binary loads no libLLVM/libclang-cpp", out)
            other = [lib for lib in libs if not os.path.basename(lib).startswith(GLIBC)]
            check(not other, f"the installed binary needs glibc only, not {other}", out)
            print("    " + " ".join(libs))

        env = clean_env(tmp, os.path.join(venv, "bin") + ":" + system_path)
        ref_env = clean_env(tmp, os.environ.get("PATH", system_path))
        ref_env["COALESCE_CACHE_DIR"] = os.path.join(tmp, "cache-cmake")

        with Step("3. --version"):
            rc, out, err = run(["coalesce-lint", "--version"], env=env, hide=hide_build)
            rrc, rout, _ = run([cmake_lint, "--version"], env=ref_env)
            check(rc == 0 and out == rout and "(LLVM " in out,
                  f"--version of the wheel ({out.strip()!r}) is the CMake build's "
                  f"({rout.strip()!r}) and names the LLVM inside", err)
            print("    " + out.strip())

        samples = sorted(os.path.relpath(p, project)
                         for p in glob.glob(os.path.join(project, "sample_kernels", "*.cu")))
        args = ["--exit-zero", "--color=never"] + samples
        toolkit = ["/usr/local/cuda", "/usr/local/include"]
        with Step("4. sample_kernels/*.cu: the wheel without LLVM against the CMake build"):
            ref = run([cmake_lint] + args, cwd=project, env=ref_env)
            got = run(["coalesce-lint"] + args, cwd=project, env=env, hide=hide_build)
            compare("sample_kernels/*.cu", got, ref)
            if namespaces:
                ref = run([cmake_lint] + args, cwd=project, env=ref_env, hide=toolkit)
                got = run(["coalesce-lint"] + args, cwd=project, env=env,
                          hide=hide_build + toolkit)
                compare("sample_kernels/*.cu without a CUDA toolkit", got, ref)
            verify = ["verify", "--measurements",
                      os.path.join(project, "tests", "verify", "fixtures", "h200")]
            ref = run([cmake_lint] + verify, cwd=project, env=ref_env)
            got = run(["coalesce-lint"] + verify, cwd=tmp, env=env, hide=hide_build)
            compare("verify --measurements (the installed script and sample kernels)", got, ref)
            agree = re.search(r"(\d+)/(\d+) accesses agree", got[1])
            check(agree and agree.group(1) == agree.group(2) != "0",
                  "verify mode: every access agrees", got[1] + got[2])

        hook_env = clean_env(tmp, system_path)
        hook_env["PRE_COMMIT_HOME"] = os.path.join(tmp, "pre-commit-home")
        hook_env["PRE_COMMIT_COLOR"] = "never"
        hook_env["GIT_CONFIG_NOSYSTEM"] = "1"
        pre_commit = shutil.which("pre-commit", path=system_path)
        if not check(pre_commit, "pre-commit is installed (tools/bootstrap.sh)"):
            return report()
        work = os.path.join(tmp, "work")
        os.makedirs(work)
        for name in ("good.cu", "bad.cu"):
            shutil.copy(os.path.join(project, "tests", "lit", "Inputs", name), work)
        git(["init", "-q"], work, hook_env)
        git(["add", "."], work, hook_env)

        with Step("5. pre-commit, local python hook with the wheel, without LLVM"):
            with open(os.path.join(work, ".pre-commit-config.yaml"), "w") as f:
                f.write("repos:\n- repo: local\n  hooks:\n  - id: coalesce-lint\n"
                        "    name: coalesce-lint\n    entry: coalesce-lint --color=never\n"
                        "    language: python\n    files: \\.(cu|cuh)$\n"
                        f"    additional_dependencies: ['{wheel}']\n")
            hooks_ran(run([pre_commit, "run", "--files", "bad.cu"], work, hook_env,
                          hide=hide_llvm),
                      run([pre_commit, "run", "--files", "good.cu"], work, hook_env,
                          hide=hide_llvm), "the local hook with the wheel")
            os.remove(os.path.join(work, ".pre-commit-config.yaml"))

        if a.hook_repo:
            with Step("6. pre-commit try-repo: the python hook builds from source"):
                try_repo = [pre_commit, "try-repo", os.path.abspath(a.hook_repo),
                            "coalesce-lint", "--files"]
                # try-repo clones REPO into a temporary store of its own
                # (under TMPDIR). ccache hashes paths under CCACHE_BASEDIR
                # relative to the build directory, so a build of another copy
                # of the sources (tools/wheel/build_and_check.sh builds
                # REPO's) serves the clone's.
                hook_env["TMPDIR"] = os.path.join(tmp, "try-repo")
                os.makedirs(hook_env["TMPDIR"])
                hook_env["CCACHE_BASEDIR"] = hook_env["TMPDIR"]
                bad = run(try_repo + ["bad.cu"], work, hook_env)
                good = run(try_repo + ["good.cu"], work, hook_env)
                hooks_ran(bad, good, "try-repo " + a.hook_repo)
                built = glob.glob(os.path.join(hook_env["PRE_COMMIT_HOME"], "repo*", "py_env-*",
                                               "bin", "coalesce-lint"))
                if check(built, "try-repo installed coalesce-lint in pre-commit's environment"):
                    rc, out, err = run(["ldd", built[0]])
                    check(rc == 0 and "libLLVM" not in out and "libclang" not in out,
                          "the coalesce-lint pre-commit built loads no libLLVM/libclang-cpp", out)
    return report()


def compare(what, got, ref):
    (grc, gout, gerr), (rrc, rout, rerr) = got, ref
    check(grc == rrc == 0, f"{what}: both exit 0 (wheel {grc}, CMake build {rrc})", gerr + rerr)
    check(gout == rout, f"{what}: the wheel's output is the CMake build's",
          "wheel:\n" + gout[:3000] + "\nCMake build:\n" + rout[:3000])
    check(gerr == rerr, f"{what}: the wheel's stderr is the CMake build's",
          "wheel:\n" + gerr + "\nCMake build:\n" + rerr)
    print(f"    {what}: {len(gout.splitlines())} lines, "
          f"{'identical' if (gout, gerr) == (rout, rerr) else 'DIFFERENT'}")


def hooks_ran(bad, good, what):
    (rc, out, err), (grc, gout, gerr) = bad, good
    out += err
    check(rc != 0 and "Failed" in out and BAD_FINDING in out,
          f"{what}: bad.cu fails the hook with the finding, exited {rc}", out)
    check(grc == 0 and "Passed" in gout, f"{what}: good.cu passes, exited {grc}", gout + gerr)


def report():
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("ok: the wheel installs, runs without LLVM as the CMake build does, and the "
          "pre-commit hooks install it")


if __name__ == "__main__":
    main()

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
   script and sample kernels) as the CMake build (with the CMake build's
   nvdisasm, --nvdisasm, for the compiler witness). With --built-from, the
   tree the wheel was built from is hidden too, so the wheel uses its own
   files, not the source paths compiled in as fallbacks;
5. pre-commit with the prebuilt wheel: a `repo: local`, `language: python`
   hook whose additional_dependencies is WHL blocks bad.cu and passes good.cu,
   with the LLVM prefix hidden and no coalesce-lint on PATH;
6. with --hook-repo: the `language: python` hook, which builds coalesce-lint
   from REPO's sources, with no coalesce-lint on PATH: `pre-commit try-repo
   REPO coalesce-lint --files bad.cu` fails with the finding, and a config
   naming REPO at its commit passes good.cu (two first runs, two builds); the
   coalesce-lint it built needs no libLLVM either;
7. the prebuilt-wheel route by version: the pre-commit mirror
   (tools/wheel/render_mirror.py) rendered for the wheel's version into a git
   repository tagged vVERSION; a config with `repo: MIRROR`, `rev: vVERSION`
   and `pre-commit run --files bad.cu` (and good.cu), with pip offline
   (PIP_NO_INDEX) and told where the wheel is (PIP_FIND_LINKS), forbidden to
   build coalesce-lint (PIP_ONLY_BINARY), with the LLVM prefix hidden: pip
   installs the wheel by its version, and the hook's coalesce-lint is the
   wheel's file, byte for byte.

Each step prints how long it took; steps 5 to 7 print the first run of each
pre-commit route, pre-commit's installation of the hook included.
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


def timed_run(label, cmd, cwd, env, hide=()):
    """run(), printing how long it took under `label`."""
    start = time.monotonic()
    result = run(cmd, cwd, env, hide)
    print(f"    {label}: {time.monotonic() - start:.0f} s", flush=True)
    return result


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
    ap.add_argument("--nvdisasm", help="the nvdisasm the CMake build uses for the compiler "
                    "witness (default: BIN's build directory's nvdisasm/bin/nvdisasm, where "
                    "tools/bootstrap.sh puts it, if there is one)")
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
        # The compiler witness (docs/witness.md) changes the findings where
        # nvcc's output decides them. The CMake build has the nvdisasm of its
        # build directory compiled in; the wheel carries none and finds one
        # through $COALESCE_NVDISASM, as a user's would: give it the same, so
        # that the two are compared with the same witness.
        nvdisasm = a.nvdisasm or os.path.join(os.path.dirname(os.path.dirname(cmake_lint)),
                                              "nvdisasm", "bin", "nvdisasm")
        if os.access(nvdisasm, os.X_OK):
            env["COALESCE_NVDISASM"] = os.path.abspath(nvdisasm)
        # The CMake build runs with the wheel's PATH but for the wheel's bin/:
        # what the two find on PATH (nvcc for the compiler witness) must be
        # the same, or their notes differ.
        ref_env = clean_env(tmp, system_path)
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
            # The first run installs the hook's environment (pip installs
            # the wheel); the second reuses it.
            hooks_ran(timed_run("first run (bad.cu)", [pre_commit, "run", "--files", "bad.cu"],
                                work, hook_env, hide=hide_llvm),
                      timed_run("next run (good.cu)", [pre_commit, "run", "--files", "good.cu"],
                                work, hook_env, hide=hide_llvm), "the local hook with the wheel")
            os.remove(os.path.join(work, ".pre-commit-config.yaml"))

        if a.hook_repo:
            with Step("6. pre-commit, the python hook built from source"):
                repo = os.path.abspath(a.hook_repo)
                # try-repo clones REPO into a temporary store of its own
                # (under TMPDIR), a config's repository goes into
                # PRE_COMMIT_HOME: both under tmp. ccache hashes paths under
                # CCACHE_BASEDIR relative to the build directory, so a build
                # of another copy of the sources (tools/wheel/build_and_check.sh
                # builds REPO's) serves the clones'.
                hook_env["TMPDIR"] = os.path.join(tmp, "try-repo")
                os.makedirs(hook_env["TMPDIR"])
                hook_env["CCACHE_BASEDIR"] = tmp
                # Both are first runs, each with its own build: try-repo, the
                # command of docs/packaging.md, and REPO at its commit as a
                # config names it, whose environment stays in PRE_COMMIT_HOME
                # (try-repo's store is removed when it ends), so that the
                # coalesce-lint it built can be looked at.
                bad = timed_run("first run, try-repo (bad.cu)",
                                [pre_commit, "try-repo", repo, "coalesce-lint", "--files",
                                 "bad.cu"], work, hook_env)
                envs = os.path.join(hook_env["PRE_COMMIT_HOME"], "repo*", "py_env-*", "bin",
                                    "coalesce-lint")
                before = set(glob.glob(envs))  # step 5's hook environment
                config = os.path.join(work, ".pre-commit-config.yaml")
                rev = git(["rev-parse", "HEAD"], repo, hook_env)
                with open(config, "w") as f:
                    f.write(f"repos:\n- repo: {repo}\n  rev: {rev}\n"
                            "  hooks:\n  - id: coalesce-lint\n")
                good = timed_run("first run, the repository at its commit (good.cu)",
                                 [pre_commit, "run", "--files", "good.cu"], work, hook_env)
                os.remove(config)
                hooks_ran(bad, good, "the hook from source, " + repo)
                built = sorted(set(glob.glob(envs)) - before)
                if check(len(built) == 1, "pre-commit installed coalesce-lint in a new "
                         f"environment ({built})", good[1] + good[2]):
                    rc, out, err = run(["ldd", built[0]])
                    check(rc == 0 and "libLLVM" not in out and "libclang" not in out,
                          "the coalesce-lint pre-commit built loads no libLLVM/libclang-cpp", out)

        with Step("7. pre-commit, the mirror at vVERSION: the prebuilt wheel by version"):
            mirror_route(tmp, wheel, lint, project, pre_commit, work, hook_env, hide_llvm)
    return report()


def mirror_route(tmp, wheel, lint, project, pre_commit, work, hook_env, hide_llvm):
    """Step 7: the mirror repository of a release, with the wheel as the
    index would serve it."""
    version = os.path.basename(wheel).split("-")[1]
    mirror = os.path.join(tmp, "mirror")
    render = os.path.join(project, "tools", "wheel", "render_mirror.py")
    rc, out, err = run([sys.executable, render, "--version", version, "--mirror-url", mirror,
                        "--project-url", project, mirror])
    if not check(rc == 0, f"render_mirror.py exited {rc}", out + err):
        return
    git(["init", "-q"], mirror, hook_env)
    git(["add", "."], mirror, hook_env)
    git(["commit", "-q", "-m", f"coalesce-lint {version}"], mirror, hook_env)
    git(["tag", f"v{version}"], mirror, hook_env)

    # What PyPI serves, offline: the wheel, and the build backend of the
    # mirror's own (code-less) package, which pip builds from the clone.
    wheelhouse = os.path.join(tmp, "wheelhouse")
    os.makedirs(wheelhouse)
    shutil.copy(wheel, wheelhouse)
    rc, out, err = run([os.path.join(tmp, "venv", "bin", "pip"), "download", "-q",
                        "--disable-pip-version-check", "--only-binary=:all:", "-d", wheelhouse,
                        "setuptools>=70.1"])
    if not check(rc == 0, f"pip download setuptools (PyPI) exited {rc}", out + err):
        return

    env = {k: v for k, v in hook_env.items() if k not in ("TMPDIR", "CCACHE_BASEDIR")}
    env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=wheelhouse, PIP_ONLY_BINARY="coalesce-lint",
               PIP_DISABLE_PIP_VERSION_CHECK="1",
               PRE_COMMIT_HOME=os.path.join(tmp, "pre-commit-home-mirror"))
    # What a user writes: the mirror at the release's tag. (Not try-repo,
    # whose store is a temporary directory: the installed hook could not be
    # looked at afterwards.) The first run clones the mirror, makes the
    # virtual environment and pip-installs it; the second reuses it.
    config = os.path.join(work, ".pre-commit-config.yaml")
    with open(config, "w") as f:
        f.write(f"repos:\n- repo: {mirror}\n  rev: v{version}\n  hooks:\n"
                "  - id: coalesce-lint\n")
    results = [timed_run(label, [pre_commit, "run", "--files", name], work, env, hide=hide_llvm)
               for label, name in (("first run (bad.cu)", "bad.cu"),
                                   ("next run (good.cu)", "good.cu"))]
    os.remove(config)
    hooks_ran(results[0], results[1], f"the mirror at v{version}")

    installed = glob.glob(os.path.join(env["PRE_COMMIT_HOME"], "repo*", "py_env-*", "bin",
                                       "coalesce-lint"))
    if check(len(installed) == 1, "pre-commit installed the mirror's coalesce-lint in its "
             f"environment ({installed})", results[0][1] + results[0][2]):
        with open(installed[0], "rb") as f, open(lint, "rb") as g:
            check(f.read() == g.read(), "the mirror hook's coalesce-lint is the wheel's "
                  f"binary ({installed[0]})")


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
          "pre-commit hooks install it (the mirror's from the wheel, by version)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""test_hook.py PROJECT_DIR BIN_DIR: the `coalesce-lint-system` pre-commit
hook (a coalesce-lint already installed), as a user runs it. The
`coalesce-lint` hook, which pre-commit installs itself, is tested with the
wheel (tests/wheel/test_wheel.py, ctest -L wheel): it builds coalesce-lint.

`pre-commit validate-manifest` accepts .pre-commit-hooks.yaml (both hooks).
pre-commit only runs hooks from a git repository with the hook files
committed, so the test copies .pre-commit-hooks.yaml and
tools/pre-commit-hook.sh into a temporary hook repository and commits them
there (the project's own git state is never touched). A second temporary
repository holds a good and a bad kernel. Then, offline (PRE_COMMIT_HOME in
the temporary directory, coalesce-lint found on PATH = BIN_DIR):

- `pre-commit try-repo HOOKREPO coalesce-lint-system --files bad.cu` fails and
  prints the finding;
- the same on good.cu passes;
- a .pre-commit-config.yaml with `args: [--min-ratio=16]` lets bad.cu (8x the
  ideal) pass, `args: [--min-ratio=4]` does not;
- the hook fails loudly (exit 2) when it cannot find coalesce-lint.
"""
import os
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(cond, msg, output=""):
    if not cond:
        failures.append(msg + ("\n--- output:\n" + output if output else ""))


def run(cmd, cwd, env):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return p.returncode, p.stdout


def git(args, cwd, env):
    rc, out = run(["git", "-c", "user.name=coalesce-test", "-c", "user.email=test@example.invalid",
                   "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"] + args, cwd, env)
    if rc != 0:
        sys.exit(f"git {' '.join(args)} failed:\n{out}")
    return out.strip()


def main():
    project, bin_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    pre_commit = shutil.which("pre-commit")
    if not pre_commit:
        sys.exit("pre-commit is not installed (tools/bootstrap.sh installs Debian's pre-commit)")
    with tempfile.TemporaryDirectory(prefix="coalesce-pre-commit-") as tmp:
        env = dict(os.environ)
        env["PRE_COMMIT_HOME"] = os.path.join(tmp, "cache")
        env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
        env.pop("COALESCE_LINT", None)
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["HOME"] = tmp  # no user git config or hooks
        env["PRE_COMMIT_COLOR"] = "never"

        hooks = os.path.join(tmp, "hookrepo")
        os.makedirs(os.path.join(hooks, "tools"))
        shutil.copy2(os.path.join(project, ".pre-commit-hooks.yaml"), hooks)
        shutil.copy2(os.path.join(project, "tools", "pre-commit-hook.sh"), os.path.join(hooks, "tools"))
        git(["init", "-q"], hooks, env)
        git(["add", "."], hooks, env)
        git(["commit", "-q", "-m", "hook"], hooks, env)
        rev = git(["rev-parse", "HEAD"], hooks, env)

        work = os.path.join(tmp, "work")
        os.makedirs(work)
        for name in ("good.cu", "bad.cu"):
            shutil.copy(os.path.join(project, "tests", "lit", "Inputs", name), work)
        git(["init", "-q"], work, env)
        git(["add", "."], work, env)

        rc, out = run([pre_commit, "validate-manifest", os.path.join(hooks, ".pre-commit-hooks.yaml")],
                      work, env)
        check(rc == 0, f"pre-commit validate-manifest .pre-commit-hooks.yaml exited {rc}", out)

        try_repo = [pre_commit, "try-repo", hooks, "coalesce-lint-system", "--color=never",
                    "--files"]
        rc, out = run(try_repo + ["bad.cu"], work, env)
        if os.environ.get("COALESCE_TEST_VERBOSE"):
            print(out)
        check(rc != 0, f"try-repo on bad.cu should fail, exited {rc}", out)
        check("Failed" in out, "try-repo on bad.cu: the hook is reported as Failed", out)
        check("bad.cu:3:12: warning: global load from 'in' uses 32 sectors per request (ideal 4)" in out,
              "try-repo on bad.cu: the finding is printed", out)

        rc, out = run(try_repo + ["good.cu"], work, env)
        check(rc == 0, f"try-repo on good.cu should pass, exited {rc}", out)
        check("Passed" in out, "try-repo on good.cu: the hook is reported as Passed", out)

        # The threshold comes from the hook's args.
        def config(args):
            with open(os.path.join(work, ".pre-commit-config.yaml"), "w") as f:
                f.write(f"repos:\n- repo: {hooks}\n  rev: {rev}\n  hooks:\n"
                        f"  - id: coalesce-lint-system\n    args: {args}\n")
        config("[--min-ratio=16]")
        rc, out = run([pre_commit, "run", "--color=never", "--files", "bad.cu"], work, env)
        check(rc == 0, f"args [--min-ratio=16]: bad.cu (8x) should pass, exited {rc}", out)
        config("[--min-ratio=4]")
        rc, out = run([pre_commit, "run", "--color=never", "--files", "bad.cu"], work, env)
        check(rc != 0 and "32 sectors per request" in out,
              f"args [--min-ratio=4]: bad.cu (8x) should fail with the finding, exited {rc}", out)

        # No binary to be found: a clear error, not a silent pass.
        lonely = dict(env, PATH="/usr/bin:/bin")
        rc, out = run(["bash", os.path.join(hooks, "tools", "pre-commit-hook.sh"), "bad.cu"], work,
                      lonely)
        check(rc == 2 and "cannot find coalesce-lint" in out,
              f"without coalesce-lint the hook exits 2 with a message, exited {rc}", out)

    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("ok: pre-commit hook fails on bad.cu, passes on good.cu, honours args")


if __name__ == "__main__":
    main()

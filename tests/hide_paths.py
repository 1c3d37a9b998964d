#!/usr/bin/env python3
"""hide_paths.py PATH[,PATH...] -- CMD...: run CMD as on a machine without
those directories.

In a private mount namespace (unshare(1); --map-root-user when not root) an
empty directory is mounted over each PATH that exists, then CMD runs there.
The exit status is CMD's. The packaging tests use it to run coalesce-lint
without LLVM (/usr/lib/llvm-22) or without the source tree it was built from;
`hide_paths.py --check` exits 0 when mount namespaces work here."""
import os
import subprocess
import sys
import tempfile


def command(paths):
    """The prefix that runs a command with `paths` hidden."""
    return [sys.executable, os.path.abspath(__file__), ",".join(paths), "--"]


def works():
    return subprocess.run(command([tempfile.gettempdir()]) + ["true"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def main():
    if sys.argv[1:] == ["--check"]:
        sys.exit(0 if works() else 1)
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: hide_paths.py PATH[,PATH...] -- CMD...")
    paths, cmd = sys.argv[1].split(","), sys.argv[3:]
    if os.environ.get("COALESCE_HIDING") != sys.argv[1]:
        unshare = ["unshare", "--mount", "--propagation", "private"]
        if os.geteuid() != 0:
            unshare.append("--map-root-user")
        env = dict(os.environ, COALESCE_HIDING=sys.argv[1])
        sys.exit(subprocess.run(unshare + [sys.executable, os.path.abspath(__file__)] +
                                sys.argv[1:], env=env).returncode)
    empty = tempfile.mkdtemp(prefix="hidden-")
    for path in paths:
        if os.path.isdir(path):
            subprocess.run(["mount", "--bind", empty, path], check=True)
    del os.environ["COALESCE_HIDING"]
    os.execvp(cmd[0], cmd)


if __name__ == "__main__":
    main()

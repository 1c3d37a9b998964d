#!/usr/bin/env python3
"""expect_exit.py CODE CMD...: run CMD, pass its output through, and fail
unless it exits with CODE (lit's `not` only knows zero / non-zero)."""
import subprocess
import sys

want = int(sys.argv[1])
proc = subprocess.run(sys.argv[2:])
if proc.returncode != want:
    sys.stderr.write(f"expect_exit: {sys.argv[2:]} exited {proc.returncode}, expected {want}\n")
    sys.exit(1)

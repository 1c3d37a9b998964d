#!/usr/bin/env python3
"""without_cuda_toolkit.py CMD...: run CMD as on a machine without a CUDA
toolkit.

CUDA_PATH and CUDA_HOME are removed from the environment, and in a private
mount namespace (unshare(1); --map-root-user when not root) an empty
directory is mounted over /usr/local/cuda and over /usr/local/include (where
some machines install the toolkit's headers too), so the tool's toolkit
search (analyzer/Invocation.cpp findCudaToolkit) and clang's default include
path find nothing. Tests that use it say `REQUIRES: mount-namespace`
(lit.cfg.py checks that unshare works here). The exit status is CMD's."""
import os
import subprocess
import sys
import tempfile

if os.environ.get("COALESCE_IN_NAMESPACE") != "1":
    env = dict(os.environ, COALESCE_IN_NAMESPACE="1")
    for var in ("CUDA_PATH", "CUDA_HOME"):
        env.pop(var, None)
    unshare = ["unshare", "--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        unshare.append("--map-root-user")
    sys.exit(subprocess.run(unshare + [sys.executable, os.path.abspath(__file__)] +
                            sys.argv[1:], env=env).returncode)

empty = tempfile.mkdtemp(prefix="no-cuda-")
for path in ("/usr/local/cuda", "/usr/local/include"):
    if os.path.isdir(path):
        subprocess.run(["mount", "--bind", empty, path], check=True)
os.execvp(sys.argv[1], sys.argv[1:])

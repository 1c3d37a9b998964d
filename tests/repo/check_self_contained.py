#!/usr/bin/env python3
"""check_self_contained.py SOURCE_DIR BUILD_DIR

A fresh clone must pass its own tests: nothing a test reads may live beside
the checkout (a sibling directory such as ../shared exists on the machine the
project was written on, not in a user's clone). Fails when

a test command or the lit configuration of BUILD_DIR (CTestTestfile.cmake,
lit.site.cfg.py) names a path in SOURCE_DIR's parent directory that is
neither in the source tree nor in the build tree. (The test scripts read only
what these commands hand them.)
"""
import os
import pathlib
import re
import sys


def inside(path, root):
    try:
        pathlib.PurePath(path).relative_to(root)
        return True
    except ValueError:
        return False


def main():
    src = pathlib.Path(os.path.realpath(sys.argv[1]))
    build = pathlib.Path(os.path.realpath(sys.argv[2]))
    parent = src.parent
    bad = []

    # What ctest and lit will read: every absolute path they name.
    configs = list(build.rglob("CTestTestfile.cmake")) + list(build.rglob("lit.site.cfg.py"))
    if not configs:
        bad.append(f"{build}: no CTestTestfile.cmake (not a configured build directory?)")
    for cfg in configs:
        for token in re.findall(r"(/[^\s\"';,)\]]+)", cfg.read_text(errors="replace")):
            path = pathlib.Path(os.path.normpath(token))
            if not inside(path, parent) or path == parent:
                continue  # a system path (/usr/..., /tmp/...), not a sibling of the checkout
            if inside(path, src) or inside(path, build) or inside(src, path):
                continue
            bad.append(f"{cfg.relative_to(build)}: names {token}, outside the checkout and "
                       f"the build tree")

    for b in bad:
        print("FAIL:", b)
    if bad:
        sys.exit(1)
    print(f"ok: {len(configs)} test configurations name nothing beside {src} but {build}")


if __name__ == "__main__":
    main()

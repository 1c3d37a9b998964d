#!/usr/bin/env python3
"""render_mirror.py: the pre-commit mirror repository's files for a release.

  render_mirror.py --version X.Y.Z --mirror-url URL --project-url URL OUT_DIR

Writes the files of tools/wheel/pre-commit-mirror/ into OUT_DIR (made if
missing; in the release workflow, a checkout of the mirror repository) with
@VERSION@, @MIRROR_URL@ and @PROJECT_URL@ replaced. Other files in OUT_DIR,
.git included, are left alone. The mirror's package depends on
`coalesce-lint==X.Y.Z` only, so pre-commit's `pip install .` of a tag of the
mirror installs the prebuilt wheel of that version (docs/packaging.md,
"Releases"). X.Y.Z must be the CMake project's version form (numbers and
dots), which is also the wheel's.
"""
import argparse
import os
import re
import sys

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pre-commit-mirror")


def render(version, mirror_url, project_url, out):
    """Writes the rendered template into `out`; returns the paths written."""
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)*", version):
        raise ValueError(f"version {version!r} is not of the form X.Y.Z")
    values = {"@VERSION@": version, "@MIRROR_URL@": mirror_url, "@PROJECT_URL@": project_url}
    written = []
    for name in sorted(os.listdir(TEMPLATE)):
        with open(os.path.join(TEMPLATE, name), encoding="utf-8") as f:
            text = f.read()
        for key, value in values.items():
            text = text.replace(key, value)
        left = re.findall(r"@[A-Z_]+@", text)
        if left:
            raise ValueError(f"{name}: no value for {', '.join(sorted(set(left)))}")
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--version", required=True, help="the release, X.Y.Z (the tag is vX.Y.Z)")
    ap.add_argument("--mirror-url", required=True, help="the mirror repository, for its README")
    ap.add_argument("--project-url", required=True,
                    help="coalesce-lint's repository, for the README")
    ap.add_argument("out", help="the directory to write into")
    a = ap.parse_args()
    try:
        for path in render(a.version, a.mirror_url, a.project_url, a.out):
            print(path)
    except ValueError as e:
        sys.exit(f"render_mirror: {e}")


if __name__ == "__main__":
    main()

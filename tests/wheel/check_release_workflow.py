#!/usr/bin/env python3
"""check_release_workflow.py SOURCE_DIR: the release workflow, its scripts,
the pre-commit mirror and the docs agree. Needs no build (PyYAML: Debian's
python3-yaml, which pre-commit depends on). Fails with each disagreement:

- .github/workflows/release-wheels.yml runs on `v*` tags and by hand, builds
  in debian:bookworm containers on an x86-64 and an arm64 runner, and its
  build job runs tools/wheel/release_build.sh, the script docs/packaging.md
  names for the local x86-64 build (the workflow's build is the local one);
- every action is pinned to an exact version (vX.Y.Z) or a commit, not a
  moving tag such as @v4 or @release/v1;
- the PyPI job publishes by trusted publishing (id-token: write) and the
  mirror job runs tools/wheel/render_mirror.py, with the repository variable
  and secret it reads documented in docs/packaging.md;
- the mirror, rendered for a version, depends on `coalesce-lint==VERSION`
  only, and its hook is this repository's `coalesce-lint` hook
  (.pre-commit-hooks.yaml), so that the two routes check the same.
"""
import os
import pathlib
import re
import sys
import tempfile
import tomllib

try:
    import yaml
except ImportError:
    sys.exit("check_release_workflow.py: needs PyYAML (Debian: python3-yaml)")

WORKFLOW = ".github/workflows/release-wheels.yml"
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@(v\d+\.\d+\.\d+|[0-9a-f]{40})$")


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems = []
    wf = yaml.safe_load((root / WORKFLOW).read_text())
    docs = (root / "docs/packaging.md").read_text()
    jobs = wf.get("jobs", {})

    # PyYAML reads the key `on` as the boolean true (YAML 1.1).
    triggers = wf.get("on", wf.get(True)) or {}
    if "v*" not in ((triggers.get("push") or {}).get("tags") or []):
        problems.append(f"{WORKFLOW}: does not run on pushed tags v*")
    if "workflow_dispatch" not in triggers:
        problems.append(f"{WORKFLOW}: cannot be run by hand (workflow_dispatch)")

    build = jobs.get("build", {})
    runners = {entry.get("runner") for entry in
               build.get("strategy", {}).get("matrix", {}).get("include", [])}
    if not {"ubuntu-24.04", "ubuntu-24.04-arm"} <= runners:
        problems.append(f"{WORKFLOW}: the build job's matrix lacks an x86-64 or arm64 runner "
                        f"({sorted(r for r in runners if r)})")
    if (build.get("container") or {}).get("image") != "debian:bookworm":
        problems.append(f"{WORKFLOW}: the build job does not run in debian:bookworm")
    script = "tools/wheel/release_build.sh"
    runs = [step.get("run", "") for step in build.get("steps", [])]
    if not any(re.search(rf"(^|\s){re.escape(script)}(\s|$)", r) for r in runs):
        problems.append(f"{WORKFLOW}: the build job does not run {script}")
    if not (root / script).is_file() or not os.access(root / script, os.X_OK):
        problems.append(f"{script}: missing or not executable")
    if f"`{script}" not in docs:
        problems.append(f"docs/packaging.md: does not name {script}, the local x86-64 build")

    for name, job in jobs.items():
        for step in job.get("steps", []):
            uses = step.get("uses")
            if uses and not PINNED.match(uses):
                problems.append(f"{WORKFLOW}: job {name}: {uses} is not pinned to a version")

    pypi = jobs.get("pypi", {})
    if (pypi.get("permissions") or {}).get("id-token") != "write" or not any(
            (s.get("uses") or "").startswith("pypa/gh-action-pypi-publish@")
            for s in pypi.get("steps", [])):
        problems.append(f"{WORKFLOW}: the pypi job does not publish with "
                        "pypa/gh-action-pypi-publish and id-token: write")
    mirror_job = jobs.get("pre-commit-mirror", {})
    text = (root / WORKFLOW).read_text()
    if not any("tools/wheel/render_mirror.py" in s.get("run", "")
               for s in mirror_job.get("steps", [])):
        problems.append(f"{WORKFLOW}: the pre-commit-mirror job does not run "
                        "tools/wheel/render_mirror.py")
    for name in sorted(set(re.findall(r"\b(?:vars|secrets)\.([A-Z_]+)", text))):
        if name not in docs:
            problems.append(f"docs/packaging.md: does not document {name}, which {WORKFLOW} reads")

    # The mirror, rendered.
    sys.path.insert(0, str(root / "tools" / "wheel"))
    import render_mirror
    with tempfile.TemporaryDirectory() as out:
        render_mirror.render("9.8.7", "MIRROR", "PROJECT", out)
        project = tomllib.loads(pathlib.Path(out, "pyproject.toml").read_text())["project"]
        if project.get("dependencies") != ["coalesce-lint==9.8.7"]:
            problems.append("tools/wheel/pre-commit-mirror/pyproject.toml: the dependencies "
                            f"are {project.get('dependencies')}, not coalesce-lint==VERSION alone")
        mirror_hooks = yaml.safe_load(pathlib.Path(out, ".pre-commit-hooks.yaml").read_text())
    own = {h["id"]: h for h in yaml.safe_load((root / ".pre-commit-hooks.yaml").read_text())}
    if [h.get("id") for h in mirror_hooks] != ["coalesce-lint"]:
        problems.append("the mirror's .pre-commit-hooks.yaml does not define the one hook "
                        "coalesce-lint")
    elif mirror_hooks[0] != own.get("coalesce-lint"):
        problems.append("the mirror's coalesce-lint hook differs from .pre-commit-hooks.yaml's:\n"
                        f"  mirror: {mirror_hooks[0]}\n  here:   {own.get('coalesce-lint')}")

    for p in problems:
        print("FAIL:", p)
    if problems:
        return 1
    print("ok: the release workflow runs tools/wheel/release_build.sh, pins its actions, "
          "and the mirror's hook is the repository's")
    return 0


if __name__ == "__main__":
    sys.exit(main())

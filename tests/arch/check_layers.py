#!/usr/bin/env python3
"""The project's folders are layers (docs/architecture.md): a file may
include headers of its own folder and of the layers it is allowed to use,
never of a layer above. Fails with each include that points the wrong way.

  front-ends   tools/coalesce-lint, tools/lsp, tools/tidy: everything below
  tools/output the front-ends' shared code (settings, set-up, emitters,
               findings policy): rules/ and the analyzer's driver, Analysis,
               launch (the settings' types), report and model
  rules/       read records: report/ and model/ (clang-free) only
  analyzer/    its own layers, highest first: driver, Analysis,
               KernelReuse, cost, interp, launch, ast, report, model

Nothing in analyzer/ includes rules/ or tools/, nothing in rules/ includes
tools/."""
import pathlib
import re
import sys

# Highest first: each analyzer layer may use the ones after it.
LAYERS = ["driver", "Analysis", "KernelReuse", "cost", "interp", "launch", "ast", "witness", "report", "model"]
RANK = {name: len(LAYERS) - i for i, name in enumerate(LAYERS)}
ANALYZER = set(LAYERS)

# What each non-analyzer layer may include besides its own folder.
ALLOWED = {
    "rules": {"report", "model"},
    "tools/output": {"rules", "driver", "Analysis", "launch", "report", "model"},
    "tools/lsp": {"tools/output", "rules"} | ANALYZER,
    "tools/tidy": {"tools/output", "rules"} | ANALYZER,
    "tools/coalesce-lint": {"tools/output", "tools/lsp", "rules"} | ANALYZER,
}


def analyzer_layer(rel: pathlib.PurePath) -> str:
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def main() -> int:
    project = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    bad = []
    files = []  # (path, layer)
    for p in sorted((project / "analyzer").rglob("*")):
        if p.suffix in (".h", ".cpp") and "builtin" not in p.parts:
            files.append((p, analyzer_layer(p.relative_to(project / "analyzer"))))
    for folder in ["rules"] + [f for f in ALLOWED if f.startswith("tools/")]:
        for p in sorted((project / folder).glob("*")):
            if p.suffix in (".h", ".cpp"):
                files.append((p, folder))
    # A header included by its bare name ("Rule.h", "Emit.h") is found in the
    # includer's folder, rules/ or tools/output/ (their include directories).
    bare = {}
    for folder in ["rules", "tools/output", "tools/lsp", "tools/tidy"]:
        for p in (project / folder).glob("*"):
            if p.suffix in (".h", ".def", ".inc"):
                bare.setdefault(p.name, folder)
    for path, me in files:
        rel = path.relative_to(project)
        if me not in RANK and me not in ALLOWED:
            bad.append(f"{rel}: folder '{me}' is not a layer in docs/architecture.md")
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = pathlib.PurePath(m.group(1))
            if len(inc.parts) > 1:
                target = inc.parts[0]
                if target not in RANK:
                    continue  # clang-tidy's own headers, generated files
            elif (path.parent / inc.name).exists():
                continue  # its own folder
            elif inc.name in bare:
                target = bare[inc.name]
            else:
                target = analyzer_layer(inc)
                if target not in RANK:
                    continue  # generated files (*.inc)
            if me in RANK:
                ok = target in RANK and RANK[target] <= RANK[me]
            else:
                ok = target == me or target in ALLOWED[me]
            if not ok:
                bad.append(f"{rel}:{n}: {me} includes {inc} from the layer '{target}', "
                           "which it may not use")
    for b in bad:
        print(b)
    print(f"{len(files)} files, {len(bad)} includes against the layering")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

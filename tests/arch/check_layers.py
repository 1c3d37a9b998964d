#!/usr/bin/env python3
"""The analyzer's folders are layers of one pipeline (docs/architecture.md):
a file may include headers of its own folder and of the layers below it,
never of a layer above. Fails with each include that points the wrong way."""
import pathlib
import re
import sys

# Highest first: each layer may use the ones after it.
LAYERS = ["driver", "Analysis", "cost", "interp", "launch", "ast", "report", "model"]
RANK = {name: len(LAYERS) - i for i, name in enumerate(LAYERS)}


def layer_of(rel: pathlib.PurePath) -> str:
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".") / "analyzer"
    bad = []
    files = [p for p in root.rglob("*") if p.suffix in (".h", ".cpp") and "builtin" not in p.parts]
    for path in sorted(files):
        rel = path.relative_to(root)
        me = layer_of(rel)
        if me not in RANK:
            bad.append(f"{rel}: folder '{me}' is not a layer in docs/architecture.md")
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = pathlib.PurePath(m.group(1))
            target = layer_of(inc)
            if target not in RANK:
                continue  # generated files (*.inc), rule lists
            if RANK[target] > RANK[me]:
                bad.append(f"{rel}:{n}: {me} includes {inc} from the higher layer '{target}'")
    for b in bad:
        print(b)
    print(f"{len(files)} files, {len(bad)} includes against the layering")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""docs/reasons.md lists every reason and assumption kind of
analyzer/report/Reasons.def (with the arithmetic kinds it includes from
analyzer/model/IntFailures.def) once, with the template the code renders and
an example that the template produces. Fails with each kind that is missing,
listed twice, out of date or whose example does not fit, and with each kind
whose template is a bare placeholder ("{0}": a sentence made elsewhere)."""
import pathlib
import re
import sys

DEF = re.compile(r'^(REASON|REASON_OF|HOST_REASON|INT_FAIL|ASSUMPTION)\((\w+), (?:\w+, )?'
                 r'"([^"]+)", "(.*)"\)\s*$')
LISTS = ["analyzer/report/Reasons.def", "analyzer/model/IntFailures.def"]
ROW = re.compile(r'^\| `([a-z0-9-]+)` \| (.*) \| (.*) \|$')


def unescape(cell):
    return cell.replace("\\|", "|")


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    kinds = {}
    bad = []
    for path in LISTS:
        for line in (root / path).read_text().splitlines():
            m = DEF.match(line)
            if m:
                if m.group(3) in kinds:
                    bad.append(f"{m.group(3)}: two kinds of that name")
                kinds[m.group(3)] = m.group(4).replace('\\"', '"')
    for name, template in kinds.items():
        if re.fullmatch(r"\{\d\}", template):
            bad.append(f"{name}: its template is only '{template}'")
    rows = {}
    for line in (root / "docs/reasons.md").read_text().splitlines():
        m = ROW.match(line)
        if not m:
            continue
        name, text, example = m.group(1), unescape(m.group(2)), unescape(m.group(3))
        if name in rows:
            bad.append(f"{name}: listed twice")
        rows[name] = (text, example)
    for name, template in kinds.items():
        if name not in rows:
            bad.append(f"{name}: not in docs/reasons.md")
            continue
        text, example = rows[name]
        if text != template:
            bad.append(f"{name}: the doc says '{text}', Reasons.def '{template}'")
        pattern = "".join(".+" if re.fullmatch(r"\{\d\}", p) else re.escape(p)
                          for p in re.split(r"(\{\d\})", template))
        if not re.fullmatch(pattern, example):
            bad.append(f"{name}: the example '{example}' does not fit '{template}'")
    for name in rows:
        if name not in kinds:
            bad.append(f"{name}: in docs/reasons.md but not in Reasons.def")
    for b in bad:
        print(b)
    print(f"{len(kinds)} kinds, {len(bad)} problems")
    return 1 if bad or not kinds else 0


if __name__ == "__main__":
    sys.exit(main())

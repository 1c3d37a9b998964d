#!/usr/bin/env python3
"""check_rule_docs.py PROJECT_DIR [COALESCE_LINT]

Each rule's one-sentence summary is written once, in rules/Rules.def, and
reused verbatim: this checks that it appears, word for word, in

- the rule's doc page rules/docs/<id>.md (as a paragraph of its own),
- the rule's header comment in rules/<Class>.h (comment lines joined),
- `coalesce-lint --list-rules` (when the binary is given),

and that each doc page has the sections every rule documents (example, how
the number is computed, limits, options, fix), and that every page belongs to
a rule: a rule's own page, or a fix page (`fix-<kind>.md`, one per kind of
fix a rule offers) that a rule's page links to and that has the sections a
fix documents (example, how it is chosen, limits).
"""
import os
import re
import subprocess
import sys

SECTIONS = ["## Example", "## How the number is computed", "## Limits", "## Options", "## Fix"]
FIX_SECTIONS = ["## Example", "## How it is chosen", "## Limits"]


def main():
    project = sys.argv[1]
    lint = sys.argv[2] if len(sys.argv) > 2 else None
    failures = []
    text = open(os.path.join(project, "rules", "Rules.def")).read()
    rules = re.findall(r'^COALESCE_RULE\(\s*(\w+)\s*,\s*"([^"]+)"\s*,\s*"([^"]+)"\)', text, re.M)
    if not rules:
        failures.append("no COALESCE_RULE entries found in rules/Rules.def")
    listed = ""
    if lint:
        listed = subprocess.run([lint, "--list-rules"], capture_output=True, text=True).stdout
    for cls, rid, summary in rules:
        doc_path = os.path.join(project, "rules", "docs", rid + ".md")
        if not os.path.exists(doc_path):
            failures.append(f"{rid}: no doc page rules/docs/{rid}.md")
        else:
            doc = open(doc_path).read()
            paragraphs = [p.strip() for p in doc.split("\n\n")]
            if summary not in paragraphs:
                failures.append(f"{rid}: the summary is not a paragraph of rules/docs/{rid}.md verbatim")
            if not doc.startswith(f"# coalesce-{rid}\n"):
                failures.append(f"{rid}: the doc page starts with '# coalesce-{rid}'")
            for s in SECTIONS:
                if not re.search("^" + re.escape(s) + "$", doc, re.M):
                    failures.append(f"{rid}: rules/docs/{rid}.md lacks the section '{s}'")
        header_path = os.path.join(project, "rules", cls + ".h")
        if not os.path.exists(header_path):
            failures.append(f"{rid}: no header rules/{cls}.h")
        else:
            comment = []
            for line in open(header_path):
                if not line.startswith("//"):
                    break
                comment.append(line[2:].strip())
            joined = re.sub(r"\s+", " ", " ".join(comment))
            if summary not in joined:
                failures.append(f"{rid}: the summary is not in the header comment of rules/{cls}.h")
        if lint and f"coalesce-{rid}: {summary}\n" not in listed:
            failures.append(f"{rid}: --list-rules does not print the summary verbatim")
    ids = {rid for _, rid, _ in rules}
    docs = os.path.join(project, "rules", "docs")
    rule_pages = "".join(open(os.path.join(docs, rid + ".md")).read()
                         for rid in ids if os.path.exists(os.path.join(docs, rid + ".md")))
    for name in sorted(os.listdir(docs)):
        if not name.endswith(".md") or name[:-3] in ids:
            continue
        if not name.startswith("fix-"):
            failures.append(f"rules/docs/{name} belongs to no rule in Rules.def")
            continue
        if f"({name})" not in rule_pages:
            failures.append(f"rules/docs/{name}: no rule's page links to it")
        page = open(os.path.join(docs, name)).read()
        for s in FIX_SECTIONS:
            if not re.search("^" + re.escape(s) + "$", page, re.M):
                failures.append(f"rules/docs/{name} lacks the section '{s}'")
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print(f"ok: {len(rules)} rules, summaries verbatim in docs, headers" + (" and --list-rules" if lint else ""))


if __name__ == "__main__":
    main()

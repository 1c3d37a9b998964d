#!/usr/bin/env python3
"""Every setting of tools/output/Settings.def is documented where users look
for it: its flag in README.md's option table and in docs/lsp.md's command
line, its key in README.md's .coalesce-lint.yaml example, and its clang-tidy
check option in docs/editors.md's option table; and every rule's clang-tidy
check is named in docs/editors.md, with no count in words that disagrees.
Fails with each one missing."""
import pathlib
import re
import sys

ROW = re.compile(r'^SETTING\((\w+), "([^"]*)", "([^"]*)", "([^"]*)", "([^"]*)",', re.M)


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    settings = ROW.findall((root / "tools/output/Settings.def").read_text())
    if len(settings) < 6:
        print("check_settings_doc.py: could not read the settings of Settings.def")
        return 1
    readme = (root / "README.md").read_text()
    lsp = (root / "docs/lsp.md").read_text()
    editors = (root / "docs/editors.md").read_text()
    table = [l for l in readme.splitlines() if l.startswith("| `-")]
    yaml = re.search(r"```yaml\n(rules:.*?)```", readme, re.S)
    tidy_rows = [l for l in editors.splitlines() if re.match(r"^\| `[A-Z]\w*` \|", l)]
    missing = []
    for ident, flag, arg, key, tidy in settings:
        if not any(f"`{flag}" in l for l in table):
            missing.append(f"README.md: the option table has no row for {flag} ({ident})")
        if flag not in lsp:
            missing.append(f"docs/lsp.md: the command line does not show {flag} ({ident})")
        if not yaml or not re.search(rf"^#? ?{re.escape(key)}:", yaml.group(1), re.M):
            missing.append(f"README.md: the .coalesce-lint.yaml example has no '{key}:' ({ident})")
        if tidy and not any(l.startswith(f"| `{tidy}` |") for l in tidy_rows):
            missing.append(f"docs/editors.md: the check options table has no row for {tidy} ({ident})")
    # The clang-tidy checks: one per rule of rules/Rules.def, each named in
    # docs/editors.md, and no count in words that disagrees (issue 39: "the
    # three coalesce- checks" when there were four).
    rules = re.findall(r'^COALESCE_RULE\(\w+, "([a-z-]+)"', (root / "rules/Rules.def").read_text(), re.M)
    if not rules:
        missing.append("rules/Rules.def: could not read the rules")
    for r in rules:
        if f"coalesce-{r}" not in editors:
            missing.append(f"docs/editors.md: the check coalesce-{r} is not named")
    words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
    for m in re.finditer(r"\b(two|three|four|five|six|seven|eight) (?:coalesce- )?checks\b", editors):
        if m.group(1) != words.get(len(rules)):
            missing.append(f"docs/editors.md: '{m.group(0)}', but there are {len(rules)} checks")
    for m in missing:
        print(m)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())

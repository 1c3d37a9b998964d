#!/usr/bin/env python3
"""check_sarif.py COALESCE_LINT SCHEMA PROJECT_DIR FILE.cu...

Validates `coalesce-lint --format=sarif` on the given kernels against the
SARIF 2.1.0 schema (python3-jsonschema) and checks what GitHub code scanning
needs and what coalesce-lint promises:

- $schema, version, runs[0].tool.driver {name, version, informationUri (an
  https URI, when configured at build time), rules[] with id "coalesce-<id>",
  name, shortDescription = the summary in
  rules/Rules.def, fullDescription, help.text + help.markdown = the rule's doc
  page, properties (tags, precision, problem.severity)};
- one result per finding of the text output (same rule, line, column,
  message), level "warning" / "note", a relative URI under %SRCROOT% that
  names an existing file, a region, relatedLocations for positioned notes,
  fixes for findings with fix-its, a partialFingerprints.primaryLocationLineHash,
  and the numbers in properties;
- fingerprints that survive moving and re-indenting a line, and change when
  the code on the line changes;
- a run with an input error still validates and says executionSuccessful: false;
- no file: URI anywhere: files under the source root are relative to
  %SRCROOT%, others (a header the header filter lets through) to %FSROOT%,
  and the bases have no uri; checked on the samples and on a file that
  includes its own, a third-party and a system header, with and without
  --header-filter=.* --system-headers.

Runs from PROJECT_DIR so that the URIs are relative to it.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
    return cond


def run(lint, args, cwd):
    p = subprocess.run([lint, "--cuda-path=none", "--color=never"] + args, cwd=cwd,
                       capture_output=True, text=True)
    return p


def validate(doc, schema, what):
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:10]:
        failures.append(f"{what}: schema: {'/'.join(map(str, e.path))}: {e.message}")
    return not errors


def rules_def(project):
    text = open(os.path.join(project, "rules", "Rules.def")).read()
    return re.findall(r'^COALESCE_RULE\(\s*(\w+)\s*,\s*"([^"]+)"\s*,\s*"([^"]+)"\)', text, re.M)


TEXT_DIAG = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<level>warning|remark): "
                       r"(?P<msg>.*) \[(?P<check>coalesce-[a-z-]+)\]$")


def text_findings(out):
    """(file, line, col, level, message, check, has_fixit) from the text output."""
    found = []
    for line in out.splitlines():
        m = TEXT_DIAG.match(line)
        if m:
            found.append([m["file"], int(m["line"]), int(m["col"]), m["level"], m["msg"],
                          m["check"], False])
        elif line.startswith("fix-it:") and found:
            found[-1][6] = True
    return found


def check_driver(doc, project, what):
    run0 = doc["runs"][0]
    driver = run0["tool"]["driver"]
    check(doc.get("$schema", "").startswith("https://"), f"{what}: $schema is a URI")
    check(doc.get("version") == "2.1.0", f"{what}: version 2.1.0")
    for key in ("name", "version", "rules"):
        check(key in driver, f"{what}: tool.driver.{key}")
    if "informationUri" in driver:
        check(driver["informationUri"].startswith("https://"), f"{what}: informationUri is https")
    check(driver.get("name") == "coalesce-lint", f"{what}: driver name")
    ids = []
    for cls, rid, summary in rules_def(project):
        rule = next((r for r in driver["rules"] if r.get("id") == "coalesce-" + rid), None)
        if not check(rule is not None, f"{what}: rule coalesce-{rid} in driver.rules"):
            continue
        ids.append(rule["id"])
        check(rule.get("name") == cls, f"{what}: {rid}: name is {cls}")
        check(rule.get("shortDescription", {}).get("text") == summary,
              f"{what}: {rid}: shortDescription.text is the Rules.def summary verbatim")
        full = rule.get("fullDescription", {}).get("text", "")
        check(summary in full and len(full) > len(summary),
              f"{what}: {rid}: fullDescription starts from the summary and says more")
        doc_md = open(os.path.join(project, "rules", "docs", rid + ".md")).read()
        check(rule.get("help", {}).get("text") == doc_md, f"{what}: {rid}: help.text is the doc page")
        check(rule.get("help", {}).get("markdown") == doc_md,
              f"{what}: {rid}: help.markdown is the doc page")
        props = rule.get("properties", {})
        check(isinstance(props.get("tags"), list) and props["tags"], f"{what}: {rid}: tags")
        check(props.get("precision") in ("very-high", "high", "medium", "low"),
              f"{what}: {rid}: precision")
        check(props.get("problem.severity") in ("error", "warning", "recommendation"),
              f"{what}: {rid}: problem.severity")
    return ids


def check_results(doc, expected, project, what):
    run0 = doc["runs"][0]
    rules = run0["tool"]["driver"]["rules"]
    results = run0["results"]
    check(len(results) == len(expected),
          f"{what}: {len(results)} results for {len(expected)} findings in the text output")
    check("%SRCROOT%" in run0.get("originalUriBaseIds", {}), f"{what}: originalUriBaseIds.%SRCROOT%")
    seen_prints = set()
    fixes = 0
    for i, (res, exp) in enumerate(zip(results, expected)):
        where = f"{what}: result {i} ({exp[0]}:{exp[1]})"
        file, line, col, level, msg, check_name, has_fixit = exp
        check(res.get("ruleId") == check_name, f"{where}: ruleId {res.get('ruleId')} != {check_name}")
        idx = res.get("ruleIndex")
        check(isinstance(idx, int) and 0 <= idx < len(rules) and rules[idx]["id"] == res.get("ruleId"),
              f"{where}: ruleIndex points to its rule")
        check(res.get("level") == ("warning" if level == "warning" else "note"), f"{where}: level")
        text = res.get("message", {}).get("text", "")
        check(text.split("\n")[0] == msg, f"{where}: message.text starts with the text message")
        loc = res["locations"][0]["physicalLocation"]
        art = loc["artifactLocation"]
        uri = art.get("uri", "")
        check(art.get("uriBaseId") == "%SRCROOT%", f"{where}: uriBaseId %SRCROOT%")
        check(not uri.startswith("/") and ":" not in uri and ".." not in uri.split("/"),
              f"{where}: uri {uri!r} is relative")
        check(os.path.isfile(os.path.join(project, uri)), f"{where}: uri {uri!r} names a file")
        check(uri == os.path.relpath(os.path.join(project, file), project).replace(os.sep, "/"),
              f"{where}: uri {uri!r} is the file of the text output")
        reg = loc["region"]
        check(reg.get("startLine") == line and reg.get("startColumn") == col,
              f"{where}: region starts at {line}:{col}")
        check(reg.get("endColumn", 0) > reg.get("startColumn", 0), f"{where}: region has an end column")
        fp = res.get("partialFingerprints", {}).get("primaryLocationLineHash", "")
        check(re.fullmatch(r"[0-9a-f]{16}:[0-9]+", fp), f"{where}: fingerprint format {fp!r}")
        check((uri, fp) not in seen_prints, f"{where}: fingerprint unique in its file")
        seen_prints.add((uri, fp))
        props = res.get("properties", {})
        check(props.get("kernel"), f"{where}: properties.kernel")
        check("launch" in props and "block" in props["launch"], f"{where}: properties.launch.block")
        if check_name == "coalesce-tma-contract":
            # About what the code reads: the rule broken, no cost number.
            contract = props.get("contract") or []
            check(contract and all(c.get("rule") and c.get("text") for c in contract),
                  f"{where}: properties.contract names the rules broken")
            check(any(f"({c['rule']})" in msg for c in contract if c.get("rule")),
                  f"{where}: the message names the rule broken")
        elif level == "warning":
            if check_name in ("coalesce-uncoalesced-global", "coalesce-uncoalesced-local"):
                keys = ("sectorsPerRequest", "idealSectorsPerRequest")
            elif check_name == "coalesce-constant-serialisation":
                keys = ("constantCacheRequestsPerInstruction", "idealConstantCacheRequests")
            else:
                keys = ("wavefrontsPerRequest", "idealWavefrontsPerRequest", "conflictWays")
            for k in keys:
                check(isinstance(props.get(k), (int, float)), f"{where}: properties.{k}")
            # The numbers are the message's (which rounds to 3 decimals).
            cost, ideal = fmt(props.get(keys[0])), fmt(props.get(keys[1]))
            check(f" {cost} " in msg and f"(ideal {ideal})" in msg,
                  f"{where}: properties {keys[0]}={cost} agree with the message")
        for rel in res.get("relatedLocations", []):
            check(rel.get("message", {}).get("text") and "physicalLocation" in rel,
                  f"{where}: relatedLocation with message and position")
        check(("fixes" in res) == has_fixit, f"{where}: fixes present iff the text output has a fix-it")
        for fx in res.get("fixes", []):
            fixes += 1
            ch = fx["artifactChanges"][0]
            check(ch["artifactLocation"].get("uriBaseId") == "%SRCROOT%", f"{where}: fix uri relative")
            rep = ch["replacements"][0]
            check("deletedRegion" in rep and "startLine" in rep["deletedRegion"], f"{where}: fix region")
            check(fx.get("description", {}).get("text"), f"{where}: fix description")
            check(res.get("relatedLocations"), f"{where}: a fix comes with its note's location")
    return fixes


def uris(node):
    """Every URI-valued string of a SARIF document."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("uri", "informationUri") and isinstance(v, str):
                yield v
            else:
                yield from uris(v)
    elif isinstance(node, list):
        for v in node:
            yield from uris(v)


def check_no_file_uris(doc, what):
    for u in uris(doc):
        check(not u.lower().startswith("file:"), f"{what}: a file: URI: {u}")
    for base, loc in doc["runs"][0].get("originalUriBaseIds", {}).items():
        check("uri" not in loc and loc.get("description", {}).get("text"),
              f"{what}: base {base} has a description and no machine path")


def locations(doc):
    """(uri, uriBaseId) of every result's location, related location and fix."""
    for res in doc["runs"][0]["results"]:
        locs = [l["physicalLocation"] for l in res["locations"] + res.get("relatedLocations", [])]
        for loc in locs:
            yield loc["artifactLocation"]["uri"], loc["artifactLocation"].get("uriBaseId")
        for fx in res.get("fixes", []):
            for ch in fx["artifactChanges"]:
                yield ch["artifactLocation"]["uri"], ch["artifactLocation"].get("uriBaseId")


def check_headers(lint, project, schema):
    """A file that reads through its own header, a third-party one (-I, outside
    the source root) and a system one (-isystem), whose access is reported
    in k.cu, at the call."""
    from urllib.parse import unquote
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(project, "tests", "lit", "cli", "Inputs", "headers"),
                        os.path.join(tmp, "h"))
        proj = os.path.join(tmp, "h", "proj")
        args = ["k.cu", "--", "-I../thirdparty", "-isystem", "../sys"]
        for extra, what, want in (([], "headers (default filter)", {"k.cu", "inc/own.cuh"}),
                                  (["--header-filter=.*", "--system-headers"], "headers (all)",
                                   {"k.cu", "inc/own.cuh", "thirdparty/tp.cuh"})):
            p = run(lint, ["--format=sarif", "--exit-zero"] + extra + args, proj)
            check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr}")
            doc = json.loads(p.stdout)
            validate(doc, schema, what)
            check_no_file_uris(doc, what)
            seen = set()
            for uri, base in locations(doc):
                if base == "%SRCROOT%":
                    path = os.path.join(proj, unquote(uri))
                else:
                    check(base == "%FSROOT%", f"{what}: {uri}: base {base}")
                    path = "/" + unquote(uri)
                check(os.path.isfile(path), f"{what}: {uri} (base {base}) names a file")
                seen.add(os.path.relpath(os.path.realpath(path), os.path.realpath(proj)))
            got = {f.replace("../", "") for f in seen}
            check(got == want, f"{what}: results in {sorted(got)}, expected {sorted(want)}")


def fmt(v):
    """A number as the messages print it (formatNumber: up to 3 decimals)."""
    if not isinstance(v, (int, float)):
        return str(v)
    r = round(v, 3)
    return str(int(r)) if r == int(r) else repr(r)


def fingerprints(lint, cwd, name):
    p = run(lint, ["--format=sarif", "--exit-zero", name], cwd)
    doc = json.loads(p.stdout)
    return [r["partialFingerprints"]["primaryLocationLineHash"] for r in doc["runs"][0]["results"]]


def check_fingerprint_stability(lint, project):
    with tempfile.TemporaryDirectory() as tmp:
        src = open(os.path.join(project, "tests", "lit", "Inputs", "bad.cu")).read()
        path = os.path.join(tmp, "k.cu")
        open(path, "w").write(src)
        before = fingerprints(lint, tmp, "k.cu")
        check(len(before) == 1, "stability: one finding in bad.cu")
        moved = "// new header\n\n\n" + src.replace("  out[i] = in[i * 1024];",
                                                    "      out[i]  =  in[i * 1024];  // note")
        open(path, "w").write(moved)
        check(fingerprints(lint, tmp, "k.cu") == before,
              "stability: moving, re-indenting and commenting the line keeps the fingerprint")
        open(path, "w").write(src.replace("i * 1024", "i * 1000"))
        check(fingerprints(lint, tmp, "k.cu") != before,
              "stability: changing the code on the line changes the fingerprint")
        open(path, "w").write(src.replace("column", "column_renamed"))
        check(fingerprints(lint, tmp, "k.cu") != before,
              "stability: renaming the kernel changes the fingerprint")


def main():
    lint, schema_path, project = sys.argv[1:4]
    lint = os.path.abspath(lint)
    files = [os.path.relpath(f, project) for f in sys.argv[4:]]
    if not os.path.exists(schema_path):
        sys.exit(f"the SARIF 2.1.0 schema is not at {schema_path}")
    schema = json.load(open(schema_path))

    p = run(lint, ["--format=sarif", "--exit-zero"] + files, project)
    check(p.returncode == 0, f"sarif run exited {p.returncode}: {p.stderr}")
    doc = json.loads(p.stdout)
    validate(doc, schema, "samples")
    check_driver(doc, project, "samples")
    text = run(lint, ["--exit-zero"] + files, project)
    expected = text_findings(text.stdout)
    check(expected, "the text output has findings")
    fixes = check_results(doc, expected, project, "samples")
    check(fixes >= 1, "at least one finding of the samples carries a fix (the tile padding)")
    check(doc["runs"][0]["invocations"][0]["executionSuccessful"] is True, "executionSuccessful")
    check_no_file_uris(doc, "samples")

    # An input error: still a valid log, with a notification.
    p = run(lint, ["--format=sarif", "tests/lit/Inputs/bad.cu", "no-such-file.cu"], project)
    check(p.returncode == 2, f"missing input exits 2, got {p.returncode}")
    doc = json.loads(p.stdout)
    validate(doc, schema, "with-error")
    inv = doc["runs"][0]["invocations"][0]
    check(inv["executionSuccessful"] is False, "with-error: executionSuccessful false")
    check(any("no-such-file.cu" in n["message"]["text"] for n in inv.get("toolExecutionNotifications", [])),
          "with-error: the error is a toolExecutionNotification")

    # --source-root: URIs relative to another directory.
    p = run(lint, ["--format=sarif", "--exit-zero", "--source-root=tests", "tests/lit/Inputs/bad.cu"],
            project)
    doc = json.loads(p.stdout)
    uri = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    check(uri == "lit/Inputs/bad.cu", f"--source-root=tests gives lit/Inputs/bad.cu, got {uri!r}")

    check_fingerprint_stability(lint, project)
    check_headers(lint, project, schema)

    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print(f"ok: SARIF of {len(files)} files valid, {len(expected)} results checked")


if __name__ == "__main__":
    main()

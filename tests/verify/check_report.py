#!/usr/bin/env python3
"""docs/verify-report.md is what verify mode prints for the recorded H200
measurements (tests/verify/fixtures/h200): regenerate it and compare, so the
report in the repository always matches the fixtures and the model.

usage: check_report.py COALESCE_LINT FIXTURES REPORT
"""
import os
import subprocess
import sys
import tempfile

lint, fixtures, report = sys.argv[1:4]
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "report.md")
    rc = subprocess.run([lint, "verify", "--measurements", fixtures, "--markdown", out],
                        stdout=subprocess.DEVNULL).returncode
    if rc != 0:
        sys.exit("verify --measurements failed (exit %d)" % rc)
    want = open(out).read()
text = open(report).read()
# The report starts with an HTML comment saying how it was made.
if text.startswith("<!--"):
    text = text[text.index("-->") + 3:].lstrip("\n")
if text != want:
    sys.exit("%s is out of date: regenerate it with\n  %s verify --measurements %s --markdown %s\n"
             "(and keep its leading comment)" % (report, lint, fixtures, report))
print("%s matches the recorded measurements" % report)

#!/usr/bin/env python3
"""Prints coalesce-lint's JSON (stdin) one access record a line, for FileCheck:

  FILE:LINE:COL: KERNEL OP SPACE 'ARRAY' `EXPRESSION` COST/IDEAL VERDICT [CONTEXT]

FILE is the base name; COST is sectors (global) or wavefronts (shared) per
request, `?` when unknown; [CONTEXT] only when not empty. A test can then
check that an access appears once, where, and with which space.
"""
import json
import os
import sys


def main():
    doc = json.load(sys.stdin)
    for a in doc["accesses"]:
        cost = a.get("sectors_per_request", a.get("wavefronts_per_request"))
        ideal = a.get("ideal_sectors_per_request", a.get("ideal_wavefronts"))
        line = "%s:%d:%d: %s %s %s '%s' `%s` %s/%s %s" % (
            os.path.basename(a["file"]), a["line"], a["column"], a["kernel"],
            a["op"], a["space"], a["array"], a["expression"],
            "?" if cost is None else cost, "?" if ideal is None else ideal,
            a["verdict"])
        if a["context"]:
            line += " [%s]" % a["context"]
        print(line)


if __name__ == "__main__":
    main()

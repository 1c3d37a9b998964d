#!/usr/bin/env python3
"""Prints coalesce-lint's JSON (stdin) one access record a line, for FileCheck:

  FILE:LINE:COL: KERNEL OP SPACE 'ARRAY' `EXPRESSION` COST/IDEAL VERDICT [CONTEXT]

FILE is the base name; COST is sectors (global) or wavefronts (shared) per
request, or constant-cache requests per instruction (constant), `?` when unknown; [CONTEXT] only when not empty. A test can then
check that an access appears once, where, and with which space.

With --witness, each line ends with the compiler witness's part (docs/witness.md):
  ... {WITNESS ANSWER REASON_KIND; EMITTED}
With --requests, with the requests per warp (`r=?` when not known):
  ... r=REQUESTS
With --launch, with the launch configuration it is for:
  ... @(X,Y,Z) BRANCHES      (@? when the block shape is not known)
"""
import json
import os
import sys


def main():
    doc = json.load(sys.stdin)
    for a in doc["accesses"]:
        keys = {"global": ("sectors_per_request", "ideal_sectors_per_request"),
                "shared": ("wavefronts_per_request", "ideal_wavefronts"),
                "constant": ("constant_cache_requests_per_instruction",
                             "ideal_constant_cache_requests")}[a["space"]]
        cost, ideal = a[keys[0]], a[keys[1]]
        line = "%s:%d:%d: %s %s %s '%s' `%s` %s/%s %s" % (
            os.path.basename(a["file"]), a["line"], a["column"], a["kernel"],
            a["op"], a["space"], a["array"], a["expression"],
            "?" if cost is None else cost, "?" if ideal is None else ideal,
            a["verdict"])
        if a["context"]:
            line += " [%s]" % a["context"]
        if "--witness" in sys.argv[1:]:
            line += " {%s %s %s; %s}" % (a.get("witness"), a["answer"], a["reason_kind"] or "-",
                                        ", ".join(a.get("emitted", [])) or "-")
        if "--requests" in sys.argv[1:]:
            r = a.get("requests_per_warp")
            line += " r=%s" % ("?" if r is None else ("%g" % r))
        if "--launch" in sys.argv[1:]:
            block = a["launch"]["block"]
            line += " @%s" % ("?" if block is None else "(%d,%d,%d)" % tuple(block))
            if a["launch"]["branches"]:
                line += " " + a["launch"]["branches"]
        print(line)


if __name__ == "__main__":
    main()

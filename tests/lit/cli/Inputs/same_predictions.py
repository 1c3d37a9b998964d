#!/usr/bin/env python3
"""Exit 0 if two --format=json reports predict the same for every access
(file, line, column, operation, kernel, block: verdict, cost, ideal, reason),
and there is at least one access."""
import json
import sys


def rows(path):
    d = json.load(open(path))
    out = {}
    for a in d["accesses"]:
        key = (a["file"], a["line"], a["column"], a["op"], a["kernel"], str(a["launch"]["block"]))
        out[key] = (a["verdict"], a.get("sectors_per_request"), a.get("wavefronts_per_request"),
                    a.get("ideal_sectors_per_request"), a.get("reason"))
    return out


a, b = rows(sys.argv[1]), rows(sys.argv[2])
if not a:
    sys.exit("no accesses in %s" % sys.argv[1])
diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
for k in diff[:20]:
    print("differs:", k, a.get(k), b.get(k))
if diff:
    sys.exit(1)
print("%d accesses, the same predictions" % len(a))

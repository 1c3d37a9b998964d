#!/bin/sh
# The ggml count of docs/real-code.md, "cp.async.cg at a 16-byte boundary":
# the reasons of the LDGSTS.BYPASS.128 records in the first six
# flash-attention instances of ggml at the commit pinned in
# tools/survey/manifest.json (d99724f), for one or more builds of
# coalesce-lint (e.g. one before and one after a change):
#   sh tools/survey/ggml_split_sectors.sh CORPUS/ggml-org+ggml BIN [BIN...]
# CORPUS/ggml-org+ggml is a checkout of ggml-org/ggml at d99724f
# (`tools/survey/survey.py sources` says how to get it).
set -eu
ggml=$1
shift
bins=""
for b in "$@"; do bins="$bins $(cd "$(dirname "$b")" && pwd)/$(basename "$b")"; done
cd "$ggml"
files=$(ls src/ggml-cuda/template-instances | grep '^fattn-mma-f16-instance' | sort | head -6)
for bin in $bins; do
  echo "$bin"
  for f in $files; do
    "$bin" --format=json --witness=off "src/ggml-cuda/template-instances/$f" \
        -- -Iinclude -Isrc -Isrc/ggml-cuda 2>/dev/null || true
  done | python3 -c '
import collections, json, sys
dec = json.JSONDecoder()
text = sys.stdin.read()
i, accesses, reasons = 0, 0, collections.Counter()
while i < len(text):
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    doc, i = dec.raw_decode(text, i)
    accesses += len(doc["accesses"])
    for a in doc["accesses"]:
        if "BYPASS" in (a.get("instruction") or ""):
            reasons[a.get("reason_kind") or a.get("answer")] += 1
print("  accesses", accesses, "bypass records by reason", dict(sorted(reasons.items())))
'
done

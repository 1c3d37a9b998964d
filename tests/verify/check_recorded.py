#!/usr/bin/env python3
"""Every reference kernel (sample_kernels/*.cu) is recorded under Nsight
Compute in one of the fixture directories given (tests/verify/fixtures/h200,
h100): verify mode replays each directory's recordings (CTest's
verify-recorded-*), and a sample recorded in none would go unchecked.

usage: check_recorded.py SAMPLES_DIR FIXTURES_DIR...
"""
import glob
import os
import sys


def main():
    samples, dirs = sys.argv[1], sys.argv[2:]
    missing = []
    for src in sorted(glob.glob(os.path.join(samples, "*.cu"))):
        stem = os.path.splitext(os.path.basename(src))[0]
        if not any(os.path.exists(os.path.join(d, stem + ext))
                   for d in dirs for ext in (".lines.csv", ".lines.csv.gz")):
            missing.append(os.path.basename(src))
    if missing:
        sys.exit("not recorded in " + ", ".join(dirs) + ": " + ", ".join(missing) +
                 "\nrecord them on a GPU machine: cd sample_kernels && python3 "
                 "../tools/verify/coalesce_verify.py --predictions P.json "
                 "--source-predictions S.json --record DIR FILE.cu (docs/verify.md)")
    print(f"every sample kernel is recorded ({len(glob.glob(os.path.join(samples, '*.cu')))})")


if __name__ == "__main__":
    main()

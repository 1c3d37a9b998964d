#!/usr/bin/env python3
"""accuracy.py [--fixtures DIR] [--out FILE | --check FILE]

Replays every kept recording of a real program (tests/verify/fixtures/
real-h200: Nsight Compute's source pages, the predictions coalesce-lint made
for them and the compared files' statement breaks, kept by
`tools/verify/real_programs.sh keep`) through verify mode, without the
programs' sources, and writes docs/accuracy.md: per program, per memory
space and per prediction (the source analysis alone, and joined with the
compiler witness), how many measured source lines agree, are conditional,
disagree, are unknown or are not matched, each row naming its GPU.

--check FILE regenerates the page and fails (exit 1) when any line
disagrees, or when the page differs from FILE, naming the lines: a change of the recordings, of the kept
predictions or of verify mode's judgement shows as a diff, a new
disagreement among them. The predictions are re-made from the programs'
sources with `real_programs.sh prepare` and `keep` (docs/accuracy.md says
how); CTest runs --check (`accuracy-replay`).
"""
import argparse
import collections
import contextlib
import io
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import coalesce_verify  # noqa: E402

# SGEMM_CUDA's kernel headers, by kernel number.
SGEMM = {1: "1_naive.cuh", 2: "2_kernel_global_mem_coalesce.cuh",
         3: "3_kernel_shared_mem_blocking.cuh", 4: "4_kernel_1D_blocktiling.cuh",
         5: "5_kernel_2D_blocktiling.cuh", 6: "6_kernel_vectorize.cuh",
         7: "7_kernel_resolve_bank_conflicts.cuh", 8: "8_kernel_bank_extra_col.cuh",
         9: "9_kernel_autotuned.cuh", 10: "10_kernel_warptiling.cuh",
         11: "11_kernel_double_buffering.cuh"}
RODINIA = ["gaussian", "backprop", "pathfinder", "lud", "nw", "hotspot", "particlefilter",
           "bfs", "bfs2", "nn"]
RODINIA_FILES = {"gaussian": "gaussian.cu", "backprop": "backprop_cuda_kernel.cu",
                 "pathfinder": "pathfinder.cu", "lud": "lud_kernel.cu", "nw": "needle_kernel.cu",
                 "hotspot": "hotspot.cu", "particlefilter": "ex_particle_CUDA_naive_seq.cu",
                 "bfs": "kernel.cu", "bfs2": "kernel2.cu", "nn": "nn_cuda.cu"}
SAMPLES = {"reduction6": "reduction_kernel.cu", "reduction2": "reduction_kernel.cu",
           "matrixMul": "matrixMul.cu"}


def programs(fixtures):
    """(project, program, measurements dir, predictions name dir, predictions
    name, compared file) for every kept recording, in the order of the page."""
    out = []
    for k, header in SGEMM.items():
        out.append(("SGEMM_CUDA", f"kernel {k}", "sgemm", "sgemm", "sgemm", header))
    out.append(("Rodinia", "lavaMD", "rodinia", "rodinia", "lavaMD", "kernel_gpu_cuda.cu"))
    out.append(("Rodinia", "srad_v2", "rodinia", "rodinia", "srad", "srad_kernel.cu"))
    for name in RODINIA:
        d = os.path.join("rodinia", name)
        out.append(("Rodinia", name, d, d, name, RODINIA_FILES[name]))
    for name, f in SAMPLES.items():
        d = os.path.join("cuda-samples", name)
        out.append(("cuda-samples", name, d, d, name, f))
    for k in range(1, 7):
        out.append(("llm.c", f"layernorm_forward {k}", f"llmc/layernorm_forward_{k}", "llmc",
                    "layernorm_forward", "layernorm_forward.cu"))
    kept = []
    for row in out:
        _, _, mdir, pdir, pname, f = row
        stem = os.path.splitext(f)[0]
        m = os.path.join(fixtures, mdir)
        if (os.path.exists(os.path.join(m, stem + ".lines.csv.gz")) and
                os.path.exists(os.path.join(fixtures, pdir, pname + ".predictions.json.gz"))):
            kept.append(row)
    return kept


COLUMNS = ["agree", "conditional", "disagree", "unknown", "not matched", "other"]


def column(status):
    return {"agree": "agree", "interior": "agree", "conditional": "conditional",
            "DISAGREE": "disagree", "unknown": "unknown", "not predicted": "not matched",
            "not in SASS": "not matched"}.get(status, "other")


def verify(fixtures, mdir, f, *pred_args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.json")
        # The compared file is named as the predictions name it; it is not
        # read (the recording's statement breaks stand in for it).
        args = [os.path.join(tmp, "absent", f), "--measurements", os.path.join(fixtures, mdir),
                *pred_args, "--json", out]
        with contextlib.redirect_stdout(io.StringIO()):
            rc = coalesce_verify.main(args)
        if rc not in (0, 1):
            raise SystemExit(f"accuracy.py: verify mode failed on {mdir}/{f} (exit {rc})")
        with open(out) as fh:
            return json.load(fh)


def replay(fixtures, row):
    """The rows of verify mode for one program, by prediction (the source
    alone, joined with the witness, and, where they were kept, joined with
    the sizes of the run stated), and the recording's GPU."""
    _, _, mdir, pdir, pname, f = row
    base = os.path.join(fixtures, pdir, pname)
    doc = verify(fixtures, mdir, f, "--predictions", base + ".predictions.json.gz",
                 "--source-predictions", base + ".source-predictions.json.gz")
    modes = [("source alone", doc.get("source_alone_rows") or []), ("joined", doc["rows"])]
    if os.path.exists(base + ".stated-predictions.json.gz"):
        stated = verify(fixtures, mdir, f, "--predictions", base + ".stated-predictions.json.gz")
        modes.append(("joined, sizes stated", stated["rows"]))
    return modes, doc["info"]


def tally(rows):
    by_space = {}
    for r in rows:
        by_space.setdefault(r.get("space", "?"), collections.Counter())[column(r["status"])] += 1
    return dict(sorted(by_space.items()))


def render(fixtures):
    lines = ["# Accuracy on real programs",
             "",
             "<!-- Generated by tools/verify/accuracy.py from tests/verify/fixtures/real-h200; "
             "do not edit. -->",
             "",
             "Every measured source line of public programs (pinned in "
             "`tools/survey/manifest.json`), recorded with Nsight Compute's source counters "
             "(`tools/verify/real_programs.sh measure`) and compared by verify mode "
             "([verify.md](verify.md)) with what coalesce-lint predicted for it: by the source "
             "analysis alone (`--witness=off`), and joined with the compiler witness "
             "([witness.md](witness.md)). A line agrees when the measured sectors or "
             "wavefronts per request equal the prediction (exactly, or, for a prediction made "
             "for the interior warps, within the tolerance verify.md gives); *conditional* is "
             "a number given under a condition the run did not meet; *not matched* a "
             "measured line with no prediction or a prediction with no instruction; *other* "
             "counts lines kept in registers and constant reads whose counters could not be "
             "split. *joined, sizes stated*: the joined prediction made with the sizes of "
             "the recorded run given as `--assume` (as a user who knows them would; the "
             "facts are in `tools/verify/real_programs.sh`), for the programs whose "
             "numbers depend on them; *overall* counts that prediction apart.",
             "",
             "Replay (no GPU, no sources needed): `python3 tools/verify/accuracy.py --out "
             "docs/accuracy.md`; CTest's `accuracy-replay` checks this page against the "
             "replay. To re-make the predictions after a change of the analysis: fetch the "
             "programs at the manifest's commits into a corpus directory "
             "(`tools/survey/survey.py sources`), then `tools/verify/real_programs.sh "
             "prepare CORPUS build-real` and `tools/verify/real_programs.sh keep build-real "
             "tests/verify/fixtures/real-h200`; to record again on a GPU machine, "
             "`tools/verify/real_programs.sh measure build-real`.",
             ""]
    rows_out = []
    total = collections.OrderedDict()
    for row in programs(fixtures):
        project, prog = row[0], row[1]
        modes, info = replay(fixtures, row)
        gpu = info.get("gpu", "?")
        for mode, rs in modes:
            for space, c in tally(rs).items():
                total.setdefault(mode, collections.Counter()).update(c)
                rows_out.append(f"| {project} | {prog} | {gpu} | {space} | {mode} | " +
                                " | ".join(str(c[k]) for k in COLUMNS) + " |")
    lines.append("## Overall")
    lines.append("")
    lines.append("| prediction | " + " | ".join(COLUMNS) + " |")
    lines.append("|---|" + "---|" * len(COLUMNS))
    for mode, c in total.items():
        lines.append(f"| {mode} | " + " | ".join(str(c[k]) for k in COLUMNS) + " |")
    lines.append("")
    lines.append("## Per program and memory space")
    lines.append("")
    lines.append("| project | program | GPU | space | prediction | " + " | ".join(COLUMNS) + " |")
    lines.append("|---|---|---|---|---|" + "---|" * len(COLUMNS))
    lines.extend(rows_out)
    lines.append("")
    return "\n".join(lines), sum(c["disagree"] for c in total.values())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fixtures", default=os.path.join(ROOT, "tests", "verify", "fixtures",
                                                       "real-h200"))
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--out", help="write the page here")
    g.add_argument("--check", help="fail when this page differs from the replay")
    args = ap.parse_args(argv)
    page, disagreements = render(args.fixtures)
    if args.out:
        with open(args.out, "w") as f:
            f.write(page)
        return 0
    with open(args.check) as f:
        old = f.read()
    if disagreements:
        print(f"accuracy.py: {disagreements} measured lines disagree with their prediction "
              f"(see {args.check})", file=sys.stderr)
        return 1
    if old == page:
        print(f"accuracy.py: {args.check} is the replay of {args.fixtures}")
        return 0
    import difflib
    sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), page.splitlines(True),
                                               args.check, "replay"))
    print(f"accuracy.py: {args.check} differs from the replay (regenerate it with --out)",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())

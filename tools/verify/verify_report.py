"""Markdown report for coalesce-verify: the full per-line table, timings, and
the seed documents' tables reproduced in Nsight Compute's units."""
import re
from collections import OrderedDict


def _fmt(v):
    if v is None:
        return "-"
    r = round(v, 3)
    return str(int(r)) if r == int(r) else f"{r:g}"


def _pair(p):
    return f"{_fmt(p[0])}/{_fmt(p[1])}" if p else "-"


def _find(rows, kernel, space, op, file=None):
    for r in rows:
        if r["kernel"] == kernel and r["space"] == space and r["op"] == op and \
                (file is None or r["file"] == file) and r["status"] in ("agree", "interior", "DISAGREE", "conditional"):
            return r
    return None


def _timing(kernels, kernel, file=None):
    for k in kernels:
        if k["kernel"] == kernel and (file is None or k["file"] == file) and k["ms"]:
            return k
    return None


def _table(head, body):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in body]
    return "\n".join(out) + "\n"


def _seed_tables(rows, kernels):
    md = []
    # Seed 000: float4 SAXPY.
    body = []
    for k in ("saxpy_coalesced", "saxpy_strided"):
        r = _find(rows, k, "global", "load")
        t = _timing(kernels, k)
        if r:
            body.append([k, _pair(r["predicted"]), _pair(r["measured"]),
                         f"{t['gbps']:.0f}" if t else "-"])
    if body:
        md.append("### Seed 000: float4 SAXPY (sectors per request / ideal)\n")
        md.append(_table(["kernel", "predicted", "measured", "GB/s"], body))
    # Seed 001: stride sweep.
    body = []
    base = _timing(kernels, "strided_read<1>")
    for s in range(1, 33):
        k = f"strided_read<{s}>"
        r = _find(rows, k, "global", "load")
        t = _timing(kernels, k)
        if r:
            body.append([s, _pair(r["predicted"]), _pair(r["measured"]),
                         f"{t['gbps']:.0f}" if t else "-",
                         f"{base['ms'] and t['ms'] / base['ms']:.1f}x" if t and base else "-"])
    if body:
        md.append("### Seed 001: sectors per request by stride (floats)\n")
        md.append("The seed counts 128-byte lines (\"stride 2 = 2 transactions\"); "
                  "Nsight Compute counts 32-byte sectors, so stride s < 8 costs 4s "
                  "sectors and every stride from 8 on costs 32.\n\n")
        md.append(_table(["stride", "predicted", "measured", "GB/s (read+write)",
                          "time vs stride 1"], body))
    # Seed 001: element sizes.
    body = []
    for t in ("char", "__half", "float", "double", "float2", "float4", "double2"):
        r1 = _find(rows, f"copy_elems<{t}>", "global", "load")
        r2 = _find(rows, f"copy_stride2<{t}>", "global", "load")
        if r1:
            body.append([t, _pair(r1["predicted"]), _pair(r1["measured"]),
                         _pair(r2["predicted"]) if r2 else "-", _pair(r2["measured"]) if r2 else "-"])
    if body:
        md.append("### Seed 001: element sizes (sectors per request / ideal)\n")
        md.append(_table(["type", "stride 1 predicted", "stride 1 measured",
                          "stride 2 predicted", "stride 2 measured"], body))
    # Seed 001: AoS / SoA / AoSoA.
    body = []
    for k in ("update_particles_aos", "update_particles_soa", "update_particles_aosoa"):
        r = _find(rows, k, "global", "load")
        t = _timing(kernels, k)
        if r:
            body.append([k, _pair(r["predicted"]), _pair(r["measured"]),
                         f"{t['ms'] * 1000:.1f}" if t else "-", f"{t['gbps']:.0f}" if t else "-"])
    if body:
        md.append("### Seed 001: particles, AoS vs SoA vs AoSoA\n")
        md.append(_table(["kernel", "predicted", "measured", "time (us)", "effective GB/s"], body))
    # Seeds 001/004: transposes.
    body = []
    for k in ("copy_coalesced", "copy_strided", "transpose_naive", "transpose_tiled", "transpose_shared"):
        g = [r for r in rows if r["kernel"] == k and r["status"] in ("agree", "interior", "DISAGREE", "conditional")]
        t = _timing(kernels, k)
        if g:
            cells = []
            for space, op in (("global", "load"), ("global", "store"), ("shared", "load")):
                r = next((x for x in g if x["space"] == space and x["op"] == op), None)
                cells += [_pair(r["predicted"]), _pair(r["measured"])] if r else ["-", "-"]
            body.append([k] + cells + [f"{t['gbps']:.0f}" if t else "-"])
    if body:
        md.append("### Seeds 001 and 004: transposes (predicted and measured per request / ideal)\n")
        md.append(_table(["kernel", "global load sectors, predicted", "measured",
                          "global store sectors, predicted", "measured",
                          "shared load wavefronts, predicted", "measured", "GB/s"], body))
    # Seed 002: rows vs columns.
    body = []
    for k in ("row_sums", "col_sums", "increment_coalesced", "increment_transposed"):
        r = _find(rows, k, "global", "load")
        t = _timing(kernels, k)
        if r:
            body.append([k, _pair(r["predicted"]), _pair(r["measured"]), f"{t['gbps']:.0f}" if t else "-"])
    if body:
        md.append("### Seed 002: row sum vs column sum, `blockIdx.x + blockDim.x*threadIdx.x`\n")
        md.append(_table(["kernel", "predicted", "measured", "GB/s"], body))
    # Seed 004: bank conflicts by stride.
    body = []
    for s in (1, 2, 3, 4, 8, 16, 32, 33):
        k = f"smem_stride_test<{s}>"
        r = _find(rows, k, "shared", "load")
        if r:
            body.append([s, _pair(r["predicted"]), _pair(r["measured"])])
    if body:
        md.append("### Seed 004: shared-memory bank conflicts by stride (wavefronts per request / ideal)\n")
        md.append(_table(["stride", "predicted", "measured"], body))
    return "\n".join(md)


def _total(r):
    """'500 in 125 / 500 in 125': the launch's sectors (wavefronts) in its
    requests, predicted and measured."""
    t = r.get("launch_total")
    if not t:
        return "-"
    (pr, pc), (mr, mc) = t["predicted"], t["measured"]
    return f"{_fmt(pc)} in {_fmt(pr)} / {_fmt(mc)} in {_fmt(mr)}"


CONSTANT_UNITS = (
    "- Constant rows are constant-cache requests per LDC / ideal (1). The source page "
    "has no cost column for LDC, so a second pass measures the kernel's `idc__requests` "
    "(one per distinct address of each LDC executed) and its LDCs executed "
    "(`smsp__inst_executed_op_ldc`); the line of a kernel whose other LDCs read one "
    "address each (its parameters, reads predicted warp-uniform) gets "
    "1 + (idc__requests - LDCs) / its LDCs' `Instructions Executed`. A line predicted "
    "warp-uniform without an LDC in the SASS reads instruction operands (no request); "
    "a kernel with several lines whose lanes may read different addresses cannot be "
    "split, and its rows say so.\n")


def markdown(info, rows, kernels, ok, total, witness=None):
    """witness: (source-alone tally, joined tally) when the predictions were
    joined with the compiler witness (docs/witness.md)."""
    md = ["# Verify report: predictions vs Nsight Compute\n",
          f"- GPU: {info.get('gpu', '?')} ({info.get('arch', '?')}), driver {info.get('driver', '?')}",
          f"- Nsight Compute: {info.get('ncu', '?')}",
          f"- Date: {info.get('date', '?')}",
          "- Programs: `sample_kernels/*.cu`, built with `nvcc -O3 -lineinfo`, profiled with "
          "`ncu --section SourceCounters`; each kernel launched once; timings are the median of "
          "21 runs with CUDA events after 3 warm-ups.",
          "- Units: global rows are 32-byte sectors per request / ideal "
          "(`L2 Theoretical Sectors Global` and `... Ideal` over `Instructions Executed`); "
          "shared rows are wavefronts per request / ideal (`L1 Wavefronts Shared` and "
          "`... Ideal` over `Instructions Executed`). A line's instructions are summed "
          "(unrolled loops, split struct accesses), and so are the predictions, weighted "
          "by their requests per warp. Where the grid is known, the launch's totals "
          "(sectors or wavefronts in requests: `Instructions Executed`) are compared too; "
          "executions with every lane predicated off may only add measured requests. "
          "Where a cost depends on a size the program takes at run time, the prediction "
          "is the case of the parametric answer that the run's size selects (the program "
          "announces its sizes with `COALESCE_SIZE`).\n",
          *([CONSTANT_UNITS] if any(r["space"] == "constant" for r in rows) else []),
          *([f"- Predictions joined with the compiler witness (the instructions nvcc "
             f"emitted, docs/witness.md): {witness[1]}; the source analysis alone: "
             f"{witness[0]}. The rows below are the joined predictions'.\n"] if witness else []),
          "## The seeds' tables\n",
          _seed_tables(rows, kernels),
          "\n## Every access\n"]
    by_file = OrderedDict()
    for r in rows:
        by_file.setdefault(r["file"], []).append(r)
    for f, rs in by_file.items():
        md.append(f"### {f}\n")
        body = []
        for r in rs:
            b = "x".join(str(x) for x in r["block"]) if r["block"] else "?"
            pred = "unknown" if r["status"] == "unknown" else _pair(r["predicted"])
            status = {"agree": "yes", "DISAGREE": "**no**", "unknown": "(unknown: not predicted)",
                      "interior": "yes, interior warps (see note)",
                      "not executed": "(not executed)", "not predicted": "**no** (not predicted)",
                      "not in SASS": "**no** (not in SASS)",
                      "operand": "(no LDC: operands)",
                      "not attributed": "(not attributed: see note)",
                      "kept in register": "(kept in a register: no instruction)",
                      "conditional": "**no**, conditional (see note)"}[r["status"]]
            if r["status"] == "not attributed" and r.get("note"):
                status += f" {r['note']}"
            if r.get("case"):
                pred += f" (case {r['case']})"
            if r.get("config"):
                pred += f" ({r['config']})"
            body.append([f"{r['line']}", r["kernel"], b, r["space"], r["op"], pred,
                         _pair(r["measured"]), _total(r), status])
        md.append(_table(["line", "kernel", "block", "space", "op", "predicted", "measured",
                          "launch total, predicted / measured", "agree"], body))
        ks = [k for k in kernels if k["file"] == f and k["ms"]]
        if ks:
            md.append("\n" + _table(["kernel", "median ms", "GB/s"],
                                    [[k["kernel"], f"{k['ms']:.4f}", f"{k['gbps']:.1f}"] for k in ks]))
        md.append("")
    md.append(f"\n{ok}/{total} accesses agree\n")
    return "\n".join(md)

#!/usr/bin/env python3
"""coalesce-verify: check coalesce-lint's predictions on a GPU, per source line.

For each CUDA program it builds the program with `nvcc -O3 -lineinfo` for the
local GPU, runs it under `ncu --section SourceCounters`, reads the
per-instruction source page (every SASS instruction under its CUDA source
line), sums the counters of the instructions of each (line, memory space,
operation), and prints them next to what coalesce-lint predicted:

  global: sectors per request = L2 Theoretical Sectors Global / Instructions Executed
          ideal               = L2 Theoretical Sectors Global Ideal / Instructions Executed
  shared: wavefronts per request = L1 Wavefronts Shared / Instructions Executed
          ideal                  = L1 Wavefronts Shared Ideal / Instructions Executed
  constant: the source page has no cost column for LDC, so a second ncu pass
          measures idc__requests.sum and smsp__inst_executed_op_ldc.sum per
          launch, and a kernel whose only lane-varying constant read is line L
          gives L: constant-cache requests per LDC
              = 1 + (idc__requests - LDCs executed) / (executions of L's LDCs)
          (every other LDC, the kernel's parameter loads included, reads one
          address and costs one request); see attribute_constant().

Launches are matched to the predictions by kernel name and block shape (from
ncu's raw page). With COALESCE_TIMING=1 the reference programs also time each
kernel (CUDA events, median of 21 runs) and the achieved bandwidth is shown.

The GPU side needs only Python 3, nvcc and ncu: predictions come as the JSON
of `coalesce-lint --format=json` (made on any machine, --predictions), or are
computed by calling coalesce-lint when it is available (--coalesce-lint).
Recorded measurements (--record DIR, --measurements DIR) let the comparison
run without a GPU, which is how CI checks the model against real hardware.

Exit status: 0 every prediction agrees; 1 some disagree; 2 usage or
environment errors (no GPU, no nvcc, no ncu, no counter permission, a program
that fails).
"""
import argparse
import ast
import csv
import datetime
import glob
import gzip
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import OrderedDict, defaultdict

# Assumption kinds (analyzer/report/Reasons.def) of a prediction made for the
# interior warps of the grid: a bounds guard or a clamp taken to pass on every
# lane, so the edge warps that the GPU also runs may cost a little more.
INTERIOR_KINDS = {"interior-guard", "interior-clamp"}
# Assumptions a run may not meet: a prediction resting on one is conditional.
CONDITIONAL_KINDS = INTERIOR_KINDS | {"alignment-of-symbols", "uniform-branch"}

TOLERANCE = 1e-3
INTERIOR_TOLERANCE = 0.01

# The memory spaces are the tool's table (model/Spaces.h), which every JSON
# report carries (`spaces`, also `coalesce-lint --list-spaces --format=json`);
# use_spaces() reads it, so that no name is kept twice.
#
# COST_KEYS: the cost fields of each space's predictions: per request, ideal,
# and the launch's total. COLUMNS: for each value of the source page's
# "Address Space" column, the space and its cost and ideal columns (None: no
# ideal; local memory's is judged on the cost alone).
COST_KEYS = {}
COLUMNS = {}


def use_spaces(table):
    """Takes the table of spaces of a JSON report (its `spaces` list)."""
    COST_KEYS.clear()
    COLUMNS.clear()
    for s in table:
        j = s["json"]
        COST_KEYS[s["space"]] = (j["cost"], j["ideal"], j["total"])
        n = s["ncu"]
        if n["address_space"]:
            COLUMNS[n["address_space"]] = (s["space"], n["cost"], n["ideal"])

# The metric that gives the source page local memory's sectors per
# instruction (column "L2 Theoretical Sectors Local"). Nsight Compute has no
# ideal for local memory: only the cost of a local line is compared.
LOCAL_SECTORS_METRIC = "smsp__sass_sectors_mem_local"

# __constant__ variables live in constant bank 3; the kernel's parameters in
# bank 0.
USER_CONSTANT_BANK = "c[0x3]"
# The kernel-level counters of the constant cache: requests (one per distinct
# address of each executed LDC) and LDC instructions executed.
CONSTANT_METRICS = ("idc__requests.sum", "smsp__inst_executed_op_ldc.sum")


class VerifyError(Exception):
    """An environment or input problem: reported with exit status 2."""


# ---------------------------------------------------------------------------
# Reading Nsight Compute's CSV pages
# ---------------------------------------------------------------------------

def open_text(path):
    if path.endswith(".gz"):
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8")
    return open(path, encoding="utf-8")


def to_number(text):
    text = (text or "").strip().replace(",", "")
    if text in ("", "-", "n/a"):
        return 0.0
    try:
        return float(text)
    except ValueError:
        return 0.0


def parse_raw(path):
    """Launches from `ncu --page raw --csv`: [{id, name, block, grid}] in order."""
    with open_text(path) as f:
        rows = list(csv.reader(f))
    if not rows:
        return []
    header = rows[0]
    col = {h: i for i, h in enumerate(header)}
    need = ["ID", "Kernel Name"]
    for n in need:
        if n not in col:
            raise VerifyError(f"{path}: no column '{n}' in ncu's raw page")
    launches = []
    for r in rows[1:]:
        if len(r) < len(header) or not r[col["ID"]].strip().isdigit():
            continue  # the units row
        def dim(prefix):
            try:
                return tuple(int(to_number(r[col[f"{prefix}_{a}"]])) for a in "xyz")
            except KeyError:
                return None
        launches.append({
            "id": int(r[col["ID"]]),
            "name": r[col["Kernel Name"]],
            "block": dim("launch__block_dim"),
            "grid": dim("launch__grid_dim"),
        })
    launches.sort(key=lambda l: l["id"])
    return launches


def parse_metrics(path):
    """Kernel-level metrics from `ncu --metrics ... --csv`: {launch id: {metric:
    value}}. ncu prints its own lines (==PROF==, the program's output) before
    the CSV, which starts at the header row."""
    with open_text(path) as f:
        lines = f.read().splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID",')), None)
    if start is None:
        raise VerifyError(f"{path}: no metrics table (a header row starting with \"ID\")")
    rows = list(csv.reader(lines[start:]))
    col = {h: i for i, h in enumerate(rows[0])}
    for n in ("ID", "Metric Name", "Metric Value"):
        if n not in col:
            raise VerifyError(f"{path}: no column '{n}' in ncu's metrics table")
    out = {}
    for r in rows[1:]:
        if len(r) < len(rows[0]) or not r[col["ID"]].strip().isdigit():
            continue
        out.setdefault(int(r[col["ID"]]), {})[r[col["Metric Name"]]] = \
            to_number(r[col["Metric Value"]])
    return out


def parse_source_page(path):
    """Per-launch instruction rows from `ncu --page source --csv
    --print-source cuda,sass`: one block per profiled launch, in launch
    order. Returns [{function, instructions: [{file, line, sass, ...}]}].

    The page is a series of segments, each opened by a "File Path" row and a
    "Function Name" row; a launch whose code comes from several files (inlined
    header code) has one segment per file. A segment starts a new launch when
    its function differs from the current launch's, or when its file was
    already seen in the current launch (the same kernel launched again)."""
    with open_text(path) as f:
        rows = list(csv.reader(f))
    segments = []
    seg = None
    for r in rows:
        if not r:
            continue
        if r[0] == "File Path":
            seg = {"file": r[1] if len(r) > 1 else "", "function": None,
                   "header": None, "instructions": []}
            segments.append(seg)
            line_no = None
            continue
        if seg is None:
            continue
        if r[0] == "Function Name":
            seg["function"] = r[1] if len(r) > 1 else ""
            continue
        if r[0] == "Line No":
            # Two columns are both called "Source": the CUDA line and the SASS.
            seg["header"] = r
            continue
        header = seg["header"]
        if header is None:
            continue
        if r[0].strip():  # a source-line row: the instructions below belong to it
            try:
                line_no = int(r[0])
            except ValueError:
                line_no = None
            continue
        address = r[2].strip() if len(r) > 2 else ""
        if not address.startswith("0x"):
            continue  # "..." separator rows
        rec = {"file": seg["file"], "line": line_no, "sass": r[3].strip(), "_address": address}
        for i, h in enumerate(header[4:], 4):
            if i < len(r):
                rec[h] = r[i]
        seg["instructions"].append(rec)
    launches = []
    for seg in segments:
        cur = launches[-1] if launches else None
        if cur is None or cur["function"] != seg["function"] or seg["file"] in cur["files"]:
            cur = {"function": seg["function"], "files": set(), "instructions": [],
                   "addresses": set()}
            launches.append(cur)
        cur["files"].add(seg["file"])
        # ncu lists every instruction twice under its line: count it once.
        for rec in seg["instructions"]:
            key = rec.get("_address")
            if key in cur["addresses"]:
                continue
            cur["addresses"].add(key)
            cur["instructions"].append(rec)
    return [{"function": l["function"], "instructions": l["instructions"]} for l in launches]


# ---------------------------------------------------------------------------
# Inlining chains: where header code was called from
# ---------------------------------------------------------------------------
#
# Nsight Compute's source page puts an instruction inlined from a header (a
# toolkit intrinsic such as __ldcs, a helper of the program's own header) on
# the header's line, which every call of it shares. `nvdisasm -gi` prints, for
# each instruction of the same binary, the whole chain: the header's line,
# then the line of each call it was inlined at. A recording keeps the chains
# of its inlined memory instructions (<stem>.inlined.json.gz, made by
# inline_map_of() from the binary that was profiled, or from a compile of
# the same source with the same flags); compare_program() checks them
# against the recorded SASS, address by address, and compare_launch() puts
# each such instruction on the innermost line of its chain that a
# prediction is on.

SASS_FILE_RE = re.compile(r'//## File "([^"]*)", line (\d+)')
SASS_INSTR_RE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.x]*)")
SASS_FUNCTION_RE = re.compile(r"^\.text\.([^:\s]+):")
# A program whose instructions exist only on an architecture-specific target
# (wgmma: sm_90a) says so in its leading comment: `// Build: nvcc -arch=sm_90a`.
BUILD_ARCH_RE = re.compile(r"^//\s*Build:\s*nvcc\s+-arch=(sm_\d+[af])\b", re.M)
MEMORY_OPCODE_RE = re.compile(r"(LD|ST|ATOM|RED|LDGSTS|LDSM|STSM)(G|S|L|C)?(\.|$)")


def parse_sass_chains(text):
    """{mangled function: {offset: (opcode, [(file basename, line), ...])}}
    from `nvdisasm -gi` output: the memory instructions whose chain has more
    than one frame (code inlined from elsewhere), innermost frame first."""
    out = {}
    func = None
    chain, pending = [], []
    for line in text.splitlines():
        m = SASS_FUNCTION_RE.match(line.strip())
        if m:
            func = out.setdefault(m.group(1), {})
            chain, pending = [], []
            continue
        m = SASS_FILE_RE.search(line)
        if m:
            # A run of "//## File" lines is one chain, innermost first.
            pending.append((os.path.basename(m.group(1)), int(m.group(2))))
            continue
        m = SASS_INSTR_RE.search(line)
        if not m or func is None:
            continue
        if pending:
            chain, pending = pending, []
        opcode = m.group(3)
        if len(chain) > 1 and MEMORY_OPCODE_RE.match(opcode) and not opcode.startswith("LDC"):
            func[int(m.group(1), 16)] = (opcode, list(chain))
    return {f: i for f, i in out.items() if i}


def demangle(names):
    """Demangled names (c++filt), or the names unchanged without it."""
    tool = shutil.which("c++filt")
    if not tool or not names:
        return list(names)
    p = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True)
    got = p.stdout.splitlines()
    return got if p.returncode == 0 and len(got) == len(names) else list(names)


def inline_map_of(binary, nvdisasm=None, cuobjdump=None):
    """The inlined memory instructions of a cubin or of an executable's
    device code, as kept in <stem>.inlined.json.gz: {"functions": [{"name":
    demangled, "mangled", "instructions": {"0x05e0": {"sass": opcode,
    "chain": [[file, line], ...]}}}]}. None when the tools are missing."""
    nvdisasm = nvdisasm or find_tool("nvdisasm", "NVDISASM")
    if not nvdisasm:
        return None
    with open(binary, "rb") as f:
        elf = f.read(64)
    cubins = [binary]
    tmp = None
    if elf[:4] == b"\x7fELF" and elf[7] != 0x33 and elf[7] != 0x41:
        # A host executable: extract its device code (cuobjdump -xelf).
        cuobjdump = cuobjdump or find_tool("cuobjdump", "CUOBJDUMP")
        if not cuobjdump:
            return None
        tmp = tempfile.mkdtemp(prefix="coalesce-cubin-")
        p = subprocess.run([cuobjdump, "-xelf", "all", os.path.abspath(binary)], cwd=tmp,
                           capture_output=True, text=True)
        cubins = sorted(glob.glob(os.path.join(tmp, "*.cubin")))
        if p.returncode != 0 or not cubins:
            shutil.rmtree(tmp, ignore_errors=True)
            return None
    try:
        chains = {}
        for c in cubins:
            p = subprocess.run([nvdisasm, "-gi", "-c", c], capture_output=True, text=True)
            if p.returncode == 0:
                chains.update(parse_sass_chains(p.stdout))
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    mangled = sorted(chains)
    return {"functions": [
        {"name": name, "mangled": m,
         "instructions": {f"0x{a:04x}": {"sass": op, "chain": [list(x) for x in ch]}
                          for a, (op, ch) in sorted(chains[m].items())}}
        for m, name in zip(mangled, demangle(mangled))]}


def apply_inline_map(block, inline_map):
    """Gives the instructions of one launch (a parse_source_page() block)
    their inlining chains, when `inline_map` has the launch's function and
    its opcodes are the recorded ones at every address it lists. Returns
    None, or a note saying why the chains were not used."""
    if not inline_map:
        return None
    want = normalize_name(block["function"] or "")
    funcs = [f for f in inline_map.get("functions", []) if normalize_name(f["name"]) == want]
    if not funcs:
        return None
    recs = [r for r in block["instructions"] if r.get("_address", "").startswith("0x")]
    if not recs:
        return None
    base = min(int(r["_address"], 16) for r in recs)
    by_offset = {int(r["_address"], 16) - base: r for r in recs}
    for f in funcs:
        ok = True
        for addr, ins in f["instructions"].items():
            r = by_offset.get(int(addr, 16))
            if (opcode_of(r) if r else "") != ins["sass"]:
                ok = False
                break
        if ok:
            for addr, ins in f["instructions"].items():
                by_offset[int(addr, 16)]["chain"] = [tuple(x) for x in ins["chain"]]
            return None
    return (f"the inlining chains of {block['function']} were not used: the recorded SASS "
            f"differs from the binary they were read from")


def write_chains(sources, record, arch, nvcc_args):
    """--chains-only: <stem>.inlined.json.gz for each source, from a compile of
    its device code with the recorded build's flags."""
    if not record:
        raise VerifyError("--chains-only needs --record DIR")
    nvcc = find_tool("nvcc", "NVCC")
    if not nvcc:
        raise VerifyError("nvcc not found (put the CUDA toolkit's bin/ on PATH or set CUDA_HOME)")
    if not find_tool("nvdisasm", "NVDISASM"):
        raise VerifyError("nvdisasm not found (set NVDISASM, or tools/bootstrap.sh fetches it)")
    os.makedirs(record, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="coalesce-chains-") as tmp:
        for src in sources:
            stem = os.path.splitext(os.path.basename(src))[0]
            cubin = os.path.join(tmp, stem + ".cubin")
            p = run([nvcc, "-cubin", "-O3", "-lineinfo", *arch_flags(build_arch(src, arch)), *nvcc_args,
                     "-o", cubin, src], 600, what=f"nvcc {src}")
            if p.returncode != 0:
                raise VerifyError(f"{src}: nvcc failed:\n{p.stderr.strip()}")
            m = inline_map_of(cubin)
            if m is None:
                raise VerifyError(f"{src}: nvdisasm failed")
            dest = os.path.join(record, stem + ".inlined.json.gz")
            if m["functions"]:
                write_inline_map(dest, m)
                print(f"{dest}: {sum(len(x['instructions']) for x in m['functions'])} inlined "
                      f"memory instructions in {len(m['functions'])} functions")
            else:
                print(f"{src}: no inlined memory instructions")
    return 0


def write_inline_map(path, inline_map):
    """Keeps a map of inline_map_of() as <stem>.inlined.json.gz (compact,
    the same bytes for the same map)."""
    with gzip.GzipFile(path, "wb", 9, mtime=0) as f:
        f.write(json.dumps(inline_map, separators=(",", ":"), sort_keys=True).encode())


def load_inline_map(directory, stem):
    """<stem>.inlined.json[.gz] of a recording, in its directory or the one
    above (one program's binary recorded in several runs)."""
    for d in (directory, os.path.dirname(os.path.normpath(directory))):
        for cand in (stem + ".inlined.json", stem + ".inlined.json.gz"):
            p = os.path.join(d, cand)
            if os.path.exists(p):
                with open_text(p) as f:
                    return json.load(f)
    return None


def opcode_of(rec):
    """The opcode of a recorded instruction, without its predicate."""
    words = (rec.get("sass") or "").split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else ""


def space_op(rec):
    space = (rec.get("Address Space") or "").strip().lower()
    op = (rec.get("Access Operation") or "").strip().lower()
    opcode = opcode_of(rec)
    # An LDC of a __constant__ variable (ULDC, the uniform datapath's load,
    # does not go through the constant cache's counters).
    if re.fullmatch(r"LDC(\.\w+)*", opcode) and USER_CONSTANT_BANK in rec.get("sass", ""):
        return "constant", "load"
    if space not in COLUMNS:
        return None
    if re.match(r"(RED|ATOM)", opcode):
        return space, "atomic"
    if op in ("load",):
        return space, "load"
    if op in ("store",):
        return space, "store"
    if op in ("atomic", "reduction", "atomic,reduction"):
        return space, "atomic"
    return None


def sides(rec):
    """The (space, op) pairs one instruction counts as: one, or two for an
    asynchronous copy (LDGSTS: "Global,Shared" / "Load,Store" on one row, its
    global sectors and its shared wavefronts in their own columns)."""
    space = (rec.get("Address Space") or "").strip().lower()
    op = (rec.get("Access Operation") or "").strip().lower()
    if space == "global,shared" and op == "load,store":
        return [("global", "load"), ("shared", "store")]
    so = space_op(rec)
    return [so] if so else []


def measured_groups(instructions):
    """(file basename, line, space, op) -> totals over the launch."""
    groups = OrderedDict()
    for rec in instructions:
        for space, op in sides(rec):
            key = (os.path.basename(rec["file"]), rec["line"], space, op)
            g = groups.setdefault(key, {"inst": 0.0, "cost": 0.0, "ideal": 0.0, "sass": []})
            inst = to_number(rec.get("Instructions Executed"))
            g["inst"] += inst
            # constant: no per-instruction cost; attribute_constant() fills it in.
            if space in COLUMNS:
                _, cost_column, ideal_column = COLUMNS[space]
                g["cost"] += to_number(rec.get(cost_column))
                if ideal_column:
                    g["ideal"] += to_number(rec.get(ideal_column))
                else:
                    g["no_ideal"] = True  # judged on the cost: see compare_launch()
            g["sass"].append(rec["sass"].split()[0] if rec["sass"] else "?")
            if rec.get("via"):
                g["via"] = rec["via"]
    return groups


def follow_chains(instructions, predicted, src_name):
    """The instructions with an inlining chain (apply_inline_map()) whose
    line Nsight Compute shows lies in a file the tool did not analyse (a
    toolkit header: __ldcs, atomicAdd, __pipeline_memcpy_async) moved to the
    innermost call of the chain in a file it did (the call in the program's
    helper, where the tool reports the access, or in the compared file). The
    others unchanged: an access in the program's own helper is reported on
    the helper's line, as Nsight Compute shows it."""
    analysed = {k[0] for k in predicted} | {src_name}
    out = []
    for rec in instructions:
        chain = rec.get("chain")
        if not chain or chain[0][0] in analysed:
            out.append(rec)
            continue
        to = next((f for f in chain if f[0] in analysed), None)
        if to is None or (to[0] == os.path.basename(rec["file"]) and to[1] == rec["line"]):
            out.append(rec)
            continue
        moved = dict(rec)
        moved["file"], moved["line"] = to[0], to[1]
        moved["via"] = f"{os.path.basename(rec['file'])}:{rec['line']}"
        out.append(moved)
    return out


def normalize_name(name):
    """'void img::blur_rows<(int)2>(img::Image, img::Image)' -> 'img::blur_rows<2>'."""
    s = base_kernel_name(name)
    s = re.sub(r"\((?:unsigned |signed |long |short )*(?:int|char|long|short|bool|__int128)\)(?=-?\d)",
               "", s)
    # clang spells template arguments 256U and true; ncu, 256 and 1.
    s = re.sub(r"(?<=[<,\s])(-?\d+)(?:[uU][lL]{0,2}|[lL]{1,2}[uU]?)(?=[,>\s])", r"\1", s)
    s = re.sub(r"(?<=[<,\s])true(?=[,>\s])", "1", s)
    s = re.sub(r"(?<=[<,\s])false(?=[,>\s])", "0", s)
    return s.replace(" ", "")


def unqualified(name):
    depth, cut = 0, 0
    for i, c in enumerate(name):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == ":" and depth == 0 and i + 1 < len(name) and name[i + 1] == ":":
            cut = i + 2
    return name[cut:]


def match_kernel(candidates, names):
    """The predicted kernel name that ncu's names (raw page, source page)
    denote, or None."""
    by_norm = {normalize_name(k): k for k in candidates}
    for n in names:
        k = by_norm.get(normalize_name(n))
        if k:
            return k
    for n in names:
        u = unqualified(normalize_name(n))
        hits = [k for nk, k in by_norm.items() if unqualified(nk) == u]
        if len(hits) == 1:
            return hits[0]
    return None


def base_kernel_name(demangled):
    """'void strided_read<2>(const float *, float *)' -> 'strided_read<2>'."""
    s = demangled.strip()
    depth = 0
    cut = len(s)
    for i in range(len(s) - 1, -1, -1):
        c = s[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                cut = i
                break
    s = s[:cut].strip()
    if s.startswith("void "):
        s = s[5:]
    return s


# ---------------------------------------------------------------------------
# Predictions
# ---------------------------------------------------------------------------

def size_value(param, sizes):
    """The value of a parametric prediction's size in this run: announced
    under its own name, or computed from the parameter it is derived from
    (JSON `parametric.assume`): a quotient the kernel computes, `nb/16` or
    `(n + 31)/32`, evaluated as C evaluates it on non-negative integers."""
    name = param.get("size")
    if name in sizes:
        return sizes[name]
    base = param.get("assume")
    if not name or not base or base not in sizes:
        return None
    try:
        tree = ast.parse(name, mode="eval")
    except SyntaxError:
        return None

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name) and n.id == base:
            return sizes[base]
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            if a is None or b is None:
                return None
            if isinstance(n.op, ast.Add):
                return a + b
            if isinstance(n.op, ast.Sub):
                return a - b
            if isinstance(n.op, ast.Mult):
                return a * b
            if isinstance(n.op, ast.Div) and b != 0:
                q = abs(a) // abs(b)  # C truncates toward zero
                return q if (a >= 0) == (b > 0) else -q
        return None

    return ev(tree)


def parametric_case(param, sizes):
    """The case of a parametric prediction (JSON `parametric`) that the run's
    sizes select, as (cost, ideal, text), or None when the run did not
    announce the size."""
    if not param:
        return None
    v = size_value(param, sizes)
    if v is None:
        return None
    for row in param.get("table") or []:
        if row["value"] == v:
            return row["cost"], row["ideal"], f"{param['size']} = {v}"
    for c in param.get("cases") or []:
        w = c["when"]
        if w["min"] is not None and v < w["min"]:
            continue
        if w["max"] is not None and v > w["max"]:
            continue
        if w["modulus"] > 1 and v % w["modulus"] not in w["residues"]:
            continue
        return c["cost"], c["ideal"], f"{param['size']} = {v}: {c['text']}"
    return None


def config_key(a):
    """What tells one launch configuration's records from another's of the
    same kernel and block: the arguments and the grid."""
    l = a["launch"]
    return json.dumps([l.get("args"), l.get("grid")], sort_keys=True)


def launch_configs(accesses, kernel, block):
    """The distinct launch configurations predicted for `kernel` with
    `block`, in the order of the records."""
    keys = OrderedDict()
    for a in accesses:
        b = tuple(a["launch"]["block"]) if a["launch"]["block"] else None
        if a["kernel"] == kernel and b == (tuple(block) if block else None):
            keys.setdefault(config_key(a), a["launch"])
    return keys


def predicted_groups(accesses, kernel, block, grid=None, sizes=None, config=None):
    """(file basename, line, space, op) -> predictions for the launch of
    `kernel` with `block`: per-request cost and ideal (request-weighted over
    the line's accesses), requests per warp (None when a loop's trip count
    is not known) and the totals of the launch with `grid` (None unless every
    access of the line has them)."""
    candidates = [a for a in accesses if a["kernel"] == kernel and
                  (config is None or config_key(a) == config)]
    configs = OrderedDict()
    for a in candidates:
        b = tuple(a["launch"]["block"]) if a["launch"]["block"] else None
        configs.setdefault(b, []).append(a)
    chosen = configs.get(tuple(block) if block else None)
    if chosen is None:
        chosen = configs.get(None)  # predicted with an assumed shape
    if chosen is None:
        return None
    groups = OrderedDict()
    for a in chosen:
        if a.get("answer") == "no-instruction":
            continue  # nvcc reuses an earlier load or forwards a stored value
        op = a["op"]
        if "load-hoisted" in a.get("assumption_kinds", []):
            # nvcc loads it before the loop: its own row, matched to what
            # Nsight Compute shows on a line before (compare_launch).
            op += HOISTED
        key = (os.path.basename(a["file"]), a["line"], a["space"], op)
        g = groups.setdefault(key, {"w": 0.0, "cost": 0.0, "ideal": 0.0, "rpw": 0.0,
                                    "rpw_known": True, "unknown": None, "exprs": [],
                                    "total": (0.0, 0.0)})
        # The launch's totals, when every access of the line has them.
        cost_key = COST_KEYS[a["space"]][2]
        t = next((x for x in a.get("launch_totals", [])
                  if grid and tuple(x["grid"]) == tuple(grid)), None)
        if g["total"] is not None and t and t.get(cost_key) is not None:
            g["total"] = (g["total"][0] + t["requests"], g["total"][1] + t[cost_key])
        else:
            g["total"] = None
        g["exprs"].append(a["expression"])
        # nvcc keeps the value in a register across the loop's iterations:
        # it may need no instruction at all on this line.
        g["kept"] = g.get("kept", True) and "kept-in-register" in a.get("assumption_kinds", [])
        if any(k in INTERIOR_KINDS for k in a.get("assumption_kinds", [])):
            g["interior"] = True
        # What the prediction takes for granted that a run may not meet.
        for k, text in zip(a.get("assumption_kinds", []), a.get("assumptions", [])):
            if k in CONDITIONAL_KINDS:
                g.setdefault("conditions", []).append(text)
        if a["verdict"] == "unknown":
            g["unknown"] = a["reason"]
            continue
        rpw = a["requests_per_warp"]
        if rpw is None:
            g["rpw_known"] = False
        w = rpw if rpw else 1.0
        cost, ideal = a[COST_KEYS[a["space"]][0]], a[COST_KEYS[a["space"]][1]]
        # A cost that depends on a run-time size: the case this run selects.
        case = parametric_case(a.get("parametric"), sizes or {})
        if case:
            cost, ideal = case[0], case[1]
            g["case"] = case[2]
            g["total"] = None  # the totals are for the top-level case
        elif a.get("parametric"):
            g.setdefault("conditions", []).append(
                f"the case of the run-time size '{a['parametric'].get('size')}' its headline "
                f"states (the run's value was not given: --size)")
        g["w"] += w
        g["rpw"] += rpw or 0.0
        g["cost"] += w * cost
        g["ideal"] += w * ideal
        g.setdefault("per_request", set()).add((round(cost, 9), round(ideal, 9)))
    for g in groups.values():
        # The line's figure is an average over its accesses' requests: with
        # an access whose requests per warp are not known (a value nvcc keeps
        # in a register, a branch on an unknown value), the mix is not known
        # unless every access costs the same per request.
        if g["unknown"] is None and not g["rpw_known"] and len(g.get("per_request", ())) > 1:
            g["unknown"] = ("the line's accesses cost differently per request and how many "
                            "requests some of them take is not known")
    return groups


# The op of a predicted load that nvcc hoists out of its loop (load-hoisted).
HOISTED = " (hoisted)"


def agree(a, b):
    return abs(a - b) <= max(TOLERANCE, TOLERANCE * abs(b))


def fmt(v):
    if v is None:
        return "-"
    r = round(v, 3)
    return str(int(r)) if r == int(r) else f"{r:g}"


# ---------------------------------------------------------------------------
# Running programs on the GPU
# ---------------------------------------------------------------------------

def run(cmd, timeout, env=None, what=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except FileNotFoundError:
        raise VerifyError(f"{cmd[0]}: not found")
    except subprocess.TimeoutExpired:
        raise VerifyError(f"{what or cmd[0]} did not finish in {timeout} s (killed)")
    return p


def find_tool(name, env_var=None):
    if env_var and os.environ.get(env_var):
        path = os.environ[env_var]
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise VerifyError(f"{env_var}={path}: not an executable")
        return path
    p = shutil.which(name)
    if p:
        return p
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.path.exists(os.path.join(root, "bin", name)):
            return os.path.join(root, "bin", name)
    return None


def gpu_info():
    smi = shutil.which("nvidia-smi")
    if not smi:
        raise VerifyError("no GPU: nvidia-smi not found")
    p = run([smi, "--query-gpu=name,driver_version,compute_cap", "--format=csv,noheader"], 60)
    lines = [l for l in p.stdout.splitlines() if l.strip()]
    if p.returncode != 0 or not lines:
        raise VerifyError("no GPU: nvidia-smi found no device (" +
                          (p.stderr.strip() or p.stdout.strip()) + ")")
    name, driver, cap = [x.strip() for x in lines[0].split(",")]
    return {"gpu": name, "driver": driver, "arch": "sm_" + cap.replace(".", "")}


def ncu_version(ncu):
    p = run([ncu, "--version"], 60)
    return (p.stdout.strip().splitlines() or ["?"])[-1]


def build_arch(source, arch):
    """The architecture to build `source` for: the one its leading comment
    names (an architecture-specific target such as sm_90a), else `arch`."""
    try:
        with open(source, errors="replace") as f:
            m = BUILD_ARCH_RE.search(f.read(4096))
    except OSError:
        return arch
    return m.group(1) if m else arch


def arch_flags(arch):
    """nvcc flags that build SASS for `arch`. For an architecture-specific
    target, only that target: nvcc 13's `-arch=sm_90a` also builds PTX for
    compute_90, where sm_90a's instructions (wgmma) do not assemble."""
    if arch[-1] in "af":
        return ["-gencode", f"arch=compute_{arch[3:]},code=sm_{arch[3:]}"]
    return [f"-arch={arch}"]


def measure(source, work, nvcc, ncu, arch, timing, prebuilt=None, launch_count=None,
            constant=False):
    """Builds and profiles one program; returns paths of lines.csv, raw.csv,
    the timing text and, with `constant` (the predictions have constant
    reads), metrics.csv: the constant cache's kernel-level counters from a
    second ncu pass (None otherwise). With `prebuilt` (a command line), the
    program is one built by its own makefile (with -lineinfo) and is run as
    given, in the current directory, with the first `launch_count` launches
    profiled."""
    stem = os.path.splitext(os.path.basename(source))[0]
    if prebuilt:
        cmd = shlex.split(prebuilt)
        timing = False
    else:
        exe = os.path.join(work, stem)
        p = run([nvcc, "-O3", "-lineinfo", *arch_flags(build_arch(source, arch)), "-o", exe, source], 600,
                what=f"nvcc {source}")
        if p.returncode != 0:
            raise VerifyError(f"{source}: nvcc failed:\n{p.stderr.strip()}")
        cmd = [exe]
    rep = os.path.join(work, stem)
    limit = ["-c", str(launch_count)] if launch_count else []
    # smsp__sass_sectors_mem_local adds the source page's column "L2
    # Theoretical Sectors Local": local memory's sectors per instruction.
    p = run([ncu, "--section", "SourceCounters", "--metrics", LOCAL_SECTORS_METRIC,
             "--import-source", "yes", *limit, "-f", "-o", rep, *cmd], 1800, what=f"ncu {stem}")
    out = p.stdout + p.stderr
    if "ERR_NVGPUCTRPERM" in out:
        raise VerifyError("ncu has no permission to read the GPU's performance counters "
                          "(ERR_NVGPUCTRPERM): run as root, or load the driver with "
                          "NVreg_RestrictProfilingToAdminUsers=0")
    if p.returncode != 0 or not os.path.exists(rep + ".ncu-rep"):
        raise VerifyError(f"{stem}: the program failed under ncu:\n{out.strip()[-2000:]}")
    lines = os.path.join(work, stem + ".lines.csv")
    raw = os.path.join(work, stem + ".raw.csv")
    for page, dest, extra in (("source", lines, ["--print-source", "cuda,sass"]),
                              ("raw", raw, [])):
        q = run([ncu, "-i", rep + ".ncu-rep", "--page", page, "--csv", *extra], 600)
        if q.returncode != 0:
            raise VerifyError(f"{stem}: ncu could not export the {page} page: {q.stderr.strip()}")
        with open(dest, "w") as f:
            f.write(q.stdout)
    metrics = None
    if constant:
        metrics = os.path.join(work, stem + ".metrics.csv")
        q = run([ncu, "--metrics", ",".join(CONSTANT_METRICS), "--csv", *limit, *cmd], 1800,
                what=f"ncu --metrics {stem}")
        if q.returncode != 0:
            raise VerifyError(f"{stem}: the program failed under ncu --metrics:\n"
                              f"{(q.stdout + q.stderr).strip()[-2000:]}")
        with open(metrics, "w") as f:
            f.write(q.stdout)
    timing_path = os.path.join(work, stem + ".timing.txt")
    with open(timing_path, "w") as f:
        # The sizes the program took at run time (sample::runtime_size), for
        # the parametric predictions (recorded with the timings).
        for l in out.splitlines():
            if l.startswith("COALESCE_SIZE "):
                f.write(l + "\n")
        if timing:
            env = dict(os.environ, COALESCE_TIMING="1")
            q = run(cmd, 1800, env=env, what=f"{stem} (timing)")
            if q.returncode != 0:
                raise VerifyError(f"{stem}: the program failed:\n{q.stderr.strip()[-2000:]}")
            f.write(q.stdout)
    return lines, raw, timing_path, metrics


def parse_sizes(path):
    """The sizes the program announced (COALESCE_SIZE name value)."""
    out = {}
    if path and os.path.exists(path):
        with open_text(path) as f:
            for l in f:
                m = re.match(r"COALESCE_SIZE (\S+) (-?[0-9]+)", l)
                if m:
                    out[m.group(1)] = int(m.group(2))
    return out


def parse_timing(path):
    out = []
    if path and os.path.exists(path):
        with open_text(path) as f:
            for l in f:
                m = re.match(r"COALESCE_TIME (\S+) ([0-9.eE+-]+) ([0-9.eE+-]+)", l)
                if m:
                    out.append((m.group(1), float(m.group(2)), float(m.group(3))))
    return out


# ---------------------------------------------------------------------------
# Joining and reporting
# ---------------------------------------------------------------------------

def warps_launched(launch):
    if not launch["block"] or not launch["grid"]:
        return None
    bx, by, bz = launch["block"]
    gx, gy, gz = launch["grid"]
    return gx * gy * gz * ((bx * by * bz + 31) // 32)


def judge(row, m, p, warps):
    status = judge_per_request(row, m, p, warps)
    if status in ("agree", "interior") and p.get("total") is not None:
        # The launch's totals: every sector (or wavefront) and every request.
        # Executions with every lane predicated off count as instructions
        # with no traffic, so the measured count may only exceed the
        # predicted requests.
        (preq, pcost), (mreq, mcost) = p["total"], (m["inst"], m["cost"])
        row["launch_total"] = {"predicted": (preq, pcost), "measured": (mreq, mcost)}
        if not agree(pcost, mcost) or mreq + max(TOLERANCE, TOLERANCE * preq) < preq:
            row["note"] = (f"launch totals differ: predicted {fmt(pcost)} in {fmt(preq)} "
                           f"requests, measured {fmt(mcost)} in {fmt(mreq)}")
            return "DISAGREE"
    return status


def judge_per_request(row, m, p, warps):
    """Compares one (line, space, op). Per-warp totals (cost and ideal summed
    over the warp's requests) do not depend on whether the compiler branches
    around or predicates off an access; per-request figures do, because a
    warp whose lanes are all predicated off still executes the instruction
    (it counts in Instructions Executed with no sectors or wavefronts)."""
    row["measured"] = (m["cost"] / m["inst"], m["ideal"] / m["inst"])
    row["sass"] = sorted(set(m["sass"]))
    row["inst_per_warp"] = m["inst"] / warps if warps else None
    row["predicted"] = (p["cost"] / p["w"], p["ideal"] / p["w"])
    row["requests_per_warp"] = p["rpw"] if p["rpw_known"] else None
    if p["rpw_known"] and warps:
        pc, pi = p["cost"] / p["w"] * p["rpw"], p["ideal"] / p["w"] * p["rpw"]
        mc, mi = m["cost"] / warps, m["ideal"] / warps
        row["per_warp"] = {"predicted": (pc, pi), "measured": (mc, mi)}
        if not (agree(pc, mc) and agree(pi, mi)):
            return interior_or_disagree(row, p, (pc, pi), (mc, mi))
        extra = row["inst_per_warp"] - p["rpw"]
        if abs(extra) <= max(TOLERANCE, TOLERANCE * p["rpw"]):
            return "agree"
        if extra > 0:
            row["note"] = (f"{fmt(extra)} of {fmt(row['inst_per_warp'])} executions per warp "
                           f"had every lane predicated off")
            return "agree"
        return "DISAGREE"
    if agree(row["predicted"][0], row["measured"][0]) and \
            agree(row["predicted"][1], row["measured"][1]):
        return "agree"
    if not p["rpw_known"]:
        # Requests per warp not known: executions with every lane predicated
        # off (no sectors or wavefronts) cannot be told apart, and scale the
        # measured cost and ideal per request down by the same factor.
        (pc, pi), (mc, mi) = row["predicted"], row["measured"]
        if pi > 0 and mi > 0 and mi <= pi * (1 + TOLERANCE) and agree(pc * mi / pi, mc):
            row["note"] = (f"{fmt(1 - mi / pi)} of the executions had every lane predicated "
                           f"off (requests per warp not known)")
            return "agree"
    return interior_or_disagree(row, p, row["predicted"], row["measured"])


def interior_or_disagree(row, p, pred, meas):
    """A prediction made for interior warps (a bounds guard or clamp assumed
    not to bite) is exact there; Nsight Compute also counts the grid's edge
    warps. Such rows agree if within INTERIOR_TOLERANCE and are marked."""
    if p.get("interior") and all(
            (abs(a - b) <= INTERIOR_TOLERANCE * abs(b) if b else a == 0)
            for a, b in zip(pred, meas)):
        row["note"] = ("predicted for interior warps; the measurement includes the grid's "
                       "edge warps, where a guard or clamp changes the pattern")
        return "interior"
    if p.get("conditions"):
        # The prediction said what it assumed; this run does not meet it.
        row["note"] = "predicted assuming " + "; ".join(dict.fromkeys(p["conditions"]))
        return "conditional"
    return "DISAGREE"


def is_uniform(p):
    """A prediction of one constant-cache request per LDC: every lane reads
    one address."""
    return p is not None and p["unknown"] is None and p["w"] > 0 and \
        agree(p["cost"] / p["w"], 1.0)


def attribute_constant(measured, predicted, metrics):
    """Gives the constant lines of one launch their measured requests.

    The source page has no cost for an LDC, only its `Instructions Executed`.
    The kernel's idc__requests (one per distinct address of each LDC
    executed) minus its LDCs executed (smsp__inst_executed_op_ldc) are the
    requests beyond one per LDC. An LDC whose lanes read one address costs
    exactly one: the kernel's parameter loads (c[0x0]), and the lines
    predicted warp-uniform. So when one line L is not predicted uniform (or
    only one line has LDCs), all the extra requests are L's: requests per LDC
    of L = 1 + extra / executions of L's LDCs. When no line is, every LDC
    costs 1 if there is no extra. Otherwise (two lines or more not predicted
    uniform, or extra requests spread over several lines predicted uniform)
    the kernel's count cannot be split between its lines.

    Fills m["cost"] (requests) and m["ideal"] (one per LDC) of the lines
    that can be given their requests, and returns {key: note} for the lines
    that cannot, or that were taken to cost one request per LDC to attribute
    another line."""
    keys = [k for k in OrderedDict.fromkeys(list(predicted) + list(measured))
            if k[2] == "constant"]
    with_ldc = [k for k in keys if k in measured and measured[k]["inst"] > 0]
    if not with_ldc:
        return {}
    if metrics is None or any(n not in metrics for n in CONSTANT_METRICS):
        return {k: "no measurement of idc__requests for this launch: record it with "
                   "this verify mode" for k in with_ldc}
    extra = metrics["idc__requests.sum"] - metrics["smsp__inst_executed_op_ldc.sum"]
    varying = [k for k in with_ldc if not is_uniform(predicted.get(k))]
    if len(varying) == 1 or (not varying and len(with_ldc) == 1):
        target = varying[0] if varying else with_ldc[0]
        m = measured[target]
        m["cost"], m["ideal"] = m["inst"] + extra, m["inst"]
        return {k: f"taken as 1 request per LDC (predicted warp-uniform) to give line "
                   f"{target[1]} the kernel's idc__requests" for k in with_ldc if k != target}
    if not varying and agree(extra, 0):
        for k in with_ldc:
            measured[k]["cost"] = measured[k]["ideal"] = measured[k]["inst"]
        return {}
    note = (f"cannot be attributed: {len(varying) or len(with_ldc)} lines of this kernel "
            f"read constant memory at addresses that may differ between lanes, and "
            f"idc__requests counts the kernel's requests, not a line's")
    preds = [predicted.get(k) for k in with_ldc]
    if all(p is not None and p["unknown"] is None and p["w"] > 0 for p in preds):
        expected = sum((p["cost"] / p["w"] - 1) * measured[k]["inst"]
                       for k, p in zip(with_ldc, preds))
        note += (f"; for the kernel, {fmt(expected)} requests beyond one per LDC were "
                 f"predicted, {fmt(extra)} measured")
    return {k: note for k in with_ldc}


def judge_constant(row, m, p, warps):
    """Compares one constant line whose requests attribute_constant() gave.
    A line predicted warp-uniform costs one request per LDC however many of
    its reads the compiler turned into instruction operands (no LDC), so only
    the per-request figures are compared; other lines are judged like any
    access, per warp and over the launch."""
    if not is_uniform(p):
        return judge(row, m, p, warps)
    row["measured"] = (m["cost"] / m["inst"], m["ideal"] / m["inst"])
    row["sass"] = sorted(set(m["sass"]))
    row["inst_per_warp"] = m["inst"] / warps if warps else None
    row["predicted"] = (p["cost"] / p["w"], p["ideal"] / p["w"])
    row["requests_per_warp"] = p["rpw"] if p["rpw_known"] else None
    if warps and p["rpw_known"] and row["inst_per_warp"] + TOLERANCE < p["rpw"]:
        row["note"] = (f"{fmt(row['inst_per_warp'])} LDC per warp for {fmt(p['rpw'])} "
                       f"reads: the others are operands of the instructions that use them")
    if agree(row["predicted"][0], row["measured"][0]) and \
            agree(row["predicted"][1], row["measured"][1]):
        return "agree"
    return "DISAGREE"


def continues(src_lines, first, last):
    """Whether the statement on source line `first` goes on to line `last`:
    no line from `first` to `last - 1` ends a statement or opens or closes a
    block (';', '{', '}' outside a comment)."""
    if not src_lines or first < 1 or last > len(src_lines) or last <= first:
        return False
    for n in range(first, last):
        code = src_lines[n - 1].split("//")[0]
        if any(c in code for c in ";{}"):
            return False
    return True


def compare_launch(accesses, kernel, launch, block, i, src_name, sizes, config, metrics,
                   src_lines=None):
    """The rows of one measured launch against the predictions of one launch
    configuration (all of the kernel's with `config` None). `metrics` are the
    launch's constant-cache counters (None when they were not recorded)."""
    out = []
    warps = warps_launched(launch)
    predicted = predicted_groups(accesses, kernel, launch["block"], launch["grid"],
                                 sizes, config) or OrderedDict()
    measured = measured_groups(follow_chains(block["instructions"], predicted, src_name))
    for g in measured.values():
        if g.get("via"):
            g["via_chain"] = g.pop("via")
    # Code inlined from headers we did not analyse (CUDA's atomicAdd lives
    # in sm_20_atomic_functions.hpp) is matched to the one access of the
    # same kind that the prediction places at its call site.
    for mkey in [k for k in measured if k[0] != src_name and k not in predicted]:
        same = [k for k in predicted
                if k[2:] == mkey[2:] and k not in measured and predicted[k]["unknown"] is None]
        if len(same) == 1:
            m = measured.pop(mkey)
            m["via"] = f"{mkey[0]}:{mkey[1]}"
            measured[same[0]] = m
    # A load nvcc hoists out of a loop loses its line: Nsight Compute shows
    # it on a line before the loop (the kernel's first line, or the
    # statement before the loop). It is matched to the nearest measured row
    # of its kind before its own line that no prediction explains.
    for pkey in [k for k in predicted if k[3].endswith(HOISTED)]:
        kind = pkey[3][:-len(HOISTED)]
        before = [k for k in measured
                  if k[0] == pkey[0] and k[2] == pkey[2] and k[3] == kind and
                  (k[1] or 0) <= pkey[1] and k not in predicted]
        if before:
            mkey = max(before, key=lambda k: k[1] or 0)
            m = measured.pop(mkey)
            m["hoisted_to"] = mkey[1]
            measured[pkey] = m
    # An access in a statement written over several lines: the tool reports
    # it on the line where its expression starts, nvcc may put the
    # instruction on a later line of the same statement. A prediction with
    # no measurement is matched to the one measured row of its kind on a
    # later line of its statement that no prediction explains.
    for pkey in [k for k in predicted if k not in measured and k[0] == src_name and
                 predicted[k]["unknown"] is None and not k[3].endswith(HOISTED)]:
        later = [k for k in measured
                 if k[0] == pkey[0] and k[2:] == pkey[2:] and k not in predicted and
                 continues(src_lines, pkey[1] or 0, k[1] or 0)]
        if len(later) == 1:
            m = measured.pop(later[0])
            m["statement_line"] = later[0][1]
            measured[pkey] = m
    unattributed = attribute_constant(measured, predicted, metrics)
    keys = list(OrderedDict.fromkeys(list(predicted.keys()) + list(measured.keys())))
    keys.sort(key=lambda k: (k[0], k[1] or 0, k[2], k[3]))
    for key in keys:
        fname, line, space, op = key
        if fname != src_name and key not in predicted:
            continue  # code from headers that was not analysed (the harness)
        m = measured.get(key)
        p = predicted.get(key)
        row = {"file": fname, "line": line, "kernel": kernel, "block": launch["block"],
               "space": space, "op": op, "launch": i, "predicted": None, "measured": None}
        if m and m.get("via"):
            row["note"] = f"instructions inlined from {m['via']}"
        elif m and m.get("via_chain"):
            row["note"] = (f"instructions inlined from {m['via_chain']}, placed by their "
                           f"inlining chain")
        if m and m.get("hoisted_to") is not None:
            row["note"] = f"hoisted before its loop: measured on line {m['hoisted_to']}"
        if m and m.get("statement_line") is not None:
            row["note"] = (f"measured on line {m['statement_line']}, where the statement "
                           f"goes on")
        if p and p.get("case"):
            row["case"] = p["case"]
        executed = m is not None and m["inst"] > 0
        if m is not None and not executed:
            row["status"] = "not executed"  # a branch on a kernel argument
        elif space == "constant" and m is None and is_uniform(p):
            row["predicted"] = (p["cost"] / p["w"], p["ideal"] / p["w"])
            row["status"] = "operand"
            row["note"] = ("no LDC on this line: its reads are operands of the "
                           "instructions that use them, no request")
        elif key in unattributed and p is not None and p["unknown"] is None:
            row["predicted"] = (p["cost"] / p["w"], p["ideal"] / p["w"])
            row["status"] = "not attributed"
            row["note"] = unattributed[key]
        elif p is None:
            if key not in unattributed:
                row["measured"] = (m["cost"] / m["inst"], m["ideal"] / m["inst"])
            row["status"] = "not predicted"
        elif p["unknown"] is not None:
            row["status"] = "unknown"
            row["reason"] = p["unknown"]
            if executed and key not in unattributed:
                row["measured"] = (m["cost"] / m["inst"], m["ideal"] / m["inst"])
        elif m is None and p.get("kept"):
            row["predicted"] = (p["cost"] / p["w"], p["ideal"] / p["w"])
            row["status"] = "kept in register"
            row["note"] = ("no instruction on this line: nvcc keeps the value in a register "
                           "(requests per warp not known)")
        elif m is None:
            row["predicted"] = (p["cost"] / p["w"], p["ideal"] / p["w"])
            row["status"] = "not in SASS"
        elif space == "constant":
            row["status"] = judge_constant(row, m, p, warps)
        else:
            if m.get("no_ideal") and p["w"] > 0:
                # Local memory: Nsight Compute counts the sectors but has no
                # ideal; the predicted ideal stands in for it.
                m["ideal"] = p["ideal"] / p["w"] * m["inst"]
                row["note"] = "no measured ideal for local memory: the cost is compared"
            row["status"] = judge(row, m, p, warps)
        out.append(row)
    return out


def statement_breaks(source):
    """The lines of `source` that end a statement or open or close a block
    (';', '{', '}' outside a // comment): all that matching needs of a
    source (continues()), kept beside a recording of a program whose source
    is not in the repository (<stem>.breaks.json)."""
    with open(source, errors="replace") as f:
        return [n for n, line in enumerate(f.read().splitlines(), 1)
                if any(c in line.split("//")[0] for c in ";{}")]


def compare_program(source, accesses, lines_csv, raw_csv, timing_txt, kernel_filter=None,
                    stated_sizes=None, metrics_csv=None, breaks=None, inline_map=None):
    launches = parse_raw(raw_csv)
    blocks = parse_source_page(lines_csv)
    chain_notes = {}
    for b in blocks:
        why = apply_inline_map(b, inline_map)
        if why:
            chain_notes[b["function"]] = why
    if len(blocks) < len(launches):
        # Launches of a library's kernels (cuBLAS, built without -lineinfo)
        # have no source page: pair the others by name, in order.
        paired, j = [], 0
        for launch in launches:
            if j < len(blocks) and normalize_name(blocks[j]["function"] or "") == \
                    normalize_name(launch["name"]):
                paired.append(launch)
                j += 1
        if j == len(blocks):
            launches = paired
    if len(blocks) != len(launches):
        raise VerifyError(f"{source}: {len(launches)} launches in the raw page but "
                          f"{len(blocks)} in the source page")
    timings = parse_timing(timing_txt)
    sizes = parse_sizes(timing_txt)
    sizes.update(stated_sizes or {})
    metrics = parse_metrics(metrics_csv) if metrics_csv else {}
    rows = []
    kernels = []
    src_name = os.path.basename(source)
    try:
        with open(source, errors="replace") as f:
            src_lines = f.read().splitlines()
    except OSError:
        # Replayed without the source: its statement breaks, when recorded,
        # stand in for its lines; else no statement spans.
        src_lines = None
        if breaks:
            src_lines = [""] * max(breaks)
            for n in breaks:
                src_lines[n - 1] = ";"
    known = sorted({a["kernel"] for a in accesses})
    for i, (launch, block) in enumerate(zip(launches, blocks)):
        kernel = match_kernel(known, [block["function"], launch["name"]]) or \
            normalize_name(block["function"] or launch["name"])
        t = timings[i] if i < len(timings) else None
        if kernel_filter and not re.fullmatch(kernel_filter, kernel):
            continue
        kernels.append({"kernel": kernel, "block": launch["block"], "grid": launch["grid"],
                        "ms": t[1] if t else None,
                        "gbps": (t[2] / (t[1] * 1e-3) / 1e9) if t and t[1] > 0 else None})
        # Several launch configurations of this kernel and block (a loop of
        # launches whose arguments differ): Nsight Compute does not report a
        # launch's arguments, so the launch is compared with each and the
        # configuration that agrees on the most lines is the one reported.
        configs = launch_configs(accesses, kernel, launch["block"])
        same_grid = [k for k, l in configs.items()
                     if not l.get("grid") or not launch["grid"] or
                     tuple(l["grid"]) == tuple(launch["grid"])]
        choices = same_grid if len(same_grid) > 1 else [None]
        best = None
        for c in choices:
            r = compare_launch(accesses, kernel, launch, block, i, src_name, sizes, c,
                               metrics.get(launch["id"]) if metrics_csv else None, src_lines)
            score = sum(x["status"] == "agree" for x in r)
            if best is None or score > best[0]:
                best = (score, r, c)
        if best[2] is not None:
            args = configs[best[2]].get("args") or {}
            what = ", ".join(f"{k}={v}" for k, v in sorted(args.items()))
            for x in best[1]:
                x["config"] = (f"configuration {choices.index(best[2]) + 1} of {len(choices)}"
                               + (f": {what}" if what else ""))
        if block["function"] in chain_notes:
            for x in best[1]:
                if x["status"] in ("not predicted", "not in SASS"):
                    x["note"] = chain_notes[block["function"]]
        rows.extend(best[1])
    return rows, kernels


def render_table(rows):
    head = ["file:line", "kernel", "block", "space", "op", "predicted", "measured", "agree"]
    out = []
    for r in rows:
        b = "x".join(str(x) for x in r["block"]) if r["block"] else "?"
        pred = "unknown" if r["status"] == "unknown" else (
            f"{fmt(r['predicted'][0])}/{fmt(r['predicted'][1])}" if r["predicted"] else "-")
        meas = f"{fmt(r['measured'][0])}/{fmt(r['measured'][1])}" if r["measured"] else "-"
        status = {"agree": "yes", "DISAGREE": "NO", "unknown": "(unknown)",
                  "interior": "yes (interior)",
                  "not executed": "(not executed)",
                  "not predicted": "NO (not predicted)", "not in SASS": "NO (not in SASS)",
                  "operand": "(no LDC)", "not attributed": "(not attributed)",
                  "kept in register": "(kept in register)",
                  "conditional": "NO (conditional)"}[r["status"]]
        if r.get("case"):
            status += f"  [case {r['case']}]"
        if r.get("config"):
            status += f"  [{r['config']}]"
        if r.get("note"):
            status += f"  [{r['note']}]"
        out.append([f"{r['file']}:{r['line']}", r["kernel"], b, r["space"], r["op"], pred, meas, status])
    widths = [max(len(h), *(len(x[i]) for x in out)) if out else len(h) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths)),
             "  ".join("-" * w for w in widths)]
    for x in out:
        lines.append("  ".join(c.ljust(w) for c, w in zip(x, widths)))
    return "\n".join(lines)


def summarize(rows):
    compared = [r for r in rows if r["status"] in
                ("agree", "interior", "DISAGREE", "conditional", "not predicted", "not in SASS")]
    agreeing = [r for r in compared if r["status"] in ("agree", "interior")]
    return len(agreeing), len(compared)


def witness_used(doc):
    """Whether the predictions were joined with the compiler witness
    (docs/witness.md): the instructions nvcc emitted."""
    return any(w.get("used") for w in doc.get("witness", []))


def load_predictions(args, sources, path=None, extra=()):
    """The predictions by file: from `path` (or --predictions), else made by
    the tool with `extra` arguments (--witness=off for the source alone)."""
    path = path or (args.predictions if not extra else None)
    if path:
        with open_text(path) as f:
            doc = json.load(f)
    else:
        tool = args.coalesce_lint or shutil.which("coalesce-lint")
        if not tool:
            raise VerifyError("no predictions: pass --predictions FILE.json (from "
                              "`coalesce-lint --format=json`) or --coalesce-lint PATH")
        p = run([tool, "--format=json", *extra, *sources], 600)
        if p.returncode not in (0, 1):
            raise VerifyError(f"coalesce-lint failed:\n{p.stderr.strip()}")
        doc = json.loads(p.stdout)
    if doc.get("version") != 1:
        raise VerifyError("predictions: unsupported JSON version")
    if "spaces" not in doc:
        raise VerifyError("predictions: no table of memory spaces (`spaces`); they come from an "
                          "older coalesce-lint: make them again with this one")
    use_spaces(doc["spaces"])
    by_file = Predictions(list)
    for a in doc["accesses"]:
        own = os.path.basename(a["file"])
        by_file[own].append(a)
        # An access in a helper of another file (the program's own header)
        # that the tool shows at its call: compared with that file's
        # launches too, on its own line (follow_chains() brings the
        # helper's instructions there).
        shown = os.path.basename((a.get("shown_at") or {}).get("file") or "")
        if shown and shown != own:
            by_file[shown].append(a)
    by_file.witness = witness_used(doc)
    return by_file


class Predictions(defaultdict):
    witness = False


def tally(rows):
    """agree/compared, unknown and unmatched rows: one line of the
    comparison of the source alone with the joined predictions."""
    ok, total = summarize(rows)
    unknown = sum(1 for r in rows if r["status"] == "unknown")
    unmatched = sum(1 for r in rows if r["status"] in ("not predicted", "not in SASS"))
    return f"{ok}/{total} agree, {unknown} unknown, {unmatched} not matched"


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="coalesce-verify",
        description="Compare coalesce-lint's predictions with Nsight Compute, per source line.")
    ap.add_argument("sources", nargs="+", help="CUDA programs (.cu) that launch their kernels")
    ap.add_argument("--predictions", help="JSON from `coalesce-lint --format=json` over the sources")
    ap.add_argument("--source-predictions",
                    help="JSON from `coalesce-lint --format=json --witness=off`: the source "
                         "analysis alone, compared too when the predictions were joined with "
                         "the compiler witness (made with --coalesce-lint when not given)")
    ap.add_argument("--coalesce-lint", help="coalesce-lint binary to make the predictions with")
    ap.add_argument("--measurements", help="read recorded ncu CSVs from this directory "
                    "(<stem>.lines.csv[.gz], <stem>.raw.csv[.gz], <stem>.timing.txt, and "
                    "<stem>.metrics.csv[.gz] for programs with constant reads) instead of "
                    "running anything")
    ap.add_argument("--record", help="copy the ncu CSVs and timings into this directory")
    ap.add_argument("--no-timing", action="store_true", help="skip the timing runs")
    ap.add_argument("--prebuilt", metavar="CMD",
                    help="a real program, built by its own makefile with -lineinfo: profile this "
                         "command line (run in the current directory) instead of building SOURCE; "
                         "SOURCE names the file whose lines are compared")
    ap.add_argument("--launch-count", type=int, metavar="N",
                    help="profile only the first N kernel launches (ncu -c N)")
    ap.add_argument("--keep", action="store_true", help="keep the build directory")
    ap.add_argument("--arch", help="GPU architecture for nvcc (default: the local GPU's)")
    ap.add_argument("--kernels", help="compare only kernels whose name matches this regex")
    ap.add_argument("--size", action="append", default=[], metavar="NAME=V",
                    help="a size the program took at run time (repeatable): parametric "
                         "predictions are compared in the case it selects (programs of "
                         "the sample_kernels announce theirs with COALESCE_SIZE lines)")
    ap.add_argument("--chains-only", action="store_true",
                    help="no GPU: compile each source's device code (nvcc -cubin -O3 -lineinfo "
                         "with --arch and the --nvcc-arg flags, as it was built for the "
                         "recording) and write the inlining chains of its memory instructions "
                         "as <stem>.inlined.json.gz into the --record directory (where there "
                         "are any), for a recording made without them")
    ap.add_argument("--nvcc-arg", action="append", default=[], metavar="ARG",
                    help="with --chains-only: a flag the recorded build used (repeatable)")
    ap.add_argument("--markdown", help="write the report as Markdown to this file")
    ap.add_argument("--json", help="write the rows as JSON to this file")
    args = ap.parse_args(argv)
    stated = {}
    for item in args.size:
        m = re.fullmatch(r"\s*([A-Za-z_][\w.]*)\s*=\s*(-?[0-9]+)\s*", item)
        if not m:
            print(f"coalesce-verify: error: --size {item!r}: expected NAME=INTEGER", file=sys.stderr)
            return 2
        stated[m.group(1)] = int(m.group(2))

    if args.chains_only:
        try:
            return write_chains(args.sources, args.record, args.arch or "sm_90", args.nvcc_arg)
        except VerifyError as e:
            print(f"coalesce-verify: error: {e}", file=sys.stderr)
            return 2
    for s in args.sources:
        # A recording with its predictions replays without the source
        # (tests/verify/fixtures/real-h200: programs that are not ours).
        if args.measurements and args.predictions and not os.path.exists(s):
            continue
        if not os.path.isfile(s):
            print(f"coalesce-verify: error: {s}: no such file", file=sys.stderr)
            return 2
    work = None
    try:
        predictions = load_predictions(args, args.sources)
        # With the compiler witness, the source analysis alone is compared too.
        alone = None
        if predictions.witness and (args.source_predictions or not args.predictions):
            alone = load_predictions(args, args.sources, args.source_predictions,
                                     ("--witness=off",))
        alone_rows = []
        info = {"date": datetime.date.today().isoformat()}
        if args.measurements:
            meta = os.path.join(args.measurements, "gpu.json")
            if os.path.exists(meta):
                with open(meta) as f:
                    info.update(json.load(f))
        else:
            nvcc = find_tool("nvcc", "NVCC")
            ncu = find_tool("ncu", "NCU")
            if not nvcc:
                raise VerifyError("nvcc not found (put the CUDA toolkit's bin/ on PATH or set CUDA_HOME)")
            if not ncu:
                raise VerifyError("ncu (Nsight Compute) not found on PATH")
            info.update(gpu_info())
            info["ncu"] = ncu_version(ncu)
            if args.arch:
                info["arch"] = args.arch
            work = tempfile.mkdtemp(prefix="coalesce-verify-")
        all_rows, all_kernels = [], []
        for src in args.sources:
            stem = os.path.splitext(os.path.basename(src))[0]
            accesses = predictions.get(os.path.basename(src), [])
            # Constant reads are measured by kernel-level counters, in a pass
            # of their own (attribute_constant).
            constant = any(a["space"] == "constant" for a in accesses)
            metrics = None
            if args.measurements:
                def pick(name):
                    for cand in (name, name + ".gz"):
                        p = os.path.join(args.measurements, cand)
                        if os.path.exists(p):
                            return p
                    raise VerifyError(f"{args.measurements}: no {name}[.gz] for {src}")
                lines, raw = pick(stem + ".lines.csv"), pick(stem + ".raw.csv")
                timing = os.path.join(args.measurements, stem + ".timing.txt")
                if constant:
                    metrics = pick(stem + ".metrics.csv")
            else:
                print(f"coalesce-verify: measuring {src} ...", file=sys.stderr, flush=True)
                lines, raw, timing, metrics = measure(
                    src, work, nvcc, ncu, info["arch"], not args.no_timing, args.prebuilt,
                    args.launch_count, constant)
                if args.record:
                    os.makedirs(args.record, exist_ok=True)
                    for p in (lines, raw, timing, metrics):
                        if p:
                            shutil.copy(p, args.record)
            inline_map = None
            if args.measurements:
                inline_map = load_inline_map(args.measurements, stem)
            else:
                # The chains of the binary that was profiled (needs
                # nvdisasm, and cuobjdump for an executable).
                exe = shlex.split(args.prebuilt)[0] if args.prebuilt else \
                    os.path.join(work, stem)
                inline_map = inline_map_of(exe) if os.path.isfile(exe) else None
                if inline_map is None:
                    print(f"coalesce-verify: note: no inlining chains for {src} (nvdisasm or "
                          f"cuobjdump not found): header code is placed by its kind",
                          file=sys.stderr)
                elif args.record and inline_map["functions"]:
                    os.makedirs(args.record, exist_ok=True)
                    write_inline_map(os.path.join(args.record, stem + ".inlined.json.gz"),
                                     inline_map)
            breaks = None
            if args.measurements and not os.path.exists(src):
                bp = os.path.join(args.measurements, stem + ".breaks.json")
                if os.path.exists(bp):
                    with open(bp) as f:
                        breaks = json.load(f)
            rows, kernels = compare_program(src, accesses, lines, raw, timing, args.kernels,
                                            stated, metrics, breaks, inline_map)
            if alone is not None:
                alone_rows.extend(compare_program(
                    src, alone.get(os.path.basename(src), []), lines, raw, timing,
                    args.kernels, stated, metrics, breaks, inline_map)[0])
            for k in kernels:
                k["file"] = os.path.basename(src)
            all_rows.extend(rows)
            all_kernels.extend(kernels)
        if args.record and not args.measurements:
            with open(os.path.join(args.record, "gpu.json"), "w") as f:
                json.dump(info, f, indent=2)
    except VerifyError as e:
        print(f"coalesce-verify: error: {e}", file=sys.stderr)
        return 2
    finally:
        if work and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        elif work:
            print(f"coalesce-verify: kept {work}", file=sys.stderr)

    ok, total = summarize(all_rows)
    print(f"GPU: {info.get('gpu', '?')}, driver {info.get('driver', '?')}, "
          f"{info.get('ncu', 'ncu ?')}, {info.get('date')}")
    print(render_table(all_rows))
    timed = [k for k in all_kernels if k["ms"] is not None]
    if timed:
        print()
        print("kernel timings (median of 21 runs):")
        for k in timed:
            print(f"  {k['file']}: {k['kernel']}: {k['ms']:.4f} ms, {k['gbps']:.1f} GB/s")
    print()
    interior = sum(1 for r in all_rows if r["status"] == "interior")
    if interior:
        print(f"({interior} of them predicted for interior warps: within "
              f"{INTERIOR_TOLERANCE:.0%} of the grid-wide measurement, which also counts edge warps)")
    unattributed = sum(1 for r in all_rows if r["status"] == "not attributed")
    if unattributed:
        print(f"({unattributed} constant-memory rows not compared: the kernel's idc__requests "
              f"could not be split between its lines, or were given to another line; see "
              f"their notes)")
    if alone is not None:
        print(f"source analysis alone: {tally(alone_rows)}; "
              f"joined with the compiler witness: {tally(all_rows)}")
    print(f"{ok}/{total} accesses agree")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"info": info, "rows": all_rows, "kernels": all_kernels,
                       "source_alone_rows": alone_rows if alone is not None else None}, f,
                      indent=1)
    if args.markdown:
        import verify_report
        with open(args.markdown, "w") as f:
            f.write(verify_report.markdown(
                info, all_rows, all_kernels, ok, total,
                (tally(alone_rows), tally(all_rows)) if alone is not None else None))
    return 0 if ok == total else 1


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())

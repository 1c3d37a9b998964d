"""Unit tests for coalesce-verify's parsing of Nsight Compute CSVs and its join
with the predictions (no GPU needed)."""
import csv
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "verify"))
import coalesce_verify as v  # noqa: E402


def setUpModule():
    """The table of spaces comes from the tool, as in a real run: from
    $COALESCE_LINT (ctest sets it), else the build tree's binary."""
    import json
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    tool = os.environ.get("COALESCE_LINT") or os.path.join(here, "..", "..", "build", "bin",
                                                           "coalesce-lint")
    out = subprocess.run([tool, "--list-spaces", "--format=json"], capture_output=True,
                         text=True, check=True).stdout
    v.use_spaces(json.loads(out))

HEADER = ["Line No", "Source", "Address", "Source", "Instructions Executed",
          "Address Space", "Access Operation", "Access Size",
          "L2 Theoretical Sectors Global", "L2 Theoretical Sectors Global Ideal",
          "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal"]


def csv_text(rows):
    out = io.StringIO()
    w = csv.writer(out, quoting=csv.QUOTE_ALL)
    for r in rows:
        w.writerow(r)
    return out.getvalue()


def sass(addr, text, inst, space="-", op="-", sectors=0, ideal=0, wf=0, wfi=0):
    return ["", "", addr, "      " + text, str(inst), space, op, "32",
            str(sectors), str(ideal), str(wf), str(wfi)]


class BuildArchTest(unittest.TestCase):
    """A program whose instructions need an architecture-specific target
    names it in its leading comment; nvcc then builds only that target."""

    def test_named_target(self):
        with tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False) as f:
            f.write("// wgmma kernels.\n// Build: nvcc -arch=sm_90a.\n__global__ void k() {}\n")
        try:
            self.assertEqual(v.build_arch(f.name, "sm_90"), "sm_90a")
        finally:
            os.unlink(f.name)
        self.assertEqual(v.arch_flags("sm_90a"), ["-gencode", "arch=compute_90a,code=sm_90a"])

    def test_plain_target(self):
        with tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False) as f:
            f.write("// Build: nvcc -O3 k.cu\n__global__ void k() {}\n")
        try:
            self.assertEqual(v.build_arch(f.name, "sm_90"), "sm_90")
        finally:
            os.unlink(f.name)
        self.assertEqual(v.arch_flags("sm_90"), ["-arch=sm_90"])
        self.assertEqual(v.build_arch("/nonexistent.cu", "sm_80"), "sm_80")


class SpaceTableTest(unittest.TestCase):
    """Verify mode keeps no copy of the spaces' names: the tool's table."""

    def test_columns_and_keys_come_from_the_tool(self):
        self.assertEqual(v.COLUMNS["global"], ("global", "L2 Theoretical Sectors Global",
                                                "L2 Theoretical Sectors Global Ideal"))
        self.assertIsNone(v.COLUMNS["local"][2], "local memory has no ideal column")
        self.assertNotIn("constant", v.COLUMNS, "the constant cache is counted per kernel")
        self.assertEqual(v.COST_KEYS["shared"][0], "wavefronts_per_request")

    def test_predictions_without_the_table_are_refused(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write('{"version": 1, "accesses": []}')
        try:
            class Args:
                predictions = f.name
            with self.assertRaises(v.VerifyError):
                v.load_predictions(Args, [])
        finally:
            os.unlink(f.name)
        # the table is read again by the next test run
        setUpModule()


class NameTest(unittest.TestCase):
    def test_normalize(self):
        self.assertEqual(v.normalize_name("void img::blur_rows<(int)2>(img::Image, img::Image)"),
                         "img::blur_rows<2>")
        self.assertEqual(v.normalize_name("g_char(const char *, char *)"), "g_char")
        self.assertEqual(v.normalize_name("copy_elems<float4>(const float4 *, float4 *)"),
                         "copy_elems<float4>")
        # clang's 256U and true are ncu's 256 and 1 (cuda-samples' reduce6).
        self.assertEqual(v.normalize_name("void reduce6<int, 256, 1>(T1 *, T1 *, unsigned int)"),
                         v.normalize_name("reduce6<int, 256U, true>"))
        self.assertNotEqual(v.normalize_name("reduce6<int, 256U, false>"),
                            v.normalize_name("void reduce6<int, 256, 1>(T1 *)"))

    def test_match_prefers_qualified_then_unique_unqualified(self):
        known = ["img::blur_rows<2>", "img::blur_cols<2>", "copy"]
        self.assertEqual(v.match_kernel(known, ["void img::blur_rows<(int)2>(img::Image, img::Image)"]),
                         "img::blur_rows<2>")
        self.assertEqual(v.match_kernel(known, ["void blur_cols<2>(Image, Image)"]), "img::blur_cols<2>")
        self.assertIsNone(v.match_kernel(known, ["other(int)"]))


class SourcePageTest(unittest.TestCase):
    def parse(self, rows):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write(csv_text(rows))
        try:
            return v.parse_source_page(f.name)
        finally:
            os.unlink(f.name)

    def test_duplicates_headers_and_repeated_launches(self):
        rows = [
            ["File Path", "/x/hdr.hpp"], ["Function Name", "k(float *)"], HEADER,
            ["84", "return atomicAdd(a, v);"] + ["-"] * 10,
            sass("0x10", "REDG.E.ADD.F32 desc[UR4][R2.64], R7", 8, "Global", "-", 8, 8),
            sass("0x10", "REDG.E.ADD.F32 desc[UR4][R2.64], R7", 8, "Global", "-", 8, 8),
            ["File Path", "/x/k.cu"], ["Function Name", "k(float *)"], HEADER,
            ["5", "out[i] = in[i];"] + ["-"] * 10,
            sass("0x20", "LDG.E R3, desc[UR4][R2.64]", 64, "Global", "Load", 256, 256),
            ["", "", "...", "..."] + ["-"] * 8,
            sass("0x20", "LDG.E R3, desc[UR4][R2.64]", 64, "Global", "Load", 256, 256),
            # The same kernel launched again.
            ["File Path", "/x/hdr.hpp"], ["Function Name", "k(float *)"], HEADER,
            ["84", "return atomicAdd(a, v);"] + ["-"] * 10,
            sass("0x10", "REDG.E.ADD.F32 desc[UR4][R2.64], R7", 8, "Global", "-", 8, 8),
        ]
        launches = self.parse(rows)
        self.assertEqual(len(launches), 2)
        first = launches[0]["instructions"]
        self.assertEqual(len(first), 2)  # each instruction counted once
        groups = v.measured_groups(first)
        self.assertIn(("hdr.hpp", 84, "global", "atomic"), groups)
        g = groups[("k.cu", 5, "global", "load")]
        self.assertEqual((g["inst"], g["cost"], g["ideal"]), (64, 256, 256))


def pred(kernel, line, space, op, cost, ideal, rpw=1, verdict=None, assumptions=(),
         assumption_kinds=()):
    a = {"kernel": kernel, "file": "k.cu", "line": line, "space": space, "op": op,
         "launch": {"block": [256, 1, 1]}, "expression": "e", "requests_per_warp": rpw,
         "verdict": verdict or ("ok" if cost == ideal else "uncoalesced"), "reason": "",
         "assumptions": list(assumptions), "assumption_kinds": list(assumption_kinds)}
    cost_key, ideal_key, _ = v.COST_KEYS[space]
    a[cost_key], a[ideal_key] = cost, ideal
    return a


class JudgeTest(unittest.TestCase):
    def judge(self, p, m, warps=8):
        groups = v.predicted_groups([p], p["kernel"], [256, 1, 1])
        row = {}
        return v.judge(row, m, groups[next(iter(groups))], warps), row

    def test_exact(self):
        st, _ = self.judge(pred("k", 5, "global", "load", 8, 4),
                           {"inst": 8, "cost": 64, "ideal": 32, "sass": ["LDG"]})
        self.assertEqual(st, "agree")

    def test_predicated_off_executions_agree_on_totals(self):
        # 12 active requests per block of 8 warps, 1 wavefront each; every
        # warp executes the predicated instruction 8 times.
        st, row = self.judge(pred("k", 5, "shared", "load", 1, 1, rpw=1.5),
                             {"inst": 64, "cost": 12, "ideal": 12, "sass": ["LDS"]})
        self.assertEqual(st, "agree")
        self.assertIn("predicated off", row["note"])

    def test_wrong_totals_disagree(self):
        st, _ = self.judge(pred("k", 5, "shared", "load", 2, 1, rpw=1.5),
                           {"inst": 64, "cost": 12, "ideal": 12, "sass": ["LDS"]})
        self.assertEqual(st, "DISAGREE")

    def test_interior_prediction_within_one_percent(self):
        p = pred("k", 5, "global", "load", 4.8, 4, rpw=5,
                 assumptions=["assuming `clamp(x)` does not clamp in interior warps (line 3)"],
                 assumption_kinds=["interior-clamp"])
        st, row = self.judge(p, {"inst": 40, "cost": 191.76, "ideal": 160, "sass": ["LDG"]})
        self.assertEqual(st, "interior")
        # Beyond it: the assumption did not hold in this run.
        st2, row2 = self.judge(p, {"inst": 40, "cost": 170, "ideal": 160, "sass": ["LDG"]})
        self.assertEqual(st2, "conditional")
        self.assertIn("does not clamp in interior warps", row2["note"])

    def test_interior_is_matched_by_kind_not_by_words(self):
        # The words "interior warps" in an assumption of another kind do not
        # make a prediction one for interior warps.
        p = pred("k", 5, "global", "load", 4.8, 4, rpw=5,
                 assumptions=["assuming `c` is true on 16 lanes of the warp (line 3; "
                              "for other values of its unknown part, on interior warps)"],
                 assumption_kinds=["uniform-branch"])
        st, _ = self.judge(p, {"inst": 40, "cost": 191.76, "ideal": 160, "sass": ["LDG"]})
        self.assertEqual(st, "conditional")  # a stated assumption, not interior warps


class ParametricTest(unittest.TestCase):
    PARAM = {
        "size": "dim",
        "table": [{"value": 0, "cost": 2, "ideal": 2}, {"value": 3, "cost": 3.25, "ideal": 3}],
        "cases": [
            {"cost": 4, "ideal": 4, "text": "when dim is a multiple of 8 and dim >= 16",
             "when": {"min": 16, "max": None, "modulus": 8, "residues": [0]}},
            {"cost": 5, "ideal": 4, "text": "when dim % 8 == 4 and dim >= 20",
             "when": {"min": 20, "max": None, "modulus": 8, "residues": [4]}},
        ],
    }

    def test_case_the_run_selects(self):
        self.assertEqual(v.parametric_case(self.PARAM, {"dim": 1004})[:2], (5, 4))
        self.assertEqual(v.parametric_case(self.PARAM, {"dim": 1024})[:2], (4, 4))
        self.assertEqual(v.parametric_case(self.PARAM, {"dim": 3})[:2], (3.25, 3))
        self.assertIn("dim = 1004", v.parametric_case(self.PARAM, {"dim": 1004})[2])

    def test_no_case_without_the_size_or_outside_every_case(self):
        self.assertIsNone(v.parametric_case(self.PARAM, {}))
        self.assertIsNone(v.parametric_case(self.PARAM, {"cols": 1004}))
        self.assertIsNone(v.parametric_case(self.PARAM, {"dim": 1001}))
        self.assertIsNone(v.parametric_case(None, {"dim": 1004}))

    def test_quotient_size_from_its_parameter(self):
        # A size the kernel computes (`stride = nb / 16`): the program
        # announces nb; the case is the one of nb / 16 as C computes it.
        q = {"size": "nb/16", "assume": "nb", "cases": [
            {"cost": 16, "ideal": 16, "text": "when nb/16 is a multiple of 2 and nb/16 >= 16",
             "when": {"min": 16, "max": None, "modulus": 2, "residues": [0]}},
            {"cost": 17, "ideal": 16, "text": "when nb/16 is not a multiple of 2 and nb/16 >= 17",
             "when": {"min": 17, "max": None, "modulus": 2, "residues": [1]}}]}
        self.assertEqual(v.parametric_case(q, {"nb": 4112})[:2], (17, 16))
        self.assertEqual(v.parametric_case(q, {"nb": 4127})[:2], (17, 16))
        self.assertEqual(v.parametric_case(q, {"nb": 4096})[:2], (16, 16))
        self.assertIsNone(v.parametric_case(q, {"n": 4096}))
        self.assertEqual(v.size_value({"size": "(n + 31)/32", "assume": "n"}, {"n": 1000}), 32)
        self.assertEqual(v.size_value({"size": "(8*n + 5)/3", "assume": "n"}, {"n": 3}), 9)
        # Anything but integer arithmetic on the parameter is not evaluated.
        self.assertIsNone(v.size_value({"size": "nb/m", "assume": "nb"}, {"nb": 64}))
        self.assertIsNone(v.size_value({"size": "f(nb)", "assume": "nb"}, {"nb": 64}))

    def test_sizes_announced_by_the_program(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("COALESCE_SIZE cols 2049\nCOALESCE_TIME k 0.1 100\nCOALESCE_SIZE dim -3\n")
        try:
            self.assertEqual(v.parse_sizes(f.name), {"cols": 2049, "dim": -3})
        finally:
            os.unlink(f.name)

    def test_bad_size_option_is_an_error(self):
        self.assertEqual(v.main(["--size", "cols=x", "--predictions", "p.json", __file__]), 2)


def write(rows_or_text, suffix=".csv"):
    with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as f:
        f.write(rows_or_text if isinstance(rows_or_text, str) else csv_text(rows_or_text))
    return f.name


RAW_HEADER = ["ID", "Kernel Name", "launch__block_dim_x", "launch__block_dim_y",
              "launch__block_dim_z", "launch__grid_dim_x", "launch__grid_dim_y",
              "launch__grid_dim_z"]


def metrics_text(per_launch):
    """ncu --metrics --csv output: its own lines first, then the table."""
    rows = [["ID", "Process ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value"]]
    for i, (name, idc, ldc) in enumerate(per_launch):
        rows.append([str(i), "1", name, "idc__requests.sum", "", f"{idc:,}"])
        rows.append([str(i), "1", name, "smsp__inst_executed_op_ldc.sum", "", f"{ldc:,}"])
    return "==PROF== Connected to process 1 (/x/app)\n" + csv_text(rows) + \
        "==PROF== Disconnected from process 1\n"


class ConstantTest(unittest.TestCase):
    """Constant memory: LDC rows of the source page, the kernel-level
    idc__requests, and how they are given to one line (attribute_constant)."""

    def test_ldc_of_the_user_bank_is_a_constant_load(self):
        rec = lambda text: {"sass": text, "Address Space": "-", "Access Operation": "-"}
        self.assertEqual(v.space_op(rec("LDC R5, c[0x3][R0]")), ("constant", "load"))
        self.assertEqual(v.space_op(rec("@!P0 LDC.64 R4, c[0x3][R0+0x8]")), ("constant", "load"))
        self.assertIsNone(v.space_op(rec("LDC.64 R2, c[0x0][0x210]")))  # a parameter
        self.assertIsNone(v.space_op(rec("ULDC UR4, c[0x3][0x10]")))    # uniform datapath
        self.assertIsNone(v.space_op(rec("FFMA R5, R5, c[0x3][0x10], R0")))  # an operand

    def test_metrics_after_ncus_own_lines(self):
        path = write(metrics_text([("c_lane(float *)", 2176, 192), ("c_four(float *)", 384, 192)]))
        try:
            m = v.parse_metrics(path)
        finally:
            os.unlink(path)
        self.assertEqual(m[0]["idc__requests.sum"], 2176)
        self.assertEqual(m[1]["smsp__inst_executed_op_ldc.sum"], 192)

    def groups(self, preds, lines):
        predicted = v.predicted_groups(preds, "k", [256, 1, 1])
        measured = {("k.cu", l, "constant", "load"): {"inst": n, "cost": 0.0, "ideal": 0.0,
                                                       "sass": ["LDC"]} for l, n in lines}
        return predicted, measured

    def test_one_lane_varying_line_gets_the_kernels_extra_requests(self):
        # Measured on an H200, c_lane: 64 warps, 3 LDCs each (two parameter
        # loads and cst[lane]), 2176 requests: line 5 costs 32 per LDC.
        predicted, measured = self.groups(
            [pred("k", 5, "constant", "load", 32, 1, verdict="serialised"),
             pred("k", 6, "constant", "load", 1, 1)], [(5, 64), (6, 64)])
        notes = v.attribute_constant(measured, predicted, {"idc__requests.sum": 2176 + 64,
                                                           "smsp__inst_executed_op_ldc.sum": 256})
        m = measured[("k.cu", 5, "constant", "load")]
        self.assertEqual((m["cost"] / m["inst"], m["ideal"] / m["inst"]), (32, 1))
        self.assertEqual(list(notes), [("k.cu", 6, "constant", "load")])
        self.assertIn("to give line 5", notes[("k.cu", 6, "constant", "load")])
        row = {}
        self.assertEqual(v.judge_constant(row, m, predicted[("k.cu", 5, "constant", "load")], 64),
                         "agree")
        # A wrong prediction for that line disagrees.
        predicted, measured = self.groups(
            [pred("k", 5, "constant", "load", 8, 1, verdict="serialised")], [(5, 64)])
        v.attribute_constant(measured, predicted, {"idc__requests.sum": 2176,
                                                   "smsp__inst_executed_op_ldc.sum": 192})
        self.assertEqual(v.judge_constant({}, measured[("k.cu", 5, "constant", "load")],
                                          predicted[("k.cu", 5, "constant", "load")], 64),
                         "DISAGREE")

    def test_uniform_reads_cost_one_request_each(self):
        predicted, measured = self.groups(
            [pred("k", 5, "constant", "load", 1, 1), pred("k", 5, "constant", "load", 1, 1),
             pred("k", 6, "constant", "load", 1, 1)], [(5, 64), (6, 64)])
        notes = v.attribute_constant(measured, predicted, {"idc__requests.sum": 320,
                                                           "smsp__inst_executed_op_ldc.sum": 320})
        self.assertEqual(notes, {})
        row = {}
        # Two reads predicted on line 5, one LDC: the other is an operand.
        st = v.judge_constant(row, measured[("k.cu", 5, "constant", "load")],
                              predicted[("k.cu", 5, "constant", "load")], 64)
        self.assertEqual(st, "agree")
        self.assertIn("operands", row["note"])
        # Extra requests in a kernel whose reads were all predicted uniform,
        # on two lines: they cannot be given to one, and the kernel disagrees
        # with the prediction by that much.
        notes = v.attribute_constant(measured, predicted, {"idc__requests.sum": 384,
                                                           "smsp__inst_executed_op_ldc.sum": 320})
        self.assertEqual(len(notes), 2)
        self.assertIn("0 requests beyond one per LDC were predicted, 64 measured",
                      notes[("k.cu", 5, "constant", "load")])

    def test_two_lane_varying_lines_cannot_be_attributed(self):
        predicted, measured = self.groups(
            [pred("k", 5, "constant", "load", 32, 1, verdict="serialised"),
             pred("k", 6, "constant", "load", 4, 1, verdict="serialised")], [(5, 64), (6, 64)])
        notes = v.attribute_constant(measured, predicted, {"idc__requests.sum": 2496,
                                                           "smsp__inst_executed_op_ldc.sum": 256})
        self.assertEqual(len(notes), 2)
        self.assertIn("cannot be attributed: 2 lines", notes[("k.cu", 6, "constant", "load")])
        self.assertIn("2176 requests beyond one per LDC were predicted, 2240 measured",
                      notes[("k.cu", 6, "constant", "load")])
        self.assertEqual(v.attribute_constant(measured, predicted, None).keys(), notes.keys())

    def test_compare_a_recorded_program(self):
        # One kernel, 2 blocks of 32 threads: line 4 reads cst[lane / 8]
        # (an LDC), line 5 cst[4] (an operand: no LDC).
        lines = write([
            ["File Path", "/x/k.cu"], ["Function Name", "k(float *)"], HEADER,
            ["2", "__global__ void k(float *o) {"] + ["-"] * 10,
            sass("0x00", "LDC R1, c[0x0][0x28]", 2),
            ["4", "float v = cst[threadIdx.x / 8];"] + ["-"] * 10,
            sass("0x10", "LDC R5, c[0x3][R0]", 2),
            ["5", "o[threadIdx.x] = v * cst[4];"] + ["-"] * 10,
            sass("0x20", "FMUL R5, R5, c[0x3][0x10]", 2),
            sass("0x30", "STG.E desc[UR4][R2.64], R5", 2, "Global", "Store", 8, 8),
        ])
        raw = write([RAW_HEADER, ["0", "k(float *)", "32", "1", "1", "2", "1", "1"]])
        metrics = write(metrics_text([("k(float *)", 2 + 8, 4)]))
        try:
            accesses = [pred("k", 4, "constant", "load", 4, 1, verdict="serialised"),
                        pred("k", 5, "constant", "load", 1, 1),
                        pred("k", 5, "global", "store", 4, 4)]
            for a in accesses:
                a["launch"] = {"block": [32, 1, 1]}
            rows, _ = v.compare_program("k.cu", accesses, lines, raw, None, None, metrics_csv=metrics)
        finally:
            for f in (lines, raw, metrics):
                os.unlink(f)
        by = {(r["line"], r["space"]): r for r in rows}
        self.assertEqual(by[(4, "constant")]["status"], "agree")
        self.assertEqual(by[(4, "constant")]["measured"], (4, 1))
        self.assertEqual(by[(5, "constant")]["status"], "operand")
        self.assertEqual(by[(5, "global")]["status"], "agree")
        self.assertEqual(v.summarize(rows), (2, 2))


class LocalTest(unittest.TestCase):
    """Local memory: the source page's "L2 Theoretical Sectors Local" column
    (ncu --metrics smsp__sass_sectors_mem_local) is the cost; Nsight Compute
    has no ideal for it, so only the cost is compared."""

    def test_compare_a_local_line_by_its_cost(self):
        header = HEADER + ["L2 Theoretical Sectors Local"]
        local = lambda addr, text, inst, op, sectors: (
            sass(addr, text, inst, "Local", op) + [str(sectors)])
        lines = write([
            ["File Path", "/x/k.cu"], ["Function Name", "k(float *, int)"], header,
            ["4", "t[k] = v;"] + ["-"] * 11,
            local("0x10", "STL [R1], R0", 2, "Store", 8),
            ["5", "o[threadIdx.x] = t[threadIdx.x % 4 + k];"] + ["-"] * 11,
            local("0x20", "LDL R5, [R2]", 2, "Load", 32),
        ])
        raw = write([RAW_HEADER, ["0", "k(float *, int)", "32", "1", "1", "2", "1", "1"]])
        try:
            accesses = [pred("k", 4, "local", "store", 4, 4),
                        pred("k", 5, "local", "load", 16, 4)]
            for a in accesses:
                a["launch"] = {"block": [32, 1, 1]}
            rows, _ = v.compare_program("k.cu", accesses, lines, raw, None)
        finally:
            for f in (lines, raw):
                os.unlink(f)
        by = {(r["line"], r["op"]): r for r in rows}
        self.assertEqual(v.space_op({"sass": "LDL R5, [R2]", "Address Space": "Local",
                                     "Access Operation": "Load"}), ("local", "load"))
        self.assertEqual(by[(4, "store")]["status"], "agree")
        self.assertEqual(by[(5, "load")]["status"], "agree")
        self.assertEqual(by[(5, "load")]["measured"], (16, 4))
        self.assertIn("no measured ideal", by[(5, "load")]["note"])

    def test_a_wrong_local_cost_disagrees(self):
        header = HEADER + ["L2 Theoretical Sectors Local"]
        lines = write([
            ["File Path", "/x/k.cu"], ["Function Name", "k(float *, int)"], header,
            ["5", "o[threadIdx.x] = t[threadIdx.x + k];"] + ["-"] * 11,
            sass("0x20", "LDL R5, [R2]", 2, "Local", "Load") + ["64"],
        ])
        raw = write([RAW_HEADER, ["0", "k(float *, int)", "32", "1", "1", "2", "1", "1"]])
        try:
            a = pred("k", 5, "local", "load", 16, 4)
            a["launch"] = {"block": [32, 1, 1]}
            rows, _ = v.compare_program("k.cu", [a], lines, raw, None)
        finally:
            for f in (lines, raw):
                os.unlink(f)
        self.assertEqual(rows[0]["status"], "DISAGREE")


class HoistedTest(unittest.TestCase):
    """A load nvcc hoists out of its loop ('load-hoisted') is measured on a
    line before the loop: it is compared with the nearest unexplained row of
    its kind before its own line, not with its own line's loads."""

    def run_case(self, extra_row_line):
        lines = write([
            ["File Path", "/x/k.cu"], ["Function Name", "k(float *)"], HEADER,
            [str(extra_row_line), "int i = ...;"] + ["-"] * 10,
            sass("0x10", "LDG.E R4, [R2]", 16, "Global", "Load", 128, 128),
            ["12", "if (cdf[x] >= u[i])"] + ["-"] * 10,
            sass("0x20", "LDG.E R5, [R6]", 128, "Global", "Load", 128, 128),
        ])
        raw = write([RAW_HEADER, ["0", "k(float *)", "256", "1", "1", "2", "1", "1"]])
        try:
            accesses = [pred("k", 12, "global", "load", 1, 1, rpw=8),
                        pred("k", 12, "global", "load", 8, 8, rpw=1,
                             assumption_kinds=["load-hoisted"])]
            rows, _ = v.compare_program("k.cu", accesses, lines, raw, None)
        finally:
            for f in (lines, raw):
                os.unlink(f)
        return {(r["line"], r["op"]): r for r in rows}

    def test_matched_to_the_line_before_the_loop(self):
        by = self.run_case(9)
        self.assertEqual(by[(12, "load")]["status"], "agree")
        hoisted = by[(12, "load" + v.HOISTED)]
        self.assertEqual(hoisted["status"], "agree")
        self.assertEqual(hoisted["measured"], (8, 8))
        self.assertIn("measured on line 9", hoisted["note"])
        self.assertNotIn((9, "load"), by)

    def test_not_matched_to_a_line_after_it(self):
        by = self.run_case(20)
        self.assertEqual(by[(12, "load" + v.HOISTED)]["status"], "not in SASS")
        self.assertEqual(by[(20, "load")]["status"], "not predicted")



class RegisterValuesTest(unittest.TestCase):
    """Accesses whose requests per warp are not known ('kept-in-register',
    a branch on an unknown warp-uniform value): a line that mixes them with
    accesses of another cost per request has no predicted figure; a line of
    equal costs is compared per request, where executions with every lane
    predicated off scale cost and ideal down alike; a value kept in a
    register may have no instruction on its line."""

    def run_case(self, accesses, sass_rows):
        for a in accesses:
            a["launch"] = {"block": [32, 1, 1]}
        lines = write([["File Path", "/x/k.cu"], ["Function Name", "k(float *)"], HEADER,
                       ["31", "a[t][5] -= a[t][j] * a[j][5];"] + ["-"] * 10] + sass_rows)
        raw = write([RAW_HEADER, ["0", "k(float *)", "32", "1", "1", "1", "1", "1"]])
        try:
            rows, _ = v.compare_program("k.cu", accesses, lines, raw, None)
        finally:
            for f in (lines, raw):
                os.unlink(f)
        return {(r["line"], r["space"], r["op"]): r for r in rows}

    def test_mixed_costs_with_unknown_requests_are_not_compared(self):
        by = self.run_case(
            [pred("k", 31, "shared", "load", 32, 1, rpw=None,
                  assumption_kinds=["kept-in-register"]),
             pred("k", 31, "shared", "load", 1, 1, rpw=12)],
            [sass("0x10", "LDS R4, [R2]", 3, "Shared", "Load", wf=96, wfi=3),
             sass("0x20", "LDS R5, [R3]", 12, "Shared", "Load", wf=12, wfi=12)])
        row = by[(31, "shared", "load")]
        self.assertEqual(row["status"], "unknown")
        self.assertIn("cost differently per request", row["reason"])

    def test_predicated_off_executions_with_unknown_requests(self):
        # 32 executions, one with every lane off: 31/32 of the predicted
        # cost and ideal per request.
        by = self.run_case(
            [pred("k", 31, "shared", "load", 2, 1, rpw=None,
                  assumption_kinds=["kept-in-register"])],
            [sass("0x10", "LDS R4, [R2]", 32, "Shared", "Load", wf=62, wfi=31)])
        row = by[(31, "shared", "load")]
        self.assertEqual(row["status"], "agree")
        self.assertIn("predicated off", row["note"])
        # Cost and ideal scaled differently: a disagreement.
        by = self.run_case(
            [pred("k", 31, "shared", "load", 2, 1, rpw=None,
                  assumption_kinds=["kept-in-register"])],
            [sass("0x10", "LDS R4, [R2]", 32, "Shared", "Load", wf=40, wfi=31)])
        self.assertEqual(by[(31, "shared", "load")]["status"], "DISAGREE")

    def test_kept_in_register_without_instruction(self):
        by = self.run_case(
            [pred("k", 31, "shared", "load", 32, 1, rpw=None,
                  assumption_kinds=["kept-in-register"]),
             pred("k", 31, "shared", "store", 32, 1, rpw=None,
                  assumption_kinds=["kept-in-register"])],
            [sass("0x10", "STS [R2], R4", 3, "Shared", "Store", wf=96, wfi=3)])
        self.assertEqual(by[(31, "shared", "load")]["status"], "kept in register")
        self.assertEqual(by[(31, "shared", "store")]["status"], "agree")
        agreeing, compared = v.summarize(list(by.values()))
        self.assertEqual((agreeing, compared), (1, 1))

    def test_forwarded_load_has_no_row(self):
        a = pred("k", 31, "shared", "load", 1, 1, verdict="unknown")
        a["answer"] = "no-instruction"  # a forwarded load
        by = self.run_case([a, pred("k", 31, "shared", "store", 1, 1)],
                           [sass("0x10", "STS [R2], R4", 1, "Shared", "Store", wf=1, wfi=1)])
        self.assertNotIn((31, "shared", "load"), by)



class StatementLinesTest(unittest.TestCase):
    """nvcc may put an access of a statement written over several lines on a
    later line of it than the one where the expression starts (the line the
    tool reports): the row is matched there, within the statement only."""

    def run_case(self, source_text, measured_line):
        src = write(source_text, suffix=".cu")
        lines = write([["File Path", "/x/" + os.path.basename(src)], ["Function Name", "k(float *)"],
                       HEADER, [str(measured_line), "..."] + ["-"] * 10,
                       sass("0x10", "LDS.128 R4, [R2]", 8, "Shared", "Load", wf=16, wfi=16)])
        raw = write([RAW_HEADER, ["0", "k(float *)", "256", "1", "1", "1", "1", "1"]])
        p = pred("k", 2, "shared", "load", 2, 2)
        p["file"] = src
        try:
            rows, _ = v.compare_program(src, [p], lines, raw, None)
        finally:
            for f in (lines, raw, src):
                os.unlink(f)
        return rows

    def test_matched_on_a_later_line_of_its_statement(self):
        rows = self.run_case("__global__ void k(float *r) {\n  r[0] =\n    s[t];\n}\n", 3)
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["status"], "agree")
        self.assertIn("measured on line 3", rows[0]["note"])

    def test_not_matched_past_the_end_of_the_statement(self):
        rows = self.run_case("__global__ void k(float *r) {\n  r[0] = s[t];\n  x = 1;\n}\n", 3)
        self.assertEqual(sorted(r["status"] for r in rows), ["not in SASS", "not predicted"])

    def test_statement_breaks_stand_in_for_an_absent_source(self):
        # A recording of a program whose source is not here keeps the lines
        # that end statements (real_programs.sh keep): they match as the
        # source would, and without them no statement spans.
        for text, expected in (("__global__ void k(float *r) {\n  r[0] =\n    s[t];\n}\n",
                                ["agree"]),
                               ("__global__ void k(float *r) {\n  r[0] = s[t];\n  x = 1;\n}\n",
                                ["not in SASS", "not predicted"])):
            src = write(text, suffix=".cu")
            breaks = v.statement_breaks(src)
            lines = write([["File Path", "/x/" + os.path.basename(src)],
                           ["Function Name", "k(float *)"], HEADER,
                           ["3", "..."] + ["-"] * 10,
                           sass("0x10", "LDS.128 R4, [R2]", 8, "Shared", "Load", wf=16, wfi=16)])
            raw = write([RAW_HEADER, ["0", "k(float *)", "256", "1", "1", "1", "1", "1"]])
            p = pred("k", 2, "shared", "load", 2, 2)
            p["file"] = src
            absent = os.path.join(os.path.dirname(src), "absent", os.path.basename(src))
            try:
                rows, _ = v.compare_program(absent, [p], lines, raw, None, breaks=breaks)
                self.assertEqual(sorted(r["status"] for r in rows), expected)
                rows, _ = v.compare_program(absent, [p], lines, raw, None)
                self.assertEqual(sorted(r["status"] for r in rows), ["not in SASS", "not predicted"])
            finally:
                for f in (lines, raw, src):
                    os.unlink(f)


class InliningChainTest(unittest.TestCase):
    """Code inlined from a header the tool does not analyse (a toolkit
    intrinsic) is shown by Nsight Compute on the header's line, shared by
    every call: the recording's inlining chains (nvdisasm -gi) put each
    instruction on its call's line, when the recorded SASS is the SASS the
    chains were read from."""

    NVDISASM = """
//--------------------- .text._Z1kPfS_ --------------------------
.text._Z1kPfS_:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/w/k.cu", line 3
        /*0010*/                   LDG.E R2, desc[UR4][R2.64] ;
	//## File "/cuda/include/sm_32_intrinsics.hpp", line 255 inlined at "/w/k.cu", line 4
	//## File "/w/k.cu", line 4
        /*0020*/                   LDG.E.EF R4, desc[UR4][R4.64] ;
        /*0030*/               @P0 LDG.E.EF R6, desc[UR4][R6.64] ;
	//## File "/cuda/include/sm_32_intrinsics.hpp", line 255 inlined at "/w/k.cu", line 5
	//## File "/w/k.cu", line 5
        /*0040*/                   LDG.E.EF R8, desc[UR4][R8.64] ;
	//## File "/w/k.cu", line 6
        /*0050*/                   FADD R9, R4, R8 ;
"""

    def test_parse_keeps_inlined_memory_instructions_with_their_chains(self):
        chains = v.parse_sass_chains(self.NVDISASM)
        self.assertEqual(list(chains), ["_Z1kPfS_"])
        got = chains["_Z1kPfS_"]
        # The LDG of line 3 has no chain of its own; the predicated LDG keeps
        # the chain of the instruction before it; arithmetic is left out.
        self.assertEqual(sorted(got), [0x20, 0x30, 0x40])
        self.assertEqual(got[0x30], ("LDG.E.EF", [("sm_32_intrinsics.hpp", 255), ("k.cu", 4)]))
        self.assertEqual(got[0x40][1][-1], ("k.cu", 5))

    def run_case(self, opcode_at_0x20="LDG.E.EF"):
        # Two calls of one intrinsic (lines 4 and 5): Nsight Compute shows
        # both on the header's line 255.
        chains = v.parse_sass_chains(self.NVDISASM)
        inline_map = {"functions": [{"name": "k(float*, float*)", "mangled": "_Z1kPfS_",
                                     "instructions": {f"0x{a:04x}": {"sass": op, "chain": ch}
                                                      for a, (op, ch) in chains["_Z1kPfS_"].items()}}]}
        lines = write([["File Path", "/x/sm_32_intrinsics.hpp"], ["Function Name", "k(float *, float *)"],
                       HEADER, ["255", "..."] + ["-"] * 10,
                       sass("0x7f0000000020", opcode_at_0x20 + " R4, desc[UR4][R4.64]", 8,
                            "Global", "Load", sectors=32, ideal=32),
                       sass("0x7f0000000030", "@P0 LDG.E.EF R6, desc[UR4][R6.64]", 8,
                            "Global", "Load", sectors=32, ideal=32),
                       sass("0x7f0000000040", "LDG.E.EF R8, desc[UR4][R8.64]", 8,
                            "Global", "Load", sectors=256, ideal=32),
                       ["File Path", "/x/k.cu"], ["Function Name", "k(float *, float *)"],
                       HEADER, ["1", "..."] + ["-"] * 10,
                       sass("0x7f0000000000", "LDC R1, c[0x0][0x28]", 8)])
        raw = write([RAW_HEADER, ["0", "k(float *, float *)", "256", "1", "1", "1", "1", "1"]])
        preds = [pred("k", 4, "global", "load", 4, 4, rpw=2), pred("k", 5, "global", "load", 32, 4)]
        try:
            return v.compare_program("/x/absent/k.cu", preds, lines, raw, None,
                                     inline_map=inline_map)[0]
        finally:
            for f in (lines, raw):
                os.unlink(f)

    def test_each_call_gets_its_own_instructions(self):
        rows = self.run_case()
        by_line = {r["line"]: r for r in rows}
        self.assertEqual(sorted(by_line), [4, 5])
        self.assertEqual(by_line[4]["status"], "agree")
        self.assertEqual(by_line[4]["measured"], (4.0, 4.0))
        self.assertEqual(by_line[5]["status"], "agree")
        self.assertEqual(by_line[5]["measured"], (32.0, 4.0))
        self.assertIn("sm_32_intrinsics.hpp:255", by_line[5]["note"])

    def test_chains_of_other_sass_are_not_used(self):
        # The opcode at 0x20 differs from the binary the chains were read
        # from: the header's instructions stay on its line (not matched).
        rows = self.run_case("LDG.E.128")
        self.assertEqual(sorted((r["line"], r["status"]) for r in rows),
                         [(4, "not in SASS"), (5, "not in SASS")])
        self.assertIn("differs from the binary", rows[0]["note"])

    def test_a_kept_map_is_read_from_the_recording_or_the_directory_above(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "run1"))
            v.write_inline_map(os.path.join(d, "k.inlined.json.gz"), {"functions": []})
            self.assertEqual(v.load_inline_map(os.path.join(d, "run1"), "k"), {"functions": []})
            self.assertIsNone(v.load_inline_map(os.path.join(d, "run1"), "other"))


class AccuracyReplayTest(unittest.TestCase):
    """tools/verify/accuracy.py replays the kept recordings of real programs
    against their kept predictions; a prediction that no longer agrees shows
    as a disagreement, which fails the check."""

    def test_a_changed_prediction_is_a_disagreement(self):
        import gzip
        import json
        import shutil
        import accuracy
        fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                                "real-h200")
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "real")
            shutil.copytree(fixtures, copy)
            page, disagreements = accuracy.render(copy)
            self.assertEqual(disagreements, 0)
            self.assertIn("| SGEMM_CUDA | kernel 11 | NVIDIA H200 |", page)
            # Kernel 3's shared accesses predicted at twice their cost.
            path = os.path.join(copy, "sgemm", "sgemm.predictions.json.gz")
            with gzip.open(path, "rt") as f:
                doc = json.load(f)
            changed = 0
            for a in doc["accesses"]:
                if (a["file"].endswith("3_kernel_shared_mem_blocking.cuh") and
                        a["answer"] == "exact" and a["space"] == "shared"):
                    a["wavefronts_per_request"] *= 2
                    for t in a["launch_totals"]:
                        if t.get("wavefronts"):
                            t["wavefronts"] *= 2
                    changed += 1
            self.assertGreater(changed, 0)
            with gzip.open(path, "wt") as f:
                json.dump(doc, f)
            page, disagreements = accuracy.render(copy)
            self.assertGreater(disagreements, 0)
            out = os.path.join(tmp, "accuracy.md")
            with open(out, "w") as f:
                f.write(page)
            with contextlib_quiet():
                self.assertEqual(accuracy.main(["--fixtures", copy, "--check", out]), 1)


def contextlib_quiet():
    import contextlib
    return contextlib.redirect_stderr(io.StringIO())


class ConditionalTest(unittest.TestCase):
    """A prediction that says what it assumes (interior warps, the alignment
    of unknown symbols, the top-level case of a run-time size) and disagrees
    is 'conditional', with the assumption in the note; it still counts as
    compared and not agreeing."""

    def judge(self, p):
        lines = write([["File Path", "/x/k.cu"], ["Function Name", "k(float *)"], HEADER,
                       ["7", "out[i] = in[i + t];"] + ["-"] * 10,
                       sass("0x10", "LDG.E R4, [R2]", 8, "Global", "Load", 40, 32)])
        raw = write([RAW_HEADER, ["0", "k(float *)", "256", "1", "1", "1", "1", "1"]])
        try:
            rows, _ = v.compare_program("k.cu", [p], lines, raw, None)
        finally:
            for f in (lines, raw):
                os.unlink(f)
        return rows[0]

    def test_alignment_assumption(self):
        row = self.judge(pred("k", 7, "global", "load", 4, 4,
                              assumptions=["assuming 't' keeps the 32-byte alignment"],
                              assumption_kinds=["alignment-of-symbols"]))
        self.assertEqual(row["status"], "conditional")
        self.assertIn("'t' keeps the 32-byte alignment", row["note"])
        self.assertEqual(v.summarize([row]), (0, 1))

    def test_confident_prediction_disagrees(self):
        row = self.judge(pred("k", 7, "global", "load", 4, 4))
        self.assertEqual(row["status"], "DISAGREE")


if __name__ == "__main__":
    unittest.main()

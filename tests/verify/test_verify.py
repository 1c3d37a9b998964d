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
    if space == "global":
        a["sectors_per_request"], a["ideal_sectors_per_request"] = cost, ideal
    else:
        a["wavefronts_per_request"], a["ideal_wavefronts"] = cost, ideal
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
        st2, _ = self.judge(p, {"inst": 40, "cost": 170, "ideal": 160, "sass": ["LDG"]})
        self.assertEqual(st2, "DISAGREE")

    def test_interior_is_matched_by_kind_not_by_words(self):
        # The words "interior warps" in an assumption of another kind do not
        # make a prediction one for interior warps.
        p = pred("k", 5, "global", "load", 4.8, 4, rpw=5,
                 assumptions=["assuming `c` is true on 16 lanes of the warp (line 3; "
                              "for other values of its unknown part, on interior warps)"],
                 assumption_kinds=["uniform-branch"])
        st, _ = self.judge(p, {"inst": 40, "cost": 191.76, "ideal": 160, "sass": ["LDG"]})
        self.assertEqual(st, "DISAGREE")


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

    def test_sizes_announced_by_the_program(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("COALESCE_SIZE cols 2049\nCOALESCE_TIME k 0.1 100\nCOALESCE_SIZE dim -3\n")
        try:
            self.assertEqual(v.parse_sizes(f.name), {"cols": 2049, "dim": -3})
        finally:
            os.unlink(f.name)

    def test_bad_size_option_is_an_error(self):
        self.assertEqual(v.main(["--size", "cols=x", "--predictions", "p.json", __file__]), 2)


if __name__ == "__main__":
    unittest.main()

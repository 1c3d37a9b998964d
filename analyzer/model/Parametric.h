//===- Parametric.h - A request's cost as a function of a run-time size ---===//
//
// Design note: when the distance between lanes depends on a warp-uniform
// unknown s (a kernel parameter such as `cols`), the cost of a request is a
// function of s, and that function has a finite description.
//
// Model: the byte address of lane L is
//
//     addr(L) = U + c(L) + k(L) * s
//
// with U warp-uniform (it may mention s too: `row * cols`), and c(L), k(L)
// known integers. Group the active lanes by k. Within a group the lanes keep
// their distances c; the groups move apart as s grows. Once every two groups
// g, h with k_g > k_h are at least one period P apart,
//
//     k_g * s + min c_g  >=  k_h * s + max c_h + width + P,
//
// no sector (P = 32 bytes) or shared-memory word is touched by two groups, so
// the sectors (wavefronts) of the request are the sum over groups (the
// bank-wise maximum over the union), and each group's share depends only on
// where its first byte falls modulo P, i.e. on s mod P (and on U mod P,
// which is itself periodic in s with period P). So from s0, the first s for
// which the inequality holds for all pairs, cost(s) = cost(s mod P): the
// function is given exactly by its values on [lo, s0) and on one period.
// lo is the smallest value s can take (0, or the lower bound a user stated).
//
// Example: `a[threadIdx.x * cols]` on floats, a full warp: k(L) = 4L,
// c = 0, width 4. Consecutive groups are 4 apart, so s0 = ceil((4 + 32)/4)
// = 9; for s >= 9 every lane has its own sector: 32 sectors. Below that the
// table says 1 (cols = 0), 4, 8, 12, ..., 28, and 32 from cols = 8 on, so the
// answer is "32 sectors per request (ideal 4) for every cols >= 8".
//
// The summary names the cases a user needs: the value for large s (with its
// residue classes when they differ: "when cols is a multiple of 8"), from
// which value of s it holds, and the small values before that.
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_MODEL_PARAMETRIC_H
#define COALESCE_ANALYZER_MODEL_PARAMETRIC_H

#include "model/Poly.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// The cost of one request (or an average of requests) at one value of s.
struct CostPoint {
  double Cost = 0, Ideal = 0;
  /// False when it rests on an alignment assumption (Alignment.h).
  bool Exact = true;
  /// False when some lane's address is not a multiple of the instruction's
  /// width away from the others': the access would be misaligned, which
  /// the hardware does not allow (a misaligned address faults), so the
  /// program cannot have this size (a byte stride of 2 for floats).
  bool Possible = true;
  /// Not Exact: the cheapest and dearest cost over the alignments
  /// (Alignment.h's Cost::Min, Max), averaged like Cost.
  double Min = 0, Max = 0;
  bool operator==(const CostPoint &O) const;
  bool operator!=(const CostPoint &O) const { return !(*this == O); }
};

/// cost(s) for every s >= Lo: Small[s - Lo] below From, Periodic[s mod
/// Period] from From on.
struct ParamTable {
  SymbolId Sym = 0;
  int64_t Lo = 0, From = 0, Period = 1;
  std::vector<CostPoint> Small;
  std::vector<CostPoint> Periodic;

  CostPoint at(int64_t S) const;
  /// The same function with From moved up to NewFrom.
  void extendTo(int64_t NewFrom);
};

/// Sum += Weight * T (same symbol, Lo and Period; Sum may be empty: Period 0).
void accumulate(ParamTable &Sum, const ParamTable &T, double Weight);
/// Sum += Weight * the constant C (a request that does not depend on s).
void accumulateConstant(ParamTable &Sum, const CostPoint &C, double Weight);
/// Every value divided by W.
void scaleTable(ParamTable &T, double W);

/// The table of a request with byte addresses Addr (lane-varying only
/// through S, linearly) on the Active lanes, Width bytes per lane, for
/// S >= Lo, with period Period (32 for sectors, 128 for banks). CostOf
/// prices the request with S replaced by a number. None (with Why) when the
/// lanes depend on S in another way, or the table would be too long.
std::optional<ParamTable>
parametricTable(const Poly &Addr, LaneMask Active, unsigned Width, SymbolId S, int64_t Lo,
                int64_t Period, const std::function<CostPoint(const Poly &)> &CostOf,
                std::string &Why);

/// A set of values of the size: Min <= v (<= Max), and v mod Modulus in
/// Residues when Modulus > 1. Values are of the size as the source names it
/// (`cols`), after a stated residue (Step, Offset) is applied.
struct ParamCondition {
  int64_t Min = 0;
  std::optional<int64_t> Max;
  int64_t Modulus = 1;
  std::vector<int64_t> Residues;
};

/// One case of the answer.
struct ParamCase {
  ParamCondition When;
  std::string Text; // "for every cols >= 8", "when cols % 8 == 0 and cols >= 16"
  CostPoint Cost;
};

/// The answer for an access whose cost depends on one size.
struct ParametricCost {
  std::string Name; // the size as the source names it ("cols", "p.cols", "(nb + 15)/16")
  /// The kernel parameter a user states with --assume to settle it: Name,
  /// or the parameter a quotient is taken of ("nb" for "(nb + 15)/16").
  std::string Stated;
  /// The cases, the one for realistic sizes first: large values, and among
  /// those the multiples of the period (sizes are usually powers of two);
  /// then the other large values, then the small values.
  std::vector<ParamCase> Cases;
  /// Large values only: cheapest and dearest of the cases that hold for
  /// every size from some point on.
  double LargeMin = 0, LargeMax = 0;
  /// Every value from Lo to the last small value, then one period: the
  /// table --explain prints (value, cost).
  std::vector<std::pair<int64_t, CostPoint>> Table;
  int64_t PeriodicFrom = 0, Period = 1;
};

/// The cases of T. Name is the size as the source names it; the table's
/// symbol is q with size = Step * q + Offset.
ParametricCost summarize(const ParamTable &T, const std::string &Name, int64_t Step,
                         int64_t Offset);

} // namespace coalesce

#endif // COALESCE_ANALYZER_MODEL_PARAMETRIC_H

//===- Alignment.h - Where a warp's addresses fall modulo a period --------===//
//
// Design note: sectors (32 bytes) and banks (128-byte period) only care about
// addresses modulo a period M. A request's byte addresses are
//
//     addr(lane) = base + S + c(lane)
//
// with S a warp-uniform polynomial (blockIdx.x * 1024, a loop counter times
// 16, an unknown kernel parameter) and c(lane) known per lane. The cost of the
// request depends only on r = (base + S) mod M. This file computes what is
// known about r:
//
//  - a symbol with a known uniform range (blockIdx.x over a known grid, the
//    iteration counter of a loop with a known trip count) contributes an exact
//    distribution: Nsight Compute averages over all of those executions, so
//    the prediction is the exact weighted average;
//  - a symbol with no known range (an unknown kernel parameter) contributes an
//    unknown multiple of g = gcd(coefficient, M): the result is reported for
//    the stated assumption (that contribution is 0 mod M, i.e. the offset keeps
//    the alignment) together with the range over all possibilities.
//
// Example: in[blockIdx.x * 3 + threadIdx.x] on floats with a grid of 8 blocks:
// S = 12*B, residues 0,12,24,4,16,28,8,20 equally often -> the exact average
// of 4 (aligned) and 5 (misaligned) sectors is (4 + 7*5)/8 = 4.875.
//
// This file includes no clang headers.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_SUPPORT_ALIGNMENT_H
#define COALESCE_ANALYZER_SUPPORT_ALIGNMENT_H

#include "model/Poly.h"

#include <functional>
#include <string>
#include <vector>

namespace coalesce {

struct ResidueDistribution {
  int64_t Modulus = 1;
  /// Probability of each residue from the known part (sums to 1).
  std::vector<double> Weight;
  /// 0 if r is fully known; else r may additionally be shifted by any
  /// multiple of UnknownStep (mod Modulus).
  int64_t UnknownStep = 0;
  /// Symbols responsible for the unknown shift.
  std::vector<SymbolId> UnknownSymbols;

  bool exact() const { return UnknownStep == 0; }
};

/// Distribution of (Value on lane `Lane`) modulo Modulus. Only the symbolic
/// part and the constant of that lane are used.
ResidueDistribution residuesOf(const Poly &Value, unsigned Lane,
                               int64_t Modulus, const SymbolTable &Syms);

/// The alignment a compiler can prove of Base + Offset on every lane of
/// Active, where Base is BaseAlign-aligned (a power of two): the largest
/// power of two up to BaseAlign that divides every active lane's constant
/// and every symbolic coefficient of Offset. An offset of 0 everywhere gives
/// BaseAlign.
int64_t provenAlignment(const Poly &Offset, LaneMask Active, int64_t BaseAlign);

/// A per-request cost, averaged over what the distribution says.
struct Cost {
  double Value = 0;   // exact average, or the value under the assumption
  double Ideal = 0;
  double Min = 0, Max = 0;
  bool Exact = true;  // false: depends on an unknown alignment
  /// The cheapest and dearest single request within the average (they differ
  /// when blocks or iterations put the warp at different alignments).
  double Lowest = 0, Highest = 0;
};

/// Costs are means of integers over at most a few million requests: two
/// that differ by less than this are the same number. The one tolerance
/// every comparison of costs uses (parametric cases, report/Answer.h).
constexpr double CostTolerance = 1e-9;
inline bool sameCost(double A, double B) {
  return A - B < CostTolerance && B - A < CostTolerance;
}
/// A > B beyond rounding.
inline bool costExceeds(double A, double B) { return A > B + CostTolerance; }

/// Averages CostAt(r) (returning {cost, ideal}) over the residue distribution.
Cost averageOverResidues(
    const ResidueDistribution &D,
    const std::function<std::pair<double, double>(int64_t Residue)> &CostAt);

} // namespace coalesce

#endif // COALESCE_ANALYZER_SUPPORT_ALIGNMENT_H

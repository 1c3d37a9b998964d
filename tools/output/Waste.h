//===- Waste.h - What a finding costs beyond its ideal, to rank findings --===//
//
// A finding says how much dearer one request is than its ideal (4.875
// sectors per request, ideal 4); what a user needs first is which findings
// cost the most traffic. The analysis knows the requests of each launch whose
// grid and block are known (AccessRecord::LaunchTotals, Nsight Compute's
// per-line totals), so the excess of a finding is
//
//   per launch  units - requests x ideal, over the launch's every request
//               (the dearest of the launches the finding stands for);
//   per warp    (cost - ideal) x requests per warp, when no launch of the
//               record has a known grid (and per loop iteration when the
//               requests per warp are not known either): the scope says so.
//
// in the space's unit (extra sectors, extra wavefronts, extra constant-cache
// requests). To put the spaces in one list every extra unit is weighed alike,
// as a sector's 32 bytes (docs/ranking.md): a sector is 32 bytes of L2 or DRAM
// traffic, a wavefront one cycle of an SM's shared-memory pipe, a
// constant-cache request one cycle of the constant cache, and at a GPU's peak
// rates these take times of the same order. Only sectors are shown in bytes.
// Per-launch excesses rank before per-warp ones (they are not comparable);
// within a scope, by weight.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_WASTE_H
#define COALESCE_TOOLS_OUTPUT_WASTE_H

#include "report/Report.h"
#include "Rule.h"

#include <optional>
#include <string>
#include <vector>

namespace coalesce {

struct Waste {
  enum class Scope { Launch, Warp, WarpIteration };
  Scope In = Scope::Launch;
  double Units = 0;   // extra sectors / wavefronts / constant-cache requests
  double Weight = 0;  // what ranks it: Units x unitWeight()
  /// The extra traffic in bytes, for a space counted in 32-byte sectors
  /// (global, local); nullopt for wavefronts and constant-cache requests.
  std::optional<double> Bytes;
  MemorySpace Space = MemorySpace::Global;
  /// The launch it was taken from (Scope::Launch): its grid and sites.
  Dim3 Grid;
  std::vector<SourcePos> Sites;
  /// "65,536 extra sectors (2 MiB) per launch of grid (512, 1, 1)",
  /// "7 extra wavefronts per warp (no launch with a known grid)".
  std::string text() const;
  /// "per launch", "per warp", "per warp and loop iteration".
  const char *scopeName() const;
};

/// What one extra unit of space S weighs in the ranking: 32 for each.
double unitWeight(MemorySpace S);

/// The excess of one record (nullopt: unknown cost, or none over the ideal).
std::optional<Waste> recordWaste(const AccessRecord &R);
/// The excess of a finding: the largest of its records' (Record and Also).
std::optional<Waste> findingWaste(const Finding &F);

/// Orders by waste, dearest first: per-launch before per-warp, then by
/// bytes; findings with no waste last. True when A ranks before B.
bool ranksBefore(const std::optional<Waste> &A, const std::optional<Waste> &B);

/// The indices of Findings with a waste, dearest first (stable for ties).
std::vector<size_t> rankByWaste(const std::vector<Finding> &Findings);

/// "12 KiB", "2 MiB", "96 bytes".
std::string formatBytes(double Bytes);

/// A SARIF result rank (0 to 100) for each finding (-1: none, no waste):
/// the per-launch findings on 50..100 and the per-warp ones on 0..50, each
/// by the logarithm of its weight relative to the largest of its scope.
std::vector<double> wasteRanks(const std::vector<Finding> &Findings);

/// The closing list of the text output: the Top dearest findings by waste
/// ("top 3 of 12 findings by wasted traffic ..."), "" when fewer than two
/// findings have one.
std::string topWasteList(const std::vector<Finding> &Findings, size_t Top);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_WASTE_H

//===- Waste.cpp - What a finding costs beyond its ideal ------------------===//

#include "Waste.h"

#include "Grouping.h"
#include "model/SectorModel.h"
#include "report/Numbers.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace coalesce {

double unitWeight(MemorySpace) { return 32; }

const char *Waste::scopeName() const {
  switch (In) {
  case Scope::Launch:
    return "per launch";
  case Scope::Warp:
    return "per warp";
  case Scope::WarpIteration:
    return "per warp and loop iteration";
  }
  return "";
}

std::string formatBytes(double Bytes) {
  static const char *Units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  size_t U = 0;
  while (Bytes >= 1024 && U + 1 < std::size(Units)) {
    Bytes /= 1024;
    ++U;
  }
  // Three significant digits are plenty for a ranking.
  const double Rounded = U ? std::round(Bytes * 10) / 10 : std::round(Bytes);
  return formatNumber(Rounded) + " " + (U == 0 && Rounded == 1 ? "byte" : Units[U]);
}

std::string Waste::text() const {
  const std::string Unit = std::string("extra ") + spaceModel(Space).Unit;
  const std::string N = formatCount(Units);
  std::string T = N + " " + Unit + (N == "1" ? "" : "s") +
                  (Bytes ? " (" + formatBytes(*Bytes) + ")" : std::string()) + " " + scopeName();
  if (In == Scope::Launch)
    T += " of grid " + Grid.str();
  else
    T += " (no launch with a known grid)";
  return T;
}

std::optional<Waste> recordWaste(const AccessRecord &R) {
  if (!R.Ans.known() || !Answer::exceeds(R.Ans.cost(), R.Ans.ideal()))
    return std::nullopt;
  Waste W;
  W.Space = R.Space;
  bool FromLaunch = false;
  for (const AccessRecord::LaunchTotal &T : R.LaunchTotals) {
    if (!T.Units)
      continue;
    // The ideal of every request of the launch, against what they cost.
    const double Extra = std::max(0.0, *T.Units - T.Requests * R.Ans.ideal());
    if (!FromLaunch || Extra > W.Units) {
      W.Units = Extra;
      W.Grid = T.Grid;
      W.Sites = T.Sites;
    }
    FromLaunch = true;
  }
  if (FromLaunch) {
    W.In = Waste::Scope::Launch;
  } else {
    W.In = R.RequestsKnown ? Waste::Scope::Warp : Waste::Scope::WarpIteration;
    const double Requests = R.RequestsKnown && R.RequestsPerWarp > 0 ? R.RequestsPerWarp : 1;
    W.Units = (R.Ans.cost() - R.Ans.ideal()) * Requests;
  }
  if (!(W.Units > 0))
    return std::nullopt;
  W.Weight = W.Units * unitWeight(R.Space);
  if (R.Space == MemorySpace::Global || R.Space == MemorySpace::Local)
    W.Bytes = W.Units * SectorBytes;
  return W;
}

bool ranksBefore(const std::optional<Waste> &A, const std::optional<Waste> &B) {
  if (!A || !B)
    return A && !B;
  const bool LA = A->In == Waste::Scope::Launch, LB = B->In == Waste::Scope::Launch;
  if (LA != LB)
    return LA;
  return A->Weight > B->Weight;
}

std::optional<Waste> findingWaste(const Finding &F) {
  std::optional<Waste> Best;
  // A rule about what the code reads, not what it costs, wastes nothing
  // the ranking counts (its record's cost is another rule's finding).
  if (const Rule *Rl = findRule(F.RuleId); Rl && !Rl->aboutCost())
    return Best;
  auto Consider = [&](const AccessRecord *R) {
    if (!R)
      return;
    std::optional<Waste> W = recordWaste(*R);
    if (ranksBefore(W, Best))
      Best = std::move(W);
  };
  Consider(F.Record);
  for (const AccessRecord *R : F.Also)
    Consider(R);
  return Best;
}

std::vector<double> wasteRanks(const std::vector<Finding> &Findings) {
  std::vector<std::optional<Waste>> Ws;
  double MaxLaunch = 0, MaxWarp = 0;
  for (const Finding &F : Findings) {
    Ws.push_back(findingWaste(F));
    if (Ws.back())
      (Ws.back()->In == Waste::Scope::Launch ? MaxLaunch : MaxWarp) =
          std::max(Ws.back()->In == Waste::Scope::Launch ? MaxLaunch : MaxWarp, Ws.back()->Weight);
  }
  std::vector<double> Ranks;
  for (const std::optional<Waste> &W : Ws) {
    if (!W) {
      Ranks.push_back(-1);
      continue;
    }
    const bool Launch = W->In == Waste::Scope::Launch;
    const double Max = Launch ? MaxLaunch : MaxWarp;
    const double Scaled = Max > 0 ? std::log2(1 + W->Weight) / std::log2(1 + Max) : 1;
    Ranks.push_back(std::round(((Launch ? 50 : 0) + 50 * Scaled) * 10) / 10);
  }
  return Ranks;
}

std::string topWasteList(const std::vector<Finding> &Findings, size_t Top) {
  const std::vector<size_t> Order = rankByWaste(Findings);
  if (Order.size() < 2)
    return "";
  const size_t N = std::min(Top, Order.size());
  std::string S = "top " + std::to_string(N) + " of " + std::to_string(Order.size()) +
                  " findings by wasted traffic (per launch where the grid is known; "
                  "docs/ranking.md):\n";
  for (size_t I = 0; I < N; ++I) {
    const Finding &F = Findings[Order[I]];
    const std::optional<Waste> W = findingWaste(F);
    const std::vector<std::string> Kernels = kernelsOf(F);
    S += "  " + std::to_string(I + 1) + ". " + F.Pos.str() + " " + W->text() + ", " +
         (F.Record ? std::string(spaceName(F.Record->Space)) + " " + opName(F.Record->Op) +
                         " of '" + F.Record->Array + "'"
                   : std::string()) +
         (Kernels.empty() ? "" : " in " + kernelList(Kernels)) + " [" + F.checkName() + "]\n";
  }
  return S;
}

std::vector<size_t> rankByWaste(const std::vector<Finding> &Findings) {
  std::vector<std::optional<Waste>> Ws;
  std::vector<size_t> Order;
  for (size_t I = 0; I < Findings.size(); ++I) {
    Ws.push_back(findingWaste(Findings[I]));
    if (Ws.back())
      Order.push_back(I);
  }
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return ranksBefore(Ws[A], Ws[B]); });
  return Order;
}

} // namespace coalesce

//===- Findings.cpp - The one findings policy of every front-end ----------===//

#include "Findings.h"

#include "Grouping.h"

namespace coalesce {

unsigned PolicyFindings::count(const std::string &Bucket) const {
  std::vector<Finding> In;
  for (const auto &[F, S] : Silenced)
    if (S.Bucket == Bucket)
      In.push_back(F);
  return groupFindings(std::move(In)).size();
}

PolicyFindings applyPolicy(const std::vector<AccessRecord> &Records, const FindingsPolicy &P,
                           const std::function<Silence(const Finding &)> &SilenceOf) {
  PolicyFindings Out;
  std::vector<Finding> Shown;
  for (Finding &F : runRules(Records, P.Options, P.Enabled)) {
    Silence S = SilenceOf(F);
    if (S.silenced())
      Out.Silenced.emplace_back(std::move(F), std::move(S));
    else
      Shown.push_back(std::move(F));
  }
  Out.Shown = groupFindings(std::move(Shown));
  return Out;
}

} // namespace coalesce

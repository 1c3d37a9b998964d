//===- SharedBankConflict.cpp - coalesce-shared-bank-conflict -------------===//

#include "SharedBankConflict.h"

namespace coalesce {

void SharedBankConflict::check(const AccessRecord &R, const RuleOptions &Opts,
                               std::vector<Finding> &Out) const {
  if (R.Space != MemorySpace::Shared)
    return;
  std::optional<Finding> Started = beginFinding(id(), R, Opts, Out);
  if (!Started)
    return;
  Finding &F = *Started;
  const std::string What = accessPhrase(R);
  if (R.V != Verdict::BankConflict || R.Cost <= R.Ideal * Opts.MinRatio + 1e-9)
    return;
  F.Message = What + " has a " + formatNumber(R.ConflictWays) +
              "-way bank conflict: " + quantity(R.Cost, "wavefront") +
              " per request (ideal " + formatNumber(R.Ideal) + ")" + sizeCondition(R);
  std::string Ev = laneEvidence(R);
  if (!Ev.empty())
    F.Notes.push_back({std::nullopt, Ev});
  addSizeCases(F, R, Opts, "wavefront");
  F.Notes.push_back({std::nullopt, assumptionNote(R)});
  if (R.PaddedCost) {
    std::string Fix = "padding the innermost dimension (" + R.PadDeclaration +
                      ") gives " + quantity(*R.PaddedCost, "wavefront") +
                      " per request";
    if (!R.PadTradeoff.empty())
      Fix += ", but " + R.PadTradeoff;
    // A remark (a cost that holds only for some sizes) gets no fix-it.
    if (!R.PadInsertText.empty() && F.Level == Severity::Warning) {
      F.Fixes.push_back({R.PadInsertPos, R.PadRemoveLength, R.PadInsertText});
      F.Notes.push_back({R.PadInsertPos, Fix});
    } else {
      F.Notes.push_back({std::nullopt, Fix});
    }
  }
  Out.push_back(std::move(F));
}

} // namespace coalesce

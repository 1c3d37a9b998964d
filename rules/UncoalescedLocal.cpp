//===- UncoalescedLocal.cpp - coalesce-uncoalesced-local ------------------===//

#include "UncoalescedLocal.h"

namespace coalesce {

namespace {

std::string suggestion(const AccessRecord &R) {
  return "local memory interleaves the lanes' own copies of '" + R.Array +
         "' word by word, so a warp reads whole 128-byte lines only when every lane "
         "uses the same index (" + quantity(R.Ideal, "sector") +
         " per request here); an index that differs between lanes spreads the "
         "request over a line per distinct word: index the array by a value that is "
         "the same across the warp (a loop counter), or keep a table that the lanes "
         "index differently in shared memory";
}

} // namespace

void UncoalescedLocal::check(const AccessRecord &R, const RuleOptions &Opts,
                             std::vector<Finding> &Out) const {
  if (R.Space != MemorySpace::Local)
    return;
  std::optional<Finding> Started = beginFinding(id(), R, Opts, Out);
  if (!Started)
    return;
  Finding &F = *Started;
  if (R.V != Verdict::Uncoalesced || R.Cost <= R.Ideal * Opts.MinRatio + 1e-9)
    return;
  F.Message = accessPhrase(R) + " uses " + quantity(R.Cost, "sector") +
              " per request (ideal " + formatNumber(R.Ideal) + ")" + sizeCondition(R) +
              ": the lanes use different offsets in their own copies of the array";
  std::string Ev = laneEvidence(R);
  if (!Ev.empty())
    F.Notes.push_back({std::nullopt, Ev + " (each lane's offset in its own '" + R.Array + "')"});
  addSizeCases(F, R, Opts, "sector");
  F.Notes.push_back({std::nullopt, assumptionNote(R)});
  F.Notes.push_back({std::nullopt, suggestion(R)});
  Out.push_back(std::move(F));
}

} // namespace coalesce

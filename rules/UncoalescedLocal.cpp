//===- UncoalescedLocal.cpp - coalesce-uncoalesced-local ------------------===//

#include "UncoalescedLocal.h"

namespace coalesce {

namespace {

std::string suggestion(const AccessRecord &R) {
  return "local memory interleaves the lanes' own copies of '" + R.Array +
         "' word by word, so a warp reads whole 128-byte lines only when every lane "
         "uses the same index (" + quantity(R.Ans.ideal(), "sector") +
         " per request here); an index that differs between lanes spreads the "
         "request over a line per distinct word: index the array by a value that is "
         "the same across the warp (a loop counter), or keep a table that the lanes "
         "index differently in shared memory";
}

} // namespace

MemorySpace UncoalescedLocal::space() const { return MemorySpace::Local; }

void UncoalescedLocal::describe(const AccessRecord &R, const RuleOptions &Opts,
                                Finding &F) const {
  F.Message = accessPhrase(R) + " uses " + quantity(R.Ans.cost(), "sector") +
              " per request (ideal " + formatNumber(R.Ans.ideal()) + ")" + sizeCondition(R) +
              ": the lanes use different offsets in their own copies of the array";
  std::string Ev = laneEvidence(R);
  if (!Ev.empty())
    F.Notes.push_back({std::nullopt, Ev + " (each lane's offset in its own '" + R.Array + "')"});
  addSizeCases(F, R, Opts, "sector");
  F.Notes.push_back({std::nullopt, assumptionNote(R)});
  F.Notes.push_back({std::nullopt, suggestion(R)});
}

} // namespace coalesce

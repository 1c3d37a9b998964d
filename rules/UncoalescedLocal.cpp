//===- UncoalescedLocal.cpp - coalesce-uncoalesced-local ------------------===//

#include "UncoalescedLocal.h"

namespace coalesce {

MemorySpace UncoalescedLocal::space() const { return MemorySpace::Local; }

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

void UncoalescedLocal::describe(const AccessRecord &R, const RuleOptions &Opts,
                                Finding &F) const {
  F.Message = accessPhrase(R) + " uses " + costStatement(R) +
              ": the lanes use different offsets in their own copies of the array";
  addEvidenceAndAssumptions(F, R, Opts, "sector",
                            " (each lane's offset in its own '" + R.Array + "')");
  F.Notes.push_back({std::nullopt, suggestion(R)});
}

} // namespace coalesce

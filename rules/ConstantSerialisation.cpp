//===- ConstantSerialisation.cpp - coalesce-constant-serialisation --------===//

#include "ConstantSerialisation.h"

namespace coalesce {

MemorySpace ConstantSerialisation::space() const { return MemorySpace::Constant; }

namespace {

const char *const Unit = "constant-cache request";

/// "the lanes read 32 different addresses", from the record's cheapest and
/// dearest request (a constant-cache request per distinct address).
std::string addresses(const AccessRecord &R) {
  const CostSpan &Req = R.Ans.requests();
  if (R.Ans.requestsDiffer())
    return "the lanes read " + formatNumber(Req.Min) + " to " + formatNumber(Req.Max) +
           " different addresses, depending on the warp or iteration";
  return "the lanes read " + formatNumber(Req.Max) + " different addresses";
}

std::string suggestion(const AccessRecord &R) {
  const std::string Uniform =
      "an index that is the same on every lane of a warp (a block index, a loop "
      "counter) costs " + quantity(R.Ans.ideal(), Unit);
  const bool OwnEntry =
      R.Pattern && !Answer::exceeds(popcount(R.Pattern->Active), R.Ans.requests().Min);
  if (OwnEntry)
    return "every lane reads an entry of its own, and the constant cache serves one "
           "address at a time: a table indexed per lane belongs in global memory "
           "(read through `const __restrict__` or `__ldg`, where neighbouring entries "
           "share 32-byte sectors) or in shared memory; " + Uniform;
  return Uniform + "; if the lanes need different entries, keep the table in shared "
                   "memory or read it from global memory (`__ldg`), which serve "
                   "different addresses in one request";
}

} // namespace

void ConstantSerialisation::describe(const AccessRecord &R, const RuleOptions &Opts,
                                     Finding &F) const {
  F.Message = accessPhrase(R) + " is serialised into " + costStatement(R);
  if (!R.Ans.parametric())
    F.Message += ": " + addresses(R);
  addEvidenceAndAssumptions(F, R, Opts, Unit);
  F.Notes.push_back({std::nullopt, suggestion(R)});
}

} // namespace coalesce

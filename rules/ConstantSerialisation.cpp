//===- ConstantSerialisation.cpp - coalesce-constant-serialisation --------===//

#include "ConstantSerialisation.h"

namespace coalesce {

namespace {

const char *const Unit = "constant-cache request";

/// "the lanes read 32 different addresses", from the record's cheapest and
/// dearest request (a constant-cache request per distinct address).
std::string addresses(const AccessRecord &R) {
  if (R.RequestMax > R.RequestMin + 1e-9)
    return "the lanes read " + formatNumber(R.RequestMin) + " to " +
           formatNumber(R.RequestMax) + " different addresses, depending on the warp or iteration";
  return "the lanes read " + formatNumber(R.RequestMax) + " different addresses";
}

std::string suggestion(const AccessRecord &R) {
  const std::string Uniform =
      "an index that is the same on every lane of a warp (a block index, a loop "
      "counter) costs " + quantity(R.Ideal, Unit);
  const bool OwnEntry = R.Pattern && R.RequestMin + 1e-9 >= popcount(R.Pattern->Active);
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

void ConstantSerialisation::check(const AccessRecord &R, const RuleOptions &Opts,
                                  std::vector<Finding> &Out) const {
  if (R.Space != MemorySpace::Constant)
    return;
  std::optional<Finding> Started = beginFinding(id(), R, Opts, Out);
  if (!Started)
    return;
  Finding &F = *Started;
  if (R.V != Verdict::Serialised || R.Cost <= R.Ideal * Opts.MinRatio + 1e-9)
    return;
  F.Message = accessPhrase(R) + " is serialised into " + quantity(R.Cost, Unit) +
              " per instruction (ideal " + formatNumber(R.Ideal) + ")" + sizeCondition(R);
  if (!R.Parametric)
    F.Message += ": " + addresses(R);
  std::string Ev = laneEvidence(R);
  if (!Ev.empty())
    F.Notes.push_back({std::nullopt, Ev});
  addSizeCases(F, R, Opts, Unit);
  F.Notes.push_back({std::nullopt, assumptionNote(R)});
  F.Notes.push_back({std::nullopt, suggestion(R)});
  Out.push_back(std::move(F));
}

} // namespace coalesce

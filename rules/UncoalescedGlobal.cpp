//===- UncoalescedGlobal.cpp - coalesce-uncoalesced-global ----------------===//

#include "UncoalescedGlobal.h"

#include <cstdlib>

namespace coalesce {

namespace {

std::string pattern(const AccessRecord &R) {
  if (!R.Pattern)
    return "";
  const LanePattern &P = *R.Pattern;
  if (P.ConstantStride) {
    int64_t S = std::llabs(P.Stride);
    if (S == 0)
      return "all lanes use the same address";
    if (S == P.BytesPerLane)
      return "the warp's bytes start " +
             std::to_string(floorMod(P.BaseResidue, 32)) +
             " bytes past a 32-byte sector boundary";
    return "lanes are " + std::to_string(S) + " bytes apart";
  }
  return std::to_string(popcount(P.Active)) +
         " active lanes touch addresses that are not evenly spaced";
}

std::string gain(const AccessRecord &R) {
  if (R.Ideal <= 0)
    return "";
  return formatNumber(R.Ideal) + " sectors per request (" +
         formatNumber(R.Cost / R.Ideal) + "x fewer)";
}

std::string suggestion(const AccessRecord &R) {
  if (!R.Pattern || !R.Pattern->ConstantStride)
    return "make consecutive lanes touch consecutive elements: " + gain(R);
  const LanePattern &P = *R.Pattern;
  const int64_t S = std::llabs(P.Stride);
  if (R.StructSize > 0 && S == R.StructSize && S > P.BytesPerLane)
    return "the lanes stride over whole " + std::to_string(R.StructSize) +
           "-byte structs to reach one field; storing this field in its own "
           "array (structure of arrays) gives " + gain(R);
  if (S == P.BytesPerLane)
    return "the accesses are contiguous but misaligned; starting the warp on a "
           "32-byte boundary gives " + gain(R);
  if (S >= 32)
    return "consecutive lanes walk down a column (a transposed access); stage "
           "the tile through shared memory or let threadIdx.x index the "
           "contiguous dimension: " + gain(R);
  return "each lane skips " + std::to_string(S / std::max<int64_t>(1, P.BytesPerLane) - 1) +
         " element(s); if a thread uses neighbouring elements, load them as "
         "one vector (float2/float4), or let consecutive lanes read "
         "consecutive elements: " + gain(R);
}

} // namespace

void UncoalescedGlobal::check(const AccessRecord &R, const RuleOptions &Opts,
                              std::vector<Finding> &Out) const {
  if (R.Space != MemorySpace::Global)
    return;
  Finding F;
  F.RuleId = id();
  F.Pos = R.Pos;
  F.Record = &R;
  const std::string What = accessPhrase(R);
  if (R.V == Verdict::Unknown) {
    if (!Opts.ReportUnknown)
      return;
    F.Level = Severity::Remark;
    F.Message = What + " cannot be predicted: " + R.Reason;
    F.Notes.push_back({std::nullopt, assumptionNote(R)});
    Out.push_back(std::move(F));
    return;
  }
  if (R.V != Verdict::Uncoalesced || R.Cost <= R.Ideal * Opts.MinRatio + 1e-9)
    return;
  F.Message = What + " uses " + formatNumber(R.Cost) + " sectors per request (ideal " +
              formatNumber(R.Ideal) + ")";
  std::string P = pattern(R);
  if (!P.empty())
    F.Message += ": " + P;
  std::string Ev = laneEvidence(R);
  if (!Ev.empty())
    F.Notes.push_back({std::nullopt, Ev});
  F.Notes.push_back({std::nullopt, assumptionNote(R)});
  F.Notes.push_back({std::nullopt, suggestion(R)});
  Out.push_back(std::move(F));
}

} // namespace coalesce

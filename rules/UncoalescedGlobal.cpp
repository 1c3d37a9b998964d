//===- UncoalescedGlobal.cpp - coalesce-uncoalesced-global ----------------===//

#include "UncoalescedGlobal.h"

#include "model/SectorModel.h"

#include <cstdlib>

namespace coalesce {

MemorySpace UncoalescedGlobal::space() const { return MemorySpace::Global; }

namespace {

std::string pattern(const AccessRecord &R) {
  if (!R.Pattern)
    return "";
  const LanePattern &P = *R.Pattern;
  const unsigned Active = popcount(P.Active);
  const bool Varies = R.Ans.requestsDiffer() && R.Ans.alignmentVaries();
  const bool WarpsDiffer = R.Ans.requestsDiffer() && !R.Ans.alignmentVaries();
  const std::string Range = formatNumber(R.Ans.requests().Min) + " to " +
                            quantity(R.Ans.requests().Max, "sector") + " per request";
  std::string Shape;
  if (Active < WarpSize && P.EvenlySpaced)
    Shape = std::to_string(Active) + " of 32 lanes are active, " +
            std::to_string(std::llabs(P.ActiveStride)) + " bytes apart";
  else if (Active < WarpSize)
    Shape = std::to_string(Active) + " of 32 lanes are active";
  else if (P.ConstantStride && P.Stride == 0)
    Shape = "all lanes use the same address";
  else if (P.ConstantStride && std::llabs(P.Stride) == P.BytesPerLane) {
    if (Varies)
      return "the warp's bytes are contiguous, but their offset from the 32-byte "
             "sectors changes from one block or iteration to the next (" + Range + ")";
    return "the warp's bytes start " + std::to_string(floorMod(P.BaseResidue, SectorBytes)) +
           " bytes past a 32-byte sector boundary";
  } else if (P.ConstantStride)
    Shape = "lanes are " + std::to_string(std::llabs(P.Stride)) + " bytes apart";
  else
    Shape = "the lanes' addresses are not evenly spaced";
  if (Varies)
    Shape += ", and the warp's offset from the 32-byte sectors changes from one "
             "block or iteration to the next (" + Range + ")";
  else if (WarpsDiffer)
    Shape += " in the warp shown; the warps or iterations differ (" + Range + ")";
  return Shape;
}

std::string gain(const AccessRecord &R) {
  if (R.Ans.ideal() <= 0)
    return "";
  return quantity(R.Ans.ideal(), "sector") + " per request (" + formatNumber(R.Ans.ratio()) +
         "x fewer)";
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

void UncoalescedGlobal::describe(const AccessRecord &R, const RuleOptions &Opts,
                                 Finding &F) const {
  F.Message = accessPhrase(R) + " uses " + costStatement(R);
  std::string P = R.Ans.parametric() ? "" : pattern(R);
  if (!P.empty())
    F.Message += ": " + P;
  addEvidenceAndAssumptions(F, R, Opts, "sector");
  F.Notes.push_back({std::nullopt, suggestion(R)});
}

} // namespace coalesce

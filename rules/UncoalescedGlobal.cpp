//===- UncoalescedGlobal.cpp - coalesce-uncoalesced-global ----------------===//

#include "UncoalescedGlobal.h"

#include "MisalignedGlobal.h"

#include "model/SectorModel.h"

#include <cstdlib>

namespace coalesce {

MemorySpace UncoalescedGlobal::space() const { return MemorySpace::Global; }

// Accesses whose only excess is where their rows start are
// coalesce-misaligned-global's.
bool UncoalescedGlobal::claims(const AccessRecord &R) const { return !misalignedRows(R); }

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

/// A vector type of Width bytes with ElementType's elements, where there
/// is one ("float4"), else "".
std::string vectorType(const std::string &ElementType, unsigned Width) {
  static const struct {
    const char *Element;
    unsigned Size;
    const char *Prefix;
  } Types[] = {{"float", 4, "float"}, {"int", 4, "int"},        {"unsigned int", 4, "uint"},
               {"double", 8, "double"}, {"long long", 8, "longlong"},
               {"unsigned long long", 8, "ulonglong"}};
  std::string E = ElementType;
  for (const char *Q : {"const ", "volatile "})
    if (E.rfind(Q, 0) == 0)
      E = E.substr(std::string(Q).size());
  for (const auto &T : Types)
    if (E == T.Element && Width % T.Size == 0 && Width / T.Size >= 2 && Width / T.Size <= 4)
      return std::string(T.Prefix) + std::to_string(Width / T.Size);
  return "";
}

} // namespace

static std::string vectorChanceNote(const AccessRecord &R) {
  if (!R.Chance)
    return "";
  const AccessRecord::VectorChance &C = *R.Chance;
  const std::string Lines = C.FirstLine == C.LastLine
                                ? "line " + std::to_string(C.FirstLine)
                                : "lines " + std::to_string(C.FirstLine) + " to " +
                                      std::to_string(C.LastLine);
  const char *Verb = R.Op == AccessOp::Store ? "write" : "read";
  const std::string Op = std::string(R.Op == AccessOp::Store ? "STG" : "LDG") + ".E." +
                         std::to_string(C.Width * 8);
  std::string N = "nvcc emitted " + C.Emitted + " for the " + std::to_string(C.Accesses) +
                  " accesses of " + Lines + ", which " + Verb + " " + std::to_string(C.Width) +
                  " adjacent bytes per lane that are " + std::to_string(C.Width) +
                  "-byte aligned at run time; it cannot prove that alignment: `" + C.Pointer +
                  "` is a `" + C.PointerType + "`, known to be " +
                  std::to_string(C.ProvenAlign) + "-byte aligned. One " + Op + " per lane " +
                  "would take " + quantity(C.SectorsAfter, "sector") + " per warp instead of " +
                  formatNumber(C.SectorsBefore) + " (" +
                  formatNumber(C.SectorsBefore / std::max(C.SectorsAfter, 1e-9)) +
                  "x fewer) and 1 request instead of " + std::to_string(C.Accesses) + ": ";
  const std::string V = vectorType(R.ElementType, C.Width);
  if (!V.empty())
    N += std::string(Verb) + " them as one `" + V + "`, or ";
  N += "state the alignment where `" + C.Pointer + "` is set: `" + C.Pointer + " = static_cast<" +
       C.PointerType + ">(__builtin_assume_aligned(" + C.Pointer + ", " +
       std::to_string(C.Width) + "));`";
  return N;
}

void UncoalescedGlobal::describe(const AccessRecord &R, const RuleOptions &Opts,
                                 Finding &F) const {
  F.Message = accessPhrase(R) + " uses " + costStatement(R);
  std::string P = R.Ans.parametric() ? "" : pattern(R);
  if (!P.empty())
    F.Message += ": " + P;
  addEvidenceAndAssumptions(F, R, Opts, "sector");
  // With the compiler witness: one wider instruction nvcc could not emit.
  if (std::string V = vectorChanceNote(R); !V.empty())
    F.Notes.push_back({std::nullopt, V});
  else
    F.Notes.push_back({std::nullopt, suggestion(R)});
}

} // namespace coalesce

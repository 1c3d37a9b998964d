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

namespace {

std::string before(double Before, double After, double Ideal, const char *Unit) {
  std::string S = quantity(After, Unit) + " per request instead of " + formatNumber(Before);
  if (Answer::exceeds(Before, After) && After > 0)
    S += " (" + formatNumber(Before / After) + "x fewer)";
  if (Answer::exceeds(After, Ideal))
    S += ", ideal " + formatNumber(Ideal);
  return S;
}

/// "the load of 'b' at line 12: 32 -> 4 sectors per request".
std::string changeText(const CostChange &C) {
  std::string S = C.Space == MemorySpace::Global ? "the " : "the " + std::string(spaceName(C.Space)) + " ";
  S += (C.Store ? "store to '" : "load of '") + C.Array + "' at line " + std::to_string(C.Pos.Line) +
       ": " + formatNumber(C.Before) + " -> " + costPhrase(C.After, C.Space);
  if (Answer::differ(C.IdealBefore, C.IdealAfter))
    S += " (ideal " + formatNumber(C.IdealBefore) + " -> " + formatNumber(C.IdealAfter) + ")";
  if (!C.When.empty())
    S += " " + C.When;
  if (C.RequestsBefore > 0 && Answer::differ(C.RequestsBefore, C.RequestsAfter))
    S += " (" + formatNumber(C.RequestsBefore) + " -> " + formatNumber(C.RequestsAfter) +
         " requests per warp)";
  return S;
}

std::string swapNote(const AccessRecord &R) {
  const ThreadSwapFix &F = *R.Swap;
  std::string N = "exchange the roles of x and y: in `" + R.Kernel +
                  "` (and the functions it calls) swap .x and .y of threadIdx, blockIdx, "
                  "blockDim and gridDim, and";
  auto Swapped = [](const Dim3 &D, const char *What) {
    const Dim3 T{D.Y, D.X, D.Z};
    return T == D ? std::string(What) + " " + D.str() + " stays as it is"
                  : std::string("make ") + What + " " + T.str() + " instead of " + D.str();
  };
  // Every launch of the kernel: its code changes for all of them.
  for (size_t L = 0; L < F.Launches.size(); ++L) {
    const SwapLaunch &Ln = F.Launches[L];
    N += L ? "; at the launch" : " at the launch";
    if (Ln.Sites.size() > 1)
      N += "es";
    for (size_t I = 0; I < Ln.Sites.size(); ++I)
      N += (I ? ", " : " at ") + Ln.Sites[I].fileLine();
    N += " " + Swapped(Ln.Block, "the block");
    N += Ln.Grid ? " and " + Swapped(*Ln.Grid, "the grid") : " and exchange the grid's x and y";
  }
  // A read-modify-write (`a[i] *= 2`): its load and store change alike and
  // are one finding; the note names them together.
  std::vector<const CostChange *> Others;
  bool Pair = false;
  for (const CostChange &C : F.Others) {
    if (C.Pos.Line == R.Pos.Line && C.Pos.Column == R.Pos.Column && C.Array == R.Array &&
        C.Store != (R.Op == AccessOp::Store) && !Answer::differ(C.Before, R.Ans.cost()) &&
        !Answer::differ(C.After, F.CostAfter)) {
      Pair = true;
      continue;
    }
    Others.push_back(&C);
  }
  N += ". The same threads then compute the same elements, the former threadIdx.y fastest "
       "in each warp, and this " +
       std::string(Pair ? "load and store each take " : "access takes ") +
       before(R.Ans.cost(), F.CostAfter, F.IdealAfter, "sector");
  if (!F.When.empty())
    N += " " + F.When;
  if (!Others.empty()) {
    N += "; the kernel's other accesses: ";
    for (size_t I = 0; I < Others.size(); ++I)
      N += (I ? "; " : "") + changeText(*Others[I]);
    if (F.Unchanged)
      N += "; " + std::to_string(F.Unchanged) + " more keep their cost";
  } else if (F.Unchanged) {
    N += "; the kernel's " + std::to_string(F.Unchanged) + " other access" +
         (F.Unchanged > 1 ? "es keep their cost" : " keeps its cost");
  }
  N += std::string(". Shown by walking ") + (F.Launches.size() > 1 ? "each launch" : "the launch") +
       " again with x and y exchanged; the kernel has no "
       "shuffle, vote or warp-synchronous code whose result would change";
  return N;
}

std::string stageNote(const AccessRecord &R) {
  const StagedTransposeFix &S = *R.Stage;
  const std::string T = S.ElementType.empty() ? "T" : S.ElementType;
  const std::string Tile = "__shared__ " + T + " tile[" + std::to_string(S.Tile) + "][" +
                           std::to_string(S.Tile) + (S.Pad ? " + " + std::to_string(S.Pad) : "") + "]";
  const bool Store = R.Op == AccessOp::Store;
  const std::string Partner = std::string(S.Partner.Store ? "the store to '" : "the load of '") +
                              S.Partner.Array + "' at line " + std::to_string(S.Partner.Pos.Line);
  std::string N = "stage the transpose through shared memory (" + Tile + "): ";
  if (Store)
    N += "keep " + Partner + " as it is, storing its value in tile[threadIdx.y][threadIdx.x]; "
         "`__syncthreads()`; then write this element with threadIdx.x and threadIdx.y exchanged "
         "in its index, taking tile[threadIdx.x][threadIdx.y]";
  else
    N += "read this element with threadIdx.x and threadIdx.y exchanged in its index into "
         "tile[threadIdx.x][threadIdx.y]; `__syncthreads()`; then take "
         "tile[threadIdx.y][threadIdx.x] for " + Partner + ", which stays as it is";
  N += ". This access would take " + before(R.Ans.cost(), S.CostAfter, S.IdealAfter, "sector") +
       ", the other keeps its " + quantity(S.Partner.Before, "sector") + " per request, and the tile costs " +
       quantity(S.RowWavefronts, "wavefront") + " per request along its rows and " +
       formatNumber(S.ColumnWavefronts) + " down its columns";
  if (S.Pad)
    N += " (" + formatNumber(S.ColumnUnpadded) + " without the padding of " +
         std::to_string(S.Pad) + ")";
  N += "; it holds for this launch's square block " + R.Launch.Block.str() +
       ", where every thread of the block reaches the `__syncthreads()`";
  if (!R.NoSwapWhy.empty())
    N += " (" + R.NoSwapWhy + ")";
  return N;
}

} // namespace

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
  else if (R.Swap)
    F.Notes.push_back({std::nullopt, swapNote(R)});
  else if (R.Stage)
    F.Notes.push_back({std::nullopt, stageNote(R)});
  else if (R.NoSwapWhy.empty())
    F.Notes.push_back({std::nullopt, suggestion(R)});
  else
    F.Notes.push_back({std::nullopt, suggestion(R) + " (" + R.NoSwapWhy + ")"});
}

} // namespace coalesce

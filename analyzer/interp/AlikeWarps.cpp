//===- AlikeWarps.cpp - One walk for the warps of a block -----------------===//
//
// The warps of a 1-D block whose walks differ only by where their lanes
// point are walked once, with threadIdx.x = 32 * w + lane and w a symbol
// ranging over them (KernelRun::SymbolicWarps; the walk is driven by
// Analysis.cpp, walkWarps()). The helpers here turn that walk's events into
// one warp's (eventAtWarp) and compare them with a warp walked as it is
// (sameEvent): the walk stands for all its warps only where it is, for
// the first and the last of them, exactly the walk of that warp.
//===----------------------------------------------------------------------===//

#include "interp/Interpreter.h"

#include <algorithm>

namespace coalesce {

namespace {

Poly at(const Poly &P, SymbolId W, int64_t Warp) {
  return P.mentions(W) ? P.substitute(W, Poly::constant(Warp)) : P;
}

bool sameSide(const AccessSide &A, const AccessSide &B) {
  return A.Op == B.Op && A.Space == B.Space && A.Region == B.Region && A.Offset == B.Offset &&
         A.Width == B.Width && A.Subscripts == B.Subscripts && A.ArrayDecl == B.ArrayDecl &&
         A.Site == B.Site && A.Because == B.Because;
}

bool sameChance(const VectorChanceEvent &A, const VectorChanceEvent &B) {
  return A.Width == B.Width && A.Members == B.Members && A.Start == B.Start &&
         A.FirstLine == B.FirstLine && A.LastLine == B.LastLine && A.Emitted == B.Emitted &&
         A.Pointer == B.Pointer && A.PointerType == B.PointerType &&
         A.ProvenAlign == B.ProvenAlign;
}

} // namespace

std::optional<int64_t> warpStep(const Poly &P, SymbolId W, LaneMask Active) {
  if (P.overflowed() || !Active)
    return std::nullopt;
  const unsigned F = firstLane(Active);
  int64_t Step = 0;
  for (const Poly::Term &T : P.terms()) {
    if (std::find(T.M.Syms.begin(), T.M.Syms.end(), W) == T.M.Syms.end())
      continue;
    if (T.M.Syms.size() != 1)
      return std::nullopt; // W times another symbol, or W squared
    for (unsigned L = 0; L < WarpSize; ++L)
      if (laneActive(Active, L) && T.C[L] != T.C[F])
        return std::nullopt;
    Step = T.C[F];
  }
  return Step;
}

AccessEvent eventAtWarp(const AccessEvent &E, SymbolId W, int64_t Warp) {
  AccessEvent Out = E;
  Out.Offset = at(E.Offset, W, Warp);
  for (Poly &P : Out.Subscripts)
    P = at(P, W, Warp);
  Out.PartnerOffset = at(E.PartnerOffset, W, Warp);
  if (Out.SecondSide) {
    Out.SecondSide->Offset = at(E.SecondSide->Offset, W, Warp);
    for (Poly &P : Out.SecondSide->Subscripts)
      P = at(P, W, Warp);
  }
  return Out;
}

bool sameBesidesAddresses(const AccessEvent &A, const AccessEvent &B) {
  return A.Site == B.Site && A.ReportAt == B.ReportAt && A.BlameAt == B.BlameAt &&
         A.BlameHelper == B.BlameHelper && A.Op == B.Op && A.ContextKey == B.ContextKey &&
         A.ContextText == B.ContextText && A.Space == B.Space && A.Region == B.Region &&
         A.Width == B.Width && A.Chunk == B.Chunk && A.Chunks == B.Chunks &&
         A.AccessType == B.AccessType && A.Active == B.Active && A.Weight == B.Weight &&
         A.RequestsKnown == B.RequestsKnown && A.RequestsWhy == B.RequestsWhy &&
         A.Uncounted == B.Uncounted && A.UnknownWhy == B.UnknownWhy && A.MaskWhy == B.MaskWhy &&
         A.Assumptions == B.Assumptions && A.Because == B.Because &&
         A.StructSize == B.StructSize && A.Subscripts.size() == B.Subscripts.size() &&
         A.ArrayDecl == B.ArrayDecl && A.RowLength == B.RowLength &&
         A.SecondSide.has_value() == B.SecondSide.has_value() && A.Instr == B.Instr &&
         A.Matrices == B.Matrices && A.PartnerRegion == B.PartnerRegion &&
         A.Witness == B.Witness && A.ReportLine == B.ReportLine &&
         A.Statement == B.Statement && A.Function == B.Function &&
         A.WitnessNote == B.WitnessNote && A.Chance.has_value() == B.Chance.has_value() &&
         (!A.Chance || sameChance(*A.Chance, *B.Chance)) && A.ChanceMember == B.ChanceMember &&
         A.SinkLoop == B.SinkLoop && A.Epoch == B.Epoch;
}

bool sameEvent(const AccessEvent &A, const AccessEvent &B) {
  return sameBesidesAddresses(A, B) && A.Offset == B.Offset &&
         A.Offset.overflowed() == B.Offset.overflowed() && A.Subscripts == B.Subscripts &&
         A.PartnerOffset == B.PartnerOffset && (!A.SecondSide || sameSide(*A.SecondSide, *B.SecondSide));
}

} // namespace coalesce

//===- ThreadSwap.cpp - Proving a change of the thread mapping ------------===//

#include "cost/ThreadSwap.h"

#include "model/BankModel.h"
#include "report/Numbers.h"

#include <algorithm>
#include <map>

namespace coalesce {

namespace {

bool costedGlobal(const AccessRecord &R) {
  return R.Space == MemorySpace::Global && (R.Op == AccessOp::Load || R.Op == AccessOp::Store) &&
         R.Ans.known() && !R.Ans.parametric() && R.Instruction.empty();
}

/// "the load of 'in' at line 5", "the shared store to 'tile' at line 9".
std::string where(const AccessRecord &R) {
  std::string S = R.Op == AccessOp::Store ? "the " : "the ";
  if (R.Space != MemorySpace::Global)
    S += std::string(spaceName(R.Space)) + " ";
  S += R.Op == AccessOp::Store ? "store to '" : R.Op == AccessOp::Load ? "load of '" : "access to '";
  return S + R.Array + "' at line " + std::to_string(R.Pos.Line);
}

/// The cost per warp: per request x requests per warp, where those are
/// known (else per request: the loops are the same in both walks).
double perWarp(const AccessRecord &R) {
  return R.Ans.cost() * (R.RequestsKnown ? R.RequestsPerWarp : 1.0);
}
/// What it costs above its ideal, per warp. A warp's lanes may need other
/// data after the exchange (a row all lanes read at one address becomes a
/// row each lane reads its own element of): its ideal changes with it, and
/// an access is worse only where it wastes more.
double excessPerWarp(const AccessRecord &R) {
  return (R.Ans.cost() - R.Ans.ideal()) * (R.RequestsKnown ? R.RequestsPerWarp : 1.0);
}

CostChange change(const AccessRecord &B, const AccessRecord &A) {
  CostChange C;
  C.Pos = B.Pos;
  C.Space = B.Space;
  C.Store = B.Op == AccessOp::Store;
  C.Array = B.Array;
  C.Before = B.Ans.cost();
  C.After = A.Ans.cost();
  C.IdealBefore = B.Ans.ideal();
  C.IdealAfter = A.Ans.ideal();
  C.RequestsBefore = B.RequestsKnown ? B.RequestsPerWarp : 0;
  C.RequestsAfter = A.RequestsKnown ? A.RequestsPerWarp : 0;
  return C;
}

enum class Delta { Same, Better, Worse };

} // namespace

bool swapWorthTrying(const LaunchConfig &C, const std::vector<AccessRecord> &Recs) {
  if (!C.BlockKnown || C.Block.X < 2 || C.Block.Y < 2)
    return false;
  return std::any_of(Recs.begin(), Recs.end(), [](const AccessRecord &R) {
    return costedGlobal(R) && R.Ans.excessOver(1.0);
  });
}

TileCost stagedTileCost(int64_t Tile, unsigned ElementBytes) {
  const Dim3 Block{Tile, Tile, 1};
  const unsigned Warps = warpsPerBlock(Block);
  // Wavefronts per request and their ideal, averaged over the warps.
  auto Cost = [&](int64_t Pad, bool Column) {
    double Sum = 0, Ideal = 0;
    for (unsigned W = 0; W < Warps; ++W) {
      const WarpThreads T = threadsOfWarp(Block, W);
      LaneInts Addr{};
      for (unsigned L = 0; L < WarpSize; ++L) {
        const int64_t Row = Column ? T.Tx[L] : T.Ty[L];
        const int64_t Col = Column ? T.Ty[L] : T.Tx[L];
        Addr[L] = (Row * (Tile + Pad) + Col) * ElementBytes;
      }
      const BankCount C = countWavefronts(Addr, T.Exists, ElementBytes);
      Sum += C.Wavefronts;
      Ideal += C.Ideal;
    }
    return std::make_pair(Sum / Warps, Ideal / Warps);
  };
  TileCost Best;
  Best.ColumnUnpadded = Cost(0, true).first;
  double BestSum = -1;
  // A pad of a whole bank period (128 bytes) changes nothing: the smallest
  // pad that reaches the ideal lies below it.
  const int64_t MaxPad = std::max<int64_t>(1, 128 / ElementBytes);
  for (int64_t Pad = 0; Pad < MaxPad; ++Pad) {
    const auto [W, IW] = Cost(Pad, false);
    const auto [R, IR] = Cost(Pad, true);
    if (BestSum < 0 || W + R < BestSum) {
      BestSum = W + R;
      Best.Pad = Pad;
      Best.Row = W;
      Best.Column = R;
    }
    if (W <= IW && R <= IR)
      break;
  }
  return Best;
}

void attachThreadSwap(std::vector<AccessRecord> &Before, const std::vector<AccessRecord> &After,
                      const SwapFacts &Facts) {
  std::vector<size_t> Cands;
  for (size_t I = 0; I < Before.size(); ++I)
    if (costedGlobal(Before[I]) && Before[I].Ans.excessOver(1.0) && Before[I].Launch.BlockKnown)
      Cands.push_back(I);
  if (Cands.empty())
    return;
  if (!Facts.WarpSynchronous.empty()) {
    for (size_t I : Cands)
      Before[I].NoSwapWhy = "exchanging the roles of x and y could change what the kernel "
                            "computes: it depends on which threads share a warp (" +
                            Facts.WarpSynchronous + ")";
    return;
  }

  // Each record of the first walk with its own in the second.
  std::multimap<std::string, size_t> ByKey;
  for (size_t I = 0; I < After.size(); ++I)
    ByKey.emplace(After[I].key(), I);
  std::vector<const AccessRecord *> Match(Before.size(), nullptr);
  for (size_t I = 0; I < Before.size(); ++I) {
    auto It = ByKey.find(Before[I].key());
    if (It != ByKey.end()) {
      Match[I] = &After[It->second];
      ByKey.erase(It);
    }
  }
  std::string Blocked;
  if (!ByKey.empty())
    Blocked = where(After[ByKey.begin()->second]) + " is reached only with x and y exchanged";
  std::vector<Delta> D(Before.size(), Delta::Same);
  std::map<MemorySpace, double> TotalBefore, TotalAfter;
  size_t Worst = SIZE_MAX;
  double WorstRatio = 0;
  for (size_t I = 0; I < Before.size(); ++I) {
    const AccessRecord &B = Before[I];
    const AccessRecord *A = Match[I];
    if (!A) {
      if (Blocked.empty())
        Blocked = where(B) + " is not reached with x and y exchanged";
      continue;
    }
    if (B.Ans.noInstruction() && A->Ans.noInstruction())
      continue;
    if (!B.Ans.known() || !A->Ans.known() || B.Ans.parametric() || A->Ans.parametric() ||
        B.RequestsKnown != A->RequestsKnown) {
      if (Blocked.empty())
        Blocked = "the cost of " + where(B) + " is not known both ways";
      continue;
    }
    const double TB = perWarp(B), TA = perWarp(*A);
    TotalBefore[B.Space] += TB;
    TotalAfter[B.Space] += TA;
    bool Worse = Answer::exceeds(excessPerWarp(*A), excessPerWarp(B));
    // Over unknown alignments, the worst case must not grow either.
    if (B.Ans.alignmentRange() && A->Ans.alignmentRange() &&
        Answer::exceeds(A->Ans.alignmentRange()->Max, B.Ans.alignmentRange()->Max))
      Worse = true;
    if (B.Ans.alignmentRange().has_value() != A->Ans.alignmentRange().has_value())
      Worse |= !B.Ans.alignmentRange().has_value();
    if (Worse) {
      D[I] = Delta::Worse;
      const double Ratio = TA / std::max(TB, 1e-9);
      if (Worst == SIZE_MAX || Ratio > WorstRatio) {
        Worst = I;
        WorstRatio = Ratio;
      }
    } else if (Answer::exceeds(TB, TA)) {
      D[I] = Delta::Better;
    }
  }
  // Nor may a space cost more in all: more sectors (wavefronts) per warp.
  for (const auto &[Space, T] : TotalAfter)
    if (Blocked.empty() && Answer::exceeds(T, TotalBefore[Space]))
      Blocked = "the " + std::string(spaceName(Space)) + " accesses would take " +
                formatNumber(T) + " " + costUnits(Space) + " per warp in all instead of " +
                formatNumber(TotalBefore[Space]);

  const bool AnyWorse = Worst != SIZE_MAX;
  for (size_t I : Cands) {
    AccessRecord &R = Before[I];
    const AccessRecord *A = Match[I];
    if (D[I] != Delta::Better || !A) {
      R.NoSwapWhy = "exchanging the roles of x and y does not make this access cheaper";
      continue;
    }
    if (Blocked.empty() && !AnyWorse) {
      ThreadSwapFix F;
      F.Block = R.Launch.Block;
      F.Grid = R.Launch.Grid;
      F.LaunchSites = R.Launch.Sites;
      F.CostAfter = A->Ans.cost();
      F.IdealAfter = A->Ans.ideal();
      for (size_t J = 0; J < Before.size(); ++J) {
        if (J == I || !Match[J])
          continue;
        if (D[J] == Delta::Same && !Answer::differ(Before[J].Ans.cost(), Match[J]->Ans.cost()))
          ++F.Unchanged;
        else
          F.Others.push_back(change(Before[J], *Match[J]));
      }
      R.Swap = std::move(F);
      continue;
    }
    R.NoSwapWhy = !Blocked.empty()
                      ? "exchanging the roles of x and y is not shown to help: " + Blocked
                      : "exchanging the roles of x and y would make " + where(Before[Worst]) +
                            " worse (" + formatNumber(Before[Worst].Ans.cost()) + " -> " +
                            costPhrase(Match[Worst]->Ans.cost(), Before[Worst].Space) + ")";
    // The staged transpose: only this access changes, so only it and the
    // other side of its assignment matter.
    const Dim3 &Bk = R.Launch.Block;
    if (Bk.X != Bk.Y || Bk.Z != 1 || R.InstructionsPerAccess != 1)
      continue;
    const unsigned E = R.BytesPerLane;
    if (E == 0 || E > 16 || (E & (E - 1)))
      continue;
    const AccessRecord *Partner = nullptr;
    for (const auto &[W, Rd] : Facts.Assignments) {
      const uint64_t Other = W == R.Pos.RawLoc ? Rd : Rd == R.Pos.RawLoc ? W : 0;
      if (!Other)
        continue;
      for (const AccessRecord &P : Before)
        if (P.Pos.RawLoc == Other && P.Context == R.Context && &P != &R &&
            P.Op != R.Op && P.Ans.known() && !P.Ans.parametric())
          Partner = &P;
    }
    if (!Partner)
      continue;
    StagedTransposeFix S;
    const AccessRecord *PA = nullptr;
    for (size_t J = 0; J < Before.size(); ++J)
      if (&Before[J] == Partner)
        PA = Match[J];
    S.Partner = change(*Partner, PA ? *PA : *Partner);
    S.Partner.After = Partner->Ans.cost();
    S.Partner.IdealAfter = Partner->Ans.ideal();
    S.Partner.RequestsAfter = S.Partner.RequestsBefore;
    S.CostAfter = A->Ans.cost();
    S.IdealAfter = A->Ans.ideal();
    S.ElementType = R.ElementType;
    S.ElementBytes = E;
    S.Tile = Bk.X;
    const TileCost T = stagedTileCost(Bk.X, E);
    S.Pad = T.Pad;
    S.RowWavefronts = T.Row;
    S.ColumnWavefronts = T.Column;
    S.ColumnUnpadded = T.ColumnUnpadded;
    R.Stage = std::move(S);
  }
}

} // namespace coalesce

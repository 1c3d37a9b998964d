//===- ThreadSwap.cpp - Proving a change of the thread mapping ------------===//

#include "cost/ThreadSwap.h"

#include "model/BankModel.h"
#include "report/Numbers.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace coalesce {

namespace {

bool costedGlobal(const AccessRecord &R) {
  return R.Space == MemorySpace::Global && (R.Op == AccessOp::Load || R.Op == AccessOp::Store) &&
         R.Ans.known() && R.Instruction.empty();
}

/// "the load of 'in' at line 5", "the shared store to 'tile' at line 9".
std::string where(const AccessRecord &R) {
  std::string S = "the ";
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

/// How an access's cost changes with the exchange: not at all; less where
/// its finding's number holds; more waste at some size; otherwise (cheaper
/// or dearer at some sizes only, as its ideal moves).
enum class Delta { Same, Better, Worse, Changed };

/// The launches a record stands for: one per grid where the grids are
/// known, else the record's launch.
std::vector<SwapLaunch> launchesOf(const AccessRecord &R) {
  std::vector<SwapLaunch> Out;
  for (const AccessRecord::LaunchTotal &T : R.LaunchTotals)
    Out.push_back({T.Sites, R.Launch.Block, T.Grid});
  if (Out.empty())
    Out.push_back({R.Launch.Sites, R.Launch.Block, R.Launch.Grid});
  return Out;
}

std::string launchText(const AccessRecord &R) {
  std::string S = "the launch";
  if (R.Launch.Sites.size() > 1)
    S += "es";
  for (size_t I = 0; I < R.Launch.Sites.size(); ++I)
    S += (I ? ", " : " at ") + R.Launch.Sites[I].fileLine();
  return S + " (block " + R.Launch.Block.str() + ")";
}

/// An answer's cost per request as a function of the run-time size it
/// depends on (model/Parametric.h); a constant where it depends on none.
struct CostFn {
  std::string Size; // empty: a constant
  CostPoint Const;
  std::map<int64_t, CostPoint> Table;
  int64_t From = 0, Period = 1;
  int64_t first() const { return Table.empty() ? 0 : Table.begin()->first; }
  std::optional<CostPoint> at(int64_t V) const {
    if (Size.empty())
      return Const;
    auto It = Table.find(V);
    if (It == Table.end() && V >= From)
      It = Table.find(From + floorMod(V - From, Period));
    if (It == Table.end() || !It->second.Possible)
      return std::nullopt;
    return It->second;
  }
};

CostFn costFn(const Answer &A) {
  CostFn F;
  if (const ParametricCost *P = A.parametric()) {
    F.Size = P->Name;
    for (const auto &[V, C] : P->Table)
      F.Table[V] = C;
    F.From = P->PeriodicFrom;
    F.Period = std::max<int64_t>(1, P->Period);
    return F;
  }
  F.Const.Cost = A.cost();
  F.Const.Ideal = A.ideal();
  F.Const.Exact = A.alignmentKnown();
  F.Const.Min = A.alignmentRange() ? A.alignmentRange()->Min : A.cost();
  F.Const.Max = A.alignmentRange() ? A.alignmentRange()->Max : A.cost();
  return F;
}

/// The sizes at which two functions of one size are compared: every value
/// of their tables, and one common period past both.
std::vector<int64_t> valuesToCompare(const CostFn &B, const CostFn &A) {
  const CostFn &S = B.Size.empty() ? A : B;
  if (S.Size.empty())
    return {0};
  int64_t Lo = S.first(), From = S.From, Period = S.Period;
  if (!B.Size.empty() && !A.Size.empty()) {
    Lo = std::min(B.first(), A.first());
    From = std::max(B.From, A.From);
    Period = std::lcm(B.Period, A.Period);
  }
  std::vector<int64_t> Out;
  constexpr int64_t MaxValues = 1 << 14;
  for (int64_t V = Lo; V < From + Period && V - Lo < MaxValues; ++V)
    if (B.at(V) && A.at(V))
      Out.push_back(V);
  return Out;
}

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

std::string attachThreadSwap(std::vector<AccessRecord> &Before,
                             const std::vector<AccessRecord> &After, const SwapFacts &Facts) {
  std::vector<size_t> Cands;
  for (size_t I = 0; I < Before.size(); ++I)
    if (costedGlobal(Before[I]) && Before[I].Ans.excessOver(1.0) && Before[I].Launch.BlockKnown)
      Cands.push_back(I);
  if (!Facts.WarpSynchronous.empty()) {
    const std::string Why = "exchanging the roles of x and y could change what the kernel "
                            "computes: it depends on which threads share a warp (" +
                            Facts.WarpSynchronous + ")";
    for (size_t I : Cands)
      Before[I].NoSwapWhy = Why;
    return Why;
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
  // Each access's cost after, at the sizes its cost before is stated for
  // (the first case of a parametric answer), and that case's condition.
  std::vector<double> AfterShown(Before.size(), 0), IdealShown(Before.size(), 0);
  std::vector<std::string> When(Before.size());
  // The change of each space's cost per warp: the part no size decides,
  // and, per size, per value, the part it does (with how many accesses
  // have that value: a value one access cannot have, the program cannot).
  struct SizedSum {
    std::map<int64_t, std::pair<double, unsigned>> At;
    unsigned Accesses = 0;
    int64_t From = 0; // where every access's cost is periodic in the size
  };
  std::map<MemorySpace, double> ConstDelta;
  std::map<MemorySpace, std::map<std::string, SizedSum>> Sized;
  std::map<MemorySpace, bool> AnySized;
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
    const CostFn FB = costFn(B.Ans), FA = costFn(A->Ans);
    if (!B.Ans.known() || !A->Ans.known() || B.RequestsKnown != A->RequestsKnown ||
        (!FB.Size.empty() && !FA.Size.empty() && FB.Size != FA.Size)) {
      if (Blocked.empty())
        Blocked = "the cost of " + where(B) + " is not known both ways";
      continue;
    }
    const double RB = B.RequestsKnown ? B.RequestsPerWarp : 1.0;
    const double RA = A->RequestsKnown ? A->RequestsPerWarp : 1.0;
    const std::vector<int64_t> Values = valuesToCompare(FB, FA);
    if (Values.empty()) {
      if (Blocked.empty())
        Blocked = "the cost of " + where(B) + " cannot be compared over the values of '" +
                  (FB.Size.empty() ? FA.Size : FB.Size) + "'";
      continue;
    }
    const std::string Size = FB.Size.empty() ? FA.Size : FB.Size;
    bool Worse = false, Cheaper = false, Dearer = false;
    double Ratio = 0;
    for (int64_t V : Values) {
      const CostPoint CB = *FB.at(V), CA = *FA.at(V);
      const double TB = CB.Cost * RB, TA = CA.Cost * RA;
      // The likely cost, under the alignment assumptions the records state
      // (a size's residue keeps the alignment), as every number printed is.
      if (Answer::exceeds((CA.Cost - CA.Ideal) * RA, (CB.Cost - CB.Ideal) * RB)) {
        Worse = true;
        Ratio = std::max(Ratio, TA / std::max(TB, 1e-9));
      }
      Cheaper |= Answer::exceeds(TB, TA);
      Dearer |= Answer::exceeds(TA, TB);
      if (!Size.empty()) {
        auto &[Sum, Count] = Sized[B.Space][Size].At[V];
        Sum += TA - TB;
        ++Count;
      }
    }
    if (Size.empty()) {
      ConstDelta[B.Space] += (FA.Const.Cost * RA) - (FB.Const.Cost * RB);
      TotalBefore[B.Space] += FB.Const.Cost * RB;
      TotalAfter[B.Space] += FA.Const.Cost * RA;
    } else {
      SizedSum &Sum = Sized[B.Space][Size];
      Sum.From = std::max({Sum.From, FB.Size.empty() ? Sum.From : FB.From,
                           FA.Size.empty() ? Sum.From : FA.From});
      ++Sum.Accesses;
      AnySized[B.Space] = true;
    }
    // What the note shows: the cost after where the cost before is the one
    // the record states (a parametric answer's realistic case).
    AfterShown[I] = A->Ans.cost();
    IdealShown[I] = A->Ans.ideal();
    if (const ParametricCost *P = B.Ans.parametric()) {
      When[I] = P->Cases.front().Text;
      for (auto It = Values.rbegin(); It != Values.rend(); ++It)
        if (*It >= FB.From && !Answer::differ(FB.at(*It)->Cost, B.Ans.cost()) &&
            !Answer::differ(FB.at(*It)->Ideal, B.Ans.ideal())) {
          AfterShown[I] = FA.at(*It)->Cost;
          IdealShown[I] = FA.at(*It)->Ideal;
          break;
        }
    } else if (const ParametricCost *P = A->Ans.parametric()) {
      When[I] = P->Cases.front().Text;
    }
    if (Worse) {
      D[I] = Delta::Worse;
      if (Worst == SIZE_MAX || Ratio > WorstRatio) {
        Worst = I;
        WorstRatio = Ratio;
      }
    } else if (Answer::exceeds(B.Ans.cost() * RB, AfterShown[I] * RA)) {
      // Cheaper where the record's number holds (a parametric answer's
      // realistic case); at other sizes it may cost more only as its ideal
      // grows with it (no more waste: checked above).
      D[I] = Delta::Better;
    } else if (Cheaper || Dearer) {
      D[I] = Delta::Changed;
    }
  }
  // Nor may a space cost more in all: more sectors (wavefronts) per warp,
  // for any large sizes (past the small values where a stride of 0 or 1
  // element makes lanes share sectors: from the periodic part of every
  // access's cost on).
  std::set<MemorySpace> Spaces;
  for (const auto &[Space, C] : ConstDelta)
    Spaces.insert(Space);
  for (const auto &[Space, M] : Sized)
    Spaces.insert(Space);
  for (MemorySpace Space : Spaces) {
    double Most = ConstDelta[Space];
    for (const auto &[Size, Sum] : Sized[Space]) {
      double Max = -1e300;
      for (const auto &[V, SC] : Sum.At)
        if (SC.second == Sum.Accesses && V >= Sum.From)
          Max = std::max(Max, SC.first);
      if (Max > -1e300)
        Most += Max;
    }
    if (Blocked.empty() && Answer::exceeds(Most, 0))
      Blocked = AnySized[Space]
                    ? "the " + std::string(spaceName(Space)) + " accesses would take more " +
                          costUnits(Space) + " per warp in all, for some large sizes"
                    : "the " + std::string(spaceName(Space)) + " accesses would take " +
                          formatNumber(TotalAfter[Space]) + " " + costUnits(Space) +
                          " per warp in all instead of " + formatNumber(TotalBefore[Space]);
  }

  const bool AnyWorse = Worst != SIZE_MAX;
  const std::string Verdict =
      AnyWorse ? "exchanging the roles of x and y would make " + where(Before[Worst]) +
                     " worse (" + formatNumber(Before[Worst].Ans.cost()) + " -> " +
                     costPhrase(AfterShown[Worst], Before[Worst].Space) +
                     (When[Worst].empty() ? "" : " " + When[Worst]) + ")"
      : !Blocked.empty() ? "exchanging the roles of x and y is not shown to help: " + Blocked
                         : "";
  for (size_t I : Cands) {
    AccessRecord &R = Before[I];
    const AccessRecord *A = Match[I];
    if (D[I] != Delta::Better || !A) {
      R.NoSwapWhy = "exchanging the roles of x and y does not make this access cheaper";
      continue;
    }
    if (Blocked.empty() && !AnyWorse) {
      ThreadSwapFix F;
      F.Launches = launchesOf(R);
      F.CostAfter = AfterShown[I];
      F.IdealAfter = IdealShown[I];
      F.When = When[I];
      for (size_t J = 0; J < Before.size(); ++J) {
        if (J == I || !Match[J])
          continue;
        if (D[J] == Delta::Same && !Answer::differ(Before[J].Ans.cost(), Match[J]->Ans.cost()))
          ++F.Unchanged;
        else {
          CostChange C = change(Before[J], *Match[J]);
          C.After = AfterShown[J];
          C.IdealAfter = IdealShown[J];
          C.When = When[J];
          F.Others.push_back(std::move(C));
        }
      }
      R.Swap = std::move(F);
      continue;
    }
    R.NoSwapWhy = Verdict;
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
            P.Space == MemorySpace::Global && P.Op != R.Op && P.Ans.known())
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
    S.CostAfter = AfterShown[I];
    S.IdealAfter = IdealShown[I];
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
  return Verdict;
}

void reconcileThreadSwaps(std::vector<std::vector<AccessRecord>> &Groups,
                          const std::vector<std::pair<size_t, std::string>> &Verdicts) {
  std::string Blocker;
  for (const auto &[G, V] : Verdicts)
    if (!V.empty() && Blocker.empty() && G < Groups.size() && !Groups[G].empty())
      Blocker = V + ", in " + launchText(Groups[G].front());
  std::vector<SwapLaunch> All;
  std::set<std::string> Blocks;
  bool Square = true;
  for (const std::vector<AccessRecord> &G : Groups) {
    if (G.empty())
      continue;
    for (SwapLaunch &L : launchesOf(G.front()))
      All.push_back(std::move(L));
    const Dim3 &B = G.front().Launch.Block;
    Blocks.insert(B.str());
    Square &= G.front().Launch.BlockKnown && B.X == B.Y && B.Z == 1;
  }
  for (std::vector<AccessRecord> &G : Groups)
    for (AccessRecord &R : G) {
      if (R.Swap) {
        if (Blocker.empty()) {
          R.Swap->Launches = All;
        } else {
          R.Swap.reset();
          R.NoSwapWhy = Blocker;
        }
      }
      // The staged transpose rewrites the kernel for all its launches: its
      // tile is the block's, so they must share one square block.
      if (R.Stage && (!Square || Blocks.size() != 1))
        R.Stage.reset();
    }
}

} // namespace coalesce

//===- Aggregate.cpp - From access events to per-access records -----------===//

#include "cost/Aggregate.h"
#include "cost/LayoutChoice.h"
#include "ast/AstUtil.h"

#include "model/Alignment.h"
#include "model/Instructions.h"
#include "model/SectorModel.h"
#include "model/Spaces.h"
#include "report/Numbers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"

#include <charconv>
#include <algorithm>
#include <cmath>
#include <sstream>

using namespace clang;

namespace coalesce {

/// Distinct requests of one access kept for the layout search; an access
/// that makes more (a long loop of distinct addresses) is not re-costed.
constexpr size_t MaxLayoutRequests = 8192;
/// An array with no conflict in a launch is re-costed there only when its
/// accesses make at most this many distinct requests (layoutSearch()).
constexpr size_t MaxQuietLayoutRequests = 512;

/// A hash of a request (its lanes' offsets, lanes and width, and a matrix
/// count) for the layout search's tables; equal hashes are compared in full.
static uint64_t hashRequest(const Poly &Offset, LaneMask Active, unsigned Width, unsigned Matrices) {
  uint64_t H = 0xcbf29ce484222325ull ^ (uint64_t(Active) << 20) ^ (uint64_t(Width) << 8) ^
               (uint64_t(Matrices) << 56);
  auto Mix = [&H](uint64_t V) { H = (H ^ V) * 0x100000001b3ull; };
  for (const Poly::Term &T : Offset.terms()) {
    for (SymbolId Sym : T.M.Syms)
      Mix(0x51ed27u + Sym);
    for (int64_t C : T.C)
      Mix(uint64_t(C));
  }
  return H;
}

namespace {

int64_t periodOf(MemorySpace S) { return spaceModel(S).Period; }

std::string symbolNames(const std::vector<SymbolId> &Ids,
                        const SymbolTable &Syms) {
  std::string Out;
  for (size_t I = 0; I < Ids.size(); ++I) {
    if (I)
      Out += I + 1 == Ids.size() ? " and " : ", ";
    const SymbolInfo &Info = Syms.get(Ids[I]);
    Out += Info.Spelling.empty() ? "'" + Info.Name + "'" : Info.Spelling;
  }
  return Out;
}

/// The residues modulo 128 the first active lane's address may have: those
/// its known part gives, shifted by any multiple of its unknown step.
std::vector<int64_t> possibleResidues(const Poly &Address, LaneMask Active, int64_t BaseAlign,
                                      const SymbolTable &Syms) {
  const int64_t M = 128;
  const unsigned F = firstLane(Active);
  ResidueDistribution D = residuesOf(Address.symbolicPart(F), 0, M, Syms);
  if (BaseAlign < M)
    D.UnknownStep = gcd64(D.UnknownStep, BaseAlign);
  std::vector<bool> Seen(M, false);
  std::vector<int64_t> Out;
  for (int64_t R = 0; R < M; ++R) {
    if (D.Weight[R] <= 0)
      continue;
    for (int64_t K = 0; K < M; ++K) {
      const int64_t V = floorMod(R + K * D.UnknownStep, M);
      if (!Seen[V]) {
        Seen[V] = true;
        Out.push_back(V);
      }
      if (!D.UnknownStep)
        break;
    }
  }
  return Out;
}

} // namespace

Cost requestCost(MemorySpace Space, const Poly &Address, LaneMask Active,
                 unsigned Width, int64_t BaseAlign, const SymbolTable &Syms,
                 double *Lines, LanePattern *Pattern, const InstrCount *Instr) {
  const int64_t M = periodOf(Space);
  const unsigned F = firstLane(Active);
  const LaneInts C = Address.laneConstants();
  ResidueDistribution D = residuesOf(Address.symbolicPart(F), 0, M, Syms);
  if (BaseAlign < M)
    D.UnknownStep = gcd64(D.UnknownStep, BaseAlign);
  auto Addr = [&](int64_t R) {
    LaneInts A{};
    for (unsigned L = 0; L < WarpSize; ++L)
      A[L] = R + C[L];
    return A;
  };
  const SpaceModel &Model = spaceModel(Space);
  Cost Out = averageOverResidues(D, [&](int64_t R) {
    if (Instr && Instr->Kind == InstrKind::SharedAtomic) {
      const SharedAtomicCount A = countSharedAtomicWavefronts(Addr(R), Active);
      return std::make_pair(double(A.Wavefronts),
                            double(countWavefronts(Addr(R), Active, Width).Ideal));
    }
    if (Instr && Instr->Kind != InstrKind::Plain) {
      const bool Bypass = Instr->Kind == InstrKind::AsyncCopyBypass;
      if (Instr->Kind == InstrKind::Matrix) {
        BankCount B = countMatrixWavefronts(Addr(R), Instr->Matrices);
        return std::make_pair(double(B.Wavefronts), double(B.Ideal));
      }
      if (Instr->Kind == InstrKind::Wgmma) {
        const double W = wgmmaWavefrontsPerWarp(Instr->Matrices);
        return std::make_pair(W, W);
      }
      if (Space == MemorySpace::Shared) {
        BankCount B = countAsyncCopyWavefronts(Instr->Partner, Addr(R), Active, Width, Bypass);
        return std::make_pair(double(B.Wavefronts), double(B.Ideal));
      }
      SectorCount S = countAsyncCopySectors(Addr(R), Instr->Partner, Active, Width, Bypass);
      return std::make_pair(double(S.Sectors), double(S.Ideal));
    }
    RequestCost C = Model.Count(Addr(R), Active, Width);
    return std::make_pair(double(C.Cost), double(C.Ideal));
  });
  if (Lines && spaceModel(Space).ReportsLines) {
    Cost L = averageOverResidues(D, [&](int64_t R) {
      SectorCount S = countSectors(Addr(R), Active, Width);
      return std::make_pair(double(S.Lines), 0.0);
    });
    *Lines = L.Value;
  }
  if (Pattern) {
    // The most likely alignment, for pictures and evidence.
    int64_t Best = 0;
    for (int64_t R = 0; R < M; ++R)
      if (D.Weight[R] > D.Weight[Best])
        Best = R;
    Pattern->Active = Active;
    Pattern->BytesPerLane = Width;
    Pattern->BaseResidue = floorMod(Best + (F < WarpSize ? C[F] : 0), 128);
    std::vector<unsigned> On;
    for (unsigned L = 0; L < WarpSize; ++L) {
      Pattern->Offset[L] = F < WarpSize ? C[L] - C[F] : 0;
      if (laneActive(Active, L))
        On.push_back(L);
    }
    // Offsets linear in the lane index (possibly with inactive lanes
    // between), and the spacing of consecutive active lanes.
    bool Constant = On.size() > 1;
    int64_t Stride = 0;
    if (Constant) {
      const int64_t D0 = C[On[1]] - C[On[0]], L0 = On[1] - On[0];
      Constant = D0 % L0 == 0;
      Stride = Constant ? D0 / L0 : 0;
      for (size_t I = 1; Constant && I < On.size(); ++I)
        Constant = C[On[I]] - C[On[0]] == Stride * (int64_t(On[I]) - On[0]);
    }
    Pattern->EvenlySpaced = On.size() > 1;
    Pattern->ActiveStride = On.size() > 1 ? C[On[1]] - C[On[0]] : 0;
    for (size_t I = 1; I < On.size(); ++I)
      if (C[On[I]] - C[On[I - 1]] != Pattern->ActiveStride)
        Pattern->EvenlySpaced = false;
    Pattern->Stride = Stride;
    Pattern->ConstantStride = Constant;
  }
  return Out;
}

void AccessAggregator::addAssumption(Stats &S, const Assumption &A) {
  if (std::find(S.Assumptions.begin(), S.Assumptions.end(), A) ==
      S.Assumptions.end())
    S.Assumptions.push_back(A);
}

void AccessAggregator::record(const AccessEvent &E) { record(E, nullptr); }

void AccessAggregator::recordAgain(const Repeat &Again, const AccessEvent &E) {
  Stats &S = *Again.S;
  if (!Again.M) {
    S.SumW += E.Weight;
    return;
  }
  addRequest(S, *Again.M, E, false,
             [&] { return std::make_pair(Again.ChanceBefore, Again.ChanceAfter); });
}

void AccessAggregator::addRequest(Stats &S, const CostMemo &M, const AccessEvent &E, bool Instr,
                                  llvm::function_ref<std::pair<double, double>()> ChanceCosts,
                                  Repeat *Again) {
  const double Lines = M.Lines;
  const Cost &C = M.C;
  S.SumW += E.Weight;
  S.Sum.add(C, E.Weight, Lines);
  if (!S.Counted && !S.Uncounted) {
    S.CostLo = S.CostHi = C.Value;
    S.IdealLo = S.IdealHi = C.Ideal;
  } else {
    S.CostLo = std::min(S.CostLo, C.Value), S.CostHi = std::max(S.CostHi, C.Value);
    S.IdealLo = std::min(S.IdealLo, C.Ideal), S.IdealHi = std::max(S.IdealHi, C.Ideal);
  }
  (E.Uncounted ? S.Uncounted : S.Counted) = true;
  if (E.Chance && !Instr && !S.ChanceMissing &&
      (!S.Chance || (S.Chance->Width == E.Chance->Width &&
                     S.Chance->Members == E.Chance->Members))) {
    const auto [Before, After] = ChanceCosts();
    if (Again) {
      Again->ChanceBefore = Before;
      Again->ChanceAfter = After;
    }
    if (!S.Chance)
      S.Chance = *E.Chance;
    S.ChanceW += E.Weight;
    S.ChanceBefore += Before * E.Weight;
    S.ChanceAfter += After * E.Weight;
  } else if (!E.ChanceMember) {
    S.ChanceMissing = true;
  }
}

void AccessAggregator::record(const AccessEvent &E, Repeat *Again) {
  if (Again)
    *Again = Repeat();
  if (E.SecondSide) {
    // One instruction with two sides: each is a request in its own space,
    // recorded as its own access at the site (keyed apart by its op); an
    // asynchronous copy's sides are costed together (each knows the other's
    // addresses).
    AccessEvent First = E;
    First.SecondSide.reset();
    AccessEvent Second = E.secondSide();
    First.PartnerRegion = Second.Region;
    First.PartnerOffset = Second.Offset;
    Second.PartnerRegion = E.Region;
    Second.PartnerOffset = E.Offset;
    record(First);
    record(Second);
    return;
  }
  std::ostringstream K;
  K << static_cast<const void *>(E.Site) << "|" << int(E.Op) << "|"
    << E.ContextKey;
  auto [It, New] = ByKey.try_emplace(K.str());
  Stats &S = It->second;
  if (New) {
    S.Site = E.Site;
    S.ReportAt = E.ReportAt;
    S.BlameAt = E.BlameAt;
    S.BlameHelper = E.BlameHelper;
    S.Op = E.Op;
    S.ContextKey = E.ContextKey;
    S.ContextText = E.ContextText;
    S.Space = E.Space;
    S.Region = E.Region;
    S.Type = E.AccessType;
    S.Width = E.Width;
    S.Chunks = E.Chunks;
    S.Instruction = instructionName(E.Instr, E.Op == AccessOp::Store, E.Width, E.Matrices);
    // An access of a declared shared array, by subscript or through a
    // pointer into it: its requests are re-costed under other layouts.
    if (E.Region && Run.Regions[*E.Region].K == MemRegion::Shared) {
      auto [Known, First] = LayoutArrays.try_emplace(*E.Region, nullptr);
      if (First) {
        auto *VD = dyn_cast_or_null<VarDecl>(Run.Regions[*E.Region].Decl);
        if (layoutSearchable(Run.Ctx, VD))
          Known->second = VD;
      }
      S.ArrayDecl = Known->second;
    }
    S.StructSize = E.StructSize;
    S.Order = Next++;
  }
  if (!E.Because.empty() && S.Because.empty())
    S.Because = E.Because;
  for (const ContractBreak &B : E.Contract)
    // One per rule: the first warp's words (another warp's lanes read
    // other bytes of the same box).
    if (std::none_of(S.Contract.begin(), S.Contract.end(),
                     [&](const ContractBreak &O) { return O.Rule == B.Rule; }))
      S.Contract.push_back(B);
  for (const Assumption &A : E.Assumptions)
    addAssumption(S, A);
  S.WitnessCorrected |= E.Witness == Witnessed::Corrected;
  S.WitnessSourceOnly |= E.Witness == Witnessed::SourceOnly;
  if (E.ReportLine && !S.ReportLine)
    S.ReportLine = E.ReportLine;
  if (!E.WitnessNote.empty() && S.WitnessNote.empty())
    S.WitnessNote = E.WitnessNote;
  S.RequestsKnown &= E.RequestsKnown;
  if (E.Uncounted && S.UncountedWhy.empty())
    S.UncountedWhy = E.RequestsWhy;
  if (!E.RequestsKnown && S.RequestsWhy.empty())
    S.RequestsWhy = E.RequestsWhy;
  if (!E.UnknownWhy.empty()) {
    if (S.UnknownWhy.empty())
      S.UnknownWhy = E.UnknownWhy;
    S.SumW += E.Weight;
    if (Again)
      Again->S = &S;
    return;
  }
  if (!E.MaskWhy.empty() && S.MaskWhy.empty())
    S.MaskWhy = E.MaskWhy;

  const MemRegion &Rg = Run.Regions[*E.Region];
  const Poly Addr = Rg.BaseOffset + E.Offset;
  if (Addr.overflowed()) {
    S.UnknownWhy = makeReason(ReasonKind::AddressOverflow);
    S.SumW += E.Weight;
    return;
  }
  // An instruction with its own rule: for an asynchronous copy, the other
  // side's lanes too.
  std::optional<InstrCount> Instr;
  if (E.Instr != InstrKind::Plain) {
    Instr.emplace();
    Instr->Kind = E.Instr;
    Instr->Matrices = E.Matrices;
    if (E.PartnerRegion) {
      const Poly Other = Run.Regions[*E.PartnerRegion].BaseOffset + E.PartnerOffset;
      if (Other.overflowed() || !Other.hasUniformSymbolicPart(E.Active)) {
        if (S.UnknownWhy.empty())
          S.UnknownWhy = makeReason(
              ReasonKind::AsyncCopySideUnknown,
              {E.Space == MemorySpace::Shared ? "global" : "shared",
               "its lanes are spread by an amount the analysis does not know"});
        S.SumW += E.Weight;
        return;
      }
      Instr->Partner = Other.laneConstants();
      // A 16-byte cp.async.cg follows a measured rule only for some lane
      // patterns (model/Instructions.h): at every alignment either side may
      // have, or the access is unknown.
      if (E.Instr == InstrKind::AsyncCopyBypass) {
        const MemRegion &Own = Run.Regions[*E.Region];
        const Poly Mine = Own.BaseOffset + E.Offset;
        const bool MineGlobal = E.Space == MemorySpace::Global;
        const std::vector<int64_t> RM = possibleResidues(Mine, E.Active, Own.Align, Run.Syms);
        const std::vector<int64_t> RO = possibleResidues(
            Other, E.Active, Run.Regions[*E.PartnerRegion].Align, Run.Syms);
        const LaneInts CM = Mine.laneConstants();
        bool Modelled = !Mine.overflowed() && Mine.hasUniformSymbolicPart(E.Active) &&
                        !RM.empty() && !RO.empty();
        // This side's count at each of its alignments must not depend on
        // where the other side lands (a shared array the compiler places
        // 16-byte aligned can shift a quarter's chunks across a slot).
        bool Invariant = RM.size() * RO.size() <= 1024;
        for (int64_t A : RM) {
          std::optional<std::pair<unsigned, unsigned>> First;
          for (int64_t B : RO) {
            if (!Modelled || !Invariant)
              break;
            LaneInts G{}, Sh{};
            for (unsigned L = 0; L < WarpSize; ++L) {
              const int64_t Me = A + CM[L], Them = B + Instr->Partner[L];
              (MineGlobal ? G : Sh)[L] = Me;
              (MineGlobal ? Sh : G)[L] = Them;
            }
            Modelled = bypassModelled(G, Sh, E.Active);
            std::pair<unsigned, unsigned> Count;
            if (MineGlobal) {
              const SectorCount C = countAsyncCopySectors(G, Sh, E.Active, E.Width, true);
              Count = {C.Sectors, C.Ideal};
            } else {
              const BankCount C = countAsyncCopyWavefronts(G, Sh, E.Active, E.Width, true);
              Count = {C.Wavefronts, C.Ideal};
            }
            if (First && *First != Count)
              Invariant = false;
            First = Count;
          }
        }
        if (!Modelled || !Invariant) {
          if (S.UnknownWhy.empty())
            S.UnknownWhy = Modelled ? makeReason(ReasonKind::BypassAlignment,
                                                 {MineGlobal ? "shared" : "global"})
                                    : makeReason(ReasonKind::BypassUnmodelled);
          S.SumW += E.Weight;
          return;
        }
        for (int64_t &C : Instr->Partner)
          C += RO.front();
      }
    }
    // An asynchronous copy's shared side costs what its global side's
    // lanes make it: not re-costed under another layout.
    if (E.Instr == InstrKind::Wgmma && S.LayoutOk) {
      S.LayoutOk = false;
      S.LayoutWhyNot = "wgmma reads it through descriptors, at a count no layout changes";
    }
    if (E.Instr != InstrKind::Matrix && E.Instr != InstrKind::Wgmma && S.LayoutOk) {
      S.LayoutOk = false;
      S.LayoutWhyNot = "an asynchronous copy writes it (its cost under another layout depends "
                       "on the global side, which the search does not re-cost)";
    }
  }
  if (!Addr.hasUniformSymbolicPart(E.Active)) {
    if (S.UnknownWhy.empty() && !Instr && recordParametric(S, E, Addr))
      return;
    if (S.UnknownWhy.empty()) {
      std::vector<SymbolId> Vary = Addr.laneVaryingSymbols(E.Active);
      S.UnknownWhy = makeReason(ReasonKind::LaneDistanceSymbolic,
                                {symbolNames(Vary, Run.Syms), Vary.size() == 1 ? "is" : "are"});
      S.UnknownWhy.Settle = assumeFactsFor(Vary, Run.Syms);
      // The subject is a symbol the user's code names (a parameter, a
      // stated fact's value), not one spelled as a phrase (a loop's
      // iteration).
      if (!Vary.empty()) {
        const SymbolInfo &First = Run.Syms.get(Vary.front());
        if (!First.Source.empty())
          S.UnknownWhy.Subject = First.Source;
        else if (First.Spelling.empty())
          S.UnknownWhy.Subject = First.Name;
      }
    }
    S.SumW += E.Weight;
    return;
  }
  // An atomic on shared memory: its own rule (model/Instructions.h), or
  // unknown where it is not measured.
  if (!Instr && E.Space == MemorySpace::Shared && E.Op == AccessOp::Atomic) {
    std::string Why;
    if (E.Width != 4 || (!E.AccessType.isNull() && E.AccessType->isRealFloatingType()))
      Why = "a " + std::to_string(E.Width * 8) + "-bit " +
            (!E.AccessType.isNull() && E.AccessType->isRealFloatingType() ? "floating-point "
                                                                           : "") +
            "atomic there is a compare-and-swap loop (ATOMS.CAST.SPIN, measured on an H100: an "
            "LDS and twice a store's wavefronts for each try), whose tries depend on the other "
            "lanes' and warps'";
    else if (!Addr.hasUniformSymbolicPart(E.Active))
      Why = "its lanes are spread by an amount the analysis does not know";
    else {
      const LaneInts C = Addr.laneConstants();
      const unsigned F = firstLane(E.Active);
      for (unsigned L = 0; L < WarpSize && Why.empty(); ++L)
        if (laneActive(E.Active, L) && floorMod(C[L] - C[F], 4) != 0)
          Why = "its lanes' words are not 4-byte aligned alike";
      if (Why.empty())
        Why = countSharedAtomicWavefronts(C, E.Active).Unknown;
    }
    if (!Why.empty()) {
      if (S.UnknownWhy.empty())
        S.UnknownWhy = makeReason(ReasonKind::SharedAtomicUnmeasured, {Why});
      S.SumW += E.Weight;
      return;
    }
    Instr.emplace();
    Instr->Kind = InstrKind::SharedAtomic;
  }
  std::string Key = memoKey("cost", E.Space, Addr, E.Active, E.Width, Rg.Align);
  if (Instr) {
    Key += "|instr:" + std::to_string(int(Instr->Kind)) + ":" + std::to_string(Instr->Matrices);
    Key += ":" + std::to_string(floorMod(Instr->Partner[0], 128));
    for (int64_t C : Instr->Partner)
      Key += ":" + std::to_string(C - Instr->Partner[0]);
  }
  auto Memo = CostMemos.find(Key);
  if (Memo == CostMemos.end()) {
    CostMemo M;
    M.C = requestCost(E.Space, Addr, E.Active, E.Width, Rg.Align, Run.Syms, &M.Lines,
                      &M.Pattern, Instr ? &*Instr : nullptr);
    Memo = CostMemos.emplace(std::move(Key), std::move(M)).first;
  }
  const LanePattern &P = Memo->second.Pattern;
  const Cost &C = Memo->second.C;
  addRequest(S, Memo->second, E, Instr.has_value(), [&] {
    double Before = 0;
    for (int64_t D : E.Chance->Members)
      Before += requestCost(E.Space, Addr + Poly::constant(D), E.Active, E.Width, Rg.Align,
                            Run.Syms)
                    .Value;
    const double After = requestCost(E.Space, Addr + Poly::constant(E.Chance->Start), E.Active,
                                     E.Chance->Width, Rg.Align, Run.Syms)
                             .Value;
    return std::make_pair(Before, After);
  }, Again);
  // A copy of this request moved by a multiple of 128 bytes costs the same
  // and changes nothing below (the notes are kept once, the pattern kept is
  // one of as many lanes and as much weight): recordAgain() adds it. Not
  // the requests kept by address for the layout search, nor those of an
  // instruction with its own rule.
  if (Again && !Instr &&
      !(spaceModel(E.Space).PaddingFix && S.ArrayDecl && S.LayoutOk)) {
    Again->S = &S;
    Again->M = &Memo->second;
  }
  if (!C.Exact) {
    std::optional<Assumption> Note = alignmentNote(Addr, E.Active, E.Space, Rg);
    if (Note &&
        std::find(S.AlignmentNotes.begin(), S.AlignmentNotes.end(), *Note) ==
            S.AlignmentNotes.end())
      S.AlignmentNotes.push_back(*Note);
  } else if (Rg.AlignNote && spaceModel(E.Space).StatesBaseAlignment) {
    addAssumption(S, *Rg.AlignNote);
  }
  // Kept by address for the layout search (layoutSearch()).
  if (spaceModel(E.Space).PaddingFix && S.ArrayDecl && S.LayoutOk) {
    // By a hash of the request; equal hashes are compared in full.
    const uint64_t H = hashRequest(E.Offset, E.Active, E.Width, E.Matrices);
    std::vector<Stats::LayoutRequest> &Bucket = S.LayoutRequests[H];
    auto Same = std::find_if(Bucket.begin(), Bucket.end(), [&](const Stats::LayoutRequest &Q) {
      return Q.Active == E.Active && Q.Width == E.Width && Q.Offset == E.Offset &&
             (!Q.Instr || Q.Instr->Matrices == E.Matrices);
    });
    if (Same == Bucket.end()) {
      Stats::LayoutRequest Q;
      Q.Offset = E.Offset;
      if (E.ArrayDecl == S.ArrayDecl) {
        Q.Subscripts = E.Subscripts;
        Q.RowLength = E.RowLength;
      }
      Q.Active = E.Active;
      Q.Width = E.Width;
      if (Instr)
        Q.Instr = *Instr;
      Bucket.push_back(std::move(Q));
      Same = std::prev(Bucket.end());
      ++S.LayoutRequestCount;
    }
    Same->Weight += E.Weight;
    if (S.LayoutRequestCount > MaxLayoutRequests) {
      S.LayoutOk = false;
      S.LayoutWhyNot = "it makes more than " + std::to_string(MaxLayoutRequests) +
                       " distinct requests in one launch";
      S.LayoutRequests.clear();
    }
  }
  // The same lanes at the same distances, at another offset from the
  // sectors (another row of a tile, another block): the alignment varies
  // (in a space whose cost depends on it).
  if (S.Pattern && periodOf(E.Space) > 1 && S.Pattern->Active == P.Active &&
      S.Pattern->Offset == P.Offset &&
      floorMod(S.Pattern->BaseResidue, 32) != floorMod(P.BaseResidue, 32))
    S.Sum.noteAlignmentVaries();
  // The representative request: the most lanes, and of those the one that
  // stands for most blocks (an interior part of the grid, not an edge).
  if (popcount(E.Active) > S.PatternLanes ||
      (popcount(E.Active) == S.PatternLanes && E.Weight > S.PatternWeight)) {
    S.PatternLanes = popcount(E.Active);
    S.PatternWeight = E.Weight;
    S.Pattern = P;
  }
}

std::optional<Assumption> AccessAggregator::alignmentNote(const Poly &Addr, LaneMask Active,
                                                          MemorySpace Space,
                                                          const MemRegion &Rg) const {
  ResidueDistribution D =
      residuesOf(Addr.symbolicPart(firstLane(Active)), 0, periodOf(Space), Run.Syms);
  if (!D.UnknownSymbols.empty())
    return makeAssumption(AssumptionKind::AlignmentOfSymbols,
                          {symbolNames(D.UnknownSymbols, Run.Syms),
                           D.UnknownSymbols.size() == 1 ? "keeps" : "keep",
                           std::to_string(periodOf(Space))});
  return Rg.AlignNote;
}

std::string AccessAggregator::memoKey(const char *What, MemorySpace Space, const Poly &Addr,
                                      LaneMask Active, unsigned Width, int64_t Align) const {
  const unsigned F = firstLane(Active);
  const int64_t First = F < WarpSize ? Addr.laneConstants()[F] : 0;
  const int64_t Shift = floorDiv(First, 128) * 128;
  const Poly Moved = Shift ? Addr - Poly::constant(Shift) : Addr;
  // Written without temporaries: a key is made for every request.
  std::string K = What;
  char Buf[24];
  auto Num = [&](int64_t V, char Sep) {
    auto R = std::to_chars(Buf, Buf + sizeof Buf, V);
    K.append(Buf, R.ptr);
    K += Sep;
  };
  K += '|';
  Num(static_cast<int>(Space), '|');
  Num(static_cast<int64_t>(Active), '|');
  Num(Width, '|');
  Num(Align, '|');
  K += Moved.key();
  // What the cost reads of each symbol (a loop's iteration symbol may get
  // another trip count in a later warp).
  for (SymbolId Id : Addr.symbols()) {
    const SymbolInfo &I = Run.Syms.get(Id);
    K += '|';
    Num(Id, ':');
    Num(static_cast<int>(I.Kind), ':');
    Num(I.UniformRange, ':');
    Num(I.RangeStart, ':');
    Num(I.NonNegative, ':');
    Num(I.Step, ':');
    Num(I.Offset, ':');
    K += std::to_string(I.Min);
  }
  return K;
}

bool AccessAggregator::recordParametric(Stats &S, const AccessEvent &E, const Poly &Exact) {
  // The lanes are spread by one kernel parameter: the cost as a function of
  // it (model/Parametric.h). The table is periodic in 128 bytes in every
  // term: the unrolled rows of a tile (`(row + 32 * i) * cols`) and the warps
  // of a block share one table.
  const Poly Addr = Exact.reducedModulo(128, E.Active);
  const std::vector<SymbolId> Vary = Addr.laneVaryingSymbols(E.Active);
  if (Vary.size() != 1 || !isFreeSize(Run.Syms.get(Vary[0])) ||
      (S.ParamW > 0 && S.ParamSym != Vary[0]))
    return false;
  const MemRegion &Rg = Run.Regions[*E.Region];
  const std::string Key =
      memoKey("param", E.Space, Addr, E.Active, E.Width, Rg.Align) + '|' +
      std::to_string(Vary[0]) + '|' + std::to_string(Run.Syms.get(Vary[0]).Min);
  auto Memo = ParamMemos.find(Key);
  if (Memo == ParamMemos.end()) {
    ParamMemo M;
    M.Table = parametricTable(
        Addr, E.Active, E.Width, Vary[0], Run.Syms.get(Vary[0]).Min, periodOf(E.Space),
        [&](const Poly &At) {
          Cost C = requestCost(E.Space, At, E.Active, E.Width, Rg.Align, Run.Syms);
          // A size whose cost rests on an alignment: what it rests on is
          // the same for every size (the size itself is a number here).
          if (!C.Exact && !M.AlignmentNote)
            M.AlignmentNote = alignmentNote(At, E.Active, E.Space, Rg);
          return CostPoint{C.Value, C.Ideal, C.Exact, true, C.Min, C.Max};
        },
        M.Why);
    Memo = ParamMemos.emplace(Key, std::move(M)).first;
  }
  const std::optional<ParamTable> &T = Memo->second.Table;
  if (!T)
    return false;
  if (const std::optional<Assumption> &Note = Memo->second.AlignmentNote;
      Note && std::find(S.ParamAlignmentNotes.begin(), S.ParamAlignmentNotes.end(), *Note) ==
                  S.ParamAlignmentNotes.end())
    S.ParamAlignmentNotes.push_back(*Note);
  if (S.ParamW == 0)
    S.Param.Period = 0; // empty
  accumulate(S.Param, *T, E.Weight);
  S.ParamSym = Vary[0];
  S.ParamW += E.Weight;
  S.SumW += E.Weight;
  if (Rg.AlignNote && spaceModel(E.Space).StatesBaseAlignment)
    addAssumption(S, *Rg.AlignNote);
  return true;
}

void AccessAggregator::finishParametric(const Stats &S, AccessRecord &Rec) const {
  ParamTable T = S.Param;
  if (S.SumW > S.ParamW) // requests that do not depend on the size
    accumulateConstant(T, {S.Sum.costSum(), S.Sum.idealSum(), S.Sum.exact(), true,
                           S.Sum.minSum(), S.Sum.maxSum()},
                       1.0);
  scaleTable(T, S.SumW);
  const SymbolInfo &I = Run.Syms.get(S.ParamSym);
  ParametricCost P = summarize(T, I.Source.empty() ? I.Name : I.Source, I.Step, I.Offset);
  if (I.QuotientOf) {
    const SymbolInfo &Of = Run.Syms.get(*I.QuotientOf);
    P.Stated = Of.Source.empty() ? Of.Name : Of.Source;
  }
  const ParamCase &Head = P.Cases.front();
  // One case for every value the facts allow: a plain number.
  const bool OneCase = P.Cases.size() == 1 && Head.When.Min == I.Step * I.Min + I.Offset;
  if (OneCase)
    Rec.Assumptions.push_back(makeAssumption(AssumptionKind::SameForEverySize, {Head.Text}));
  const CostPoint HeadCost = Head.Cost;
  Answer A = OneCase ? (HeadCost.Exact ? Answer::exact(HeadCost.Cost, HeadCost.Ideal)
                                       : Answer::overAlignments(HeadCost.Cost, HeadCost.Ideal,
                                                                {HeadCost.Min, HeadCost.Max}))
                     : Answer::parametric(std::move(P));
  A.withRequests({HeadCost.Cost, HeadCost.Cost}, S.Sum.alignmentVaries());
  Rec.Ans = std::move(A);
}

std::vector<Assumption> AccessAggregator::alignmentNotes(const Stats &S) {
  std::vector<Assumption> Notes = S.ParamAlignmentNotes;
  for (const Assumption &N : S.AlignmentNotes)
    if (std::find(Notes.begin(), Notes.end(), N) == Notes.end())
      Notes.push_back(N);
  return Notes;
}

void AccessAggregator::poison(const std::string &Why) {
  for (auto &KV : ByKey)
    KV.second.UnknownWhy = makeReason(ReasonKind::BudgetExceeded, {Why});
}

std::vector<AccessRecord> AccessAggregator::finish(const std::string &KernelName,
                                                   unsigned Warps) {
  std::vector<const Stats *> Order;
  for (auto &KV : ByKey)
    Order.push_back(&KV.second);
  std::sort(Order.begin(), Order.end(),
            [](const Stats *A, const Stats *B) { return A->Order < B->Order; });
  ASTContext &Ctx = Run.Ctx;
  std::vector<AccessRecord> Out;
  for (const Stats *S : Order) {
    AccessRecord Rec;
    const Expr *At = S->ReportAt ? S->ReportAt : S->Site;
    Rec.Pos = sourcePos(Ctx, At->getBeginLoc(), At->getEndLoc());
    Rec.Witness = S->WitnessCorrected    ? Witnessed::Corrected
                  : S->WitnessSourceOnly ? Witnessed::SourceOnly
                                         : Witnessed::Confirmed;
    Rec.WitnessNote = S->WitnessNote;
    if (S->Chance && !S->ChanceMissing && S->ChanceW > 0 && S->UnknownWhy.empty() &&
        S->ChanceAfter < S->ChanceBefore) {
      AccessRecord::VectorChance C;
      C.Width = S->Chance->Width;
      C.Accesses = static_cast<unsigned>(S->Chance->Members.size());
      C.FirstLine = S->Chance->FirstLine;
      C.LastLine = S->Chance->LastLine;
      C.Emitted = S->Chance->Emitted;
      C.Pointer = S->Chance->Pointer;
      C.PointerType = S->Chance->PointerType;
      C.ProvenAlign = S->Chance->ProvenAlign;
      C.SectorsBefore = S->ChanceBefore / S->ChanceW;
      C.SectorsAfter = S->ChanceAfter / S->ChanceW;
      Rec.Chance = C;
    }
    if (S->ReportLine && S->ReportLine != Rec.Pos.Line)
      moveToLine(Ctx, At->getBeginLoc(), S->ReportLine, Rec.Pos);
    if (S->BlameAt)
      Rec.Blame = AccessRecord::CallerBlame{
          sourcePos(Ctx, S->BlameAt->getBeginLoc(), S->BlameAt->getEndLoc()), S->BlameHelper};
    Rec.Kernel = KernelName;
    Rec.Context = S->ContextText;
    Rec.Launch = Run.Launch.Config;
    Rec.Space = S->Space;
    Rec.Op = S->Op;
    Rec.Expression = exprText(Ctx, At);
    Rec.Array = S->Region ? Run.Regions[*S->Region].Name : "";
    if (Rec.Array.empty())
      Rec.Array = Rec.Expression;
    QualType T = S->Type.getCanonicalType().getNonReferenceType();
    Rec.ElementType = S->Type.getNonReferenceType().getUnqualifiedType().getAsString(
        PrintingPolicy(Ctx.getLangOpts()));
    Rec.BytesPerLane = S->Width;
    Rec.InstructionsPerAccess = S->Chunks;
    Rec.Instruction = S->Instruction;
    (void)T;
    Rec.Because = S->Because;
    Rec.Contract = S->Contract;
    Rec.StructSize = S->StructSize;
    Rec.Assumptions = S->Assumptions;
    Rec.RequestsKnown = S->RequestsKnown;
    Rec.RequestsWhy = S->RequestsWhy;
    Rec.RequestsPerWarp = Warps ? S->SumW / Warps : 0;
    // SumW counts the requests of one block (blocks of different kinds
    // weighted by their share of the grid).
    const std::optional<Dim3> &Grid = Rec.Launch.Grid;
    if (Grid && Rec.Launch.BlockKnown && S->RequestsKnown && S->UnknownWhy.empty()) {
      AccessRecord::LaunchTotal T;
      T.Grid = *Grid;
      T.Sites = Rec.Launch.Sites;
      T.Requests = S->SumW * double(Grid->X) * double(Grid->Y) * double(Grid->Z);
      Rec.LaunchTotals.push_back(T);
    }
    // An access ptxas may merge with an adjacent one (interp/models/SharedMerges.cpp).
    const Reason *Why = S->UnknownWhy.empty() ? nullptr : &S->UnknownWhy;
    if (!Why) {
      auto M = Run.Mergeable.find({S->Site, S->Op});
      if (M == Run.Mergeable.end())
        M = Run.Mergeable.find({S->Site->IgnoreParenImpCasts(), S->Op});
      if (M != Run.Mergeable.end())
        Why = &M->second;
    }
    if (Why) {
      // nvcc issues no instruction for a load it reuses or a value it
      // forwards: no number, and no unknown either.
      const bool Reused =
          Why->Kind == ReasonKind::LoadReused || Why->Kind == ReasonKind::LoadForwarded ||
          Why->Kind == ReasonKind::NotEmitted || Why->Kind == ReasonKind::MergedInto;
      Rec.Ans = Reused ? Answer::noInstruction(*Why) : Answer::unknown(*Why);
      Rec.LaunchTotals.clear();
      Out.push_back(std::move(Rec));
      continue;
    }
    Rec.Pattern = S->Pattern;
    if (S->ParamW > 0) {
      finishParametric(*S, Rec);
      // The launch's sectors depend on the size the answer is given for:
      // no total without its condition.
      Rec.LaunchTotals.clear();
    } else if (S->Counted && S->Uncounted &&
               (!sameCost(S->CostLo, S->CostHi) || !sameCost(S->IdealLo, S->IdealHi))) {
      // Some warps' requests are counted (a loop walked iteration by
      // iteration), others' stand for one iteration of a loop whose trip
      // count is not known (a symbolic walk), at different costs: the
      // average would weigh a count against an iteration.
      Rec.Ans = Answer::unknown(makeReason(
          ReasonKind::UncountedRequests,
          {S->UncountedWhy, formatNumber(S->CostLo), formatNumber(S->CostHi),
           costUnits(S->Space)}));
      Rec.LaunchTotals.clear();
      Out.push_back(std::move(Rec));
      continue;
    } else {
      Rec.Ans = S->Sum.answer(S->SumW);
    }
    for (AccessRecord::LaunchTotal &T : Rec.LaunchTotals)
      T.Units = Rec.Ans.cost() * T.Requests;
    // The assumption the alignment-dependent cost rests on, and what it
    // would be otherwise: over the alignments of the cost stated (for a
    // parametric cost, its first case's).
    if (const std::optional<CostSpan> &Range = Rec.Ans.alignmentRange())
      for (const Assumption &N : alignmentNotes(*S))
        Rec.Assumptions.push_back(
            {N.Kind, N.Text + "; otherwise " + formatNumber(Range->Min) + " to " +
                         formatNumber(Range->Max) + " " + costUnits(S->Space)});
    if (!S->MaskWhy.empty()) {
      Reason Masked = S->MaskWhy;
      Masked.Text += "; with all lanes active it would be " + formatNumber(Rec.Ans.cost()) +
                     " " + costPerRequest(S->Space);
      Rec.Ans = Answer::unknownLanes(std::move(Masked), Rec.Ans);
    }
    Out.push_back(std::move(Rec));
  }
  layoutSearch(Order, Out);
  return Out;
}

void AccessAggregator::layoutSearch(const std::vector<const Stats *> &Order,
                                    std::vector<AccessRecord> &Out) {
  std::map<const VarDecl *, std::vector<size_t>> ByArray;
  for (size_t I = 0; I < Order.size(); ++I)
    if (spaceModel(Order[I]->Space).PaddingFix && Order[I]->ArrayDecl)
      ByArray[Order[I]->ArrayDecl].push_back(I);
  for (auto &KV : ByArray) {
    // A one-dimensional array is seen as rows of the K every access's
    // index is written with (`row * K + column`), if there is one.
    int64_t RowLength = 0;
    std::string OneDimWhy;
    const auto *CAT = Run.Ctx.getAsConstantArrayType(KV.first->getType());
    if (CAT && !Run.Ctx.getAsConstantArrayType(CAT->getElementType())) {
      for (size_t I : KV.second)
        for (const auto &RQ : Order[I]->LayoutRequests)
          for (const Stats::LayoutRequest &Q : RQ.second)
            if (!RowLength && Q.RowLength > 0)
              RowLength = Q.RowLength;
      for (size_t I : KV.second)
        for (const auto &RQ : Order[I]->LayoutRequests)
          for (const Stats::LayoutRequest &Q : RQ.second)
            if (OneDimWhy.empty() && Q.RowLength != RowLength)
              OneDimWhy = std::string("the ") + opName(Order[I]->Op) + " at line " +
                          std::to_string(Out[I].Pos.Line) +
                          (Q.RowLength <= 0 ? " is not written `row * K + column`"
                                            : " has rows of another length");
      if (!RowLength)
        continue; // no row in sight: a one-dimensional buffer
    }
    std::shared_ptr<const ArrayEditPlan> Plan =
        planLayoutEdits(Run.Ctx, KV.first, Run.Kernel, RowLength);
    if (!Plan)
      continue;
    auto Search = std::make_shared<LayoutSearch>();
    Search->Plan = Plan;
    unsigned MaxWidth = 0;
    for (size_t I : KV.second) {
      const Stats *S = Order[I];
      // The access's file is named when it is not the array's (a header's
      // helper): a bare line number would point into the wrong file.
      const std::string Which =
          std::string("the ") + opName(S->Op) + " at line " + std::to_string(Out[I].Pos.Line) +
          (Out[I].Pos.File != Plan->DeclPos.File ? " of " + Out[I].Pos.File : "");
      if (Search->WhyNot.empty() && !OneDimWhy.empty())
        Search->WhyNot = "it has one dimension, and " + OneDimWhy;
      if (Search->WhyNot.empty()) {
        if (!S->UnknownWhy.empty() || !S->MaskWhy.empty() ||
            Out[I].verdict() == Verdict::Unknown)
          Search->WhyNot = Which + " has no known cost";
        else if (S->ParamW > 0)
          Search->WhyNot = Which + " costs what a run-time size makes it";
        else if (!S->LayoutOk)
          Search->WhyNot = Which + ": " + S->LayoutWhyNot;
      }
      MaxWidth = std::max(MaxWidth, S->Width);
    }
    // An array with no conflict in this launch is not re-costed here (the
    // costly part): if another launch of it has one, the choice offers no
    // layout (LayoutSearch::NotSearched), since this launch's accesses could
    // get dearer.
    // (Unless it makes few distinct requests: then re-costing is cheap.)
    bool AnyConflict = false;
    size_t Requests = 0;
    for (size_t I : KV.second) {
      AnyConflict |= Out[I].verdict() == Verdict::BankConflict;
      Requests += Order[I]->LayoutRequestCount;
    }
    if (!AnyConflict && Requests > MaxQuietLayoutRequests && Search->WhyNot.empty())
      Search->NotSearched = true;
    else if (Search->WhyNot.empty())
      Search->Candidates = layoutCandidates(Plan->Shape, MaxWidth, /*Unpad=*/!Plan->RowLength);
    Search->NeedsCompile.assign(Search->Candidates.size(), false);
    std::vector<std::vector<double>> Costs(KV.second.size(),
                                           std::vector<double>(Search->Candidates.size(), NAN));
    // An array without a conflict in this launch is still re-costed: a
    // layout chosen for another launch must not make this one worse.
    // Accesses at their ideal first: they are the ones a layout can only
    // make worse, which rules it out at once.
    std::vector<size_t> Visit(KV.second.size());
    for (size_t J = 0; J < Visit.size(); ++J)
      Visit[J] = J;
    std::stable_sort(Visit.begin(), Visit.end(), [&](size_t A, size_t B) {
      return (Out[KV.second[A]].verdict() == Verdict::Ok) >
             (Out[KV.second[B]].verdict() == Verdict::Ok);
    });
    // Accesses that nvcc merges into one wider instruction (the compiler
    // model, interp/CompilerModel.h: a row of a register tile read as one
    // LDS.128) stay merged under a padding that keeps their alignment. Under
    // a swizzle they stay merged only where the edit writes their column as
    // `(b ^ bits) + i`, i taking adjacent values inside one unit
    // (swizzleSplit()); `(b + i) ^ bits` hides the contiguity from nvcc,
    // which then emits narrower loads (tools/probes/swizzled_tile_reads).
    // The uses each merged access is made of, for that check.
    std::vector<std::vector<const ArrayEditPlan::Use *>> MergedUses;
    const SourceManager &SM = Run.Ctx.getSourceManager();
    for (size_t I : KV.second) {
      const Stats *S = Order[I];
      if (S->Type.isNull() || S->Type->isIncompleteType() || S->Type->isDependentType() ||
          S->Width <= Run.Ctx.getTypeSizeInChars(S->Type).getQuantity() * S->Chunks)
        continue;
      MergedUses.emplace_back();
      if (!S->Site)
        continue;
      const SourceRange Range(SM.getFileLoc(S->Site->getBeginLoc()),
                              SM.getFileLoc(S->Site->getEndLoc()));
      for (const ArrayEditPlan::Use &U : Plan->Uses) {
        const SourcePos &At = Plan->RowLength ? U.IndexPos : U.ColPos;
        if (At.RawLoc && SM.isPointWithin(SourceLocation::getFromRawEncoding(
                                              static_cast<SourceLocation::UIntTy>(At.RawLoc)),
                                          Range.getBegin(), Range.getEnd()))
          MergedUses.back().push_back(&U);
      }
    }
    // (Costed with the merged widths, to be confirmed by a compile of the
    // edited code: LayoutSearch::NeedsCompile.)
    auto KeepsMerges = [&](const SharedLayout &L) {
      if (L.K != SharedLayout::Swizzle || MergedUses.empty())
        return true;
      if (L.UnitBytes % Plan->Shape.ElemSize != 0)
        return false;
      const int64_t UnitElems = L.UnitBytes / Plan->Shape.ElemSize;
      for (const auto &Uses : MergedUses) {
        if (Uses.empty())
          return false;
        for (const ArrayEditPlan::Use *U : Uses)
          if (!swizzleSplit(*U, UnitElems))
            return false;
      }
      return true;
    };
    for (size_t C = 0; C < Search->Candidates.size(); ++C) {
      const SharedLayout &L = Search->Candidates[C];
      if (!KeepsMerges(L))
        continue;
      // A layout without the rows' padding moves them to a wider alignment,
      // where nvcc may merge accesses it emits one by one today: compiled
      // too.
      Search->NeedsCompile[C] =
          L.K == SharedLayout::Swizzle && (!MergedUses.empty() || L.UnpadBytes != 0);
      for (size_t J : Visit) {
        const Stats *S = Order[KV.second[J]];
        const MemRegion &Rg = Run.Regions[*S->Region];
        double W = 0, Sum = 0;
        bool Ok = true;
        for (const auto &RQ : S->LayoutRequests) {
          for (const Stats::LayoutRequest &Q : RQ.second) {
            std::optional<Poly> Moved =
                Q.Subscripts.size() == Plan->Shape.Dims.size()
                    ? remapSubscripts(Q.Subscripts, Q.Offset, Q.Width, Q.Active, Plan->Shape, L)
                    : remapOffset(Q.Offset, Q.Width, Q.Active, Plan->Shape, L);
            if (!Moved) {
              Ok = false;
              break;
            }
            // Costs depend on the lanes' offsets modulo the banks' period:
            // remembered under the request moved by a multiple of it.
            const Poly At = (Rg.BaseOffset + *Moved).reducedModulo(BankPeriodBytes, Q.Active);
            const uint64_t H =
                hashRequest(At, Q.Active, Q.Width, Q.Instr ? Q.Instr->Matrices + 1 : 0);
            double Value = 0;
            auto &Seen = LayoutCostMemo[H];
            auto Hit = std::find_if(Seen.begin(), Seen.end(), [&](const LayoutMemo &M) {
              return M.Active == Q.Active && M.Width == Q.Width && M.Matrices ==
                     (Q.Instr ? int(Q.Instr->Matrices) : -1) && M.At == At;
            });
            if (Hit != Seen.end()) {
              Value = Hit->Value;
            } else {
              Value = requestCost(S->Space, At, Q.Active, Q.Width, Rg.Align, Run.Syms, nullptr,
                                  nullptr, Q.Instr ? &*Q.Instr : nullptr)
                          .Value;
              Seen.push_back({At, Q.Active, Q.Width, Q.Instr ? int(Q.Instr->Matrices) : -1, Value});
            }
            W += Q.Weight;
            Sum += Value * Q.Weight;
          }
          if (!Ok)
            break;
        }
        if (!Ok || W <= 0)
          break;
        Costs[J][C] = Sum / W;
        // Worse than today for this access: the layout is out.
        if (Answer::exceeds(Costs[J][C], S->Sum.costSum() / S->SumW))
          break;
      }
    }
    for (size_t J = 0; J < KV.second.size(); ++J) {
      AccessRecord &R = Out[KV.second[J]];
      R.Layouts = Search;
      R.LayoutCosts = std::move(Costs[J]);
    }
  }
}

} // namespace coalesce

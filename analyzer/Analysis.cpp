//===- Analysis.cpp - The analysis library's entry point ------------------===//

#include "Analysis.h"
#include "ast/AccessSites.h"
#include "ast/AstUtil.h"

#include "cost/Aggregate.h"
#include "cost/LayoutChoice.h"
#include "cost/ThreadSwap.h"
#include "ast/ThreadRoles.h"
#include "launch/Launches.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Mangle.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <set>

using namespace clang;

namespace coalesce {

namespace {

std::string factsKey(const LaunchFacts &F) {
  std::string K = F.Config.key();
  for (auto &KV : F.IntArgs)
    K += "|i" + std::to_string(reinterpret_cast<uintptr_t>(KV.first)) + "=" +
         std::to_string(KV.second);
  for (auto &KV : F.PtrOffsets)
    K += "|p" + std::to_string(reinterpret_cast<uintptr_t>(KV.first)) + "=" +
         std::to_string(KV.second);
  // Tensor maps: the encode call that made each (its arguments may differ
  // between two calls of one helper: each map is its own).
  for (auto &KV : F.TensorMaps)
    K += "|t" + std::to_string(reinterpret_cast<uintptr_t>(KV.first)) + "=" + tensorMapKey(KV.second);
  return K;
}

bool sameResults(const std::vector<AccessRecord> &A,
                 const std::vector<AccessRecord> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I) {
    const AccessRecord &X = A[I], &Y = B[I];
    if (X.Pos.RawLoc != Y.Pos.RawLoc || X.Op != Y.Op || X.Ans != Y.Ans ||
        X.Context != Y.Context || X.RequestsPerWarp != Y.RequestsPerWarp)
      return false;
    // The layouts tried must cost the same too: the fix chosen later has to
    // hold in both launches.
    if (X.LayoutCosts.size() != Y.LayoutCosts.size())
      return false;
    for (size_t C = 0; C < X.LayoutCosts.size(); ++C)
      if (std::isnan(X.LayoutCosts[C]) != std::isnan(Y.LayoutCosts[C]) ||
          (!std::isnan(X.LayoutCosts[C]) && !sameCost(X.LayoutCosts[C], Y.LayoutCosts[C])))
        return false;
  }
  return true;
}

/// After a budget ran out: every access of the kernel, each unknown for
/// "analysis budget exceeded (<What>)" (ReasonKind::BudgetExceeded, whose
/// argument What is the budget's own reason's text: BudgetExceeded::What).
/// The first walk may have stopped before reaching some of them, so a cheap
/// second walk (salvageLimits) lists them; if that one runs out too, the
/// accesses either walk reached.
std::vector<AccessRecord> salvage(ASTContext &Ctx, const KernelDef &K, const LaunchFacts &F,
                                  const InterpreterLimits &Limits, const std::string &What,
                                  AccessAggregator &Seen, KernelSummary &Sum) {
  Sum.BudgetExceeded = true;
  KernelRun Walk(Ctx, K.FD, F, salvageLimits(Limits));
  Walk.Salvage = What;
  AccessAggregator Listed(Walk);
  Walk.Sink = &Listed;
  try {
    interpretWarp(Walk, 0);
    return Listed.finish(K.Name, 1);
  } catch (const BudgetExceeded &) {
  }
  Seen.poison(What);
  std::vector<AccessRecord> Out = Listed.finish(K.Name, 1);
  for (AccessRecord &R : Seen.finish(K.Name, 1)) {
    bool Dup = false;
    for (const AccessRecord &O : Out)
      Dup |= O.Pos.RawLoc == R.Pos.RawLoc && O.Op == R.Op && O.Context == R.Context;
    if (!Dup)
      Out.push_back(std::move(R));
  }
  return Out;
}

/// A walk's events, kept until it is known whether the walk stands.
struct EventBuffer : EventSink {
  // A deque: a launch's events run to hundreds of thousands, and a vector
  // moved every one of them each time it grew.
  std::deque<AccessEvent> Events;
  /// The events of one walk standing for warps [From, To) of a block
  /// (walkWarps()), issued for each of those warps before Events[At].
  struct WarpRun {
    size_t At = 0;
    std::vector<AccessEvent> Events;
    std::optional<SymbolId> W; // the warp symbol; unset: no address reads it
    unsigned From = 0, To = 0;
  };
  std::vector<WarpRun> Runs; // by At
  CoverageLog Log;
  void record(const AccessEvent &E) override { Events.push_back(E); }
  void take(AccessEvent &&E) override { Events.push_back(std::move(E)); }
  /// Hands the events on, each standing for Share of the launch's blocks.
  void replay(EventSink &To, CoverageLog &ToLog, double Share) {
    auto *Agg = dynamic_cast<AccessAggregator *>(&To);
    size_t R = 0;
    for (size_t I = 0;; ++I) {
      for (; R < Runs.size() && Runs[R].At == I; ++R)
        replayRun(Runs[R], To, Agg, Share);
      if (I == Events.size())
        break;
      AccessEvent &E = Events[I];
      E.Weight *= Share;
      To.record(E);
    }
    ToLog.Visited.insert(Log.Visited.begin(), Log.Visited.end());
    ToLog.Reached.insert(Log.Reached.begin(), Log.Reached.end());
  }

private:
  /// Each warp's events, in the order a walk of each would issue them. A
  /// request of a later warp that is the first warp's moved by a multiple
  /// of 128 bytes on every lane costs what the first's did, and only its
  /// additions are made again (AccessAggregator::recordAgain()): the same
  /// sums, added in the same order.
  static void replayRun(WarpRun &Run, EventSink &To, AccessAggregator *Agg, double Share) {
    const size_t N = Run.Events.size();
    std::vector<char> Moves(N, 0);
    for (size_t I = 0; I < N; ++I) {
      AccessEvent &E = Run.Events[I];
      E.Weight *= Share;
      if (!E.UnknownWhy.empty() || !Run.W) {
        Moves[I] = 1;
        continue;
      }
      const std::optional<int64_t> Step = warpStep(E.Offset, *Run.W, E.Active);
      Moves[I] = Step && *Step % 128 == 0;
    }
    std::vector<AccessAggregator::Repeat> Again(N);
    for (unsigned Warp = Run.From; Warp < Run.To; ++Warp)
      for (size_t I = 0; I < N; ++I) {
        const AccessEvent &E = Run.Events[I];
        if (Agg && Warp > Run.From && Moves[I] && Again[I].S) {
          Agg->recordAgain(Again[I], E);
          continue;
        }
        const AccessEvent X = Run.W ? eventAtWarp(E, *Run.W, Warp) : E;
        if (Agg)
          Agg->record(X, Warp == Run.From ? &Again[I] : nullptr);
        else
          To.record(X);
      }
  }
};

/// Warps walked as one only when there are at least this many: the first
/// and the last are walked as they are too, to check the one walk.
constexpr unsigned MinAlikeWarps = 5;
/// A walk of several warps that asks for more cuts between them than this
/// is not split: its warps are walked one by one.
constexpr size_t MaxWarpRanges = 8;

/// Whether a launch's warps may be walked as one (KernelRun::SymbolicWarps):
/// a known block whose warps differ in one index only, warps formed as the
/// hardware forms them: a 1-D block of a multiple of 32 threads (warps
/// along x), or a 2-D block 32 threads wide (warps along y).
bool alikeWarpsApply(const KernelRun &Run) {
  const LaunchConfig &C = Run.Launch.Config;
  return Run.Limits.AlikeWarps && C.BlockKnown && !Run.WarpsYFirst && Run.Salvage.empty() &&
         C.Block.Z == 1 &&
         ((C.Block.Y == 1 && C.Block.X % 32 == 0) || (C.Block.X == 32 && C.Block.Y > 1));
}

void walkWarp(KernelRun &Run, unsigned W, EventBuffer &Out) {
  Run.Sink = &Out;
  Run.Coverage = &Out.Log;
  interpretWarp(Run, W);
}

void append(EventBuffer &Out, EventBuffer &&In) {
  assert(In.Runs.empty() && "a buffer of one warp's walk");
  for (AccessEvent &E : In.Events)
    Out.Events.push_back(std::move(E));
  Out.Log.Visited.insert(In.Log.Visited.begin(), In.Log.Visited.end());
  Out.Log.Reached.insert(In.Log.Reached.begin(), In.Log.Reached.end());
  Out.Log.InertCovered.insert(In.Log.InertCovered.begin(), In.Log.InertCovered.end());
}

bool sameLog(const CoverageLog &A, const CoverageLog &B) {
  return A.Visited == B.Visited && A.Reached == B.Reached;
}

/// Whether the walk of several warps (Sym, its warp symbol W) is, at warp
/// Warp, the walk of that warp (One).
bool walkIsWarp(const EventBuffer &Sym, std::optional<SymbolId> W, const EventBuffer &One,
                unsigned Warp) {
  if (Sym.Events.size() != One.Events.size() || !sameLog(Sym.Log, One.Log))
    return false;
  for (size_t I = 0; I < Sym.Events.size(); ++I)
    if (!sameEvent(W ? eventAtWarp(Sym.Events[I], *W, Warp) : Sym.Events[I], One.Events[I]))
      return false;
  return true;
}

/// Walks warps [Lo, Hi) of a block (for the blocks of Run.Blocks, when
/// set) into Out, with the events, coverage and block cuts (Run.Cuts) that
/// walking them one by one gives. Where Alike holds, the warps are walked
/// once as a whole (KernelRun::SymbolicWarps); that walk stands for them
/// when it ran to its end (a cut between blocks, too many cuts between
/// warps or a heuristic it cannot answer for every warp give it up:
/// WarpsNotAlike), left the state later warps read as a walk of one warp
/// leaves it, and is, at the first and the last warp, the walk of that
/// warp, event for event. (It is sound for every warp between: each
/// decision it took had one outcome over all of them, or it asked for a
/// cut.) A walk that asks for cuts between the warps is split there and
/// each part tried again. A walk that is not used clears Alike: the
/// kernel's other launches walk their warps one by one. The warps are
/// walked in the order that walking them one by one takes where what a
/// walk leaves for the next ones could differ.
void walkWarps(KernelRun &Run, unsigned Lo, unsigned Hi, EventBuffer &Out, bool &Alike) {
  if (!Alike || Hi - Lo < MinAlikeWarps) {
    for (unsigned W = Lo; W < Hi; ++W)
      walkWarp(Run, W, Out);
    return;
  }
  EventBuffer First, Last, Sym;
  try {
    walkWarp(Run, Lo, First);
  } catch (const BudgetExceeded &) {
    append(Out, std::move(First));
    throw;
  }
  // What a warp's walk leaves for the next ones to read: accesses that may
  // be merged, branches seen diverging (the compiler witness reads both).
  const auto MergeableFirst = Run.Mergeable;
  const auto TwinsFirst = Run.BranchTwins;
  try {
    walkWarp(Run, Hi - 1, Last);
  } catch (const BudgetExceeded &) {
    append(Out, std::move(First));
    append(Out, std::move(Last));
    throw;
  }
  const auto MergeableLast = Run.Mergeable;
  const std::set<std::string> StatedBefore = Run.StatedUsed;
  const auto TwinsAfterLast = Run.BranchTwins;
  // (Branch twins are only added, each the same whoever adds it.)
  const size_t TwinsLast = TwinsAfterLast.size();
  const std::vector<std::pair<int, int64_t>> CutsBefore = Run.Cuts;
  Run.Cuts.clear();
  Run.SymbolicWarps = {Lo, Hi};
  Run.WarpSymbol.reset();
  bool Ran = true;
  try {
    walkWarp(Run, Lo, Sym);
  } catch (const BudgetExceeded &) {
    Ran = false;
  } catch (const WarpsNotAlike &) {
    Ran = false;
  }
  const std::optional<SymbolId> W = Run.WarpSymbol;
  // The first warp's walk leaves what it found, and neither the last
  // warp's nor the walk of all changes it.
  const bool Exact = Ran && Run.Mergeable == MergeableLast && MergeableFirst == MergeableLast &&
                     Run.StatedUsed == StatedBefore && Run.BranchTwins.size() == TwinsLast &&
                     TwinsFirst.size() == TwinsLast;
  const std::vector<std::pair<int, int64_t>> SymCuts = Run.Cuts;
  Run.SymbolicWarps.reset();
  Run.WarpSymbol.reset();
  Run.Cuts = CutsBefore;
  Run.StatedUsed = StatedBefore;
  std::vector<int64_t> Between;
  bool BlockCut = false;
  for (const auto &[Axis, V] : SymCuts) {
    if (Axis != KernelRun::WarpAxis)
      BlockCut = true;
    else if (V > Lo && V < Hi)
      Between.push_back(V);
  }
  std::sort(Between.begin(), Between.end());
  Between.erase(std::unique(Between.begin(), Between.end()), Between.end());
  const bool Stands = Exact && !BlockCut && Between.empty() &&
                      walkIsWarp(Sym, W, First, Lo) && walkIsWarp(Sym, W, Last, Hi - 1);
  append(Out, std::move(First));
  // Back to what the first warp left: the warps between see that.
  Run.Mergeable = MergeableFirst;
  Run.BranchTwins = TwinsFirst;
  if (Stands) {
    if (Lo + 2 < Hi) {
      EventBuffer::WarpRun Run;
      Run.At = Out.Events.size();
      Run.Events.assign(std::make_move_iterator(Sym.Events.begin()),
                        std::make_move_iterator(Sym.Events.end()));
      Run.W = W;
      Run.From = Lo + 1;
      Run.To = Hi - 1;
      Out.Runs.push_back(std::move(Run));
    }
    append(Out, std::move(Last));
    return;
  }
  if (Ran && !BlockCut && !Between.empty() && Between.size() < MaxWarpRanges) {
    // Parts within which every decision has one outcome.
    Between.insert(Between.begin(), Lo + 1);
    Between.push_back(Hi - 1);
    for (size_t I = 0; I + 1 < Between.size(); ++I)
      if (Between[I] < Between[I + 1])
        walkWarps(Run, static_cast<unsigned>(Between[I]), static_cast<unsigned>(Between[I + 1]),
                  Out, Alike);
  } else {
    Alike = false;
    for (unsigned Warp = Lo + 1; Warp + 1 < Hi; ++Warp)
      walkWarp(Run, Warp, Out);
  }
  // The last warp's walk stands if it saw what it would see now, after
  // the warps between; else it is walked again.
  if (Run.Mergeable == MergeableFirst && Run.BranchTwins.size() == TwinsFirst.size()) {
    Run.Mergeable = MergeableLast;
    Run.BranchTwins = TwinsAfterLast;
    append(Out, std::move(Last));
  } else {
    walkWarp(Run, Hi - 1, Out);
  }
}

/// Walks every warp of a block, for the blocks of Box.
void walkBlocks(KernelRun &Run, const BlockBox &Box, unsigned Warps, EventBuffer &Out,
                bool &Alike) {
  Run.Blocks = Box;
  Run.Cuts.clear();
  walkWarps(Run, 0, Warps, Out, Alike);
}

/// Box cut at the values the last walk asked for (each strictly inside).
std::vector<BlockBox> cutBox(const BlockBox &Box, std::vector<std::pair<int, int64_t>> Cuts) {
  std::vector<int64_t> Points[3];
  for (int A = 0; A < 3; ++A)
    Points[A] = {Box.Lo[A], Box.Hi[A]};
  for (const auto &[A, V] : Cuts)
    if (V > Box.Lo[A] && V < Box.Hi[A])
      Points[A].push_back(V);
  for (std::vector<int64_t> &P : Points) {
    std::sort(P.begin(), P.end());
    P.erase(std::unique(P.begin(), P.end()), P.end());
  }
  std::vector<BlockBox> Out;
  for (size_t X = 0; X + 1 < Points[0].size(); ++X)
    for (size_t Y = 0; Y + 1 < Points[1].size(); ++Y)
      for (size_t Z = 0; Z + 1 < Points[2].size(); ++Z) {
        BlockBox B;
        B.Lo[0] = Points[0][X], B.Hi[0] = Points[0][X + 1];
        B.Lo[1] = Points[1][Y], B.Hi[1] = Points[1][Y + 1];
        B.Lo[2] = Points[2][Z], B.Hi[2] = Points[2][Z + 1];
        Out.push_back(B);
      }
  return Out;
}

/// At most this many walks over parts of a grid; past it, the launch keeps
/// the interior-warp figure of one walk over the whole grid.
constexpr size_t MaxBlockParts = 256;

/// A launch with a known grid and block: one walk stands for all blocks,
/// unless a comparison comes out differently in different blocks (a bounds
/// check against a known size cuts off the last block's last warp, a
/// `blockIdx.x == 0` branch): then the grid is walked again in parts within
/// which every such comparison has one outcome, and each part's requests
/// count for its share of the blocks. That is the average over every
/// request of the launch that Nsight Compute reports. Returns the number of
/// walks over parts (0: one walk sufficed, or the parts were given up).
unsigned walkLaunch(KernelRun &Run, const Dim3 &Grid, unsigned Warps, EventSink &To,
                    CoverageLog &Log, bool &Alike) {
  BlockBox Whole;
  Whole.Hi[0] = Grid.X, Whole.Hi[1] = Grid.Y, Whole.Hi[2] = Grid.Z;
  EventBuffer First;
  try {
    walkBlocks(Run, Whole, Warps, First, Alike);
  } catch (const BudgetExceeded &) {
    First.replay(To, Log, 1.0);
    throw;
  }
  if (Run.Cuts.empty()) {
    First.replay(To, Log, 1.0);
    return 0;
  }
  const uint64_t StepsBefore = Run.Steps;
  Run.Steps = 0;
  std::vector<BlockBox> Work = cutBox(Whole, Run.Cuts);
  std::vector<std::pair<BlockBox, EventBuffer>> Kept;
  unsigned Walks = 0;
  try {
    // Depth first, lowest blocks first: records come in the order the
    // first blocks reach them.
    std::reverse(Work.begin(), Work.end());
    while (!Work.empty() && Walks < MaxBlockParts) {
      const BlockBox B = Work.back();
      Work.pop_back();
      EventBuffer Buf;
      walkBlocks(Run, B, Warps, Buf, Alike);
      ++Walks;
      std::vector<BlockBox> Parts = cutBox(B, Run.Cuts);
      if (Parts.size() > 1)
        Work.insert(Work.end(), Parts.rbegin(), Parts.rend());
      else
        Kept.emplace_back(B, std::move(Buf));
    }
  } catch (const BudgetExceeded &) {
    Work.push_back(Whole); // given up
  }
  Run.Steps += StepsBefore;
  Run.Blocks.reset();
  if (!Work.empty()) {
    First.replay(To, Log, 1.0);
    return 0;
  }
  const double All = static_cast<double>(Whole.blocks());
  for (auto &[B, Buf] : Kept)
    Buf.replay(To, Log, static_cast<double>(B.blocks()) / All);
  return Walks;
}

/// Every access the source spells that the walk should have reached and did
/// not becomes an unknown event: the output never drops an access silently.
/// An access on a path no lane takes (a branch, code after a return) has no
/// record: no warp of the launch executes it.
void recordMissed(const KernelSites &Sites, const CoverageLog &Log,
                  ASTContext &Ctx, EventSink &Sink) {
  auto Visited = [&](const Stmt *S) { return Log.Visited.contains(S); };
  auto Reached = [&](const Expr *E) { return Log.Reached.contains(E); };
  const CoverageQuery Q{Visited, Reached};
  for (const AccessSite &S : Sites.sites()) {
    if (Log.Reached.contains(S.E))
      continue;
    std::string Why = Sites.missedWhy(S, Q);
    if (Why.empty())
      continue;
    AccessEvent E;
    E.Site = S.E;
    E.Op = S.Store ? AccessOp::Store : AccessOp::Load;
    E.Space = S.Space;
    E.AccessType = S.E->getType();
    if (!E.AccessType->isIncompleteType() && !E.AccessType->isDependentType())
      E.Width = static_cast<unsigned>(Ctx.getTypeSizeInChars(E.AccessType).getQuantity());
    E.Active = ~LaneMask(0);
    E.UnknownWhy = makeReason(ReasonKind::NotEvaluated, {Why});
    if (S.In != Sites.kernel())
      E.ContextText = "in '" + S.In->getNameAsString() + "'";
    E.ContextKey = "missed";
    Sink.record(E);
  }
}

/// "reduce6" for "ns::reduce6<float, 256U>": what --block=KERNEL=... matches.
std::string baseKernelName(const std::string &Name) {
  std::string S = Name.substr(0, Name.find('<'));
  const size_t Colons = S.rfind("::");
  return Colons == std::string::npos ? S : S.substr(Colons + 2);
}

/// The name nvcc gives the kernel's code in the cubin (Itanium mangling, as
/// clang's device-side compilation gives it).
std::string mangledName(ASTContext &Ctx, const FunctionDecl *FD) {
  std::unique_ptr<MangleContext> MC(Ctx.createMangleContext());
  if (!MC->shouldMangleDeclName(FD))
    return FD->getNameAsString();
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  MC->mangleName(GlobalDecl(FD), OS);
  return OS.str();
}

/// Files of the CUDA toolkit and the system: instructions there count on
/// the user's line that leads to them (witness::LineInventory).
bool systemFile(const std::string &File, void *) {
  llvm::StringRef F(File);
  return F.starts_with("/usr/include/") || F.starts_with("/usr/lib/") ||
         (F.contains("/targets/") && F.contains("/include/")) || F.contains("/cuda/include/") ||
         F.contains("/include/cuda/std/") || F.contains("/include/cccl/");
}

/// The instructions of the record's space and kind that nvcc emitted on its
/// line, and, for a record the source analysis alone decided though the
/// witness knows the kernel, that it did.
void attachEmitted(AccessRecord &R, const witness::LineInventory &Lines) {
  std::vector<const witness::SassInstruction *> Here;
  for (const witness::SassInstruction *I : Lines.at(R.Pos.File, R.Pos.Line))
    if (witness::serves(*I, R.Space, R.Op))
      Here.push_back(I);
  if (Here.empty())
    return;
  R.Emitted.push_back(witness::summarize(Here));
  for (const witness::SassInstruction *I : Here) {
    if (R.EmittedInstructions.size() == 16)
      break;
    R.EmittedInstructions.push_back((I->Predicated ? "@P " : "") + I->Text);
  }
}

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point T) {
  return std::chrono::duration<double>(Clock::now() - T).count();
}

/// What of the options the kernels' results depend on, for their reuse
/// keys (KernelReuse.h).
std::string optionsSalt(const AnalysisOptions &Opts) {
  std::string S = Opts.ReuseSalt;
  S += '\0' + Opts.BlockOption;
  for (const BlockChoice &B : Opts.Blocks)
    S += '\0' + B.Kernel + "=" + B.Block.str() + "=" + B.Spelling;
  for (const StatedFact &F : Opts.Facts)
    S += '\0' + F.str() + "|" + F.Spelling;
  const InterpreterLimits &L = Opts.Limits;
  S += '\0' + std::to_string(L.MaxSteps) + ':' + std::to_string(L.MaxConcreteIterations) + ':' +
       std::to_string(L.SummarizeLoops) + ':' + std::to_string(L.AlikeWarps) + ':' +
       std::to_string(L.CallMemo) + ':' +
       std::to_string(L.MaxCallDepth) + ':' +
       std::to_string(L.MaxExprDepth);
  return S;
}

} // namespace

TUReport analyzeTranslationUnit(ASTContext &Ctx, const AnalysisOptions &Opts,
                                const std::vector<ClangError> *Errors,
                                AnalysisTimes *Times) {
  TUReport Report;
  Clock::time_point Start = Clock::now();
  // Values stated for plain names also stand for host variables of those
  // names that the host code cannot know (sizes read from argv).
  std::map<std::string, int64_t> StatedValues;
  for (const StatedFact &F : Opts.Facts)
    if (F.K == StatedFact::Equals && F.Name.find('.') == std::string::npos)
      StatedValues.emplace(F.Name, F.Value);
  std::vector<KernelDef> Kernels = findKernels(Ctx, StatedValues);
  if (Times)
    Times->FindKernels = secondsSince(Start);
  CodeErrors ErrorsIn(Ctx, Errors);
  // What nvcc emitted, by kernel (the kernel and the device functions it
  // calls without inlining them).
  std::shared_ptr<const witness::SassModule> Sass = Opts.Witness ? Opts.Witness() : nullptr;
  std::map<std::string, std::unique_ptr<witness::SassFunction>> CodeOf;
  std::map<std::string, std::unique_ptr<witness::LineInventory>> LinesOf;
  // The results of kernels whose code and context did not change since the
  // last analysis of this document (KernelReuse.h): not with clang errors,
  // nor with the compiler witness (its instructions are not in the keys).
  const bool Reusing = Opts.Reuse && !Sass && Errors && Errors->empty();
  const std::vector<std::string> ReuseKeys =
      Reusing ? kernelReuseKeys(Ctx, Kernels, optionsSalt(Opts)) : std::vector<std::string>();
  for (size_t KI = 0; KI < Kernels.size(); ++KI) {
    const KernelDef &K = Kernels[KI];
    if (Opts.KernelProgress)
      Opts.KernelProgress(KI, Kernels.size(), K.Name);
    KernelTime Time;
    Time.Name = K.Name;
    if (Reusing)
      if (std::shared_ptr<const KernelReuse::Entry> E = Opts.Reuse->take(ReuseKeys[KI])) {
        Report.Accesses.insert(Report.Accesses.end(), E->Accesses.begin(), E->Accesses.end());
        Report.Notes.insert(Report.Notes.end(), E->Notes.begin(), E->Notes.end());
        Report.Problems.insert(Report.Problems.end(), E->Problems.begin(), E->Problems.end());
        Report.HostStated.insert(E->HostStated.begin(), E->HostStated.end());
        Report.Kernels.push_back(E->Summary);
        if (Times)
          Times->Kernels.push_back(Time);
        continue;
      }
    const size_t AccessesBefore = Report.Accesses.size(), NotesBefore = Report.Notes.size(),
                 ProblemsBefore = Report.Problems.size();
    std::set<std::string> KernelHostStated;
    KernelSummary Sum;
    Sum.Name = K.Name;
    Sum.Pos = sourcePos(Ctx, K.FD->getLocation());
    for (const ParmVarDecl *P : K.FD->parameters())
      Sum.Params.push_back(P->getNameAsString());
    if (std::optional<ErrorInCode> E = ErrorsIn.firstErrorIn(K.FD)) {
      Sum.NotAnalysed = E->Message;
      Sum.ErrorPos = E->Pos;
      if (E->Function != K.FD->getNameAsString())
        Sum.ErrorFunction = E->Function;
      Report.Kernels.push_back(Sum);
      if (Times)
        Times->Kernels.push_back(Time);
      continue;
    }

    // Distinct launch configurations, in source order. A launch whose block
    // shape is not known takes the user's choice for this kernel, if any.
    const BlockChoice *Choice = chooseBlock(Opts.Blocks, K.Name);
    const std::string Hint = Opts.BlockOption.substr(0, Opts.BlockOption.find('=')) + "=" +
                             baseKernelName(K.Name) + "=X,Y,Z";
    std::vector<LaunchFacts> Configs;
    std::vector<std::string> Keys;
    for (const KernelLaunch &L : K.Launches) {
      if (!L.Problem.empty())
        Report.Notes.push_back(L.Problem);
      LaunchFacts F = L.Facts;
      F.Config.BlockOption = Hint;
      if (!F.Config.BlockKnown && L.Problem.empty() && Choice) {
        F.Config.Block = Choice->Block;
        F.Config.BlockKnown = true;
        F.Config.Source = "--block";
        F.Config.BlockGivenBy = Choice->Spelling;
      }
      std::string Key = factsKey(F);
      auto It = std::find(Keys.begin(), Keys.end(), Key);
      if (It != Keys.end()) {
        Configs[It - Keys.begin()].Config.Sites.push_back(F.Config.Sites.front());
        continue;
      }
      Keys.push_back(Key);
      Configs.push_back(std::move(F));
    }
    if (Configs.empty()) {
      LaunchFacts F;
      F.Config.BlockOption = Opts.BlockOption;
      F.Config.BlockUnknown = makeReason(ReasonKind::NoLaunchInFile).Text;
      if (Choice) {
        F.Config.Block = Choice->Block;
        F.Config.BlockKnown = true;
        F.Config.Source = "--block";
        F.Config.BlockGivenBy = Choice->Spelling;
      } else {
        F.Config.Source = "assumed";
      }
      Configs.push_back(F);
    }

    std::vector<StatedFact> Stated = Opts.Facts;
    for (StatedFact &F : factsInComments(Ctx, K.FD, Report.Problems))
      Stated.push_back(std::move(F));
    // The facts stated by the user, after those the host code checks on the
    // way to the launch (Launches.cpp).
    for (LaunchFacts &F : Configs)
      F.Stated.insert(F.Stated.end(), Stated.begin(), Stated.end());

    const witness::LineInventory *Emitted = nullptr;
    if (Sass) {
      const std::string Mangled = mangledName(Ctx, K.FD);
      if (!LinesOf.count(Mangled)) {
        const witness::SassFunction *F = Sass->function(Mangled);
        if (F) {
          CodeOf[Mangled] = std::make_unique<witness::SassFunction>(witness::kernelCode(*Sass, *F));
          LinesOf[Mangled] =
              std::make_unique<witness::LineInventory>(*CodeOf[Mangled], systemFile, nullptr);
        } else {
          LinesOf[Mangled] = nullptr;
          Report.Notes.push_back("kernel '" + K.Name + "' at " + Sum.Pos.str() +
                                 ": nvcc's device code has no function " + Mangled +
                                 " (not instantiated there); its accesses are the source "
                                 "analysis alone");
        }
      }
      Emitted = LinesOf[Mangled].get();
    }

    Clock::time_point CostStart = Clock::now();
    const KernelSites Sites(Ctx, K.FD);
    Time.Costing += secondsSince(CostStart);
    Time.Configs = Configs.size();
    std::vector<std::vector<AccessRecord>> PerConfig;
    std::vector<size_t> GroupOf; // each configuration's group in PerConfig
    // Cleared when a walk of several warps as one was not used: the other
    // launches walk their warps one by one.
    bool KernelAlike = true;
    for (const LaunchFacts &F : Configs) {
      KernelRun Run(Ctx, K.FD, F, Opts.Limits);
      Run.Emitted = Emitted;
      AccessAggregator Agg(Run);
      Run.Sink = &Agg;
      CoverageLog Log;
      Run.Coverage = &Log;
      const std::optional<PartialWarps> Part =
          F.Config.partlyKnown()
              ? partialWarps(F.Config.KnownDims[0], F.Config.KnownDims[1], F.Config.KnownDims[2])
              : std::nullopt;
      const unsigned Warps = F.Config.BlockKnown ? warpsPerBlock(F.Config.Block)
                             : Part              ? warpsPerBlock(Part->Sub)
                                                 : 1;
      unsigned Done = 0;
      std::vector<AccessRecord> Recs;
      Clock::time_point WalkStart = Clock::now();
      try {
        bool Alike = KernelAlike && alikeWarpsApply(Run);
        if (F.Config.BlockKnown && F.Config.Grid) {
          Time.Warps += Warps * walkLaunch(Run, *F.Config.Grid, Warps, Agg, Log, Alike);
          Done = Warps;
        } else if (Alike) {
          EventBuffer Buf;
          try {
            walkWarps(Run, 0, Warps, Buf, Alike);
          } catch (const BudgetExceeded &) {
            Buf.replay(Agg, Log, 1.0);
            KernelAlike &= Alike;
            throw;
          }
          Buf.replay(Agg, Log, 1.0);
          Done = Warps;
        } else {
          for (unsigned W = 0; W < Warps; ++W, ++Done)
            interpretWarp(Run, W);
        }
        KernelAlike &= Alike;
        Time.Interpret += secondsSince(WalkStart);
        CostStart = Clock::now();
        recordMissed(Sites, Log, Ctx, Agg);
        Recs = Agg.finish(K.Name, Done);
        std::set<std::string> Used = Run.StatedUsed;
        Report.HostStated.insert(F.HostStated.begin(), F.HostStated.end());
        KernelHostStated.insert(F.HostStated.begin(), F.HostStated.end());
        for (const std::string &Name : F.HostStated)
          for (const StatedFact &SF : Opts.Facts)
            if (SF.K == StatedFact::Equals && SF.Name == Name)
              Used.insert(SF.Spelling.empty() ? SF.str() : SF.Spelling);
        for (const std::string &Given : Used)
          for (AccessRecord &R : Recs)
            R.Assumptions.push_back(makeAssumption(AssumptionKind::StatedFact, {Given}));
        Time.Costing += secondsSince(CostStart);
      } catch (const BudgetExceeded &B) {
        Recs = salvage(Ctx, K, F, Opts.Limits, B.What,
                       Agg, Sum);
        Time.Interpret += secondsSince(WalkStart);
      }
      Time.Warps += Done;
      Time.Walks += Run.Walks;
      CostStart = Clock::now();
      // A second launch whose predictions are identical to an earlier one's
      // with the same block shape is reported as one, with both sites.
      bool Merged = false;
      for (std::vector<AccessRecord> &Prev : PerConfig) {
        if (!Prev.empty() && !Recs.empty() &&
            Prev.front().Launch.Block == Recs.front().Launch.Block &&
            Prev.front().Launch.BlockKnown == Recs.front().Launch.BlockKnown &&
            sameResults(Prev, Recs)) {
          for (size_t I = 0; I < Prev.size(); ++I) {
            AccessRecord &P = Prev[I];
            for (const SourcePos &S : F.Config.Sites)
              P.Launch.Sites.push_back(S);
            if (P.Launch.Branches != F.Config.Branches)
              P.Launch.Branches.clear();
            for (AccessRecord::LaunchTotal &T : Recs[I].LaunchTotals) {
              auto Same = std::find_if(P.LaunchTotals.begin(), P.LaunchTotals.end(),
                                       [&](const AccessRecord::LaunchTotal &O) {
                                         return O.Grid == T.Grid;
                                       });
              if (Same != P.LaunchTotals.end())
                Same->Sites.insert(Same->Sites.end(), T.Sites.begin(), T.Sites.end());
              else
                P.LaunchTotals.push_back(std::move(T));
            }
          }
          GroupOf.push_back(static_cast<size_t>(&Prev - PerConfig.data()));
          Merged = true;
          break;
        }
      }
      if (!Merged) {
        GroupOf.push_back(PerConfig.size());
        PerConfig.push_back(std::move(Recs));
      }
      Time.Costing += secondsSince(CostStart);
    }
    // A 2-D block with a global access that costs more than its ideal:
    // every launch walked again with x and y exchanged (cost/ThreadSwap.h).
    if (!Sum.BudgetExceeded && GroupOf.size() == Configs.size()) {
      Clock::time_point SwapStart = Clock::now();
      bool Worth = false;
      for (size_t C = 0; C < Configs.size(); ++C)
        Worth |= swapWorthTrying(Configs[C].Config, PerConfig[GroupOf[C]]);
      if (Worth) {
        SwapFacts Facts;
        Facts.WarpSynchronous = warpSynchronousCode(Ctx, Sites);
        Facts.Assignments = assignmentPairs(Ctx, Sites);
        std::vector<std::pair<size_t, std::string>> Verdicts;
        for (size_t C = 0; C < Configs.size(); ++C) {
          const LaunchFacts &F = Configs[C];
          std::vector<AccessRecord> &Group = PerConfig[GroupOf[C]];
          if (!F.Config.BlockKnown) {
            Verdicts.push_back({GroupOf[C], "exchanging the roles of x and y is not shown to "
                                            "help: the block shape of a launch is not known"});
            continue;
          }
          KernelRun Swapped(Ctx, K.FD, F, Opts.Limits);
          Swapped.WarpsYFirst = true;
          Swapped.Emitted = Emitted;
          AccessAggregator SwAgg(Swapped);
          Swapped.Sink = &SwAgg;
          CoverageLog SwLog;
          Swapped.Coverage = &SwLog;
          const unsigned Warps = warpsPerBlock(F.Config.Block);
          try {
            bool Alike = false; // the warps are formed y first
            if (F.Config.Grid)
              walkLaunch(Swapped, *F.Config.Grid, Warps, SwAgg, SwLog, Alike);
            else
              for (unsigned W = 0; W < Warps; ++W)
                interpretWarp(Swapped, W);
            recordMissed(Sites, SwLog, Ctx, SwAgg);
            Time.Warps += Warps;
            Time.Walks += Swapped.Walks;
            Verdicts.push_back({GroupOf[C], attachThreadSwap(Group, SwAgg.finish(K.Name, Warps),
                                                             Facts)});
          } catch (const BudgetExceeded &B) {
            Verdicts.push_back({GroupOf[C], "exchanging the roles of x and y is not shown to "
                                            "help: the walk with x and y exchanged ran out of "
                                            "its budget (" + B.What + ")"});
          }
        }
        reconcileThreadSwaps(PerConfig, Verdicts);
      }
      Time.Interpret += secondsSince(SwapStart);
    }
    if (Sum.BudgetExceeded &&
        std::all_of(PerConfig.begin(), PerConfig.end(),
                    [](const std::vector<AccessRecord> &R) { return R.empty(); }))
      Report.Notes.push_back("kernel '" + K.Name + "' at " + Sum.Pos.str() +
                             ": analysis budget exceeded before any memory access was "
                             "reached; its accesses are not predicted");
    for (std::vector<AccessRecord> &Recs : PerConfig)
      for (AccessRecord &R : Recs) {
        if (Emitted)
          attachEmitted(R, *Emitted);
        ++Sum.Accesses;
        if (R.verdict() == Verdict::Unknown)
          ++Sum.Unknowns;
        else if (R.verdict() != Verdict::Ok)
          ++Sum.Findings;
        Report.Accesses.push_back(std::move(R));
      }
    Report.Kernels.push_back(Sum);
    if (Times)
      Times->Kernels.push_back(Time);
    if (Reusing) {
      auto E = std::make_shared<KernelReuse::Entry>();
      E->Summary = Sum;
      E->Accesses.assign(Report.Accesses.begin() + AccessesBefore, Report.Accesses.end());
      E->Notes.assign(Report.Notes.begin() + NotesBefore, Report.Notes.end());
      E->Problems.assign(Report.Problems.begin() + ProblemsBefore, Report.Problems.end());
      E->HostStated = std::move(KernelHostStated);
      Opts.Reuse->keep(ReuseKeys[KI], std::move(E));
    }
  }
  if (Reusing)
    Opts.Reuse->finishAnalysis();
  // A shared array's layout fix must hold in every kernel and launch that
  // uses it: chosen once all are in.
  chooseLayoutFixes(Report.Accesses, Opts.CompileLayouts);
  return Report;
}

} // namespace coalesce

//===- Analysis.cpp - The analysis library's entry point ------------------===//

#include "Analysis.h"
#include "ast/AccessSites.h"
#include "ast/AstUtil.h"

#include "cost/Aggregate.h"
#include "launch/Launches.h"

#include "clang/AST/ASTContext.h"

#include <algorithm>
#include <chrono>

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
  return K;
}

bool sameResults(const std::vector<AccessRecord> &A,
                 const std::vector<AccessRecord> &B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I) {
    const AccessRecord &X = A[I], &Y = B[I];
    if (X.Pos.RawLoc != Y.Pos.RawLoc || X.Op != Y.Op || X.V != Y.V ||
        X.Reason != Y.Reason || X.Cost != Y.Cost || X.Ideal != Y.Ideal ||
        X.CostMin != Y.CostMin || X.CostMax != Y.CostMax ||
        X.Context != Y.Context || X.RequestsPerWarp != Y.RequestsPerWarp)
      return false;
  }
  return true;
}

/// After a budget ran out: every access of the kernel, each unknown for Why.
/// The first walk may have stopped before reaching some of them, so a cheap
/// second walk (salvageLimits) lists them; if that one runs out too, the
/// accesses either walk reached.
std::vector<AccessRecord> salvage(ASTContext &Ctx, const KernelDef &K, const LaunchFacts &F,
                                  const InterpreterLimits &Limits, const std::string &Why,
                                  AccessAggregator &Seen, KernelSummary &Sum) {
  Sum.BudgetExceeded = true;
  KernelRun Walk(Ctx, K.FD, F, salvageLimits(Limits));
  Walk.Salvage = Why;
  AccessAggregator Listed(Walk);
  Walk.Sink = &Listed;
  try {
    interpretWarp(Walk, 0);
    return Listed.finish(K.Name, 1);
  } catch (const BudgetExceeded &) {
  }
  Seen.poison(Why);
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
    E.Space = S.Shared ? MemorySpace::Shared : MemorySpace::Global;
    E.AccessType = S.E->getType();
    if (!E.AccessType->isIncompleteType() && !E.AccessType->isDependentType())
      E.Width = static_cast<unsigned>(Ctx.getTypeSizeInChars(E.AccessType).getQuantity());
    E.Active = ~LaneMask(0);
    E.UnknownWhy = "the analysis did not evaluate this access: " + Why;
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

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point T) {
  return std::chrono::duration<double>(Clock::now() - T).count();
}

} // namespace

TUReport analyzeTranslationUnit(ASTContext &Ctx, const AnalysisOptions &Opts,
                                const std::vector<ClangError> *Errors,
                                AnalysisTimes *Times) {
  TUReport Report;
  Clock::time_point Start = Clock::now();
  std::vector<KernelDef> Kernels = findKernels(Ctx);
  if (Times)
    Times->FindKernels = secondsSince(Start);
  CodeErrors ErrorsIn(Ctx, Errors);
  for (size_t KI = 0; KI < Kernels.size(); ++KI) {
    const KernelDef &K = Kernels[KI];
    if (Opts.KernelProgress)
      Opts.KernelProgress(KI, Kernels.size(), K.Name);
    KernelTime Time;
    Time.Name = K.Name;
    KernelSummary Sum;
    Sum.Name = K.Name;
    Sum.Pos = sourcePos(Ctx, K.FD->getLocation());
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
      F.Config.BlockUnknown = "no launch in this file";
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
    for (LaunchFacts &F : Configs)
      F.Stated = Stated;

    Clock::time_point CostStart = Clock::now();
    const KernelSites Sites(Ctx, K.FD);
    Time.Cost += secondsSince(CostStart);
    Time.Configs = Configs.size();
    std::vector<std::vector<AccessRecord>> PerConfig;
    for (const LaunchFacts &F : Configs) {
      KernelRun Run(Ctx, K.FD, F, Opts.Limits);
      AccessAggregator Agg(Run);
      Run.Sink = &Agg;
      CoverageLog Log;
      Run.Coverage = &Log;
      const unsigned Warps =
          F.Config.BlockKnown ? warpsPerBlock(F.Config.Block) : 1;
      unsigned Done = 0;
      std::vector<AccessRecord> Recs;
      Clock::time_point WalkStart = Clock::now();
      try {
        for (unsigned W = 0; W < Warps; ++W, ++Done)
          interpretWarp(Run, W);
        Time.Interpret += secondsSince(WalkStart);
        CostStart = Clock::now();
        recordMissed(Sites, Log, Ctx, Agg);
        Recs = Agg.finish(K.Name, Done);
        for (const std::string &Given : Run.StatedUsed)
          for (AccessRecord &R : Recs)
            R.Assumptions.push_back("with " + Given);
        Time.Cost += secondsSince(CostStart);
      } catch (const BudgetExceeded &B) {
        Recs = salvage(Ctx, K, F, Opts.Limits, "analysis budget exceeded (" + B.What + ")",
                       Agg, Sum);
        Time.Interpret += secondsSince(WalkStart);
      }
      Time.Warps += Done;
      CostStart = Clock::now();
      // A second launch whose predictions are identical to an earlier one's
      // with the same block shape is reported as one, with both sites.
      bool Merged = false;
      for (std::vector<AccessRecord> &Prev : PerConfig) {
        if (!Prev.empty() && !Recs.empty() &&
            Prev.front().Launch.Block == Recs.front().Launch.Block &&
            Prev.front().Launch.BlockKnown == Recs.front().Launch.BlockKnown &&
            sameResults(Prev, Recs)) {
          for (AccessRecord &P : Prev)
            for (const SourcePos &S : F.Config.Sites)
              P.Launch.Sites.push_back(S);
          Merged = true;
          break;
        }
      }
      if (!Merged)
        PerConfig.push_back(std::move(Recs));
      Time.Cost += secondsSince(CostStart);
    }
    if (Sum.BudgetExceeded &&
        std::all_of(PerConfig.begin(), PerConfig.end(),
                    [](const std::vector<AccessRecord> &R) { return R.empty(); }))
      Report.Notes.push_back("kernel '" + K.Name + "' at " + Sum.Pos.str() +
                             ": analysis budget exceeded before any memory access was "
                             "reached; its accesses are not predicted");
    for (std::vector<AccessRecord> &Recs : PerConfig)
      for (AccessRecord &R : Recs) {
        ++Sum.Accesses;
        if (R.V == Verdict::Unknown)
          ++Sum.Unknowns;
        else if (R.V != Verdict::Ok)
          ++Sum.Findings;
        Report.Accesses.push_back(std::move(R));
      }
    Report.Kernels.push_back(Sum);
    if (Times)
      Times->Kernels.push_back(Time);
  }
  return Report;
}

} // namespace coalesce

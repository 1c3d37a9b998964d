//===- Analysis.cpp - The analysis library's entry point ------------------===//

#include "Analysis.h"

#include "Aggregate.h"
#include "Launches.h"

#include "clang/AST/ASTContext.h"

#include <algorithm>

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

} // namespace

TUReport analyzeTranslationUnit(ASTContext &Ctx, const AnalysisOptions &Opts) {
  TUReport Report;
  std::vector<KernelDef> Kernels = findKernels(Ctx);
  for (const KernelDef &K : Kernels) {
    KernelSummary Sum;
    Sum.Name = K.Name;
    Sum.Pos = sourcePos(Ctx, K.FD->getLocation());

    // Distinct launch configurations, in source order.
    std::vector<LaunchFacts> Configs;
    std::vector<std::string> Keys;
    for (const KernelLaunch &L : K.Launches) {
      if (!L.Problem.empty())
        Report.Notes.push_back(L.Problem);
      std::string Key = factsKey(L.Facts);
      auto It = std::find(Keys.begin(), Keys.end(), Key);
      if (It != Keys.end()) {
        Configs[It - Keys.begin()].Config.Sites.push_back(
            L.Facts.Config.Sites.front());
        continue;
      }
      Keys.push_back(Key);
      Configs.push_back(L.Facts);
    }
    if (Configs.empty()) {
      LaunchFacts F;
      if (Opts.DefaultBlock) {
        F.Config.Block = *Opts.DefaultBlock;
        F.Config.BlockKnown = true;
        F.Config.Source = "--block";
      } else {
        F.Config.Source = "assumed";
      }
      Configs.push_back(F);
    }

    std::vector<std::vector<AccessRecord>> PerConfig;
    for (const LaunchFacts &F : Configs) {
      KernelRun Run(Ctx, K.FD, F, Opts.Limits);
      AccessAggregator Agg(Run);
      Run.Sink = &Agg;
      const unsigned Warps =
          F.Config.BlockKnown ? warpsPerBlock(F.Config.Block) : 1;
      unsigned Done = 0;
      try {
        for (unsigned W = 0; W < Warps; ++W, ++Done)
          interpretWarp(Run, W);
      } catch (const BudgetExceeded &B) {
        Agg.poison("analysis budget exceeded (" + B.What + ")");
        Sum.BudgetExceeded = true;
        Done = std::max(Done, 1u);
      }
      std::vector<AccessRecord> Recs = Agg.finish(K.Name, Done);
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
    }
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
  }
  return Report;
}

} // namespace coalesce

//===- Selection.cpp - Which findings a run reports, and the summary ------===//

#include "Selection.h"

#include "Grouping.h"
#include "Suppressions.h"

#include <sstream>

namespace coalesce {

namespace {

std::string plural(unsigned N, const std::string &Word) {
  return std::to_string(N) + " " + Word + (N == 1 ? "" : Word.back() == 's' ? "es" : "s");
}

} // namespace

unsigned Selection::warnings() const {
  unsigned N = 0;
  for (const Finding &F : Shown)
    N += F.Level == Severity::Warning;
  return N;
}

Selection selectFindings(const std::vector<TUReport> &Reports, const std::vector<RulesFor> &Rules,
                         const HeaderFilter &Filter, Baseline *Base) {
  Selection Out;
  SuppressionIndex Suppressions;
  for (size_t I = 0; I < Reports.size(); ++I) {
    // Left out at each step, grouped as they would have been printed.
    std::vector<Finding> System, Other, Suppressed, InBaseline, Reported;
    auto Silence = [&](const Finding &F, const std::string &Why, std::vector<Finding> &Into) {
      if (F.Record)
        Out.Silenced[F.Record] = Why;
      Into.push_back(F);
    };
    Suppressions.scan(Reports[I].File); // for misspelt rule names where nothing is found
    for (Finding &F : runRules(Reports[I].Accesses, Rules[I].Options, Rules[I].Enabled)) {
      switch (Filter.classify(F.Pos)) {
      case HeaderFilter::Where::SystemHeader:
        Silence(F, "in a system header (--system-headers shows it)", System);
        continue;
      case HeaderFilter::Where::OtherHeader:
        Silence(F, "in a header the header filter leaves out (see --header-filter)", Other);
        continue;
      case HeaderFilter::Where::Shown:
        break;
      }
      std::string By = Suppressions.suppressedBy(F);
      if (!By.empty()) {
        Silence(F, "suppressed by " + By, Suppressed);
        continue;
      }
      Out.All.push_back(F);
      if (Base && Base->consume(F)) {
        Silence(F, "in the baseline", InBaseline);
        continue;
      }
      Out.Reported.push_back(F);
      Reported.push_back(std::move(F));
    }
    Out.InSystemHeaders += groupFindings(std::move(System)).size();
    Out.InOtherHeaders += groupFindings(std::move(Other)).size();
    Out.Suppressed += groupFindings(std::move(Suppressed)).size();
    Out.InBaseline += groupFindings(std::move(InBaseline)).size();
    for (Finding &F : groupFindings(std::move(Reported))) {
      Out.Shown.push_back(std::move(F));
      Out.ShownOf.push_back(I);
    }
  }
  Out.Problems = Suppressions.problems();
  return Out;
}

std::string runSummary(const std::vector<TUReport> &Reports, const Selection &S,
                       bool WithBaseline) {
  unsigned Accesses = 0, Kernels = 0, Remarks = 0, Skipped = 0, ClangErrors = 0;
  for (const TUReport &R : Reports) {
    Accesses += R.Accesses.size();
    ClangErrors += R.ClangErrors;
    for (const KernelSummary &K : R.Kernels)
      (K.NotAnalysed.empty() ? Kernels : Skipped) += 1;
  }
  std::map<std::string, unsigned> ByRule;
  std::vector<std::string> Order; // rules in the order of Rules.def
  for (const auto &R : allRules())
    Order.push_back(R->id());
  for (const Finding &F : S.Shown) {
    if (F.Level == Severity::Remark)
      ++Remarks;
    else
      ++ByRule[F.RuleId];
  }
  std::ostringstream OS;
  // With a baseline, what is shown is what is new.
  const std::string New = WithBaseline ? "new " : "";
  OS << plural(Accesses, "access") << " in " << plural(Kernels, "kernel") << ": "
     << plural(S.warnings(), New + "warning");
  if (S.warnings()) {
    std::string Parts;
    for (const std::string &Id : Order)
      if (ByRule.count(Id))
        Parts += (Parts.empty() ? "" : ", ") + std::to_string(ByRule[Id]) + " " + Id;
    OS << " (" << Parts << ")";
  }
  OS << ", " << plural(Remarks, New + "remark");
  // Clang's errors silence the kernels they touch (ast/ClangErrors.h).
  if (ClangErrors)
    OS << "; " << plural(ClangErrors, "clang error") << ", " << plural(Skipped, "kernel")
       << " not analysed";
  std::vector<std::string> Left;
  if (S.Suppressed)
    Left.push_back(std::to_string(S.Suppressed) + " suppressed by comments");
  if (WithBaseline || S.InBaseline)
    Left.push_back(std::to_string(S.InBaseline) + " in the baseline");
  if (S.InSystemHeaders)
    Left.push_back(std::to_string(S.InSystemHeaders) +
                   " in system headers (--system-headers shows them)");
  if (S.InOtherHeaders)
    Left.push_back(std::to_string(S.InOtherHeaders) +
                   " in headers outside the header filter (see --header-filter)");
  for (size_t I = 0; I < Left.size(); ++I)
    OS << (I ? ", " : "; not shown: ") << Left[I];
  return OS.str();
}

} // namespace coalesce

//===- Selection.cpp - Which findings a run reports, and the summary ------===//

#include "Selection.h"

#include "Findings.h"
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
    Suppressions.scan(Reports[I].File); // for misspelt rule names where nothing is found
    // The CLI's silences, in order; what is left after the comments is what
    // a baseline records, what is left after the baseline what --fix applies.
    PolicyFindings P = applyPolicy(Reports[I].Accesses, Rules[I], [&](const Finding &F) -> Silence {
      switch (Filter.classify(F.Pos)) {
      case HeaderFilter::Where::SystemHeader:
        return {"system", "in a system header (--system-headers shows it)"};
      case HeaderFilter::Where::OtherHeader:
        return {"other", "in a header the header filter leaves out (see --header-filter)"};
      case HeaderFilter::Where::Shown:
        break;
      }
      std::string By = Suppressions.suppressedBy(F);
      if (!By.empty())
        return {"suppressed", "suppressed by " + By};
      Out.All.push_back(F);
      if (Base && Base->consume(F))
        return {"baseline", "in the baseline"};
      Out.Reported.push_back(F);
      return {};
    });
    for (const auto &[F, S] : P.Silenced)
      if (F.Record)
        Out.Silenced[F.Record] = S.Why;
    Out.InSystemHeaders += P.count("system");
    Out.InOtherHeaders += P.count("other");
    Out.Suppressed += P.count("suppressed");
    Out.InBaseline += P.count("baseline");
    for (Finding &F : P.Shown) {
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
  unsigned Settleable = 0; // unknowns a stated fact may settle
  for (const Finding &F : S.Shown) {
    if (F.Level == Severity::Remark)
      ++Remarks;
    else
      ++ByRule[F.RuleId];
    if (F.Record && !F.Record->Ans.known() && !F.Record->Ans.why().Settle.empty())
      ++Settleable;
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
  if (Settleable)
    OS << " (" << Settleable << " of them unknown" << (Settleable == 1 ? "" : "s")
       << " that a stated value may settle: see their notes for the --assume or --block)";
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

// Analyses the files on its command line with the installed library and
// prints one line per finding: what a project that embeds coalesce-lint does.
#include "Analysis.h"
#include "Rule.h"
#include "driver/Invocation.h"
#include "driver/Runner.h"
#include "report/Report.h"

#include <iostream>

int main(int Argc, char **Argv) {
  coalesce::InvocationOptions IO;
  IO.CudaPath = "none"; // the built-in minimal CUDA header
  coalesce::Invocation Inv = coalesce::makeInvocation(IO);
  if (!Inv.Problem.empty()) {
    std::cerr << "consumer: " << Inv.Problem << "\n";
    return 2;
  }
  std::vector<coalesce::FileJob> Jobs;
  for (int I = 1; I < Argc; ++I)
    Jobs.push_back({Argv[I], ".", Inv.Args, Inv.BuiltinHeaders, Argv[I]});
  int Findings = 0;
  for (const coalesce::RunResult &R : coalesce::runAnalysis(Jobs, coalesce::RunOptions())) {
    if (R.Failed) {
      std::cerr << R.ClangDiagnostics << "consumer: " << R.Report.File << ": failed to parse\n";
      return 2;
    }
    std::cout << R.Report.File << ": " << R.Report.Accesses.size() << " accesses\n";
    for (const coalesce::Finding &F :
         coalesce::runRules(R.Report.Accesses, coalesce::RuleOptions()))
      if (F.Level == coalesce::Severity::Warning) {
        std::cout << F.Pos.str() << ": " << F.Message << " [" << F.checkName() << "]\n";
        ++Findings;
      }
  }
  return Findings ? 1 : 0;
}

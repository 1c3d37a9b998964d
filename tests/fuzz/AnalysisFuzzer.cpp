//===- AnalysisFuzzer.cpp - libFuzzer harness for whole-file analysis ------===//
//
// Treats the input as a CUDA source file and runs what `coalesce-lint
// --cuda-path=none` runs on it: the device-side parse with the built-in CUDA
// header (analyzer/Invocation.h), the analysis (runAnalysis), the rules and
// both emitters. The harness checks nothing itself: a crash, a sanitizer
// report, a leak or a run past libFuzzer's -timeout is the finding.
//
// The input is written to a file of its own per process (the runner, the
// rules' source snippets and clang's diagnostics all want a real file), under
// $COALESCE_FUZZ_TMPDIR, /dev/shm or /tmp. The interpreter's step budget is
// lowered (COALESCE_FUZZ_MAX_STEPS, default 2,000,000 instead of 20,000,000)
// so that slow inputs do not dominate; every other limit is the CLI's.
//===----------------------------------------------------------------------===//

#include "Emit.h"
#include "driver/Invocation.h"
#include "Rule.h"
#include "driver/Runner.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace coalesce;

namespace {

std::string inputPath() {
  std::string Dir;
  if (const char *D = std::getenv("COALESCE_FUZZ_TMPDIR"))
    Dir = D;
  else if (access("/dev/shm", W_OK) == 0)
    Dir = "/dev/shm";
  else
    Dir = "/tmp";
  return Dir + "/coalesce-fuzz-" + std::to_string(getpid()) + ".cu";
}

struct Setup {
  Invocation Inv;
  std::string Path = inputPath();
  RunOptions Opts;

  Setup() {
    InvocationOptions IO;
    IO.CudaPath = "none";
    Inv = makeInvocation(IO);
    if (!Inv.Problem.empty()) {
      std::fprintf(stderr, "AnalysisFuzzer: %s\n", Inv.Problem.c_str());
      std::abort();
    }
    Opts.Jobs = 1;
    Opts.Analysis.Limits.MaxSteps = 2'000'000;
    if (const char *S = std::getenv("COALESCE_FUZZ_MAX_STEPS"))
      Opts.Analysis.Limits.MaxSteps = std::strtoull(S, nullptr, 10);
  }
  ~Setup() { std::remove(Path.c_str()); }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static Setup S;
  {
    std::ofstream Out(S.Path, std::ios::binary | std::ios::trunc);
    Out.write(reinterpret_cast<const char *>(Data), static_cast<std::streamsize>(Size));
  }
  std::vector<FileJob> Jobs = {
      FileJob{S.Path, "/", S.Inv.Args, S.Inv.BuiltinHeaders, ""}};
  std::vector<RunResult> Results = runAnalysis(Jobs, S.Opts);
  std::vector<TUReport> Reports;
  for (RunResult &R : Results)
    if (!R.Failed)
      Reports.push_back(std::move(R.Report));
  RuleOptions RO;
  for (const TUReport &R : Reports)
    for (const Finding &F : runRules(R.Accesses, RO))
      (void)renderFinding(F, TextStyle{});
  (void)reportToJson(Reports, {}).dump();
  (void)summaryLine(Reports);
  return 0;
}

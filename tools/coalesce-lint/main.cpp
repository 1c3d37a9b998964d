//===- main.cpp - coalesce-lint command-line front end --------------------===//
//
// Parses options, runs the analysis library on the files and prints what the
// rules found. No analysis happens here.
//===----------------------------------------------------------------------===//

#include "Emit.h"
#include "Invocation.h"
#include "Rule.h"
#include "Runner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace coalesce;

namespace {

constexpr int ExitClean = 0, ExitFindings = 1, ExitError = 2;

const char *Usage =
    R"(usage: coalesce-lint [options] FILE.cu... [-- extra clang arguments]
       coalesce-lint verify [verify options] [FILE.cu...]

Predicts, per source line, the 32-byte sectors per request of every global
load and store and the shared-memory wavefronts per request of every shared
access in CUDA kernels, in the units Nsight Compute reports.

options:
  --format=text|json      output format (default: text)
  --block=X[,Y[,Z]]       block shape for kernels not launched in the file
  --cuda-path=PATH|none   CUDA toolkit to parse with (default: $CUDA_PATH,
                          $CUDA_HOME or /usr/local/cuda; none: built-in header)
  --cuda-gpu-arch=sm_XX   GPU architecture to parse for (default: sm_90)
  --resource-dir=PATH     clang resource directory (default: LLVM's own)
  --rules=ID[,ID...]      run only these rules (see --list-rules)
  --list-rules            print the rules and exit
  --no-unknown            do not print remarks for unpredictable accesses
  --min-ratio=R           report only accesses costing more than R x ideal
  --exit-zero             exit 0 even when findings are reported
  --color=auto|always|never
  -j N                    analyse N files in parallel (default: all cores)
  --version               print the version and exit
  --help                  print this help and exit

verify mode (on a machine with an NVIDIA GPU, nvcc and Nsight Compute):
  builds each program (default: the bundled sample_kernels/*.cu), runs it
  under `ncu --section SourceCounters` and prints predicted vs measured per
  source line. Options: --measurements DIR (recorded CSVs instead of a GPU),
  --record DIR, --markdown FILE, --json FILE, --kernels REGEX, --no-timing,
  --keep, --arch sm_XX; see tools/verify/coalesce_verify.py --help.

exit status: 0 no findings, 1 findings, 2 usage or input errors
)";

struct Options {
  std::string Format = "text";
  std::optional<Dim3> Block;
  InvocationOptions Inv;
  std::vector<std::string> Rules;
  bool ListRules = false, NoUnknown = false, ExitZero = false;
  double MinRatio = 1.0;
  std::string Color = "auto";
  unsigned Jobs = 0;
  std::vector<std::string> Files;
};

bool startsWith(const std::string &S, const std::string &P) {
  return S.compare(0, P.size(), P) == 0;
}

std::optional<Dim3> parseBlock(const std::string &S, std::string &Err) {
  Dim3 D;
  int64_t *F[3] = {&D.X, &D.Y, &D.Z};
  std::stringstream SS(S);
  std::string Part;
  int I = 0;
  while (std::getline(SS, Part, ',')) {
    if (I >= 3 || Part.empty() ||
        Part.find_first_not_of("0123456789") != std::string::npos ||
        Part.size() > 9) {
      Err = "--block expects X[,Y[,Z]] with positive integers, got '" + S + "'";
      return std::nullopt;
    }
    *F[I++] = std::stoll(Part);
  }
  if (I == 0) {
    Err = "--block expects X[,Y[,Z]], got an empty value";
    return std::nullopt;
  }
  std::string Bad = validateBlockShape(D);
  if (!Bad.empty()) {
    Err = "--block=" + S + ": " + Bad;
    return std::nullopt;
  }
  return D;
}

int usageError(const std::string &Msg) {
  std::cerr << "coalesce-lint: error: " << Msg << "\n"
            << "run 'coalesce-lint --help' for usage\n";
  return ExitError;
}

} // namespace

/// `coalesce-lint verify`: predictions here, measurements by the verify
/// script (which needs only Python, nvcc and ncu, so it also runs alone on a
/// GPU machine without LLVM).
int verifyMain(int Argc, char **Argv) {
  std::vector<std::string> Files, Pass, Clang;
  InvocationOptions Inv;
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    if (startsWith(A, "--cuda-path=")) {
      Inv.CudaPath = A.substr(12);
    } else if (A == "--help" || A == "-h") {
      std::cout << Usage;
      return ExitClean;
    } else if (A == "--measurements" || A == "--record" || A == "--markdown" ||
               A == "--json" || A == "--kernels" || A == "--arch") {
      if (I + 1 >= Argc)
        return usageError(A + " needs a value");
      Pass.push_back(A);
      Pass.push_back(Argv[++I]);
    } else if (startsWith(A, "-")) {
      Pass.push_back(A);
    } else {
      Files.push_back(A);
    }
  }
  if (Files.empty()) {
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(COALESCE_SAMPLES_DIR, EC), End;
         It != End && !EC; It.increment(EC))
      if (llvm::StringRef(It->path()).ends_with(".cu"))
        Files.push_back(It->path());
    std::sort(Files.begin(), Files.end());
    if (Files.empty())
      return usageError(std::string("no files given and no sample kernels in ") +
                        COALESCE_SAMPLES_DIR);
  }
  Invocation I = makeInvocation(Inv);
  if (!I.Problem.empty())
    return usageError(I.Problem);
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  std::vector<FileJob> Jobs;
  for (const std::string &F : Files) {
    if (!llvm::sys::fs::is_regular_file(F))
      return usageError(F + ": no such file");
    Jobs.push_back(FileJob{F, std::string(Cwd), I.Args, I.BuiltinHeaders});
  }
  RunOptions RO;
  RO.Jobs = std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  std::vector<TUReport> Reports;
  std::vector<std::string> Errors;
  for (RunResult &R : runAnalysis(Jobs, RO)) {
    if (R.Failed) {
      std::cerr << R.ClangDiagnostics;
      return usageError(R.Report.File + ": failed to parse");
    }
    Reports.push_back(std::move(R.Report));
  }
  llvm::SmallString<256> Pred;
  int FD;
  if (llvm::sys::fs::createTemporaryFile("coalesce-predictions", "json", FD, Pred))
    return usageError("cannot create a temporary file");
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << reportToJson(Reports, Errors).dump() << "\n";
  }
  const char *Script = std::getenv("COALESCE_VERIFY_SCRIPT");
  std::string ScriptPath = Script ? Script : COALESCE_VERIFY_SCRIPT;
  auto Python = llvm::sys::findProgramByName("python3");
  if (!Python) {
    llvm::sys::fs::remove(Pred);
    return usageError("verify mode needs python3 on PATH");
  }
  std::vector<std::string> Args = {*Python, ScriptPath, "--predictions", std::string(Pred)};
  Args.insert(Args.end(), Pass.begin(), Pass.end());
  Args.insert(Args.end(), Files.begin(), Files.end());
  std::vector<llvm::StringRef> Refs(Args.begin(), Args.end());
  std::string Err;
  int RC = llvm::sys::ExecuteAndWait(*Python, Refs, std::nullopt, {}, 0, 0, &Err);
  llvm::sys::fs::remove(Pred);
  if (RC < 0)
    return usageError("could not run the verify script: " + Err);
  return RC;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::string(Argv[1]) == "verify")
    return verifyMain(Argc, Argv);
  Options O;
  bool SawDashDash = false;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (SawDashDash) {
      O.Inv.ExtraArgs.push_back(A);
      continue;
    }
    auto Value = [&](const std::string &Flag, std::string &Out) -> bool {
      if (startsWith(A, Flag + "=")) {
        Out = A.substr(Flag.size() + 1);
        return true;
      }
      if (A == Flag) {
        if (I + 1 >= Argc)
          return false;
        Out = Argv[++I];
        return true;
      }
      return false;
    };
    std::string V;
    if (A == "--") {
      SawDashDash = true;
    } else if (A == "--help" || A == "-h") {
      std::cout << Usage;
      return ExitClean;
    } else if (A == "--version") {
      std::cout << "coalesce-lint " << COALESCE_VERSION << " (LLVM "
                << COALESCE_LLVM_VERSION_STRING << ")\n";
      return ExitClean;
    } else if (startsWith(A, "--format")) {
      if (!Value("--format", V))
        return usageError("--format needs a value");
      if (V != "text" && V != "json")
        return usageError("unknown --format '" + V + "' (expected text or json)");
      O.Format = V;
    } else if (startsWith(A, "--block")) {
      if (!Value("--block", V))
        return usageError("--block needs a value");
      std::string Err;
      O.Block = parseBlock(V, Err);
      if (!O.Block)
        return usageError(Err);
    } else if (startsWith(A, "--cuda-path")) {
      if (!Value("--cuda-path", V) || V.empty())
        return usageError("--cuda-path needs a value");
      O.Inv.CudaPath = V;
    } else if (startsWith(A, "--cuda-gpu-arch")) {
      if (!Value("--cuda-gpu-arch", V) || !startsWith(V, "sm_"))
        return usageError("--cuda-gpu-arch expects sm_XX");
      O.Inv.GpuArch = V;
    } else if (startsWith(A, "--resource-dir")) {
      if (!Value("--resource-dir", V))
        return usageError("--resource-dir needs a value");
      O.Inv.ResourceDir = V;
    } else if (startsWith(A, "--rules")) {
      if (!Value("--rules", V))
        return usageError("--rules needs a value");
      std::stringstream SS(V);
      std::string R;
      while (std::getline(SS, R, ',')) {
        if (startsWith(R, "coalesce-"))
          R = R.substr(9);
        if (!findRule(R))
          return usageError("unknown rule '" + R + "' (see --list-rules)");
        O.Rules.push_back(R);
      }
    } else if (A == "--list-rules") {
      O.ListRules = true;
    } else if (A == "--no-unknown") {
      O.NoUnknown = true;
    } else if (A == "--exit-zero") {
      O.ExitZero = true;
    } else if (startsWith(A, "--min-ratio")) {
      if (!Value("--min-ratio", V))
        return usageError("--min-ratio needs a value");
      char *End = nullptr;
      O.MinRatio = std::strtod(V.c_str(), &End);
      if (!End || *End || O.MinRatio < 1.0)
        return usageError("--min-ratio expects a number >= 1, got '" + V + "'");
    } else if (startsWith(A, "--color")) {
      if (!Value("--color", V) || (V != "auto" && V != "always" && V != "never"))
        return usageError("--color expects auto, always or never");
      O.Color = V;
    } else if (startsWith(A, "-j")) {
      std::string N = A.size() > 2 ? A.substr(2) : "";
      if (N.empty()) {
        if (I + 1 >= Argc)
          return usageError("-j needs a number");
        N = Argv[++I];
      }
      if (N.empty() || N.find_first_not_of("0123456789") != std::string::npos ||
          N.size() > 4 || std::stoi(N) < 1)
        return usageError("-j expects a positive number, got '" + N + "'");
      O.Jobs = static_cast<unsigned>(std::stoi(N));
    } else if (startsWith(A, "-") && A != "-") {
      return usageError("unknown option '" + A + "'");
    } else {
      O.Files.push_back(A);
    }
  }

  if (O.ListRules) {
    for (const auto &R : allRules())
      std::cout << "coalesce-" << R->id() << ": " << R->summary() << "\n";
    return ExitClean;
  }
  if (O.Files.empty())
    return usageError("no input files");

  Invocation Inv = makeInvocation(O.Inv);
  if (!Inv.Problem.empty())
    return usageError(Inv.Problem);

  std::vector<std::string> Errors;
  std::vector<FileJob> Jobs;
  std::vector<size_t> JobOfFile(O.Files.size(), SIZE_MAX);
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  for (size_t I = 0; I < O.Files.size(); ++I) {
    const std::string &F = O.Files[I];
    llvm::sys::fs::file_status St;
    if (llvm::sys::fs::status(F, St) || !llvm::sys::fs::exists(St)) {
      Errors.push_back(F + ": no such file");
      continue;
    }
    if (llvm::sys::fs::is_directory(St)) {
      Errors.push_back(F + ": is a directory");
      continue;
    }
    int FD;
    if (llvm::sys::fs::openFileForRead(F, FD)) {
      Errors.push_back(F + ": cannot be read");
      continue;
    }
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
    JobOfFile[I] = Jobs.size();
    Jobs.push_back(FileJob{F, std::string(Cwd), Inv.Args, Inv.BuiltinHeaders});
  }

  RunOptions RO;
  RO.Analysis.DefaultBlock = O.Block;
  RO.Jobs = O.Jobs ? O.Jobs : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  std::vector<RunResult> Results = runAnalysis(Jobs, RO);

  std::vector<TUReport> Reports;
  for (size_t I = 0; I < O.Files.size(); ++I) {
    if (JobOfFile[I] == SIZE_MAX)
      continue;
    RunResult &R = Results[JobOfFile[I]];
    if (R.Failed) {
      std::cerr << R.ClangDiagnostics;
      Errors.push_back(O.Files[I] + ": failed to parse (see the errors above)");
      continue;
    }
    Reports.push_back(std::move(R.Report));
  }

  RuleOptions RuleOpts;
  RuleOpts.ReportUnknown = !O.NoUnknown;
  RuleOpts.MinRatio = O.MinRatio;
  unsigned Warnings = 0;
  bool Color = O.Color == "always" ||
               (O.Color == "auto" && llvm::sys::Process::StandardOutIsDisplayed());

  if (O.Format == "json") {
    for (const TUReport &R : Reports)
      for (const Finding &F : runRules(R.Accesses, RuleOpts, O.Rules))
        Warnings += F.Level == Severity::Warning;
    std::cout << reportToJson(Reports, Errors).dump(2) << "\n";
  } else {
    TextStyle Style{Color};
    for (const TUReport &R : Reports) {
      for (const std::string &N : R.Notes)
        std::cout << R.File << ": note: " << N << "\n";
      for (const Finding &F : runRules(R.Accesses, RuleOpts, O.Rules)) {
        Warnings += F.Level == Severity::Warning;
        std::cout << renderFinding(F, Style);
      }
    }
    std::cerr << "coalesce-lint: " << summaryLine(Reports) << "\n";
  }
  for (const std::string &E : Errors)
    std::cerr << "coalesce-lint: error: " << E << "\n";
  if (!Errors.empty())
    return ExitError;
  if (Warnings && !O.ExitZero)
    return ExitFindings;
  return ExitClean;
}

//===- main.cpp - coalesce-lint command-line front end --------------------===//
//
// Parses options, runs the analysis library on the files and prints what the
// rules found. No analysis happens here. The steps, in order:
//
//   parseCommandLine   argv -> Options
//   settingsForFiles   Options + .coalesce-lint.yaml -> per-file settings
//   analyseFiles       files -> TUReports (one runAnalysis per arch and block)
//   selectFindings     rules, header filter, inline suppressions, baseline,
//                      grouping (tools/output/Selection.h)
//   emit*              text | json | sarif | html, then the summary on stderr
//===----------------------------------------------------------------------===//

#include "ApplyFixes.h"
#include "Baseline.h"
#include "driver/CompileDb.h"
#include "Config.h"
#include "Emit.h"
#include "FileSetup.h"
#include "HeaderFilter.h"
#include "Launch.h"
#include "Html.h"
#include "Inputs.h"
#include "LspServer.h"
#include "driver/Installation.h"
#include "driver/Invocation.h"
#include "driver/Preamble.h"
#include "Rule.h"
#include "driver/Runner.h"
#include "Sarif.h"
#include "Selection.h"
#include "Settings.h"
#include "TimeReport.h"
#include "WarpMap.h"
#include "Waste.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace coalesce;

namespace {

constexpr int ExitClean = 0, ExitFindings = 1, ExitError = 2;

const char *Usage =
    R"(usage: coalesce-lint [options] FILE.cu|DIR... [-- extra clang arguments]
       coalesce-lint -p BUILD_DIR [options] [FILE.cu...]
       coalesce-lint verify [verify options] [FILE.cu...]
       coalesce-lint lsp [options]    (a language server for editors)
       coalesce-lint launch [options] -- COMPILER ARGS...
                                      (the build's compiler launcher: analyse
                                      the compiled file, then compile it)

Predicts, per source line, the 32-byte sectors per request of every global
load and store, the shared-memory wavefronts per request of every shared
access and the constant-cache requests of every __constant__ read in CUDA
kernels, in the units Nsight Compute reports.

options:
  --format=text|json|sarif|html
                          output format (default: text); sarif is SARIF 2.1.0
                          for GitHub code scanning, html a self-contained page
  --explain               (text) draw a warp map after each finding: the
                          32-byte sector or the banks each lane touches, or
                          the constant address it reads
  -p BUILD_DIR            take each file's command from
                          BUILD_DIR/compile_commands.json (nvcc or clang;
                          translated for the device-side parse); without
                          files, analyse every CUDA file in it. Default: the
                          nearest compile_commands.json above each file, or
                          in a build/ directory beside one of its parents
  --no-compile-db         ignore compile_commands.json files
  --show-command          print the clang command each file is parsed with,
                          and how a compile command was translated
  --cache-dir=DIR         keep precompiled headers here (default:
                          $COALESCE_CACHE_DIR, $XDG_CACHE_HOME/coalesce-lint
                          or ~/.cache/coalesce-lint)
  --no-cache              parse every header from scratch
  --loop-summaries=on|off issue the alike iterations of counted loops without
                          walking each (default on; off walks them all, for
                          checking that the records are the same)
  --alike-warps=on|off    walk the warps of a 1-D block as one where their
                          walks are alike (default on; off walks each, for
                          checking that the records are the same)
  --call-memo=on|off      answer a call that reads only its arguments and
                          changes nothing from an earlier one with the same
                          values (default on; off walks every call, for
                          checking that the records are the same)
  --witness=auto|off|FILE the compiler as a second witness (docs/witness.md):
                          compile each file's device code with nvcc
                          -lineinfo, read what it emitted with nvdisasm, and
                          decide merged widths, the line of each instruction
                          and accesses with no instruction with it (auto, the
                          default: when nvcc and nvdisasm are found; off: the
                          source analysis alone; FILE: a cubin or binary the
                          build made with -lineinfo)
  --fix                   apply the suggested fixes (shared-tile padding) to
                          the source files
  --no-nvcc-compat        parse as clang does, without the declarations and
                          flags that make clang accept code written for nvcc
                          (docs/nvcc-compat.md)
  --cuda-path=PATH|none   CUDA toolkit to parse with (default: $CUDA_PATH,
                          $CUDA_HOME or /usr/local/cuda; none: built-in header)
  --extra-arg=ARG         an argument to append to clang's command line
                          (repeatable; after those given after `--`)
  --resource-dir=PATH     clang resource directory (default: the one installed
                          with coalesce-lint, else LLVM's own)
  --list-rules            print the rules and exit
  --list-spaces           print the memory spaces, their units and the names
                          of their numbers in each output (with
                          --format=json: the table verify mode reads) and exit
  --header-filter=REGEX   report findings in the headers whose path REGEX
                          matches (default: the headers under the source
                          root; the input files are always reported)
  --system-headers        also report findings in system headers (-isystem,
                          the CUDA toolkit)
  --config=FILE           settings file (default: the nearest
                          .coalesce-lint.yaml above each input file)
  --no-config             ignore .coalesce-lint.yaml files
  --baseline=FILE         report (and fail on) only findings not in FILE
  --write-baseline=FILE   record the current findings in FILE and exit 0
  --source-root=DIR       sarif/html paths are relative to DIR (default: .)
  --exit-zero             exit 0 even when findings are reported
  --color=auto|always|never
  -j N                    analyse N files in parallel (default: all cores)
  --time-report           print where the time went (headers, clang's parse,
                          each kernel's interpretation and costing, output)
                          on stderr
  --version               print the version and exit
  --help                  print this help and exit

settings (also given by .coalesce-lint.yaml, which the command line overrides):
)";

const char *UsageTail = R"(
A directory stands for the .cu and .cuh files under it (hidden directories
and CMake build trees are not searched). Options on the command line
override the settings file. Findings are
silenced by `// coalesce-lint: ignore[RULE]` or `// NOLINT(coalesce-RULE)`
on their line (see README.md).

verify mode (on a machine with an NVIDIA GPU, nvcc and Nsight Compute):
  builds each program (default: the bundled sample_kernels/*.cu), runs it
  under `ncu --section SourceCounters` and prints predicted vs measured per
  source line. Options: --measurements DIR (recorded CSVs instead of a GPU),
  --record DIR, --markdown FILE, --json FILE, --kernels REGEX, --no-timing,
  --keep, --arch sm_XX; see tools/verify/coalesce_verify.py --help.

exit status: 0 no findings, 1 findings, 2 usage or input errors
)";

/// What the command line says. Settings that a .coalesce-lint.yaml can also
/// give are optional here: unset means "the config file's, or the default".
struct Options {
  std::string Format = "text";
  bool Explain = false;
  SettingOverrides Over; // --rules, --min-ratio, --block, ... (Settings.def)
  InvocationOptions Inv;
  std::optional<std::string> HeaderFilterRegex;
  bool SystemHeaders = false;
  bool ListRules = false, ListSpaces = false, ExitZero = false;
  std::string BaselineFile, WriteBaselineFile, SourceRoot;
  std::string Color = "auto";
  unsigned Jobs = 0;
  std::vector<std::string> Files;
  std::string CompileDb; // -p
  bool NoCompileDb = false, ShowCommand = false, NoCache = false, Fix = false;
  bool LoopSummaries = true; // --loop-summaries=off
  bool AlikeWarps = true;    // --alike-warps=off
  bool CallMemo = true;      // --call-memo=off
  bool TimeReport = false;
  std::optional<std::string> CacheDir;
  WitnessOptions Witness;
};

bool startsWith(const std::string &S, const std::string &P) {
  return S.compare(0, P.size(), P) == 0;
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
  WitnessOptions Witness;
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    if (startsWith(A, "--cuda-path=")) {
      Inv.CudaPath = A.substr(12);
    } else if (startsWith(A, "--witness=")) {
      std::string Err;
      if (!parseWitnessMode(A.substr(10), Witness, Err))
        return usageError(Err);
    } else if (A == "--help" || A == "-h") {
      std::cout << Usage << settingsHelp() << UsageTail;
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
    // The sample kernels installed with coalesce-lint, else the source tree's.
    std::string Samples = installedDataFile("sample_kernels");
    if (Samples.empty())
      Samples = COALESCE_SAMPLES_DIR;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Samples, EC), End;
         It != End && !EC; It.increment(EC))
      if (llvm::StringRef(It->path()).ends_with(".cu"))
        Files.push_back(It->path());
    std::sort(Files.begin(), Files.end());
    if (Files.empty())
      return usageError("no files given and no sample kernels in " + Samples);
    // Replaying recordings: the samples recorded there (one GPU's
    // recordings may hold some of them, another's the rest), the others
    // named.
    std::string Recorded;
    for (size_t I = 0; I + 1 < Pass.size(); ++I)
      if (Pass[I] == "--measurements")
        Recorded = Pass[I + 1];
    if (!Recorded.empty()) {
      std::vector<std::string> Kept, Left;
      for (const std::string &F : Files) {
        std::string Stem = llvm::sys::path::stem(F).str();
        llvm::SmallString<256> Csv(Recorded), Gz(Recorded);
        llvm::sys::path::append(Csv, Stem + ".lines.csv");
        llvm::sys::path::append(Gz, Stem + ".lines.csv.gz");
        (llvm::sys::fs::exists(Csv) || llvm::sys::fs::exists(Gz) ? Kept : Left).push_back(F);
      }
      if (Kept.empty())
        return usageError(Recorded + ": no recording of any sample kernel");
      if (!Left.empty()) {
        std::cerr << "coalesce-lint: note: not recorded in " << Recorded << ", not compared:";
        for (const std::string &F : Left)
          std::cerr << " " << llvm::sys::path::filename(F).str();
        std::cerr << "\n";
      }
      Files = std::move(Kept);
    }
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
    Jobs.push_back(FileJob{F, std::string(Cwd), I.Args, I.BuiltinHeaders, F});
  }
  RunOptions RO;
  RO.Jobs = std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  RO.CacheDir = defaultCacheDir();
  RO.Witness = Witness;
  // The predictions; with the compiler witness, the source analysis' alone
  // too: verify mode compares both (docs/witness.md).
  auto Predict = [&](const RunOptions &Opts, llvm::SmallString<256> &Path,
                     bool &Witnessed) -> int {
    std::vector<TUReport> Reports;
    std::vector<std::string> Errors;
    Witnessed = false;
    for (RunResult &R : runAnalysis(Jobs, Opts)) {
      if (R.Failed) {
        if (!R.Refused.empty())
          return usageError(R.Report.File + ": " + R.Refused);
        std::cerr << R.ClangDiagnostics;
        return usageError(R.Report.File + ": failed to parse");
      }
      Witnessed |= !R.Report.WitnessSource.empty();
      if (!R.Report.WitnessNotUsed.empty() && Opts.Witness.M != WitnessOptions::Mode::Off)
        std::cerr << "coalesce-lint: note: the compiler witness was not used for "
                  << R.Report.File << ": " << R.Report.WitnessNotUsed << "\n";
      Reports.push_back(std::move(R.Report));
    }
    int FD;
    if (llvm::sys::fs::createTemporaryFile("coalesce-predictions", "json", FD, Path))
      return usageError("cannot create a temporary file");
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << reportToJson(Reports, Errors).dump() << "\n";
    return ExitClean;
  };
  llvm::SmallString<256> Pred, Alone;
  bool Witnessed = false, Unused = false;
  if (int RC = Predict(RO, Pred, Witnessed); RC != ExitClean)
    return RC;
  if (Witnessed) {
    RunOptions Off = RO;
    Off.Witness.M = WitnessOptions::Mode::Off;
    if (int RC = Predict(Off, Alone, Unused); RC != ExitClean)
      return RC;
  }
  const char *Script = std::getenv("COALESCE_VERIFY_SCRIPT");
  std::string ScriptPath = Script ? Script : installedDataFile("verify/coalesce_verify.py");
  if (ScriptPath.empty())
    ScriptPath = COALESCE_VERIFY_SCRIPT;
  auto Python = llvm::sys::findProgramByName("python3");
  if (!Python) {
    llvm::sys::fs::remove(Pred);
    return usageError("verify mode needs python3 on PATH");
  }
  std::vector<std::string> Args = {*Python, ScriptPath, "--predictions", std::string(Pred)};
  if (!Alone.empty())
    Args.insert(Args.end(), {"--source-predictions", std::string(Alone)});
  Args.insert(Args.end(), Pass.begin(), Pass.end());
  Args.insert(Args.end(), Files.begin(), Files.end());
  std::vector<llvm::StringRef> Refs(Args.begin(), Args.end());
  std::string Err;
  int RC = llvm::sys::ExecuteAndWait(*Python, Refs, std::nullopt, {}, 0, 0, &Err);
  llvm::sys::fs::remove(Pred);
  if (!Alone.empty())
    llvm::sys::fs::remove(Alone);
  if (RC < 0)
    return usageError("could not run the verify script: " + Err);
  return RC;
}

namespace {

/// Fills O from the command line; returns an exit status when the program
/// should stop (help, version, a usage error).
std::optional<int> parseCommandLine(int Argc, char **Argv, Options &O) {
  bool SawDashDash = false;
  std::vector<std::string> ExtraArgs; // --extra-arg: after those of `--`, as in clang-tidy
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
    // --flag=VALUE or --flag VALUE, for a flag that is not a prefix of another.
    auto Is = [&](const std::string &Flag) { return A == Flag || startsWith(A, Flag + "="); };
    std::string V, Err;
    // The settings a .coalesce-lint.yaml can also give (Settings.def).
    FlagParse Setting = parseSettingFlag(
        A,
        [&]() -> std::optional<std::string> {
          if (I + 1 >= Argc)
            return std::nullopt;
          return std::string(Argv[++I]);
        },
        O.Over, Err);
    if (Setting == FlagParse::Error)
      return usageError(Err);
    if (Setting == FlagParse::Parsed) {
      continue;
    } else if (A == "--") {
      SawDashDash = true;
    } else if (A == "--help" || A == "-h") {
      std::cout << Usage << settingsHelp() << UsageTail;
      return ExitClean;
    } else if (A == "--version") {
      std::cout << "coalesce-lint " << COALESCE_VERSION << " (LLVM "
                << COALESCE_LLVM_VERSION_STRING << ")\n";
      return ExitClean;
    } else if (Is("--format")) {
      if (!Value("--format", V))
        return usageError("--format needs a value");
      if (V != "text" && V != "json" && V != "sarif" && V != "html")
        return usageError("unknown --format '" + V + "' (expected text, json, sarif or html)");
      O.Format = V;
    } else if (A == "--explain") {
      O.Explain = true;
    } else if (A == "-p" || startsWith(A, "-p=") || Is("--compile-commands")) {
      if (!Value(A == "-p" || startsWith(A, "-p=") ? "-p" : "--compile-commands", V) ||
          V.empty())
        return usageError("-p needs a build directory");
      O.CompileDb = V;
    } else if (A == "--no-compile-db") {
      O.NoCompileDb = true;
    } else if (A == "--show-command") {
      O.ShowCommand = true;
    } else if (A == "--time-report") {
      O.TimeReport = true;
    } else if (Is("--cache-dir")) {
      if (!Value("--cache-dir", V) || V.empty())
        return usageError("--cache-dir needs a directory");
      O.CacheDir = V;
    } else if (A == "--no-cache") {
      O.NoCache = true;
    } else if (startsWith(A, "--loop-summaries=")) {
      const std::string V = A.substr(std::string("--loop-summaries=").size());
      if (V != "on" && V != "off")
        return usageError("--loop-summaries needs on or off");
      O.LoopSummaries = V == "on";
    } else if (startsWith(A, "--alike-warps=")) {
      const std::string V = A.substr(std::string("--alike-warps=").size());
      if (V != "on" && V != "off")
        return usageError("--alike-warps needs on or off");
      O.AlikeWarps = V == "on";
    } else if (startsWith(A, "--call-memo=")) {
      const std::string V = A.substr(std::string("--call-memo=").size());
      if (V != "on" && V != "off")
        return usageError("--call-memo needs on or off");
      O.CallMemo = V == "on";
    } else if (Is("--witness")) {
      std::string Err;
      if (!Value("--witness", V) || V.empty())
        return usageError("--witness needs auto, off or a file");
      if (!parseWitnessMode(V, O.Witness, Err))
        return usageError(Err);
    } else if (A == "--fix") {
      O.Fix = true;
    } else if (A == "--no-nvcc-compat") {
      O.Inv.NvccCompat = false;
    } else if (Is("--cuda-path")) {
      if (!Value("--cuda-path", V) || V.empty())
        return usageError("--cuda-path needs a value");
      O.Inv.CudaPath = V;
    } else if (Is("--extra-arg")) {
      if (!Value("--extra-arg", V))
        return usageError("--extra-arg needs a value");
      ExtraArgs.push_back(V);
    } else if (Is("--resource-dir")) {
      if (!Value("--resource-dir", V))
        return usageError("--resource-dir needs a value");
      O.Inv.ResourceDir = V;
    } else if (A == "--list-rules") {
      O.ListRules = true;
    } else if (A == "--list-spaces") {
      O.ListSpaces = true;
    } else if (Is("--header-filter")) {
      if (!Value("--header-filter", V))
        return usageError("--header-filter needs a regular expression");
      O.HeaderFilterRegex = V;
    } else if (A == "--system-headers") {
      O.SystemHeaders = true;
    } else if (A == "--exit-zero") {
      O.ExitZero = true;
    } else if (Is("--baseline")) {
      if (!Value("--baseline", V) || V.empty())
        return usageError("--baseline needs a file");
      O.BaselineFile = V;
    } else if (Is("--write-baseline")) {
      if (!Value("--write-baseline", V) || V.empty())
        return usageError("--write-baseline needs a file");
      O.WriteBaselineFile = V;
    } else if (Is("--source-root")) {
      if (!Value("--source-root", V) || V.empty())
        return usageError("--source-root needs a directory");
      if (!llvm::sys::fs::is_directory(V))
        return usageError("--source-root=" + V + ": not a directory");
      O.SourceRoot = V;
    } else if (Is("--color")) {
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
  O.Inv.ExtraArgs.insert(O.Inv.ExtraArgs.end(), ExtraArgs.begin(), ExtraArgs.end());
  if (O.Explain && O.Format != "text")
    return usageError("--explain draws the warp maps in text output; --format=" + O.Format +
                      (O.Format == "html" ? " always has them" : " does not take it"));
  if (O.Over.NoConfig && !O.Over.ConfigFile.empty())
    return usageError("--config and --no-config contradict each other");
  if (O.NoCompileDb && !O.CompileDb.empty())
    return usageError("-p and --no-compile-db contradict each other");
  if (O.NoCache && O.CacheDir)
    return usageError("--cache-dir and --no-cache contradict each other");
  if (!O.CompileDb.empty()) {
    // -p build/ or -p build/compile_commands.json
    if (llvm::sys::fs::is_regular_file(O.CompileDb) &&
        llvm::sys::path::filename(O.CompileDb) == "compile_commands.json")
      O.CompileDb = std::string(llvm::sys::path::parent_path(O.CompileDb));
    if (O.CompileDb.empty())
      O.CompileDb = ".";
    if (!llvm::sys::fs::is_directory(O.CompileDb))
      return usageError("-p " + O.CompileDb + ": not a directory");
  }
  return std::nullopt;
}

/// The settings of each input file: built-in defaults, then its
/// .coalesce-lint.yaml (or --config), then the command line.
llvm::Expected<std::vector<FileSettings>> settingsForFiles(const Options &O) {
  const SettingOverrides &Over = O.Over;
  ConfigCache Configs;
  std::vector<FileSettings> Out;
  for (const std::string &File : O.Files) {
    auto S = settingsForFile(File, Over, Configs);
    if (!S)
      return S.takeError();
    Out.push_back(std::move(*S));
  }
  return Out;
}

/// Path as the user would write it: relative to the working directory when
/// under it.
std::string displayPath(const std::string &Abs) {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  std::string Dir = std::string(Cwd) + "/";
  if (llvm::StringRef(Abs).starts_with(Dir))
    return Abs.substr(Dir.size());
  return Abs;
}

std::string shellQuote(const std::string &A) {
  if (!A.empty() && A.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos)
    return A;
  std::string Q = "'";
  for (char C : A)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

/// The CUDA files of a compile database, for `-p DIR` without files.
std::optional<int> filesFromCompileDb(Options &O, CompileDbs &Dbs) {
  std::string Err;
  const std::vector<DbEntry> &Entries = Dbs.entries(O.CompileDb, Err);
  if (!Err.empty())
    return usageError(Err);
  std::set<std::string> Seen;
  for (const DbEntry &E : Entries) {
    if (!isCudaCommand(E.CommandLine, E.File) || llvm::StringRef(E.File).ends_with(".cuh"))
      continue;
    if (Seen.insert(E.File).second)
      O.Files.push_back(displayPath(E.File));
  }
  if (O.Files.empty())
    return usageError("no CUDA files in " + O.CompileDb + "/compile_commands.json");
  return std::nullopt;
}

/// A block shape given for a kernel name that no analysed file has is most
/// likely a misspelling: say so.
void warnUnusedBlocks(const std::vector<TUReport> &Reports,
                      const std::vector<const FileSettings *> &SettingsOf) {
  std::set<std::string> Warned;
  for (const FileSettings *S : SettingsOf)
    for (const BlockChoice &C : S->Blocks) {
      if (C.Kernel.empty() || Warned.count(C.Spelling))
        continue;
      bool Used = false;
      for (const TUReport &R : Reports)
        for (const KernelSummary &K : R.Kernels)
          Used |= namesKernel(C.Kernel, K.Name) > 0;
      if (!Used) {
        Warned.insert(C.Spelling);
        std::cerr << "coalesce-lint: warning: " << C.Spelling << ": no kernel named '"
                  << C.Kernel << "' in the files analysed\n";
      }
    }
}

/// A fact stated with --assume (or in the configuration) about a name that
/// is no parameter of any kernel analysed, and no host variable the launches
/// took a value from, is most likely a misspelling: say so.
void warnUnusedFacts(const std::vector<TUReport> &Reports,
                     const std::vector<const FileSettings *> &SettingsOf) {
  std::set<std::string> Warned;
  for (const FileSettings *S : SettingsOf)
    for (const StatedFact &F : S->Facts) {
      const std::string Spelling = F.Spelling.empty() ? F.str() : F.Spelling;
      if (Warned.count(Spelling))
        continue;
      const std::string First = F.Name.substr(0, F.Name.find('.'));
      bool Used = false;
      for (const TUReport &R : Reports) {
        Used |= R.HostStated.count(F.Name) != 0;
        for (const KernelSummary &K : R.Kernels)
          Used |= std::find(K.Params.begin(), K.Params.end(), First) != K.Params.end();
      }
      if (!Used) {
        Warned.insert(Spelling);
        std::cerr << "coalesce-lint: warning: " << Spelling << ": no kernel parameter named '"
                  << First << "' in the files analysed (nor a host variable a launch uses)\n";
      }
    }
}

/// Parses and analyses the files: one runAnalysis per distinct set of block shapes,
/// results in input order. Each file is parsed with its compile command when
/// a compile database has one, else with the default command for its GPU
/// architecture. Unreadable and unparsable files become Errors. SettingsOf[i]
/// are the settings Reports[i] was analysed with.
std::optional<int> analyseFiles(const Options &O, const std::vector<FileSettings> &Settings,
                                JobPlanner &Planner, std::vector<TUReport> &Reports,
                                std::vector<const FileSettings *> &SettingsOf,
                                std::vector<std::string> &Errors,
                                std::vector<FileTimeEntry> &Times) {
  // Jobs grouped by what runAnalysis takes once per call (the block shapes).
  struct Group {
    std::vector<BlockChoice> Blocks;
    std::vector<StatedFact> Facts;
    std::vector<FileJob> Jobs;
    std::vector<size_t> Files; // index into O.Files, per job
  };
  std::vector<Group> Groups;
  size_t Total = 0;
  std::vector<bool> FromDb(O.Files.size(), false), Builtin(O.Files.size(), false);
  for (size_t I = 0; I < O.Files.size(); ++I) {
    const std::string &F = O.Files[I];
    llvm::sys::fs::file_status St;
    if (llvm::sys::fs::status(F, St) || !llvm::sys::fs::exists(St)) {
      Errors.push_back(F + ": no such file");
      continue;
    }
    int FD;
    if (llvm::sys::fs::openFileForRead(F, FD)) {
      Errors.push_back(F + ": cannot be read");
      continue;
    }
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);

    const FileSettings &S = Settings[I];
    JobPlan P = Planner.plan(F, S.GpuArch);
    for (const std::string &W : P.Warnings)
      std::cerr << "coalesce-lint: warning: " << W << "\n";
    if (P.Fatal)
      return usageError(P.Error);
    if (!P.Job) {
      Errors.push_back(F + ": " + P.Error);
      continue;
    }
    FromDb[I] = P.FromDb;
    FileJob &Job = *P.Job;
    const std::vector<std::string> &Notes = P.Notes;
    if (O.ShowCommand) {
      std::cerr << "coalesce-lint: " << F << ": parsed with:";
      for (const std::string &A : Job.Args)
        std::cerr << " " << shellQuote(A);
      std::cerr << " " << shellQuote(Job.File) << "\n";
      if (Job.BuiltinHeaders)
        std::cerr << "  note: with the built-in CUDA header (no CUDA toolkit)\n";
      for (const std::string &N : Notes)
        std::cerr << "  note: " << N << "\n";
    }

    Group *G = nullptr;
    for (Group &Existing : Groups)
      if (Existing.Blocks == S.Blocks && Existing.Facts == S.Facts)
        G = &Existing;
    if (!G) {
      Groups.push_back({S.Blocks, S.Facts, {}, {}});
      G = &Groups.back();
    }
    Builtin[I] = Job.BuiltinHeaders;
    G->Jobs.push_back(std::move(Job));
    G->Files.push_back(I);
    ++Total;
  }

  // A progress line on a terminal (file i of m, kernel k of n), once the run
  // has taken more than a second; nothing when stderr is not a terminal.
  const bool ShowProgress = llvm::sys::Process::StandardErrIsDisplayed();
  const auto Start = std::chrono::steady_clock::now();
  bool Shown = false;
  size_t DoneBefore = 0, FilesDone = 0;
  auto ShowLine = [&](const std::string &Line) {
    if (std::chrono::steady_clock::now() - Start < std::chrono::seconds(1))
      return;
    std::cerr << "\r\033[Kcoalesce-lint: " << Line << std::flush;
    Shown = true;
  };
  std::vector<std::optional<RunResult>> ByFile(O.Files.size());
  for (Group &G : Groups) {
    RunOptions RO;
    RO.Analysis.Blocks = G.Blocks;
    RO.Analysis.Facts = G.Facts;
    RO.Analysis.Limits.SummarizeLoops = O.LoopSummaries;
    RO.Analysis.Limits.AlikeWarps = O.AlikeWarps;
    RO.Analysis.Limits.CallMemo = O.CallMemo;
    RO.Jobs = O.Jobs ? O.Jobs : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
    RO.CacheDir = O.NoCache ? "" : O.CacheDir ? *O.CacheDir : defaultCacheDir();
    RO.Witness = O.Witness;
    if (ShowProgress) {
      RO.Progress = [&](size_t, size_t) {
        ++FilesDone;
        ShowLine("analysed " + std::to_string(FilesDone) + "/" + std::to_string(Total) +
                 " files");
      };
      RO.KernelProgress = [&, DoneBefore](size_t File, size_t K, size_t N,
                                          const std::string &Name) {
        std::string Line;
        if (Total > 1)
          Line = "file " + std::to_string(DoneBefore + File + 1) + "/" +
                 std::to_string(Total) + ", ";
        Line += "kernel " + std::to_string(K + 1) + "/" + std::to_string(N) + ": " + Name;
        if (Line.size() > 100)
          Line = Line.substr(0, 97) + "...";
        ShowLine(Line);
      };
    }
    std::vector<RunResult> Results = runAnalysis(G.Jobs, RO);
    DoneBefore += G.Jobs.size();
    for (size_t J = 0; J < Results.size(); ++J)
      ByFile[G.Files[J]] = std::move(Results[J]);
  }
  if (Shown)
    std::cerr << "\r\033[K" << std::flush;
  for (size_t I = 0; I < O.Files.size(); ++I)
    if (ByFile[I])
      Times.push_back({O.Files[I], ByFile[I]->Times});
  // The compiler witness: said once when it could not be used.
  std::set<std::string> WitnessProblems;
  for (const std::optional<RunResult> &R : ByFile)
    if (R && !R->Report.WitnessNotUsed.empty() &&
        WitnessProblems.insert(R->Report.WitnessNotUsed).second)
      std::cerr << "coalesce-lint: note: the compiler witness was not used: "
                << R->Report.WitnessNotUsed
                << "; the numbers are the source analysis' alone (docs/witness.md)\n";
  std::set<std::string> CacheProblems;
  for (const std::optional<RunResult> &R : ByFile)
    if (R && !R->CacheProblem.empty() && CacheProblems.insert(R->CacheProblem).second)
      std::cerr << "coalesce-lint: warning: headers are parsed without the cache: "
                << R->CacheProblem << " (see --cache-dir, --no-cache)\n";
  for (size_t I = 0; I < O.Files.size(); ++I) {
    if (!ByFile[I])
      continue;
    RunResult &R = *ByFile[I];
    // Clang's errors are shown; they silence only the kernels they touch
    // (each listed in a note), and fail the run only when nothing of the
    // file could be analysed.
    if (!R.Refused.empty()) {
      Errors.push_back(O.Files[I] + ": " + R.Refused);
      continue;
    }
    std::cerr << R.ClangDiagnostics;
    const std::string Hint = R.ClangErrors ? parseFailureHint(O.Inv.CudaPath, R.ClangDiagnostics,
                                                              FromDb[I], Builtin[I])
                                           : "";
    if (R.Failed) {
      const std::string Includer = includingFile(O.Files[I]);
      Errors.push_back(O.Files[I] + ": failed to parse (see the errors above)" +
                       (Includer.empty() ? "" : "; it is #included by " + displayPath(Includer) +
                                                    ", which is the file to analyse") +
                       Hint);
      if (!R.Analysed || R.Report.Kernels.empty())
        continue;
    } else if (R.ClangErrors) {
      unsigned Skipped = 0;
      for (const KernelSummary &K : R.Report.Kernels)
        Skipped += !K.NotAnalysed.empty();
      std::cerr << "coalesce-lint: warning: " << O.Files[I] << ": clang reported "
                << R.ClangErrors << " error" << (R.ClangErrors == 1 ? "" : "s")
                << " (see above); "
                << (Skipped ? std::to_string(Skipped) + " kernel" + (Skipped == 1 ? "" : "s") +
                                  " not analysed, the others are"
                            : std::string("they touch no kernel, every kernel is analysed"))
                << Hint << "\n";
    }
    for (const AnnotationProblem &P : R.Report.Problems)
      Errors.push_back(P.Pos.str() + ": " + P.Message);
    Reports.push_back(std::move(R.Report));
    SettingsOf.push_back(&Settings[I]);
  }
  return std::nullopt;
}

void emitText(const Options &O, const std::vector<TUReport> &Reports, const Selection &Fs) {
  const bool Color = O.Color == "always" ||
                     (O.Color == "auto" && llvm::sys::Process::StandardOutIsDisplayed());
  TextStyle Style{Color};
  for (size_t I = 0; I < Reports.size(); ++I) {
    for (const std::string &N : Reports[I].Notes)
      std::cout << Reports[I].File << ": note: " << N << "\n";
    for (const KernelSummary &K : Reports[I].Kernels)
      if (!K.NotAnalysed.empty())
        std::cout << K.Pos.str() << ": note: " << notAnalysedNote(K) << "\n";
    for (size_t J = 0; J < Fs.Shown.size(); ++J) {
      if (Fs.ShownOf[J] != I)
        continue;
      const Finding &F = Fs.Shown[J];
      std::cout << renderFinding(F, Style);
      // A map for every finding with a number: warnings and the remarks of
      // misaligned rows alike.
      if (O.Explain && F.Record && F.Record->Ans.known())
        std::cout << renderWarpMapText(*F.Record);
    }
  }
  // Last, the findings that waste the most traffic (Waste.h).
  std::cout << topWasteList(Fs.Shown, 10);
}

/// Prints the reports and findings in the chosen format.
void emit(const Options &O, const std::vector<TUReport> &Reports, const Selection &Fs,
          const std::vector<std::string> &Errors, bool WithBaseline) {
  if (O.Format == "json") {
    std::cout << reportToJson(Reports, Errors).dump(2) << "\n";
  } else if (O.Format == "sarif") {
    SarifOptions SO;
    SO.SourceRoot = O.SourceRoot;
    SO.Baseline = WithBaseline;
    SO.Notifications = runNotifications(Reports);
    std::cout << findingsToSarif(Fs.Shown, Errors, SO).dump(2) << "\n";
  } else if (O.Format == "html") {
    HtmlReportInput In;
    In.Reports = &Reports;
    In.Findings = &Fs.Shown;
    In.Silenced = Fs.Silenced;
    In.Errors = Errors;
    In.SourceRoot = O.SourceRoot;
    In.Summary = runSummary(Reports, Fs, WithBaseline);
    std::cout << renderHtmlReport(In);
  } else {
    emitText(O, Reports, Fs);
  }
  std::cout.flush();
}

} // namespace

/// The CLI on files (no subcommand).
int cliMain(int Argc, char **Argv) {
  Options O;
  if (auto Exit = parseCommandLine(Argc, Argv, O))
    return *Exit;
  if (O.ListSpaces) {
    if (O.Format == "json")
      std::cout << spacesToJson().dump(2) << "\n";
    else
      std::cout << spacesText();
    return ExitClean;
  }
  if (O.ListRules) {
    for (const auto &R : allRules())
      std::cout << "coalesce-" << R->id() << ": " << R->summary() << "\n";
    return ExitClean;
  }
  CommandSetup Setup;
  Setup.Inv = O.Inv;
  Setup.CompileDb = O.CompileDb;
  Setup.NoCompileDb = O.NoCompileDb;
  Setup.ArchFromCommandLine = O.Over.GpuArch.has_value();
  JobPlanner Planner(Setup);
  if (O.Files.empty() && !O.CompileDb.empty())
    if (auto Exit = filesFromCompileDb(O, Planner.dbs()))
      return *Exit;
  if (O.Files.empty())
    return usageError("no input files");
  // Directories stand for the CUDA files under them (Inputs.h).
  std::vector<std::string> InputErrors;
  O.Files = expandInputs(O.Files, InputErrors);
  if (O.Files.empty()) {
    for (const std::string &E : InputErrors)
      std::cerr << "coalesce-lint: error: " << E << "\n";
    return ExitError;
  }

  auto Settings = settingsForFiles(O);
  if (!Settings)
    return usageError(llvm::toString(Settings.takeError()));
  std::optional<Baseline> Base;
  if (!O.BaselineFile.empty()) {
    auto B = Baseline::load(O.BaselineFile);
    if (!B)
      return usageError(llvm::toString(B.takeError()));
    Base = std::move(*B);
  }

  auto Filter = HeaderFilter::create(O.HeaderFilterRegex, O.SystemHeaders, O.SourceRoot);
  if (!Filter)
    return usageError(llvm::toString(Filter.takeError()));

  std::vector<TUReport> Reports;
  std::vector<const FileSettings *> SettingsOf;
  std::vector<std::string> Errors = std::move(InputErrors);
  std::vector<FileTimeEntry> Times;
  if (auto Exit = analyseFiles(O, *Settings, Planner, Reports, SettingsOf, Errors, Times))
    return *Exit;
  warnUnusedBlocks(Reports, SettingsOf);
  warnUnusedFacts(Reports, SettingsOf);
  const auto OutputStart = std::chrono::steady_clock::now();
  std::vector<RulesFor> Rules;
  for (const FileSettings *S : SettingsOf)
    Rules.push_back({S->Rules, S->EnabledRules});
  const Selection Fs = selectFindings(Reports, Rules, *Filter, Base ? &*Base : nullptr);
  Errors.insert(Errors.end(), Fs.Problems.begin(), Fs.Problems.end());

  emit(O, Reports, Fs, Errors, Base.has_value());

  if (O.Fix)
    for (const FixOutcome &X : applyFixes(Fs.Reported)) {
      if (!X.Error.empty()) {
        Errors.push_back(X.Error);
        continue;
      }
      for (const std::string &Why : X.Skipped)
        std::cerr << "coalesce-lint: warning: fix not applied: " << Why << "\n";
      if (X.Applied)
        std::cerr << "coalesce-lint: applied " << X.Applied << " fix"
                  << (X.Applied == 1 ? "" : "es") << " to " << X.File << "\n";
    }

  if (!O.WriteBaselineFile.empty()) {
    if (llvm::Error E = Baseline::write(O.WriteBaselineFile, Fs.All))
      Errors.push_back(llvm::toString(std::move(E)));
    else
      std::cerr << "coalesce-lint: wrote " << Fs.All.size() << " finding"
                << (Fs.All.size() == 1 ? "" : "s") << " to the baseline "
                << O.WriteBaselineFile << "\n";
  }
  for (const std::string &E : Errors)
    std::cerr << "coalesce-lint: error: " << E << "\n";
  if (O.TimeReport)
    std::cerr << renderTimeReport(
        Times, std::chrono::duration<double>(std::chrono::steady_clock::now() - OutputStart)
                   .count());
  // Last, so that it is the line a user sees, in every format.
  std::cerr << "coalesce-lint: " << runSummary(Reports, Fs, Base.has_value()) << "\n";
  if (!Errors.empty())
    return ExitError;
  if (Fs.warnings() && !O.ExitZero && O.WriteBaselineFile.empty())
    return ExitFindings;
  return ExitClean;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::string(Argv[1]) == "verify")
    return verifyMain(Argc, Argv);
  if (Argc > 1 && std::string(Argv[1]) == "lsp")
    return lsp::lspMain(Argc, Argv);
  if (Argc > 1 && std::string(Argv[1]) == "launch")
    return launchMain(Argc, Argv, cliMain);
  return cliMain(Argc, Argv);
}

//===- Runner.h - Parse files with clang and analyse them ----------------===//
//
// Runs the analysis on a list of files, each with its own clang command line,
// optionally in parallel; results come back in input order. Clang's own
// diagnostics (parse errors) are captured per file, so parallel runs print
// deterministically.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_RUNNER_H
#define COALESCE_ANALYZER_RUNNER_H

#include "Analysis.h"
#include "driver/Witness.h"
#include "report/Report.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

struct FileJob {
  std::string File;              // relative to the process's working directory, or absolute
  std::string Directory;         // working directory for the command
  std::vector<std::string> Args; // clang command line without the file
  bool BuiltinHeaders = false;   // map the built-in CUDA headers
  std::string Name;              // how reports name the file ("" = File)
  /// The file's text, when it is not what is on disk (an editor's unsaved
  /// buffer): clang reads this instead, the file need not exist. Its
  /// #includes still resolve from the file's directory.
  std::optional<std::string> Contents = std::nullopt;
  /// A header analysed through a translation unit that includes it (its
  /// templates are instantiated there; JobPlanner): File is that unit,
  /// Focus the header (absolute). Only what lies in Focus is reported,
  /// under Name; Contents, when given, is Focus's text.
  std::string Focus;
};

/// Where the time of one file went (wall seconds), for --time-report.
struct FileTimes {
  double Preamble = 0; // finding (or building) the precompiled headers
  double Parse = 0;    // clang: preprocessing, parsing, semantic analysis
  double Analysis = 0; // analyzeTranslationUnit, broken down in Phases
  AnalysisTimes Phases;
  /// Parts of Analysis spent waiting: for the compiler witness's compile
  /// and disassembly (what the parse did not hide), and compiling layout
  /// fixes' edited code (driver/FixCompile.h).
  double WitnessWait = 0;
  double LayoutCompile = 0;
  double total() const { return Preamble + Parse + Analysis; }
};

struct RunResult {
  TUReport Report;
  std::string ClangDiagnostics; // errors printed by clang (and their notes), if any
  unsigned ClangErrors = 0;     // errors clang reported (kernels they touch are not analysed)
  bool Analysed = false;        // clang built an AST and the analysis ran on it
  bool Failed = false;          // nothing could be analysed: no AST, or errors touch every kernel
  /// Not parsed at all: why (an option clang cannot use), said once.
  std::string Refused;
  bool UsedPreamble = false;    // parsed with a precompiled preamble
  bool BuiltPreamble = false;   // ... that this run had to build
  std::string CacheProblem;     // the preamble cache could not be used: why
  /// The compiler witness of this file: what nvcc emitted, or why it was
  /// not used (driver/Witness.h).
  WitnessResult Witness;
  FileTimes Times;
};

struct RunOptions {
  AnalysisOptions Analysis;
  unsigned Jobs = 1;
  /// Precompiled preambles are kept here (Preamble.h); "" disables them.
  /// The compiler witness's disassemblies too (in witness/).
  std::string CacheDir;
  /// The compiler witness (driver/Witness.h): automatic by default.
  WitnessOptions Witness;
  /// Called after each file (from the worker thread) with (done, total).
  std::function<void(size_t, size_t)> Progress;
  /// Called before each kernel (from the worker thread) with (file index,
  /// kernel index, kernel count, kernel name).
  std::function<void(size_t, size_t, size_t, const std::string &)> KernelProgress;
};

std::vector<RunResult> runAnalysis(const std::vector<FileJob> &Jobs,
                                   const RunOptions &Opts);

} // namespace coalesce

#endif // COALESCE_ANALYZER_RUNNER_H

//===- Analysis.h - The analysis library's entry point --------------------===//
//
// analyzeTranslationUnit() runs the whole pipeline on a parsed CUDA
// translation unit: find kernels and launches (Launches.h), run each kernel
// once per warp of each launch shape (Interpreter.h), cost every request with
// the sector and bank models (Aggregate.h), and return one AccessRecord per
// access, call context and launch shape. Front-ends (the CLI, the clang-tidy
// module, verify mode) call this and only format what comes back.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_ANALYSIS_H
#define COALESCE_ANALYZER_ANALYSIS_H

#include "KernelReuse.h"
#include "ast/ClangErrors.h"
#include "interp/Interpreter.h"
#include "launch/BlockChoice.h"
#include "launch/StatedFacts.h"
#include "report/Report.h"
#include "witness/Sass.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace coalesce {

/// Where the analysis of one translation unit spent its time (wall seconds),
/// for --time-report.
struct KernelTime {
  std::string Name;       // the kernel (with its template arguments)
  unsigned Configs = 0;   // distinct launch configurations it was run for
  unsigned Warps = 0;     // warps interpreted, over all configurations
  unsigned Walks = 0;     // walks that did it (one may stand for several warps)
  double Interpret = 0;   // walking the warps (each event is costed as it comes)
  double Costing = 0;     // missed accesses, averaging events into records, merging
};
struct AnalysisTimes {
  double FindKernels = 0; // kernels, launches and what host code makes known
  std::vector<KernelTime> Kernels;
};

struct AnalysisOptions {
  /// Block shapes for kernels whose shape is not known: no launch in the
  /// file, or launches whose shape the host code does not make known
  /// (--block=X,Y,Z, --block=KERNEL=X,Y,Z).
  std::vector<BlockChoice> Blocks;
  /// How the front end's user sets a block shape, for messages: the CLI's
  /// "--block=X,Y,Z", the clang-tidy checks' "the check option Block=X,Y,Z".
  std::string BlockOption = "--block=X,Y,Z";
  /// Facts about kernel parameters (--assume); the kernels' own
  /// `coalesce-lint: assume` comments add to them (StatedFacts.h).
  std::vector<StatedFact> Facts;
  InterpreterLimits Limits;
  /// The compiler witness (driver/Witness.h): the instructions nvcc
  /// emitted for this file, asked for once its kernels are found (the
  /// compile runs while clang parses); null or unset: the source alone.
  std::function<std::shared_ptr<const witness::SassModule>()> Witness;
  /// Compiles layout fixes whose gain rests on what nvcc emits for the
  /// edited code (cost/LayoutChoice.h, driver/FixCompile.h); null: such
  /// fixes are not offered.
  std::function<std::vector<int>(const std::vector<LayoutCompileCheck> &)> CompileLayouts;
  /// Called before each kernel is analysed with (kernel index, kernel count,
  /// kernel name), from the thread that analyses the file.
  std::function<void(size_t, size_t, const std::string &)> KernelProgress;
  /// Kernels' results kept from the last analysis of the same document
  /// (KernelReuse.h): the language server's; null: none. ReuseSalt: what
  /// the keys add (the command line, the options that are not these).
  std::shared_ptr<KernelReuse> Reuse;
  std::string ReuseSalt;
};

/// Errors: clang's error diagnostics, when the caller recorded them (null:
/// not recorded, the AST is searched for what clang leaves where it
/// recovered); kernels an error touches are listed with the error instead of
/// being analysed (ast/ClangErrors.h).
TUReport analyzeTranslationUnit(clang::ASTContext &Ctx,
                                const AnalysisOptions &Opts,
                                const std::vector<ClangError> *Errors = nullptr,
                                AnalysisTimes *Times = nullptr);

} // namespace coalesce

#endif // COALESCE_ANALYZER_ANALYSIS_H

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

#include "ast/ClangErrors.h"
#include "interp/Interpreter.h"
#include "launch/BlockChoice.h"
#include "report/Report.h"

#include <vector>

namespace clang {
class ASTContext;
}

namespace coalesce {

struct AnalysisOptions {
  /// Block shapes for kernels whose shape is not known: no launch in the
  /// file, or launches whose shape the host code does not make known
  /// (--block=X,Y,Z, --block=KERNEL=X,Y,Z).
  std::vector<BlockChoice> Blocks;
  /// How the front end's user sets a block shape, for messages: the CLI's
  /// "--block=X,Y,Z", the clang-tidy checks' "the check option Block=X,Y,Z".
  std::string BlockOption = "--block=X,Y,Z";
  InterpreterLimits Limits;
};

/// Errors: clang's error diagnostics, when the caller recorded them (null:
/// not recorded, the AST is searched for what clang leaves where it
/// recovered); kernels an error touches are listed with the error instead of
/// being analysed (ast/ClangErrors.h).
TUReport analyzeTranslationUnit(clang::ASTContext &Ctx,
                                const AnalysisOptions &Opts,
                                const std::vector<ClangError> *Errors = nullptr);

} // namespace coalesce

#endif // COALESCE_ANALYZER_ANALYSIS_H

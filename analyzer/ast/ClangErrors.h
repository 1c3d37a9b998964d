//===- ClangErrors.h - Which functions a clang error touches --------------===//
//
// Clang recovers from most errors and still builds an AST; a kernel whose own
// code (its body and the bodies of the functions it calls) has no error is
// analysed as if the file were clean, while an error in host code or in a
// helper that no kernel calls silences nothing. A function is touched by an
// error when
//  - a recorded error diagnostic (the CLI records them while parsing) lies
//    in its body, or
//  - its body holds what clang leaves where it recovered: an expression
//    marked contains-errors (RecoveryExpr under it) or an invalid
//    declaration. This second test needs no diagnostics, so front-ends that
//    cannot record them (the clang-tidy module) still find most errors.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_AST_CLANGERRORS_H
#define COALESCE_ANALYZER_AST_CLANGERRORS_H

#include "report/Report.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace coalesce {

/// An error clang reported while parsing.
struct ClangError {
  clang::SourceLocation Loc;
  std::string Message; // as clang printed it, without location or level
};

/// The first error that touches FD's code, if any: where it is and what it
/// says.
struct ErrorInCode {
  SourcePos Pos;
  std::string Message;
  std::string Function; // the function whose body holds it ("helper")
};

/// Answers "does an error touch this kernel?" for the kernels of one
/// translation unit, scanning each function's body once.
class CodeErrors {
public:
  /// Errors: the error diagnostics recorded while parsing; null when they
  /// were not recorded (then every kernel's code is searched for what clang
  /// leaves where it recovered).
  CodeErrors(clang::ASTContext &Ctx, const std::vector<ClangError> *Errors);
  ~CodeErrors();
  /// The first error in FD's code or in the code it calls, if any.
  std::optional<ErrorInCode> firstErrorIn(const clang::FunctionDecl *FD);

private:
  struct Scan;
  const Scan &scan(const clang::FunctionDecl *Def);
  clang::ASTContext &Ctx;
  std::vector<ClangError> Errors;
  bool Any; // clang reported an error at all
  std::map<const clang::FunctionDecl *, std::unique_ptr<Scan>> Scans;
};

} // namespace coalesce

#endif // COALESCE_ANALYZER_AST_CLANGERRORS_H

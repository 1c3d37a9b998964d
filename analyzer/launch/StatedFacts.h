//===- StatedFacts.h - Facts about kernel parameters the user states ------===//
//
// A kernel's sizes often come from run-time input (argv, a file), so neither
// the launch nor the host code makes them known. The user can state what is
// true of them, and the analysis then treats the parameter accordingly:
//
//   cols=2049          the value is known: exactly as a known launch argument
//   cols % 32 == 0     a residue: the parameter is 32*q + 0 for an unknown
//                      q, so every address it scales keeps that alignment
//   cols >= 1024       a lower bound (`cols > 1023` is the same): decides
//                      comparisons and picks the case of a parametric answer
//
// Facts come from `--assume` (repeatable), `assume:` in .coalesce-lint.yaml,
// the clang-tidy option `Assume`, and comments in the source, on the lines
// right before a kernel or inside its body:
//
//   // coalesce-lint: assume cols % 32 == 0, rows >= 16
//
// Several facts may be given in one spelling, separated by commas. A fact
// names a kernel parameter (`cols`) or a field of a struct parameter
// (`p.cols`); a bare name applies to parameters of that name and to fields of
// that name of any struct parameter. A value known from the launch wins over a
// stated one.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_LAUNCH_STATEDFACTS_H
#define COALESCE_ANALYZER_LAUNCH_STATEDFACTS_H

#include "report/Report.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace coalesce {

struct StatedFact {
  enum Kind { Equals, Residue, AtLeast };
  Kind K = Equals;
  std::string Name;   // "cols" or "p.cols"
  int64_t Value = 0;  // Equals: the value; AtLeast: the bound; Residue: R
  int64_t Modulus = 0; // Residue: M (> 0), with 0 <= R < M
  /// Where it was given, for notes: "--assume cols=2049",
  /// "assume: in .coalesce-lint.yaml", "the comment at f.cu:12".
  std::string Spelling;

  std::string str() const; // "cols % 32 == 0"
  bool operator==(const StatedFact &O) const {
    return K == O.K && Name == O.Name && Value == O.Value && Modulus == O.Modulus &&
           Spelling == O.Spelling;
  }
};

/// One or more facts separated by commas ("cols=2049", "cols % 32 == 0,
/// rows >= 16"); Spelling is left empty. On failure, Why says what is wrong.
std::optional<std::vector<StatedFact>> parseFacts(llvm::StringRef S, std::string &Why);

/// What is known of one integer (a parameter or a field) from the facts that
/// name it: a value, or a residue and a lower bound.
struct KnownOf {
  std::optional<int64_t> Value;
  int64_t Modulus = 1, Residue = 0; // the value is Modulus * q + Residue
  std::optional<int64_t> Min;       // and at least this
  std::vector<std::string> Given;   // the spellings of the facts used
  bool any() const { return Value || Modulus > 1 || Min; }
};

/// Combines the facts about the integer called Path ("cols", "p.cols"):
/// Param is the parameter's name, Field its field path ("" or ".cols").
/// Contradictory facts (cols=3 and cols % 2 == 0) are reported in Why (a
/// kind of the "stated-fact-conflict" family).
KnownOf factsAbout(const std::vector<StatedFact> &Facts, llvm::StringRef Param,
                   llvm::StringRef Field, Reason &Why);

/// The facts stated in `// coalesce-lint: assume ...` comments on the lines
/// right before Kernel or inside its body. Misspelled ones are added to
/// Problems with their position.
std::vector<StatedFact> factsInComments(clang::ASTContext &Ctx, const clang::FunctionDecl *Kernel,
                                        std::vector<AnnotationProblem> &Problems);

} // namespace coalesce

#endif // COALESCE_ANALYZER_LAUNCH_STATEDFACTS_H

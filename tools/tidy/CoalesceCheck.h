//===- CoalesceCheck.h - One clang-tidy check per coalesce-lint rule ------===//
//
// The clang-tidy front-end: a check that runs the analysis library once per
// translation unit (shared between the checks), runs its one rule over the
// records and turns each Finding into clang-tidy diagnostics (warning or
// remark, notes, fix-its). It does no analysis of its own.
//
// Findings are silenced by `// coalesce-lint: ignore[RULE]` comments as in
// the CLI (and by NOLINT, which clang-tidy handles); identical findings of
// several template instantiations or launches are one diagnostic that names
// the instantiations (tools/output/Grouping.h). The defaults are the CLI's.
//
// Options (per check, e.g. coalesce-uncoalesced-global.MinRatio):
//   ReportUnknown  true/false, default true: also report the accesses that
//                  cannot be predicted, as remarks (the CLI's --no-unknown
//                  is ReportUnknown=false)
//   WarnMisaligned true/false, default false: report accesses whose only
//                  excess is rows starting off a 32-byte boundary
//                  (coalesce-misaligned-global) as warnings, not remarks (the
//                  CLI's --warn-misaligned)
//   MinRatio       number >= 1, default 1.0: report only cost > ideal * MinRatio
//   Block          "X[,Y[,Z]]" or "KERNEL=X[,Y[,Z]]", several separated by
//                  ';' (e.g. "reduce6=256;32,8"), default empty: the block
//                  shape of kernels whose launch shape is not known (the
//                  CLI's --block)
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_TIDY_COALESCECHECK_H
#define COALESCE_TOOLS_TIDY_COALESCECHECK_H

#include "Analysis.h"
#include "Rule.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <optional>
#include <string>
#include <vector>

namespace coalesce {
namespace tidy {

class CoalesceCheck : public clang::tidy::ClangTidyCheck {
public:
  /// RuleId is a rule's id from Rules.def ("uncoalesced-global").
  CoalesceCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context,
                llvm::StringRef RuleId);

  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  /// Records clang's errors while the file is parsed, as the CLI does, so
  /// that only the kernels they touch are skipped.
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  void emit(const Finding &F);

  clang::tidy::ClangTidyContext *TidyContext;
  std::string RuleId;
  std::string ReportUnknownText;
  bool ReportUnknown = RuleOptions().ReportUnknown;
  std::string MisalignedText;
  bool MisalignedWarnings = RuleOptions().MisalignedWarnings;
  std::string MinRatioText;
  double MinRatio = RuleOptions().MinRatio;
  std::string BlockText;
  std::vector<BlockChoice> Blocks;
  std::string AssumeText;
  std::vector<StatedFact> Facts;
  const clang::ASTContext *Analysed = nullptr;
};

} // namespace tidy
} // namespace coalesce

#endif // COALESCE_TOOLS_TIDY_COALESCECHECK_H

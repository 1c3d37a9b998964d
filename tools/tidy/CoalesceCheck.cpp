//===- CoalesceCheck.cpp - One clang-tidy check per coalesce-lint rule ----===//

#include "CoalesceCheck.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/YAMLParser.h"

#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;

namespace coalesce {
namespace tidy {

namespace {

/// The analysis of the translation unit being checked, shared by the checks:
/// every enabled coalesce- check asks for it, the first one computes it. The
/// key includes the block option because it changes the analysis. Entries are
/// dropped at the end of the translation unit (onEndOfTranslationUnit runs
/// after every check() of that unit), before the ASTContext can be reused.
class AnalysisCache {
public:
  std::shared_ptr<const TUReport> get(ASTContext &Ctx, const std::vector<BlockChoice> &Blocks) {
    std::string BlockKey;
    for (const BlockChoice &B : Blocks)
      BlockKey += B.Kernel + "=" + B.Block.str() + "=" + B.Spelling + ";";
    const Key K{&Ctx, BlockKey};
    std::lock_guard<std::mutex> Lock(M);
    auto It = Entries.find(K);
    if (It != Entries.end())
      return It->second;
    AnalysisOptions Opts;
    Opts.Blocks = Blocks;
    Opts.BlockOption = "the check option Block=X,Y,Z";
    auto R =
        std::make_shared<const TUReport>(analyzeTranslationUnit(Ctx, Opts));
    Entries.emplace(K, R);
    return R;
  }

  void forget(const ASTContext *Ctx) {
    std::lock_guard<std::mutex> Lock(M);
    for (auto It = Entries.begin(); It != Entries.end();)
      It = It->first.first == Ctx ? Entries.erase(It) : std::next(It);
  }

private:
  using Key = std::pair<const ASTContext *, std::string>;
  std::mutex M;
  std::map<Key, std::shared_ptr<const TUReport>> Entries;
};

AnalysisCache &cache() {
  static AnalysisCache C;
  return C;
}

SourceLocation locationOf(const SourcePos &P) {
  if (P.RawLoc == 0)
    return SourceLocation();
  return SourceLocation::getFromRawEncoding(
      static_cast<SourceLocation::UIntTy>(P.RawLoc));
}

/// "X[,Y[,Z]]" or "KERNEL=X[,Y[,Z]]", several separated by ';'.
std::optional<std::vector<BlockChoice>> parseBlocks(llvm::StringRef Text, std::string &Err) {
  llvm::SmallVector<llvm::StringRef, 4> Items;
  Text.split(Items, ';', -1, /*KeepEmpty=*/false);
  std::vector<BlockChoice> Out;
  for (llvm::StringRef Item : Items) {
    if (Item.trim().empty())
      continue;
    std::optional<BlockChoice> B = parseBlockChoice(Item.trim(), Err);
    if (!B) {
      if (llvm::StringRef(Err).starts_with("expects"))
        Err = "expected X[,Y[,Z]] or KERNEL=X[,Y[,Z]] with positive integers, several "
              "separated by ';'";
      return std::nullopt;
    }
    B->Spelling = "the check option Block=" + Item.trim().str();
    Out.push_back(std::move(*B));
  }
  return Out;
}

} // namespace

CoalesceCheck::CoalesceCheck(llvm::StringRef Name,
                             clang::tidy::ClangTidyContext *Context,
                             llvm::StringRef RuleId)
    : ClangTidyCheck(Name, Context), RuleId(RuleId.str()),
      ReportUnknownText(Options.get("ReportUnknown", "false").str()),
      MinRatioText(Options.get("MinRatio", "1.0").str()),
      BlockText(Options.get("Block", "").str()) {
  const std::string Prefix = Name.str() + ".";
  // Read as strings on purpose: OptionsView's get<bool>/store<bool> are
  // template specializations whose mangled names differ between GCC and the
  // clang that built clang-tidy, so a GCC-built plugin would not load.
  if (std::optional<bool> B = llvm::yaml::parseBool(ReportUnknownText)) {
    ReportUnknown = *B;
  } else {
    configurationDiag("invalid configuration value '%0' for option '%1': "
                      "expected true or false; ignored")
        << ReportUnknownText << Prefix + "ReportUnknown";
  }
  double V = 0;
  if (llvm::StringRef(MinRatioText).trim().getAsDouble(V) || !(V >= 1.0)) {
    configurationDiag("invalid configuration value '%0' for option '%1': "
                      "expected a number >= 1; ignored")
        << MinRatioText << Prefix + "MinRatio";
    MinRatioText = "1.0";
  } else {
    MinRatio = V;
  }
  if (!llvm::StringRef(BlockText).trim().empty()) {
    std::string Err;
    std::optional<std::vector<BlockChoice>> Parsed = parseBlocks(BlockText, Err);
    if (Parsed) {
      Blocks = std::move(*Parsed);
    } else {
      configurationDiag("invalid configuration value '%0' for option '%1': "
                        "%2; ignored")
          << BlockText << Prefix + "Block" << Err;
      BlockText.clear();
    }
  }
}

bool CoalesceCheck::isLanguageVersionSupported(const LangOptions &LO) const {
  return LO.CUDA;
}

void CoalesceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void CoalesceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  // Like the CLI, which does not analyse a file that failed to parse.
  if (Ctx.getDiagnostics().hasUncompilableErrorOccurred())
    return;
  Analysed = &Ctx;
  std::shared_ptr<const TUReport> Report = cache().get(Ctx, Blocks);
  RuleOptions Opts;
  Opts.MinRatio = MinRatio;
  Opts.ReportUnknown = ReportUnknown;
  // clang-tidy keeps only one of several diagnostics with the same check,
  // location and message (one access costed for several launches or template
  // instantiations), so fold the notes of the others into the first one
  // instead of losing them.
  std::vector<Finding> Findings;
  for (Finding &F : runRules(Report->Accesses, Opts, {RuleId})) {
    auto Same = llvm::find_if(Findings, [&](const Finding &G) {
      return G.Pos.RawLoc == F.Pos.RawLoc && G.Level == F.Level &&
             G.Message == F.Message;
    });
    if (Same == Findings.end()) {
      Findings.push_back(std::move(F));
      continue;
    }
    for (FindingNote &N : F.Notes) {
      const bool Known = llvm::any_of(Same->Notes, [&](const FindingNote &M) {
        return M.Message == N.Message &&
               (M.Pos ? M.Pos->RawLoc : 0) == (N.Pos ? N.Pos->RawLoc : 0);
      });
      if (!Known)
        Same->Notes.push_back(std::move(N));
    }
  }
  for (const Finding &F : Findings)
    emit(F);
}

void CoalesceCheck::onEndOfTranslationUnit() {
  if (Analysed)
    cache().forget(Analysed);
  Analysed = nullptr;
}

void CoalesceCheck::emit(const Finding &F) {
  const SourceLocation Loc = locationOf(F.Pos);
  // A fix-it goes with the note at its position (the padding note sits at
  // the array's declaration; clang-tidy applies it with --fix-notes), or with
  // the warning when no note is there.
  auto AddFix = [&](DiagnosticBuilder &D, const FixIt &X) {
    const SourceLocation At = locationOf(X.Pos);
    if (At.isInvalid())
      return;
    if (X.RemoveLength)
      D << FixItHint::CreateReplacement(
          CharSourceRange::getCharRange(At, At.getLocWithOffset(X.RemoveLength)),
          X.Insert);
    else
      D << FixItHint::CreateInsertion(At, X.Insert);
  };
  auto OnNote = [&](const FixIt &X) {
    return llvm::any_of(F.Notes, [&](const FindingNote &N) {
      return N.Pos && N.Pos->RawLoc == X.Pos.RawLoc;
    });
  };
  {
    DiagnosticBuilder D =
        diag(Loc, "%0",
             F.Level == Severity::Remark ? DiagnosticIDs::Remark
                                         : DiagnosticIDs::Warning)
        << F.Message;
    // The caret range the CLI underlines (same line, columns [Column,
    // EndColumn)).
    if (Loc.isValid() && F.Pos.EndColumn > F.Pos.Column + 1)
      D << CharSourceRange::getCharRange(
          Loc, Loc.getLocWithOffset(F.Pos.EndColumn - F.Pos.Column));
    for (const FixIt &X : F.Fixes)
      if (!OnNote(X))
        AddFix(D, X);
  } // the warning is emitted here, before its notes
  for (const FindingNote &N : F.Notes) {
    SourceLocation NoteLoc = N.Pos ? locationOf(*N.Pos) : SourceLocation();
    if (NoteLoc.isInvalid())
      NoteLoc = Loc;
    DiagnosticBuilder D = diag(NoteLoc, "%0", DiagnosticIDs::Note) << N.Message;
    if (N.Pos)
      for (const FixIt &X : F.Fixes)
        if (X.Pos.RawLoc == N.Pos->RawLoc)
          AddFix(D, X);
  }
}

void CoalesceCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ReportUnknown", ReportUnknown ? "true" : "false");
  Options.store(Opts, "MinRatio", MinRatioText);
  Options.store(Opts, "Block", BlockText);
}

} // namespace tidy
} // namespace coalesce

//===- CoalesceCheck.cpp - One clang-tidy check per coalesce-lint rule ----===//

#include "CoalesceCheck.h"

#include "Emit.h"
#include "Findings.h"
#include "Settings.h"
#include "Suppressions.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>
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
/// Forwards every diagnostic to the consumer clang-tidy installed, and
/// records the errors (the CLI's driver/Runner.cpp does the same).
class ErrorRecorder : public DiagnosticConsumer {
public:
  ErrorRecorder(DiagnosticConsumer *Next, std::unique_ptr<DiagnosticConsumer> Owned)
      : Next(Next), Owned(std::move(Owned)) {}
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Next->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Next->EndSourceFile(); }
  void finish() override { Next->finish(); }
  void clear() override {
    DiagnosticConsumer::clear();
    Next->clear();
  }
  bool IncludeInDiagnosticCounts() const override { return Next->IncludeInDiagnosticCounts(); }
  void HandleDiagnostic(DiagnosticsEngine::Level L, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L >= DiagnosticsEngine::Error) {
      llvm::SmallString<256> Msg;
      Info.FormatDiagnostic(Msg);
      std::lock_guard<std::mutex> Lock(M);
      Errors.push_back({Info.getLocation(), std::string(Msg)});
    }
    Next->HandleDiagnostic(L, Info);
  }
  std::vector<ClangError> errors() {
    std::lock_guard<std::mutex> Lock(M);
    return Errors;
  }

private:
  DiagnosticConsumer *Next;
  std::unique_ptr<DiagnosticConsumer> Owned;
  std::mutex M;
  std::vector<ClangError> Errors;
};

class AnalysisCache {
public:
  std::shared_ptr<const TUReport> get(ASTContext &Ctx, const std::vector<BlockChoice> &Blocks,
                                      const std::vector<StatedFact> &Facts) {
    std::string BlockKey;
    for (const BlockChoice &B : Blocks)
      BlockKey += B.Kernel + "=" + B.Block.str() + "=" + B.Spelling + ";";
    for (const StatedFact &F : Facts)
      BlockKey += "|" + F.str();
    const Key K{&Ctx, BlockKey};
    std::lock_guard<std::mutex> Lock(M);
    auto It = Entries.find(K);
    if (It != Entries.end())
      return It->second;
    AnalysisOptions Opts;
    Opts.Blocks = Blocks;
    Opts.Facts = Facts;
    Opts.BlockOption = "the check option Block=X,Y,Z";
    // The errors recorded while this file was parsed, if a check could
    // install the recorder; otherwise the AST alone tells.
    std::optional<std::vector<ClangError>> Errors;
    if (auto *Rec = dynamic_cast<ErrorRecorder *>(Ctx.getDiagnostics().getClient()))
      Errors = Rec->errors();
    auto R = std::make_shared<const TUReport>(
        analyzeTranslationUnit(Ctx, Opts, Errors ? &*Errors : nullptr));
    Entries.emplace(K, R);
    return R;
  }

  /// True for the first check that asks about File in the translation unit
  /// of Ctx: that one reports the problems of File's suppression comments.
  bool claim(const ASTContext *Ctx, FileID File) {
    std::lock_guard<std::mutex> Lock(M);
    return Claimed.insert({Ctx, File.getHashValue()}).second;
  }

  /// True for the first check that asks about the kernel at Loc.
  bool claimKernel(const ASTContext *Ctx, uint64_t Loc) {
    std::lock_guard<std::mutex> Lock(M);
    return Kernels.insert({Ctx, Loc}).second;
  }

  void forget(const ASTContext *Ctx) {
    std::lock_guard<std::mutex> Lock(M);
    for (auto It = Entries.begin(); It != Entries.end();)
      It = It->first.first == Ctx ? Entries.erase(It) : std::next(It);
    for (auto It = Claimed.begin(); It != Claimed.end();)
      It = It->first == Ctx ? Claimed.erase(It) : std::next(It);
    for (auto It = Kernels.begin(); It != Kernels.end();)
      It = It->first == Ctx ? Kernels.erase(It) : std::next(It);
  }

private:
  using Key = std::pair<const ASTContext *, std::string>;
  std::mutex M;
  std::map<Key, std::shared_ptr<const TUReport>> Entries;
  std::set<std::pair<const ASTContext *, unsigned>> Claimed;
  std::set<std::pair<const ASTContext *, uint64_t>> Kernels;
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

/// The check option of a setting (Settings.def).
llvm::StringRef tidyOption(SettingId Id) { return settingSpec(Id).TidyOption; }

/// The defaults of the check options are the rules' own (RuleOptions), as
/// for the CLI and the settings file: "true", "1.0".
std::string defaultReportUnknown() { return RuleOptions().ReportUnknown ? "true" : "false"; }
std::string defaultMisalignedWarnings() {
  return RuleOptions().MisalignedWarnings ? "true" : "false";
}
std::string defaultMinRatio() {
  const std::string S = formatNumber(RuleOptions().MinRatio);
  return S.find('.') == std::string::npos ? S + ".0" : S;
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

/// Facts (StatedFacts.h) separated by ';' or ','.
std::optional<std::vector<StatedFact>> parseAssume(llvm::StringRef Text, std::string &Err) {
  llvm::SmallVector<llvm::StringRef, 4> Items;
  Text.split(Items, ';', -1, /*KeepEmpty=*/false);
  std::vector<StatedFact> Out;
  for (llvm::StringRef Item : Items) {
    if (Item.trim().empty())
      continue;
    std::optional<std::vector<StatedFact>> Fs = parseFacts(Item, Err);
    if (!Fs)
      return std::nullopt;
    for (StatedFact &F : *Fs) {
      F.Spelling = "'" + F.str() + "' from the check option Assume";
      Out.push_back(std::move(F));
    }
  }
  return Out;
}

} // namespace

CoalesceCheck::CoalesceCheck(llvm::StringRef Name,
                             clang::tidy::ClangTidyContext *Context,
                             llvm::StringRef RuleId)
    : ClangTidyCheck(Name, Context), TidyContext(Context), RuleId(RuleId.str()),
      ReportUnknownText(Options.get(tidyOption(SettingId::ReportUnknown),
                                    defaultReportUnknown()).str()),
      MisalignedText(Options.get(tidyOption(SettingId::MisalignedWarnings),
                                 defaultMisalignedWarnings()).str()),
      MinRatioText(Options.get(tidyOption(SettingId::MinRatio), defaultMinRatio()).str()),
      BlockText(Options.get(tidyOption(SettingId::Block), "").str()),
      AssumeText(Options.get(tidyOption(SettingId::Assume), "").str()) {
  const std::string Prefix = Name.str() + ".";
  // Read as strings on purpose: OptionsView's get<bool>/store<bool> are
  // template specializations whose mangled names differ between GCC and the
  // clang that built clang-tidy, so a GCC-built plugin would not load.
  // The values are parsed as for the CLI and the settings file (Settings.h).
  auto Invalid = [&](SettingId Id, const std::string &Value, const std::string &Why) {
    configurationDiag("invalid configuration value '%0' for option '%1': %2; ignored")
        << Value << Prefix + tidyOption(Id).str() << Why;
  };
  auto Expected = [](SettingId Id) { return "expected " + std::string(settingSpec(Id).Expects); };
  if (std::optional<bool> B = parseSwitch(ReportUnknownText)) {
    ReportUnknown = *B;
  } else {
    Invalid(SettingId::ReportUnknown, ReportUnknownText, Expected(SettingId::ReportUnknown));
  }
  if (std::optional<bool> B = parseSwitch(MisalignedText)) {
    MisalignedWarnings = *B;
  } else {
    Invalid(SettingId::MisalignedWarnings, MisalignedText,
            Expected(SettingId::MisalignedWarnings));
    MisalignedText = defaultMisalignedWarnings();
  }
  if (std::optional<double> V = parseMinRatio(MinRatioText)) {
    MinRatio = *V;
  } else {
    Invalid(SettingId::MinRatio, MinRatioText, Expected(SettingId::MinRatio));
    MinRatioText = defaultMinRatio();
  }
  if (!llvm::StringRef(BlockText).trim().empty()) {
    std::string Err;
    std::optional<std::vector<BlockChoice>> Parsed = parseBlocks(BlockText, Err);
    if (Parsed) {
      Blocks = std::move(*Parsed);
    } else {
      Invalid(SettingId::Block, BlockText, Err);
      BlockText.clear();
    }
  }
  if (!llvm::StringRef(AssumeText).trim().empty()) {
    std::string Err;
    std::optional<std::vector<StatedFact>> Parsed = parseAssume(AssumeText, Err);
    if (Parsed) {
      Facts = std::move(*Parsed);
    } else {
      Invalid(SettingId::Assume, AssumeText, Err);
      AssumeText.clear();
    }
  }
}

bool CoalesceCheck::isLanguageVersionSupported(const LangOptions &LO) const {
  return LO.CUDA;
}

void CoalesceCheck::registerPPCallbacks(const SourceManager &, Preprocessor *PP,
                                        Preprocessor *) {
  DiagnosticsEngine &D = PP->getDiagnostics();
  if (dynamic_cast<ErrorRecorder *>(D.getClient()))
    return; // another coalesce- check installed it
  DiagnosticConsumer *Next = D.getClient();
  std::unique_ptr<DiagnosticConsumer> Owned = D.takeClient();
  D.setClient(new ErrorRecorder(Next, std::move(Owned)), /*ShouldOwnClient=*/true);
}

void CoalesceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void CoalesceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  // As in the CLI, clang's errors silence only the kernels they touch
  // (found from what clang leaves in the AST where it recovered:
  // ast/ClangErrors.h); the first check announces each of those kernels.
  Analysed = &Ctx;
  std::shared_ptr<const TUReport> Report = cache().get(Ctx, Blocks, Facts);
  // A misspelled `coalesce-lint: assume` comment, once per translation unit.
  for (const AnnotationProblem &P : Report->Problems)
    if (cache().claimKernel(&Ctx, P.Pos.RawLoc))
      diag(locationOf(P.Pos), "%0") << P.Message;
  for (const KernelSummary &K : Report->Kernels)
    if (!K.NotAnalysed.empty() && cache().claimKernel(&Ctx, K.Pos.RawLoc))
      diag(locationOf(K.Pos), "%0", DiagnosticIDs::Remark) << notAnalysedNote(K);
  RuleOptions Opts;
  Opts.MinRatio = MinRatio;
  Opts.ReportUnknown = ReportUnknown;
  Opts.MisalignedWarnings = MisalignedWarnings;
  // `// coalesce-lint: ignore[...]` comments, as in the CLI; clang-tidy
  // itself handles the NOLINT forms (and --header-filter, --system-headers).
  const SourceManager &SM = Ctx.getSourceManager();
  std::map<FileID, FileSuppressions> Comments;
  auto CommentsOf = [&](FileID File) -> const FileSuppressions & {
    auto It = Comments.find(File);
    if (It != Comments.end())
      return It->second;
    bool Invalid = false;
    llvm::StringRef Text = SM.getBufferData(File, &Invalid);
    It = Comments.emplace(File, FileSuppressions::fromText(Invalid ? "" : Text,
                                                           /*Nolint=*/false))
             .first;
    // A rule name in ignore[...] that is no rule would silence nothing:
    // said by the check of the rule it is likely a typo of (when enabled),
    // else by the first check to read the file.
    const bool First = cache().claim(&Ctx, File);
    for (const FileSuppressions::Problem &P : It->second.problems()) {
      const bool Owned =
          !P.Nearest.empty() && TidyContext->isCheckEnabled("coalesce-" + P.Nearest);
      if (Owned ? P.Nearest == RuleId : First)
        diag(SM.translateLineCol(File, P.Line, P.Column), "%0") << P.Message;
    }
    return It->second;
  };
  CommentsOf(SM.getMainFileID());
  // The policy every front-end applies (Findings.h): this check's rule,
  // comments, and one diagnostic for the same finding of several template
  // instantiations or launch configurations, naming them, as in the CLI.
  // (clang-tidy would keep only the first of several diagnostics with the
  // same check, location and message anyway.)
  PolicyFindings P = applyPolicy(Report->Accesses, {Opts, {RuleId}}, [&](const Finding &F) -> Silence {
    const SourceLocation Loc = locationOf(F.Pos);
    if (!Loc.isValid())
      return {};
    std::string By =
        CommentsOf(SM.getFileID(SM.getFileLoc(Loc))).suppressedBy(F.Pos.Line, F.checkName());
    if (!By.empty())
      return {"suppressed", "suppressed by " + By};
    return {};
  });
  for (const Finding &F : P.Shown)
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
  // A fix is one set of edits (a swizzle rewrites every use of the array):
  // all of them go with the note at the first edit's position, if there is
  // one, else with the warning, so that one --fix-notes (or --fix) applies
  // the whole of it.
  const FindingNote *FixNote = nullptr;
  if (!F.Fixes.empty())
    for (const FindingNote &N : F.Notes)
      if (N.Pos && N.Pos->RawLoc == F.Fixes.front().Pos.RawLoc) {
        FixNote = &N;
        break;
      }
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
    if (!FixNote)
      for (const FixIt &X : F.Fixes)
        AddFix(D, X);
  } // the warning is emitted here, before its notes
  for (const FindingNote &N : F.Notes) {
    SourceLocation NoteLoc = N.Pos ? locationOf(*N.Pos) : SourceLocation();
    if (NoteLoc.isInvalid())
      NoteLoc = Loc;
    DiagnosticBuilder D = diag(NoteLoc, "%0", DiagnosticIDs::Note) << N.Message;
    if (&N == FixNote)
      for (const FixIt &X : F.Fixes)
        AddFix(D, X);
  }
}

void CoalesceCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, tidyOption(SettingId::ReportUnknown), ReportUnknown ? "true" : "false");
  Options.store(Opts, tidyOption(SettingId::MisalignedWarnings),
                MisalignedWarnings ? "true" : "false");
  Options.store(Opts, tidyOption(SettingId::MinRatio), MinRatioText);
  Options.store(Opts, tidyOption(SettingId::Block), BlockText);
  Options.store(Opts, tidyOption(SettingId::Assume), AssumeText);
}

} // namespace tidy
} // namespace coalesce

//===- Runner.cpp - Parse files with clang and analyse them --------------===//

#include "driver/Runner.h"

#include "clang/Basic/OffloadArch.h"

#include "ast/ClangErrors.h"
#include "driver/FixCompile.h"
#include "driver/Invocation.h"
#include "driver/JobDatabase.h"
#include "driver/Preamble.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Stack.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <atomic>
#include <future>
#include <chrono>
#include <functional>
#include <mutex>
#include <set>

using namespace clang;

namespace coalesce {

namespace {

/// Prints clang's errors (with their notes) as clang would, at most
/// MaxPrinted of them, and records every error with its location: the
/// analysis then skips only the kernels an error touches (ast/ClangErrors.h).
/// Warnings are not printed: they are clang's business, not ours.
class RecordingConsumer : public DiagnosticConsumer {
public:
  RecordingConsumer(DiagnosticConsumer &Printer, std::vector<ClangError> &Errors)
      : Printer(Printer), Errors(Errors) {}
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Printer.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Printer.EndSourceFile(); }
  void finish() override { Printer.finish(); }
  void clear() override {
    DiagnosticConsumer::clear();
    Printer.clear();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level L, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    // Errors of the serialization layer: clang could not use the
    // precompiled preamble (stale, or not a PCH at all).
    if (L >= DiagnosticsEngine::Error && Info.getID() >= diag::DIAG_START_SERIALIZATION &&
        Info.getID() < diag::DIAG_START_SERIALIZATION + diag::DIAG_SIZE_SERIALIZATION)
      PreambleRejected = true;
    if (L >= DiagnosticsEngine::Error) {
      llvm::SmallString<256> Msg;
      Info.FormatDiagnostic(Msg);
      Errors.push_back({Info.getLocation(), std::string(Msg)});
      Showing = Errors.size() <= MaxPrinted;
    } else if (L != DiagnosticsEngine::Note) {
      Showing = false;
    }
    if (Showing)
      Printer.HandleDiagnostic(L, Info);
  }
  static constexpr size_t MaxPrinted = 20;
  bool PreambleRejected = false;

private:
  DiagnosticConsumer &Printer;
  std::vector<ClangError> &Errors;
  bool Showing = false;
};

/// The regions of the main file the preprocessor skipped: the `#if`,
/// `#ifdef`, `#elif` or `#else` line that starts each, and its lines.
struct SkippedRegion {
  unsigned First = 0, Last = 0;
  std::string Directive;
};

class SkippedRegions : public PPCallbacks {
public:
  SkippedRegions(const SourceManager &SM, std::vector<SkippedRegion> &Out) : SM(SM), Out(Out) {}
  void SourceRangeSkipped(SourceRange Range, SourceLocation EndifLoc) override {
    const SourceLocation B = Range.getBegin();
    if (B.isInvalid() || !SM.isWrittenInMainFile(B))
      return;
    SkippedRegion S;
    S.First = SM.getSpellingLineNumber(B);
    S.Last = SM.getSpellingLineNumber(Range.getEnd());
    bool Invalid = false;
    llvm::StringRef Text = SM.getCharacterData(B, &Invalid);
    if (Invalid)
      return;
    Text = Text.take_until([](char C) { return C == '\n' || C == '\r'; });
    S.Directive = Text.split("//").first.rtrim().str();
    Out.push_back(std::move(S));
  }

private:
  const SourceManager &SM;
  std::vector<SkippedRegion> &Out;
};

/// A file in which no kernel is defined or instantiated says so; where the
/// preprocessor skipped regions of it, the note names them: kernels or the
/// code that instantiates them under a macro the build defines (CUTLASS's
/// CUTLASS_ARCH_MMA_SM100_SUPPORTED, which it leaves undefined under clang).
/// Kernel templates of the main file that nothing in it instantiates.
std::vector<std::string> uninstantiatedKernels(ASTContext &Ctx) {
  std::vector<std::string> Names;
  const SourceManager &SM = Ctx.getSourceManager();
  std::function<void(const DeclContext *)> Visit = [&](const DeclContext *DC) {
    for (const Decl *D : DC->decls()) {
      if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
        Visit(NS);
        continue;
      }
      const auto *FT = dyn_cast<FunctionTemplateDecl>(D);
      if (!FT || !FT->isThisDeclarationADefinition() ||
          !FT->getTemplatedDecl()->hasAttr<CUDAGlobalAttr>() ||
          !SM.isWrittenInMainFile(SM.getExpansionLoc(FT->getLocation())))
        continue;
      if (FT->specializations().empty())
        Names.push_back(FT->getQualifiedNameAsString());
    }
  };
  Visit(Ctx.getTranslationUnitDecl());
  return Names;
}

std::string noKernelNote(const std::vector<SkippedRegion> &Skipped,
                         const std::vector<std::string> &Templates) {
  std::string Note = "no kernel is defined or instantiated in this file";
  if (!Templates.empty()) {
    Note += "; its kernel template" + std::string(Templates.size() > 1 ? "s " : " ");
    for (size_t I = 0; I < Templates.size() && I < 3; ++I)
      Note += (I ? ", " : "") + ("'" + Templates[I] + "'");
    if (Templates.size() > 3)
      Note += " and " + std::to_string(Templates.size() - 3) + " more";
    Note += Templates.size() > 1 ? " are" : " is";
    Note += " not instantiated here: the costs depend on the template arguments. Analyse the "
            "file that instantiates them, or give the build's compile database (-p BUILD_DIR): "
            "a header is then analysed through the file of the build that includes it";
  }
  if (Skipped.empty())
    return Note;
  Note += "; the preprocessor skipped ";
  const size_t Shown = std::min<size_t>(Skipped.size(), 3);
  for (size_t I = 0; I < Shown; ++I) {
    const SkippedRegion &S = Skipped[I];
    if (I)
      Note += I + 1 == Shown && Shown == Skipped.size() ? " and " : ", ";
    Note += "lines " + std::to_string(S.First) + "-" + std::to_string(S.Last) + " (`" +
            S.Directive + "`)";
  }
  if (Skipped.size() > Shown)
    Note += " and " + std::to_string(Skipped.size() - Shown) + " more regions";
  Note += ": a kernel there, or the code that instantiates one, is not seen; if the build "
          "defines the macros they test, give them after `--` (-DNAME=VALUE)";
  return Note;
}

/// Says, once clang has parsed the file, whether the parse is to be done
/// again (and so not analysed now).
using SkipAnalysis = std::function<bool(ASTContext &)>;

class Consumer : public ASTConsumer {
public:
  Consumer(RunResult &Out, const AnalysisOptions &Opts,
           const std::vector<ClangError> &Errors, const SkipAnalysis &Skip,
           const std::vector<SkippedRegion> &Skipped)
      : Out(Out), Opts(Opts), Errors(Errors), Skip(Skip), Skipped(Skipped) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Skip && Skip(Ctx))
      return;
    // Analysed even after errors: a kernel that no error touches is as
    // good as in a clean file.
    auto Start = std::chrono::steady_clock::now();
    Out.Times.Phases = AnalysisTimes();
    TUReport R = analyzeTranslationUnit(Ctx, Opts, &Errors, &Out.Times.Phases);
    Out.Times.Analysis +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    Out.Report.Accesses = std::move(R.Accesses);
    Out.Report.Kernels = std::move(R.Kernels);
    Out.Report.Notes = std::move(R.Notes);
    if (Out.Report.Kernels.empty())
      Out.Report.Notes.push_back(noKernelNote(Skipped, uninstantiatedKernels(Ctx)));
    Out.Report.Problems = std::move(R.Problems);
    Out.Analysed = true;
  }

private:
  RunResult &Out;
  const AnalysisOptions &Opts;
  const std::vector<ClangError> &Errors;
  const SkipAnalysis &Skip;
  const std::vector<SkippedRegion> &Skipped;
};

class Action : public ASTFrontendAction {
public:
  Action(RunResult &Out, const AnalysisOptions &Opts, llvm::raw_ostream &Verbose,
         const std::vector<ClangError> &Errors, const SkipAnalysis &Skip)
      : Out(Out), Opts(Opts), Verbose(Verbose), Errors(Errors), Skip(Skip) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    // Clang's "N errors generated" goes with the captured diagnostics.
    CI.setVerboseOutputStream(Verbose);
    // Every error is recorded (the consumer limits what is printed), and
    // errors after a fatal one (a missing header) are still reported, as
    // clangd does: they tell which kernels the missing header touches.
    CI.getDiagnostics().setErrorLimit(0);
    CI.getDiagnostics().setFatalsAsError(true);
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<SkippedRegions>(CI.getSourceManager(), Skipped));
    return ASTFrontendAction::BeginSourceFileAction(CI);
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>(Out, Opts, Errors, Skip, Skipped);
  }

private:
  std::vector<SkippedRegion> Skipped;
  RunResult &Out;
  const AnalysisOptions &Opts;
  llvm::raw_ostream &Verbose;
  const std::vector<ClangError> &Errors;
  const SkipAnalysis &Skip;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(RunResult &Out, const AnalysisOptions &Opts, llvm::raw_ostream &Verbose,
          const std::vector<ClangError> &Errors, const SkipAnalysis &Skip,
          const PreamblePlan *Pch)
      : Out(Out), Opts(Opts), Verbose(Verbose), Errors(Errors), Skip(Skip), Pch(Pch) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Out, Opts, Verbose, Errors, Skip);
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Inv, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHOps,
                     DiagnosticConsumer *Diags) override {
    // The precompiled preamble stands for the file's first bytes: clang
    // starts reading it after them.
    if (Pch && Pch->SkipBytes)
      Inv->getPreprocessorOpts().PrecompiledPreambleBytes = {Pch->SkipBytes, false};
    return FrontendActionFactory::runInvocation(std::move(Inv), Files, std::move(PCHOps),
                                                Diags);
  }

private:
  RunResult &Out;
  const AnalysisOptions &Opts;
  llvm::raw_ostream &Verbose;
  const std::vector<ClangError> &Errors;
  const SkipAnalysis &Skip;
  const PreamblePlan *Pch;
};

/// Clang names files as it found them, often by absolute paths: name those
/// under the working directory relative to it, as the findings do.
std::string relativeDiagnostics(const std::string &Text) {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return Text;
  std::string Prefix = std::string(Cwd) + "/";
  std::string Out;
  Out.reserve(Text.size());
  for (size_t I = 0; I < Text.size();) {
    if (Text.compare(I, Prefix.size(), Prefix) == 0 &&
        (I == 0 || Text[I - 1] == '\n' || Text[I - 1] == ' ' || Text[I - 1] == '\'')) {
      I += Prefix.size();
      continue;
    }
    Out += Text[I++];
  }
  return Out;
}

/// Paths as the user sees them: the input file by its name (FileJob::Name, or
/// as given), other files relative to the process's working directory when
/// they are under it. (The command's own directory may be a build directory
/// elsewhere; the user reads paths from where they ran the tool.)
/// The working directory with a trailing '/', or "" when it cannot be read:
/// paths below it are reported relative to it.
static std::string workingDirPrefix() {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd) || Cwd.empty())
    return "";
  std::string Dir(Cwd);
  if (Dir.back() != '/')
    Dir += '/';
  return Dir;
}

/// A header analysed through an including unit (FileJob::Focus): only the
/// records and kernels in the header (or shown there), which are the
/// input file of the run.
void focusOn(TUReport &R, const std::string &Focus) {
  auto In = [&](const SourcePos &P) {
    llvm::SmallString<256> F(P.File);
    llvm::sys::fs::make_absolute(F);
    llvm::sys::path::remove_dots(F, true);
    return !P.File.empty() && F == Focus;
  };
  std::vector<AccessRecord> Kept;
  std::set<std::string> KernelsIn;
  for (AccessRecord &A : R.Accesses) {
    const bool Here = In(A.Pos), ShownHere = A.Blame && In(A.Blame->At);
    if (!Here && !ShownHere)
      continue;
    A.Pos.InMainFile |= Here;
    if (A.Blame)
      A.Blame->At.InMainFile |= ShownHere;
    KernelsIn.insert(A.Kernel);
    Kept.push_back(std::move(A));
  }
  R.Accesses = std::move(Kept);
  std::vector<KernelSummary> Kernels;
  for (KernelSummary &K : R.Kernels)
    if (In(K.Pos) || KernelsIn.count(K.Name)) {
      K.Pos.InMainFile |= In(K.Pos);
      Kernels.push_back(std::move(K));
    }
  R.Kernels = std::move(Kernels);
  std::vector<AnnotationProblem> Problems;
  for (AnnotationProblem &P : R.Problems)
    if (In(P.Pos))
      Problems.push_back(std::move(P));
  R.Problems = std::move(Problems);
  if (R.Kernels.empty())
    R.Notes.push_back("no kernel of this file is instantiated or launched in that file");
}

void relativize(TUReport &R, const FileJob &Job) {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  auto MakeAbsolute = [](llvm::StringRef Base, llvm::SmallString<256> &P) {
    if (llvm::sys::path::is_absolute(P))
      return;
    llvm::SmallString<256> A(Base);
    llvm::sys::path::append(A, P);
    P = A;
  };
  // The input file the user named: the job's file, or the header it is
  // analysed for.
  llvm::SmallString<256> Abs(Job.Focus.empty() ? Job.File : Job.Focus);
  MakeAbsolute(Cwd, Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  const std::string Name = Job.Name.empty() ? Job.File : Job.Name;
  const std::string Dir = workingDirPrefix();
  auto Fix = [&](SourcePos &P) {
    if (P.File.empty())
      return;
    llvm::SmallString<256> F(P.File);
    MakeAbsolute(Job.Directory, F);
    llvm::sys::path::remove_dots(F, true);
    if (F == Abs)
      P.File = Name;
    else if (!Dir.empty() && llvm::StringRef(F).starts_with(Dir))
      P.File = std::string(F.substr(Dir.size()));
  };
  R.File = Name;
  for (AccessRecord &A : R.Accesses) {
    Fix(A.Pos);
    if (A.Fix)
      for (SourceEdit &E : A.Fix->Edits)
        Fix(E.Pos);
    if (A.Blame)
      Fix(A.Blame->At);
    for (SourcePos &S : A.Launch.Sites)
      Fix(S);
    for (AccessRecord::LaunchTotal &T : A.LaunchTotals)
      for (SourcePos &S : T.Sites)
        Fix(S);
  }
  for (KernelSummary &K : R.Kernels) {
    Fix(K.Pos);
    Fix(K.ErrorPos);
  }
  for (AnnotationProblem &P : R.Problems)
    Fix(P.Pos);
}

/// Paths under the working directory in a tool's message (nvcc names files
/// by absolute path) made relative, as everywhere else in the output.
static std::string relativeText(std::string Text) {
  const std::string Dir = workingDirPrefix();
  if (Dir.empty())
    return Text;
  for (size_t At; (At = Text.find(Dir)) != std::string::npos;)
    Text.erase(At, Dir.size());
  return Text;
}

/// What became of a parse with a precompiled preamble.
enum class PreambleUse {
  Stands,     // the parse and its messages are those of a parse without it
  Reparse,    // clang's messages name the preamble's own text: parse again
  Rejected,   // clang could not use it (stale, or not a PCH)
};

PreambleUse parseAndAnalyse(const FileJob &Job, const AnalysisOptions &Opts,
                            const PreamblePlan *Pch, RunResult &Out) {
  // The time of an earlier attempt (a rejected preamble) is kept.
  FileTimes Before = Out.Times;
  Out = RunResult();
  Out.Times = Before;
  const double AnalysisBefore = Out.Times.Analysis;
  auto Start = std::chrono::steady_clock::now();
  Out.Report.File = Job.Name.empty() ? Job.File : Job.Name;
  FileJob J = Job;
  if (Pch) {
    J.Args.push_back("-include-pch");
    J.Args.push_back(Pch->PchPath);
  }
  JobDatabase DB(J);
  tooling::ClangTool Tool(DB, {Job.File});
  // ClangTool keeps the names and texts of mapped files by reference: they
  // live as long as it does.
  llvm::SmallString<256> Abs(Job.Focus.empty() ? Job.File : Job.Focus);
  if (Job.Contents) {
    // ClangTool makes the input path absolute against the process's working
    // directory; the buffer goes to that path, over the file on disk (for a
    // header analysed through an including unit, over the header).
    llvm::sys::fs::make_absolute(Abs);
    Tool.mapVirtualFile(Abs, *Job.Contents);
  }
  if (Job.BuiltinHeaders)
    for (const auto &H : builtinHeaders())
      Tool.mapVirtualFile(H.first, H.second);
  for (const auto &H : compatHeaders())
    Tool.mapVirtualFile(H.first, H.second);
  if (Pch)
    Tool.mapVirtualFile(Pch->VirtualFile, Pch->VirtualText);
  std::string Diags;
  llvm::raw_string_ostream DiagOS(Diags);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  TextDiagnosticPrinter Printer(DiagOS, *DiagOpts);
  std::vector<ClangError> Errors;
  RecordingConsumer Recorder(Printer, Errors);
  Tool.setDiagnosticConsumer(&Recorder);
  Tool.setPrintErrorMessage(false);
  // With the preamble, clang's messages about headers it includes name its
  // virtual file ("In file included from .coalesce-preamble-....cu:2:"):
  // they are given the file's own lines; where that cannot be done, the
  // file is parsed again without the preamble, and this parse is not
  // analysed.
  std::string MainFile; // as clang names it
  bool Stands = true;
  SkipAnalysis Skip;
  if (Pch)
    Skip = [&](ASTContext &Ctx) {
      const SourceManager &SM = Ctx.getSourceManager();
      if (auto F = SM.getFileEntryRefForID(SM.getMainFileID()))
        MainFile = F->getName().str();
      if (!Errors.empty()) {
        DiagOS.flush();
        std::string SoFar = Diags;
        Stands = !MainFile.empty() && mapPreambleDiagnostics(SoFar, *Pch, MainFile);
      }
      return !Stands;
    };
  Factory F(Out, Opts, DiagOS, Errors, Skip, Pch);
  Tool.run(&F);
  Out.Times.Parse +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count() -
      (Out.Times.Analysis - AnalysisBefore);
  DiagOS.flush();
  if (Recorder.PreambleRejected)
    return PreambleUse::Rejected;
  if (Pch && !Errors.empty() &&
      !(Stands && Out.Analysed && mapPreambleDiagnostics(Diags, *Pch, MainFile)))
    return PreambleUse::Reparse;
  Out.ClangErrors = static_cast<unsigned>(Errors.size());
  Out.Report.ClangErrors = Out.ClangErrors;
  if (Errors.size() > RecordingConsumer::MaxPrinted)
    DiagOS << "(" << Errors.size() - RecordingConsumer::MaxPrinted
           << " more errors not shown)\n";
  DiagOS.flush();
  Out.ClangDiagnostics = relativeDiagnostics(Diags);
  if (!Job.Focus.empty()) {
    focusOn(Out.Report, Job.Focus);
    Out.Report.Notes.insert(Out.Report.Notes.begin(),
                            "analysed through " + relativeText(Job.File) +
                                ", which includes it: its templates are instantiated and its "
                                "kernels launched there");
  }
  relativize(Out.Report, Job);
  // Nothing could be analysed: no AST, or errors touch every kernel (or the
  // file has none and clang rejected it).
  unsigned Analysed = 0;
  for (const KernelSummary &K : Out.Report.Kernels)
    Analysed += K.NotAnalysed.empty();
  Out.Failed = !Out.Analysed || (Out.ClangErrors && !Analysed);
  if (Out.Failed)
    Out.Report.Errors.push_back("failed to parse " + Job.File);
  return PreambleUse::Stands;
}

void runOne(const FileJob &Job, const AnalysisOptions &Given, const RunOptions &Opts,
            const std::shared_future<WitnessResult> *Shared, RunResult &Out) {
  std::string CacheProblem;
  Out = RunResult();
  // An architecture clang does not know: one clear error naming the option
  // (clang's own would be followed by errors from the headers it then
  // cannot configure).
  for (const std::string &A : Job.Args) {
    llvm::StringRef V(A);
    if (!V.consume_front("--cuda-gpu-arch=") && !V.consume_front("--offload-arch="))
      continue;
    const clang::OffloadArch Arch = clang::StringToOffloadArch(V);
    if (Arch != clang::OffloadArch::UNKNOWN && clang::IsNVIDIAOffloadArch(Arch))
      continue;
    Out.Report.File = Job.File;
    Out.Refused = A + " is not a CUDA GPU architecture clang knows (for example sm_80, sm_90, "
                      "sm_90a, sm_100a; the default is sm_90)";
    Out.Failed = true;
    Out.Report.Errors.push_back(Out.Refused);
    return;
  }
  // The compiler witness compiles the file while clang parses it; the
  // analysis waits for it once the kernels are found.
  AnalysisOptions AOpts = Given;
  std::shared_future<WitnessResult> Witness;
  WitnessOptions WO = Opts.Witness;
  WO.CacheDir = Opts.CacheDir;
  // An unsaved header of an including unit: nvcc would compile the
  // header on disk, whose lines differ.
  if (!Job.Focus.empty() && Job.Contents)
    WO.M = WitnessOptions::Mode::Off;
  if (Shared)
    Witness = *Shared;
  else
    Witness = std::async(std::launch::async, [&Job, WO] { return runWitness(Job, WO); }).share();
  auto Since = [](std::chrono::steady_clock::time_point Start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  };
  AOpts.Witness = [Witness, &Out, Since] {
    auto Start = std::chrono::steady_clock::now();
    auto M = Witness.get().Module;
    Out.Times.WitnessWait += Since(Start);
    return M;
  };
  // Layout fixes that rest on what nvcc emits for the edited code are
  // compiled (driver/FixCompile.h), when the witness compiled the file.
  AOpts.CompileLayouts = [Witness, WO, &Job, &Out,
                          Since](const std::vector<LayoutCompileCheck> &Checks) {
    const WitnessResult &W = Witness.get();
    if (!W.Module || W.Deferred)
      return std::vector<int>(Checks.size(), -1);
    auto Start = std::chrono::steady_clock::now();
    std::vector<int> Alike = layoutCompilesAlike(Job, WO, *W.Module, Checks);
    Out.Times.LayoutCompile += Since(Start);
    return Alike;
  };
  struct Join {
    std::shared_future<WitnessResult> &W;
    RunResult &Out;
    ~Join() {
      Out.Witness = W.get();
      if (Out.Witness.Module) {
        Out.Report.WitnessSource = Out.Witness.Source;
        Out.Report.WitnessCached = Out.Witness.Cached;
      } else if (Out.Witness.NotUsed != "--witness=off") {
        Out.Report.WitnessNotUsed = relativeText(Out.Witness.NotUsed);
      }
    }
  } Joined{Witness, Out};
  // The preamble of an including unit holds the header as it is on disk:
  // not with an editor's unsaved text of it.
  if (!Opts.CacheDir.empty() && !(!Job.Focus.empty() && Job.Contents)) {
    auto Start = std::chrono::steady_clock::now();
    PreamblePlan Plan = preambleFor(Job, Opts.CacheDir);
    Out.Times.Preamble =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    if (Plan.CacheUnusable)
      CacheProblem = Plan.Problem;
    if (!Plan.PchPath.empty()) {
      switch (parseAndAnalyse(Job, AOpts, &Plan, Out)) {
      case PreambleUse::Stands:
        Out.UsedPreamble = true;
        Out.BuiltPreamble = Plan.Built;
        return;
      case PreambleUse::Rejected:
        // A stale or unreadable entry: forget it.
        discardPreamble(Plan);
        break;
      case PreambleUse::Reparse:
        // Errors in the code itself leave the entry valid for the next run.
        break;
      }
    }
  }
  parseAndAnalyse(Job, AOpts, nullptr, Out);
  Out.CacheProblem = CacheProblem;
}

/// Stack of each analysis thread.
constexpr unsigned AnalysisStackBytes = 512u << 20;

} // namespace

std::vector<RunResult> runAnalysis(const std::vector<FileJob> &Jobs,
                                   const RunOptions &Opts) {
  std::vector<RunResult> Results(Jobs.size());
  const unsigned N = std::max(1u, std::min<unsigned>(Opts.Jobs, Jobs.size()));
  std::atomic<size_t> Next{0}, Done{0};
  std::mutex ProgressLock;
  // A given cubin or binary is read once for all files.
  std::optional<std::shared_future<WitnessResult>> Given;
  if (Opts.Witness.M == WitnessOptions::Mode::Given) {
    WitnessOptions WO = Opts.Witness;
    Given = std::async(std::launch::async, [WO] { return runWitness(FileJob(), WO); }).share();
  }
  auto Worker = [&] {
    while (true) {
      size_t I = Next++;
      if (I >= Jobs.size())
        return;
      AnalysisOptions AOpts = Opts.Analysis;
      if (Opts.KernelProgress)
        AOpts.KernelProgress = [&, I](size_t K, size_t N, const std::string &Name) {
          std::lock_guard<std::mutex> G(ProgressLock);
          Opts.KernelProgress(I, K, N, Name);
        };
      runOne(Jobs[I], AOpts, Opts, Given ? &*Given : nullptr, Results[I]);
      size_t D = ++Done;
      if (Opts.Progress) {
        std::lock_guard<std::mutex> G(ProgressLock);
        Opts.Progress(D, Jobs.size());
      }
    }
  };
  // Every file is parsed and analysed on a thread with a large stack: clang's
  // parser and the interpreter recurse once per level of nesting, and
  // real code nests deeper than a default 8 MiB stack allows (clang's own
  // driver does the same). The pages are only reserved, not committed.
  std::vector<llvm::thread> Threads;
  for (unsigned T = 0; T < N; ++T)
    Threads.emplace_back(std::optional<unsigned>(AnalysisStackBytes), [&] {
      clang::noteBottomOfStack();
      Worker();
    });
  for (llvm::thread &T : Threads)
    T.join();
  return Results;
}

} // namespace coalesce

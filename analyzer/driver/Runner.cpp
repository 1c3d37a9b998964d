//===- Runner.cpp - Parse files with clang and analyse them --------------===//

#include "driver/Runner.h"

#include "driver/Invocation.h"
#include "driver/Preamble.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <mutex>
#include <thread>

using namespace clang;

namespace coalesce {

namespace {

class OneFileDatabase : public tooling::CompilationDatabase {
public:
  OneFileDatabase(const FileJob &J) : Job(J) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<std::string> Cmd = Job.Args;
    Cmd.push_back(File.str());
    return {tooling::CompileCommand(Job.Directory, File, Cmd, "")};
  }
  std::vector<std::string> getAllFiles() const override { return {Job.File}; }

private:
  const FileJob &Job;
};

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &CI, RunResult &Out, const AnalysisOptions &Opts)
      : CI(CI), Out(Out), Opts(Opts) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred()) {
      Out.Failed = true;
      return;
    }
    TUReport R = analyzeTranslationUnit(Ctx, Opts);
    Out.Report.Accesses = std::move(R.Accesses);
    Out.Report.Kernels = std::move(R.Kernels);
    Out.Report.Notes = std::move(R.Notes);
  }

private:
  CompilerInstance &CI;
  RunResult &Out;
  const AnalysisOptions &Opts;
};

class Action : public ASTFrontendAction {
public:
  Action(RunResult &Out, const AnalysisOptions &Opts, llvm::raw_ostream &Verbose)
      : Out(Out), Opts(Opts), Verbose(Verbose) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    // Clang's "N errors generated" goes with the captured diagnostics.
    CI.setVerboseOutputStream(Verbose);
    return ASTFrontendAction::BeginSourceFileAction(CI);
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>(CI, Out, Opts);
  }

private:
  RunResult &Out;
  const AnalysisOptions &Opts;
  llvm::raw_ostream &Verbose;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(RunResult &Out, const AnalysisOptions &Opts, llvm::raw_ostream &Verbose)
      : Out(Out), Opts(Opts), Verbose(Verbose) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Out, Opts, Verbose);
  }

private:
  RunResult &Out;
  const AnalysisOptions &Opts;
  llvm::raw_ostream &Verbose;
};

/// Paths as the user sees them: the input file by its name (FileJob::Name, or
/// as given), other files relative to the process's working directory when
/// they are under it. (The command's own directory may be a build directory
/// elsewhere; the user reads paths from where they ran the tool.)
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
  llvm::SmallString<256> Abs(Job.File);
  MakeAbsolute(Cwd, Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  const std::string Name = Job.Name.empty() ? Job.File : Job.Name;
  std::string Dir(Cwd);
  if (!Dir.empty() && Dir.back() != '/')
    Dir += '/';
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
    Fix(A.PadInsertPos);
    for (SourcePos &S : A.Launch.Sites)
      Fix(S);
  }
  for (KernelSummary &K : R.Kernels)
    Fix(K.Pos);
}

void parseAndAnalyse(const FileJob &Job, const AnalysisOptions &Opts,
                     const PreamblePlan *Pch, RunResult &Out) {
  Out = RunResult();
  Out.Report.File = Job.Name.empty() ? Job.File : Job.Name;
  FileJob J = Job;
  if (Pch) {
    J.Args.push_back("-include-pch");
    J.Args.push_back(Pch->PchPath);
    // Quiet: if clang rejects the preamble, the file is parsed again
    // without it and that parse reports any real errors.
    J.Args.push_back("-fno-caret-diagnostics");
  }
  OneFileDatabase DB(J);
  tooling::ClangTool Tool(DB, {Job.File});
  if (Job.Contents) {
    // ClangTool makes the input path absolute against the process's working
    // directory; the buffer goes to that path, over the file on disk.
    llvm::SmallString<256> Abs(Job.File);
    llvm::sys::fs::make_absolute(Abs);
    Tool.mapVirtualFile(Abs, *Job.Contents);
  }
  if (Job.BuiltinHeaders)
    for (const auto &H : builtinHeaders())
      Tool.mapVirtualFile(H.first, H.second);
  if (Pch)
    Tool.mapVirtualFile(Pch->VirtualFile, Pch->VirtualText);
  std::string Diags;
  llvm::raw_string_ostream DiagOS(Diags);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  TextDiagnosticPrinter Printer(DiagOS, *DiagOpts);
  Tool.setDiagnosticConsumer(&Printer);
  Tool.setPrintErrorMessage(false);
  Factory F(Out, Opts, DiagOS);
  int RC = Tool.run(&F);
  DiagOS.flush();
  Out.ClangDiagnostics = Diags;
  if (RC != 0)
    Out.Failed = true;
  relativize(Out.Report, Job);
  if (Out.Failed)
    Out.Report.Errors.push_back("failed to parse " + Job.File);
}

void runOne(const FileJob &Job, const RunOptions &Opts, RunResult &Out) {
  std::string CacheProblem;
  if (!Opts.CacheDir.empty()) {
    PreamblePlan Plan = preambleFor(Job, Opts.CacheDir);
    if (Plan.CacheUnusable)
      CacheProblem = Plan.Problem;
    if (!Plan.PchPath.empty()) {
      parseAndAnalyse(Job, Opts.Analysis, &Plan, Out);
      if (!Out.Failed) {
        Out.UsedPreamble = true;
        Out.BuiltPreamble = Plan.Built;
        return;
      }
      // A stale or rejected preamble: forget it and parse from scratch.
      discardPreamble(Plan);
    }
  }
  parseAndAnalyse(Job, Opts.Analysis, nullptr, Out);
  Out.CacheProblem = CacheProblem;
}

} // namespace

std::vector<RunResult> runAnalysis(const std::vector<FileJob> &Jobs,
                                   const RunOptions &Opts) {
  std::vector<RunResult> Results(Jobs.size());
  const unsigned N = std::max(1u, std::min<unsigned>(Opts.Jobs, Jobs.size()));
  std::atomic<size_t> Next{0}, Done{0};
  std::mutex ProgressLock;
  auto Worker = [&] {
    while (true) {
      size_t I = Next++;
      if (I >= Jobs.size())
        return;
      runOne(Jobs[I], Opts, Results[I]);
      size_t D = ++Done;
      if (Opts.Progress) {
        std::lock_guard<std::mutex> G(ProgressLock);
        Opts.Progress(D, Jobs.size());
      }
    }
  };
  if (N == 1) {
    Worker();
  } else {
    std::vector<std::thread> Threads;
    for (unsigned T = 0; T < N; ++T)
      Threads.emplace_back(Worker);
    for (std::thread &T : Threads)
      T.join();
  }
  return Results;
}

} // namespace coalesce

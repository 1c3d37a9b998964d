//===- Runner.cpp - Parse files with clang and analyse them --------------===//

#include "Runner.h"

#include "Invocation.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
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
  Action(RunResult &Out, const AnalysisOptions &Opts) : Out(Out), Opts(Opts) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>(CI, Out, Opts);
  }

private:
  RunResult &Out;
  const AnalysisOptions &Opts;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(RunResult &Out, const AnalysisOptions &Opts) : Out(Out), Opts(Opts) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Out, Opts);
  }

private:
  RunResult &Out;
  const AnalysisOptions &Opts;
};

void runOne(const FileJob &Job, const AnalysisOptions &Opts, RunResult &Out) {
  Out.Report.File = Job.File;
  OneFileDatabase DB(Job);
  tooling::ClangTool Tool(DB, {Job.File});
  if (Job.BuiltinHeaders)
    for (const auto &H : builtinHeaders())
      Tool.mapVirtualFile(H.first, H.second);
  std::string Diags;
  llvm::raw_string_ostream DiagOS(Diags);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  TextDiagnosticPrinter Printer(DiagOS, *DiagOpts);
  Tool.setDiagnosticConsumer(&Printer);
  Tool.setPrintErrorMessage(false);
  Factory F(Out, Opts);
  int RC = Tool.run(&F);
  DiagOS.flush();
  Out.ClangDiagnostics = Diags;
  if (RC != 0)
    Out.Failed = true;
  if (Out.Failed)
    Out.Report.Errors.push_back("failed to parse " + Job.File);
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
      runOne(Jobs[I], Opts.Analysis, Results[I]);
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

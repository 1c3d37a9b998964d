//===- Preamble.cpp - A persistent cache of precompiled preambles --------===//

#include "Preamble.h"

#include "Invocation.h"
#include "Runner.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <unistd.h>

using namespace clang;

namespace coalesce {

namespace {

class PchDatabase : public tooling::CompilationDatabase {
public:
  PchDatabase(const FileJob &J, std::string Main) : Job(J), Main(std::move(Main)) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<std::string> Cmd = Job.Args;
    Cmd.push_back(File.str());
    return {tooling::CompileCommand(Job.Directory, File, Cmd, "")};
  }
  std::vector<std::string> getAllFiles() const override { return {Main}; }

private:
  const FileJob &Job;
  std::string Main;
};

/// Runs GeneratePCHAction, writing to Output, whatever action the tool's
/// argument adjusters asked for.
class PchFactory : public tooling::FrontendActionFactory {
public:
  explicit PchFactory(std::string Output) : Output(std::move(Output)) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<GeneratePCHAction>();
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Inv, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHOps,
                     DiagnosticConsumer *Diags) override {
    Inv->getFrontendOpts().OutputFile = Output;
    Inv->getFrontendOpts().ProgramAction = frontend::GeneratePCH;
    return FrontendActionFactory::runInvocation(std::move(Inv), Files,
                                                std::move(PCHOps), Diags);
  }

private:
  std::string Output;
};

std::string hex(uint64_t V) {
  char B[17];
  snprintf(B, sizeof B, "%016llx", static_cast<unsigned long long>(V));
  return B;
}

} // namespace

std::string defaultCacheDir() {
  if (const char *D = std::getenv("COALESCE_CACHE_DIR"); D && *D)
    return D;
  llvm::SmallString<256> P;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    P = X;
  else if (const char *H = std::getenv("HOME"); H && *H) {
    P = H;
    llvm::sys::path::append(P, ".cache");
  } else
    return "";
  llvm::sys::path::append(P, "coalesce-lint");
  return std::string(P);
}

PreamblePlan preambleFor(const FileJob &Job, const std::string &CacheDir) {
  PreamblePlan Plan;
  if (CacheDir.empty())
    return Plan;
  llvm::SmallString<256> Abs(Job.File);
  if (!llvm::sys::path::is_absolute(Abs)) {
    Abs = Job.Directory;
    llvm::sys::path::append(Abs, Job.File);
  }
  auto Buf = llvm::MemoryBuffer::getFile(Abs);
  if (!Buf) {
    Plan.Problem = "cannot read " + Job.File;
    return Plan;
  }
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  LO.CUDA = true;
  PreambleBounds Bounds = Lexer::ComputePreamble((*Buf)->getBuffer(), LO);
  std::string Text = (*Buf)->getBuffer().substr(0, Bounds.Size).str();
  if (!Text.empty() && !Bounds.PreambleEndsAtStartOfLine)
    Text += "\n";
  llvm::StringRef Dir = llvm::sys::path::parent_path(Abs);

  std::string KeyText = std::string(LLVM_VERSION_STRING) + '\0' + Dir.str() + '\0';
  for (const std::string &A : Job.Args)
    KeyText += A + '\0';
  KeyText += Job.BuiltinHeaders ? "builtin\0" : "toolkit\0";
  KeyText += Text;
  const std::string Key = hex(llvm::xxh3_64bits(llvm::StringRef(KeyText)));

  llvm::SmallString<256> Pch(CacheDir);
  llvm::sys::path::append(Pch, Key + ".pch");
  llvm::SmallString<256> Virtual(Dir);
  llvm::sys::path::append(Virtual, ".coalesce-preamble-" + Key + ".cu");
  Plan.VirtualFile = std::string(Virtual);
  Plan.VirtualText = Text;
  if (llvm::sys::fs::exists(Pch)) {
    Plan.PchPath = std::string(Pch);
    return Plan;
  }
  if (std::error_code EC = llvm::sys::fs::create_directories(CacheDir)) {
    Plan.Problem = "cannot create the cache directory " + CacheDir + ": " + EC.message();
    return Plan;
  }
  llvm::SmallString<256> Tmp(Pch);
  Tmp += ".tmp." + std::to_string(::getpid());

  PchDatabase DB(Job, Plan.VirtualFile);
  tooling::ClangTool Tool(DB, {Plan.VirtualFile});
  Tool.mapVirtualFile(Plan.VirtualFile, Text);
  if (Job.BuiltinHeaders)
    for (const auto &H : builtinHeaders())
      Tool.mapVirtualFile(H.first, H.second);
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  DiagnosticOptions DO;
  TextDiagnosticPrinter Printer(OS, DO);
  Tool.setDiagnosticConsumer(&Printer);
  Tool.setPrintErrorMessage(false);
  PchFactory F{std::string(Tmp)};
  const int RC = Tool.run(&F);
  if (RC != 0 || !llvm::sys::fs::exists(Tmp)) {
    llvm::sys::fs::remove(Tmp);
    Plan.Problem = "the preamble of " + Job.File + " could not be precompiled";
    return Plan;
  }
  if (llvm::sys::fs::rename(Tmp, Pch)) {
    llvm::sys::fs::remove(Tmp);
    if (!llvm::sys::fs::exists(Pch)) {
      Plan.Problem = "cannot write " + std::string(Pch);
      return Plan;
    }
  }
  Plan.PchPath = std::string(Pch);
  Plan.Built = true;
  return Plan;
}

void discardPreamble(const PreamblePlan &Plan) {
  if (!Plan.PchPath.empty())
    llvm::sys::fs::remove(Plan.PchPath);
}

} // namespace coalesce

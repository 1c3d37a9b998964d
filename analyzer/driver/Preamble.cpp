//===- Preamble.cpp - A persistent cache of precompiled preambles --------===//

#include "driver/Preamble.h"

#include "driver/CacheFiles.h"
#include "driver/Invocation.h"
#include "driver/JobDatabase.h"
#include "driver/Runner.h"

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
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <thread>
#include <unistd.h>

using namespace clang;

namespace coalesce {

namespace {

/// Runs GeneratePCHAction, writing to Output, whatever action the tool's
/// argument adjusters asked for.
class PchFactory : public tooling::FrontendActionFactory {
public:
  PchFactory(std::string Output, llvm::raw_ostream &Verbose)
      : Output(std::move(Output)), Verbose(Verbose) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<QuietPchAction>(Verbose, Inputs);
  }
  /// The files the precompilation read: "size mtime path" lines.
  std::string Inputs;
  bool runInvocation(std::shared_ptr<CompilerInvocation> Inv, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHOps,
                     DiagnosticConsumer *Diags) override {
    Inv->getFrontendOpts().OutputFile = Output;
    Inv->getFrontendOpts().ProgramAction = frontend::GeneratePCH;
    return FrontendActionFactory::runInvocation(std::move(Inv), Files,
                                                std::move(PCHOps), Diags);
  }

private:
  /// Clang's "N errors generated" goes to the captured diagnostics, not
  /// to stderr.
  class QuietPchAction : public GeneratePCHAction {
  public:
    QuietPchAction(llvm::raw_ostream &OS, std::string &Inputs) : OS(OS), Inputs(Inputs) {}
    bool BeginSourceFileAction(CompilerInstance &CI) override {
      CI.setVerboseOutputStream(OS);
      return GeneratePCHAction::BeginSourceFileAction(CI);
    }
    void EndSourceFileAction() override {
      Inputs.clear();
      SourceManager &SM = getCompilerInstance().getSourceManager();
      for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
        // A virtual file ("" stamp) is part of the key already.
        Inputs += fileStamp(It->first.getName());
      }
      GeneratePCHAction::EndSourceFileAction();
    }

  private:
    llvm::raw_ostream &OS;
    std::string &Inputs;
  };
  std::string Output;
  llvm::raw_ostream &Verbose;
};

/// Marks a cache entry as used now (the cache is pruned by age of last use).
void touch(const llvm::Twine &Path) {
  int FD;
  if (llvm::sys::fs::openFileForReadWrite(Path, FD, llvm::sys::fs::CD_OpenExisting,
                                          llvm::sys::fs::OF_None))
    return;
  llvm::sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
}

/// Keeps the cache under its size limit ($COALESCE_CACHE_MAX_MB, default
/// 1024): deletes the entries used longest ago, never Keep, and temporary
/// files left by a run that died over an hour ago.
void pruneCache(const std::string &CacheDir, const std::string &Keep) {
  uint64_t Limit = 1024;
  if (const char *M = std::getenv("COALESCE_CACHE_MAX_MB"); M && *M)
    Limit = std::strtoull(M, nullptr, 10);
  Limit <<= 20;
  struct Entry {
    std::string Path;
    llvm::sys::TimePoint<> Used;
    uint64_t Size;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  const auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(CacheDir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::sys::fs::file_status St;
    if (llvm::sys::fs::status(It->path(), St) || !llvm::sys::fs::is_regular_file(St))
      continue;
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.contains(".pch.tmp.")) {
      if (Now - St.getLastModificationTime() > std::chrono::hours(1))
        llvm::sys::fs::remove(It->path());
      continue;
    }
    if (!Name.ends_with(".pch") && !Name.ends_with(".nopch"))
      continue;
    Entries.push_back({It->path(), St.getLastModificationTime(), St.getSize()});
    Total += St.getSize();
  }
  if (Total <= Limit)
    return;
  std::sort(Entries.begin(), Entries.end(),
            [](const Entry &A, const Entry &B) { return A.Used < B.Used; });
  for (const Entry &E : Entries) {
    if (Total <= Limit)
      break;
    if (E.Path == Keep)
      continue;
    if (!llvm::sys::fs::remove(E.Path))
      Total -= E.Size;
  }
}

/// The part of a file's preamble worth precompiling, written canonically so
/// that files that include the same headers share one entry: its directives
/// up to the last #include at conditional depth 0, without comments, one per
/// line, tokens separated as in the source. (Directives after the last
/// #include are parsed with the file; its own text is always parsed in full.)
/// Lines receives, for each line of the result, the line of the file it was
/// taken from, or 0 where that is not one line (a directive continued over
/// several) or where clang would not name it (after a #line directive); End,
/// the offset in Preamble just after the last token of the result.
std::string includePreamble(llvm::StringRef Preamble, const LangOptions &LO,
                            std::vector<unsigned> &Lines, size_t &End) {
  const std::string Buffer = Preamble.str(); // the lexer needs the NUL at the end
  const llvm::StringRef Text(Buffer);
  Lexer L(SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
  L.SetCommentRetentionState(false);
  std::string Out, Line;
  std::vector<unsigned> OutLines;
  size_t Cut = 0, CutLines = 0, CutEnd = 0, LineEnd = 0;
  int Depth = 0;
  bool IncludeInLine = false, IncludeSinceCut = false, LineDirective = false;
  // The file's line of the current token: clang counts \n, \r\n and a lone
  // \r as one line break each.
  unsigned PhysLine = 1, LineStart = 0;
  size_t Counted = 0;
  auto LineAt = [&](size_t Offset) {
    for (; Counted < Offset; ++Counted)
      if (Text[Counted] == '\n' ||
          (Text[Counted] == '\r' && (Counted + 1 >= Text.size() || Text[Counted + 1] != '\n')))
        ++PhysLine;
    return PhysLine;
  };
  auto EndLine = [&] {
    if (Line.empty())
      return;
    Out += Line + "\n";
    Line.clear();
    OutLines.push_back(LineStart);
    IncludeSinceCut |= IncludeInLine;
    IncludeInLine = false;
    if (Depth == 0 && IncludeSinceCut) {
      Cut = Out.size();
      CutLines = OutLines.size();
      CutEnd = LineEnd;
      IncludeSinceCut = false;
    }
  };
  Token T;
  bool AfterHash = false;
  while (true) {
    L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    if (T.isAtStartOfLine())
      EndLine();
    const size_t Offset = T.getLocation().getRawEncoding();
    const unsigned TokLine = LineAt(Offset);
    if (Line.empty())
      LineStart = TokLine;
    if (TokLine != LineStart || LineAt(Offset + T.getLength()) != LineStart)
      LineStart = 0;
    const llvm::StringRef Spelling = Text.substr(Offset, T.getLength());
    if (AfterHash && T.is(tok::raw_identifier)) {
      if (Spelling == "if" || Spelling == "ifdef" || Spelling == "ifndef")
        ++Depth;
      else if (Spelling == "endif")
        Depth = std::max(0, Depth - 1);
      else if (Spelling == "include" || Spelling == "include_next" || Spelling == "import")
        IncludeInLine = true;
      else if (Spelling == "line")
        LineDirective = true;
    } else if (AfterHash && T.is(tok::numeric_constant)) {
      LineDirective = true; // a GNU line marker, # 12 "file"
    }
    AfterHash = T.is(tok::hash) && T.isAtStartOfLine();
    if (!Line.empty() && T.hasLeadingSpace())
      Line += ' ';
    Line += Spelling.str();
    LineEnd = Offset + T.getLength();
  }
  EndLine();
  if (LineDirective)
    std::fill(OutLines.begin(), OutLines.end(), 0);
  OutLines.resize(CutLines);
  Lines = std::move(OutLines);
  End = CutEnd;
  return Out.substr(0, Cut);
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
  llvm::sys::fs::make_absolute(Abs); // as ClangTool resolves it
  // The text clang will parse: the editor's buffer, or the file.
  std::unique_ptr<llvm::MemoryBuffer> Buf;
  if (Job.Contents) {
    Buf = llvm::MemoryBuffer::getMemBuffer(*Job.Contents, Job.File);
  } else if (auto FromDisk = llvm::MemoryBuffer::getFile(Abs)) {
    Buf = std::move(*FromDisk);
  } else {
    Plan.Problem = "cannot read " + Job.File;
    return Plan;
  }
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  LO.CUDA = true;
  PreambleBounds Bounds = Lexer::ComputePreamble(Buf->getBuffer(), LO);
  // (Without an #include it is empty: the PCH then holds what the driver
  // includes itself, the CUDA runtime wrapper, the bulk of any CUDA parse.)
  std::vector<unsigned> Lines;
  size_t End = 0;
  const std::string Text =
      includePreamble(Buf->getBuffer().substr(0, Bounds.Size), LO, Lines, End);
  llvm::StringRef Dir = llvm::sys::path::parent_path(Abs);

  // The command's directory resolves its relative -I paths.
  std::string KeyText = std::string(LLVM_VERSION_STRING) + '\0' + Dir.str() + '\0' +
                        Job.Directory + '\0';
  for (const std::string &A : Job.Args)
    KeyText += A + '\0';
  KeyText += Job.BuiltinHeaders ? "builtin\0" : "toolkit\0";
  KeyText += Text;
  const std::string Key = hexDigest(llvm::xxh3_64bits(llvm::StringRef(KeyText)));

  llvm::SmallString<256> Pch(CacheDir);
  llvm::sys::path::append(Pch, Key + ".pch");
  llvm::SmallString<256> Virtual(Dir);
  llvm::sys::path::append(Virtual, ".coalesce-preamble-" + Key + ".cu");
  Plan.VirtualFile = std::string(Virtual);
  Plan.VirtualText = Text;
  Plan.SourceLines = std::move(Lines);
  Plan.SkipBytes = static_cast<unsigned>(End);
  if (llvm::sys::fs::exists(Pch)) {
    Plan.PchPath = std::string(Pch);
    touch(Pch); // recently used: pruned last
    return Plan;
  }
  // A preamble with an error in its headers cannot be precompiled; that is
  // remembered, with the files the attempt read, until one of them changes.
  llvm::SmallString<256> Failed(CacheDir);
  llvm::sys::path::append(Failed, Key + ".nopch");
  if (auto Prev = llvm::MemoryBuffer::getFile(Failed)) {
    if (stampsHold((*Prev)->getBuffer())) {
      touch(Failed);
      Plan.Problem = "the preamble of " + Job.File + " could not be precompiled";
      return Plan;
    }
    llvm::sys::fs::remove(Failed);
  }
  if (std::error_code EC = llvm::sys::fs::create_directories(CacheDir)) {
    Plan.Problem = "cannot create the cache directory " + CacheDir + ": " + EC.message();
    Plan.CacheUnusable = true;
    return Plan;
  }
  llvm::SmallString<256> Tmp(Pch);
  // Unique per process and thread: two files of one directory may share a
  // preamble and be precompiled at once.
  Tmp += ".tmp." + std::to_string(::getpid()) + "." +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));

  JobDatabase DB(Job, Plan.VirtualFile);
  tooling::ClangTool Tool(DB, {Plan.VirtualFile});
  Tool.mapVirtualFile(Plan.VirtualFile, Text);
  if (Job.BuiltinHeaders)
    for (const auto &H : builtinHeaders())
      Tool.mapVirtualFile(H.first, H.second);
  for (const auto &H : compatHeaders())
    Tool.mapVirtualFile(H.first, H.second);
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  DiagnosticOptions DO;
  TextDiagnosticPrinter Printer(OS, DO);
  Tool.setDiagnosticConsumer(&Printer);
  Tool.setPrintErrorMessage(false);
  PchFactory F{std::string(Tmp), OS};
  const int RC = Tool.run(&F);
  if (RC != 0 || !llvm::sys::fs::exists(Tmp)) {
    llvm::sys::fs::remove(Tmp);
    Plan.Problem = "the preamble of " + Job.File + " could not be precompiled";
    if (!F.Inputs.empty()) {
      llvm::SmallString<256> FailedTmp(Tmp);
      FailedTmp += ".nopch";
      {
        std::error_code EC;
        llvm::raw_fd_ostream Out(FailedTmp, EC);
        if (!EC)
          Out << F.Inputs;
      }
      if (llvm::sys::fs::rename(FailedTmp, Failed))
        llvm::sys::fs::remove(FailedTmp);
    }
    return Plan;
  }
  if (llvm::sys::fs::rename(Tmp, Pch)) {
    llvm::sys::fs::remove(Tmp);
    if (!llvm::sys::fs::exists(Pch)) {
      Plan.Problem = "cannot write " + std::string(Pch);
      Plan.CacheUnusable = true;
      return Plan;
    }
  }
  Plan.PchPath = std::string(Pch);
  Plan.Built = true;
  pruneCache(CacheDir, Plan.PchPath);
  return Plan;
}

bool mapPreambleDiagnostics(std::string &Text, const PreamblePlan &Plan,
                            llvm::StringRef MainFile) {
  // With -include-pch, the files at the top of the precompiled preamble's
  // include stacks (its virtual file, and the buffers clang makes itself:
  // the predefines, token pastes) are "included" from the start of the main
  // file. Where the virtual file includes a header, clang prints
  //   In file included from <main file>:1:          (the PCH's import)
  //   In file included from <virtual file>:N:
  // and a parse without the PCH prints the second line with the file's own
  // line, without the first. Any other mention of these files cannot be
  // mapped: the virtual file's own text, or clang's buffers, whose stacks a
  // parse without the PCH prints without the import line.
  const std::string Lead = "In file included from ";
  const std::string Virtual = Lead + Plan.VirtualFile + ":";
  const std::string Import = Lead + MainFile.str() + ":";
  const llvm::StringRef Name = llvm::sys::path::filename(Plan.VirtualFile);
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  std::vector<std::string> Out;
  for (llvm::StringRef L : Lines) {
    if (L.contains("<built-in>") || L.contains("<scratch space>") ||
        L.contains("<command line>"))
      return false;
    if (!L.contains(Name)) {
      Out.push_back(L.str());
      continue;
    }
    unsigned N = 0;
    llvm::StringRef Rest = L;
    if (!Rest.consume_front(Virtual) || !Rest.consume_back(":") ||
        Rest.getAsInteger(10, N) || N == 0 || N > Plan.SourceLines.size() ||
        Plan.SourceLines[N - 1] == 0 || Out.empty())
      return false;
    llvm::StringRef Prev = Out.back();
    unsigned ImportLine = 0;
    if (!Prev.consume_front(Import) || !Prev.consume_back(":") ||
        Prev.getAsInteger(10, ImportLine))
      return false;
    Out.back() = Lead + MainFile.str() + ":" + std::to_string(Plan.SourceLines[N - 1]) + ":";
  }
  Text = llvm::join(Out, "\n");
  return true;
}

void discardPreamble(const PreamblePlan &Plan) {
  if (!Plan.PchPath.empty())
    llvm::sys::fs::remove(Plan.PchPath);
}

} // namespace coalesce

//===- FixCompile.cpp - Compile a layout fix's edited code with nvcc -------===//

#include "driver/FixCompile.h"

#include "driver/CacheFiles.h"
#include "driver/Runner.h"
#include "report/SourceEdit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <map>
#include <set>

namespace coalesce {

namespace {

/// Files with these extensions are mirrored (a project's sources and
/// headers); at most MirrorLimit of them.
constexpr size_t MirrorLimit = 20000;
bool sourceLike(llvm::StringRef Path) {
  const llvm::StringRef Ext = llvm::sys::path::extension(Path);
  for (const char *E : {".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl", ".inc", ".ipp",
                        ".tcc", ".c", ".cc", ".cpp", ".cxx"})
    if (Ext == E)
      return true;
  return false;
}

std::string absolute(const std::string &Path, const std::string &Dir) {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P) && !Dir.empty()) {
    P = Dir;
    llvm::sys::path::append(P, Path);
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

/// Path relative to Root ("" when it is not under Root).
std::string under(const std::string &Path, const std::string &Root) {
  llvm::StringRef P(Path);
  if (!P.consume_front(Root) || !P.consume_front("/"))
    return "";
  return P.str();
}

std::string readText(const std::string &Path, bool &Ok) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  Ok = static_cast<bool>(B);
  return B ? (*B)->getBuffer().str() : std::string();
}

bool writeText(const std::string &Path, const std::string &Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return false;
  OS << Text;
  return !OS.has_error();
}

/// Per (file relative to the mirrored root, line): the shared-memory
/// instructions' opcodes, counted over every function.
using LineOps = std::map<std::pair<std::string, unsigned>, std::map<std::string, unsigned>>;
LineOps sharedOps(const witness::SassModule &M, const std::string &Dir,
                  const std::vector<std::string> &Roots) {
  LineOps Out;
  for (const witness::SassFunction &F : M.Functions)
    for (const witness::SassInstruction &I : F.Memory) {
      if (I.Chain.empty() || !I.Space.Space || *I.Space.Space != MemorySpace::Shared)
        continue;
      const std::string File = absolute(I.Chain.front().File, Dir);
      for (const std::string &Root : Roots)
        if (std::string Rel = under(File, Root); !Rel.empty()) {
          ++Out[{Rel, I.Chain.front().Line}][I.Opcode];
          break;
        }
    }
  return Out;
}

} // namespace

std::vector<int> layoutCompilesAlike(const FileJob &Job, const WitnessOptions &O,
                                      const witness::SassModule &Original,
                                      const std::vector<LayoutCompileCheck> &Checks) {
  std::vector<int> Out(Checks.size(), -1);
  if (Checks.empty() || O.M != WitnessOptions::Mode::Auto || Job.Contents)
    return Out;
  const std::string Main = absolute(Job.File, Job.Directory);
  const std::string Root = std::string(llvm::sys::path::parent_path(Main));
  // The edited files, by path.
  std::map<std::string, std::vector<SourceEdit>> ByFile;
  for (const LayoutCompileCheck &C : Checks)
    for (const SourceEdit &E : C.Edits) {
      const std::string F = absolute(E.Pos.File, Job.Directory);
      if (under(F, Root).empty())
        return Out; // outside the tree the mirror holds
      ByFile[F].push_back(E);
    }
  std::map<std::string, std::string> Edited;
  std::string KeyText = Main + "\n";
  for (const std::string &A : Job.Args)
    KeyText += A + "\n";
  {
    bool Ok = false;
    KeyText += readText(Main, Ok);
    if (!Ok)
      return Out;
  }
  for (auto &[F, Es] : ByFile) {
    bool Ok = false;
    std::string Text = readText(F, Ok);
    KeyText += "\n" + F + "\n" + Text;
    for (const SourceEdit &E : Es)
      KeyText += std::to_string(E.Pos.Line) + ":" + std::to_string(E.Pos.Column) + ":" +
                 std::to_string(E.RemoveLength) + ":" + E.Insert + "\n";
    unsigned Applied = 0;
    std::vector<std::string> Skipped;
    std::string New = applyEditsToText(Text, Es, Applied, Skipped);
    if (!Ok || !Skipped.empty())
      return Out;
    Edited[F] = std::move(New);
  }
  for (const LayoutCompileCheck &C : Checks)
    for (const SourcePos &P : C.Lines)
      KeyText += "line " + absolute(P.File, Job.Directory) + ":" + std::to_string(P.Line) + "\n";
  // The cached answer.
  std::string Entry;
  if (!O.CacheDir.empty()) {
    llvm::SmallString<256> D(O.CacheDir);
    llvm::sys::path::append(D, "witness");
    if (!llvm::sys::fs::create_directories(D))
      Entry = std::string(D) + "/layout-" + hexDigest(llvm::xxh3_64bits(KeyText));
  }
  if (!Entry.empty()) {
    bool Ok = false;
    const std::string Cached = readText(Entry, Ok);
    if (Ok && Cached.size() == Checks.size()) {
      for (size_t I = 0; I < Checks.size(); ++I)
        Out[I] = Cached[I] == '1' ? 1 : 0;
      return Out;
    }
  }
  if (O.CacheOnly)
    return Out;

  // The mirror: every source file under Root a link, the edited ones
  // written.
  llvm::SmallString<128> Tmp;
  if (llvm::sys::fs::createUniqueDirectory("coalesce-layout", Tmp))
    return Out;
  const std::string Mirror = std::string(Tmp);
  struct Cleanup {
    std::string Dir;
    ~Cleanup() { llvm::sys::fs::remove_directories(Dir); }
  } Clean{Mirror};
  size_t Files = 0;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC)) {
    const std::string Path = It->path();
    const llvm::StringRef Name = llvm::sys::path::filename(Path);
    if (Name.starts_with(".")) {
      It.no_push();
      continue;
    }
    if (It->type() != llvm::sys::fs::file_type::regular_file || !sourceLike(Path) ||
        Edited.count(Path))
      continue;
    if (++Files > MirrorLimit)
      return Out;
    llvm::SmallString<256> Link(Mirror);
    llvm::sys::path::append(Link, under(Path, Root));
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Link));
    if (llvm::sys::fs::create_link(Path, Link))
      return Out;
  }
  for (const auto &[F, Text] : Edited) {
    llvm::SmallString<256> P(Mirror);
    llvm::sys::path::append(P, under(F, Root));
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    if (!writeText(std::string(P), Text))
      return Out;
  }
  // The same compile, of the mirror: include directories under Root
  // point into it.
  FileJob J = Job;
  {
    llvm::SmallString<256> P(Mirror);
    llvm::sys::path::append(P, under(Main, Root));
    J.File = std::string(P);
  }
  auto Moved = [&](const std::string &Dir) {
    const std::string Rel = under(absolute(Dir, Job.Directory), Root);
    if (absolute(Dir, Job.Directory) == Root)
      return Mirror;
    if (Rel.empty())
      return Dir;
    llvm::SmallString<256> P(Mirror);
    llvm::sys::path::append(P, Rel);
    return std::string(P);
  };
  for (size_t I = 0; I < J.Args.size(); ++I) {
    llvm::StringRef S(J.Args[I]);
    if ((S == "-I" || S == "-isystem" || S == "-iquote") && I + 1 < J.Args.size())
      J.Args[I + 1] = Moved(J.Args[I + 1]), ++I;
    else if (S.starts_with("-isystem") && S.size() > 8)
      J.Args[I] = "-isystem" + Moved(S.substr(8).str());
    else if (S.starts_with("-I") && S.size() > 2)
      J.Args[I] = "-I" + Moved(S.substr(2).str());
  }
  WitnessOptions W = O;
  W.CacheDir.clear();
  W.CacheOnly = false;
  const WitnessResult R = runWitness(J, W);
  if (!R.Module)
    return Out;
  const LineOps Before = sharedOps(Original, Job.Directory, {Root});
  const LineOps After = sharedOps(*R.Module, Job.Directory, {Mirror, Root});
  std::string Answer;
  for (size_t I = 0; I < Checks.size(); ++I) {
    bool Same = true;
    for (const SourcePos &P : Checks[I].Lines) {
      const std::pair<std::string, unsigned> K{under(absolute(P.File, Job.Directory), Root),
                                               P.Line};
      auto B = Before.find(K), A = After.find(K);
      const bool HasB = B != Before.end(), HasA = A != After.end();
      if (HasB != HasA || (HasB && B->second != A->second))
        Same = false;
    }
    Out[I] = Same ? 1 : 0;
    Answer += Same ? '1' : '0';
  }
  if (!Entry.empty())
    writeText(Entry, Answer);
  return Out;
}

} // namespace coalesce

//===- CompileDb.cpp - Compile databases and nvcc command lines ----------===//

#include "driver/CompileDb.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>
#include <map>
#include <set>
#include <regex>

namespace coalesce {

namespace {

bool startsWith(const std::string &S, const std::string &P) {
  return S.compare(0, P.size(), P) == 0;
}

std::string baseName(const std::string &P) {
  return std::string(llvm::sys::path::filename(P));
}

bool isNvcc(const std::vector<std::string> &CL) {
  return !CL.empty() && baseName(CL[0]).find("nvcc") != std::string::npos;
}

/// "compute_90" / "sm_90a" / "sm_90" -> "sm_90" (a, f suffixes dropped: clang
/// accepts sm_90a, but the memory model is the same).
std::string smOf(std::string Arch) {
  std::smatch M;
  if (std::regex_search(Arch, M, std::regex("(?:sm|compute|lto)_([0-9]+)")))
    return "sm_" + M[1].str();
  return "";
}

/// The real architectures of a -gencode value "arch=compute_90,code=[compute_90,sm_90]".
std::vector<std::string> gencodeArchs(const std::string &V) {
  std::vector<std::string> Out;
  std::string Code;
  size_t P = V.find("code=");
  if (P != std::string::npos)
    Code = V.substr(P + 5);
  std::regex Re("sm_[0-9]+[a-z]?");
  for (std::sregex_iterator It(Code.begin(), Code.end(), Re), End; It != End; ++It)
    Out.push_back(smOf(It->str()));
  if (Out.empty()) {
    std::string A = smOf(V);
    if (!A.empty())
      Out.push_back(A);
  }
  return Out;
}

/// Expands nvcc's --options-file/-optf and @response files.
bool expandOptionFiles(std::vector<std::string> &Args, const std::string &Dir,
                       std::string &Err) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string Path;
    const std::string &A = Args[I];
    if ((A == "--options-file" || A == "-optf") && I + 1 < Args.size())
      Path = Args[++I];
    else if (startsWith(A, "--options-file="))
      Path = A.substr(15);
    else if (startsWith(A, "@") && A.size() > 1)
      Path = A.substr(1);
    if (Path.empty()) {
      Out.push_back(A);
      continue;
    }
    llvm::SmallString<256> Full(Path);
    if (!llvm::sys::path::is_absolute(Full)) {
      Full = Dir;
      llvm::sys::path::append(Full, Path);
    }
    auto Buf = llvm::MemoryBuffer::getFile(Full);
    if (!Buf) {
      Err = "cannot read options file " + std::string(Full);
      return false;
    }
    llvm::BumpPtrAllocator Alloc;
    llvm::StringSaver Saver(Alloc);
    llvm::SmallVector<const char *, 32> Toks;
    llvm::cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Toks);
    for (const char *T : Toks)
      Out.push_back(T);
  }
  Args = std::move(Out);
  return true;
}

} // namespace

bool isCudaCommand(const std::vector<std::string> &CL, const std::string &File) {
  if (isNvcc(CL))
    return true;
  for (size_t I = 0; I + 1 < CL.size(); ++I)
    if (CL[I] == "-x" && (CL[I + 1] == "cuda" || CL[I + 1] == "cu"))
      return true;
  for (const std::string &A : CL)
    if (A == "-xcuda")
      return true;
  llvm::StringRef F(File);
  return F.ends_with(".cu") || F.ends_with(".cuh");
}

TranslatedCommand translateCommand(const std::vector<std::string> &CommandLine,
                                   const std::string &File,
                                   const std::string &Directory,
                                   const InvocationOptions &Base,
                                   bool BaseArchWins) {
  TranslatedCommand T;
  std::vector<std::string> Args(CommandLine.begin() + (CommandLine.empty() ? 0 : 1),
                                CommandLine.end());
  if (!expandOptionFiles(Args, Directory, T.Problem))
    return T;
  const bool Nvcc = isNvcc(CommandLine);
  std::vector<std::string> Kept;   // options for clang
  std::vector<std::string> Archs;  // real architectures, in order
  std::string FileAbs = File;
  auto SameFile = [&](const std::string &A) {
    if (A == File)
      return true;
    llvm::SmallString<256> P(A);
    if (!llvm::sys::path::is_absolute(P)) {
      P = Directory;
      llvm::sys::path::append(P, A);
    }
    llvm::sys::path::remove_dots(P, true);
    llvm::SmallString<256> Q(FileAbs);
    llvm::sys::path::remove_dots(Q, true);
    return P == Q;
  };
  // Value of an option written "-opt value", "-opt=value" or "-optvalue".
  auto Take = [&](size_t &I, const std::string &A, const std::vector<std::string> &Names,
                  std::string &V) {
    for (const std::string &N : Names) {
      if (A == N && I + 1 < Args.size()) {
        V = Args[++I];
        return true;
      }
      if (startsWith(A, N + "=")) {
        V = A.substr(N.size() + 1);
        return true;
      }
    }
    return false;
  };
  auto Note = [&](const std::string &S) { T.Notes.push_back(S); };
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    std::string V;
    if (SameFile(A))
      continue;
    // Output, dependency files and compile-only switches.
    if (A == "-c" || A == "-dc" || A == "-dw" || A == "-MD" || A == "-MMD" ||
        A == "-M" || A == "-MM" || A == "-MP" || A == "-E" || A == "-S") {
      if (A == "-dc")
        Kept.push_back("-fgpu-rdc");
      continue;
    }
    if (Take(I, A, {"-o", "--output-file", "-MF", "-MT", "-MQ", "-odir"}, V))
      continue;
    if (startsWith(A, "-o") && A.size() > 2 && !Nvcc)
      continue;
    if (Nvcc) {
      if (Take(I, A, {"-gencode", "--generate-code"}, V)) {
        for (const std::string &S : gencodeArchs(V))
          Archs.push_back(S);
        continue;
      }
      if (Take(I, A, {"-arch", "--gpu-architecture", "-code", "--gpu-code"}, V)) {
        if (V == "native" || V == "all" || V == "all-major") {
          Note("-arch=" + V + " is chosen on the build machine; analysing for the default");
          continue;
        }
        std::regex Re("(?:sm|compute)_[0-9]+[a-z]?");
        for (std::sregex_iterator It(V.begin(), V.end(), Re), End; It != End; ++It)
          Archs.push_back(smOf(It->str()));
        continue;
      }
      if (Take(I, A, {"-ccbin", "--compiler-bindir", "-Xptxas", "--ptxas-options",
                      "-Xnvlink", "--nvlink-options", "-Xlinker", "--linker-options",
                      "-Xarchive", "--archive-options", "-Xcudafe", "-maxrregcount",
                      "--maxrregcount", "-t", "--threads", "--cudart", "-cudart",
                      "--cudadevrt", "-lineinfo-x", "--keep-dir", "-diag-suppress",
                      "--diag-suppress", "--diag_suppress", "-Werror", "--Werror",
                      "-split-compile", "--split-compile", "--fmad", "-fmad", "--ftz",
                      "-ftz", "--prec-div", "-prec-div", "--prec-sqrt", "-prec-sqrt",
                      "-use_fast_math", "--use_fast_math", "-ftemplate-depth",
                      "--dependency-output", "-ldir", "--library-path", "-L"},
               V))
        continue;
      if (Take(I, A, {"-Xcompiler", "--compiler-options"}, V)) {
        // Host compiler options: keep those that change what is parsed.
        llvm::SmallVector<llvm::StringRef, 8> Parts;
        llvm::StringRef(V).split(Parts, ',');
        for (size_t J = 0; J < Parts.size(); ++J) {
          std::string P = Parts[J].trim().str();
          if (startsWith(P, "-D") || startsWith(P, "-U") || startsWith(P, "-I") ||
              startsWith(P, "-std=") || P == "-fopenmp" || startsWith(P, "-isystem")) {
            Kept.push_back(P);
            if ((P == "-I" || P == "-D" || P == "-isystem") && J + 1 < Parts.size())
              Kept.push_back(Parts[++J].trim().str());
          }
        }
        continue;
      }
      if (Take(I, A, {"-rdc", "--relocatable-device-code"}, V)) {
        if (V == "true")
          Kept.push_back("-fgpu-rdc");
        continue;
      }
      if (A == "--expt-relaxed-constexpr" || A == "-expt-relaxed-constexpr") {
        Kept.push_back("-D__CUDACC_RELAXED_CONSTEXPR__");
        continue;
      }
      if (A == "--expt-extended-lambda" || A == "-expt-extended-lambda" ||
          A == "--extended-lambda" || A == "-extended-lambda") {
        Kept.push_back("-D__CUDACC_EXTENDED_LAMBDA__");
        continue;
      }
      if (Take(I, A, {"--default-stream", "-default-stream"}, V)) {
        if (V == "per-thread")
          Kept.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
        continue;
      }
      if (Take(I, A, {"-x", "--x"}, V))
        continue; // we always parse as CUDA
      if (Take(I, A, {"--std", "-std"}, V)) {
        Kept.push_back("-std=" + V);
        continue;
      }
      if (Take(I, A, {"--define-macro"}, V)) {
        Kept.push_back("-D" + V);
        continue;
      }
      if (Take(I, A, {"--undefine-macro"}, V)) {
        Kept.push_back("-U" + V);
        continue;
      }
      if (Take(I, A, {"--include-path"}, V)) {
        Kept.push_back("-I" + V);
        continue;
      }
      if (Take(I, A, {"--system-include"}, V)) {
        Kept.push_back("-isystem");
        Kept.push_back(V);
        continue;
      }
      if (Take(I, A, {"--pre-include"}, V)) {
        Kept.push_back("-include");
        Kept.push_back(V);
        continue;
      }
      if (A == "-forward-unknown-to-host-compiler" ||
          A == "--forward-unknown-to-host-compiler" ||
          A == "-forward-unknown-to-host-linker" || A == "-lineinfo" ||
          A == "--generate-line-info" || A == "-G" || A == "--device-debug" ||
          A == "-src-in-ptx" || A == "--keep" || A == "-keep" || A == "-res-usage" ||
          A == "--resource-usage" || A == "-Wno-deprecated-gpu-targets" ||
          A == "-Wno-deprecated-declarations" || A == "--display-error-number" ||
          A == "-restrict" || A == "--restrict" || A == "-lto" || A == "-dlto" ||
          A == "-shared" || A == "-static" || A == "--extensible-whole-program" ||
          A == "-ewp" || A == "-w" || A == "-v" || A == "--verbose" ||
          startsWith(A, "-Xcudafe") || startsWith(A, "--use_fast_math") ||
          startsWith(A, "-use_fast_math") || startsWith(A, "--expt-") ||
          startsWith(A, "-Werror=") || startsWith(A, "--Werror=")) {
        continue;
      }
    }
    // Options clang understands the same way.
    if (Take(I, A, {"-I", "-isystem", "-include", "-D", "-U", "-iquote", "-idirafter"}, V)) {
      std::string Flag = A.substr(0, A.find('=') == std::string::npos ? A.size() : A.find('='));
      if (Flag == "-I" || Flag == "-D" || Flag == "-U")
        Kept.push_back(Flag + V);
      else {
        Kept.push_back(Flag);
        Kept.push_back(V);
      }
      continue;
    }
    if (startsWith(A, "-I") || startsWith(A, "-D") || startsWith(A, "-U") ||
        startsWith(A, "-std=") || A == "-fopenmp" || startsWith(A, "-f") ||
        startsWith(A, "-W") || startsWith(A, "-m") || A == "-pthread") {
      if (startsWith(A, "-f") && !(startsWith(A, "-fgpu-rdc") || A == "-fopenmp" ||
                                   startsWith(A, "-fcuda") || startsWith(A, "-fms") ||
                                   startsWith(A, "-fno-exceptions") ||
                                   startsWith(A, "-fexceptions")))
        continue; // code generation flags
      if (startsWith(A, "-m") && A != "-m64" && A != "-m32")
        continue;
      Kept.push_back(A);
      continue;
    }
    if (!Nvcc) {
      if (startsWith(A, "--cuda-gpu-arch=") || startsWith(A, "--offload-arch=")) {
        std::string S = smOf(A);
        if (!S.empty())
          Archs.push_back(S);
        continue;
      }
      if (startsWith(A, "--cuda-path=")) {
        continue; // the tool's own choice (--cuda-path) wins
      }
      if (A == "-x" && I + 1 < Args.size()) {
        ++I;
        continue;
      }
      if (A == "-xcuda" || A == "--cuda-device-only" || A == "--cuda-host-only" ||
          A == "-fsyntax-only")
        continue;
    }
    if (startsWith(A, "-O") || startsWith(A, "-g") || A == "-pipe")
      continue;
    if (!startsWith(A, "-")) {
      Note("ignored '" + A + "' (another input?)");
      continue;
    }
    Note("dropped '" + A + "'");
  }

  InvocationOptions Opts = Base;
  if (!Archs.empty() && BaseArchWins) {
    if (Archs.front() != Base.GpuArch)
      Note("the build targets " + Archs.front() + "; analysing for " + Base.GpuArch +
           " as asked");
  } else if (!Archs.empty()) {
    Opts.GpuArch = Archs.front();
    if (std::count(Archs.begin(), Archs.end(), Archs.front()) != (long)Archs.size())
      Note("several GPU architectures; analysing for " + Archs.front());
  }
  Opts.ExtraArgs.insert(Opts.ExtraArgs.begin(), Kept.begin(), Kept.end());
  Invocation Inv = makeInvocation(Opts);
  T.Args = Inv.Args;
  T.BuiltinHeaders = Inv.BuiltinHeaders;
  T.GpuArch = Opts.GpuArch;
  T.Problem = Inv.Problem;
  return T;
}

std::vector<DbEntry> loadCompileDb(const std::string &BuildDir, std::string &Err) {
  std::vector<DbEntry> Out;
  llvm::SmallString<256> Path(BuildDir);
  llvm::sys::path::append(Path, "compile_commands.json");
  if (!llvm::sys::fs::exists(Path)) {
    Err = "no compile_commands.json in " + BuildDir;
    return Out;
  }
  std::string E;
  auto DB = clang::tooling::JSONCompilationDatabase::loadFromFile(
      Path, E, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!DB) {
    Err = std::string(Path) + ": " + E;
    return Out;
  }
  for (const clang::tooling::CompileCommand &C : DB->getAllCompileCommands()) {
    DbEntry D;
    llvm::SmallString<256> F(C.Filename);
    if (!llvm::sys::path::is_absolute(F)) {
      F = C.Directory;
      llvm::sys::path::append(F, C.Filename);
    }
    llvm::sys::path::remove_dots(F, true);
    D.File = std::string(F);
    D.Directory = C.Directory;
    D.CommandLine = C.CommandLine;
    Out.push_back(std::move(D));
  }
  return Out;
}

namespace {

/// The #include lines of a file: (name, quoted).
using Includes = std::vector<std::pair<std::string, bool>>;

const Includes &includesOf(const std::string &File, std::map<std::string, Includes> &Cache) {
  auto [It, New] = Cache.try_emplace(File);
  if (!New)
    return It->second;
  auto Buf = llvm::MemoryBuffer::getFile(File);
  if (!Buf)
    return It->second;
  llvm::StringRef Text = (*Buf)->getBuffer();
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    llvm::StringRef L = Line.ltrim();
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim();
    if (!L.consume_front("include"))
      continue;
    L = L.ltrim();
    if (L.empty() || (L.front() != '"' && L.front() != '<'))
      continue;
    const char Close = L.front() == '"' ? '"' : '>';
    const size_t End = L.find(Close, 1);
    if (End == llvm::StringRef::npos)
      continue;
    It->second.emplace_back(L.substr(1, End - 1).str(), Close == '"');
  }
  return It->second;
}

/// The project's include directories of a command (absolute): -I, -iquote,
/// nvcc's --include-path; -isystem ones are not the project's.
std::vector<std::string> includeDirs(const DbEntry &E) {
  std::vector<std::string> Dirs;
  auto Add = [&](llvm::StringRef D) {
    llvm::SmallString<256> P(D);
    if (!llvm::sys::path::is_absolute(P)) {
      P = E.Directory;
      llvm::sys::path::append(P, D);
    }
    llvm::sys::path::remove_dots(P, true);
    Dirs.push_back(std::string(P));
  };
  const std::vector<std::string> &C = E.CommandLine;
  for (size_t I = 1; I < C.size(); ++I) {
    llvm::StringRef A(C[I]);
    for (llvm::StringRef Opt : {"-I", "-iquote", "--include-path=", "--include-path", "-I="}) {
      if (!A.starts_with(Opt))
        continue;
      llvm::StringRef V = A.drop_front(Opt.size());
      if (V.empty() && I + 1 < C.size())
        V = C[++I];
      if (!V.empty())
        Add(V);
      break;
    }
  }
  return Dirs;
}

} // namespace

std::vector<const DbEntry *> includersOf(const std::string &Header,
                                         const std::vector<DbEntry> &Entries, size_t Max) {
  std::vector<const DbEntry *> Out;
  std::map<std::string, Includes> Cache;
  // Reading stops after this many files in all (a large project's database).
  constexpr size_t MaxReads = 20000;
  for (const DbEntry &E : Entries) {
    if (Out.size() >= Max || Cache.size() > MaxReads)
      break;
    if (E.File == Header || !isCudaCommand(E.CommandLine, E.File))
      continue;
    const std::vector<std::string> Dirs = includeDirs(E);
    std::set<std::string> Seen{E.File};
    std::vector<std::string> Work{E.File};
    bool Found = false;
    while (!Work.empty() && !Found && Cache.size() <= MaxReads) {
      const std::string F = std::move(Work.back());
      Work.pop_back();
      for (const auto &[Name, Quoted] : includesOf(F, Cache)) {
        std::vector<std::string> From;
        if (Quoted)
          From.push_back(std::string(llvm::sys::path::parent_path(F)));
        From.insert(From.end(), Dirs.begin(), Dirs.end());
        for (const std::string &D : From) {
          llvm::SmallString<256> P(D);
          llvm::sys::path::append(P, Name);
          llvm::sys::path::remove_dots(P, true);
          if (!llvm::sys::fs::is_regular_file(P))
            continue;
          if (P == Header)
            Found = true;
          else if (Seen.insert(std::string(P)).second)
            Work.push_back(std::string(P));
          break; // the first directory that has it, as the compiler does
        }
        if (Found)
          break;
      }
    }
    if (Found)
      Out.push_back(&E);
  }
  return Out;
}

std::string findCompileDbFor(const std::string &File) {
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  while (!Dir.empty()) {
    for (const char *Sub : {"", "build"}) {
      llvm::SmallString<256> P(Dir);
      if (*Sub)
        llvm::sys::path::append(P, Sub);
      llvm::SmallString<256> J(P);
      llvm::sys::path::append(J, "compile_commands.json");
      if (llvm::sys::fs::exists(J))
        return std::string(P);
    }
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  return "";
}

} // namespace coalesce

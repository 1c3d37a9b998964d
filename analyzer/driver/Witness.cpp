//===- Witness.cpp - Compile a file's device code and read what nvcc emitted ===//

#include "driver/Witness.h"

#include "driver/CacheFiles.h"
#include "driver/Invocation.h"
#include "driver/Runner.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>

namespace coalesce {

namespace {

bool exists(const std::string &P) { return !P.empty() && llvm::sys::fs::exists(P); }

std::string readFile(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  return B ? (*B)->getBuffer().str() : std::string();
}

bool writeFileAtomically(const std::string &Path, const std::string &Text) {
  llvm::SmallString<256> Tmp;
  if (llvm::sys::fs::createUniqueFile(Path + ".tmp.%%%%%%", Tmp))
    return false;
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Tmp, EC);
    if (EC)
      return false;
    OS << Text;
  }
  return !llvm::sys::fs::rename(Tmp, Path);
}

/// Runs Program with Args; its standard output in Out, the tail of its
/// standard error in Err. False when it could not run or failed.
bool run(const std::string &Program, const std::vector<std::string> &Args,
         const std::string &Dir, std::string &Out, std::string &Err) {
  llvm::SmallString<128> OutFile, ErrFile;
  if (llvm::sys::fs::createTemporaryFile("coalesce-witness", "out", OutFile) ||
      llvm::sys::fs::createTemporaryFile("coalesce-witness", "err", ErrFile)) {
    Err = "cannot create a temporary file";
    return false;
  }
  std::vector<llvm::StringRef> Refs{Program};
  for (const std::string &A : Args)
    Refs.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(OutFile),
                                                llvm::StringRef(ErrFile)};
  std::string Msg;
  // nvcc resolves relative paths against its working directory: the
  // command's own (compile_commands.json "directory").
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  int RC = -1;
  if (!Dir.empty() && Dir != Cwd.str()) {
    // llvm::sys::ExecuteAndWait has no working directory argument: run it
    // through the shell's cd.
    std::string Cmd = "cd '" + Dir + "' && exec";
    for (llvm::StringRef R : Refs)
      Cmd += " '" + R.str() + "'";
    std::vector<llvm::StringRef> Sh{"/bin/sh", "-c", Cmd};
    RC = llvm::sys::ExecuteAndWait("/bin/sh", Sh, std::nullopt, Redirects, 600, 0, &Msg);
  } else {
    RC = llvm::sys::ExecuteAndWait(Program, Refs, std::nullopt, Redirects, 600, 0, &Msg);
  }
  Out = readFile(std::string(OutFile));
  Err = readFile(std::string(ErrFile));
  llvm::sys::fs::remove(OutFile);
  llvm::sys::fs::remove(ErrFile);
  if (RC != 0) {
    if (!Msg.empty())
      Err = Msg + (Err.empty() ? "" : ": " + Err);
    // The first error line is enough for a note.
    size_t E = Err.find("error");
    if (E != std::string::npos) {
      size_t Start = Err.rfind('\n', E);
      Start = Start == std::string::npos ? 0 : Start + 1;
      size_t End = Err.find('\n', E);
      Err = Err.substr(Start, End == std::string::npos ? std::string::npos : End - Start);
    } else if (Err.size() > 300) {
      Err = Err.substr(0, 300) + "...";
    }
    while (!Err.empty() && (Err.back() == '\n' || Err.back() == ' '))
      Err.pop_back();
    return false;
  }
  return true;
}

std::string findProgram(const std::string &Name, const std::vector<std::string> &Dirs) {
  for (const std::string &D : Dirs) {
    if (D.empty())
      continue;
    llvm::SmallString<256> P(D);
    llvm::sys::path::append(P, Name);
    if (llvm::sys::fs::can_execute(P))
      return std::string(P);
  }
  if (auto P = llvm::sys::findProgramByName(Name))
    return *P;
  return "";
}

std::string cudaPathOf(const FileJob &Job) {
  for (const std::string &A : Job.Args)
    if (llvm::StringRef(A).starts_with("--cuda-path="))
      return A.substr(12);
  return "";
}

std::string findNvcc(const WitnessOptions &O, const FileJob &Job) {
  if (!O.Nvcc.empty())
    return O.Nvcc;
  std::string Cuda = cudaPathOf(Job);
  if (Cuda.empty())
    Cuda = findCudaToolkit();
  return findProgram("nvcc", {Cuda.empty() ? "" : Cuda + "/bin"});
}

/// Only the memory instructions and what places them: the cache holds
/// what parseDisassembly() reads, not every instruction.
std::string keepMemory(const std::string &Text) {
  std::string Out;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    if (End == std::string::npos)
      End = Text.size();
    llvm::StringRef Line = llvm::StringRef(Text).slice(Pos, End);
    Pos = End + 1;
    llvm::StringRef T = Line.trim();
    bool Keep = T.starts_with(".target") || T.starts_with(".section") ||
                (T.starts_with(".other") && T.contains("STO_CUDA_ENTRY")) || T.starts_with("//##");
    if (!Keep && T.starts_with("/*")) {
      // /*0070*/   @!P0 LDG.E R6, desc[UR6][R6.64] ;
      llvm::StringRef Ins = T.split("*/").second.trim();
      if (Ins.starts_with("@"))
        Ins = Ins.split(' ').second.trim();
      auto [Opcode, Operands] = Ins.split(' ');
      witness::SassInstruction I;
      Keep = witness::classifyOpcode(Opcode, Operands, I);
    }
    if (Keep) {
      Out += T.str();
      Out += '\n';
    }
  }
  return Out;
}

/// The dependency list of nvcc -MD: "out.cubin : a.cu \\\n  b.h \\\n ...".
std::vector<std::string> readDeps(const std::string &Text) {
  std::vector<std::string> Deps;
  size_t Colon = Text.find(": ");
  if (Colon == std::string::npos)
    return Deps;
  std::string Cur;
  for (size_t I = Colon + 2; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\' && I + 1 < Text.size() && Text[I + 1] == '\n') {
      ++I;
      C = ' ';
    } else if (C == '\\' && I + 1 < Text.size() && Text[I + 1] == ' ') {
      Cur += ' ';
      ++I;
      continue;
    }
    if (C == ' ' || C == '\n' || C == '\t') {
      if (!Cur.empty())
        Deps.push_back(Cur);
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  if (!Cur.empty())
    Deps.push_back(Cur);
  return Deps;
}

WitnessResult parsed(WitnessResult R, const std::string &Text) {
  std::string Err;
  std::optional<witness::SassModule> M = witness::parseDisassembly(Text, Err);
  if (!M) {
    R.NotUsed = "its disassembly could not be read: " + Err;
    R.Module.reset();
    return R;
  }
  R.Module = std::make_shared<const witness::SassModule>(std::move(*M));
  return R;
}

/// Reads a cubin, or the cubins an executable or object file holds
/// (cuobjdump -xelf), through nvdisasm.
WitnessResult fromGiven(const WitnessOptions &O) {
  WitnessResult R;
  const std::string Nvdisasm = findNvdisasm(O, findProgram("nvcc", {}));
  if (Nvdisasm.empty()) {
    R.NotUsed = "no nvdisasm was found (give it with $COALESCE_NVDISASM)";
    return R;
  }
  std::string Head = readFile(O.Given).substr(0, 20);
  if (Head.size() < 20 || Head.compare(0, 4, "\x7f" "ELF") != 0) {
    R.NotUsed = O.Given + " is not an ELF file (a cubin, an object or an executable)";
    return R;
  }
  // A cubin's e_machine is EM_CUDA (190).
  const bool Cubin = static_cast<unsigned char>(Head[18]) == 190 && Head[19] == 0;
  std::vector<std::string> Cubins;
  llvm::SmallString<128> Tmp;
  if (Cubin) {
    Cubins.push_back(O.Given);
  } else {
    const std::string Cuobjdump =
        findProgram("cuobjdump", {std::string(llvm::sys::path::parent_path(Nvdisasm))});
    if (Cuobjdump.empty()) {
      R.NotUsed = "no cuobjdump was found to extract the cubins of " + O.Given;
      return R;
    }
    if (llvm::sys::fs::createUniqueDirectory("coalesce-witness", Tmp)) {
      R.NotUsed = "cannot create a temporary directory";
      return R;
    }
    llvm::SmallString<256> Abs(O.Given);
    llvm::sys::fs::make_absolute(Abs);
    std::string Out, Err;
    if (!run(Cuobjdump, {"-xelf", "all", std::string(Abs)}, std::string(Tmp), Out, Err)) {
      R.NotUsed = "cuobjdump could not extract the cubins of " + O.Given + ": " + Err;
      return R;
    }
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Tmp, EC), End; It != End && !EC; It.increment(EC))
      if (llvm::StringRef(It->path()).ends_with(".cubin"))
        Cubins.push_back(It->path());
    if (Cubins.empty()) {
      R.NotUsed = O.Given + " holds no cubin (was it built for a real architecture, sm_XX?)";
      return R;
    }
  }
  std::string All;
  for (const std::string &C : Cubins) {
    std::string Out, Err;
    if (!run(Nvdisasm, {"-gi", "-c", C}, "", Out, Err)) {
      R.NotUsed = "nvdisasm could not read " + C + ": " + Err;
      return R;
    }
    All += Out;
  }
  if (!Tmp.empty())
    llvm::sys::fs::remove_directories(Tmp);
  R.Source = O.Given;
  if (All.find("//## File") == std::string::npos) {
    R.NotUsed = O.Given + " has no line information (build it with -lineinfo)";
    return R;
  }
  return parsed(std::move(R), keepMemory(All));
}

} // namespace

bool parseWitnessMode(const std::string &Value, WitnessOptions &O, std::string &Error) {
  if (Value == "auto") {
    O.M = WitnessOptions::Mode::Auto;
  } else if (Value == "off") {
    O.M = WitnessOptions::Mode::Off;
  } else {
    if (!llvm::sys::fs::exists(Value)) {
      Error = "--witness: no such file: " + Value +
              " (expected auto, off, or a cubin or binary built with -lineinfo)";
      return false;
    }
    O.M = WitnessOptions::Mode::Given;
    O.Given = Value;
  }
  return true;
}

std::string findNvdisasm(const WitnessOptions &O, const std::string &Nvcc) {
  if (!O.Nvdisasm.empty())
    return O.Nvdisasm;
  // An nvdisasm given in the environment is the one used, or none.
  if (const char *E = std::getenv("COALESCE_NVDISASM"); E && *E)
    return llvm::sys::fs::can_execute(E) ? std::string(E) : std::string();
  std::string Dir = Nvcc.empty() ? "" : std::string(llvm::sys::path::parent_path(Nvcc));
  std::string P = findProgram("nvdisasm", {Dir});
#ifdef COALESCE_DEFAULT_NVDISASM
  if (P.empty() && llvm::sys::fs::can_execute(COALESCE_DEFAULT_NVDISASM))
    P = COALESCE_DEFAULT_NVDISASM;
#endif
  return P;
}

std::vector<std::string> witnessCompileArgs(const FileJob &Job, std::string &Arch) {
  std::vector<std::string> Out;
  Arch = "sm_90";
  const std::vector<std::string> &A = Job.Args;
  for (size_t I = 0; I < A.size(); ++I) {
    llvm::StringRef S(A[I]);
    auto Next = [&]() -> std::string { return I + 1 < A.size() ? A[++I] : std::string(); };
    if (S.consume_front("--cuda-gpu-arch=") || S.consume_front("--offload-arch=")) {
      Arch = S.str();
    } else if (S == "-I" || S == "-isystem" || S == "-iquote") {
      std::string D = Next();
      if (exists(D))
        Out.insert(Out.end(), {std::string(S), D});
    } else if (S.starts_with("-I") || S.starts_with("-isystem")) {
      std::string D = S.starts_with("-I") ? S.substr(2).str() : S.substr(8).str();
      if (exists(D))
        Out.push_back(A[I]);
    } else if (S == "-include") {
      // The nvcc compatibility header and the built-in headers live in the
      // tool's virtual file system: nvcc has its own.
      std::string H = Next();
      if (exists(H))
        Out.insert(Out.end(), {"-include", H});
    } else if (S == "-D" || S == "-U") {
      std::string M = Next();
      if (!llvm::StringRef(M).starts_with("__CUDACC_VER"))
        Out.push_back(S.str() + M);
    } else if ((S.starts_with("-D") || S.starts_with("-U")) && !S.contains("__CUDACC_VER")) {
      Out.push_back(A[I]);
    } else if (S.starts_with("-std=")) {
      Out.push_back(A[I]);
    }
  }
  return Out;
}

WitnessResult runWitness(const FileJob &Job, const WitnessOptions &O) {
  const auto Start = std::chrono::steady_clock::now();
  auto Done = [&](WitnessResult R) {
    R.Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    return R;
  };
  WitnessResult R;
  if (O.M == WitnessOptions::Mode::Off) {
    R.NotUsed = "--witness=off";
    return Done(R);
  }
  if (O.M == WitnessOptions::Mode::Given)
    return Done(fromGiven(O));
  const std::string Nvcc = findNvcc(O, Job);
  if (Nvcc.empty()) {
    R.NotUsed = "no nvcc was found (give the toolkit with --cuda-path, or --witness=FILE "
                "with a cubin built with -lineinfo)";
    return Done(R);
  }
  const std::string Nvdisasm = findNvdisasm(O, Nvcc);
  if (Nvdisasm.empty()) {
    const char *E = std::getenv("COALESCE_NVDISASM");
    R.NotUsed = E && *E ? "$COALESCE_NVDISASM (" + std::string(E) + ") is not an executable"
                        : "no nvdisasm was found next to " + Nvcc +
                              " nor on PATH (pip install nvidia-cuda-nvdisasm, or "
                              "$COALESCE_NVDISASM)";
    return Done(R);
  }
  std::string Arch;
  std::vector<std::string> Args = witnessCompileArgs(Job, Arch);
  llvm::SmallString<256> File(Job.File);
  if (!llvm::sys::path::is_absolute(File) && !Job.Directory.empty()) {
    File = Job.Directory;
    llvm::sys::path::append(File, Job.File);
  }
  const std::string Text = readFile(std::string(File));
  // An editor's buffer: nvcc compiles what is on disk, which must be it.
  if (Job.Contents && *Job.Contents != Text) {
    R.NotUsed = "the file's text is not what is on disk (an unsaved buffer)";
    return Done(R);
  }
  Args.insert(Args.begin(), {"-cubin", "-lineinfo", "-arch=" + Arch});
  R.Source = "nvcc -arch=" + Arch + " (" + Nvcc + ")";

  // The cache entry: the command, the tools, the file's text.
  std::string KeyText = Nvcc + "\n" + Nvdisasm + "\n" + std::string(File) + "\n";
  for (const std::string &A : Args)
    KeyText += A + "\n";
  KeyText += Text;
  const std::string Key = hexDigest(llvm::xxh3_64bits(llvm::StringRef(KeyText)));
  std::string Entry;
  if (!O.CacheDir.empty()) {
    llvm::SmallString<256> D(O.CacheDir);
    llvm::sys::path::append(D, "witness");
    if (!llvm::sys::fs::create_directories(D))
      Entry = std::string(D) + "/" + Key;
  }
  if (!Entry.empty() && exists(Entry + ".sass") && exists(Entry + ".deps") &&
      stampsHold(readFile(Entry + ".deps"))) {
    R.Cached = true;
    if (exists(Entry + ".arch"))
      R.Source = "nvcc -arch=" + readFile(Entry + ".arch") + " (" + Nvcc + ")";
    return Done(parsed(std::move(R), readFile(Entry + ".sass")));
  }
  if (O.CacheOnly && !Entry.empty()) {
    R.Deferred = true;
    R.NotUsed = "not compiled yet (the language server compiles it in the background and "
                "refines the diagnostics when it lands)";
    return Done(R);
  }

  llvm::SmallString<128> Tmp;
  if (llvm::sys::fs::createUniqueDirectory("coalesce-witness", Tmp)) {
    R.NotUsed = "cannot create a temporary directory";
    return Done(R);
  }
  const std::string Cubin = std::string(Tmp) + "/device.cubin";
  const std::string DepFile = std::string(Tmp) + "/device.d";
  Args.insert(Args.end(), {"-MD", "-MF", DepFile, "-o", Cubin});
  // nvcc takes the language from the extension: a header (`.cuh`) parsed
  // by itself is CUDA all the same.
  if (!llvm::StringRef(File).ends_with(".cu"))
    Args.insert(Args.end(), {"-x", "cu"});
  Args.push_back(std::string(File));
  std::string Out, Err;
  bool Compiled = run(Nvcc, Args, Job.Directory, Out, Err);
  // Instructions of an architecture-specific target (wgmma, setmaxnreg:
  // sm_90a) do not assemble for the plain one; code that uses them is
  // built for the specific target, and so is the witness's compile.
  std::string SpecificArch;
  if (!Compiled && !Arch.empty() && std::isdigit(static_cast<unsigned char>(Arch.back())) &&
      Err.find("not supported on .target '" + Arch + "'") != std::string::npos) {
    auto It = std::find(Args.begin(), Args.end(), "-arch=" + Arch);
    if (It != Args.end()) {
      SpecificArch = Arch + "a";
      *It = "-arch=" + SpecificArch;
      R.Source = "nvcc -arch=" + SpecificArch + " (" + Nvcc + ")";
      Out.clear();
      Err.clear();
      Compiled = run(Nvcc, Args, Job.Directory, Out, Err);
    }
  }
  if (!Compiled) {
    llvm::sys::fs::remove_directories(Tmp);
    R.NotUsed = "nvcc could not compile it: " + Err;
    return Done(R);
  }
  std::string Sass;
  if (!run(Nvdisasm, {"-gi", "-c", Cubin}, "", Sass, Err)) {
    llvm::sys::fs::remove_directories(Tmp);
    R.NotUsed = "nvdisasm could not read nvcc's cubin: " + Err;
    return Done(R);
  }
  std::string Stamps;
  for (const std::string &D : readDeps(readFile(DepFile))) {
    llvm::SmallString<256> P(D);
    if (!llvm::sys::path::is_absolute(P) && !Job.Directory.empty()) {
      P = Job.Directory;
      llvm::sys::path::append(P, D);
    }
    Stamps += fileStamp(P);
  }
  llvm::sys::fs::remove_directories(Tmp);
  Sass = keepMemory(Sass);
  if (!Entry.empty()) {
    writeFileAtomically(Entry + ".sass", Sass);
    writeFileAtomically(Entry + ".deps", Stamps);
    if (!SpecificArch.empty())
      writeFileAtomically(Entry + ".arch", SpecificArch);
    else
      llvm::sys::fs::remove(Entry + ".arch");
  }
  return Done(parsed(std::move(R), Sass));
}

} // namespace coalesce

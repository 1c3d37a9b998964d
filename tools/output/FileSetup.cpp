//===- FileSetup.cpp - How each input file is parsed and reported --------===//

#include "FileSetup.h"

#include "SourceKey.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <regex>
#include <set>

namespace coalesce {

llvm::Expected<FileSettings> settingsForFile(const std::string &File, const SettingOverrides &O,
                                             ConfigCache &Configs) {
  const LintConfig *C = nullptr;
  if (!O.NoConfig) {
    auto Found = O.ConfigFile.empty() ? Configs.forFile(File) : Configs.fromFile(O.ConfigFile);
    if (!Found)
      return Found.takeError();
    C = *Found;
  }
  FileSettings S;
  if (C) {
    if (C->GpuArch)
      S.GpuArch = *C->GpuArch;
    S.Blocks = C->Blocks;
    S.Facts = C->Facts;
    if (C->MinRatio)
      S.Rules.MinRatio = *C->MinRatio;
    if (C->ReportUnknown)
      S.Rules.ReportUnknown = *C->ReportUnknown;
    if (C->MisalignedWarnings)
      S.Rules.MisalignedWarnings = *C->MisalignedWarnings;
    if (C->Rules)
      S.EnabledRules = *C->Rules;
  }
  if (O.GpuArch)
    S.GpuArch = *O.GpuArch;
  if (!O.Blocks.empty()) // the command line's --block replace the file's
    S.Blocks = O.Blocks;
  // --assume about a name replaces the file's facts about that name.
  for (const StatedFact &F : O.Facts)
    S.Facts.erase(std::remove_if(S.Facts.begin(), S.Facts.end(),
                                 [&](const StatedFact &G) {
                                   return G.Name == F.Name && G.Spelling.find("--assume") ==
                                                                  std::string::npos;
                                 }),
                  S.Facts.end());
  S.Facts.insert(S.Facts.end(), O.Facts.begin(), O.Facts.end());
  if (O.MinRatio)
    S.Rules.MinRatio = *O.MinRatio;
  if (O.ReportUnknown)
    S.Rules.ReportUnknown = *O.ReportUnknown;
  if (O.MisalignedWarnings)
    S.Rules.MisalignedWarnings = *O.MisalignedWarnings;
  if (O.Rules)
    S.EnabledRules = *O.Rules;
  return S;
}

const std::vector<DbEntry> &CompileDbs::entries(const std::string &Dir, std::string &Err) {
  Db &D = load(Dir);
  Err = D.Err;
  return D.Entries;
}

const DbEntry *CompileDbs::find(const std::string &Dir, const std::string &File,
                                std::string &Err) {
  Db &D = load(Dir);
  Err = D.Err;
  auto It = D.ByFile.find(File);
  if (It == D.ByFile.end()) {
    // The database may name the file through a symbolic link, or not.
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(File, Real))
      It = D.ByFile.find(std::string(Real));
  }
  return It == D.ByFile.end() ? nullptr : &D.Entries[It->second];
}

CompileDbs::Db &CompileDbs::load(const std::string &Dir) {
  auto [It, New] = Loaded.try_emplace(Dir);
  if (New) {
    It->second.Entries = loadCompileDb(Dir, It->second.Err);
    for (size_t I = 0; I < It->second.Entries.size(); ++I) {
      const std::string &F = It->second.Entries[I].File;
      It->second.ByFile.try_emplace(F, I);
      llvm::SmallString<256> Real;
      if (!llvm::sys::fs::real_path(F, Real))
        It->second.ByFile.try_emplace(std::string(Real), I);
    }
  }
  return It->second;
}

namespace {

/// The CUDA files in File's directory and in up to two directories above it
/// (each searched as deep as it is above File), as compile database entries
/// without options, for includersOf(); at most 2000 files looked at.
std::vector<DbEntry> unitsAround(const std::string &File) {
  std::vector<DbEntry> Out;
  llvm::SmallString<256> Dir = llvm::sys::path::parent_path(File);
  std::set<std::string> Seen;
  unsigned Looked = 0;
  for (int Level = 0; Level < 3 && !Dir.empty(); ++Level) {
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; !EC && It != End;
         It.increment(EC)) {
      if (++Looked > 2000)
        return Out;
      if (It.level() > Level) {
        It.no_push();
        continue;
      }
      llvm::StringRef P = It->path();
      if (llvm::sys::path::extension(P) == ".cu" && Seen.insert(P.str()).second) {
        llvm::SmallString<256> A(P);
        llvm::sys::path::remove_dots(A, true);
        Out.push_back(DbEntry{std::string(A), std::string(Dir), {"nvcc", "-c", std::string(A)}});
      }
    }
    Dir = llvm::sys::path::parent_path(Dir);
  }
  return Out;
}

} // namespace

JobPlan JobPlanner::plan(const std::string &F, const std::string &GpuArch) {
  JobPlan P;
  const std::string Abs = absolutePath(F);
  FileJob Job;
  Job.Name = F;
  std::string Focused; // the unit a header is analysed through, without a database

  // The file's compile command, if a database has one.
  std::string DbDir = Setup.CompileDb;
  if (DbDir.empty() && !Setup.NoCompileDb)
    DbDir = findCompileDbFor(Abs);
  const DbEntry *E = nullptr;
  if (!DbDir.empty()) {
    std::string Err;
    E = Dbs.find(DbDir, Abs, Err);
    if (!Err.empty()) {
      if (!Setup.CompileDb.empty()) {
        P.Error = Err;
        P.Fatal = true;
        return P;
      }
      if (WarnedDbs.insert(DbDir).second)
        P.Warnings.push_back("ignoring " + Err);
    } else if (!E) {
      // A header (or a source file another one #includes): analysed
      // through a unit of the build that includes it, where its templates
      // are instantiated and its kernels launched; only what lies in the
      // file is reported.
      std::vector<const DbEntry *> By = includersOf(Abs, Dbs.entries(DbDir, Err), 2);
      if (!By.empty()) {
        E = By.front();
        Job.Focus = Abs;
        P.Notes.push_back(F + " is analysed through " + displayPath(E->File, ".") +
                          ", which includes it" +
                          (By.size() > 1 ? " (the first of the build's files that do)" : "") +
                          ": its templates are instantiated and its kernels launched there");
      } else if (!Setup.CompileDb.empty()) {
        P.Warnings.push_back(F + " is not in " + DbDir +
                             "/compile_commands.json, nor included by a file that is; parsing "
                             "it with the default command");
      }
    }
  }
  if (E) {
    InvocationOptions IO = Setup.Inv;
    IO.GpuArch = GpuArch;
    TranslatedCommand T =
        translateCommand(E->CommandLine, E->File, E->Directory, IO, Setup.ArchFromCommandLine);
    if (!T.Problem.empty()) {
      P.Error = T.Problem;
      return P;
    }
    P.FromDb = true;
    Job.File = Job.Focus.empty() ? Abs : E->File;
    Job.Directory = E->Directory;
    Job.Args = std::move(T.Args);
    Job.BuiltinHeaders = T.BuiltinHeaders;
    P.Notes.push_back("command from " + DbDir + "/compile_commands.json (in " + E->Directory +
                      ")");
    for (std::string &N : T.Notes)
      P.Notes.push_back(std::move(N));
  } else {
    // Without a compile database, a header is analysed through a .cu file
    // around it that includes it (its own directory and up to two above).
    llvm::StringRef Ext = llvm::sys::path::extension(Abs);
    if (Ext == ".cuh" || Ext == ".h" || Ext == ".hpp" || Ext == ".hh" || Ext == ".inl") {
      const std::vector<DbEntry> Near = unitsAround(Abs);
      std::vector<const DbEntry *> By = includersOf(Abs, Near, 1);
      if (!By.empty()) {
        Job.Focus = Abs;
        P.Notes.push_back(F + " is analysed through " + displayPath(By.front()->File, ".") +
                          ", which includes it (found by its #include lines; no compile "
                          "database)");
        Focused = By.front()->File;
      }
    }
    auto Inv = Invocations.find(GpuArch);
    if (Inv == Invocations.end()) {
      InvocationOptions IO = Setup.Inv;
      IO.GpuArch = GpuArch;
      Inv = Invocations.emplace(GpuArch, makeInvocation(IO)).first;
    }
    if (!Inv->second.Problem.empty()) {
      P.Error = Inv->second.Problem;
      P.Fatal = true;
      return P;
    }
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    Job.File = Focused.empty() ? F : Focused;
    Job.Directory = std::string(Cwd);
    Job.Args = Inv->second.Args;
    Job.BuiltinHeaders = Inv->second.BuiltinHeaders;
  }
  P.Job = std::move(Job);
  return P;
}

std::string includingFile(const std::string &File) {
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  const std::string Name = llvm::sys::path::filename(Abs).str();
  const std::regex Include("#[ \t]*include[ \t]*[\"<]([^\">]*)[\">]");
  llvm::SmallString<256> Dir = llvm::sys::path::parent_path(Abs);
  unsigned Seen = 0;
  constexpr unsigned MaxFiles = 2000;
  for (int Level = 0; Level < 3 && !Dir.empty(); ++Level) {
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; !EC && It != End;
         It.increment(EC)) {
      if (It.level() > Level || ++Seen > MaxFiles)
        break;
      llvm::StringRef P = It->path();
      llvm::StringRef Ext = llvm::sys::path::extension(P);
      if (P == Abs || !(Ext == ".cu" || Ext == ".cpp" || Ext == ".cc" || Ext == ".c" ||
                        Ext == ".cuh" || Ext == ".h"))
        continue;
      auto Buf = llvm::MemoryBuffer::getFile(P);
      if (!Buf || (*Buf)->getBuffer().find(Name) == llvm::StringRef::npos)
        continue;
      std::string Text = (*Buf)->getBuffer().str();
      for (std::sregex_iterator M(Text.begin(), Text.end(), Include), E; M != E; ++M) {
        llvm::SmallString<256> Target(llvm::sys::path::parent_path(P));
        llvm::sys::path::append(Target, (*M)[1].str());
        llvm::sys::path::remove_dots(Target, true);
        if (Target == Abs)
          return P.str();
      }
    }
    Dir = llvm::sys::path::parent_path(Dir);
  }
  return "";
}

std::string parseFailureHint(const std::string &CudaPath, const std::string &Diags, bool FromDb,
                             bool Builtin) {
  // The headers clang could not find: the toolkit's, or the project's own.
  bool ToolkitHeaderMissing = false, OtherHeaderMissing = false;
  static const std::regex NotFound("'([^']+)' file not found");
  static const std::regex ToolkitHeader(
      "^(cu[a-z_0-9]*\\.h|cuda[a-z_0-9]*\\.h|cuComplex\\.h|npp[a-z_]*\\.h|nvrtc\\.h|nvtx3?/.*|"
      "cooperative_groups.*|crt/.*|cub/.*|thrust/.*|cuda/.*|mma\\.h|sm_[0-9]+_.*\\.h|"
      "[a-z_]+_functions\\.h|vector_types\\.h|driver_types\\.h|texture_types\\.h|"
      "surface_types\\.h|host_defines\\.h|device_launch_parameters\\.h|nv/.*|nvml\\.h)$");
  for (std::sregex_iterator It(Diags.begin(), Diags.end(), NotFound), End; It != End; ++It)
    (std::regex_match((*It)[1].str(), ToolkitHeader) ? ToolkitHeaderMissing
                                                      : OtherHeaderMissing) = true;
  std::string Hint;
  if (Builtin && ToolkitHeaderMissing)
    Hint += CudaPath == "none"
                ? "; it was parsed with the built-in minimal CUDA header (--cuda-path=none), "
                  "which has no CUDA library headers"
                : "; no CUDA toolkit was found ($CUDA_PATH, $CUDA_HOME, /usr/local/cuda), so "
                  "it was parsed with the built-in minimal CUDA header: pass --cuda-path=DIR";
  if (!Builtin) {
    const std::string Toolkit = !CudaPath.empty() ? CudaPath : findCudaToolkit();
    const std::string Version = Toolkit.empty() ? "" : cudaToolkitVersion(Toolkit);
    // Errors inside the toolkit's own headers, from a version clang does not
    // know. Clang's paths are printed relative to the working directory
    // where they are under it (driver/Runner.cpp).
    llvm::SmallString<256> Cwd;
    std::string ToolkitShown = Toolkit;
    if (!llvm::sys::fs::current_path(Cwd) &&
        llvm::StringRef(Toolkit).starts_with(std::string(Cwd) + "/"))
      ToolkitShown = Toolkit.substr(Cwd.size() + 1);
    if (!Version.empty() && !clangKnowsCudaVersion(Version) &&
        Diags.find(ToolkitShown) != std::string::npos)
      return "; the CUDA toolkit in " + Toolkit + " is CUDA " + Version +
             ", newer than this clang (LLVM " LLVM_VERSION_STRING
             ") knows: pass --cuda-path=none to parse with the built-in header, or "
             "--cuda-path=DIR for an older toolkit";
  }
  if (OtherHeaderMissing && !FromDb)
    Hint += "; no compile_commands.json lists it: pass -p BUILD_DIR to parse it with the "
            "build's include paths and macros";
  return Hint;
}

} // namespace coalesce

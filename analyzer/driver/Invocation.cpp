//===- Invocation.cpp - The clang command line for a device-side parse ----===//

#include "driver/Invocation.h"
#include "driver/Installation.h"

#include "clang/Basic/Cuda.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <regex>

namespace coalesce {

#include "BuiltinHeaders.inc" // kBuiltinHeaders: {name, contents}
#include "CompatHeaders.inc"  // kCompatHeaders: {name, contents}

const char *builtinIncludeDir() { return "/__coalesce_lint_builtin__/include"; }

const std::vector<std::pair<std::string, std::string>> &builtinHeaders() {
  static const std::vector<std::pair<std::string, std::string>> H = [] {
    std::vector<std::pair<std::string, std::string>> V;
    for (const auto &E : kBuiltinHeaders)
      V.emplace_back(std::string(builtinIncludeDir()) + "/" + E.first, E.second);
    return V;
  }();
  return H;
}

static const char *compatIncludeDir() { return "/__coalesce_lint_compat__/include"; }

const std::vector<std::pair<std::string, std::string>> &compatHeaders() {
  static const std::vector<std::pair<std::string, std::string>> H = [] {
    std::vector<std::pair<std::string, std::string>> V;
    for (const auto &E : kCompatHeaders)
      V.emplace_back(std::string(compatIncludeDir()) + "/" + E.first, E.second);
    return V;
  }();
  return H;
}

std::string hostCompilerIncludeDir() {
  // gcc's own headers (omp.h, ...) live in <libdir>/gcc/<triple>/<version>/
  // include; nvcc's host compiler finds them, clang does not look there.
  // The newest installed version.
  static const std::string Dir = [] {
    std::string Best;
    std::vector<int> BestVersion;
    for (const char *Lib : {"/usr/lib/gcc", "/usr/lib64/gcc", "/usr/local/lib/gcc"}) {
      std::error_code EC;
      for (llvm::sys::fs::directory_iterator T(Lib, EC), End; !EC && T != End; T.increment(EC))
        for (llvm::sys::fs::directory_iterator V(T->path(), EC), VEnd; !EC && V != VEnd;
             V.increment(EC)) {
          llvm::SmallString<256> Inc(V->path());
          llvm::sys::path::append(Inc, "include");
          llvm::SmallString<256> Omp(Inc);
          llvm::sys::path::append(Omp, "omp.h");
          if (!llvm::sys::fs::exists(Omp))
            continue;
          std::vector<int> Version;
          llvm::SmallVector<llvm::StringRef, 4> Parts;
          llvm::sys::path::filename(V->path()).split(Parts, '.');
          for (llvm::StringRef P : Parts) {
            int N = 0;
            Version.push_back(P.getAsInteger(10, N) ? -1 : N);
          }
          if (Best.empty() || Version > BestVersion) {
            Best = std::string(Inc);
            BestVersion = Version;
          }
        }
    }
    return Best;
  }();
  return Dir;
}

std::string defaultResourceDir() {
  std::string Installed = installedResourceDir();
  return Installed.empty() ? COALESCE_CLANG_RESOURCE_DIR : Installed;
}

bool isCudaToolkit(const std::string &Path) {
  if (Path.empty())
    return false;
  llvm::SmallString<256> P(Path);
  llvm::sys::path::append(P, "include", "cuda_runtime.h");
  return llvm::sys::fs::exists(P);
}

std::string findCudaToolkit() {
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *V = std::getenv(Var))
      if (isCudaToolkit(V))
        return V;
  if (isCudaToolkit("/usr/local/cuda"))
    return "/usr/local/cuda";
  return "";
}

std::string cudaToolkitVersion(const std::string &Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::path::append(P, "version.json");
  std::smatch M;
  if (auto Buf = llvm::MemoryBuffer::getFile(P)) {
    std::string Text = (*Buf)->getBuffer().str();
    // {"cuda" : {"name" : "CUDA SDK", "version" : "13.0.48"}, ...}
    static const std::regex Re(R"re("cuda"\s*:\s*\{[^}]*"version"\s*:\s*"([0-9]+)\.([0-9]+))re");
    if (std::regex_search(Text, M, Re))
      return M[1].str() + "." + M[2].str();
  }
  P = Path;
  llvm::sys::path::append(P, "include", "cuda.h");
  if (auto Buf = llvm::MemoryBuffer::getFile(P)) {
    std::string Text = (*Buf)->getBuffer().str();
    static const std::regex Re(R"(#define\s+CUDA_VERSION\s+([0-9]+))");
    if (std::regex_search(Text, M, Re)) {
      int V = std::stoi(M[1].str());
      return std::to_string(V / 1000) + "." + std::to_string((V % 1000) / 10);
    }
  }
  return "";
}

std::vector<int> nvccVersion(const std::string &Path) {
  auto Parts = [](const std::string &A, const std::string &B, const std::string &C) {
    return std::vector<int>{std::stoi(A), std::stoi(B), C.empty() ? 0 : std::stoi(C)};
  };
  std::smatch M;
  llvm::SmallString<256> P(Path);
  llvm::sys::path::append(P, "version.json");
  if (auto Buf = llvm::MemoryBuffer::getFile(P)) {
    std::string Text = (*Buf)->getBuffer().str();
    // "cuda_nvcc" : {"name" : "CUDA NVCC", "version" : "13.0.88"}
    static const std::regex Re(
        R"re("cuda_nvcc"\s*:\s*\{[^}]*"version"\s*:\s*"([0-9]+)\.([0-9]+)\.([0-9]+))re");
    if (std::regex_search(Text, M, Re))
      return Parts(M[1].str(), M[2].str(), M[3].str());
  }
  // A toolkit installed from NVIDIA's wheels: dist-info/nvidia_cuda_nvcc-13.0.88.dist-info.
  P = Path;
  llvm::sys::path::append(P, "dist-info");
  std::error_code EC;
  static const std::regex Wheel(R"(nvidia_cuda_nvcc(_cu[0-9]+)?-([0-9]+)\.([0-9]+)\.([0-9]+).*)");
  for (llvm::sys::fs::directory_iterator I(P, EC), End; !EC && I != End; I.increment(EC)) {
    const std::string Name = llvm::sys::path::filename(I->path()).str();
    if (std::regex_match(Name, M, Wheel))
      return Parts(M[2].str(), M[3].str(), M[4].str());
  }
  const std::string V = cudaToolkitVersion(Path);
  if (std::regex_match(V, M, std::regex(R"(([0-9]+)\.([0-9]+))")))
    return Parts(M[1].str(), M[2].str(), "");
  return {};
}

bool clangKnowsCudaVersion(const std::string &Version) {
  return clang::CudaStringToVersion(Version) != clang::CudaVersion::UNKNOWN;
}

Invocation makeInvocation(const InvocationOptions &Opts) {
  Invocation Inv;
  std::string Cuda = Opts.CudaPath;
  if (Cuda.empty())
    Cuda = findCudaToolkit();
  else if (Cuda == "none")
    Cuda.clear();
  else if (!isCudaToolkit(Cuda)) {
    Inv.Problem = "--cuda-path=" + Cuda +
                  " does not hold a CUDA toolkit (no include/cuda_runtime.h)";
    return Inv;
  }
  std::string Resource =
      Opts.ResourceDir.empty() ? defaultResourceDir() : Opts.ResourceDir;
  if (!llvm::sys::fs::is_directory(Resource)) {
    Inv.Problem = "clang resource directory '" + Resource +
                  "' does not exist (use --resource-dir)";
    return Inv;
  }
  auto &A = Inv.Args;
  A = {"clang++", "-x", "cuda", "--cuda-device-only",
       "--cuda-gpu-arch=" + Opts.GpuArch, "-std=" + Opts.Std,
       "-resource-dir=" + Resource, "-Wno-unknown-cuda-version", "-w",
       "-D__COALESCE_LINT__=1"};
  if (!Cuda.empty()) {
    Inv.CudaPath = Cuda;
    A.push_back("--cuda-path=" + Cuda);
    llvm::SmallString<256> Cccl(Cuda);
    llvm::sys::path::append(Cccl, "include", "cccl");
    if (llvm::sys::fs::is_directory(Cccl)) {
      A.push_back("-isystem");
      A.push_back(std::string(Cccl));
    }
  } else {
    Inv.BuiltinHeaders = true;
    A.push_back("-nocudainc");
    A.push_back("-nocudalib");
    A.push_back("-isystem");
    A.push_back(builtinIncludeDir());
    A.push_back("-include");
    A.push_back("cuda_runtime.h");
  }
  if (Opts.NvccCompat && !Cuda.empty()) {
    // nvcc's version macros, which code tests to enable what the toolkit
    // in use supports (CUTLASS's SM90 and SM100 paths). The built-in
    // header defines its own.
    const std::vector<int> V = nvccVersion(Cuda);
    if (V.size() == 3) {
      A.push_back("-D__CUDACC_VER_MAJOR__=" + std::to_string(V[0]));
      A.push_back("-D__CUDACC_VER_MINOR__=" + std::to_string(V[1]));
      A.push_back("-D__CUDACC_VER_BUILD__=" + std::to_string(V[2]));
    }
  }
  if (Opts.NvccCompat) {
    // As nvcc compiles (docs/nvcc-compat.md): device code may launch
    // kernels (dynamic parallelism needs relocatable device code in clang;
    // nvcc accepts it and only the link needs -rdc), the declarations nvcc's
    // headers give, and the host compiler's own headers last.
    A.push_back("-fgpu-rdc");
    // "%d"PRIu64 (no space before the macro): gcc warns, clang errors.
    A.push_back("-Wno-reserved-user-defined-literal");
    A.push_back("-include");
    A.push_back(std::string(compatIncludeDir()) + "/coalesce_nvcc_compat.h");
    const std::string Host = hostCompilerIncludeDir();
    if (!Host.empty()) {
      A.push_back("-idirafter");
      A.push_back(Host);
    }
  }
  for (const std::string &E : Opts.ExtraArgs)
    A.push_back(E);
  return Inv;
}

} // namespace coalesce

//===- Invocation.cpp - The clang command line for a device-side parse ----===//

#include "Invocation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

namespace coalesce {

#include "BuiltinHeaders.inc" // kBuiltinHeaders: {name, contents}

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

std::string defaultResourceDir() { return COALESCE_CLANG_RESOURCE_DIR; }

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
  for (const std::string &E : Opts.ExtraArgs)
    A.push_back(E);
  return Inv;
}

} // namespace coalesce

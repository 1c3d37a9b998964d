//===- Invocation.h - The clang command line for a device-side parse ------===//
//
// How a .cu file is parsed: device side only (the AST then holds kernels and
// host launch sites), for one GPU architecture, with the CUDA toolkit's
// headers when one is found (/usr/local/cuda, $CUDA_PATH, $CUDA_HOME or
// --cuda-path) and otherwise with the built-in minimal CUDA header
// (analyzer/driver/builtin/include), mapped into the tool's virtual file system.
// The clang resource directory is the one installed with coalesce-lint
// (driver/Installation.h), else LLVM's, compiled in: a libTooling binary
// outside LLVM's bin/ would compute a wrong one and lose cuda_wrappers/.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_INVOCATION_H
#define COALESCE_ANALYZER_INVOCATION_H

#include <string>
#include <utility>
#include <vector>

namespace coalesce {

struct InvocationOptions {
  std::string CudaPath;          // "" = find one; "none" = built-in header
  std::string GpuArch = "sm_90"; // --cuda-gpu-arch
  std::string ResourceDir;       // "" = defaultResourceDir()
  std::string Std = "c++17";
  std::vector<std::string> ExtraArgs; // after `--` on the command line
  /// Parse as nvcc compiles (docs/nvcc-compat.md): the compatibility header,
  /// relocatable device code, the host compiler's own include directory.
  bool NvccCompat = true;
};

struct Invocation {
  std::vector<std::string> Args; // clang arguments, without the input file
  bool BuiltinHeaders = false;
  std::string CudaPath;          // the toolkit used (empty with built-ins)
  std::string Problem;           // a fatal configuration problem
};

Invocation makeInvocation(const InvocationOptions &Opts);

/// Where the built-in headers live in the virtual file system.
const char *builtinIncludeDir();
/// The built-in headers: (absolute virtual path, contents).
const std::vector<std::pair<std::string, std::string>> &builtinHeaders();
/// The nvcc compatibility header(s), mapped into every parse: (absolute
/// virtual path, contents).
const std::vector<std::pair<std::string, std::string>> &compatHeaders();
/// The include directory of the host compiler nvcc would use (gcc's own,
/// with omp.h), or "".
std::string hostCompilerIncludeDir();
/// The clang resource directory installed with coalesce-lint (a statically
/// linked build carries clang's builtin headers), else the one of the LLVM
/// it was built against.
std::string defaultResourceDir();
/// True if Path holds a CUDA toolkit's headers.
bool isCudaToolkit(const std::string &Path);
/// The toolkit found from the environment, or "".
std::string findCudaToolkit();
/// A toolkit's version, "13.0" (from version.json or include/cuda.h), or "".
std::string cudaToolkitVersion(const std::string &Path);
/// The version of the toolkit's nvcc as nvcc defines it in every file it
/// compiles (__CUDACC_VER_MAJOR__, _MINOR__, _BUILD__): from version.json's
/// "cuda_nvcc" entry, or the nvcc package's metadata (dist-info) of a
/// toolkit installed from wheels, else cudaToolkitVersion() with build 0.
/// Empty when neither is found.
std::vector<int> nvccVersion(const std::string &Path);
/// True if clang (this LLVM) knows CUDA Version ("12.8"); an unknown one is
/// parsed anyway, and may fail to.
bool clangKnowsCudaVersion(const std::string &Version);

} // namespace coalesce

#endif // COALESCE_ANALYZER_INVOCATION_H

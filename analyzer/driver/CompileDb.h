//===- CompileDb.h - Compile databases and nvcc command lines ------------===//
//
// A project built by CMake for nvcc records commands clang cannot run:
//
//   nvcc -forward-unknown-to-host-compiler -DFOO=1 -I/src/inc
//        --generate-code=arch=compute_90,code=[compute_90,sm_90]
//        --expt-relaxed-constexpr --extended-lambda -Xcompiler=-fopenmp,-Wall
//        -std=c++17 -x cu -rdc=true -c /src/k.cu -o k.cu.o
//
// translateCommand() turns such a command (or a clang/gcc one) into the
// device-side clang arguments the analysis parses with: the GPU architecture
// from -gencode/--generate-code/-arch/-code, the macros nvcc would define for
// its --expt-* and --default-stream switches, preprocessor options forwarded
// through -Xcompiler, -rdc as -fgpu-rdc, `-x cu` as `-x cuda`, and options
// files spliced in; options that only affect code generation, linking or the
// host compiler are dropped. Each translation records what it did.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_COMPILEDB_H
#define COALESCE_ANALYZER_COMPILEDB_H

#include "driver/Invocation.h"

#include <memory>
#include <string>
#include <vector>

namespace coalesce {

struct TranslatedCommand {
  std::vector<std::string> Args; // clang arguments, without the input file
  bool BuiltinHeaders = false;
  std::string GpuArch;           // as chosen (e.g. "sm_90")
  std::vector<std::string> Notes; // "-gencode arch=compute_80,code=sm_80: analysed for sm_80"
  std::string Problem;           // fatal
};

/// Translates a compile command line (argv[0] is the compiler, the input file
/// may be among the arguments and is removed) for analysis of File. The GPU
/// architecture is the command's first real one, else Base.GpuArch; with
/// BaseArchWins (the user asked for one) always Base.GpuArch.
TranslatedCommand translateCommand(const std::vector<std::string> &CommandLine,
                                   const std::string &File,
                                   const std::string &Directory,
                                   const InvocationOptions &Base,
                                   bool BaseArchWins = false);

struct DbEntry {
  std::string File;      // absolute
  std::string Directory;
  std::vector<std::string> CommandLine;
};

/// Loads BuildDir/compile_commands.json; Err is set on failure.
std::vector<DbEntry> loadCompileDb(const std::string &BuildDir, std::string &Err);

/// The directory holding the compile_commands.json nearest above File, or "".
std::string findCompileDbFor(const std::string &File);

/// The entries whose translation units include Header (absolute, dots
/// removed), directly or through other headers, in the database's order, at
/// most Max. Found by reading the #include lines of the unit and the
/// project headers it reaches, resolved as the compiler would: a quoted name
/// from the including file's directory, then the command's -I/-iquote
/// directories (and nvcc's --include-path); headers of -isystem directories
/// and those not found (the toolkit's, the standard library's) are not
/// read. Conditional inclusion is not evaluated: an #include inside `#if 0`
/// counts.
std::vector<const DbEntry *> includersOf(const std::string &Header,
                                         const std::vector<DbEntry> &Entries, size_t Max);

/// True if a command compiles CUDA (nvcc, or -x cuda, or a .cu file).
bool isCudaCommand(const std::vector<std::string> &CommandLine, const std::string &File);

} // namespace coalesce

#endif // COALESCE_ANALYZER_COMPILEDB_H

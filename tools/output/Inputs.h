//===- Inputs.h - The files a command line names --------------------------===//
//
// A directory on the command line stands for the CUDA files under it: every
// `.cu` and `.cuh` file, found recursively, in sorted order. As the
// clang-format and clang-tidy wrappers do, hidden directories (a name that
// starts with '.', such as .git) are not entered; neither are CMake build
// trees (a directory holding CMakeCache.txt), whose CMakeFiles/ hold CMake's
// own CUDA test sources. Symbolic links to directories are not followed (no
// cycles); links to files are. A file named twice (given and found, or found
// under two arguments) is analysed once, where it first appears. A directory
// without CUDA files is an error, since the user meant something else.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_INPUTS_H
#define COALESCE_TOOLS_OUTPUT_INPUTS_H

#include <string>
#include <vector>

namespace coalesce {

/// The input files of Args (files as given, directories expanded); why a
/// directory gave none goes to Errors ("DIR: no .cu or .cuh files ...").
/// Arguments that are neither a file nor a directory are kept as given (the
/// analysis reports them as missing).
std::vector<std::string> expandInputs(const std::vector<std::string> &Args,
                                      std::vector<std::string> &Errors);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_INPUTS_H

//===- BlockChoice.h - Block shapes the user gives (--block) ---------------===//
//
// When the block shape of a kernel is not known (no launch in the file, or a
// launch whose shape depends on run-time input), the user can give it:
// for every such kernel (`--block=256`), or for the kernels of one name
// (`--block=reduce6=256`, `--block='reduce6<float, 256>=256'`). A launch
// whose shape is known always wins over a choice.
//
// A name matches a kernel with or without its template arguments and its
// namespaces; spaces and integer suffixes in template arguments do not
// matter (`reduce6<float,256>` names `reduce6<float, 256U>`). The choice
// with template arguments wins over one without, which wins over a plain
// shape; among equals, the last one given wins.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_LAUNCH_BLOCKCHOICE_H
#define COALESCE_ANALYZER_LAUNCH_BLOCKCHOICE_H

#include "model/WarpModel.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace coalesce {

struct BlockChoice {
  std::string Kernel; // "" for every kernel whose shape is not known
  Dim3 Block;
  /// How the user wrote it, for notes: "--block=reduce6=256",
  /// "the check option Block=reduce6=256", "block: in .coalesce-lint.yaml".
  std::string Spelling;
  bool operator==(const BlockChoice &O) const {
    return Kernel == O.Kernel && Block == O.Block && Spelling == O.Spelling;
  }
};

/// "X[,Y[,Z]]" (positive integers) -> the shape; on failure, Why says what
/// is wrong.
std::optional<Dim3> parseBlockShape(llvm::StringRef S, std::string &Why);

/// "X[,Y[,Z]]" or "KERNEL=X[,Y[,Z]]"; Spelling is left empty. On failure,
/// Why says what is wrong.
std::optional<BlockChoice> parseBlockChoice(llvm::StringRef S, std::string &Why);

/// How well Choice (a kernel name as the user wrote it) names the kernel
/// called KernelName (as kernelName() prints it): 2 with its template
/// arguments, 1 by its name alone, 0 not.
int namesKernel(llvm::StringRef Choice, llvm::StringRef KernelName);

/// The choice that applies to the kernel, if any.
const BlockChoice *chooseBlock(const std::vector<BlockChoice> &Choices,
                               llvm::StringRef KernelName);

} // namespace coalesce

#endif // COALESCE_ANALYZER_LAUNCH_BLOCKCHOICE_H

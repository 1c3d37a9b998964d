//===- Launches.h - Kernels, their launch sites and launch shapes ---------===//
//
// The device-side AST of a .cu file also holds the host code, so one parse
// gives every __global__ function (each template instantiation separately) and
// every launch: `kernel<<<grid, block>>>(args)`, cudaLaunchKernel,
// cudaLaunchCooperativeKernel and cudaLaunchKernelEx(C). What each launch
// passes comes from running the host code abstractly (HostInterp.h): one
// KernelLaunch per distinct grid, block and known arguments that reach a
// launch site.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_LAUNCHES_H
#define COALESCE_ANALYZER_LAUNCHES_H

#include "launch/LaunchFacts.h"
#include "model/WarpModel.h"

#include <map>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
} // namespace clang

namespace coalesce {

struct KernelLaunch {
  const clang::Expr *Site = nullptr; // the <<<...>>> call or cudaLaunchKernel(...)
  LaunchFacts Facts;
  std::string Problem; // e.g. "block shape (2048, 1, 1) is not valid"
};

struct KernelDef {
  const clang::FunctionDecl *FD = nullptr;
  std::string Name; // "scale<4>"
  std::vector<KernelLaunch> Launches;
  int64_t MaxThreadsHint = 0; // __launch_bounds__(N)
};

/// Name of a kernel with its template arguments, e.g. "scale<4>".
std::string kernelName(const clang::FunctionDecl *FD);

/// All kernels outside system headers, in source order, with their launches.
/// Stated: the values the user stated for names (`--assume NAME=V`); host
/// variables of those names that the host code cannot know take them.
std::vector<KernelDef> findKernels(clang::ASTContext &Ctx,
                                   const std::map<std::string, int64_t> &Stated = {});

} // namespace coalesce

#endif // COALESCE_ANALYZER_LAUNCHES_H

//===- Launches.h - Kernels, their launch sites and launch shapes ---------===//
//
// The device-side AST of a .cu file also holds the host code, so one parse
// gives every __global__ function (each template instantiation separately) and
// every `kernel<<<grid, block>>>(args)` launch. The host evaluator computes
// what a launch passes when it is a compile-time fact: integer and dim3
// constants, constexpr / #define / enum / static const values, sizeof, local
// variables that are initialised once and never changed, simple arithmetic
// such as (n + 255) / 256, and pointer arguments that are an allocation plus a
// constant offset.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_LAUNCHES_H
#define COALESCE_ANALYZER_LAUNCHES_H

#include "launch/LaunchFacts.h"
#include "model/WarpModel.h"

#include "clang/AST/ExprCXX.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace coalesce {

struct KernelLaunch {
  const clang::CUDAKernelCallExpr *Call = nullptr;
  LaunchFacts Facts;
  std::string Problem; // e.g. "block shape (2048, 1, 1) is not valid"
};

struct KernelDef {
  const clang::FunctionDecl *FD = nullptr;
  std::string Name; // "scale<4>"
  std::vector<KernelLaunch> Launches;
  int64_t MaxThreadsHint = 0; // __launch_bounds__(N)
};

class HostEvaluator {
public:
  explicit HostEvaluator(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  std::optional<int64_t> evalInt(const clang::Expr *E, const clang::FunctionDecl *Fn,
                                 unsigned Depth = 0);
  std::optional<Dim3> evalDim3(const clang::Expr *E, const clang::FunctionDecl *Fn,
                               unsigned Depth = 0);
  /// Byte offset of a pointer from the start of its allocation.
  std::optional<int64_t> evalPtrOffset(const clang::Expr *E,
                                       const clang::FunctionDecl *Fn,
                                       unsigned Depth = 0);
  /// An integer field of a struct value (aggregate-initialised local, or a
  /// parameter whose every call site passes the same value).
  std::optional<int64_t> evalField(const clang::Expr *Base,
                                   const clang::FieldDecl *Field,
                                   const clang::FunctionDecl *Fn, unsigned Depth = 0);

  /// Call sites of each function (filled by findKernels before evaluating).
  std::map<const clang::FunctionDecl *,
           std::vector<std::pair<const clang::CallExpr *, const clang::FunctionDecl *>>>
      CallSites;

private:
  bool isModified(const clang::VarDecl *VD, const clang::FunctionDecl *Fn);
  /// The argument every call of PD's function passes for PD, evaluated by F.
  template <class T, class F>
  std::optional<T> throughCallSites(const clang::ParmVarDecl *PD, unsigned Depth, F Eval);
  clang::ASTContext &Ctx;
  std::map<const clang::FunctionDecl *, std::set<const clang::VarDecl *>> Modified;
};

/// Name of a kernel with its template arguments, e.g. "scale<4>".
std::string kernelName(const clang::FunctionDecl *FD);

/// All kernels outside system headers, in source order, with their launches.
std::vector<KernelDef> findKernels(clang::ASTContext &Ctx);

} // namespace coalesce

#endif // COALESCE_ANALYZER_LAUNCHES_H

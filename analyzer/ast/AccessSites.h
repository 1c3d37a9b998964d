//===- AccessSites.h - Memory accesses as written in the source -*- C++ -*-===//
//
// The memory accesses of a kernel as the source spells them, independent of
// the interpreter: every subscript, dereference or `->` (and `.` on one of
// those, and every `__shared__`/`__device__` variable) whose value is read or
// written, in the kernel and in every function with a body it calls. The
// analysis compares them with what the interpreter reached, so that no access
// of an analysed kernel can vanish from the output without a reason
// (Analysis.cpp: "the analysis did not evaluate this access").
//
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_AST_ACCESSSITES_H
#define COALESCE_ANALYZER_AST_ACCESSSITES_H

#include "report/Report.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ParentMap;
}

namespace coalesce {

struct AccessSite {
  /// The lvalue read or written, without parentheses and implicit casts.
  const clang::Expr *E = nullptr;
  const clang::FunctionDecl *In = nullptr;
  bool Store = false; // written (a compound assignment also reads)
  /// Shared or constant when its root is a __shared__ or __constant__
  /// variable; global otherwise (what a pointer points to is not known here).
  MemorySpace Space = MemorySpace::Global;
};

/// Where the interpreter went: statements and expressions it evaluated with
/// at least one active lane, and the lvalues that became accesses.
struct CoverageQuery {
  llvm::function_ref<bool(const clang::Stmt *)> Visited;
  llvm::function_ref<bool(const clang::Expr *)> Reached;
};

/// The kernel and the functions it calls, with their memory accesses.
class KernelSites {
public:
  KernelSites(clang::ASTContext &Ctx, const clang::FunctionDecl *Kernel);
  ~KernelSites();

  const std::vector<AccessSite> &sites() const { return Sites; }
  const clang::FunctionDecl *kernel() const { return Functions.front(); }
  /// The kernel, then every function with a body it calls (outside system
  /// headers), each once.
  const std::vector<const clang::FunctionDecl *> &functions() const { return Functions; }

  /// Why the interpreter did not evaluate a site it should have (the path to
  /// it was taken by some lane); empty when no lane's path leads there (a
  /// branch no lane takes, code after every lane returned, a function no
  /// executed call reaches). Only meaningful for sites that were not reached.
  std::string missedWhy(const AccessSite &S, const CoverageQuery &Q) const;

private:
  clang::ASTContext &Ctx;
  std::vector<const clang::FunctionDecl *> Functions;
  std::map<const clang::FunctionDecl *, std::unique_ptr<clang::ParentMap>> Parents;
  /// Calls that lead into each function (its call sites in the kernel's code).
  std::map<const clang::FunctionDecl *, std::vector<const clang::Expr *>> CallsTo;
  std::vector<AccessSite> Sites;
  llvm::DenseMap<const clang::Expr *, size_t> SiteIndex; // position in Sites

  void addFunction(const clang::FunctionDecl *FD);
};

} // namespace coalesce

#endif // COALESCE_ANALYZER_AST_ACCESSSITES_H

//===- ThreadRoles.cpp - What the kernel's code says about its mapping ----===//

#include "ast/ThreadRoles.h"

#include "ast/AccessSites.h"
#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

#include <functional>

using namespace clang;

namespace coalesce {

namespace {

/// CUDA's warp-level intrinsics, by the prefix of their names as CUDA's
/// headers spell them (the _sync forms included).
bool warpIntrinsic(llvm::StringRef Name) {
  static const char *const Prefixes[] = {
      "__shfl",      "__ballot",  "__any",       "__all",     "__uni",   "__activemask",
      "__match_any", "__match_all", "__reduce_", "__syncwarp", "__vote", "__fns",
      "__nvvm_shfl", "__nvvm_vote", "__nvvm_match", "__nvvm_bar_warp", "__nvvm_read_ptx_sreg_laneid"};
  for (const char *P : Prefixes)
    if (Name.starts_with(P))
      return true;
  return false;
}

/// Inline assembly that names a lane or exchanges data within the warp.
bool warpAsm(llvm::StringRef Text) {
  for (const char *W : {"shfl", "vote", "match", "redux", "laneid", "bar.warp", "activemask",
                        "lanemask", "elect"})
    if (Text.contains(W))
      return true;
  return false;
}

bool inCooperativeGroups(const FunctionDecl *FD) {
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

} // namespace

std::string warpSynchronousCode(ASTContext &Ctx, const KernelSites &Sites) {
  std::string Found;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Found.empty())
      return;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = CE->getDirectCallee()) {
        const std::string Name = FD->getNameAsString();
        if (warpIntrinsic(Name))
          Found = "`" + Name + "` at " + fileLine(Ctx, CE->getBeginLoc());
        else if (inCooperativeGroups(FD))
          Found = "cooperative groups (`" + FD->getQualifiedNameAsString() + "`) at " +
                  fileLine(Ctx, CE->getBeginLoc());
        if (!Found.empty())
          return;
      }
    if (const auto *A = dyn_cast<GCCAsmStmt>(S))
      if (warpAsm(A->getAsmString())) {
        Found = "inline assembly with a warp-level instruction at " +
                fileLine(Ctx, A->getBeginLoc());
        return;
      }
    if (const auto *E = dyn_cast<Expr>(S))
      if (E->isGLValue() && E->getType().isVolatileQualified() &&
          (isa<DeclRefExpr>(E) || isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E) ||
           isa<UnaryOperator>(E))) {
        Found = "a `volatile` access at " + fileLine(Ctx, E->getBeginLoc()) +
                " (lanes that exchange data through memory without a barrier)";
        return;
      }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  for (const FunctionDecl *FD : Sites.functions())
    Walk(FD->getBody());
  return Found;
}

std::vector<std::pair<uint64_t, uint64_t>> assignmentPairs(ASTContext &Ctx,
                                                           const KernelSites &Sites) {
  std::vector<std::pair<uint64_t, uint64_t>> Out;
  auto IsAccess = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    return isa<ArraySubscriptExpr>(E) ||
           (isa<UnaryOperator>(E) && cast<UnaryOperator>(E)->getOpcode() == UO_Deref) ||
           (isa<MemberExpr>(E) && cast<MemberExpr>(E)->isArrow());
  };
  auto At = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    return sourcePos(Ctx, E->getBeginLoc(), E->getEndLoc()).RawLoc;
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->getOpcode() == BO_Assign && IsAccess(BO->getLHS()) && IsAccess(BO->getRHS()))
        Out.push_back({At(BO->getLHS()), At(BO->getRHS())});
    for (const Stmt *C : S->children())
      Walk(C);
  };
  for (const FunctionDecl *FD : Sites.functions())
    Walk(FD->getBody());
  return Out;
}

} // namespace coalesce

//===- LoadSinking.cpp - Loads nvcc moves into the guard of a loop --------===//
//
// A value loaded before a loop and used only inside its body is loaded by
// nvcc after the loop's first test: LLVM sinks the load to its only user and
// loop rotation puts it in the guarded preheader, so a warp none of whose
// lanes enters the loop does not issue it, and one that enters with some of
// its lanes issues it with those lanes. llm.c's rstd_kernel (`float m =
// mean[idx]; for (i = tid; i < C; i += block_size) ... m ...`) with 1024
// threads and C = 768: 0.75 requests per warp measured on an H200, where the
// load's line said 1 (tests/verify/fixtures/real-h200/llmc).
//
// The conditions, from the syntax (read in SASS, nvcc 13 -O3, sm_90: the
// load follows the guard's branch; with a store between, or a use after the
// loop, it stays before it):
//
//   - the load is the whole initialiser of a local scalar variable (up to
//     implicit conversions), declared in a block;
//   - the statements between that declaration and the loop, in the same
//     block, are declarations or expression statements that store to no
//     memory, call nothing and do not leave (no barrier, no branch);
//   - the variable is used in the loop's body or increment only: not in its
//     initialiser or condition (the first test needs neither), and not after
//     the loop.
//
// The walker then holds the load's events until the loop starts and issues
// them with the lanes whose first test holds (WarpInterp::execLoop), or
// drops them where no lane enters; where that test's lanes are not known,
// the event says its requests are not known.
//
// Hook: access() marks such a load's event with the loop (SinkLoop).
//===----------------------------------------------------------------------===//

#include "interp/CompilerModel.h"
#include "interp/WarpInterp.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <map>

using namespace clang;

namespace coalesce {
namespace interp {

namespace {

/// Whether S refers to VD.
bool refersTo(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  if (auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == VD)
    return true;
  for (const Stmt *C : S->children())
    if (refersTo(C, VD))
      return true;
  return false;
}

/// A statement between the load and the loop that cannot keep nvcc from
/// moving the load: no store to memory, no call, no control flow.
bool harmless(const Stmt *S) {
  if (!S)
    return true;
  if (isa<CallExpr>(S) || isa<CXXConstructExpr>(S) || isa<GCCAsmStmt>(S) ||
      isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<GotoStmt>(S) ||
      isa<IfStmt>(S) || isa<SwitchStmt>(S) || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
      isa<DoStmt>(S) || isa<ConditionalOperator>(S) || isa<BinaryConditionalOperator>(S))
    return false;
  auto LocalScalar = [](const Expr *L) {
    auto *DR = dyn_cast<DeclRefExpr>(L->IgnoreParenImpCasts());
    auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
           VD->getType()->isScalarType();
  };
  if (auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && !LocalScalar(BO->getLHS()))
    return false;
  if (auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp() &&
                                             !LocalScalar(UO->getSubExpr()))
    return false;
  for (const Stmt *C : S->children())
    if (!harmless(C))
      return false;
  return true;
}

class LoadSinking : public CompilerModel {
public:
  using CompilerModel::CompilerModel;

  void access(AccessEvent &E, const AccessFacts &A) override {
    if (A.Op != AccessOp::Load || !A.Plain || !E.UnknownWhy.empty() || dry())
      return;
    auto [It, New] = R.SinkTargets.try_emplace(A.Site, nullptr);
    if (New)
      It->second = target(A.Site, E.Function);
    E.SinkLoop = It->second;
  }

private:
  /// The loop the load at Site, in the body of Fn, moves into, or null.
  const Stmt *target(const Expr *Site, const FunctionDecl *Fn) {
    // Up from the load through implicit conversions to a variable's
    // initialiser, its declaration and the block holding it. The parents
    // come from the function's body alone (clang's parent map of the
    // whole translation unit reads every declaration of the precompiled
    // headers); where the body does not hold the load, from clang's map.
    std::shared_ptr<ParentMap> PM;
    if (Fn && Fn->getBody()) {
      std::shared_ptr<ParentMap> &Slot = R.BodyParents[Fn];
      if (!Slot)
        Slot = std::make_shared<ParentMap>(Fn->getBody());
      if (Slot->hasParent(Site))
        PM = Slot;
    }
    const VarDecl *VD = nullptr;
    const DeclStmt *DS = nullptr;
    const CompoundStmt *Block = nullptr;
    if (PM) {
      // In a body, an initialiser's parent is its declaration statement.
      const Stmt *N = Site;
      for (int Up = 0; Up < 4 && !DS; ++Up) {
        N = PM->getParent(N);
        if (!N)
          return nullptr;
        if (const auto *D = dyn_cast<DeclStmt>(N))
          DS = D;
        else if (!isa<ImplicitCastExpr>(N) && !isa<ExprWithCleanups>(N))
          return nullptr;
      }
      if (!DS || !DS->isSingleDecl())
        return nullptr;
      VD = dyn_cast<VarDecl>(DS->getSingleDecl());
      Block = dyn_cast_or_null<CompoundStmt>(PM->getParent(DS));
    } else {
      DynTypedNode N = DynTypedNode::create(*Site);
      for (int Up = 0; Up < 4 && !VD; ++Up) {
        auto Parents = Ctx.getParents(N);
        if (Parents.size() != 1)
          return nullptr;
        N = Parents[0];
        if (const auto *V = N.get<VarDecl>())
          VD = V;
        else if (!N.get<ImplicitCastExpr>() && !N.get<ExprWithCleanups>())
          return nullptr;
      }
      if (VD) {
        auto DeclParents = Ctx.getParents(*VD);
        DS = DeclParents.size() == 1 ? DeclParents[0].get<DeclStmt>() : nullptr;
        if (!DS || !DS->isSingleDecl())
          return nullptr;
        auto BlockParents = Ctx.getParents(*DS);
        Block = BlockParents.size() == 1 ? BlockParents[0].get<CompoundStmt>() : nullptr;
      }
    }
    if (!VD || VD->getInit() == nullptr || !VD->hasLocalStorage() ||
        VD->getType()->isReferenceType() || !VD->getType()->isScalarType() ||
        VD->getInit()->IgnoreImpCasts() != Site->IgnoreImpCasts())
      return nullptr;
    if (!Block)
      return nullptr;
    const Stmt *Loop = nullptr;
    bool After = false;
    for (const Stmt *S : Block->body()) {
      if (S == DS) {
        After = true;
        continue;
      }
      if (!After)
        continue;
      if (Loop) {
        if (refersTo(S, VD))
          return nullptr; // used after the loop
        continue;
      }
      const Stmt *Init = nullptr, *Cond = nullptr, *Inc = nullptr, *Body = nullptr;
      if (auto *F = dyn_cast<ForStmt>(S)) {
        Init = F->getInit(), Cond = F->getCond(), Inc = F->getInc(), Body = F->getBody();
      } else if (auto *W = dyn_cast<WhileStmt>(S)) {
        Cond = W->getCond(), Body = W->getBody();
      } else {
        // Between the load and its loop.
        if (refersTo(S, VD) || !harmless(S))
          return nullptr;
        continue;
      }
      if (refersTo(Init, VD) || refersTo(Cond, VD) || !(refersTo(Body, VD) || refersTo(Inc, VD)))
        return nullptr;
      if (Init && !harmless(Init))
        return nullptr;
      Loop = S;
    }
    return Loop;
  }

};

} // namespace

std::unique_ptr<CompilerModel> makeLoadSinking(WarpInterp &I) {
  return std::make_unique<LoadSinking>(I);
}

} // namespace interp
} // namespace coalesce

//===- AccessSites.cpp - Memory accesses as written in the source ---------===//

#include "ast/AccessSites.h"
#include "ast/AstUtil.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <set>

using namespace clang;

namespace coalesce {

namespace {

const Expr *stripNoOps(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    auto *IC = dyn_cast<ImplicitCastExpr>(E);
    if (!IC || (IC->getCastKind() != CK_NoOp && IC->getCastKind() != CK_DerivedToBase &&
                IC->getCastKind() != CK_UncheckedDerivedToBase))
      return E;
    E = IC->getSubExpr();
  }
  return E;
}

bool isDeviceVariable(const VarDecl *VD) {
  if (!VD->hasGlobalStorage())
    return false;
  return VD->hasAttr<CUDASharedAttr>() || VD->hasAttr<CUDADeviceAttr>() ||
         VD->hasAttr<CUDAConstantAttr>();
}

/// An lvalue in memory: reading or writing it is a load or store instruction
/// (local arrays included: the interpreter must reach them to know they are
/// local). Variables of the function itself are registers.
bool isMemoryLValue(const Expr *E) {
  E = stripNoOps(E);
  if (!E || E->getType()->isArrayType() || E->getType()->isFunctionType())
    return false;
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref;
  if (auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!isa<FieldDecl>(ME->getMemberDecl()))
      return false;
    return ME->isArrow() || isMemoryLValue(ME->getBase());
  }
  if (auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_PtrMemI)
      return !BO->getType()->isFunctionType();
    if (BO->getOpcode() == BO_PtrMemD)
      return isMemoryLValue(BO->getLHS());
    return false;
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E))
    if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      return isDeviceVariable(VD) && !VD->isConstexpr();
  return false;
}

MemorySpace rootSpace(const Expr *E) {
  const VarDecl *VD = rootVar(E);
  if (VD && VD->hasAttr<CUDASharedAttr>())
    return MemorySpace::Shared;
  if (VD && isConstantMemoryVar(VD))
    return MemorySpace::Constant;
  return MemorySpace::Global;
}

bool inSystemHeader(const ASTContext &Ctx, const Decl *D) {
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

/// Whether the interpreter may evaluate `Parent` and rightly skip its part
/// `Child`: a branch no lane takes, code after every lane left, a loop that
/// runs no iteration, the right side of a short circuit, the other arm of ?:.
bool mayBeSkipped(const Stmt *Parent, const Stmt *Child) {
  if (isa<CompoundStmt>(Parent) || isa<SwitchCase>(Parent) || isa<SwitchStmt>(Parent))
    return true;
  if (auto *If = dyn_cast<IfStmt>(Parent))
    return Child == If->getThen() || Child == If->getElse();
  if (auto *For = dyn_cast<ForStmt>(Parent))
    return Child == For->getBody() || Child == For->getInc();
  if (auto *While = dyn_cast<WhileStmt>(Parent))
    return Child == While->getBody();
  if (auto *Do = dyn_cast<DoStmt>(Parent))
    return Child == Do->getCond();
  if (auto *Range = dyn_cast<CXXForRangeStmt>(Parent))
    return Child == Range->getBody();
  if (auto *BO = dyn_cast<BinaryOperator>(Parent))
    return BO->isLogicalOp() && Child == BO->getRHS();
  if (auto *CO = dyn_cast<AbstractConditionalOperator>(Parent))
    return Child == CO->getTrueExpr() || Child == CO->getFalseExpr();
  return false;
}

} // namespace

KernelSites::KernelSites(ASTContext &Ctx, const FunctionDecl *Kernel) : Ctx(Ctx) {
  addFunction(Kernel);
}

KernelSites::~KernelSites() = default;

void KernelSites::addFunction(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def->getBody() ||
      llvm::is_contained(Functions, Def))
    return;
  Functions.push_back(Def);
  Parents[Def] = std::make_unique<ParentMap>(Def->getBody());

  std::vector<const FunctionDecl *> Callees;
  auto AddSite = [&](const Expr *E, bool Store) {
    E = stripNoOps(E);
    auto [It, New] = SiteIndex.try_emplace(E, Sites.size());
    if (!New) {
      Sites[It->second].Store |= Store;
      return;
    }
    AccessSite S;
    S.E = E;
    S.In = Def;
    S.Store = Store;
    S.Space = rootSpace(E);
    Sites.push_back(S);
  };
  auto AddCall = [&](const FunctionDecl *Callee, const Expr *Call) {
    if (!Callee)
      return;
    const FunctionDecl *CalleeDef = nullptr;
    if (!Callee->hasBody(CalleeDef) || inSystemHeader(Ctx, CalleeDef))
      return;
    CallsTo[CalleeDef].push_back(Call);
    Callees.push_back(CalleeDef);
  };

  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    // Not evaluated, evaluated at compile time, or run elsewhere (a
    // lambda's body runs where it is called: its call operator is a callee).
    if (isa<UnaryExprOrTypeTraitExpr>(S) || isa<CXXTypeidExpr>(S) ||
        isa<CXXNoexceptExpr>(S) || isa<LambdaExpr>(S))
      return;
    if (auto *CE = dyn_cast<ConstantExpr>(S))
      if (CE->hasAPValueResult())
        return;
    // A range-for over a braced list: its elements and body; the loop's
    // own reads of the list are values (rangeOverBracedList).
    if (auto *RF = dyn_cast<CXXForRangeStmt>(S))
      if (const InitListExpr *IL = rangeOverBracedList(RF)) {
        Walk(IL);
        Walk(RF->getBody());
        return;
      }
    if (auto *IC = dyn_cast<ImplicitCastExpr>(S)) {
      // A read the compiler folds to a constant (a const global with a
      // constant initialiser) is no access.
      Expr::EvalResult Folded;
      if (IC->getCastKind() == CK_LValueToRValue && isMemoryLValue(IC->getSubExpr()) &&
          !(IC->EvaluateAsRValue(Folded, Ctx) && !Folded.HasSideEffects))
        AddSite(IC->getSubExpr(), false);
    } else if (auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp() && isMemoryLValue(BO->getLHS()))
        AddSite(BO->getLHS(), true);
    } else if (auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp() && isMemoryLValue(UO->getSubExpr()))
        AddSite(UO->getSubExpr(), true);
    } else if (auto *CC = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = CC->getConstructor();
      if (CC->getNumArgs() == 1 && Ctor->isCopyOrMoveConstructor() && Ctor->isTrivial() &&
          isMemoryLValue(CC->getArg(0)) && !isCompileTimeConstant(Ctx, CC->getArg(0)))
        AddSite(CC->getArg(0), false);
      else
        AddCall(Ctor, CC);
    } else if (auto *Call = dyn_cast<CallExpr>(S)) {
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
      if (M && M->isTrivial() && (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator()) &&
          Call->getNumArgs() == 2) {
        if (isMemoryLValue(Call->getArg(0)))
          AddSite(Call->getArg(0), true);
        if (isMemoryLValue(Call->getArg(1)))
          AddSite(Call->getArg(1), false);
      } else {
        AddCall(Call->getDirectCallee(), Call);
      }
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Def->getBody());
  for (const FunctionDecl *C : Callees)
    addFunction(C);
}

std::string KernelSites::missedWhy(const AccessSite &S, const CoverageQuery &Q) const {
  const std::string Text = "`" + exprText(Ctx, S.E) + "`";
  if (Q.Visited(S.E))
    return "it evaluated " + Text + " without knowing which memory it names";
  const ParentMap &PM = *Parents.at(S.In);
  const Stmt *Child = S.E;
  for (const Stmt *P = PM.getParent(Child); P; Child = P, P = PM.getParent(P)) {
    if (isa<ParenExpr>(P) || !Q.Visited(P))
      continue;
    if (mayBeSkipped(P, Child))
      return "";
    return "it evaluated `" + std::string(P->getStmtClassName()) + "` at line " +
           lineOf(Ctx, P->getBeginLoc()) + " but not its part holding " + Text;
  }
  // Nothing of this function ran: either no call to it ran, or one ran and
  // the function was not entered.
  auto It = CallsTo.find(S.In);
  if (It == CallsTo.end())
    return Q.Visited(S.In->getBody()) ? "" : "the kernel's code was not run";
  for (const Expr *Call : It->second)
    if (Q.Visited(Call))
      return "the call at line " + lineOf(Ctx, Call->getBeginLoc()) + " ran without entering '" +
             S.In->getNameAsString() + "'";
  return "";
}

} // namespace coalesce

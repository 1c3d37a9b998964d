//===- AffineLoop.cpp - Loops whose iterations differ only by a shift -----===//

#include "ast/AffineLoop.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

#include <set>

using namespace clang;

namespace coalesce {

namespace {

constexpr unsigned MaxCallDepth = 6;

class AlikeCheck {
public:
  AlikeCheck(const ASTContext &Ctx, std::set<const VarDecl *> Varying, unsigned Depth,
             std::set<const FunctionDecl *> &Entered)
      : Ctx(Ctx), Varying(std::move(Varying)), Depth(Depth), Entered(Entered) {}

  /// Closes the varying set over Body's definitions, then checks every use.
  bool run(const Stmt *Body) {
    for (const VarDecl *V : Varying)
      if (!V->hasLocalStorage())
        return fail(V->getLocation(), "it changes '" + V->getName().str() +
                                          "', which is not a local variable");
    bool Grew = true;
    while (Grew) {
      const size_t Before = Varying.size();
      close(Body);
      Grew = Varying.size() != Before;
    }
    return check(Body);
  }

  std::string Why;

private:
  const ASTContext &Ctx;
  std::set<const VarDecl *> Varying;
  unsigned Depth;
  std::set<const FunctionDecl *> &Entered;

  bool fail(SourceLocation Loc, const std::string &What) {
    if (Why.empty())
      Why = What + " (line " + lineOf(Ctx, Loc) + ")";
    return false;
  }

  bool varies(const Stmt *S) const {
    if (!S)
      return false;
    if (auto *DR = dyn_cast<DeclRefExpr>(S))
      if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        return Varying.count(V) != 0;
    for (const Stmt *C : S->children())
      if (varies(C))
        return true;
    return false;
  }

  void mark(const Expr *LHS) {
    const VarDecl *Ptr = nullptr;
    if (const VarDecl *V = assignedVar(LHS, &Ptr))
      Varying.insert(V);
  }

  /// A variable defined from a varying value varies.
  void close(const Stmt *S) {
    if (!S)
      return;
    if (auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D); VD && varies(VD->getInit()))
          Varying.insert(VD);
    } else if (auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
      if (varies(BO->getRHS()) || varies(BO->getLHS()))
        mark(BO->getLHS());
    } else if (auto *CE = dyn_cast<CallExpr>(S)) {
      bool Any = false;
      for (const Expr *A : CE->arguments())
        Any |= varies(A);
      if (Any)
        if (const FunctionDecl *FD = CE->getDirectCallee())
          for (unsigned I = 0; I < CE->getNumArgs() && I < FD->getNumParams(); ++I)
            if (FD->getParamDecl(I)->getType()->isReferenceType())
              mark(CE->getArg(I));
    }
    for (const Stmt *C : S->children())
      close(C);
  }

  bool condition(const Expr *E, SourceLocation Loc) {
    if (E && varies(E))
      return fail(Loc, "a condition reads a value that changes between iterations");
    return true;
  }

  static bool integerLike(QualType T) {
    T = T.getCanonicalType();
    return T->isIntegralOrEnumerationType() || T->isPointerType();
  }

  bool call(const CallExpr *CE) {
    bool Any = false;
    for (const Expr *A : CE->arguments())
      Any |= varies(A);
    if (isa<CXXOperatorCallExpr>(CE) || isa<CUDAKernelCallExpr>(CE)) {
      if (Any)
        return fail(CE->getBeginLoc(), "an operator call takes a value that changes");
      return true;
    }
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
      if (Any || varies(MC->getImplicitObjectArgument()))
        return fail(CE->getBeginLoc(), "a method call takes a value that changes");
      return true;
    }
    if (!Any)
      return true;
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return fail(CE->getBeginLoc(), "an indirect call takes a value that changes");
    std::set<const VarDecl *> Params;
    bool IntegerArg = false;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      if (!varies(CE->getArg(I)))
        continue;
      if (I >= FD->getNumParams())
        return fail(CE->getBeginLoc(), "a variadic call takes a value that changes");
      const ParmVarDecl *P = FD->getParamDecl(I);
      if (P->getType()->isReferenceType())
        return fail(CE->getBeginLoc(), "a call binds a reference to a value that changes");
      IntegerArg |= P->getType()->isIntegralOrEnumerationType();
      Params.insert(P);
    }
    const FunctionDecl *Def = nullptr;
    if (FD->hasBody(Def) && Def && Def->getBody()) {
      if (Depth >= MaxCallDepth || Entered.count(Def))
        return fail(CE->getBeginLoc(), "calls nest too deep to follow");
      // The callee's parameters are this definition's.
      std::set<const VarDecl *> Own;
      for (const VarDecl *P : Params)
        Own.insert(Def->getParamDecl(cast<ParmVarDecl>(P)->getFunctionScopeIndex()));
      Entered.insert(Def);
      AlikeCheck Inner(Ctx, std::move(Own), Depth + 1, Entered);
      const bool Ok = Inner.run(Def->getBody());
      Entered.erase(Def);
      if (!Ok)
        return fail(CE->getBeginLoc(), "in '" + FD->getNameAsString() + "': " + Inner.Why);
      return true;
    }
    // A built-in: a pointer is an address (a load, a store, an atomic);
    // an integer may be anything (min, max, abs, a shuffle).
    if (IntegerArg)
      return fail(CE->getBeginLoc(), "a built-in '" + FD->getNameAsString() +
                                         "' takes an integer that changes");
    return true;
  }

  bool check(const Stmt *S) {
    if (!S)
      return true;
    const SourceLocation Loc = S->getBeginLoc();
    if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
      return fail(Loc, "a goto");
    if (auto *If = dyn_cast<IfStmt>(S)) {
      if (!condition(If->getCond(), Loc))
        return false;
    } else if (auto *W = dyn_cast<WhileStmt>(S)) {
      if (!condition(W->getCond(), Loc))
        return false;
    } else if (auto *D = dyn_cast<DoStmt>(S)) {
      if (!condition(D->getCond(), Loc))
        return false;
    } else if (auto *F = dyn_cast<ForStmt>(S)) {
      if (!condition(F->getCond(), Loc))
        return false;
    } else if (auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      if (!condition(RF->getRangeInit(), Loc))
        return false;
    } else if (auto *SW = dyn_cast<SwitchStmt>(S)) {
      if (!condition(SW->getCond(), Loc))
        return false;
    } else if (auto *CO = dyn_cast<AbstractConditionalOperator>(S)) {
      if (!condition(CO->getCond(), Loc))
        return false;
    } else if (auto *AS = dyn_cast<AsmStmt>(S)) {
      for (const Stmt *C : AS->children())
        if (varies(C))
          return fail(Loc, "inline assembly takes a value that changes");
    } else if (auto *LE = dyn_cast<LambdaExpr>(S)) {
      if (varies(LE->getBody()) || varies(LE))
        return fail(Loc, "a lambda uses a value that changes");
      return true;
    } else if (auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (!binary(BO))
        return false;
    } else if (auto *UO = dyn_cast<UnaryOperator>(S)) {
      if ((UO->getOpcode() == UO_LNot || UO->getOpcode() == UO_Not) &&
          varies(UO->getSubExpr()))
        return fail(Loc, "a logical or bitwise not of a value that changes");
    } else if (auto *CE = dyn_cast<CastExpr>(S)) {
      if (!conversion(CE))
        return false;
    } else if (auto *AE = dyn_cast<ArraySubscriptExpr>(S)) {
      // An element of a declared array may be known (a local array, a
      // table): its value need not follow the subscript.
      if ((varies(AE->getIdx()) || varies(AE->getBase())) && integerLike(AE->getType()))
        if (const VarDecl *V = rootVar(AE->getBase()); V && V->getType()->isArrayType())
          return fail(Loc, "an integer read from an array at a subscript that changes");
    } else if (auto *CE = dyn_cast<CallExpr>(S)) {
      if (!call(CE))
        return false;
    } else if (auto *CC = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *CD = CC->getConstructor();
      bool Any = false;
      for (const Expr *A : CC->arguments())
        Any |= varies(A);
      if (Any && !(CD && (CD->isTrivial() || CD->isCopyOrMoveConstructor())))
        return fail(Loc, "a constructor takes a value that changes");
    } else if (auto *ME = dyn_cast<MemberExpr>(S)) {
      (void)ME;
    }
    for (const Stmt *C : S->children())
      if (!check(C))
        return false;
    return true;
  }

  bool binary(const BinaryOperator *BO) {
    const SourceLocation Loc = BO->getOperatorLoc();
    // A member of the object a method runs on, changed by the loop: not a
    // variable this check sees.
    if (BO->isAssignmentOp())
      if (auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
          ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return fail(Loc, "it changes a member of the object");
    const bool L = varies(BO->getLHS()), Rt = varies(BO->getRHS());
    if (!L && !Rt)
      return true;
    if (BO->isLogicalOp() || BO->isComparisonOp())
      return fail(Loc, "a comparison of a value that changes");
    const QualType T = BO->getType().getCanonicalType();
    if (T->isRealFloatingType() && !BO->isAssignmentOp())
      return true; // floating-point values are not followed
    switch (BO->getOpcode()) {
    case BO_Add:
    case BO_Sub:
    case BO_Comma:
    case BO_Assign:
    case BO_AddAssign:
    case BO_SubAssign:
      return true;
    case BO_Mul:
      if (L && Rt)
        return fail(Loc, "a product of two values that change");
      return true;
    case BO_MulAssign:
    case BO_Shl:
    case BO_ShlAssign:
      if (Rt)
        return fail(Loc, "a product or shift by a value that changes");
      return true;
    default:
      if (BO->getLHS()->getType()->isRealFloatingType())
        return true; // `f /= x`: a float
      return fail(Loc, "'" + BO->getOpcodeStr().str() + "' of a value that changes");
    }
  }

  bool conversion(const CastExpr *CE) {
    if (!varies(CE->getSubExpr()))
      return true;
    const SourceLocation Loc = CE->getBeginLoc();
    switch (CE->getCastKind()) {
    case CK_IntegralToBoolean:
    case CK_PointerToBoolean:
    case CK_FloatingToBoolean:
    case CK_MemberPointerToBoolean:
    case CK_PointerToIntegral:
    case CK_IntegralToPointer:
      return fail(Loc, "a conversion of a value that changes");
    case CK_IntegralCast:
      if (Ctx.getTypeSize(CE->getType()) < 32)
        return fail(Loc, "a narrowing conversion of a value that changes");
      return true;
    default:
      return true;
    }
  }
};

/// Variables declared inside S (its own, not those of lambdas).
void declaredIn(const Stmt *S, std::set<const VarDecl *> &Out) {
  if (!S)
    return;
  if (auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (auto *VD = dyn_cast<VarDecl>(D))
        Out.insert(VD);
  for (const Stmt *C : S->children())
    declaredIn(C, Out);
}

} // namespace

bool iterationsAlike(const Stmt *Body, const Stmt *Inc, const ASTContext &Ctx,
                     std::string *Why) {
  // What changes from one iteration to the next: the variables declared
  // outside the body that the body or the increment changes.
  std::set<const VarDecl *> Mod, Inside, Varying;
  collectModifiedVars(Body, Mod);
  collectModifiedVars(Inc, Mod);
  declaredIn(Body, Inside);
  for (const VarDecl *V : Mod)
    if (!Inside.count(V))
      Varying.insert(V);
  std::set<const FunctionDecl *> Entered;
  AlikeCheck C(Ctx, std::move(Varying), 0, Entered);
  const bool Ok = C.run(Body);
  if (Why)
    *Why = C.Why;
  return Ok;
}

} // namespace coalesce

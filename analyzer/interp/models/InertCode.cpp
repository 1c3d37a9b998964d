//===- InertCode.cpp - Statements that only compute float registers ------===//
//
// The arithmetic of a tiled kernel (`acc[m][n] += a[m] * b[n]` in loops
// unrolled over the register tile) touches no memory the analysis reports and
// changes no value it tracks: floating-point values are not modelled (they are
// opaque), and per-thread arrays whose elements the compiler knows at compile
// time, or that are small, are registers. Interpreting such statements costs
// most of the time on a GEMM's inner loop and can change nothing in the
// output, so a region that is provably inert is skipped:
//
//   - an expression statement assigning a floating-point value to a register
//     array element, a local variable or a field of a local struct, from an
//     expression with no call, no `?:`, no `&&`/`||`, no dereference and no
//     subscript other than of a register array;
//   - a `for` loop whose counters are declared in it and whose body holds
//     only such statements, declarations of its own variables and such loops.
//
// What is checked when the region runs (the rest is syntax, decided once per
// kernel run): each subscripted pointer designates a per-thread array that
// the access rule keeps in registers (Memory.cpp), and, for a loop, every
// variable outside it that it assigns is already opaque, which the loop
// leaves unchanged. The effect of a skipped statement is then exactly what
// running it gives: its float targets become opaque.
//
// The walk's coverage log (the check that no access vanishes) needs every
// statement evaluated once: the first run of a region with coverage on is a
// full one, and the region is skipped once all its statements were visited.
//
// Hooks: skip() skips an inert region whose checks hold now; ran() marks a
// region covered once all of it ran.
//===----------------------------------------------------------------------===//

#include "interp/CompilerModel.h"
#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"

#include <set>

using namespace clang;

namespace coalesce {
namespace interp {

namespace {

class InertChecker {
public:
  InertChecker(ASTContext &Ctx, InertRegion &Out) : Ctx(Ctx), Out(Out) {}

  bool region(const Stmt *S) {
    if (auto *E = dyn_cast<Expr>(S)) {
      Out.Stmts.push_back(S);
      return assignment(E);
    }
    if (auto *For = dyn_cast<ForStmt>(S))
      return loop(For);
    return false;
  }

private:
  ASTContext &Ctx;
  InertRegion &Out;
  /// Variables declared inside the region: whatever it does to them is
  /// invisible after it.
  std::set<const VarDecl *> Scoped;

  static bool isLocalVar(const VarDecl *VD) {
    return VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType();
  }

  bool loop(const ForStmt *For) {
    Out.Stmts.push_back(For);
    if (!For->getInit() || !For->getCond() || !For->getInc() || !For->getBody())
      return false;
    auto *DS = dyn_cast<DeclStmt>(For->getInit());
    if (!DS || !decl(DS, /*IntegersOnly=*/true))
      return false;
    return expr(For->getCond()) && update(For->getInc()) && stmt(For->getBody());
  }

  bool stmt(const Stmt *S) {
    Out.Stmts.push_back(S);
    if (auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        if (!stmt(C))
          return false;
      return true;
    }
    if (isa<NullStmt>(S))
      return true;
    if (auto *DS = dyn_cast<DeclStmt>(S))
      return decl(DS, /*IntegersOnly=*/false);
    if (auto *For = dyn_cast<ForStmt>(S)) {
      Out.Stmts.pop_back();
      return loop(For);
    }
    if (auto *E = dyn_cast<Expr>(S))
      return update(E) || assignment(E);
    return false;
  }

  /// Declarations of scalars the region owns, with side-effect-free inits.
  bool decl(const DeclStmt *DS, bool IntegersOnly) {
    for (const Decl *D : DS->decls()) {
      auto *VD = dyn_cast<VarDecl>(D);
      if (!isLocalVar(VD) || !VD->getInit())
        return false;
      QualType T = VD->getType().getCanonicalType();
      if (!(isIntegral(T) || (!IntegersOnly && T->isRealFloatingType())))
        return false;
      if (!expr(VD->getInit()))
        return false;
      Scoped.insert(VD);
    }
    return true;
  }

  const VarDecl *scopedRef(const Expr *E) const {
    auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return VD && Scoped.count(VD) ? VD : nullptr;
  }

  /// `++i`, `i += 4`, `j = i * 2` on the region's own scalars.
  bool update(const Expr *E) {
    E = E->IgnoreParens();
    if (auto *UO = dyn_cast<UnaryOperator>(E))
      return UO->isIncrementDecrementOp() && scopedRef(UO->getSubExpr());
    if (auto *BO = dyn_cast<BinaryOperator>(E))
      return BO->isAssignmentOp() && scopedRef(BO->getLHS()) && expr(BO->getRHS());
    return false;
  }

  /// A floating-point value assigned to a register element, a local scalar or
  /// a field of a local struct.
  bool assignment(const Expr *E) {
    auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParens());
    if (!BO || !BO->isAssignmentOp())
      return false;
    const Expr *L = BO->getLHS()->IgnoreParens();
    if (!L->getType().getCanonicalType()->isRealFloatingType() || !expr(BO->getRHS()))
      return false;
    if (scopedRef(L))
      return true;
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(L))
      return subscript(AS);
    bool Target = false;
    if (auto *DR = dyn_cast<DeclRefExpr>(L))
      Target = isLocalVar(dyn_cast<VarDecl>(DR->getDecl()));
    else if (auto *ME = dyn_cast<MemberExpr>(L))
      Target = localField(ME);
    if (!Target)
      return false;
    // A plain assignment stores the right-hand side's value: it must be one
    // that is opaque whatever the operands hold.
    if (BO->getOpcode() == BO_Assign && !alwaysOpaque(BO->getRHS()))
      return false;
    Out.Targets.push_back(L);
    return true;
  }

  /// `v.x` on a local struct (not through a pointer).
  bool localField(const MemberExpr *ME) const {
    if (ME->isArrow())
      return false;
    auto *DR = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
    auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return isLocalVar(VD) && VD->getType()->isRecordType();
  }

  /// Expressions whose value the interpreter makes opaque for any operands:
  /// floating-point arithmetic, literals, conversions to floating point and
  /// floating-point elements read from a register array.
  bool alwaysOpaque(const Expr *E) const {
    E = E->IgnoreParens();
    if (!E->getType().getCanonicalType()->isRealFloatingType())
      return false;
    if (isa<FloatingLiteral>(E))
      return true;
    if (auto *BO = dyn_cast<BinaryOperator>(E))
      return BO->isAdditiveOp() || BO->isMultiplicativeOp();
    if (auto *CE = dyn_cast<CastExpr>(E)) {
      if (CE->getCastKind() == CK_IntegralToFloating || CE->getCastKind() == CK_FloatingCast)
        return true;
      if (CE->getCastKind() == CK_LValueToRValue)
        return isa<ArraySubscriptExpr>(CE->getSubExpr()->IgnoreParens());
    }
    return false;
  }

  /// A read with no effect: arithmetic of locals, parameters, constants and
  /// register elements.
  bool expr(const Expr *E) {
    E = E->IgnoreParens();
    if (isa<IntegerLiteral>(E) || isa<FloatingLiteral>(E) || isa<CharacterLiteral>(E) ||
        isa<CXXBoolLiteralExpr>(E) || isa<UnaryExprOrTypeTraitExpr>(E))
      return true;
    if (auto *CE = dyn_cast<ConstantExpr>(E))
      return expr(CE->getSubExpr());
    if (auto *SN = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return expr(SN->getReplacement());
    if (auto *CE = dyn_cast<CastExpr>(E)) {
      switch (CE->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp:
      case CK_IntegralCast:
      case CK_IntegralToFloating:
      case CK_FloatingCast:
      case CK_FloatingToIntegral:
        return expr(CE->getSubExpr());
      default:
        return false;
      }
    }
    if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = DR->getDecl();
      if (isa<EnumConstantDecl>(D) || isa<NonTypeTemplateParmDecl>(D))
        return true;
      auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || VD->getType()->isReferenceType())
        return false;
      if (VD->hasLocalStorage())
        return !VD->getType()->isArrayType();
      // A namespace-scope constant is folded to its value.
      return isIntegral(VD->getType()) && VD->getType().isConstQualified() &&
             VD->isUsableInConstantExpressions(Ctx) && !VD->hasAttr<CUDASharedAttr>() &&
             !VD->hasAttr<CUDAConstantAttr>() && !VD->hasAttr<CUDADeviceAttr>();
    }
    if (auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp() || BO->isLogicalOp() || BO->isCommaOp() ||
          BO->isPtrMemOp())
        return false;
      return expr(BO->getLHS()) && expr(BO->getRHS());
    }
    if (auto *UO = dyn_cast<UnaryOperator>(E)) {
      switch (UO->getOpcode()) {
      case UO_Plus:
      case UO_Minus:
      case UO_Not:
        return expr(UO->getSubExpr());
      default:
        return false;
      }
    }
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return subscript(AS);
    if (auto *ME = dyn_cast<MemberExpr>(E))
      return localField(ME);
    return false;
  }

  /// An element of a per-thread array, through the array or a pointer to it;
  /// whether it is a register is decided when the region runs.
  bool subscript(const ArraySubscriptExpr *AS) {
    if (AS->getType()->isArrayType())
      return false;
    const Expr *B = AS;
    while (auto *A = dyn_cast<ArraySubscriptExpr>(B)) {
      if (!expr(A->getIdx()))
        return false;
      B = A->getBase()->IgnoreParenImpCasts();
    }
    auto *DR = dyn_cast<DeclRefExpr>(B);
    auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!isLocalVar(VD) || Scoped.count(VD))
      return false;
    QualType T = VD->getType().getCanonicalType();
    if (!T->isArrayType() && !T->isPointerType())
      return false;
    Out.Bases.push_back({VD, AS});
    return true;
  }
};

} // namespace

InertRegion inertRegion(ASTContext &Ctx, const Stmt *S) {
  InertRegion R;
  InertChecker C(Ctx, R);
  R.Ok = C.region(S);
  if (!R.Ok) {
    R.Bases.clear();
    R.Targets.clear();
    R.Stmts.clear();
  }
  return R;
}

namespace {
class InertCode : public CompilerModel {
public:
  using CompilerModel::CompilerModel;

  /// Skips S when it is an inert region whose checks hold now.
  bool skip(const Stmt *S) override;
  /// After a full run of S: it may be skipped from now on if all of it ran.
  void ran(const Stmt *S) override;

private:
  /// Whether `VD[...]` at Site is an element of a per-thread register array.
  bool registerElement(const VarDecl *VD, const Expr *Site);
};
} // namespace

bool InertCode::registerElement(const VarDecl *VD, const Expr *Site) {
  const VarDecl *Array = nullptr;
  if (VD->getType()->isArrayType()) {
    Array = VD;
  } else {
    Frame *F = frameOf(VD);
    if (!F)
      return false;
    auto It = F->Vars.find(VD);
    if (It == F->Vars.end() || It->second.K != Value::Ptr)
      return false;
    const MemRegion &M = R.Regions[It->second.Region];
    Array = M.K == MemRegion::Local ? dyn_cast_or_null<VarDecl>(M.Decl) : nullptr;
  }
  return Array && inRegistersByAnyModel(Array, Site);
}

bool InertCode::skip(const Stmt *S) {
  if (!isa<BinaryOperator>(S) && !isa<ForStmt>(S))
    return false;
  auto It = R.Inert.find(S);
  if (It == R.Inert.end())
    It = R.Inert.try_emplace(S, inertRegion(Ctx, S)).first;
  const InertRegion &Plan = It->second;
  if (!Plan.Ok)
    return false;
  for (const auto &[VD, Site] : Plan.Bases)
    if (!registerElement(VD, Site))
      return false;
  const bool IsLoop = isa<ForStmt>(S);
  std::vector<LValue> Targets;
  for (const Expr *T : Plan.Targets) {
    LValue LV = evalLValue(T);
    if (LV.K != LValue::Var)
      return false;
    if (IsLoop) {
      // The loop may run no iteration on some lanes: the variable keeps its
      // value there, which must be the opaque value the others get.
      const Frame &F = frames()[std::min<size_t>(LV.FrameIdx, frames().size() - 1)];
      if (LV.FieldPath.empty()) {
        auto V = F.Vars.find(LV.VarD);
        if (V == F.Vars.end() || V->second.K != Value::Opaque)
          return false;
      } else {
        auto V = F.Fields.find({LV.VarD, LV.FieldPath});
        if (V == F.Fields.end() || V->second.K != Value::Opaque)
          return false;
      }
    }
    Targets.push_back(std::move(LV));
  }
  if (R.Coverage && !dry() && !R.Coverage->InertCovered.count(S))
    return false; // run in full; exec() marks it covered once it all ran
  step();
  if (!IsLoop)
    for (size_t I = 0; I < Targets.size(); ++I)
      store(Targets[I], Value::opaque(), Plan.Targets[I]->getType(), Plan.Targets[I]);
  return true;
}

void InertCode::ran(const Stmt *S) {
  if (!isa<BinaryOperator>(S) && !isa<ForStmt>(S))
    return;
  if (!R.Coverage || dry())
    return;
  auto It = R.Inert.find(S);
  if (It == R.Inert.end() || !It->second.Ok || R.Coverage->InertCovered.count(S))
    return;
  for (const Stmt *X : It->second.Stmts)
    if (!R.Coverage->Visited.count(X))
      return;
  R.Coverage->InertCovered.insert(S);
}

std::unique_ptr<CompilerModel> makeInertCode(WarpInterp &I) {
  return std::make_unique<InertCode>(I);
}

} // namespace interp
} // namespace coalesce

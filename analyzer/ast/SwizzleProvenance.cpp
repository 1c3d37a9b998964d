//===- SwizzleProvenance.cpp - Does an address pass through an XOR? -------===//

#include "ast/SwizzleProvenance.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <set>
#include <vector>

using namespace clang;

namespace coalesce {

namespace {

/// The assignments of each local variable in a function body, and whether
/// its address escapes (`&v`, a non-const reference to it, a lambda's
/// capture by reference).
struct Definitions : RecursiveASTVisitor<Definitions> {
  const VarDecl *Var;
  std::vector<const Expr *> Values;
  bool Escapes = false;

  explicit Definitions(const VarDecl *V) : Var(V) {}

  static const VarDecl *varOf(const Expr *E) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(DR->getDecl());
    return nullptr;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && varOf(BO->getLHS()) == Var) {
      Values.push_back(BO->getRHS());
      if (BO->getOpcode() == BO_XorAssign)
        Values.push_back(BO); // an XOR itself
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf && varOf(UO->getSubExpr()) == Var)
      Escapes = true;
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    // A reference bound to it (`int &r = v;`) may change it.
    if (VD->getType()->isReferenceType() && !VD->getType().getNonReferenceType().isConstQualified())
      if (const Expr *Init = VD->getInit(); Init && varOf(Init) == Var)
        Escapes = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // Passed to a non-const reference parameter.
    const FunctionDecl *FD = CE->getDirectCallee();
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      if (varOf(CE->getArg(I)) != Var)
        continue;
      if (!FD || I >= FD->getNumParams()) {
        if (!FD)
          Escapes = true;
        continue;
      }
      QualType PT = FD->getParamDecl(I)->getType();
      if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
        Escapes = true;
    }
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    for (const LambdaCapture &C : LE->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef && C.getCapturedVar() == Var)
        Escapes = true;
    return true;
  }
};

struct Search {
  ASTContext &Ctx;
  const ArgumentOf &ArgOf;
  unsigned Budget = 400; // expressions visited
  std::set<const void *> Seen;
  bool Xor = false, Unknown = false;
  std::vector<const BinaryOperator *> Xors; // `a ^ b` met
  bool OtherXor = false;                    // `^=`, operator^, a helper's body
  /// A value on the way is chosen: a `?:`, a variable assigned more than
  /// once (which XOR made the address is then not known).
  bool Chosen = false;

  void expr(const Expr *E, const FunctionDecl *F, bool Base) {
    if (!E || Unknown)
      return;
    if (!Budget--) {
      Unknown = true;
      return;
    }
    E = E->IgnoreParens();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_XorAssign) {
        Xor = OtherXor = true;
        return;
      }
      if (BO->getOpcode() == BO_Xor) {
        // Met once per node (a variable read twice is searched once).
        Xor = true;
        if (std::find(Xors.begin(), Xors.end(), BO) == Xors.end())
          Xors.push_back(BO);
        expr(BO->getLHS(), F, false);
        expr(BO->getRHS(), F, false);
        return;
      }
      // Pointer arithmetic keeps the pointer operand the base.
      const bool LP = BO->getLHS()->getType()->isPointerType();
      const bool RP = BO->getRHS()->getType()->isPointerType();
      expr(BO->getLHS(), F, Base && LP);
      expr(BO->getRHS(), F, Base && RP);
      return;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      // A subscript of the accessed array (Base): its index is part of the
      // address. Any other subscript reads a value from memory.
      if (!Base) {
        Unknown = true;
        return;
      }
      expr(AS->getBase(), F, true);
      expr(AS->getIdx(), F, false);
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Deref && !Base) {
        Unknown = true;
        return;
      }
      expr(UO->getSubExpr(), F, Base || UO->getOpcode() == UO_AddrOf ||
                                   UO->getOpcode() == UO_Deref);
      return;
    }
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      // A load of a value (lvalue to rvalue) of an object other than a
      // variable reads memory unless it is a variable (handled below).
      expr(CE->getSubExpr(), F, Base || CE->getType()->isPointerType());
      return;
    }
    if (isa<IntegerLiteral>(E) || isa<CharacterLiteral>(E) || isa<CXXBoolLiteralExpr>(E) ||
        isa<UnaryExprOrTypeTraitExpr>(E) || isa<FloatingLiteral>(E) ||
        isa<SizeOfPackExpr>(E))
      return;
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // threadIdx.x and the other built-in indices; a field of the
      // accessed object or of a kernel parameter.
      if (const auto *OV = dyn_cast<OpaqueValueExpr>(ME->getBase()))
        return expr(OV->getSourceExpr(), F, Base);
      if (const auto *DR = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
          const std::string N = VD->getName().str();
          if (N == "threadIdx" || N == "blockIdx" || N == "blockDim" || N == "gridDim")
            return;
        }
      expr(ME->getBase(), F, Base || ME->isArrow());
      return;
    }
    if (const auto *PE = dyn_cast<PseudoObjectExpr>(E)) {
      // threadIdx.x: a property of the built-in variable.
      if (const auto *MP = dyn_cast<MSPropertyRefExpr>(PE->getSyntacticForm()->IgnoreParens())) {
        const Expr *B = MP->getBaseExpr()->IgnoreParenImpCasts();
        if (const auto *OV = dyn_cast<OpaqueValueExpr>(B))
          B = OV->getSourceExpr()->IgnoreParenImpCasts();
        if (const auto *DR = dyn_cast<DeclRefExpr>(B))
          if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
            const std::string N = VD->getName().str();
            if (N == "threadIdx" || N == "blockIdx" || N == "blockDim" || N == "gridDim")
              return;
          }
      }
      Unknown = true;
      return;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      Chosen = true;
      expr(CO->getCond(), F, false);
      expr(CO->getTrueExpr(), F, Base);
      expr(CO->getFalseExpr(), F, Base);
      return;
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = DR->getDecl();
      if (isa<EnumConstantDecl>(D) || isa<FunctionDecl>(D))
        return;
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD) {
        Unknown = true;
        return;
      }
      // The accessed array or pointer itself, declared shared or global.
      if (Base && (VD->getType()->isArrayType() || VD->hasAttr<CUDASharedAttr>()) &&
          !VD->isLocalVarDeclOrParm())
        return;
      if (Base && VD->getType()->isArrayType())
        return;
      if (const auto *PD = dyn_cast<ParmVarDecl>(VD)) {
        const auto *Owner = dyn_cast<FunctionDecl>(PD->getDeclContext());
        if (Owner && Owner->hasAttr<CUDAGlobalAttr>())
          return; // a kernel parameter: what the host passed
        if (ArgOf && Seen.insert(PD).second) {
          auto [Arg, Caller] = ArgOf(PD);
          if (Arg) {
            expr(Arg, Caller, Base);
            return;
          }
        }
        Unknown = true; // the caller decides
        return;
      }
      if (VD->isConstexpr() || (VD->getType().isConstQualified() && !VD->isLocalVarDecl() &&
                                VD->getInit() && VD->getType()->isIntegralOrEnumerationType())) {
        expr(VD->getInit(), F, Base);
        return;
      }
      if (!VD->isLocalVarDecl() || !F || !F->getBody()) {
        Unknown = true;
        return;
      }
      if (!Seen.insert(VD).second)
        return;
      Definitions Defs(VD);
      Defs.TraverseStmt(F->getBody());
      if (Defs.Escapes) {
        Unknown = true;
        return;
      }
      if (Defs.Values.size() + (VD->getInit() ? 1 : 0) > 1)
        Chosen = true;
      if (VD->getInit())
        expr(VD->getInit(), F, Base);
      for (const Expr *V : Defs.Values)
        expr(V, F, Base);
      return;
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      // Built-ins and toolkit functions of a value (min, __cvta_generic_to_shared)
      // compute without XOR; the project's own helpers are searched.
      for (const Expr *A : CE->arguments())
        expr(A, F, Base || A->getType()->isPointerType());
      if (!FD) {
        Unknown = true;
        return;
      }
      if (Ctx.getSourceManager().isInSystemHeader(FD->getLocation()) || FD->getBuiltinID())
        return;
      const FunctionDecl *Def = FD->getDefinition();
      if (!Def || !Def->getBody()) {
        Unknown = true;
        return;
      }
      if (!Seen.insert(Def).second)
        return;
      body(Def);
      return;
    }
    if (isa<CXXDefaultArgExpr>(E) || isa<CXXDefaultInitExpr>(E))
      return;
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return expr(MT->getSubExpr(), F, Base);
    if (const auto *EC = dyn_cast<ExprWithCleanups>(E))
      return expr(EC->getSubExpr(), F, Base);
    if (const auto *CE = dyn_cast<ConstantExpr>(E))
      return expr(CE->getSubExpr(), F, Base);
    Unknown = true;
  }

  /// A helper's body: any XOR in it counts (its parameters are the
  /// arguments, searched at the call).
  void body(const FunctionDecl *FD) {
    struct XorFinder : RecursiveASTVisitor<XorFinder> {
      bool Found = false;
      bool VisitBinaryOperator(BinaryOperator *BO) {
        if (BO->getOpcode() == BO_Xor || BO->getOpcode() == BO_XorAssign)
          Found = true;
        return !Found;
      }
      bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
        if (OC->getOperator() == OO_Caret || OC->getOperator() == OO_CaretEqual)
          Found = true;
        return !Found;
      }
    } X;
    X.TraverseStmt(FD->getBody());
    if (X.Found)
      Xor = OtherXor = true;
  }
};

} // namespace

AddressXors addressXors(ASTContext &Ctx, const Expr *Site, const FunctionDecl *Where,
                        const ArgumentOf &ArgOf) {
  Search S{Ctx, ArgOf};
  S.expr(Site, Where, true);
  AddressXors Out;
  Out.P = S.Xor       ? XorProvenance::HasXor
          : S.Unknown ? XorProvenance::Unknown
                      : XorProvenance::NoXor;
  Out.Xors = std::move(S.Xors);
  Out.Others = S.OtherXor;
  Out.Complete = !S.Unknown && !S.Chosen;
  return Out;
}

XorProvenance addressXorProvenance(ASTContext &Ctx, const Expr *Site, const FunctionDecl *Where,
                                   const ArgumentOf &ArgOf) {
  return addressXors(Ctx, Site, Where, ArgOf).P;
}

} // namespace coalesce

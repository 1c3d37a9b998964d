//===- HostExprs.cpp - Host interpreter: expressions and lvalues -----------===//

#include "launch/HostInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <cmath>

using namespace clang;

namespace coalesce {
namespace host {

namespace {

/// Whether a value read as type T can be what the cell holds (a cell read
/// through a reinterpreting cast is not).
bool fitsType(const HVal &V, QualType T) {
  if (T.isNull() || V.K == HVal::Unknown)
    return true;
  T = T.getCanonicalType();
  if (T->isIntegralOrEnumerationType())
    return V.K == HVal::Int || V.K == HVal::Sym;
  if (T->isRealFloatingType())
    return V.K == HVal::Float;
  if (T->isPointerType() || T->isNullPtrType())
    return V.K == HVal::Ptr || V.K == HVal::Addr || V.K == HVal::Func;
  if (T->isRecordType() || T->isArrayType())
    return V.K == HVal::Agg || V.K == HVal::Lambda;
  return true;
}

} // namespace

std::optional<bool> HostInterp::truth(const HVal &V) const {
  switch (V.K) {
  case HVal::Int: return V.I != 0;
  case HVal::Float: return V.F != 0;
  case HVal::Addr:
  case HVal::Func: return true;
  default: return std::nullopt;
  }
}

HVal HostInterp::convert(HVal V, QualType From, QualType To) {
  (void)From;
  if (To.isNull())
    return V;
  To = To.getCanonicalType();
  if (To->isIntegralOrEnumerationType()) {
    if (V.K == HVal::Ptr && To->isBooleanType())
      return HVal::unknown(V.Why);
    return toInt(V, intType(To));
  }
  if (To->isRealFloatingType()) {
    const uint64_t Bits = Ctx.getTypeSize(To);
    if (Bits != 32 && Bits != 64)
      return HVal::unknown(V.Why); // long double: not computed
    return toFloat(V, Bits == 32);
  }
  if (To->isPointerType() || To->isNullPtrType()) {
    if (V.K == HVal::Int)
      return V.I == 0 ? HVal::pointer(0) : HVal::unknown(V.Why);
    if (V.K == HVal::Ptr || V.K == HVal::Addr || V.K == HVal::Func)
      return V;
    return HVal::unknown(V.Why);
  }
  return V;
}

HVal HostInterp::arith(BinaryOperatorKind Op, const HVal &L, const HVal &R, QualType OperandType,
                       QualType ResultType, WhyId W) {
  QualType T = OperandType.getCanonicalType();
  if (T->isRealFloatingType()) {
    const uint64_t Bits = Ctx.getTypeSize(T);
    if (Bits != 32 && Bits != 64)
      return HVal::unknown(W);
    return floatBinary(Op, L, R, Bits == 32, W);
  }
  if (T->isIntegralOrEnumerationType()) {
    IntType Result = ResultType->isIntegralOrEnumerationType() ? intType(ResultType) : IntType();
    return intBinary(Op, L, R, intType(T), Result, W);
  }
  return HVal::unknown(W);
}

HVal HostInterp::pointerAdd(const HVal &P, const HVal &N, QualType Pointee, bool Subtract) {
  if (N.K != HVal::Int)
    return HVal::unknown(N.Why ? N.Why : P.Why);
  const Wide K = Subtract ? -N.I : N.I;
  if (P.K == HVal::Ptr) {
    Pointee = Pointee.getCanonicalType();
    Wide Size = 1; // void *: GNU arithmetic, bytes
    if (!Pointee->isVoidType()) {
      if (Pointee->isIncompleteType() || Pointee->isFunctionType())
        return HVal::unknown(P.Why);
      Size = Ctx.getTypeSizeInChars(Pointee).getQuantity();
    }
    return HVal::pointer(P.I + K * Size);
  }
  if (P.K == HVal::Addr) {
    if (K == 0)
      return P;
    if (P.A.Path.empty() || !P.A.Path.back().Elem)
      return HVal::unknown(P.Why);
    HVal R = P;
    const Wide Index = Wide(P.A.Path.back().Index) + K;
    if (Index < 0 || Index > P.A.Path.back().Count)
      return HVal::unknown(P.Why);
    R.A.Path.back().Index = static_cast<uint32_t>(Index);
    return R;
  }
  return HVal::unknown(P.Why);
}

HVal HostInterp::eval(const Expr *E, State &St) {
  if (!E || !St.Live)
    return HVal::unknown();
  step();
  switch (E->getStmtClass()) {
  case Stmt::IntegerLiteralClass: {
    const llvm::APInt &V = cast<IntegerLiteral>(E)->getValue();
    if (V.getBitWidth() > 64)
      return HVal::unknown();
    return HVal::integer(E->getType()->isUnsignedIntegerType() ? Wide(V.getZExtValue())
                                                               : Wide(V.getSExtValue()));
  }
  case Stmt::CharacterLiteralClass:
    return HVal::integer(cast<CharacterLiteral>(E)->getValue());
  case Stmt::CXXBoolLiteralExprClass:
    return HVal::integer(cast<CXXBoolLiteralExpr>(E)->getValue());
  case Stmt::FloatingLiteralClass:
    return HVal::floating(cast<FloatingLiteral>(E)->getValue().convertToDouble());
  case Stmt::CXXNullPtrLiteralExprClass:
  case Stmt::GNUNullExprClass:
    return HVal::pointer(0);
  case Stmt::ParenExprClass:
    return eval(cast<ParenExpr>(E)->getSubExpr(), St);
  case Stmt::ConstantExprClass: {
    const auto *CE = cast<ConstantExpr>(E);
    if (CE->hasAPValueResult())
      return fromAPValue(CE->getAPValueResult(), CE->getType());
    return eval(CE->getSubExpr(), St);
  }
  case Stmt::ExprWithCleanupsClass:
    return eval(cast<ExprWithCleanups>(E)->getSubExpr(), St);
  case Stmt::MaterializeTemporaryExprClass:
    return eval(cast<MaterializeTemporaryExpr>(E)->getSubExpr(), St);
  case Stmt::CXXBindTemporaryExprClass:
    return eval(cast<CXXBindTemporaryExpr>(E)->getSubExpr(), St);
  case Stmt::CXXDefaultArgExprClass:
    return eval(cast<CXXDefaultArgExpr>(E)->getExpr(), St);
  case Stmt::CXXDefaultInitExprClass:
    return eval(cast<CXXDefaultInitExpr>(E)->getExpr(), St);
  case Stmt::SubstNonTypeTemplateParmExprClass:
    return eval(cast<SubstNonTypeTemplateParmExpr>(E)->getReplacement(), St);
  case Stmt::OpaqueValueExprClass:
    return eval(cast<OpaqueValueExpr>(E)->getSourceExpr(), St);
  case Stmt::DeclRefExprClass: {
    const ValueDecl *D = cast<DeclRefExpr>(E)->getDecl();
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
      const llvm::APSInt &V = EC->getInitVal();
      return HVal::integer(V.isSigned() ? Wide(V.getSExtValue()) : Wide(V.getZExtValue()));
    }
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      return HVal::function(FD);
    return readLValue(lvalue(E, St), St, E->getType(), E);
  }
  case Stmt::ImplicitCastExprClass:
  case Stmt::CStyleCastExprClass:
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXFunctionalCastExprClass:
  case Stmt::CXXReinterpretCastExprClass:
  case Stmt::CXXConstCastExprClass:
  case Stmt::BuiltinBitCastExprClass:
    return evalCast(cast<CastExpr>(E), St);
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass:
    return evalBinary(cast<BinaryOperator>(E), St);
  case Stmt::UnaryOperatorClass:
    return evalUnary(cast<UnaryOperator>(E), St);
  case Stmt::ConditionalOperatorClass:
  case Stmt::BinaryConditionalOperatorClass:
    return evalConditional(cast<AbstractConditionalOperator>(E), St);
  case Stmt::CallExprClass:
  case Stmt::CXXMemberCallExprClass:
  case Stmt::CXXOperatorCallExprClass:
  case Stmt::CUDAKernelCallExprClass:
    return evalCall(cast<CallExpr>(E), St);
  case Stmt::CXXConstructExprClass:
  case Stmt::CXXTemporaryObjectExprClass:
    return evalConstruct(cast<CXXConstructExpr>(E), St);
  case Stmt::InitListExprClass:
    return evalInitList(cast<InitListExpr>(E), St);
  case Stmt::ImplicitValueInitExprClass:
  case Stmt::CXXScalarValueInitExprClass:
    return zeroOf(E->getType());
  case Stmt::LambdaExprClass:
    return evalLambda(cast<LambdaExpr>(E), St);
  case Stmt::CXXThisExprClass:
    if (!Frames.empty() && Frames.back().This)
      return HVal::address(*Frames.back().This);
    return HVal::unknown();
  case Stmt::MemberExprClass:
  case Stmt::ArraySubscriptExprClass:
  case Stmt::CompoundLiteralExprClass:
    if (E->isPRValue() && isa<MemberExpr>(E)) {
      // A member of a struct value (f().x).
      const auto *ME = cast<MemberExpr>(E);
      HVal B = resolve(eval(ME->getBase(), St), St.Bound);
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (FD && B.K == HVal::Agg && FD->getFieldIndex() < B.Elems.size())
        return B.Elems[FD->getFieldIndex()];
      return HVal::unknown(B.Why);
    }
    return readLValue(lvalue(E, St), St, E->getType(), E);
  case Stmt::UnaryExprOrTypeTraitExprClass:
  case Stmt::OffsetOfExprClass:
  case Stmt::SizeOfPackExprClass:
  case Stmt::TypeTraitExprClass:
  case Stmt::CXXNoexceptExprClass: {
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx) && R.Val.isInt())
      return fromAPValue(R.Val, E->getType());
    return HVal::unknown();
  }
  case Stmt::CXXNewExprClass: {
    const auto *NE = cast<CXXNewExpr>(E);
    for (const Stmt *C : NE->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C))
        (void)eval(CE, St);
    return HVal::pointer(0); // the start of an allocation
  }
  case Stmt::CXXThrowExprClass:
    (void)eval(cast<CXXThrowExpr>(E)->getSubExpr(), St);
    St.Live = false;
    return HVal::unknown();
  case Stmt::StringLiteralClass:
  case Stmt::PredefinedExprClass:
    return HVal::unknown();
  default: {
    // Not followed: its parts still run (calls, launches), and what it
    // changes becomes unknown.
    for (const Stmt *C : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C))
        (void)eval(CE, St);
    const WhyId W = whyAt(ReasonKind::HostExpression, E);
    havocStmt(E, St, W);
    return HVal::unknown(W);
  }
  }
}

HVal HostInterp::evalCast(const CastExpr *E, State &St) {
  const Expr *Sub = E->getSubExpr();
  switch (E->getCastKind()) {
  case CK_LValueToRValue: {
    HVal V = readLValue(lvalue(Sub, St), St, E->getType(), Sub);
    // A stated size held in a global holds wherever the code cannot know
    // it: also after a join with a path that did not set it (`Size` parsed
    // from `-s N` in a loop over argv) or a store through a pointer the walk
    // does not track. Locals take it where they are set (a local changed by
    // a loop the walk could not follow stays unknown).
    if (const auto *DR = dyn_cast<DeclRefExpr>(Sub->IgnoreParens()))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && VD->hasGlobalStorage())
        V = withStated(VD, std::move(V), St);
    return V;
  }
  case CK_NoOp:
  case CK_ConstructorConversion:
  case CK_UserDefinedConversion:
  case CK_AtomicToNonAtomic:
  case CK_NonAtomicToAtomic:
  case CK_FunctionToPointerDecay:
  case CK_BitCast:
  case CK_AddressSpaceConversion:
    return eval(Sub, St);
  case CK_ToVoid:
    (void)eval(Sub, St);
    return HVal::unknown();
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_FloatingToIntegral:
  case CK_FloatingToBoolean:
  case CK_IntegralToFloating:
  case CK_FloatingCast:
  case CK_PointerToBoolean:
  case CK_BooleanToSignedIntegral: {
    HVal V = resolve(eval(Sub, St), St.Bound);
    if (E->getCastKind() == CK_BooleanToSignedIntegral && V.K == HVal::Int)
      V.I = V.I ? -1 : 0;
    return convert(V, Sub->getType(), E->getType());
  }
  case CK_NullToPointer:
    (void)eval(Sub, St);
    return HVal::pointer(0);
  case CK_IntegralToPointer: {
    HVal V = resolve(eval(Sub, St), St.Bound);
    return V.K == HVal::Int && V.I == 0 ? HVal::pointer(0) : HVal::unknown(V.Why);
  }
  case CK_ArrayToPointerDecay: {
    LValue LV = lvalue(Sub, St);
    const size_t N = aggregateSize(Sub->getType());
    if (!LV.L)
      return HVal::unknown(whyAt(ReasonKind::HostArray, Sub));
    if (!N) {
      // Too large to track element by element, but still one variable: a
      // pointer into it changes only it (pointerAdd() keeps no element).
      markAddrTaken(St, *LV.L);
      return HVal::address(*LV.L);
    }
    Loc L = *LV.L;
    L.Path.push_back(PathStep{0, static_cast<uint32_t>(N), true});
    markAddrTaken(St, L);
    return HVal::address(std::move(L));
  }
  default:
    (void)eval(Sub, St);
    return HVal::unknown(whyAt(ReasonKind::HostConversion, E));
  }
}

HVal HostInterp::evalBinary(const BinaryOperator *E, State &St) {
  const BinaryOperatorKind Op = E->getOpcode();
  const Expr *L = E->getLHS(), *R = E->getRHS();
  if (Op == BO_Comma) {
    (void)eval(L, St);
    return eval(R, St);
  }
  if (Op == BO_Assign) {
    HVal V = eval(R, St); // C++17: the right side first
    LValue LV = lvalue(L, St);
    V = convert(resolve(V, St.Bound), R->getType(), L->getType());
    if (const auto *DR = dyn_cast<DeclRefExpr>(L->IgnoreParenImpCasts()))
      V = withStated(DR->getDecl(), std::move(V), St);
    assign(LV, V, St, E);
    return V;
  }
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
    HVal RV = resolve(eval(R, St), St.Bound);
    LValue LV = lvalue(L, St);
    HVal Cur = resolve(readLValue(LV, St, L->getType(), L), St.Bound);
    const BinaryOperatorKind Plain = BinaryOperator::getOpForCompoundAssignment(Op);
    HVal New;
    if (L->getType()->isPointerType()) {
      New = pointerAdd(Cur, RV, L->getType()->getPointeeType(), Plain == BO_Sub);
    } else {
      QualType CT = CA->getComputationLHSType();
      HVal A = convert(Cur, L->getType(), CT);
      New = arith(Plain, A, RV, CT, CA->getComputationResultType(),
                  whyAt(ReasonKind::HostArithmetic, E));
      New = convert(New, CA->getComputationResultType(), L->getType());
    }
    assign(LV, New, St, E);
    return New;
  }
  if (Op == BO_LAnd || Op == BO_LOr) {
    HVal A = resolve(eval(L, St), St.Bound);
    std::optional<bool> TA = truth(A);
    if (TA && *TA == (Op == BO_LOr))
      return HVal::integer(*TA);
    if (TA) {
      std::optional<bool> TB = truth(resolve(eval(R, St), St.Bound));
      return TB ? HVal::integer(*TB) : HVal::unknown(A.Why);
    }
    // The right side runs on one path only.
    State Other = St;
    refine(St, L, Op == BO_LAnd);
    HVal B = resolve(eval(R, St), St.Bound);
    refine(Other, L, Op == BO_LOr);
    St = join(St, Other, whyAt(ReasonKind::HostPathsDiffer, E));
    std::optional<bool> TB = truth(B);
    if (TB && *TB == (Op == BO_LOr))
      return HVal::unknown(A.Why); // decided by the unknown side
    return HVal::unknown(A.Why ? A.Why : B.Why);
  }
  HVal A = resolve(eval(L, St), St.Bound);
  HVal B = resolve(eval(R, St), St.Bound);
  const bool PL = L->getType()->isPointerType(), PR = R->getType()->isPointerType();
  if ((Op == BO_Add || Op == BO_Sub) && (PL != PR)) {
    if (PL)
      return pointerAdd(A, B, L->getType()->getPointeeType(), Op == BO_Sub);
    return pointerAdd(B, A, R->getType()->getPointeeType(), false);
  }
  if (PL || PR) {
    if (Op == BO_Sub && A.K == HVal::Addr && B.K == HVal::Addr && !A.A.Path.empty() &&
        !B.A.Path.empty() && A.A.Path.back().Elem && B.A.Path.back().Elem) {
      Loc X = A.A, Y = B.A;
      const Wide D = Wide(X.Path.back().Index) - Wide(Y.Path.back().Index);
      X.Path.back().Index = Y.Path.back().Index = 0;
      if (X == Y)
        return HVal::integer(D);
    }
    if ((Op == BO_EQ || Op == BO_NE) && (A.K == HVal::Addr || A.K == HVal::Func) &&
        B.K == HVal::Ptr && B.I == 0 && R->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      return HVal::integer(Op == BO_NE);
    return HVal::unknown(whyAt(ReasonKind::HostPointerComparison, E));
  }
  return arith(Op, A, B, L->getType(), E->getType(),
               whyAt(ReasonKind::HostArithmetic, E));
}

HVal HostInterp::evalUnary(const UnaryOperator *E, State &St) {
  const Expr *Sub = E->getSubExpr();
  switch (E->getOpcode()) {
  case UO_Plus:
    return eval(Sub, St);
  case UO_Minus: {
    HVal V = resolve(eval(Sub, St), St.Bound);
    if (V.K == HVal::Float)
      return HVal::floating(-V.F);
    return arith(BO_Sub, HVal::integer(0), V, E->getType(), E->getType(),
                 whyAt(ReasonKind::HostArithmetic, E));
  }
  case UO_Not: {
    HVal V = resolve(eval(Sub, St), St.Bound);
    if (V.K != HVal::Int || !E->getType()->isIntegralOrEnumerationType())
      return HVal::unknown(V.Why);
    return HVal::integer(intType(E->getType()).wrap(~V.I));
  }
  case UO_LNot: {
    std::optional<bool> T = truth(resolve(eval(Sub, St), St.Bound));
    return T ? HVal::integer(!*T) : HVal::unknown();
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    LValue LV = lvalue(Sub, St);
    HVal Cur = resolve(readLValue(LV, St, Sub->getType(), Sub), St.Bound);
    const bool Inc = E->isIncrementOp();
    HVal New;
    QualType T = Sub->getType();
    if (T->isPointerType())
      New = pointerAdd(Cur, HVal::integer(1), T->getPointeeType(), !Inc);
    else if (T->isRealFloatingType())
      New = Cur.K == HVal::Float ? convert(HVal::floating(Cur.F + (Inc ? 1 : -1)), T, T)
                                 : HVal::unknown(Cur.Why);
    else
      New = arith(Inc ? BO_Add : BO_Sub, Cur, HVal::integer(1), T, T,
                  whyAt(ReasonKind::HostArithmetic, E));
    assign(LV, New, St, E);
    return E->isPrefix() ? New : Cur;
  }
  case UO_AddrOf: {
    if (isa_and_nonnull<FunctionDecl>(Sub->getReferencedDeclOfCallee()) &&
        Sub->getType()->isFunctionType())
      return eval(Sub, St);
    LValue LV = lvalue(Sub, St);
    if (LV.L) {
      markAddrTaken(St, *LV.L);
      return HVal::address(*LV.L);
    }
    if (LV.Target.K == HVal::Ptr)
      return LV.Target;
    return HVal::unknown(LV.Target.Why);
  }
  case UO_Deref:
    return readLValue(lvalue(E, St), St, E->getType(), E);
  case UO_Extension:
    return eval(Sub, St);
  default:
    (void)eval(Sub, St);
    return HVal::unknown(whyAt(ReasonKind::HostOperator, E));
  }
}

HVal HostInterp::evalConditional(const AbstractConditionalOperator *E, State &St) {
  HVal C = resolve(eval(E->getCond(), St), St.Bound);
  std::optional<bool> T = truth(C);
  if (T)
    return eval(*T ? E->getTrueExpr() : E->getFalseExpr(), St);
  if (std::optional<bool> Side = forcedSide(E)) {
    refine(St, E->getCond(), *Side);
    return eval(*Side ? E->getTrueExpr() : E->getFalseExpr(), St);
  }
  State Other = St;
  refine(St, E->getCond(), true);
  refine(Other, E->getCond(), false);
  HVal A = resolve(eval(E->getTrueExpr(), St), St.Bound);
  HVal B = resolve(eval(E->getFalseExpr(), Other), Other.Bound);
  const WhyId W = whyAt(ReasonKind::HostConditionalDiffers, E);
  BranchOf.emplace(W, E);
  const bool LiveA = St.Live, LiveB = Other.Live;
  St = join(St, Other, W);
  if (!LiveA)
    return B;
  if (!LiveB)
    return A;
  return coalesce::host::join(A, B, W);
}

HVal HostInterp::evalInitList(const InitListExpr *E, State &St) {
  if (E->isTransparent())
    return eval(E->getInit(0), St);
  QualType T = E->getType().getCanonicalType();
  if (T->isScalarType()) {
    if (E->getNumInits() == 0)
      return zeroOf(T);
    return convert(eval(E->getInit(0), St), E->getInit(0)->getType(), T);
  }
  const size_t N = aggregateSize(T);
  const auto *RD = T->getAsRecordDecl();
  if (!N || (RD && RD->isUnion())) {
    for (const Expr *I : E->inits())
      (void)eval(I, St);
    return HVal::unknown(whyAt(ReasonKind::HostAggregate, E));
  }
  HVal R = HVal::aggregate(N);
  if (RD) {
    size_t I = 0;
    for (const FieldDecl *FD : RD->getDefinition()->fields()) {
      if (I < E->getNumInits())
        R.Elems[I] = convert(eval(E->getInit(I), St), E->getInit(I)->getType(), FD->getType());
      else
        R.Elems[I] = zeroOf(FD->getType());
      ++I;
    }
    return R;
  }
  const auto *AT = Ctx.getAsConstantArrayType(T);
  QualType ET = AT->getElementType();
  for (size_t I = 0; I < N; ++I) {
    if (I < E->getNumInits())
      R.Elems[I] = convert(eval(E->getInit(I), St), E->getInit(I)->getType(), ET);
    else if (const Expr *F = E->getArrayFiller())
      R.Elems[I] = eval(F, St);
    else
      R.Elems[I] = zeroOf(ET);
  }
  return R;
}

HVal HostInterp::evalLambda(const LambdaExpr *E, State &St) {
  HVal V;
  V.K = HVal::Lambda;
  V.Decl = E;
  const Loc None{~0u, nullptr, {}};
  auto Init = E->capture_init_begin();
  for (const LambdaCapture &C : E->captures()) {
    const Expr *CI = Init != E->capture_init_end() ? *Init : nullptr;
    ++Init;
    HVal Copy;
    Loc Ref = None;
    if (C.capturesThis()) {
      if (!Frames.empty() && Frames.back().This) {
        if (C.getCaptureKind() == LCK_StarThis)
          Copy = read(St, *Frames.back().This, QualType());
        else
          Ref = *Frames.back().This;
      }
    } else if (C.capturesVariable()) {
      if (C.getCaptureKind() == LCK_ByRef) {
        LValue LV = CI ? lvalue(CI, St) : LValue{};
        if (!LV.L)
          if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
            LV.L = varLoc(St, VD);
        if (LV.L) {
          Ref = *LV.L;
          markAddrTaken(St, Ref);
        }
      } else if (CI) {
        Copy = resolve(eval(CI, St), St.Bound);
      }
    }
    V.Elems.push_back(std::move(Copy));
    V.Refs.push_back(std::move(Ref));
  }
  return V;
}

HostInterp::LValue HostInterp::lvalue(const Expr *E, State &St) {
  LValue R;
  if (!E || !St.Live)
    return R;
  step();
  switch (E->getStmtClass()) {
  case Stmt::ParenExprClass:
    return lvalue(cast<ParenExpr>(E)->getSubExpr(), St);
  case Stmt::ImplicitCastExprClass:
  case Stmt::CStyleCastExprClass:
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXConstCastExprClass: {
    const auto *CE = cast<CastExpr>(E);
    if (CE->getCastKind() == CK_NoOp)
      return lvalue(CE->getSubExpr(), St);
    break;
  }
  case Stmt::ExprWithCleanupsClass:
    return lvalue(cast<ExprWithCleanups>(E)->getSubExpr(), St);
  case Stmt::CXXBindTemporaryExprClass:
    return lvalue(cast<CXXBindTemporaryExpr>(E)->getSubExpr(), St);
  case Stmt::CallExprClass:
    if (const auto *CE = cast<CallExpr>(E);
        CE->getNumArgs() == 1 && isStdForwardOrMove(CE->getDirectCallee()))
      return lvalue(CE->getArg(0), St);
    break;
  case Stmt::OpaqueValueExprClass:
    return lvalue(cast<OpaqueValueExpr>(E)->getSourceExpr(), St);
  case Stmt::SubstNonTypeTemplateParmExprClass:
    return lvalue(cast<SubstNonTypeTemplateParmExpr>(E)->getReplacement(), St);
  case Stmt::MaterializeTemporaryExprClass:
  case Stmt::CompoundLiteralExprClass: {
    const Expr *Sub = isa<MaterializeTemporaryExpr>(E)
                          ? cast<MaterializeTemporaryExpr>(E)->getSubExpr()
                          : cast<CompoundLiteralExpr>(E)->getInitializer();
    if (Sub->isGLValue())
      return lvalue(Sub, St);
    HVal V = eval(Sub, St);
    R.L = Loc{allocCell(St, std::move(V)), nullptr, {}};
    return R;
  }
  case Stmt::DeclRefExprClass: {
    const auto *VD = dyn_cast<VarDecl>(cast<DeclRefExpr>(E)->getDecl());
    if (!VD) {
      // A field or method named as a member pointer (&Pair::b), a function,
      // an enumerator: no memory of the host code's (and eval() of it would
      // ask for this lvalue again).
      R.Target = HVal::unknown(whyAt(ReasonKind::HostMemberPointer, E));
      return R;
    }
    if (!Frames.empty() && Frames.back().Volatile.count(VD)) {
      R.Target = HVal::unknown(
          why(ReasonKind::HostChangedWithGoto, {VD->getNameAsString()}));
      return R;
    }
    if (VD->getType()->isReferenceType() && VD->hasGlobalStorage())
      break; // global references: not followed
    R.L = varLoc(St, VD);
    // A constant a lambda uses without capturing it (`const int n = 64;`).
    if (!R.L && VD->isUsableInConstantExpressions(Ctx))
      if (const APValue *V = VD->evaluateValue())
        R.L = Loc{allocCell(St, fromAPValue(*V, VD->getType())), nullptr, {}};
    if (!R.L)
      R.Target = HVal::unknown(why(ReasonKind::HostCallerVariable, {VD->getNameAsString()}));
    return R;
  }
  case Stmt::MemberExprClass: {
    const auto *ME = cast<MemberExpr>(E);
    if (const auto *VD = dyn_cast<VarDecl>(ME->getMemberDecl())) {
      (void)eval(ME->getBase(), St);
      R.L = varLoc(St, VD);
      return R;
    }
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      break;
    std::optional<Loc> Base;
    QualType BT = ME->getBase()->getType();
    if (ME->isArrow()) {
      HVal P = resolve(eval(ME->getBase(), St), St.Bound);
      BT = BT->getPointeeType();
      if (P.K == HVal::Addr)
        Base = P.A;
      else
        R.Target = P;
    } else {
      LValue B = lvalue(ME->getBase(), St);
      Base = B.L;
      R.Target = B.Target;
    }
    if (!Base)
      return R;
    const auto *RD = BT->getAsRecordDecl();
    const size_t N = aggregateSize(BT);
    if (!RD || !N || FD->getParent()->getCanonicalDecl() != RD->getCanonicalDecl()) {
      R.Target = HVal::unknown(whyAt(ReasonKind::HostMember, E));
      return R;
    }
    R.L = *Base;
    R.L->Path.push_back(PathStep{FD->getFieldIndex(), static_cast<uint32_t>(N), false});
    return R;
  }
  case Stmt::ArraySubscriptExprClass: {
    const auto *AS = cast<ArraySubscriptExpr>(E);
    HVal P = resolve(eval(AS->getBase(), St), St.Bound);
    HVal N = resolve(eval(AS->getIdx(), St), St.Bound);
    HVal A = pointerAdd(P, N, AS->getType(), false);
    if (A.K == HVal::Addr) {
      R.L = A.A;
      return R;
    }
    R.Target = A.K == HVal::Ptr ? A : P;
    if (A.K != HVal::Ptr && N.K != HVal::Int && P.K == HVal::Addr)
      R.Target = P; // some element of a tracked array
    return R;
  }
  case Stmt::UnaryOperatorClass: {
    const auto *UO = cast<UnaryOperator>(E);
    if (UO->getOpcode() == UO_Deref) {
      HVal P = resolve(eval(UO->getSubExpr(), St), St.Bound);
      if (P.K == HVal::Addr)
        R.L = P.A;
      else
        R.Target = P;
      return R;
    }
    if (UO->isPrefix() && UO->isIncrementDecrementOp()) {
      (void)eval(E, St);
      return lvalue(UO->getSubExpr(), St);
    }
    break;
  }
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass: {
    const auto *BO = cast<BinaryOperator>(E);
    if (BO->getOpcode() == BO_Comma) {
      (void)eval(BO->getLHS(), St);
      return lvalue(BO->getRHS(), St);
    }
    if (BO->isAssignmentOp()) {
      (void)eval(E, St);
      return lvalue(BO->getLHS(), St);
    }
    break;
  }
  case Stmt::ConditionalOperatorClass: {
    const auto *CO = cast<ConditionalOperator>(E);
    std::optional<bool> T = truth(resolve(eval(CO->getCond(), St), St.Bound));
    if (T)
      return lvalue(*T ? CO->getTrueExpr() : CO->getFalseExpr(), St);
    break;
  }
  default:
    break;
  }
  HVal V = eval(E, St);
  R.Target = HVal::unknown(V.Why ? V.Why : whyAt(ReasonKind::HostMemory, E));
  return R;
}

HVal HostInterp::readLValue(const LValue &LV, State &St, QualType T, const Expr *E) {
  if (!St.Live)
    return HVal::unknown();
  if (!LV.L) {
    if (LV.Target.K == HVal::Unknown && LV.Target.Why)
      return HVal::unknown(LV.Target.Why);
    return HVal::unknown(whyAt(ReasonKind::HostMemory, E));
  }
  HVal V = read(St, *LV.L, T);
  if (!fitsType(V, T))
    return HVal::unknown(whyAt(ReasonKind::HostMemoryOtherType, E));
  return V;
}

void HostInterp::assign(const LValue &LV, HVal V, State &St, const Expr *E) {
  if (!St.Live)
    return;
  if (LV.L) {
    write(St, *LV.L, std::move(V));
    return;
  }
  const WhyId W = whyAt(ReasonKind::HostWriteThroughPointer, E);
  if (LV.Target.K == HVal::Addr)
    havocLoc(St, LV.Target.A, QualType(), W); // some element of a tracked array
  else if (LV.Target.K != HVal::Ptr)
    havocEscaped(St, W); // could be any variable whose address escaped
}

} // namespace host
} // namespace coalesce

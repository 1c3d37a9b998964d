//===- Expressions.cpp - Rvalues: literals, arithmetic, casts, ?: ----------===//
//
// Integers and pointers are per-lane polynomials (model/Poly.h): pointer
// arithmetic scales by the pointee size, division and shifts go through
// model/IntOps.h, which is exact or says why not. Floating-point values are
// opaque: an index computed from one is unknown.
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"
#include "model/MatrixDescriptor.h"

#include "llvm/ADT/Hashing.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecordLayout.h"
#include <algorithm>

using namespace clang;

namespace coalesce {
namespace interp {

std::optional<int64_t> WarpInterp::constantInt(const Expr *E) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult Res;
  if (E->EvaluateAsInt(Res, Ctx, Expr::SE_NoSideEffects) && Res.Val.isInt())
    return Res.Val.getInt().getExtValue();
  return std::nullopt;
}

std::optional<Value> WarpInterp::compileTimeValue(const Expr *E) {
  if (!E || E->isValueDependent() || !isCompileTimeConstant(Ctx, E))
    return std::nullopt;
  const QualType T = E->getType();
  if (isIntegral(T)) {
    // A static member read through an object the evaluator cannot see
    // (`t.ne` with `t` a reference parameter): the member's own value.
    const Expr *S = skipToValue(E);
    const ValueDecl *D = nullptr;
    if (auto *ME = dyn_cast<MemberExpr>(S))
      D = ME->getMemberDecl();
    else if (auto *DR = dyn_cast<DeclRefExpr>(S))
      D = DR->getDecl();
    if (auto *VD = dyn_cast_or_null<VarDecl>(D))
      if (const APValue *AV = VD->evaluateValue(); AV && AV->isInt())
        return Value::constant(AV->getInt().getExtValue());
    if (auto C = constantInt(E))
      return Value::constant(*C);
    return std::nullopt;
  }
  if (T->isPointerType())
    return std::nullopt;
  return Value::opaque();
}

int64_t WarpInterp::fieldOffset(const FieldDecl *FD) {
  const ASTRecordLayout &L = Ctx.getASTRecordLayout(FD->getParent());
  return static_cast<int64_t>(L.getFieldOffset(FD->getFieldIndex()) / 8);
}

Value WarpInterp::eval(const Expr *E) {
  if (!E)
    return Value::opaque();
  step();
  visit(E);
  if (salvageTooDeep())
    return Value::unknown(ReasonKind::BudgetExceeded, {R.Salvage});
  DepthGuard G(*this);
  E = E->IgnoreParens();
  visit(E);

  if (auto *IL = dyn_cast<IntegerLiteral>(E)) {
    // 0xffffffffu is 4294967295, not -1 (a full warp mask).
    const llvm::APInt &V = IL->getValue();
    if (IL->getType()->isUnsignedIntegerType() && V.getActiveBits() < 64)
      return Value::constant(static_cast<int64_t>(V.getZExtValue()));
    return Value::constant(static_cast<int64_t>(V.getSExtValue()));
  }
  if (auto *CL = dyn_cast<CharacterLiteral>(E))
    return Value::constant(CL->getValue());
  if (auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return Value::constant(BL->getValue() ? 1 : 0);
  if (auto *FL = dyn_cast<FloatingLiteral>(E))
    return Value::uniformOpaque(
        llvm::hash_combine(std::string("literal"), FL->getValue().bitcastToAPInt().getZExtValue()));
  if (isa<StringLiteral>(E))
    return Value::opaque();
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return Value::unknown(ReasonKind::NullPointer);
  if (auto *CE = dyn_cast<ConstantExpr>(E)) {
    if (CE->hasAPValueResult() && CE->getAPValueResult().isInt())
      return Value::constant(CE->getAPValueResult().getInt().getExtValue());
    return eval(CE->getSubExpr());
  }
  if (auto *FE = dyn_cast<FullExpr>(E))
    return eval(FE->getSubExpr());
  if (auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(MT->getSubExpr());
  if (auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
    return eval(BT->getSubExpr());
  if (auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return eval(DA->getExpr());
  if (auto *DI = dyn_cast<CXXDefaultInitExpr>(E))
    return eval(DI->getExpr());
  if (auto *ST = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return eval(ST->getReplacement());
  if (auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return OV->getSourceExpr() ? eval(OV->getSourceExpr()) : Value::opaque();
  if (isa<UnaryExprOrTypeTraitExpr>(E)) {
    if (auto C = constantInt(E))
      return Value::constant(*C);
    return Value::unknown(ReasonKind::TypeSizeUnknown);
  }
  if (auto *POE = dyn_cast<PseudoObjectExpr>(E)) {
    if (auto V = builtinVar(POE))
      return *V;
    return POE->getResultExpr() ? eval(POE->getResultExpr()) : Value::opaque();
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DR->getDecl();
    if (auto *EC = dyn_cast<EnumConstantDecl>(D))
      return Value::constant(EC->getInitVal().getExtValue());
    if (auto *BD = dyn_cast<BindingDecl>(D))
      if (const Expr *B = BD->getBinding())
        return eval(B); // the holding variable, or a part of the object
    if (auto *VD = dyn_cast<VarDecl>(D)) {
      if (VD->getName() == "warpSize" && VD->hasGlobalStorage())
        return Value::constant(WarpSize);
      if (Frame *F = frameOf(VD)) {
        auto RI = F->Refs.find(VD);
        if (RI != F->Refs.end())
          return load(RI->second, VD->getType().getNonReferenceType(), E);
        if (VD->getType()->isRecordType())
          return fieldsOf(*F, VD, "");
        return F->Vars[VD];
      }
      if (auto C = constantInt(E))
        return Value::constant(*C);
      if (VD->getType()->isArrayType())
        return Value::opaque();
      // Global memory variables read as values.
      LValue LV = evalLValue(E);
      if (LV.K == LValue::Mem)
        return load(LV, VD->getType(), E);
      return Value::unknown(ReasonKind::VariableUnknown, {VD->getName().str()});
    }
    if (auto C = constantInt(E))
      return Value::constant(*C);
    return Value::opaque();
  }
  if (auto *CE = dyn_cast<CastExpr>(E))
    return evalCast(CE);
  if (auto *BO = dyn_cast<BinaryOperator>(E))
    return evalBinary(BO);
  if (auto *UO = dyn_cast<UnaryOperator>(E))
    return evalUnary(UO);
  if (auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return evalConditional(CO);
  if (auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  if (auto *ME = dyn_cast<MemberExpr>(E)) {
    if (std::optional<Value> C = compileTimeValue(ME))
      return *C;
    // A field of a struct value that is not in memory (`f().x`).
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (!ME->isArrow() && (!Base->isGLValue() || isa<MaterializeTemporaryExpr>(Base)) &&
        Base->getType()->isRecordType() && ME->getMemberDecl()->getIdentifier()) {
      Value B = structValue(Base);
      if (B.Fields) {
        const std::string Name = "." + ME->getMemberDecl()->getName().str();
        auto It = B.Fields->find(Name);
        if (It != B.Fields->end())
          return It->second;
        FieldValues Sub;
        for (const auto &[Path, V] : *B.Fields)
          if (Path.compare(0, Name.size() + 1, Name + ".") == 0)
            Sub.emplace(Path.substr(Name.size()), V);
        if (!Sub.empty())
          return Value::aggregate(std::move(Sub));
      }
      if (isIntegral(ME->getType()) || ME->getType()->isPointerType())
        return Value::unknown(ReasonKind::ValueNotTracked, {text(ME)});
      return Value::opaque();
    }
    // Reading a member as an rvalue (a field of a by-value parameter).
    LValue LV = memberLValue(ME);
    return load(LV, ME->getType(), E);
  }
  if (auto *CE = dyn_cast<CXXConstructExpr>(E))
    return construct(CE);
  if (auto *IL = dyn_cast<InitListExpr>(E)) {
    // A struct's fields in declaration order (`uint2 r = {q, m};`).
    const RecordDecl *RD = IL->getType()->getAsRecordDecl();
    if (RD && !RD->isUnion() && !IL->isTransparent()) {
      const auto *CXX = dyn_cast<CXXRecordDecl>(RD);
      FieldValues Out;
      unsigned I = 0;
      // An aggregate with bases (C++17: `gptr<P>{p}` for `struct gptr :
      // adaptor<P>`): the list gives the bases first, in declaration order.
      // A base's fields are named as the object's own (as for a
      // constructor's base initializer, Calls.cpp initializeMembers).
      for (const unsigned Bases = CXX ? CXX->getNumBases() : 0;
           I < Bases && I < IL->getNumInits(); ++I) {
        const Value V = structValue(IL->getInit(I));
        if (V.Fields)
          for (const auto &[Path, FV] : *V.Fields)
            Out.emplace(Path, FV);
      }
      for (const FieldDecl *FD : RD->fields()) {
        if (I >= IL->getNumInits())
          break;
        const Expr *Init = IL->getInit(I++);
        Value V = Init->getType()->isRecordType() || Init->getType()->isArrayType()
                      ? structValue(Init)
                      : eval(Init);
        if (!FD->getIdentifier())
          continue;
        const std::string Name = "." + FD->getName().str();
        if (V.K == Value::Int || V.K == Value::Ptr)
          Out.emplace(Name, V);
        else if (V.Fields)
          for (const auto &[Path, FV] : *V.Fields)
            Out.emplace(Name + Path, FV);
      }
      for (; I < IL->getNumInits(); ++I)
        eval(IL->getInit(I));
      return Value::aggregate(std::move(Out));
    }
    if (const ConstantArrayType *AT = Ctx.getAsConstantArrayType(IL->getType());
        AT && !IL->isTransparent()) {
      // An array's elements in order, the rest from the filler (`= {}`).
      const QualType ET = AT->getElementType();
      const bool Tracked = isIntegral(ET) || ET->isPointerType() || ET->isRecordType() ||
                           ET->isArrayType();
      FieldValues Out;
      const uint64_t N = std::min<uint64_t>(AT->getZExtSize(), MaxTrackedElements);
      std::optional<Value> Filler;
      for (uint64_t I = 0; I < N; ++I) {
        const Expr *Init = I < IL->getNumInits() ? IL->getInit(I) : IL->getArrayFiller();
        if (!Init)
          break;
        Value V;
        if (I >= IL->getNumInits()) {
          if (!Tracked)
            break;
          if (!Filler)
            Filler = ET->isRecordType() || ET->isArrayType() ? structValue(Init) : eval(Init);
          V = *Filler;
        } else {
          V = ET->isRecordType() || ET->isArrayType() ? structValue(Init) : eval(Init);
        }
        const std::string Name = "[" + std::to_string(I) + "]";
        if (V.K == Value::Int || V.K == Value::Ptr)
          Out.emplace(Name, V);
        else if (V.Fields)
          for (const auto &[Path, FV] : *V.Fields)
            Out.emplace(Name + Path, FV);
      }
      for (uint64_t I = N; I < IL->getNumInits(); ++I)
        eval(IL->getInit(I));
      return Value::aggregate(std::move(Out));
    }
    // A scalar's braces (`first_{first}`, `int x{y}`): the value inside.
    if (IL->getNumInits() == 1 && (isIntegral(IL->getType()) || IL->getType()->isPointerType()))
      return eval(IL->getInit(0));
    for (const Expr *I : IL->inits())
      eval(I);
    return Value::opaque();
  }
  if (isa<ArraySubscriptExpr>(E)) {
    LValue LV = evalLValue(E);
    return load(LV, E->getType(), E);
  }
  if (isa<CXXThisExpr>(E)) {
    const Frame &F = frame();
    if (F.This)
      return addressOf(*F.This);
    return Value::unknown(ReasonKind::UntrackedThis);
  }
  if (isa<ImplicitValueInitExpr>(E) && !E->getType()->isPointerType())
    return zeroValue(E->getType());
  if (isa<LambdaExpr>(E) || isa<CXXScalarValueInitExpr>(E)) {
    if (isa<CXXScalarValueInitExpr>(E))
      return Value::constant(0);
    return Value::opaque();
  }
  // Anything else: evaluate its children for their memory accesses.
  evalChildren(E);
  if (isIntegral(E->getType()) || E->getType()->isPointerType())
    return Value::unknown(ReasonKind::UnsupportedExpression, {E->getStmtClassName()});
  return Value::opaque();
}

Value WarpInterp::evalCast(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  switch (CE->getCastKind()) {
  case CK_LValueToRValue: {
    // `c ? x : y` over lvalues: each side is read under its own lanes.
    if (auto *CO = dyn_cast<AbstractConditionalOperator>(Sub->IgnoreParens()))
      return evalConditional(CO, /*ToRValue=*/true);
    // A constant (constexpr, static const with a constant initializer, a
    // static member of either read through an object, a field of a
    // constexpr object) is a value, not memory.
    if (std::optional<Value> C = compileTimeValue(Sub))
      return *C;
    // A field of a temporary struct (`f().x`): the struct's value.
    if (auto *ME = dyn_cast<MemberExpr>(Sub->IgnoreParens()); ME && !ME->isArrow())
      if (const Expr *B = ME->getBase()->IgnoreParenImpCasts();
          !B->isGLValue() || isa<MaterializeTemporaryExpr>(B))
        return eval(ME);
    // std::min and std::max return a reference to one of their operands:
    // its value is the minimum (maximum) of theirs (Builtins.cpp), and the
    // operands are read once, where they are compared.
    if (auto *Call = dyn_cast<CallExpr>(Sub->IgnoreParens()))
      if (const FunctionDecl *FD = Call->getDirectCallee();
          FD && FD->isInStdNamespace() && FD->getIdentifier() &&
          (FD->getName() == "min" || FD->getName() == "max") &&
          Call->getNumArgs() == 2)
        return eval(Call);
    LValue LV = evalLValue(Sub);
    return load(LV, CE->getType(), Sub);
  }
  case CK_ArrayToPointerDecay: {
    // A row of an array at an unknown index (`tile[buf]` passed on) is
    // still in the array's space: addressOf keeps the region.
    return addressOf(evalLValue(Sub));
  }
  case CK_NoOp:
  case CK_IntegralCast:
  case CK_BitCast:
  case CK_AddressSpaceConversion:
  case CK_ConstructorConversion:
  case CK_UserDefinedConversion:
  case CK_BooleanToSignedIntegral: {
    Value V = eval(Sub);
    // A narrower integer keeps the low bits of an address code.
    if (V.Code && CE->getType()->isIntegerType()) {
      const uint64_t Bits = Ctx.getTypeSize(CE->getType());
      if (Bits < 64) {
        AddressCode C = *V.Code;
        C.High &= (uint64_t(1) << Bits) - 1;
        // A signed target whose sign bit the code sets: not followed.
        if (CE->getType()->isSignedIntegerType() && (C.High >> (Bits - 1)) & 1)
          return Value::opaque();
        if (!C.HasAddress)
          return Value::constant(static_cast<int64_t>(C.High));
        if (Bits < SharedWindowBits - C.Shift)
          return Value::opaque();
        return Value::encoded(std::move(C), V.UniformId);
      }
    }
    if (V.K == Value::Int && CE->getType()->isBooleanType())
      return condToValue(condFromValue(V, Sub), Sub);
    if (V.K == Value::Ptr && CE->getCastKind() == CK_BitCast &&
        CE->getType()->isIntegralOrEnumerationType())
      return Value::unknown(ReasonKind::PointerToInteger);
    return V;
  }
  case CK_IntegralToBoolean:
  case CK_PointerToBoolean:
    return condToValue(evalCond(Sub), Sub);
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase: {
    Value V = eval(Sub);
    return V.K == Value::Ptr ? V : Value::opaque();
  }
  case CK_FloatingToIntegral:
    eval(Sub);
    return Value::unknown(ReasonKind::FloatIndex, {text(Sub)});
  case CK_PointerToIntegral:
    eval(Sub);
    return Value::unknown(ReasonKind::PointerToInteger);
  case CK_IntegralToPointer:
    eval(Sub);
    return Value::unknown(ReasonKind::IntegerToPointer);
  case CK_NullToPointer:
    return Value::unknown(ReasonKind::NullPointer);
  case CK_FunctionToPointerDecay:
    return Value::opaque();
  default: {
    const Value V = eval(Sub);
    if (isIntegral(CE->getType()) || CE->getType()->isPointerType())
      return Value::unknown(ReasonKind::UnsupportedConversion, {CE->getCastKindName()});
    // A conversion of a value the same on every lane (int to float).
    if (const uint64_t Id = uniformIdOf(V); Id && CE->getType()->isScalarType())
      return Value::uniformOpaque(llvm::hash_combine(int(CE->getCastKind()), Id));
    return Value::opaque();
  }
  }
}

uint64_t WarpInterp::uniformIdOf(const Value &V) const {
  if (V.K == Value::Opaque)
    return V.Fields ? 0 : V.UniformId;
  if (V.K == Value::Int && V.P.isUniform(Active))
    return llvm::hash_combine(std::string("int"), V.P.key()) | 1;
  return 0;
}

std::optional<Value> WarpInterp::encodeAddress(BinaryOperatorKind Op, const Value &L,
                                               const Value &Rv, const Expr *LE,
                                               const Expr *RE) {
  // The other operand: a constant the same on every lane.
  auto ConstantOf = [&](const Value &V) -> std::optional<uint64_t> {
    if (V.K != Value::Int || !Active || !V.P.isConcrete(Active) || !V.P.isUniform(Active))
      return std::nullopt;
    return static_cast<uint64_t>(V.P.laneConstants()[firstLane(Active)]);
  };
  auto Uniform = [&](const AddressCode &C) -> uint64_t {
    return C.Offset.isUniform(Active)
               ? llvm::hash_combine(std::string("code"), C.Region, C.Offset.key(), C.Shift,
                                    C.High) | 1
               : 0;
  };
  auto Make = [&](AddressCode C) {
    const uint64_t Id = Uniform(C);
    return Value::encoded(std::move(C), Id);
  };
  // Any other operation: what it was before address codes, an address
  // the arithmetic loses.
  auto Lost = [&] {
    const bool Address = (L.Code && L.Code->HasAddress) || (Rv.Code && Rv.Code->HasAddress) ||
                         L.K == Value::Ptr || Rv.K == Value::Ptr;
    return Value::unknown(Address ? ReasonKind::PointerArithmetic : ReasonKind::IndexOverflow);
  };
  const uint64_t WindowMask = (uint64_t(1) << SharedWindowBits) - 1;
  // An address in the shared window, in an integer (not a pointer).
  auto WindowAddress = [&](const Value &V, const Expr *E) {
    if (V.K != Value::Ptr || !E || E->getType()->isPointerType() ||
        !E->getType()->isIntegerType())
      return false;
    const std::optional<MemorySpace> Sp = R.Regions[V.Region].space();
    return Sp && *Sp == MemorySpace::Shared;
  };
  const bool LA = WindowAddress(L, LE), RA = WindowAddress(Rv, RE);
  if (LA || RA) {
    const Value &A = LA ? L : Rv;
    const std::optional<uint64_t> K = ConstantOf(LA ? Rv : L);
    if (!K)
      return std::nullopt;
    AddressCode C{A.Region, A.P, 0, 0};
    switch (Op) {
    case BO_And: // a mask that keeps every bit of the window: the address
      return (*K & WindowMask) == WindowMask ? std::optional<Value>(A) : std::nullopt;
    case BO_Shr:
      if (!LA || *K >= SharedWindowBits)
        return std::nullopt;
      C.Shift = static_cast<unsigned>(*K);
      return Make(std::move(C));
    case BO_Or:
      if (*K & WindowMask)
        return std::nullopt;
      C.High = *K;
      return Make(std::move(C));
    default:
      return std::nullopt;
    }
  }
  if (!L.Code && !Rv.Code)
    return std::nullopt;
  if (L.Code && Rv.Code) {
    // An address code and a wide constant, or two wide constants: OR'ed.
    if (Op != BO_Or || (L.Code->HasAddress && Rv.Code->HasAddress))
      return Lost();
    AddressCode C = L.Code->HasAddress ? *L.Code : *Rv.Code;
    const uint64_t K = (L.Code->HasAddress ? *Rv.Code : *L.Code).High;
    if (C.HasAddress && (K & (WindowMask >> C.Shift)))
      return Lost();
    C.High |= K;
    return Make(std::move(C));
  }
  const AddressCode &C0 = L.Code ? *L.Code : *Rv.Code;
  const Value &Other = L.Code ? Rv : L;
  // The bits the shifted address can reach.
  const uint64_t Low = C0.HasAddress ? WindowMask >> C0.Shift : 0;
  AddressCode C = C0;
  if (C.HasAddress && (Op == BO_Add || (Op == BO_Sub && L.Code)) && Other.K == Value::Int) {
    const std::optional<uint64_t> K = ConstantOf(Other);
    // A constant above the address field that no field bit meets: an OR.
    if (K && Op == BO_Add && !(*K & Low) && !(*K & C.High)) {
      C.High |= *K;
      return Make(std::move(C));
    }
    // Advancing the address field (`desc + 2`: 32 bytes on), by less than
    // the window.
    if (K && static_cast<int64_t>(*K) > -(int64_t(1) << SharedWindowBits) &&
        static_cast<int64_t>(*K) < (int64_t(1) << SharedWindowBits)) {
      const Poly D = Other.P.scaled(int64_t(1) << C.Shift);
      C.Offset = Op == BO_Add ? C.Offset + D : C.Offset - D;
      if (C.Offset.overflowed())
        return Lost();
      return Make(std::move(C));
    }
    return Lost();
  }
  const std::optional<uint64_t> K = ConstantOf(Other);
  if (!K)
    return Lost();
  switch (Op) {
  case BO_Or:
    if (*K & Low)
      return Lost();
    C.High |= *K;
    return Make(std::move(C));
  case BO_And:
    if ((*K & Low) != Low)
      return Lost();
    C.High &= *K;
    return Make(std::move(C));
  default:
    return Lost();
  }
}

Value WarpInterp::evalArith(BinaryOperatorKind Op, const Value &L,
                            const Value &Rv, const Expr *LE, const Expr *RE,
                            QualType ResultTy) {
  // Pointer arithmetic.
  if (L.K == Value::Ptr || Rv.K == Value::Ptr) {
    if ((Op == BO_Add || Op == BO_Sub) && L.K == Value::Ptr && Rv.K == Value::Int) {
      QualType Pointee = LE->getType()->getPointeeType();
      int64_t Size = Pointee.isNull() || Pointee->isIncompleteType()
                         ? 1
                         : Ctx.getTypeSizeInChars(Pointee).getQuantity();
      Value V = L;
      Poly D = Rv.P.scaled(Size);
      V.P = Op == BO_Add ? L.P + D : L.P - D;
      return V;
    }
    if (Op == BO_Add && Rv.K == Value::Ptr && L.K == Value::Int)
      return evalArith(Op, Rv, L, RE, LE, ResultTy);
    if (Op == BO_Sub && L.K == Value::Ptr && Rv.K == Value::Ptr &&
        L.Region == Rv.Region) {
      // An address held in an integer (__cvta_generic_to_shared) counts bytes.
      QualType Pointee = LE->getType()->getPointeeType();
      int64_t Size = Pointee.isNull() || Pointee->isIncompleteType()
                         ? 1
                         : Ctx.getTypeSizeInChars(Pointee).getQuantity();
      IntResult Q = divConst(L.P - Rv.P, Size, Active, R.Syms);
      return Q.Ok ? Value::integer(Q.P) : Value::unknown(makeReason(Q));
    }
    // A shared-window address held in an integer, taken apart by bit
    // operations (a wgmma matrix descriptor).
    if (std::optional<Value> C = encodeAddress(Op, L, Rv, LE, RE))
      return *C;
    if (L.K == Value::Unknown || Rv.K == Value::Unknown) {
      Value U = L.K == Value::Unknown ? L : Rv;
      if (!U.Where)
        U.Where = L.K == Value::Ptr ? std::optional<RegionId>(L.Region)
                  : Rv.K == Value::Ptr ? std::optional<RegionId>(Rv.Region)
                                       : std::nullopt;
      return U;
    }
    return Value::unknown(ReasonKind::PointerArithmetic);
  }
  if (L.K == Value::Unknown)
    return L;
  if (Rv.K == Value::Unknown)
    return Rv;
  if (L.Code || Rv.Code)
    if (std::optional<Value> C = encodeAddress(Op, L, Rv, LE, RE))
      return *C;
  if (L.K != Value::Int || Rv.K != Value::Int) {
    // Arithmetic of values the same on every lane is the same on every lane.
    const uint64_t A = uniformIdOf(L), B = uniformIdOf(Rv);
    return A && B ? Value::uniformOpaque(llvm::hash_combine(int(Op), A, B)) : Value::opaque();
  }
  if (!isIntegerOp(Op))
    return Value::opaque();
  // A 64-bit unsigned constant past INT64_MAX (`3ull << 62`, a wgmma
  // descriptor's swizzle mode): kept as the bits of an AddressCode.
  if (Op == BO_Shl && !ResultTy.isNull() && ResultTy->isUnsignedIntegerType() &&
      Ctx.getTypeSize(ResultTy) == 64 && Active && L.P.isConcrete(Active) &&
      L.P.isUniform(Active) && Rv.P.isConcrete(Active) && Rv.P.isUniform(Active)) {
    const int64_t A = L.P.laneConstants()[firstLane(Active)];
    const int64_t B = Rv.P.laneConstants()[firstLane(Active)];
    if (A > 0 && B > 0 && B < 64) {
      const uint64_t V = static_cast<uint64_t>(A) << B;
      if ((V >> B) == static_cast<uint64_t>(A) && V > uint64_t(INT64_MAX)) {
        AddressCode C;
        C.HasAddress = false;
        C.High = V;
        return Value::encoded(std::move(C), llvm::hash_combine(std::string("wide"), V) | 1);
      }
    }
  }
  IntResult Res = intOp(Op, L.P, Rv.P);
  // An operand that depends on one symbol with the values 0 and 1 only (a
  // toggle's parity: `buf ^ 1`) and otherwise known: the result is the line
  // through its values at 0 and 1.
  if (!Res.Ok) {
    std::vector<SymbolId> Syms = (L.P + Rv.P).symbols();
    if (Syms.size() == 1 && R.Syms.get(Syms[0]).Binary) {
      const SymbolId B = Syms[0];
      IntResult R0 = intOp(Op, L.P.substitute(B, Poly::constant(0)),
                           Rv.P.substitute(B, Poly::constant(0)));
      IntResult R1 = intOp(Op, L.P.substitute(B, Poly::constant(1)),
                           Rv.P.substitute(B, Poly::constant(1)));
      if (R0.Ok && R1.Ok && R0.P.isConcrete() && R1.P.isConcrete())
        Res = IntResult::ok(R0.P + Poly::symbol(B) * (R1.P - R0.P));
    }
  }
  if (!Res.Ok) {
    // What would settle it: the kernel parameters among its operands, whose
    // values --assume states (issue 33: llm.c's `idx / C`).
    Reason Why = makeReason(Res);
    const std::vector<std::string> Names = paramNamesOf((L.P + Rv.P).symbols(), R.Syms);
    Why.Settle = assumeFactsFor(Names);
    if (!Names.empty()) {
      std::string Which, Assume;
      for (size_t K = 0; K < Names.size(); ++K) {
        Which += (K ? (K + 1 == Names.size() ? " and " : ", ") : "") + ("'" + Names[K] + "'");
        Assume += " " + Why.Settle[K];
      }
      Why.Text += "; it depends on the value of " + Which + ", which" + Assume +
                  " may settle";
    }
    return Value::unknown(std::move(Why));
  }
  if (Res.P.overflowed())
    return Value::unknown(ReasonKind::IndexOverflow);
  return Value::integer(Res.P);
}

IntResult WarpInterp::intOp(BinaryOperatorKind Op, const Poly &A, const Poly &B) {
  IntResult Res;
  switch (Op) {
  case BO_Add: Res = IntResult::ok(A + B); break;
  case BO_Sub: Res = IntResult::ok(A - B); break;
  case BO_Mul: Res = IntResult::ok(A * B); break;
  case BO_Div: Res = divPoly(A, B, Active, R.Syms); break;
  case BO_Rem: Res = remPoly(A, B, Active, R.Syms); break;
  case BO_Shl: Res = shlPoly(A, B, Active, R.Syms); break;
  case BO_Shr: Res = shrPoly(A, B, Active, R.Syms); break;
  case BO_And: Res = andPoly(A, B, Active, R.Syms); break;
  case BO_Or: Res = orPoly(A, B, Active, R.Syms); break;
  case BO_Xor: Res = xorPoly(A, B, Active, R.Syms); break;
  default:
    return IntResult::fail(IntFail::NotIntegerOperation);
  }
  return Res;
}

bool WarpInterp::isIntegerOp(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_Add: case BO_Sub: case BO_Mul: case BO_Div: case BO_Rem:
  case BO_Shl: case BO_Shr: case BO_And: case BO_Or: case BO_Xor:
    return true;
  default:
    return false;
  }
}

namespace {
/// `__umulhi(X, M)`, directly or as the initializer of a const local
/// (`const uint32_t hi = __umulhi(n, mp);`): X and M.
std::optional<std::pair<const Expr *, const Expr *>> mulHiOperands(const Expr *E) {
  E = skipCastsAndParens(E);
  if (auto *DR = dyn_cast<DeclRefExpr>(E))
    if (auto *VD = dyn_cast<VarDecl>(DR->getDecl());
        VD && VD->hasLocalStorage() && VD->getType().isConstQualified() && VD->getInit())
      E = skipCastsAndParens(VD->getInit());
  auto *CE = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getName() != "__umulhi" || CE->getNumArgs() != 2)
    return std::nullopt;
  return std::make_pair(CE->getArg(0), CE->getArg(1));
}

/// The divisor d whose round-up magic numbers (Granlund and Montgomery,
/// figure 4.1; ggml's init_fastdiv_values) are M and L: L = ceil(log2 d),
/// M = floor(2^32 * (2^L - d) / d) + 1, so that n / d = (umulhi(n, M) + n)
/// >> L for every n below 2^31 (where the 32-bit sum cannot wrap).
std::optional<int64_t> magicDivisor(int64_t M, int64_t L) {
  if (M < 0 || M > 0xFFFFFFFFll || L < 0 || L > 31)
    return std::nullopt;
  const unsigned __int128 Two32 = (unsigned __int128)1 << 32;
  auto MagicOf = [&](uint64_t D) -> int64_t {
    return static_cast<int64_t>(Two32 * (((unsigned __int128)1 << L) - D) / D + 1);
  };
  // M - 1 + 2^32 is about 2^(32 + L) / d.
  const unsigned __int128 Den = (unsigned __int128)M - 1 + Two32;
  const uint64_t Est = static_cast<uint64_t>((Two32 << L) / Den);
  for (uint64_t D = Est > 1 ? Est - 1 : 1; D <= Est + 1; ++D) {
    uint64_t Ceil = 0;
    while (Ceil < 32 && (uint64_t(1) << Ceil) < D)
      ++Ceil;
    if (static_cast<int64_t>(Ceil) == L && (uint64_t(1) << L) >= D && MagicOf(D) == M)
      return static_cast<int64_t>(D);
  }
  return std::nullopt;
}
} // namespace

std::optional<Value> WarpInterp::magicDivision(const BinaryOperator *BO) {
  const auto *Sum = dyn_cast<BinaryOperator>(skipCastsAndParens(BO->getLHS()));
  if (!Sum || Sum->getOpcode() != BO_Add)
    return std::nullopt;
  for (int Side = 0; Side < 2; ++Side) {
    const Expr *Hi = Side ? Sum->getRHS() : Sum->getLHS();
    const Expr *N = skipCastsAndParens(Side ? Sum->getLHS() : Sum->getRHS());
    auto Ops = mulHiOperands(Hi);
    if (!Ops || !sameLValue(Ctx, skipCastsAndParens(Ops->first), N))
      continue;
    // Decide on a dry run; then evaluate the operands once for real.
    ++DryDepth;
    Value Mv, Lv;
    try {
      Mv = eval(Ops->second);
      Lv = eval(BO->getRHS());
    } catch (...) {
      --DryDepth;
      throw;
    }
    --DryDepth;
    if (Mv.K != Value::Int || Lv.K != Value::Int || !Mv.P.isConcrete(Active) ||
        !Mv.P.isUniform(Active) || !Lv.P.isConcrete(Active) || !Lv.P.isUniform(Active))
      return std::nullopt;
    const unsigned F = firstLane(Active);
    const std::optional<int64_t> D =
        magicDivisor(Mv.P.laneConstants()[F], Lv.P.laneConstants()[F]);
    if (!D)
      return std::nullopt;
    const Value Nv = eval(N);
    eval(Ops->second);
    eval(BO->getRHS());
    if (Nv.K != Value::Int)
      return Nv.K == Value::Unknown ? Nv : Value::opaque();
    IntResult Res = divPoly(Nv.P, Poly::constant(*D), Active, R.Syms);
    if (!Res.Ok)
      return Value::unknown(makeReason(Res));
    return Value::integer(Res.P);
  }
  return std::nullopt;
}

Value WarpInterp::evalBinary(const BinaryOperator *BO) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Shr)
    if (std::optional<Value> V = magicDivision(BO))
      return *V;
  if (Op == BO_Comma) {
    eval(BO->getLHS());
    return eval(BO->getRHS());
  }
  if (BO->isComparisonOp() || BO->isLogicalOp())
    return condToValue(evalCond(BO), BO);
  if (Op == BO_Assign) {
    Value V = eval(BO->getRHS());
    LValue LV = evalLValue(BO->getLHS());
    store(LV, V, BO->getLHS()->getType(), BO->getLHS());
    return V;
  }
  if (auto *CAO = dyn_cast<CompoundAssignOperator>(BO)) {
    LValue LV = evalLValue(BO->getLHS());
    Value Old = load(LV, BO->getLHS()->getType(), BO->getLHS());
    Value Rv = eval(BO->getRHS());
    Value New = evalArith(BinaryOperator::getOpForCompoundAssignment(Op), Old, Rv,
                          BO->getLHS(), BO->getRHS(), CAO->getComputationResultType());
    if (!isIntegral(BO->getLHS()->getType()) &&
        !BO->getLHS()->getType()->isPointerType())
      New = Value::opaque();
    store(LV, New, BO->getLHS()->getType(), BO->getLHS());
    return New;
  }
  Value L = eval(BO->getLHS());
  Value Rv = eval(BO->getRHS());
  if (!isIntegral(BO->getType()) && !BO->getType()->isPointerType())
    return Value::opaque();
  // An XOR's operands, for the readers of TMA boxes (TensorCopies.cpp).
  if (Op == BO_Xor && L.K == Value::Int && Rv.K == Value::Int && Active &&
      L.P.isConcrete(Active) && Rv.P.isConcrete(Active))
    LastXor[BO] = {L.P.laneConstants(), Rv.P.laneConstants(), Active};
  return evalArith(Op, L, Rv, BO->getLHS(), BO->getRHS(), BO->getType());
}

Value WarpInterp::evalUnary(const UnaryOperator *UO) {
  const Expr *Sub = UO->getSubExpr();
  switch (UO->getOpcode()) {
  case UO_Plus:
  case UO_Extension:
    return eval(Sub);
  case UO_Minus: {
    Value V = eval(Sub);
    if (V.K == Value::Int)
      return Value::integer(-V.P);
    return V.K == Value::Unknown ? V : Value::opaque();
  }
  case UO_Not: {
    Value V = eval(Sub);
    if (V.K == Value::Int)
      return Value::integer(notPoly(V.P, Active).P);
    return V.K == Value::Unknown ? V : Value::opaque();
  }
  case UO_LNot:
    return condToValue(evalCond(UO), UO);
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    LValue LV = evalLValue(Sub);
    Value Old = load(LV, Sub->getType(), Sub);
    Value One = Value::constant(1);
    Value New = evalArith(UO->isIncrementOp() ? BO_Add : BO_Sub, Old, One, Sub,
                          Sub, Sub->getType());
    if (!isIntegral(Sub->getType()) && !Sub->getType()->isPointerType())
      New = Value::opaque();
    store(LV, New, Sub->getType(), Sub);
    return UO->isPrefix() ? New : Old;
  }
  case UO_AddrOf: {
    return addressOf(evalLValue(Sub));
  }
  case UO_Deref: {
    LValue LV = evalLValue(UO);
    return load(LV, UO->getType(), UO);
  }
  default:
    return eval(Sub);
  }
}

Value WarpInterp::evalConditional(const AbstractConditionalOperator *CO,
                                  bool ToRValue) {
  Cond C = evalCond(CO->getCond());
  const LaneMask Save = Active;
  auto Side = [&](const Expr *E, LaneMask M) {
    Models.sideEnter(CO);
    Active = M;
    Value V = !M ? Value::opaque()
               : ToRValue ? load(evalLValue(E), E->getType(), E)
                          : eval(E);
    Active = Save;
    Models.sideExit(CO);
    return V;
  };
  switch (C.K) {
  case Cond::Lanes: {
    LaneMask T = Save & C.True, F = Save & ~C.True;
    Value A = Side(CO->getTrueExpr(), T), B = Side(CO->getFalseExpr(), F);
    if (!T)
      return B;
    if (!F)
      return A;
    if (A.K == Value::Int && B.K == Value::Int)
      return Value::integer(A.P.select(T, B.P));
    if (A.K == Value::Ptr && B.K == Value::Ptr && A.Region == B.Region) {
      Value V = A;
      V.P = A.P.select(T, B.P);
      return V;
    }
    if (A.K == Value::Unknown)
      return A;
    if (B.K == Value::Unknown)
      return B;
    if (A.K == Value::Opaque && B.K == Value::Opaque)
      return A.Code || B.Code ? Value::opaque() : A; // different address codes
    return Value::unknown(ReasonKind::LanesTakeDifferentPointers);
  }
  case Cond::Guard: {
    Assumptions.push_back(makeAssumption(
        AssumptionKind::InteriorGuard,
        {C.Guards.empty() ? "`" + C.Text + "`" : C.Guards[0], lineOf(Ctx, CO->getBeginLoc())}));
    LaneMask T = Save & C.True, F = Save & ~C.True;
    Value A = Side(CO->getTrueExpr(), T), B = Side(CO->getFalseExpr(), F);
    Assumptions.pop_back();
    if (!F)
      return A;
    if (!T)
      return B;
    if (A.K == Value::Int && B.K == Value::Int)
      return Value::integer(A.P.select(T, B.P));
    return Value::unknown(ReasonKind::DependsOnGuard, {C.Text});
  }
  case Cond::Uniform:
  case Cond::Data: {
    const size_t SideMark = Assumptions.size();
    Value A = Side(CO->getTrueExpr(),
                   C.K == Cond::Uniform ? uniformSide(C, Save, true, CO->getCond()) : Save);
    Assumptions.resize(std::min(Assumptions.size(), SideMark));
    Value B = Side(CO->getFalseExpr(),
                   C.K == Cond::Uniform ? uniformSide(C, Save, false, CO->getCond()) : Save);
    Assumptions.resize(std::min(Assumptions.size(), SideMark));
    if (A.sameAs(B))
      return A;
    if (C.K == Cond::Uniform && A.K == Value::Int && B.K == Value::Int &&
        A.P.isUniform(Save) && B.P.isUniform(Save))
      return Value::integer(Poly::symbol(sym(
          "sel:" + std::to_string(reinterpret_cast<uintptr_t>(CO)),
          "(" + text(CO) + ")", SymbolKind::Opaque)));
    if (A.K == Value::Opaque && B.K == Value::Opaque)
      return A.Code || B.Code ? Value::opaque() : A; // different address codes
    return C.K == Cond::Data
               ? Value::unknown(wrapReason(ReasonKind::DependsOnCondition, {C.Text}, C.Why))
               : Value::unknown(ReasonKind::DependsOnUniformCondition, {C.Text});
  }
  }
  return Value::opaque();
}

} // namespace interp
} // namespace coalesce

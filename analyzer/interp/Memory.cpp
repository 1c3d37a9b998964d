//===- Memory.cpp - Lvalues, loads, stores and access events ---------------===//
//
// An lvalue is a local variable (tracked per frame), a field of a by-value
// kernel parameter, or memory: a region plus a per-lane byte offset. Every
// load or store of memory becomes an AccessEvent: global, shared and constant
// accesses are reported, and those of per-thread arrays that the compiler
// keeps in local memory (a subscript computed at run time into an array of
// more than 256 bytes); parameter memory is not costed.
// Aggregates are split into instructions of their alignment, at most the
// widest instruction of their space (model/Spaces.h: 16 bytes, 8 for
// constant memory). because() finds the index term that spreads the lanes
// the most, for the message. Which shared accesses ptxas merges into wider
// instructions: models/SharedMerges.cpp.
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"
#include "model/Alignment.h"
#include "model/Spaces.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/Hashing.h"
#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>

using namespace clang;

namespace coalesce {
namespace interp {

LValue WarpInterp::memberLValue(const MemberExpr *ME) {
  const ValueDecl *MD = ME->getMemberDecl();
  LValue Base;
  if (ME->isArrow()) {
    const Expr *BE = ME->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(BE)) {
      const Frame &F = frame();
      if (F.This)
        Base = *F.This;
      else {
        Base.K = LValue::None;
        return Base;
      }
    } else {
      Base = memAt(eval(ME->getBase()));
    }
  } else {
    Base = evalLValue(ME->getBase());
  }
  int64_t Off = 0;
  std::string Name = MD->getName().str();
  if (auto *FD = dyn_cast<FieldDecl>(MD)) {
    if (FD->isBitField()) {
      // A bit-field of a local object (a cooperative group's fields) is in
      // registers: no memory access, and its value is not tracked.
      if (Base.K == LValue::Var || Base.K == LValue::None ||
          Base.K == LValue::ParamField) {
        LValue N;
        N.K = LValue::None;
        return N;
      }
      LValue U;
      U.K = LValue::Unknown;
      U.Why = makeReason(ReasonKind::BitField);
      return U;
    }
    Off = fieldOffset(FD);
  } else if (auto *IFD = dyn_cast<IndirectFieldDecl>(MD)) {
    for (const NamedDecl *ND : IFD->chain())
      if (auto *F = dyn_cast<FieldDecl>(ND))
        Off += fieldOffset(F);
  } else if (auto *VD = dyn_cast<VarDecl>(MD)) {
    // A static data member is a variable of its own; a constant one is no
    // memory (its reads are values: compileTimeValue()).
    LValue LV;
    if (VD->hasGlobalStorage() && !isCompileTimeConstant(Ctx, ME) &&
        (VD->hasAttr<CUDASharedAttr>() || VD->hasAttr<CUDADeviceAttr>() ||
         VD->hasAttr<CUDAConstantAttr>())) {
      LV.K = LValue::Mem;
      LV.Ptr = Value::pointer(regionForVar(VD), Poly());
    }
    return LV;
  } else {
    LValue LV;
    LV.K = LValue::None;
    return LV;
  }
  switch (Base.K) {
  case LValue::Mem:
    if (Base.Ptr.K == Value::Ptr)
      Base.Ptr.P = Base.Ptr.P + Poly::constant(Off);
    Base.Subscripts.clear();
    Base.ArrayDecl = nullptr;
    Base.RowLength = 0;
    return Base;
  case LValue::ParamField:
    Base.ParamPath += "." + Name;
    return Base;
  case LValue::Var:
    Base.FieldPath += "." + Name;
    return Base;
  default:
    return Base;
  }
}

LValue WarpInterp::evalLValue(const Expr *E) {
  step();
  visit(E);
  visit(E->IgnoreParens());
  if (salvageTooDeep()) {
    LValue LV;
    LV.K = LValue::Unknown;
    LV.Why = makeReason(ReasonKind::BudgetExceeded, {R.Salvage});
    return LV;
  }
  DepthGuard G(*this);
  E = E->IgnoreParens();
  LValue LV;
  if (auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
    if (IC->getCastKind() == CK_NoOp || IC->getCastKind() == CK_LValueBitCast ||
        IC->getCastKind() == CK_UncheckedDerivedToBase ||
        IC->getCastKind() == CK_DerivedToBase)
      return evalLValue(IC->getSubExpr());
  }
  if (auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
    // `static_cast<Base &&>(derived)` names the base part of the object,
    // whose fields are named as the object's own.
    if (CE->getCastKind() == CK_LValueBitCast || CE->getCastKind() == CK_NoOp ||
        CE->getCastKind() == CK_DerivedToBase || CE->getCastKind() == CK_UncheckedDerivedToBase) {
      LValue Sub = evalLValue(CE->getSubExpr());
      Sub.Subscripts.clear();
      Sub.ArrayDecl = nullptr;
      Sub.RowLength = 0;
      return Sub;
    }
  }
  if (auto *FE = dyn_cast<FullExpr>(E))
    return evalLValue(FE->getSubExpr());
  if (auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return evalLValue(DA->getExpr());
  if (auto *MT = dyn_cast<MaterializeTemporaryExpr>(E)) {
    const Expr *Sub = MT->getSubExpr();
    const QualType T = Sub->getType();
    if (T->isRecordType() || T->isArrayType()) {
      // A temporary object (`ref.stride()[0]`, a method called on a
      // returned struct): an object of the current frame, with the
      // fields its value has.
      const Value V = structValue(Sub);
      const VarDecl *VD = temporaryVar(MT);
      Frame &F = frame();
      F.Vars[VD] = Value::opaque();
      setFields(F, VD, "", V);
      LV.K = LValue::Var;
      LV.VarD = VD;
      LV.FrameIdx = static_cast<unsigned>(Frames.size() - 1);
      return LV;
    }
    // A temporary bound to a const reference: its value only.
    eval(Sub);
    LV.K = LValue::None;
    return LV;
  }
  if (auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return OV->getSourceExpr() ? evalLValue(OV->getSourceExpr()) : LV;
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    // A structured binding: its holding variable, or a part of the object.
    if (auto *BD = dyn_cast<BindingDecl>(DR->getDecl()))
      if (const Expr *B = BD->getBinding())
        return evalLValue(B);
    auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD)
      return LV;
    unsigned Idx;
    if (Frame *F = frameOf(VD, &Idx)) {
      auto RI = F->Refs.find(VD);
      if (RI != F->Refs.end())
        return RI->second;
    }
    if (VD->hasGlobalStorage()) {
      RegionId Rg = regionForVar(VD);
      LV.K = LValue::Mem;
      LV.Ptr = Value::pointer(Rg, Poly());
      if (VD->getType()->isArrayType())
        LV.ArrayDecl = VD;
      return LV;
    }
    if (auto *PD = dyn_cast<ParmVarDecl>(VD);
        PD && Frames.size() >= 1 && PD->getDeclContext() == R.Kernel &&
        PD->getType()->isRecordType()) {
      LV.K = LValue::ParamField;
      LV.Param = PD;
      return LV;
    }
    if (VD->getType()->isArrayType()) {
      // A per-thread array: the compiler lays out local memory and aligns
      // arrays to 16 bytes (model/Spaces.h).
      MemRegion M{MemRegion::Local, VD->getName().str(), VD};
      M.Align = std::max<int64_t>(16, Ctx.getDeclAlign(VD).getQuantity());
      RegionId Rg = R.regionFor(VD, M);
      LV.K = LValue::Mem;
      LV.Ptr = Value::pointer(Rg, Poly());
      return LV;
    }
    LV.K = LValue::Var;
    LV.VarD = VD;
    if (frameOf(VD, &Idx))
      LV.FrameIdx = Idx;
    else
      LV.FrameIdx = static_cast<unsigned>(Frames.size() - 1);
    return LV;
  }
  if (auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *BaseE = AS->getBase();
    // Subscripts of a declared array keep their per-dimension indices.
    LValue ArrayLV;
    bool FromArray = false;
    if (auto *IC = dyn_cast<ImplicitCastExpr>(BaseE->IgnoreParens());
        IC && IC->getCastKind() == CK_ArrayToPointerDecay) {
      ArrayLV = evalLValue(IC->getSubExpr());
      FromArray = true;
    }
    Value Base;
    if (FromArray) {
      if (ArrayLV.K == LValue::Mem)
        Base = ArrayLV.Ptr;
      else if (ArrayLV.K == LValue::Unknown) {
        // The row is not known, the array is: the access keeps its space.
        Base = Value::unknown(ArrayLV.Why);
        Base.Where = ArrayLV.UnknownRegion;
      }
      else if (ArrayLV.K == LValue::ParamField) {
        // An element of an array in a by-value kernel parameter: at a
        // subscript the same on every lane, a parameter of its own.
        const Value Idx = eval(AS->getIdx());
        if (Idx.K == Value::Int && Idx.P.isConcrete(Active) && Idx.P.isUniform(Active)) {
          const unsigned F = firstLane(Active);
          ArrayLV.ParamPath +=
              "[" + std::to_string(Idx.P.laneConstants()[F == WarpSize ? 0 : F]) + "]";
          return ArrayLV;
        }
        LV.K = LValue::None;
        return LV;
      } else if (ArrayLV.K == LValue::Var) {
        // An array inside a local object (a wmma fragment, a packed vector
        // struct): registers, not memory.
        Base = addressOf(ArrayLV);
      } else
        Base = Value::unknown(ReasonKind::UntrackedArray);
    } else {
      Base = eval(BaseE);
    }
    Value Idx = eval(AS->getIdx());
    QualType ElemT = AS->getType();
    int64_t Size = ElemT->isIncompleteType()
                       ? 1
                       : Ctx.getTypeSizeInChars(ElemT).getQuantity();
    if (Base.K == Value::Ptr) {
      LV.K = LValue::Mem;
      LV.Ptr = Base;
      if (Idx.K == Value::Int) {
        LV.Ptr.P = Base.P + Idx.P.scaled(Size);
        if (LV.Ptr.P.overflowed())
          LV.Ptr = Value::unknown(ReasonKind::AddressOverflow);
      } else {
        LV.Ptr = Value::unknown(
            Idx.K == Value::Unknown
                ? Idx.Why
                : makeReason(ReasonKind::IndexNotInteger, {text(AS->getIdx())}));
        LV.UnknownRegion = Base.Region;
        LV.K = LValue::Unknown;
        LV.Why = LV.Ptr.Why;
      }
      if (FromArray && LV.K == LValue::Mem && Idx.K == Value::Int) {
        LV.ArrayDecl = ArrayLV.ArrayDecl;
        LV.Subscripts = ArrayLV.Subscripts;
        LV.Subscripts.push_back(Idx.P);
        // A one-dimensional shared array indexed `row * K + column`: its
        // row and column, for the layout search (cost/Aggregate.cpp).
        if (LV.ArrayDecl && ArrayLV.Subscripts.empty() && LV.ArrayDecl->hasAttr<CUDASharedAttr>())
          if (const auto *CAT = Ctx.getAsConstantArrayType(LV.ArrayDecl->getType());
              CAT && !CAT->getElementType()->isArrayType())
            if (std::optional<RowSplit> Split = splitRowIndex(
                    Ctx, AS->getIdx(), static_cast<int64_t>(CAT->getZExtSize()));
                Split && readsNoMemory(Ctx, Split->Row)) {
              const Value Row = eval(Split->Row);
              if (Row.K == Value::Int) {
                LV.Subscripts = {Row.P, Idx.P - Row.P.scaled(Split->K)};
                LV.RowLength = Split->K;
              }
            }
      }
      return LV;
    }
    eval(AS->getIdx());
    return memAt(Base);
  }
  if (auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref) {
      return memAt(eval(UO->getSubExpr()));
    }
    if (UO->isIncrementDecrementOp() && UO->isPrefix()) {
      eval(UO);
      return evalLValue(UO->getSubExpr());
    }
  }
  if (auto *ME = dyn_cast<MemberExpr>(E))
    return memberLValue(ME);
  if (auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp()) {
      eval(BO);
      return evalLValue(BO->getLHS());
    }
    if (BO->getOpcode() == BO_Comma) {
      eval(BO->getLHS());
      return evalLValue(BO->getRHS());
    }
  }
  if (auto *Call = dyn_cast<CallExpr>(E)) {
    LValue Ret;
    evalCall(Call, &Ret);
    return Ret;
  }
  if (isa<CXXThisExpr>(E)) {
    const Frame &F = frame();
    if (F.This)
      return *F.This;
    return LV;
  }
  if (auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Cond C = evalCond(CO->getCond());
    if (C.K == Cond::Lanes && (C.True & Active) == Active)
      return evalLValue(CO->getTrueExpr());
    if (C.K == Cond::Lanes && (C.True & Active) == 0)
      return evalLValue(CO->getFalseExpr());
    LV.K = LValue::Unknown;
    LV.Why = makeReason(ReasonKind::LanesSelectObjects, {text(CO)});
    return LV;
  }
  if (isa<StringLiteral>(E) || isa<CompoundLiteralExpr>(E))
    return LV;
  eval(E);
  return LV;
}

Value WarpInterp::addressOf(const LValue &LV) {
  switch (LV.K) {
  case LValue::Mem:
    return LV.Ptr;
  case LValue::Unknown: {
    Value U = Value::unknown(LV.Why);
    U.Where = LV.UnknownRegion;
    return U;
  }
  case LValue::Var: {
    // The part of the variable the path names starts that far into it.
    const RegionId Rg =
        R.regionFor(LV.VarD, MemRegion{MemRegion::Local, LV.VarD->getName().str(), LV.VarD});
    if (LV.FieldPath.empty())
      return Value::pointer(Rg, Poly());
    if (auto Part = partAt(LV.VarD->getType().getNonReferenceType(), LV.FieldPath))
      return Value::pointer(Rg, Poly::constant(Part->first));
    Value U = Value::unknown(ReasonKind::LocalStructField, {LV.VarD->getName().str() + LV.FieldPath});
    U.Where = Rg;
    return U;
  }
  case LValue::ParamField:
    return Value::pointer(R.regionFor(LV.Param, MemRegion{MemRegion::Param,
                                                          LV.Param->getName().str(), LV.Param}),
                          Poly());
  case LValue::None:
    break;
  }
  // A temporary (or an object the walk does not track) lives in registers.
  static const char Temporary = 0;
  return Value::pointer(R.regionFor(&Temporary, MemRegion{MemRegion::Local, "a temporary"}),
                        Poly());
}

const VarDecl *WarpInterp::pointedVar(const LValue &LV, QualType T) const {
  if (LV.K != LValue::Mem || LV.Ptr.K != Value::Ptr || LV.Ptr.P != Poly())
    return nullptr;
  const MemRegion &M = R.Regions[LV.Ptr.Region];
  auto *VD = dyn_cast_or_null<VarDecl>(M.Decl);
  if (!VD || M.K != MemRegion::Local || VD->getType()->isArrayType() ||
      !Ctx.hasSameUnqualifiedType(T.getNonReferenceType(), VD->getType()))
    return nullptr;
  return VD;
}

Value WarpInterp::loadedValue(const LValue &LV, QualType T, const Expr *Site) {
  T = T.getCanonicalType();
  const bool Tracked = isIntegral(T) || T->isPointerType();
  if (!Tracked) {
    // A float every lane reads at the same address is the same on every lane.
    if (LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr && LV.Ptr.P.isUniform(Active) &&
        T->isScalarType()) {
      const unsigned F = firstLane(Active);
      return Value::uniformOpaque(llvm::hash_combine(
          std::string("load"), LV.Ptr.Region, LV.Ptr.P.atLane(F == WarpSize ? 0 : F).key(),
          T.getAsString()));
    }
    return Value::opaque();
  }
  const std::string Text = text(Site);
  if (LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr &&
      LV.Ptr.P.isUniform(Active)) {
    // Every lane reads the same address: the value is warp-uniform.
    unsigned F = firstLane(Active);
    std::string Key = "load:" + std::to_string(LV.Ptr.Region) + ":" +
                      LV.Ptr.P.atLane(F == WarpSize ? 0 : F).key() + ":" +
                      T.getAsString();
    if (T->isPointerType()) {
      MemRegion Rg;
      // A pointer kept in memory is taken to point to global memory,
      // wherever it was stored.
      Rg.K = MemRegion::Global;
      Rg.Name = Text;
      QualType Pointee = T->getPointeeType();
      Rg.Align = Pointee->isIncompleteType()
                     ? 1
                     : std::max<int64_t>(1, Ctx.getTypeAlignInChars(Pointee).getQuantity());
      Rg.AlignNote = makeAssumption(AssumptionKind::LoadedPointerAlignment,
                                    {Text, std::to_string(Rg.Align)});
      return Value::pointer(regionKeyed(Key, Rg), Poly());
    }
    return Value::integer(Poly::symbol(sym(Key, Text, SymbolKind::UniformLoad)));
  }
  return Value::unknown(ReasonKind::LoadedData, {Text});
}

Value WarpInterp::load(const LValue &LV, QualType T, const Expr *Site) {
  if (LV.K == LValue::Var || LV.K == LValue::ParamField)
    reached(Site); // a register or a kernel parameter
  switch (LV.K) {
  case LValue::Var: {
    Frame &F = Frames[std::min<size_t>(LV.FrameIdx, Frames.size() - 1)];
    if (!LV.FieldPath.empty()) {
      auto It = F.Fields.find({LV.VarD, LV.FieldPath});
      if (It != F.Fields.end())
        return It->second;
      if (isIntegral(T) || T->isPointerType())
        return Value::unknown(ReasonKind::LocalStructField,
                              {LV.VarD->getName().str() + LV.FieldPath});
      return Value::opaque();
    }
    auto It = F.Vars.find(LV.VarD);
    if (It != F.Vars.end())
      return It->second;
    if (auto C = constantInt(Site))
      return Value::constant(*C);
    return Value::unknown(ReasonKind::VariableUnknown, {LV.VarD->getName().str()});
  }
  case LValue::ParamField:
    return paramFieldValue(LV.Param, LV.ParamPath, T);
  case LValue::Mem:
  case LValue::Unknown:
    access(AccessOp::Load, LV, T, Site);
    if (const VarDecl *VD = pointedVar(LV, T)) {
      // `*p` with p = &x: the value of x.
      unsigned Idx;
      if (Frame *F = frameOf(VD, &Idx))
        if (auto It = F->Vars.find(VD); It != F->Vars.end())
          return It->second;
    }
    if (std::optional<LocalPart> P = localPart(LV, T)) {
      // A per-thread array's element, a local object's field read through
      // a pointer: the value the walk knows of it.
      Frame &F = Frames[P->FrameIdx];
      const std::string Name = P->VD->getName().str() + P->Path.value_or("[...]");
      if (P->Path && (isIntegral(T) || T->isPointerType())) {
        if (P->Path->empty())
          if (auto It = F.Vars.find(P->VD); It != F.Vars.end() && !P->VD->getType().getNonReferenceType()->isArrayType() &&
                                            !P->VD->getType().getNonReferenceType()->isRecordType())
            return It->second;
        if (auto It = F.Fields.find({P->VD, *P->Path}); It != F.Fields.end())
          return It->second;
        return Value::unknown(ReasonKind::LocalArrayValue, {Name});
      }
      if (P->Path && T->isRecordType())
        return fieldsOf(F, P->VD, *P->Path);
      return isIntegral(T) || T->isPointerType()
                 ? Value::unknown(ReasonKind::LocalArrayValue, {Name})
                 : Value::opaque();
    }
    if (LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr &&
        R.Regions[LV.Ptr.Region].K == MemRegion::Local)
      return isIntegral(T) || T->isPointerType()
                 ? Value::unknown(ReasonKind::LocalArrayValue, {text(Site)})
                 : Value::opaque();
    return loadedValue(LV, T, Site);
  case LValue::None:
    if (isIntegral(T) || T->isPointerType())
      return Value::unknown(ReasonKind::ValueNotTracked, {text(Site)});
    return Value::opaque();
  }
  return Value::opaque();
}

void WarpInterp::storeLocal(const LValue &LV, const Value &V, QualType T) {
  if (LV.K == LValue::Unknown && LV.UnknownRegion) {
    // Somewhere in a local variable: none of its parts is known any more.
    auto *VD = dyn_cast_or_null<VarDecl>(R.Regions[*LV.UnknownRegion].Decl);
    unsigned Idx;
    if (R.Regions[*LV.UnknownRegion].K == MemRegion::Local && VD && frameOf(VD, &Idx))
      forgetOverlapping(Frames[Idx], VD, 0, -1);
    return;
  }
  std::optional<LocalPart> P = localPart(LV, T);
  if (!P)
    return;
  Frame &F = Frames[P->FrameIdx];
  if (!P->Path) {
    // Lanes write different elements, or a part of no one field: what it
    // overlaps is not known any more.
    if (LV.Ptr.P.isConcrete(Active) && LV.Ptr.P.isUniform(Active)) {
      const unsigned L = firstLane(Active);
      forgetOverlapping(F, P->VD, LV.Ptr.P.laneConstants()[L == WarpSize ? 0 : L],
                        T->isIncompleteType() ? -1 : Ctx.getTypeSizeInChars(T).getQuantity());
    } else {
      forgetOverlapping(F, P->VD, 0, -1);
    }
    return;
  }
  if (P->Path->empty() && !P->VD->getType().getNonReferenceType()->isArrayType() && !P->VD->getType().getNonReferenceType()->isRecordType())
    return; // the variable itself: store() assigns it (pointedVar)
  forgetOverlappingPart(F, P->VD, *P->Path, T);
  if (isIntegral(T) || T->isPointerType()) {
    auto Key = std::make_pair(P->VD, *P->Path);
    auto It = F.Fields.find(Key);
    F.Fields[Key] = It == F.Fields.end() ? V : merge(Active, V, It->second);
  } else if (T->isRecordType()) {
    setFields(F, P->VD, *P->Path, V);
  } else {
    // A floating-point value: the integers it overwrites are gone.
    if (auto Part = partAt(P->VD->getType().getNonReferenceType(), *P->Path))
      forgetOverlapping(F, P->VD, Part->first, Ctx.getTypeSizeInChars(T).getQuantity());
  }
}

void WarpInterp::store(const LValue &LV, const Value &V, QualType T,
                       const Expr *Site) {
  if (LV.K == LValue::Var || LV.K == LValue::ParamField)
    reached(Site);
  switch (LV.K) {
  case LValue::Var: {
    Value Stored = V;
    if (!isIntegral(T) && !T->isPointerType() && V.K == Value::Int)
      Stored = T->isScalarType() && uniformIdOf(V)
                   ? Value::uniformOpaque(llvm::hash_combine(std::string("conv"), uniformIdOf(V)))
                   : Value::opaque();
    if (!LV.FieldPath.empty()) {
      Frame &F = Frames[std::min<size_t>(LV.FrameIdx, Frames.size() - 1)];
      forgetOverlappingPart(F, LV.VarD, LV.FieldPath, T);
      auto Key = std::make_pair(LV.VarD, LV.FieldPath);
      auto It = F.Fields.find(Key);
      F.Fields[Key] = It == F.Fields.end() ? Stored : merge(Active, Stored, It->second);
      return;
    }
    assignVar(LV.VarD, Stored, std::min<size_t>(LV.FrameIdx, Frames.size() - 1));
    return;
  }
  case LValue::Mem:
  case LValue::Unknown:
    access(AccessOp::Store, LV, T, Site);
    storeLocal(LV, V, T);
    // A store through a pointer to a local variable (`int *p = &x; *p = 1`)
    // changes the variable in a way the walk does not follow.
    if (LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr) {
      const MemRegion &M = R.Regions[LV.Ptr.Region];
      unsigned Idx;
      if (auto *VD = dyn_cast_or_null<VarDecl>(M.Decl);
          VD && M.K == MemRegion::Local && !VD->getType()->isArrayType() &&
          !VD->getType()->isRecordType() && frameOf(VD, &Idx) && Frames[Idx].Vars.count(VD))
        assignVar(VD,
                  pointedVar(LV, T) && (isIntegral(T) || T->isPointerType())
                      ? V
                      : Value::unknown(ReasonKind::ChangedThroughPointer,
                                       {VD->getName().str(), lineOf(Ctx, Site->getBeginLoc())}),
                  Idx);
    }
    return;
  default:
    return;
  }
}

/// The `for` loop whose init declares VD, or assigns it, if any (the first
/// one listed): each function's loops are
/// listed once per kernel run (cheaper than clang's parent map, which covers
/// the whole translation unit, headers included).
const ForStmt *forDeclaring(KernelRun &R, const VarDecl *VD) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!FD || !FD->hasBody())
    return nullptr;
  if (R.ForInitScanned.insert(FD).second) {
    std::vector<const Stmt *> Work{FD->getBody()};
    while (!Work.empty()) {
      const Stmt *S = Work.back();
      Work.pop_back();
      if (auto *For = dyn_cast<ForStmt>(S)) {
        if (auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit()))
          for (const Decl *D : DS->decls())
            if (auto *V = dyn_cast<VarDecl>(D))
              R.ForInitOf[V] = For;
        // `int i; ... for (i = 0; ...)`: a counter declared before its loop.
        if (auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
            BO && BO->getOpcode() == BO_Assign)
          if (auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
            if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
              R.ForInitOf.try_emplace(V, For);
      }
      for (const Stmt *C : S->children())
        if (C)
          Work.push_back(C);
    }
  }
  auto It = R.ForInitOf.find(VD);
  return It == R.ForInitOf.end() ? nullptr : It->second;
}

void WarpInterp::access(AccessOp Op, const LValue &LV, QualType T,
                        const Expr *Site) {
  ++AccessAttempts;
  if (DryDepth || Active == 0)
    return;
  reached(Site);
  AccessEvent E;
  E.Site = Site;
  E.Statement = CurrentStmt;
  E.Function = frame().FD;
  E.Epoch = OrderingsRun;
  E.Op = Op;
  E.ContextKey = frame().ContextKey;
  E.ContextText = frame().ContextText;
  std::optional<RegionId> Rg;
  if (LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr)
    Rg = LV.Ptr.Region;
  else if (LV.K == LValue::Unknown)
    Rg = LV.UnknownRegion;
  if (Rg) {
    std::optional<MemorySpace> Space = R.Regions[*Rg].space();
    if (!Space)
      return;
    E.Space = *Space;
    if (E.Space == MemorySpace::Local) {
      // A per-thread array the compiler may keep in registers
      // (models/LocalArraysInRegisters.cpp).
      if (Models.inRegisters(dyn_cast_or_null<VarDecl>(R.Regions[*Rg].Decl), Site))
        return;
    }
  }
  // An inline-assembly instruction: the space its opcode states, where the
  // address's region is not known.
  if (PendingAsm && !Rg && PendingAsm->Space)
    E.Space = *PendingAsm->Space;
  E.Region = Rg;
  if (LV.K == LValue::Unknown)
    E.UnknownWhy = LV.Why.empty() ? makeReason(ReasonKind::AddressUnknown) : LV.Why;
  else if (LV.Ptr.K != Value::Ptr)
    E.UnknownWhy =
        LV.Ptr.Why.empty() ? makeReason(ReasonKind::AddressUnknown) : LV.Ptr.Why;
  if (!ControlUnknown.empty() && E.UnknownWhy.empty())
    E.UnknownWhy = ControlUnknown;
  if (!ShapeWhy.empty() && E.UnknownWhy.empty())
    E.UnknownWhy = ShapeWhy;
  if (PendingAsm) {
    E.Instr = PendingAsm->Kind;
    E.Matrices = PendingAsm->Matrices;
    E.SecondSide = PendingAsm->Second;
    E.Contract = PendingAsm->Contract;
    if (E.UnknownWhy.empty() && !PendingAsm->Why.empty())
      E.UnknownWhy = PendingAsm->Why;
  }
  attributeToUserCode(E);
  blameCallerChosenAddress(E);
  // Inline assembly: nvcc gives its instructions the line where the asm
  // statement's operands end (not moved when the statement is in a header
  // and the access is reported at the user's call).
  if (PendingAsm && !E.ReportAt && PendingAsm->Line)
    E.ReportLine = PendingAsm->Line;
  if (!R.Salvage.empty()) {
    E.UnknownWhy = makeReason(ReasonKind::BudgetExceeded, {R.Salvage});
    E.ContextKey.clear(); // one record per access, not one per call chain
    E.ContextText.clear();
  }
  E.AccessType = T;
  E.Active = Active;
  E.Weight = Weight;
  E.RequestsKnown = RequestsKnown;
  E.Uncounted = !RequestsKnown;
  E.RequestsWhy = RequestsWhy;
  E.Assumptions = Assumptions;
  for (const Assumption &A : Sticky)
    if (std::find(E.Assumptions.begin(), E.Assumptions.end(), A) == E.Assumptions.end())
      E.Assumptions.push_back(A);
  if (E.Space == MemorySpace::Local && Rg)
    E.Assumptions.push_back(
        makeAssumption(AssumptionKind::LocalArrayInMemory, {R.Regions[*Rg].Name}));
  if (!MaskWhys.empty())
    E.MaskWhy = MaskWhys.back();
  E.Subscripts = LV.Subscripts;
  E.ArrayDecl = LV.ArrayDecl;
  E.RowLength = LV.RowLength;
  if (auto *ME = dyn_cast<MemberExpr>(Site->IgnoreParenImpCasts())) {
    QualType BT = ME->isArrow() ? ME->getBase()->getType()->getPointeeType()
                                : ME->getBase()->getType();
    if (!BT.isNull() && BT->isRecordType() && !BT->isIncompleteType())
      E.StructSize = Ctx.getTypeSizeInChars(BT).getQuantity();
  }

  // Width of each instruction: scalars in one; aggregates, and scalars wider
  // than the space's widest instruction, in pieces of the alignment the
  // compiler can prove (at most 16 bytes, the widest LDG/STG/LDS/STS; 8 for
  // LDC): the type's, or, in shared memory, whose base the compiler places
  // 16-byte aligned, that of the element's offset (a 32-byte struct of
  // doubles is two STS.128 there, four STG.64 through a pointer).
  QualType CT = T.getCanonicalType().getNonReferenceType();
  int64_t Size = CT->isIncompleteType() ? 0 : Ctx.getTypeSizeInChars(CT).getQuantity();
  int64_t Align = CT->isIncompleteType() ? 1 : Ctx.getTypeAlignInChars(CT).getQuantity();
  if (Size <= 0)
    Size = Align = 1;
  const int64_t Widest = spaceModel(E.Space).WidestAccess;
  int64_t W = Size;
  if (!CT->isScalarType() || W > Widest) {
    const int64_t Placed = spaceModel(E.Space).PlacedAlignment;
    if (Placed > Align && LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr && E.UnknownWhy.empty())
      Align = std::max(Align, provenAlignment(LV.Ptr.P + R.Regions[*Rg].BaseOffset, Active,
                                              Placed));
    W = std::min<int64_t>({Align, Widest, Size});
    while (W > 1 && (Size % W) != 0)
      W /= 2;
  }
  unsigned Chunks = static_cast<unsigned>(Size / W);
  // A load of a box a TMA copy wrote with a swizzle.
  checkTensorCopyReader(E, LV);
  // What the compiler makes of it: a load it does not issue again
  // (models/LoadReuse.cpp), shared accesses it merges (models/SharedMerges.cpp).
  const bool Plain = Chunks == 1 && Rg && E.UnknownWhy.empty() && !CT.isVolatileQualified() &&
                     !Site->getType().isVolatileQualified();
  Models.access(E, AccessFacts{Op, Rg, LV, static_cast<unsigned>(W), Plain, Site});
  if (E.UnknownWhy.empty() && Explained.insert({Site, E.ContextKey}).second) {
    ExplainedOrder.emplace_back(Site, E.ContextKey);
    E.Because = because(Site);
  }
  for (unsigned C = 0; C < Chunks; ++C) {
    AccessEvent EC = E;
    EC.Width = static_cast<unsigned>(W);
    EC.Chunk = C;
    EC.Chunks = Chunks;
    if (E.UnknownWhy.empty())
      EC.Offset = LV.Ptr.P + Poly::constant(C * W);
    if (C)
      EC.Because.clear();
    if (EC.SinkLoop)
      SunkLoads.push_back(std::move(EC)); // issued when its loop starts (execLoop)
    else
      emit(std::move(EC));
  }
}

/// The term of the address that spreads the lanes the most: an additive term
/// of any subscript (scaled by its dimension's stride) or of the base pointer.
std::string WarpInterp::because(const Expr *Site) {
  struct Term {
    const Expr *E;
    int64_t Scale; // bytes per unit (0: the term is a pointer)
  };
  std::vector<Term> Terms;
  std::function<void(const Expr *, int64_t)> Split = [&](const Expr *E, int64_t Scale) {
    E = skipCastsAndParens(E);
    if (auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
      if (BO->getLHS()->getType()->isPointerType()) {
        QualType P = BO->getLHS()->getType()->getPointeeType();
        int64_t Size = P->isIncompleteType() ? 1 : Ctx.getTypeSizeInChars(P).getQuantity();
        Split(BO->getLHS(), 0);
        Split(BO->getRHS(), Size);
        return;
      }
      Split(BO->getLHS(), Scale);
      Split(BO->getRHS(), Scale);
      return;
    }
    if (auto *CE = dyn_cast<ExplicitCastExpr>(E))
      return Split(CE->getSubExpr(), Scale);
    Terms.push_back({E, Scale});
  };
  // Walk from the access down to its base: fields, subscripts, a dereference.
  const Expr *S = Site->IgnoreParenImpCasts();
  while (true) {
    if (auto *ME = dyn_cast<MemberExpr>(S)) {
      S = ME->getBase()->IgnoreParenImpCasts();
      continue;
    }
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
      QualType T = AS->getType();
      Split(AS->getIdx(),
            T->isIncompleteType() ? 1 : Ctx.getTypeSizeInChars(T).getQuantity());
      S = AS->getBase()->IgnoreParenImpCasts();
      continue;
    }
    if (auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_Deref) {
      S = UO->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    break;
  }
  if (!isa<DeclRefExpr>(S))
    Split(S, 0); // a computed base pointer (p + off, a call) may spread the lanes
  for (const Term &T : Terms)
    if (T.E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
      return "";
  auto SpreadOf = [&](const Term &T) -> int64_t {
    Value V;
    const LaneMask Save = Active;
    {
      DryRun Dry(*this);
      V = eval(T.E);
    }
    if (V.K != Value::Int && V.K != Value::Ptr)
      return 0;
    if (!V.P.hasUniformSymbolicPart(Save))
      return INT64_MAX;
    LaneInts C = V.P.laneConstants();
    int64_t Lo = INT64_MAX, Hi = INT64_MIN;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (laneActive(Save, L)) {
        Lo = std::min(Lo, C[L]);
        Hi = std::max(Hi, C[L]);
      }
    if (Hi < Lo)
      return 0;
    int64_t Spread = Hi - Lo, Scale = T.Scale ? T.Scale : 1;
    return Spread > INT64_MAX / Scale ? INT64_MAX : Spread * Scale;
  };
  const Term *Best = nullptr;
  int64_t BestSpread = 0;
  for (const Term &T : Terms) {
    int64_t Sp = SpreadOf(T);
    if (Sp > BestSpread) {
      BestSpread = Sp;
      Best = &T;
    }
  }
  if (!Best)
    return "";
  const Expr *Call = frame().Call;
  const std::string CallLine = Call ? lineOf(Ctx, Call->getBeginLoc()) : "";
  // `this` inside a member function (a conversion operator, an accessor):
  // the object it is called on, as the caller wrote it; nothing if that is
  // not known (the user never wrote `this` there).
  if (isa<CXXThisExpr>(skipCastsAndParens(Best->E))) {
    const Expr *Obj = nullptr;
    if (auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Call))
      Obj = MC->getImplicitObjectArgument();
    else if (auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(Call);
             OC && OC->getNumArgs() > 0 && isa<CXXMethodDecl>(OC->getDirectCallee()))
      Obj = OC->getArg(0);
    if (!Obj)
      return "";
    const FunctionDecl *FD = frame().FD;
    return "`" + text(Obj) + "`, the object " +
           (FD ? "`" + FD->getNameAsString() + "`" : std::string("the member function")) +
           " is called on at line " + CallLine;
  }
  std::string Out = "`" + text(Best->E) + "`";
  if (auto *DR = dyn_cast<DeclRefExpr>(Best->E))
    if (auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
      if (auto *PD = dyn_cast<ParmVarDecl>(VD)) {
        // A parameter of a helper: the argument the caller gave it.
        const FunctionDecl *FD = frame().FD;
        auto *CE = dyn_cast_or_null<CallExpr>(Call);
        unsigned Idx = PD->getFunctionScopeIndex();
        // An operator that is a member takes the object as argument 0.
        if (CE && isa<CXXOperatorCallExpr>(CE) && FD && isa<CXXMethodDecl>(FD))
          ++Idx;
        if (CE && FD && PD->getDeclContext() == FD && Idx < CE->getNumArgs())
          Out += " (the argument `" + text(CE->getArg(Idx)) + "` at line " + CallLine + ")";
      } else if (VD->getInit() && !VD->getType()->isReferenceType()) {
        // A variable: show how it was computed.
        Out += " (`" + VD->getName().str() + " = " + text(VD->getInit()) + "`)";
      }
    }
  return Out;
}

} // namespace interp
} // namespace coalesce

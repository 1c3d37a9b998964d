//===- Calls.cpp - Device functions entered with their arguments bound -----===//
//
// A call to a function with a visible body is executed in a new frame:
// by-value arguments are evaluated in the caller, references are aliases,
// `this` is an lvalue. Its accesses carry the call chain ("in 'load2'
// called at f.cu:30"). A function without a body gives an unknown result, and
// memory passed to it is reported as unknown.
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace coalesce {
namespace interp {

Value WarpInterp::evalCall(const CallExpr *CE, LValue *RetLV) {
  if (RetLV)
    RetLV->K = LValue::None;
  CompilerModels::Scope<const CallExpr *> Call(Models, &CompilerModels::callEnter,
                                               &CompilerModels::callExit, CE);
  if (isa<CUDAKernelCallExpr>(CE))
    return Value::unknown(ReasonKind::DynamicParallelism);
  const FunctionDecl *FD = CE->getDirectCallee();
  // A call through a function pointer known at compile time (a constexpr
  // pointer, ggml's `constexpr load_tiles_t load_tiles = ...`) calls that
  // function.
  if (!FD && !CE->getCallee()->isValueDependent()) {
    Expr::EvalResult Res;
    if (CE->getCallee()->EvaluateAsRValue(Res, Ctx) && Res.Val.isLValue() &&
        !Res.Val.getLValueBase().isNull())
      if (auto *VD = Res.Val.getLValueBase().dyn_cast<const ValueDecl *>())
        FD = dyn_cast<FunctionDecl>(VD);
  }
  // A constexpr function of constants: its value, as the compiler folds it.
  if (FD && FD->isConstexpr() && isIntegral(CE->getType()) && !CE->isValueDependent())
    if (std::optional<int64_t> C = constantOf(CE)) {
      visit(CE);
      return Value::constant(*C);
    }
  // A constexpr function whose result clang evaluates at compile time (a
  // CuTe shape or stride of static extents, a configuration struct): that
  // value, as the compiler folds it; nothing runs.
  if (FD && FD->isConstexpr() && CE->getType()->isRecordType() && !CE->isValueDependent())
    if (const std::optional<Value> &C = constantRecord(CE)) {
      visit(CE);
      return *C;
    }
  // A barrier, fence, atomic or warp exchange.
  if (ordersMemory(FD)) {
    Models.orderingCall(CE);
    ++OrderingsRun;
  }
  // Calls through lambdas and functors: operator().
  if (!FD) {
    for (const Expr *A : CE->arguments())
      eval(A);
    return Value::unknown(ReasonKind::FunctionPointerCall);
  }
  // std::move, std::forward and the like give their argument as it is
  // (clang knows them as builtins and may not instantiate their bodies);
  // std::addressof gives its address.
  switch (FD->getBuiltinID()) {
  case Builtin::BImove:
  case Builtin::BImove_if_noexcept:
  case Builtin::BIforward:
  case Builtin::BIforward_like:
  case Builtin::BIas_const:
    if (CE->getNumArgs() == 1) {
      if (RetLV) {
        *RetLV = evalLValue(CE->getArg(0));
        return Value::opaque();
      }
      return eval(CE->getArg(0));
    }
    break;
  // __builtin_assume_aligned(p, N[, offset]) is p; what it tells nvcc is
  // read where merges are modelled (models/SharedMerges.cpp).
  case Builtin::BI__builtin_assume_aligned:
    if (CE->getNumArgs() >= 2) {
      for (unsigned K = 1; K < CE->getNumArgs(); ++K)
        eval(CE->getArg(K));
      return eval(CE->getArg(0));
    }
    break;
  case Builtin::BIaddressof:
  case Builtin::BI__addressof:
    if (CE->getNumArgs() == 1)
      return addressOf(evalLValue(CE->getArg(0)));
    break;
  default:
    break;
  }
  bool Handled = false;
  Value G = evalGroupCall(CE, FD, Handled);
  if (Handled)
    return G;
  Value B = evalBuiltinCall(CE, FD, Handled);
  if (Handled)
    return B;

  llvm::SmallVector<const Expr *, 8> Args(CE->arguments().begin(),
                                          CE->arguments().end());
  std::optional<LValue> This;
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (Obj) {
      if (Obj->getType()->isPointerType()) {
        This = memAt(eval(Obj));
      } else {
        This = evalLValue(Obj);
      }
    }
  } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic() &&
        !Args.empty()) {
      // Trivial copy/move assignment of a struct: a load and a store.
      auto *MD = cast<CXXMethodDecl>(FD);
      if (OC->getOperator() == OO_Equal && MD->isTrivial() &&
          (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator())) {
        const Value Src = structValue(Args[1]);
        LValue Dst = evalLValue(Args[0]);
        if (Dst.K == LValue::Mem || Dst.K == LValue::Unknown)
          access(AccessOp::Store, Dst, Args[0]->getType(), Args[0]);
        else if (Dst.K == LValue::Var)
          setFields(Frames[std::min<size_t>(Dst.FrameIdx, Frames.size() - 1)], Dst.VarD,
                    Dst.FieldPath, Src);
        if (RetLV)
          *RetLV = Dst;
        return Value::opaque();
      }
      This = evalLValue(Args[0]);
      Args.erase(Args.begin());
    }
  }
  return callFunction(FD, CE, Args, This, RetLV);
}

Value WarpInterp::callFunction(const FunctionDecl *FD, const Expr *CE,
                               llvm::ArrayRef<const Expr *> Args,
                               std::optional<LValue> This, LValue *RetLV, Frame *DoneOut) {
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = FD->getBody(Def);
  const bool ReturnsRef = FD->getReturnType()->isReferenceType();
  const bool Tracked =
      isIntegral(FD->getReturnType()) || FD->getReturnType()->isPointerType();
  if (!Body || !Def || Frames.size() >= R.Limits.MaxCallDepth) {
    // A builtin that reads no memory (`__nvvm_isspacep_global(p)` asks
    // which space p points to) is no access to what it is given.
    const unsigned BI = FD->getBuiltinID();
    const bool NoMemory = BI && Ctx.BuiltinInfo.isConst(BI);
    for (const Expr *A : Args) {
      Value V = eval(A);
      // Memory handed to code we cannot see: say so, once per argument.
      if (!Body && !NoMemory &&
          (V.K == Value::Ptr || (V.K == Value::Unknown && V.Where))) {
        LValue LV = memAt(V);
        LV.Why = makeReason(ReasonKind::PassedToOpaqueCall, {FD->getNameAsString()});
        LV.K = LValue::Unknown;
        LV.UnknownRegion = V.K == Value::Ptr ? std::optional<RegionId>(V.Region) : V.Where;
        QualType PT = A->getType()->isPointerType() ? A->getType()->getPointeeType()
                                                    : Ctx.CharTy;
        if (PT->isVoidType() || PT->isIncompleteType())
          PT = Ctx.CharTy;
        access(AccessOp::Call, LV, PT, A);
      }
    }
    Reason Why = !Body ? makeReason(ReasonKind::OpaqueCallResult, {FD->getNameAsString()})
                       : makeReason(ReasonKind::CallTooDeep,
                                    {std::to_string(R.Limits.MaxCallDepth)});
    if (RetLV && ReturnsRef) {
      RetLV->K = LValue::Unknown;
      RetLV->Why = Why;
    }
    return Tracked ? Value::unknown(Why) : Value::opaque();
  }
  // Bind the arguments in the caller's frame, then enter the callee.
  Frame NF;
  NF.FD = Def;
  NF.Call = CE;
  NF.This = This;
  NF.Entry = Active;
  const Frame &Caller = frame();
  const std::string Site = fileLine(Ctx, CE->getBeginLoc());
  NF.ContextKey = Caller.ContextKey + "/" +
                  std::to_string(reinterpret_cast<uintptr_t>(CE));
  NF.ContextText = "in '" + Def->getNameAsString() + "' called at " + Site +
                   (Caller.ContextText.empty() ? "" : ", " + Caller.ContextText);
  const unsigned NP = Def->getNumParams();
  for (unsigned I = 0; I < NP; ++I) {
    const ParmVarDecl *PD = Def->getParamDecl(I);
    const Expr *A = I < Args.size() ? Args[I] : nullptr;
    if (!A) {
      NF.Vars[PD] = PD->hasDefaultArg() ? eval(PD->getDefaultArg())
                                        : Value::unknown(ReasonKind::MissingArgument);
      continue;
    }
    if (isGroupType(PD->getType()))
      if (std::optional<GroupInfo> G = groupOf(A))
        NF.Groups[PD] = *G;
    if (PD->getType()->isReferenceType()) {
      // A const reference to a compile-time constant is its value.
      if (PD->getType()->getPointeeType().isConstQualified())
        if (std::optional<Value> C = compileTimeValue(A)) {
          NF.Vars[PD] = *C;
          continue;
        }
      // A temporary bound to a const reference (`f(k + i)` for
      // `const int &kbx`): its value.
      if (auto *MT = dyn_cast<MaterializeTemporaryExpr>(skipCastsAndParens(A))) {
        const QualType T = PD->getType().getNonReferenceType();
        if (isIntegral(T) || T->isPointerType()) {
          NF.Vars[PD] = eval(MT->getSubExpr());
          continue;
        }
        // A temporary object lives until the caller's full expression
        // ends, so a reference the callee returns into it stays valid
        // there: it is an object of the caller's frame (evalLValue).
      }
      NF.Refs[PD] = evalLValue(A);
      if (NF.Refs[PD].K == LValue::Var || NF.Refs[PD].K == LValue::ParamField)
        reached(A); // a register or a kernel parameter
      continue;
    }
    if (PD->getType()->isRecordType()) {
      const Expr *Src = skipCastsAndParens(A);
      if (auto *CC = dyn_cast<CXXConstructExpr>(Src);
          CC && CC->getNumArgs() == 1 && CC->getConstructor()->isCopyOrMoveConstructor() &&
          skipToValue(CC->getArg(0))->isGLValue()) {
        LValue LV = evalLValue(CC->getArg(0));
        if (LV.K == LValue::Var || LV.K == LValue::ParamField)
          reached(CC->getArg(0)); // a register or a kernel parameter
        if (LV.K == LValue::ParamField) {
          NF.Refs[PD] = LV;
          continue;
        }
        // The fields of a local struct passed by value (also reached
        // through a pointer or a returned reference); a copy of memory is
        // a load of it.
        if (LV.K == LValue::Var || !isCompileTimeConstant(Ctx, CC->getArg(0)))
          setFields(NF, PD, "", recordAt(LV, CC->getArg(0)->getType(), CC->getArg(0)));
        NF.Vars[PD] = Value::opaque();
        continue;
      }
      // A struct value (a call's result, a copy of a temporary): its fields.
      const Value V = structValue(A);
      setFields(NF, PD, "", V);
      NF.Vars[PD] = Value::opaque();
      continue;
    }
    Value V = eval(A);
    NF.Vars[PD] = V;
  }
  // A call that reads only its arguments and changes nothing, made before
  // with the same values: its result (CallMemo.cpp).
  std::optional<MemoWalk> Memo;
  LValue KeptLV; // a returned reference, kept whether this caller asks or not
  std::vector<std::pair<LValue, std::string>> Changeable;
  if (!DoneOut)
    if (std::optional<std::string> Key = callMemoKey(NF, Changeable)) {
      if (std::optional<Value> Hit = memoHit(*Key, RetLV))
        return *Hit;
      Memo.emplace(*this, std::move(*Key), std::move(Changeable));
      if (ReturnsRef && !RetLV)
        RetLV = &KeptLV;
    }
  const LaneMask EntryActive = Active;
  const size_t AssumeMark = Assumptions.size();
  // A return under a branch on loaded data leaves the helper, not a loop of
  // the caller: every lane is back when the call ends (nw's `maximum(a, b,
  // c)` in a diagonal loop made the loop symbolic and its `tx <= m` guard
  // "interior", 8 wavefronts instead of the measured 4.5).
  const unsigned ExitsBefore = DivergentExits;
  // An object under construction lives in the constructor's own frame.
  if (This && This->K == LValue::Var && This->FrameIdx == Frames.size())
    NF.Vars[This->VarD] = Value::opaque();
  Frames.push_back(std::move(NF));
  DeepestFrames = std::max(DeepestFrames, Frames.size());
  if (auto *Ctor = dyn_cast<CXXConstructorDecl>(Def); Ctor && This)
    initializeMembers(Ctor, *This);
  exec(Body);
  DivergentExits = ExitsBefore;
  Assumptions.resize(std::min(Assumptions.size(), AssumeMark));
  Frame Done = std::move(Frames.back());
  Frames.pop_back();
  Active = EntryActive;
  for (const auto &O : Done.OtherRets)
    Done.RetVal = Done.RetVal ? joinReturns(*Done.RetVal, O.V, O.If, O.Uniform, EntryActive, Def)
                              : O.V;
  if (RetLV && ReturnsRef && !Done.RetLVAmbiguous.empty()) {
    RetLV->K = LValue::Unknown;
    RetLV->Why = makeReason(ReasonKind::ReferenceBranchDependent,
                            {Def->getNameAsString(), Done.RetLVAmbiguous});
  } else if (RetLV && ReturnsRef) {
    if (Done.RetLV)
      *RetLV = *Done.RetLV;
    else {
      RetLV->K = LValue::Unknown;
      RetLV->Why = makeReason(ReasonKind::ReturnedReferenceUnknown, {Def->getNameAsString()});
    }
  }
  Value Result = ReturnsRef ? Value::opaque() // read through the lvalue by the caller
                 : Done.RetVal ? *Done.RetVal
                 : Tracked     ? Value::unknown(ReasonKind::NoReturnValue, {Def->getNameAsString()})
                               : Value::opaque();
  if (Memo)
    Memo->keep(Result, ReturnsRef ? RetLV : nullptr);
  if (DoneOut)
    *DoneOut = std::move(Done);
  return Result;
}

namespace {
/// Whether a folded value holds a non-null address somewhere in it.
bool holdsAddress(const APValue &A) {
  if (A.isLValue())
    return !A.isNullPointer();
  if (A.isStruct()) {
    for (unsigned I = 0; I < A.getStructNumBases(); ++I)
      if (holdsAddress(A.getStructBase(I)))
        return true;
    for (unsigned I = 0; I < A.getStructNumFields(); ++I)
      if (holdsAddress(A.getStructField(I)))
        return true;
    return false;
  }
  if (A.isArray()) {
    for (unsigned I = 0; I < A.getArrayInitializedElts(); ++I)
      if (holdsAddress(A.getArrayInitializedElt(I)))
        return true;
    return A.hasArrayFiller() && holdsAddress(A.getArrayFiller());
  }
  if (A.isUnion())
    return A.getUnionField() && holdsAddress(A.getUnionValue());
  return A.isMemberPointer() || A.isAddrLabelDiff();
}
} // namespace

const std::optional<Value> &WarpInterp::constantRecord(const CallExpr *CE) {
  auto It = ConstantRecords.find(CE);
  if (It == ConstantRecords.end()) {
    std::optional<Value> V;
    Expr::EvalResult Res;
    // A result holding an address (`make_smem_ptr(tile)` folds to a
    // struct whose pointer is the shared array's address) is not taken:
    // the walk follows the call and keeps the pointer.
    if (CE->EvaluateAsRValue(Res, Ctx) && !Res.HasSideEffects && Res.Val.isStruct() &&
        !holdsAddress(Res.Val))
      V = valueOfConstant(Res.Val, CE->getType());
    It = ConstantRecords.try_emplace(CE, std::move(V)).first;
  }
  return It->second;
}

const VarDecl *WarpInterp::objectVar(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  const VarDecl *&VD = R.ObjectVars[T.getTypePtr()];
  if (!VD)
    VD = syntheticVar("(object)", T);
  return VD;
}

const VarDecl *WarpInterp::syntheticVar(llvm::StringRef Name, QualType T) {
  return VarDecl::Create(Ctx, Ctx.getTranslationUnitDecl(), SourceLocation(), SourceLocation(),
                         &Ctx.Idents.get(Name), T, nullptr, SC_None);
}

const VarDecl *WarpInterp::temporaryVar(const MaterializeTemporaryExpr *MT) {
  const VarDecl *&VD = R.TemporaryVars[MT];
  if (!VD)
    VD = syntheticVar("(temporary)", MT->getType().getNonReferenceType().getUnqualifiedType());
  return VD;
}

Value WarpInterp::construct(const CXXConstructExpr *CE) {
  const CXXConstructorDecl *CD = CE->getConstructor();
  // A copy of an object in memory is a load of all of it (a copy of a
  // constexpr object is no load; of a local struct, its fields).
  if (CE->getNumArgs() == 1 && CD->isCopyOrMoveConstructor())
    return structValue(CE->getArg(0));
  llvm::SmallVector<const Expr *, 8> Args(CE->arguments().begin(), CE->arguments().end());
  // An inherited constructor (`using Base::Base;`): the base's, with the
  // same arguments; the base's fields are named as the object's own. The
  // derived class's own fields, if any, are not set (unknown when read).
  if (CD->isInheritingConstructor())
    if (const CXXConstructorDecl *BC = CD->getInheritedConstructor().getConstructor())
      CD = BC;
  const FunctionDecl *Def = nullptr;
  // A trivial constructor sets nothing; arrays of objects are not followed.
  if (CD->isTrivial() || !CE->getType()->isRecordType() || !CD->getBody(Def) || !Def) {
    for (const Expr *A : Args)
      eval(A);
    return Value::opaque();
  }
  LValue This;
  This.K = LValue::Var;
  This.VarD = objectVar(CE->getType());
  This.FrameIdx = static_cast<unsigned>(Frames.size());
  Frame Done;
  callFunction(CD, CE, Args, This, nullptr, &Done);
  return fieldsOf(Done, This.VarD, "");
}

void WarpInterp::initializeMembers(const CXXConstructorDecl *Ctor, const LValue &This) {
  if (This.K != LValue::Var)
    return;
  Frame &F = Frames[std::min<size_t>(This.FrameIdx, Frames.size() - 1)];
  for (const CXXCtorInitializer *I : Ctor->inits()) {
    const Expr *Init = I->getInit();
    if (!Init)
      continue;
    if (I->isBaseInitializer() || I->isDelegatingInitializer()) {
      // A base's fields are named as the object's own (`this->x` does not
      // spell the base): they join the object's.
      const Value V = structValue(Init);
      if (I->isDelegatingInitializer())
        setFields(F, This.VarD, This.FieldPath, V);
      else if (V.Fields)
        for (const auto &[Path, FV] : *V.Fields)
          F.Fields[{This.VarD, This.FieldPath + Path}] = FV;
      continue;
    }
    const FieldDecl *FD = I->getAnyMember();
    const NamedDecl *Named = I->isIndirectMemberInitializer()
                                 ? static_cast<const NamedDecl *>(I->getIndirectMember())
                                 : FD;
    if (!FD || !Named || !Named->getIdentifier() || FD->isBitField()) {
      eval(Init);
      continue;
    }
    LValue Member = This;
    Member.FieldPath += "." + Named->getName().str();
    const QualType T = FD->getType();
    if (T->isRecordType())
      setFields(F, Member.VarD, Member.FieldPath, structValue(Init));
    else if (T->isReferenceType())
      eval(Init); // a reference member is not followed
    else if (T->isArrayType())
      eval(Init);
    else
      store(Member, eval(Init), T, Init);
  }
}

namespace {

/// The variable (or `this`) through which E designates its object: `*p`,
/// `p[i]`, `p->f`, `r.f`, `(T *)&r`, `this->x` lead to `p`, `r`, `this`.
const Expr *objectRoot(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (auto *CE = dyn_cast<CastExpr>(E))
      E = CE->getSubExpr();
    else if (auto *UO = dyn_cast<UnaryOperator>(E);
             UO && (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf))
      E = UO->getSubExpr();
    else if (auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else if (auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase();
    else if (auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MT->getSubExpr();
    else
      return E;
  }
  return nullptr;
}

/// The argument of call C that parameter PD of FD binds (`this`: PD null).
const Expr *argumentFor(const Expr *Call, const FunctionDecl *FD,
                        const ParmVarDecl *PD) {
  if (auto *CC = dyn_cast<CXXConstructExpr>(Call)) {
    if (!PD)
      return nullptr; // the object under construction is no user's expression
    const unsigned I = PD->getFunctionScopeIndex();
    return I < CC->getNumArgs() ? CC->getArg(I) : nullptr;
  }
  const auto *C = cast<CallExpr>(Call);
  const bool Method = isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic();
  if (!PD) {
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      return MC->getImplicitObjectArgument();
    if (isa<CXXOperatorCallExpr>(C) && Method && C->getNumArgs() > 0)
      return C->getArg(0);
    return nullptr;
  }
  unsigned I = PD->getFunctionScopeIndex();
  if (isa<CXXOperatorCallExpr>(C) && Method)
    ++I;
  return I < C->getNumArgs() ? C->getArg(I) : nullptr;
}

/// The parameter of FD that X is, up to what keeps the address: casts, a
/// dereference, a field, a subscript by a constant. X is the access (an
/// lvalue; a call that is the access, as __ldcs(p) and atomicAdd(p, v) are,
/// goes through its first argument) or a pointer value (Pointer). Null when
/// X computes an address of its own (an index from threadIdx, a local
/// variable).
const ParmVarDecl *addressParameter(const ASTContext &Ctx, const Expr *X,
                                    const FunctionDecl *FD, bool Pointer) {
  while (X) {
    X = X->IgnoreParens();
    if (auto *CE = dyn_cast<CastExpr>(X)) {
      // An lvalue-to-rvalue read of a pointer variable keeps the pointer;
      // other casts between pointers keep the address.
      if (CE->getCastKind() == CK_LValueToRValue || CE->getCastKind() == CK_NoOp ||
          CE->getCastKind() == CK_BitCast || CE->getCastKind() == CK_ReinterpretMemberPointer ||
          isa<ExplicitCastExpr>(CE)) {
        X = CE->getSubExpr();
        continue;
      }
      return nullptr;
    }
    if (!Pointer) {
      if (auto *ME = dyn_cast<MemberExpr>(X)) {
        Pointer = ME->isArrow();
        X = ME->getBase();
        continue;
      }
      if (auto *AS = dyn_cast<ArraySubscriptExpr>(X)) {
        if (!AS->getIdx()->isValueDependent() && AS->getIdx()->isIntegerConstantExpr(Ctx)) {
          Pointer = AS->getBase()->getType()->isPointerType();
          X = AS->getBase();
          continue;
        }
        return nullptr;
      }
      if (auto *UO = dyn_cast<UnaryOperator>(X); UO && UO->getOpcode() == UO_Deref) {
        Pointer = true;
        X = UO->getSubExpr();
        continue;
      }
      // (Not a call that returns a reference: its body chose the address.)
      if (auto *CE = dyn_cast<CallExpr>(X); CE && !CE->isGLValue() && CE->getNumArgs() > 0 &&
                                            CE->getArg(0)->getType()->isPointerType()) {
        Pointer = true;
        X = CE->getArg(0);
        continue;
      }
    }
    if (auto *DR = dyn_cast<DeclRefExpr>(X)) {
      auto *PD = dyn_cast<ParmVarDecl>(DR->getDecl());
      if (!PD || PD->getDeclContext() != FD)
        return nullptr;
      // An object by reference (the access reads the caller's object) or
      // a pointer (the access goes through the caller's pointer).
      const QualType T = PD->getType();
      if (Pointer ? T->isPointerType() : T->isReferenceType())
        return PD;
      return nullptr;
    }
    return nullptr;
  }
  return nullptr;
}

} // namespace

void WarpInterp::blameCallerChosenAddress(AccessEvent &E) {
  if (E.ReportAt || !E.Site || Frames.size() < 2)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  const Expr *X = E.Site;
  bool Pointer = false;
  for (size_t Level = Frames.size() - 1; Level >= 1; --Level) {
    const Frame &F = Frames[Level];
    if (!F.Call || !F.FD)
      break;
    const ParmVarDecl *PD = addressParameter(Ctx, X, F.FD, Pointer);
    if (!PD)
      break;
    const Expr *Arg = argumentFor(F.Call, F.FD, PD);
    if (!Arg || SM.isInSystemHeader(SM.getExpansionLoc(Arg->getBeginLoc())))
      break;
    if (!E.BlameAt)
      E.BlameHelper = F.FD->getNameAsString(); // the helper the access is in
    E.BlameAt = Arg;
    X = Arg;
    Pointer = PD->getType()->isPointerType();
  }
}

void WarpInterp::attributeToUserCode(AccessEvent &E) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto InSystem = [&](const Stmt *S) {
    return SM.isInSystemHeader(SM.getExpansionLoc(S->getBeginLoc()));
  };
  if (!E.Site || !InSystem(E.Site))
    return;
  // The innermost call from the user's code into system headers.
  size_t U = Frames.size();
  while (U-- > 1)
    if (Frames[U].Call && !InSystem(Frames[U].Call))
      break;
  if (U == 0)
    return; // the kernel itself is in a system header
  // Follow the object back through parameters and `this`, frame by frame.
  const Expr *X = E.Site;
  size_t Level = Frames.size() - 1;
  while (X && Level >= U) {
    const Expr *Root = objectRoot(X);
    const Frame &F = Frames[Level];
    X = nullptr;
    if (Root && isa<CXXThisExpr>(Root)) {
      X = argumentFor(F.Call, F.FD, nullptr);
    } else if (auto *DR = dyn_cast_or_null<DeclRefExpr>(Root)) {
      auto *PD = dyn_cast<ParmVarDecl>(DR->getDecl());
      if (PD && PD->getDeclContext() == F.FD &&
          (PD->getType()->isReferenceType() || PD->getType()->isPointerType()))
        X = argumentFor(F.Call, F.FD, PD);
    }
    --Level;
  }
  E.ReportAt = X && Level == U - 1 ? X : Frames[U].Call;
  E.ContextText = Frames[U - 1].ContextText;
}

} // namespace interp
} // namespace coalesce

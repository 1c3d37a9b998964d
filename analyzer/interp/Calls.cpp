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

using namespace clang;

namespace coalesce {
namespace interp {

Value WarpInterp::evalCall(const CallExpr *CE, LValue *RetLV) {
  if (RetLV)
    RetLV->K = LValue::None;
  if (isa<CUDAKernelCallExpr>(CE))
    return Value::unknown(ReasonKind::DynamicParallelism);
  const FunctionDecl *FD = CE->getDirectCallee();
  // Calls through lambdas and functors: operator().
  if (!FD) {
    for (const Expr *A : CE->arguments())
      eval(A);
    return Value::unknown(ReasonKind::FunctionPointerCall);
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
        LValue Src = evalLValue(Args[1]);
        if (Src.K == LValue::Mem || Src.K == LValue::Unknown)
          access(AccessOp::Load, Src, Args[1]->getType(), Args[1]);
        else
          eval(Args[1]);
        LValue Dst = evalLValue(Args[0]);
        if (Dst.K == LValue::Mem || Dst.K == LValue::Unknown)
          access(AccessOp::Store, Dst, Args[0]->getType(), Args[0]);
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

Value WarpInterp::callFunction(const FunctionDecl *FD, const CallExpr *CE,
                               llvm::ArrayRef<const Expr *> Args,
                               std::optional<LValue> This, LValue *RetLV) {
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = FD->getBody(Def);
  const bool ReturnsRef = FD->getReturnType()->isReferenceType();
  const bool Tracked =
      isIntegral(FD->getReturnType()) || FD->getReturnType()->isPointerType();
  if (!Body || !Def || Frames.size() >= R.Limits.MaxCallDepth) {
    for (const Expr *A : Args) {
      Value V = eval(A);
      // Memory handed to code we cannot see: say so, once per argument.
      if (!Body && (V.K == Value::Ptr || (V.K == Value::Unknown && V.Where))) {
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
      NF.Refs[PD] = evalLValue(A);
      continue;
    }
    if (PD->getType()->isRecordType()) {
      const Expr *Src = skipCastsAndParens(A);
      if (auto *CC = dyn_cast<CXXConstructExpr>(Src);
          CC && CC->getNumArgs() == 1 && CC->getConstructor()->isCopyOrMoveConstructor()) {
        LValue LV = evalLValue(CC->getArg(0));
        if (LV.K == LValue::ParamField) {
          NF.Refs[PD] = LV;
          continue;
        }
        if (LV.K == LValue::Mem || LV.K == LValue::Unknown)
          access(AccessOp::Load, LV, CC->getArg(0)->getType(), CC->getArg(0));
        NF.Vars[PD] = Value::opaque();
        continue;
      }
    }
    Value V = eval(A);
    NF.Vars[PD] = V;
  }
  const LaneMask EntryActive = Active;
  const size_t AssumeMark = Assumptions.size();
  Frames.push_back(std::move(NF));
  exec(Body);
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
  if (ReturnsRef)
    return Value::opaque(); // read through the lvalue by the caller
  if (Done.RetVal)
    return *Done.RetVal;
  return Tracked ? Value::unknown(ReasonKind::NoReturnValue, {Def->getNameAsString()})
                 : Value::opaque();
}

} // namespace interp
} // namespace coalesce

//===- HostCalls.cpp - Host interpreter: calls, known functions, launches --===//

#include "launch/HostInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cmath>

using namespace clang;

namespace coalesce {
namespace host {

namespace {

bool isDim3(QualType T) {
  if (const auto *RD = T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl())
    return RD->getName() == "dim3";
  return false;
}

/// The name a library function is known by: `cudaLaunchKernel_ptsz` (the
/// per-thread default stream spelling) is cudaLaunchKernel; `__builtin_ceil`
/// is ceil.
std::string knownName(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier())
    return "";
  llvm::StringRef N = FD->getName();
  N.consume_front("__builtin_");
  for (const char *Suffix : {"_ptsz", "_spt"})
    N.consume_back(Suffix);
  return N.str();
}

} // namespace

/// std::forward and std::move: their argument, as it is.
bool isStdForwardOrMove(const FunctionDecl *FD) {
  return FD && FD->isInStdNamespace() && FD->getNumParams() == 1 &&
         (knownName(FD) == "forward" || knownName(FD) == "move");
}

namespace {

bool containsGoto(const Stmt *S) {
  if (!S)
    return false;
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (containsGoto(C))
      return true;
  return false;
}

/// The value a launch record keeps: what is known, and unknown without the
/// symbols (two unknowns are the same launch configuration).
HVal normalise(const HVal &V) {
  switch (V.K) {
  case HVal::Int:
  case HVal::Float:
  case HVal::Ptr:
  case HVal::Func:
    return V;
  case HVal::Agg: {
    HVal R = V;
    for (HVal &E : R.Elems)
      E = normalise(E);
    return R;
  }
  default:
    return HVal::unknown();
  }
}

} // namespace

LaunchApi launchApiOf(const CallExpr *E) {
  if (!E || isa<CUDAKernelCallExpr>(E))
    return LaunchApi::None;
  const std::string N = knownName(E->getDirectCallee());
  if (N == "cudaLaunchKernel" || N == "cudaLaunchCooperativeKernel") {
    if (E->getNumArgs() >= 4 && isDim3(E->getArg(1)->getType()) &&
        isDim3(E->getArg(2)->getType()))
      return N == "cudaLaunchKernel" ? LaunchApi::Kernel : LaunchApi::Cooperative;
    return LaunchApi::None;
  }
  if (N == "cudaLaunchKernelExC" && E->getNumArgs() == 3)
    return LaunchApi::ExC;
  if (N == "cudaLaunchKernelEx" && E->getNumArgs() >= 2)
    return LaunchApi::ExVariadic;
  return LaunchApi::None;
}

const FunctionDecl *directKernel(const Expr *Site) {
  const Expr *F = nullptr;
  if (const auto *KE = dyn_cast<CUDAKernelCallExpr>(Site)) {
    F = KE->getCallee();
  } else if (const auto *CE = dyn_cast<CallExpr>(Site)) {
    switch (launchApiOf(CE)) {
    case LaunchApi::Kernel:
    case LaunchApi::Cooperative: F = CE->getArg(0); break;
    case LaunchApi::ExC:
    case LaunchApi::ExVariadic: F = CE->getArg(1); break;
    case LaunchApi::None: return nullptr;
    }
  }
  while (F) {
    F = F->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(F); UO && UO->getOpcode() == UO_AddrOf) {
      F = UO->getSubExpr();
      continue;
    }
    break;
  }
  if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(F))
    if (const auto *FD = dyn_cast<FunctionDecl>(DR->getDecl()))
      if (FD->hasAttr<CUDAGlobalAttr>())
        return FD->getDefinition() ? FD->getDefinition() : FD;
  return nullptr;
}

bool HostInterp::canEnter(const FunctionDecl *FD) const {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return false;
  if (Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      Def->hasAttr<CUDAGlobalAttr>())
    return false;
  if (Frames.size() >= Limits.MaxCallDepth)
    return false;
  for (const Frame &F : Frames)
    if (F.Fn == Def)
      return false; // recursion: not followed
  return true;
}

HVal HostInterp::evalCall(const CallExpr *E, State &St) {
  if (isa<CUDAKernelCallExpr>(E) || launchApiOf(E) != LaunchApi::None)
    return launch(E, St);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
    std::vector<const Expr *> Rest(OC->arg_begin() + (OC->getNumArgs() ? 1 : 0), OC->arg_end());
    if (MD && MD->getParent()->isLambda() && OC->getOperator() == OO_Call) {
      HVal Obj = resolve(eval(OC->getArg(0), St), St.Bound);
      return callFunction(MD, E, Rest, std::nullopt, Obj.K == HVal::Lambda ? &Obj : nullptr, St);
    }
    if (MD && (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
        (MD->isTrivial() || MD->isDefaulted()) && OC->getNumArgs() == 2) {
      HVal V = resolve(eval(OC->getArg(1), St), St.Bound);
      LValue LV = lvalue(OC->getArg(0), St);
      assign(LV, V, St, E);
      return HVal::unknown();
    }
    if (MD && MD->isInstance()) {
      LValue Obj = lvalue(OC->getArg(0), St);
      return callFunction(MD, E, Rest, Obj.L, nullptr, St,
                          !Obj.L && Obj.Target.K == HVal::Ptr);
    }
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    std::vector<const Expr *> Args(MC->arg_begin(), MC->arg_end());
    std::optional<Loc> This;
    bool InAllocation = false; // the object is in memory no variable is
    if (MD && MD->isInstance() && Obj) {
      if (Obj->getType()->isPointerType()) {
        HVal P = resolve(eval(Obj, St), St.Bound);
        if (P.K == HVal::Addr)
          This = P.A;
        InAllocation = P.K == HVal::Ptr;
      } else {
        LValue LV = lvalue(Obj, St);
        This = LV.L;
        InAllocation = !LV.L && LV.Target.K == HVal::Ptr;
      }
    }
    if (MD && MD->getParent()->isLambda() && This) {
      HVal Closure = read(St, *This, QualType());
      return callFunction(MD, E, Args, std::nullopt,
                          Closure.K == HVal::Lambda ? &Closure : nullptr, St);
    }
    return callFunction(MD, E, Args, This, nullptr, St, InAllocation);
  }
  const FunctionDecl *FD = E->getDirectCallee();
  if (!FD) {
    HVal Callee = resolve(eval(E->getCallee(), St), St.Bound);
    if (Callee.K == HVal::Func)
      FD = static_cast<const FunctionDecl *>(Callee.Decl);
  }
  std::vector<const Expr *> Args(E->arg_begin(), E->arg_end());
  return callFunction(FD, E, Args, std::nullopt, nullptr, St);
}

HVal HostInterp::callFunction(const FunctionDecl *FD, const CallExpr *Call,
                              std::vector<const Expr *> Args, std::optional<Loc> This,
                              const HVal *Closure, State &St, bool ObjectInAllocation) {
  // Arguments: a reference parameter gets the location, any other the value.
  std::vector<HVal> Vals;
  std::vector<std::optional<Loc>> Locs;
  std::vector<HVal> Targets;
  for (size_t I = 0; I < Args.size(); ++I) {
    QualType PT = FD && I < FD->getNumParams() ? FD->getParamDecl(I)->getType() : QualType();
    if (!PT.isNull() && PT->isReferenceType()) {
      LValue LV = lvalue(Args[I], St);
      Locs.push_back(LV.L);
      Vals.push_back(LV.L ? read(St, *LV.L, PT.getNonReferenceType())
                          : HVal::unknown(LV.Target.Why));
      Targets.push_back(LV.Target);
    } else {
      HVal V = resolve(eval(Args[I], St), St.Bound);
      if (!PT.isNull())
        V = convert(V, Args[I]->getType(), PT);
      Vals.push_back(std::move(V));
      Locs.push_back(std::nullopt);
      Targets.push_back(HVal::unknown());
    }
  }
  if (!St.Live)
    return HVal::unknown();
  if (Call)
    if (std::optional<HVal> K = tensorMapEncode(Call, Vals, St))
      return *K;
  if (FD)
    if (std::optional<HVal> K = knownFunction(FD, Call, Vals, St))
      return *K;
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  const bool NeedsObject = MD && MD->isInstance() && !MD->getParent()->isLambda();
  bool OutOfShare = false;
  if (canEnter(FD) && (!NeedsObject || This)) {
    if (std::optional<HVal> R = enterWithinShare(FD, Vals, Locs, This, Closure, St))
      return *R;
    OutOfShare = true; // too long to follow: as a call not entered
  }

  // Not entered: the function may change what it gets the address of.
  const std::string Name = FD ? "'" + FD->getNameAsString() + "'" : "a function pointer";
  const Expr *At = Call ? static_cast<const Expr *>(Call) : nullptr;
  const WhyId W =
      At ? why(OutOfShare ? ReasonKind::HostSetByCallAtCut : ReasonKind::HostSetByCallAt,
               {Name, where(At)})
         : why(OutOfShare ? ReasonKind::HostSetByCallCut : ReasonKind::HostSetByCall, {Name});
  // An object this walk cannot locate may be any variable whose address
  // escaped, unless it lies in an allocation (no variable does) or the
  // method is const.
  bool Escaped = !FD || (NeedsObject && !This && !ObjectInAllocation && !MD->isConst());
  for (size_t I = 0; I < Args.size(); ++I) {
    QualType PT = FD && I < FD->getNumParams() ? FD->getParamDecl(I)->getType()
                                               : Args[I]->getType();
    if (PT->isReferenceType()) {
      QualType Pointee = PT.getNonReferenceType();
      if (Pointee.isConstQualified())
        continue;
      if (Locs[I])
        havocLoc(St, *Locs[I], Pointee, W);
      else if (Targets[I].K == HVal::Addr)
        havocLoc(St, Targets[I].A, QualType(), W);
      else if (Targets[I].K != HVal::Ptr)
        Escaped = true;
    } else if (Vals[I].K == HVal::Addr) {
      QualType Pointee = PT->isPointerType() ? PT->getPointeeType() : QualType();
      if (!Pointee.isNull() && Pointee.isConstQualified())
        continue;
      havocLoc(St, Vals[I].A, Pointee, W);
    }
  }
  if (NeedsObject && This && !MD->isConst())
    havocLoc(St, *This, QualType(), W);
  const bool System = FD && Ctx.getSourceManager().isInSystemHeader(FD->getLocation());
  if (!System || Escaped)
    havocEscaped(St, W);
  if (FD && FD->isNoReturn())
    St.Live = false;
  QualType RT = FD ? FD->getReturnType() : (Call ? Call->getType() : QualType());
  if (!RT.isNull() && RT->isPointerType())
    return HVal::pointer(0); // taken as the start of an allocation
  return HVal::unknown(At ? why(ReasonKind::HostReturnedAt, {Name, where(At)})
                          : why(ReasonKind::HostReturned, {Name}));
}

std::optional<HVal> HostInterp::enterWithinShare(const FunctionDecl *FD,
                                                 const std::vector<HVal> &ArgVals,
                                                 const std::vector<std::optional<Loc>> &ArgLocs,
                                                 std::optional<Loc> This, const HVal *Closure,
                                                 State &St) {
  const FunctionDecl *Def = nullptr;
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD);
  // A function on the way to a launch is followed with the whole budget.
  if (!FD->hasBody(Def) || !Def || reachesLaunch(Def->getBody()))
    return enter(FD, ArgVals, ArgLocs, This, Closure, Ctor, St);
  // Any other call gets at most a quarter of what the walk around it has
  // left (a CPU reference, a fill of a host tensor): one that needs more
  // is abandoned, its effects those of a call not entered, so that the
  // walk goes on to the launches after it.
  const uint64_t Saved = LoopLimit;
  const uint64_t Used = Steps - RootStart;
  uint64_t Budget = Used < Limits.StepsPerRoot ? (Limits.StepsPerRoot - Used) / 4 : 0;
  if (Saved != ~uint64_t(0))
    Budget = std::min<uint64_t>(Budget, Saved > Steps ? (Saved - Steps) / 4 : 0);
  const uint64_t Mine = Steps + Budget;
  State Before = St;
  const size_t FrameMark = Frames.size(), SeenMark = Seen.size();
  LoopLimit = Mine;
  try {
    HVal R = enter(FD, ArgVals, ArgLocs, This, Closure, Ctor, St);
    LoopLimit = Saved;
    return R;
  } catch (const GiveUp &G) {
    LoopLimit = Saved;
    if (G.Limit != Mine)
      throw;
    St = std::move(Before);
    Frames.resize(FrameMark);
    Seen.resize(SeenMark);
    return std::nullopt;
  }
}

HVal HostInterp::enter(const FunctionDecl *FD, std::vector<HVal> ArgVals,
                       std::vector<std::optional<Loc>> ArgLocs, std::optional<Loc> This,
                       const HVal *Closure, const CXXConstructorDecl *Ctor, State &St) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return HVal::unknown();
  Frame F;
  F.Fn = Def;
  F.This = This;
  F.Base = static_cast<uint32_t>(St.Cells.size());
  auto HG = HasGoto.find(Def);
  if (HG == HasGoto.end())
    HG = HasGoto.emplace(Def, containsGoto(Def->getBody())).first;
  if (HG->second)
    collectModifiedVars(Def->getBody(), F.Volatile, &F.Volatile);
  auto SavedVars = std::move(St.Vars);
  St.Vars.clear();
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    if (P->getType()->isReferenceType() && I < ArgLocs.size() && ArgLocs[I]) {
      St.Vars[P] = *ArgLocs[I];
      continue;
    }
    HVal V = I < ArgVals.size() ? ArgVals[I] : HVal::unknown();
    if (I >= ArgVals.size())
      if (const Expr *D = P->getDefaultArg(); D && !P->hasUnparsedDefaultArg())
        V = eval(D, St);
    St.Vars[P] = Loc{allocCell(St, std::move(V)), nullptr, {}};
  }
  if (Closure && Closure->K == HVal::Lambda) {
    const auto *LE = static_cast<const LambdaExpr *>(Closure->Decl);
    size_t I = 0;
    for (const LambdaCapture &C : LE->captures()) {
      const Loc &Ref = Closure->Refs[I];
      const bool HasRef = Ref.Cell != ~0u || Ref.Global;
      if (C.capturesThis()) {
        if (C.getCaptureKind() != LCK_StarThis && HasRef)
          F.This = Ref;
        else if (C.getCaptureKind() == LCK_StarThis)
          F.This = Loc{allocCell(St, Closure->Elems[I]), nullptr, {}};
      } else if (C.capturesVariable()) {
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar())) {
          if (C.getCaptureKind() == LCK_ByRef) {
            if (HasRef)
              St.Vars[VD] = Ref;
          } else {
            St.Vars[VD] = Loc{allocCell(St, Closure->Elems[I]), nullptr, {}};
          }
        }
      }
      ++I;
    }
  }

  struct PopFrame {
    std::vector<Frame> &Frames;
    ~PopFrame() { Frames.pop_back(); }
  } Pop{Frames};
  Frames.push_back(std::move(F));

  if (Ctor && This) {
    const QualType T = Ctor->getThisType()->getPointeeType();
    const size_t N = aggregateSize(T);
    for (const CXXCtorInitializer *Init : Ctor->inits()) {
      HVal V = eval(Init->getInit(), St);
      const FieldDecl *Field = Init->getMember();
      if (!Field || !N || Field->getParent() != Ctor->getParent())
        continue;
      Loc L = *This;
      L.Path.push_back(PathStep{Field->getFieldIndex(), static_cast<uint32_t>(N), false});
      write(St, L, convert(resolve(V, St.Bound), Init->getInit()->getType(), Field->getType()));
    }
  }
  exec(Def->getBody(), St);

  Frame &Done = Frames.back();
  const WhyId W = why(ReasonKind::HostReturnsDiffer, {Def->getNameAsString()});
  std::vector<State> Outs = std::move(Done.Returns);
  std::vector<HVal> Values = std::move(Done.ReturnValues);
  const bool FellOff = St.Live;
  if (St.Live)
    Outs.push_back(std::move(St));
  HVal Result;
  for (size_t I = 0; I < Values.size(); ++I)
    Result = I ? coalesce::host::join(Result, Values[I], W) : Values[I];
  if (FellOff && !Values.empty())
    Result = HVal::unknown(W);
  const uint32_t Base = Done.Base;
  St = joinAll(Outs, W);
  if (St.Cells.size() > Base)
    St.Cells.resize(Base);
  St.AddrTaken.erase(St.AddrTaken.lower_bound(Base), St.AddrTaken.end());
  St.ConstCells.erase(St.ConstCells.lower_bound(Base), St.ConstCells.end());
  St.Vars = std::move(SavedVars);
  if (Result.K == HVal::Addr && !Result.A.Global && Result.A.Cell >= Base)
    Result = HVal::unknown(W); // the address of a local of the callee
  return Result;
}

HVal HostInterp::evalConstruct(const CXXConstructExpr *E, State &St) {
  const CXXConstructorDecl *CD = E->getConstructor();
  const CXXRecordDecl *RD = CD->getParent();
  const QualType T = E->getType();
  const size_t N = aggregateSize(T);
  if (RD->getName() == "dim3" && N == 3) {
    if (CD->isCopyOrMoveConstructor() && E->getNumArgs() >= 1)
      return resolve(eval(E->getArg(0), St), St.Bound);
    HVal R = HVal::aggregate(3);
    for (HVal &X : R.Elems)
      X = HVal::integer(1);
    IntType U32{32, false, false};
    for (unsigned I = 0; I < E->getNumArgs() && I < 3; ++I) {
      HVal V = resolve(eval(E->getArg(I), St), St.Bound);
      if (E->getArg(I)->getType()->isRecordType()) { // dim3(uint3)
        if (V.K == HVal::Agg && V.Elems.size() == 3)
          return V;
        return HVal::unknown(V.Why);
      }
      R.Elems[I] = toInt(V, U32);
    }
    return R;
  }
  if (CD->isCopyOrMoveConstructor() && (CD->isTrivial() || CD->isDefaulted()) &&
      E->getNumArgs() >= 1)
    return resolve(eval(E->getArg(0), St), St.Bound);
  if (CD->isDefaultConstructor() && (CD->isTrivial() || CD->isDefaulted())) {
    if (!N)
      return HVal::unknown();
    HVal R = E->requiresZeroInitialization()
                 ? zeroOf(T)
                 : HVal::aggregate(N, why(ReasonKind::HostUninitialisedField,
                                              {RD->getNameAsString()}));
    size_t I = 0;
    for (const FieldDecl *FD : RD->fields()) {
      // zeroOf() gives no fields past its depth: nothing to set then.
      if (R.K != HVal::Agg || I >= R.Elems.size())
        break;
      if (const Expr *Init = FD->getInClassInitializer()) {
        Expr::EvalResult ER;
        if (!Init->isValueDependent() && Init->EvaluateAsRValue(ER, Ctx))
          R.Elems[I] = convert(fromAPValue(ER.Val, Init->getType()), Init->getType(),
                               FD->getType());
        else
          R.Elems[I] = HVal::unknown(whyAt(ReasonKind::HostDefaultMemberInit, Init));
      }
      ++I;
    }
    return R;
  }
  std::vector<const Expr *> Args(E->arg_begin(), E->arg_end());
  if (canEnter(CD)) {
    HVal Init = N ? (E->requiresZeroInitialization()
                         ? zeroOf(T)
                         : HVal::aggregate(N, why(ReasonKind::HostUninitialisedField,
                                                      {RD->getNameAsString()})))
                  : HVal::unknown();
    Loc This{allocCell(St, std::move(Init)), nullptr, {}};
    (void)callFunction(CD, nullptr, Args, This, nullptr, St);
    if (!St.Live)
      return HVal::unknown();
    return read(St, This, QualType());
  }
  (void)callFunction(CD, nullptr, Args, std::nullopt, nullptr, St);
  return HVal::unknown(why(ReasonKind::HostConstructorObject, {RD->getNameAsString()}));
}

namespace {

bool isRecordNamed(QualType T, llvm::StringRef Name) {
  const RecordDecl *RD = T.getCanonicalType()->getAsRecordDecl();
  return RD && RD->getName() == Name;
}

bool isEnumNamed(QualType T, llvm::StringRef Name) {
  const auto *ET = T.getCanonicalType()->getAs<EnumType>();
  return ET && ET->getDecl()->getName() == Name;
}

/// The mark in a CUtensorMap's first opaque word that the walk's encode
/// model wrote it (its second word: the index of the encoding).
constexpr int64_t EncodedMapMark = 0x434f414c45534345; // "COALESCE"

/// The step from a CUtensorMap to opaque word K.
void toMapWord(Loc &L, uint32_t K) {
  L.Path.push_back(PathStep{0, 1, false});
  L.Path.push_back(PathStep{K, 16, true});
}

} // namespace

std::optional<HVal> HostInterp::tensorMapEncode(const CallExpr *Call, const std::vector<HVal> &Vals,
                                                State &St) {
  QualType CT = Call->getCallee()->getType();
  if (CT->isPointerType())
    CT = CT->getPointeeType();
  const auto *FT = CT->getAs<FunctionProtoType>();
  // cuTensorMapEncodeTiled's parameters (cuda.h): the map, the data type,
  // the rank, the address, globalDim, globalStrides, boxDim,
  // elementStrides, interleave, swizzle, L2 promotion, OOB fill.
  if (!FT || FT->getNumParams() != 12 || Vals.size() != 12 ||
      !FT->getParamType(0)->isPointerType() ||
      !isRecordNamed(FT->getParamType(0)->getPointeeType(), "CUtensorMap_st") ||
      !isEnumNamed(FT->getParamType(8), "CUtensorMapInterleave_enum") ||
      !isEnumNamed(FT->getParamType(9), "CUtensorMapSwizzle_enum"))
    return std::nullopt;
  auto Int = [&](const HVal &V) -> std::optional<int64_t> {
    HVal R = resolve(V, St.Bound);
    if (R.K == HVal::Int && R.I >= INT64_MIN && R.I <= INT64_MAX)
      return static_cast<int64_t>(R.I);
    return std::nullopt;
  };
  TensorMapEncoding E;
  E.At = where(Call);
  E.DataType = Int(Vals[1]);
  E.Rank = Int(Vals[2]);
  E.Interleave = Int(Vals[8]);
  E.Swizzle = Int(Vals[9]);
  if (const HVal A = resolve(Vals[3], St.Bound); A.K == HVal::Ptr && A.I >= INT64_MIN &&
                                                  A.I <= INT64_MAX)
    E.AddressOffset = static_cast<int64_t>(A.I);
  const int64_t Rank = E.Rank && *E.Rank >= 1 && *E.Rank <= 5 ? *E.Rank : 0;
  // The arrays: N elements from where the pointer points (an array of the
  // walk's, element by element).
  auto Array = [&](size_t I, int64_t N) {
    std::vector<std::optional<int64_t>> Out(static_cast<size_t>(std::max<int64_t>(N, 0)));
    const HVal P = resolve(Vals[I], St.Bound);
    if (P.K != HVal::Addr || P.A.Path.empty() || !P.A.Path.back().Elem)
      return Out;
    const QualType ElemT = FT->getParamType(I)->getPointeeType();
    for (int64_t K = 0; K < N; ++K) {
      Loc L = P.A;
      if (L.Path.back().Index + K >= L.Path.back().Count)
        break;
      L.Path.back().Index += static_cast<uint32_t>(K);
      Out[K] = Int(read(St, L, ElemT));
    }
    return Out;
  };
  E.GlobalDims = Array(4, Rank);
  E.GlobalStrides = Array(5, Rank - 1);
  E.Box = Array(6, Rank);
  E.ElementStrides = Array(7, Rank);
  const WhyId W = why(ReasonKind::HostSetByCallAt, {"'cuTensorMapEncodeTiled'", E.At});
  const HVal M = resolve(Vals[0], St.Bound);
  if (M.K == HVal::Addr) {
    havocLoc(St, M.A, FT->getParamType(0)->getPointeeType(), W);
    Loc Mark = M.A, Index = M.A;
    toMapWord(Mark, 0);
    toMapWord(Index, 1);
    write(St, Mark, HVal::integer(EncodedMapMark));
    write(St, Index, HVal::integer(static_cast<Wide>(EncodedMaps.size())));
    EncodedMaps.push_back(std::move(E));
  } else if (M.K != HVal::Ptr) {
    havocEscaped(St, W);
  }
  // Whether the driver accepts the map is its to say: the result (a
  // CUresult) is not known.
  return HVal::unknown(why(ReasonKind::HostReturnedAt, {"'cuTensorMapEncodeTiled'", E.At}));
}

std::optional<TensorMapEncoding> HostInterp::encodingOf(const HVal &Map) const {
  if (Map.K != HVal::Agg || Map.Elems.size() != 1 || Map.Elems[0].K != HVal::Agg ||
      Map.Elems[0].Elems.size() != 16)
    return std::nullopt;
  const HVal &Mark = Map.Elems[0].Elems[0], &Index = Map.Elems[0].Elems[1];
  if (Mark.K != HVal::Int || Mark.I != EncodedMapMark || Index.K != HVal::Int || Index.I < 0 ||
      Index.I >= static_cast<Wide>(EncodedMaps.size()))
    return std::nullopt;
  return EncodedMaps[static_cast<size_t>(Index.I)];
}

std::optional<HVal> HostInterp::knownFunction(const FunctionDecl *FD, const CallExpr *Call,
                                              const std::vector<HVal> &Vals, State &St) {
  const bool Library = !FD->hasBody() || FD->getBuiltinID() ||
                       Ctx.getSourceManager().isInSystemHeader(FD->getLocation());
  if (!Library)
    return std::nullopt;
  const std::string N = knownName(FD);
  if (N.empty())
    return std::nullopt;
  auto Arg = [&](size_t I) { return I < Vals.size() ? resolve(Vals[I], St.Bound) : HVal(); };
  const QualType RT = FD->getReturnType();
  auto Result = [&](HVal V) { return convert(std::move(V), RT, RT); };
  // CUDA's make_int2, make_uint3, make_float4, ...: the vector of its
  // arguments, field by field.
  if (llvm::StringRef(N).starts_with("make_") && Call)
    if (const RecordDecl *RD = RT->getAsRecordDecl()) {
      std::vector<const FieldDecl *> Fields(RD->field_begin(), RD->field_end());
      if (Fields.size() == Vals.size() && Call->getNumArgs() == Vals.size()) {
        HVal R = HVal::aggregate(Fields.size());
        for (size_t I = 0; I < Fields.size(); ++I)
          R.Elems[I] = convert(Arg(I), Call->getArg(I)->getType(), Fields[I]->getType());
        return R;
      }
    }
  if ((N == "min" || N == "max" || N == "fmin" || N == "fmax" || N == "fminf" ||
       N == "fmaxf") &&
      Vals.size() == 2) {
    HVal A = Arg(0), B = Arg(1);
    const bool Min = N[1] == 'i' || (N.size() > 2 && N[2] == 'i');
    if (A.K == HVal::Int && B.K == HVal::Int)
      return Result(HVal::integer(Min ? std::min(A.I, B.I) : std::max(A.I, B.I)));
    if (A.K == HVal::Float && B.K == HVal::Float)
      return Result(HVal::floating(Min ? std::fmin(A.F, B.F) : std::fmax(A.F, B.F)));
    return HVal::unknown(A.K != HVal::Int && A.K != HVal::Float ? A.Why : B.Why);
  }
  if ((N == "abs" || N == "labs" || N == "llabs") && Vals.size() == 1) {
    HVal A = Arg(0);
    if (A.K == HVal::Int)
      return Result(HVal::integer(A.I < 0 ? -A.I : A.I));
    return HVal::unknown(A.Why);
  }
  static const char *const FloatFns[] = {"ceil", "floor", "trunc", "round", "sqrt", "fabs"};
  for (const char *F : FloatFns) {
    if (Vals.size() != 1 || (N != F && N != std::string(F) + "f"))
      continue;
    HVal A = Arg(0);
    if (A.K == HVal::Int)
      A = HVal::floating(static_cast<double>(A.I));
    if (A.K != HVal::Float)
      return HVal::unknown(A.Why);
    const std::string S = F;
    double X = S == "ceil" ? std::ceil(A.F)
               : S == "floor" ? std::floor(A.F)
               : S == "trunc" ? std::trunc(A.F)
               : S == "round" ? std::round(A.F)
               : S == "sqrt" ? std::sqrt(A.F)
                             : std::fabs(A.F);
    return Result(HVal::floating(X));
  }
  if (N == "expect" && Vals.size() == 2) // __builtin_expect
    return Arg(0);
  if (isStdForwardOrMove(FD) && Vals.size() == 1)
    return Arg(0);
  // Device properties that are the same on every GPU CUDA 13 supports
  // (compute capability 7.5 to 12.x); the others stay unknown.
  if ((N == "cudaGetDeviceProperties" || N == "cudaGetDeviceProperties_v2") &&
      Vals.size() >= 1 && Vals[0].K == HVal::Addr) {
    const Loc &P = Vals[0].A;
    QualType PT = FD->getParamDecl(0)->getType()->getPointeeType();
    havocLoc(St, P, PT, why(ReasonKind::HostDeviceProperty));
    const auto *RD = PT->getAsRecordDecl();
    const size_t Count = aggregateSize(PT);
    if (!RD || !Count)
      return HVal::unknown();
    struct Known {
      const char *Field;
      std::vector<int64_t> Values;
    };
    static const Known Same[] = {{"maxThreadsPerBlock", {1024}},
                                 {"warpSize", {32}},
                                 {"maxThreadsDim", {1024, 1024, 64}},
                                 {"maxGridSize", {2147483647, 65535, 65535}}};
    for (const FieldDecl *F : RD->getDefinition()->fields())
      for (const Known &K : Same) {
        if (F->getName() != K.Field)
          continue;
        Loc L = P;
        L.Path.push_back(PathStep{F->getFieldIndex(), static_cast<uint32_t>(Count), false});
        if (K.Values.size() == 1) {
          write(St, L, HVal::integer(K.Values[0]));
          continue;
        }
        if (aggregateSize(F->getType()) != K.Values.size())
          continue;
        for (size_t I = 0; I < K.Values.size(); ++I) {
          Loc E = L;
          E.Path.push_back(PathStep{static_cast<uint32_t>(I),
                                    static_cast<uint32_t>(K.Values.size()), true});
          write(St, E, HVal::integer(K.Values[I]));
        }
      }
    return HVal::unknown(why(ReasonKind::HostDeviceProperties));
  }
  if (N == "cudaDeviceGetAttribute" && Vals.size() >= 2 && Vals[0].K == HVal::Addr && Call &&
      Call->getNumArgs() >= 2) {
    std::optional<int64_t> V;
    if (const auto *DR = dyn_cast<DeclRefExpr>(skipToValue(Call->getArg(1))))
      if (const auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl())) {
        llvm::StringRef A = EC->getName();
        if (A == "cudaDevAttrMaxThreadsPerBlock" || A == "cudaDevAttrMaxBlockDimX" ||
            A == "cudaDevAttrMaxBlockDimY")
          V = 1024;
        else if (A == "cudaDevAttrMaxBlockDimZ")
          V = 64;
        else if (A == "cudaDevAttrWarpSize")
          V = 32;
        else if (A == "cudaDevAttrMaxGridDimX")
          V = 2147483647;
        else if (A == "cudaDevAttrMaxGridDimY" || A == "cudaDevAttrMaxGridDimZ")
          V = 65535;
      }
    if (V)
      write(St, Vals[0].A, HVal::integer(*V));
    else
      havocLoc(St, Vals[0].A, QualType(), why(ReasonKind::HostDeviceAttribute));
    return HVal::unknown(why(ReasonKind::HostDeviceAttributeResult));
  }
  return std::nullopt;
}

std::optional<Dim3> HostInterp::dim3Of(const HVal &V) const {
  if (V.K != HVal::Agg || V.Elems.size() != 3)
    return std::nullopt;
  int64_t C[3];
  for (size_t I = 0; I < 3; ++I) {
    if (V.Elems[I].K != HVal::Int || V.Elems[I].I > INT64_MAX || V.Elems[I].I < INT64_MIN)
      return std::nullopt;
    C[I] = static_cast<int64_t>(V.Elems[I].I);
  }
  return Dim3{C[0], C[1], C[2]};
}

HVal HostInterp::launch(const Expr *Site, State &St) {
  const auto *CE = cast<CallExpr>(Site);
  HVal Callee, Grid, Block;
  std::vector<HVal> Args;
  const FunctionDecl *K = nullptr;
  auto KernelOf = [&](const HVal &V) -> const FunctionDecl * {
    if (V.K == HVal::Func)
      if (const auto *FD = static_cast<const FunctionDecl *>(V.Decl);
          FD && FD->hasAttr<CUDAGlobalAttr>())
        return FD;
    return directKernel(Site);
  };
  // The kernel's arguments through `void *args[] = {&a, &b}`.
  auto FromArray = [&](const HVal &P) {
    std::vector<HVal> Out;
    if (!K)
      return Out;
    for (unsigned I = 0; I < K->getNumParams(); ++I) {
      HVal A;
      if (P.K == HVal::Addr && (I == 0 || (!P.A.Path.empty() && P.A.Path.back().Elem &&
                                           P.A.Path.back().Index + I < P.A.Path.back().Count))) {
        Loc L = P.A;
        if (I)
          L.Path.back().Index += I;
        HVal Ptr = resolve(read(St, L, Ctx.VoidPtrTy), St.Bound);
        if (Ptr.K == HVal::Addr) {
          QualType PT = K->getParamDecl(I)->getType();
          A = resolve(read(St, Ptr.A, PT), St.Bound);
          if ((PT->isIntegralOrEnumerationType() && A.K != HVal::Int && A.K != HVal::Sym) ||
              (PT->isPointerType() && A.K != HVal::Ptr && A.K != HVal::Addr))
            A = HVal::unknown();
        }
      }
      Out.push_back(std::move(A));
    }
    return Out;
  };
  // gridDim and blockDim of a cudaLaunchConfig_t given by address.
  auto FromConfig = [&](const HVal &P, QualType PtrType) {
    if (P.K != HVal::Addr || !PtrType->isPointerType())
      return;
    QualType T = PtrType->getPointeeType();
    HVal C = resolve(read(St, P.A, T), St.Bound);
    const auto *RD = T->getAsRecordDecl();
    if (C.K != HVal::Agg || !RD)
      return;
    for (const FieldDecl *F : RD->getDefinition()->fields()) {
      if (F->getFieldIndex() >= C.Elems.size())
        break;
      if (F->getName() == "gridDim")
        Grid = C.Elems[F->getFieldIndex()];
      else if (F->getName() == "blockDim")
        Block = C.Elems[F->getFieldIndex()];
    }
  };
  if (const auto *KE = dyn_cast<CUDAKernelCallExpr>(CE)) {
    Callee = resolve(eval(KE->getCallee(), St), St.Bound);
    if (const CallExpr *Cfg = KE->getConfig()) {
      std::vector<HVal> CV;
      for (const Expr *A : Cfg->arguments())
        CV.push_back(resolve(eval(A, St), St.Bound));
      // cudaConfigureCall(grid, block, ...) on the host;
      // cudaLaunchDevice(func, params, grid, block, ...) for a launch
      // compiled for the device (-fgpu-rdc lambdas).
      unsigned G = 0;
      for (unsigned I = 0; I + 1 < Cfg->getNumArgs(); ++I)
        if (isDim3(Cfg->getArg(I)->getType())) {
          G = I;
          break;
        }
      if (Cfg->getNumArgs() >= 2) {
        Grid = CV[G];
        Block = CV[G + 1];
      }
    }
    for (const Expr *A : KE->arguments())
      Args.push_back(resolve(eval(A, St), St.Bound));
    K = KernelOf(Callee);
  } else {
    std::vector<HVal> V;
    for (const Expr *A : CE->arguments())
      V.push_back(resolve(eval(A, St), St.Bound));
    switch (launchApiOf(CE)) {
    case LaunchApi::Kernel:
    case LaunchApi::Cooperative:
      Callee = V[0];
      K = KernelOf(V[0]);
      Grid = V[1];
      Block = V[2];
      Args = FromArray(V[3]);
      break;
    case LaunchApi::ExC:
      Callee = V[1];
      K = KernelOf(V[1]);
      FromConfig(V[0], CE->getArg(0)->getType());
      Args = FromArray(V[2]);
      break;
    case LaunchApi::ExVariadic:
      Callee = V[1];
      K = KernelOf(V[1]);
      FromConfig(V[0], CE->getArg(0)->getType());
      for (size_t I = 2; I < V.size(); ++I) {
        QualType PT = K && I - 2 < K->getNumParams() ? K->getParamDecl(I - 2)->getType()
                                                      : QualType();
        Args.push_back(convert(V[I], CE->getArg(I)->getType(), PT));
      }
      break;
    case LaunchApi::None:
      break;
    }
  }
  if (K)
    record(Site, HVal::function(K), Grid, Block, std::move(Args), St);
  else
    recordCalleeSplit(Site, Callee, St);
  return HVal::unknown(why(ReasonKind::HostLaunchResult));
}

void HostInterp::recordCalleeSplit(const Expr *Site, const HVal &Callee, State &St) {
  // A function pointer that holds one kernel on one side of a branch and
  // another on the other (`if (softcap == 0) k = kern<false>; else k =
  // kern<true>;`): the join does not know it, but each side does, so the
  // walk runs again once per side (splitOnBranches), as for a block shape
  // that differs between the sides. Until then a placeholder without a
  // kernel marks the site.
  if (!Recording || !St.Live || Callee.K != HVal::Unknown)
    return;
  auto It = BranchOf.find(Callee.Why);
  if (It == BranchOf.end())
    return;
  for (const LaunchSeen &S : Seen)
    if (S.Site == Site && !S.Kernel && S.SplitAt == It->second)
      return;
  LaunchSeen L;
  L.Site = Site;
  L.SplitAt = It->second;
  L.Choice = forcedText();
  Seen.push_back(std::move(L));
}

void HostInterp::record(const Expr *Site, const HVal &Callee, const HVal &Grid,
                        const HVal &Block, std::vector<HVal> Args, State &St) {
  if (!Recording || !St.Live || Callee.K != HVal::Func)
    return;
  const auto *K = static_cast<const FunctionDecl *>(Callee.Decl);
  if (const FunctionDecl *Def = K->getDefinition())
    K = Def;
  LaunchSeen L;
  L.Site = Site;
  L.Kernel = K;
  HVal G = resolve(Grid, St.Bound), B = resolve(Block, St.Bound);
  L.Grid = dim3Of(G);
  L.Block = dim3Of(B);
  if (!L.Block) {
    WhyId W = B.Why;
    if (B.K == HVal::Agg)
      for (const HVal &C : B.Elems)
        if (C.K != HVal::Int) {
          W = C.Why;
          break;
        }
    if (B.K == HVal::Agg && B.Elems.size() == 3)
      for (size_t I = 0; I < 3; ++I)
        if (B.Elems[I].K == HVal::Int && B.Elems[I].I >= 1 && B.Elems[I].I <= MaxThreadsPerBlock)
          L.BlockPart[I] = static_cast<int64_t>(B.Elems[I].I);
    if (W)
      L.BlockWhy = wrapReason(ReasonKind::BlockDependsOn, {}, whyReason(W));
    if (auto It = BranchOf.find(W); It != BranchOf.end())
      L.SplitAt = It->second;
  }
  L.Choice = forcedText();
  Args.resize(K->getNumParams());
  L.ArgMin.resize(Args.size());
  L.ArgMinAt.resize(Args.size());
  for (size_t I = 0; I < Args.size(); ++I) {
    const HVal A = resolve(Args[I], St.Bound);
    Args[I] = normalise(A);
    if (A.K != HVal::Sym || A.Mul <= 0)
      continue;
    auto It = St.Lower.find(A.S);
    if (It == St.Lower.end())
      continue;
    const Wide Min = A.Mul * It->second + A.I;
    if (Min < A.Lo || Min > A.Hi)
      continue;
    L.ArgMin[I] = Min;
    L.ArgMinAt[I] = LowerAt[A.S];
  }
  for (unsigned I = 0; I < Args.size() && I < K->getNumParams(); ++I)
    if (isRecordNamed(K->getParamDecl(I)->getType(), "CUtensorMap_st"))
      if (std::optional<TensorMapEncoding> E = encodingOf(Args[I]))
        L.TensorMaps[I] = std::move(*E);
  L.Args = std::move(Args);
  L.Stated = StatedUsed;
  for (const LaunchSeen &S : Seen)
    if (sameLaunch(S, L))
      return;
  Seen.push_back(std::move(L));
}

bool sameLaunch(const LaunchSeen &A, const LaunchSeen &B) {
  return A.Site == B.Site && A.Kernel == B.Kernel && A.Grid == B.Grid && A.Block == B.Block &&
         std::equal(std::begin(A.BlockPart), std::end(A.BlockPart), std::begin(B.BlockPart)) &&
         A.Args == B.Args && A.ArgMin == B.ArgMin && A.Choice == B.Choice;
}

} // namespace host
} // namespace coalesce

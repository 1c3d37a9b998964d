//===- Launches.cpp - Kernels, their launch sites and launch shapes -------===//

#include "launch/Launches.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;

namespace coalesce {

namespace {

bool isDim3(QualType T) {
  if (const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl())
    return RD->getName() == "dim3";
  return false;
}

/// A template instantiation with an error in its code: clang drops its body.
bool failedInstantiation(const FunctionDecl *FD) {
  return FD->isInvalidDecl() && FD->getTemplateInstantiationPattern() != nullptr;
}

bool checkedArith(BinaryOperatorKind Op, int64_t A, int64_t B, int64_t &Out) {
  switch (Op) {
  case BO_Add: return !__builtin_add_overflow(A, B, &Out);
  case BO_Sub: return !__builtin_sub_overflow(A, B, &Out);
  case BO_Mul: return !__builtin_mul_overflow(A, B, &Out);
  case BO_Div: if (!B) return false; Out = A / B; return true;
  case BO_Rem: if (!B) return false; Out = A % B; return true;
  case BO_Shl: if (B < 0 || B > 62) return false; Out = A << B; return true;
  case BO_Shr: if (B < 0 || B > 62) return false; Out = A >> B; return true;
  case BO_And: Out = A & B; return true;
  case BO_Or: Out = A | B; return true;
  case BO_Xor: Out = A ^ B; return true;
  case BO_LT: Out = A < B; return true;
  case BO_GT: Out = A > B; return true;
  case BO_LE: Out = A <= B; return true;
  case BO_GE: Out = A >= B; return true;
  case BO_EQ: Out = A == B; return true;
  case BO_NE: Out = A != B; return true;
  case BO_LAnd: Out = A && B; return true;
  case BO_LOr: Out = A || B; return true;
  default: return false;
  }
}

} // namespace

bool HostEvaluator::isModified(const VarDecl *VD, const FunctionDecl *Fn) {
  const FunctionDecl *Owner = Fn;
  if (auto *DC = VD->getParentFunctionOrMethod())
    if (auto *F = dyn_cast<FunctionDecl>(DC))
      Owner = F;
  if (!Owner || !Owner->getBody())
    return true;
  auto It = Modified.find(Owner);
  if (It == Modified.end()) {
    std::set<const VarDecl *> S;
    collectModifiedVars(Owner->getBody(), S);
    It = Modified.emplace(Owner, std::move(S)).first;
  }
  return It->second.count(VD) != 0;
}

std::optional<int64_t> HostEvaluator::evalInt(const Expr *E, const FunctionDecl *Fn,
                                              unsigned Depth) {
  if (!E || Depth > 64)
    return std::nullopt;
  E = skipToValue(E);
  if (!E->isValueDependent() && !E->isTypeDependent()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx, Expr::SE_NoSideEffects) && R.Val.isInt())
      return R.Val.getInt().getExtValue();
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (auto *PD = dyn_cast_or_null<ParmVarDecl>(VD))
      return throughCallSites<int64_t>(PD, Depth, [&](const Expr *A, const FunctionDecl *C) {
        return evalInt(A, C, Depth + 1);
      });
    if (!VD || !VD->getInit())
      return std::nullopt;
    if (VD->hasGlobalStorage() && !VD->getType().isConstQualified())
      return std::nullopt;
    if (!VD->hasGlobalStorage() && isModified(VD, Fn))
      return std::nullopt;
    if (VD->getType()->isReferenceType())
      return std::nullopt;
    return evalInt(VD->getInit(), Fn, Depth + 1);
  }
  if (auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return evalInt(BO->getRHS(), Fn, Depth + 1);
    auto A = evalInt(BO->getLHS(), Fn, Depth + 1);
    auto B = evalInt(BO->getRHS(), Fn, Depth + 1);
    int64_t Out;
    if (A && B && checkedArith(BO->getOpcode(), *A, *B, Out))
      return Out;
    return std::nullopt;
  }
  if (auto *UO = dyn_cast<UnaryOperator>(E)) {
    auto A = evalInt(UO->getSubExpr(), Fn, Depth + 1);
    if (!A)
      return std::nullopt;
    switch (UO->getOpcode()) {
    case UO_Minus: return -*A;
    case UO_Plus: return *A;
    case UO_Not: return ~*A;
    case UO_LNot: return !*A;
    default: return std::nullopt;
    }
  }
  if (auto *CO = dyn_cast<ConditionalOperator>(E)) {
    auto C = evalInt(CO->getCond(), Fn, Depth + 1);
    if (!C)
      return std::nullopt;
    return evalInt(*C ? CO->getTrueExpr() : CO->getFalseExpr(), Fn, Depth + 1);
  }
  if (auto *CE = dyn_cast<ExplicitCastExpr>(E))
    return evalInt(CE->getSubExpr(), Fn, Depth + 1);
  if (auto *ME = dyn_cast<MemberExpr>(E)) {
    if (auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
        FD && !isDim3(ME->getBase()->getType()) && !ME->isArrow())
      return evalField(ME->getBase(), FD, Fn, Depth + 1);
    if (isDim3(ME->getBase()->getType())) {
      auto D = evalDim3(ME->getBase(), Fn, Depth + 1);
      if (!D)
        return std::nullopt;
      llvm::StringRef F = ME->getMemberDecl()->getName();
      if (F == "x") return D->X;
      if (F == "y") return D->Y;
      if (F == "z") return D->Z;
    }
    return std::nullopt;
  }
  if (auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (FD && Call->getNumArgs() == 2 &&
        (FD->getName() == "min" || FD->getName() == "max")) {
      auto A = evalInt(Call->getArg(0), Fn, Depth + 1);
      auto B = evalInt(Call->getArg(1), Fn, Depth + 1);
      if (A && B)
        return FD->getName() == "min" ? std::min(*A, *B) : std::max(*A, *B);
    }
    return std::nullopt;
  }
  if (auto *CC = dyn_cast<CXXConstructExpr>(E))
    if (CC->getNumArgs() == 1)
      return evalInt(CC->getArg(0), Fn, Depth + 1);
  return std::nullopt;
}

std::optional<Dim3> HostEvaluator::evalDim3(const Expr *E, const FunctionDecl *Fn,
                                            unsigned Depth) {
  if (!E || Depth > 64)
    return std::nullopt;
  E = skipToValue(E);
  if (auto *CC = dyn_cast<CXXConstructExpr>(E)) {
    if (CC->getNumArgs() == 1 && isDim3(CC->getArg(0)->getType()))
      return evalDim3(CC->getArg(0), Fn, Depth + 1);
    if (CC->getNumArgs() >= 1 && CC->getNumArgs() <= 3 &&
        !isDim3(CC->getArg(0)->getType())) {
      int64_t V[3] = {1, 1, 1};
      for (unsigned I = 0; I < CC->getNumArgs(); ++I) {
        auto X = evalInt(CC->getArg(I), Fn, Depth + 1);
        if (!X)
          return std::nullopt;
        V[I] = *X;
      }
      if (!isDim3(CC->getType()))
        return Dim3{V[0], 1, 1};
      return Dim3{V[0], V[1], V[2]};
    }
    if (CC->getNumArgs() == 0 && isDim3(CC->getType()))
      return Dim3{1, 1, 1};
    return std::nullopt;
  }
  if (auto *IL = dyn_cast<InitListExpr>(E)) {
    int64_t V[3] = {1, 1, 1};
    for (unsigned I = 0; I < IL->getNumInits() && I < 3; ++I) {
      auto X = evalInt(IL->getInit(I), Fn, Depth + 1);
      if (!X)
        return std::nullopt;
      V[I] = *X;
    }
    return Dim3{V[0], V[1], V[2]};
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (auto *PD = dyn_cast_or_null<ParmVarDecl>(VD))
      return throughCallSites<Dim3>(PD, Depth, [&](const Expr *A, const FunctionDecl *C) {
        return evalDim3(A, C, Depth + 1);
      });
    if (!VD)
      return std::nullopt;
    if (VD->hasGlobalStorage() && !VD->getType().isConstQualified())
      return std::nullopt;
    if (!VD->hasGlobalStorage() && isModified(VD, Fn))
      return std::nullopt;
    if (!VD->getInit())
      return isDim3(VD->getType()) ? std::optional<Dim3>(Dim3{1, 1, 1}) : std::nullopt;
    return evalDim3(VD->getInit(), Fn, Depth + 1);
  }
  if (!isDim3(E->getType()))
    if (auto X = evalInt(E, Fn, Depth + 1))
      return Dim3{*X, 1, 1};
  return std::nullopt;
}

std::optional<int64_t> HostEvaluator::evalPtrOffset(const Expr *E,
                                                    const FunctionDecl *Fn,
                                                    unsigned Depth) {
  if (!E || Depth > 64)
    return std::nullopt;
  E = skipToValue(E);
  if (auto *CE = dyn_cast<ExplicitCastExpr>(E))
    return evalPtrOffset(CE->getSubExpr(), Fn, Depth + 1);
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD || !VD->getType()->isPointerType())
      return std::nullopt;
    if (auto *PD = dyn_cast<ParmVarDecl>(VD))
      return throughCallSites<int64_t>(PD, Depth, [&](const Expr *A, const FunctionDecl *C) {
        return evalPtrOffset(A, C, Depth + 1);
      });
    if (VD->hasGlobalStorage())
      return std::nullopt;
    if (isModified(VD, Fn))
      return std::nullopt;
    if (!VD->getInit())
      return 0; // allocated through its address (cudaMalloc(&p, ...))
    const Expr *Init = skipToValue(VD->getInit());
    if (isa<CXXNullPtrLiteralExpr>(Init) || isa<GNUNullExpr>(Init) ||
        isa<IntegerLiteral>(Init))
      return 0;
    // A pointer returned by a function (an allocation helper) is taken as
    // the start of an allocation, like a kernel's pointer parameters.
    if (isa<CallExpr>(Init))
      return 0;
    return evalPtrOffset(Init, Fn, Depth + 1);
  }
  if (auto *BO = dyn_cast<BinaryOperator>(E)) {
    if ((BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
        BO->getLHS()->getType()->isPointerType()) {
      auto Base = evalPtrOffset(BO->getLHS(), Fn, Depth + 1);
      auto N = evalInt(BO->getRHS(), Fn, Depth + 1);
      QualType P = BO->getLHS()->getType()->getPointeeType();
      if (!Base || !N || P->isIncompleteType())
        return std::nullopt;
      int64_t Size = Ctx.getTypeSizeInChars(P).getQuantity();
      return *Base + (BO->getOpcode() == BO_Add ? 1 : -1) * *N * Size;
    }
    return std::nullopt;
  }
  if (auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      if (auto *AS = dyn_cast<ArraySubscriptExpr>(skipToValue(UO->getSubExpr()))) {
        auto Base = evalPtrOffset(AS->getBase(), Fn, Depth + 1);
        auto N = evalInt(AS->getIdx(), Fn, Depth + 1);
        if (!Base || !N)
          return std::nullopt;
        return *Base + *N * Ctx.getTypeSizeInChars(AS->getType()).getQuantity();
      }
    return std::nullopt;
  }
  return std::nullopt;
}

template <class T, class F>
std::optional<T> HostEvaluator::throughCallSites(const ParmVarDecl *PD, unsigned Depth,
                                                 F Eval) {
  auto *Fn = dyn_cast_or_null<FunctionDecl>(PD->getDeclContext());
  if (!Fn || Depth > 16)
    return std::nullopt;
  auto It = CallSites.find(Fn);
  if (It == CallSites.end() || It->second.empty())
    return std::nullopt;
  const unsigned Index = PD->getFunctionScopeIndex();
  std::optional<T> Agreed;
  for (const auto &[Call, Caller] : It->second) {
    if (Index >= Call->getNumArgs())
      return std::nullopt;
    std::optional<T> V = Eval(Call->getArg(Index), Caller);
    if (!V || (Agreed && !(*V == *Agreed)))
      return std::nullopt;
    Agreed = V;
  }
  return Agreed;
}

std::optional<int64_t> HostEvaluator::evalField(const Expr *Base, const FieldDecl *Field,
                                                const FunctionDecl *Fn, unsigned Depth) {
  if (!Base || Depth > 64 || !Field->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Base = skipToValue(Base);
  if (auto *CC = dyn_cast<CXXConstructExpr>(Base);
      CC && CC->getNumArgs() == 1 && CC->getConstructor()->isCopyOrMoveConstructor())
    return evalField(CC->getArg(0), Field, Fn, Depth + 1);
  if (auto *IL = dyn_cast<InitListExpr>(Base)) {
    unsigned I = Field->getFieldIndex();
    if (IL->getNumInits() > I)
      return evalInt(IL->getInit(I), Fn, Depth + 1);
    return std::nullopt;
  }
  if (auto *ME = dyn_cast<MemberExpr>(Base))
    (void)ME; // nested structs: not followed
  auto *DR = dyn_cast<DeclRefExpr>(Base);
  if (!DR)
    return std::nullopt;
  auto *VD = dyn_cast<VarDecl>(DR->getDecl());
  if (!VD)
    return std::nullopt;
  if (auto *PD = dyn_cast<ParmVarDecl>(VD))
    return throughCallSites<int64_t>(PD, Depth, [&](const Expr *A, const FunctionDecl *C) {
      return evalField(A, Field, C, Depth + 1);
    });
  if (VD->hasGlobalStorage() || isModified(VD, Fn) || !VD->getInit())
    return std::nullopt;
  return evalField(VD->getInit(), Field, Fn, Depth + 1);
}

std::string kernelName(const FunctionDecl *FD) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintingPolicy PP(FD->getASTContext().getLangOpts());
  PP.SuppressScope = false;
  FD->getNameForDiagnostic(OS, PP, /*Qualified=*/true);
  return OS.str();
}

namespace {

class Finder : public RecursiveASTVisitor<Finder> {
public:
  Finder(ASTContext &Ctx, HostEvaluator &HE) : Ctx(Ctx), HE(HE) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    // Declarations of system headers (the CUDA toolkit, the C++ library)
    // hold no kernel we report, and walking them would deserialize the whole
    // precompiled preamble: skip them where they start, at namespace scope.
    if (D && !isa<TranslationUnitDecl>(D) && D->getDeclContext() &&
        D->getDeclContext()->isFileContext() &&
        Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
      return true;
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Stack.push_back(FD);
    bool R = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Stack.pop_back();
    return R;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    // An invalid kernel (a parameter of an unknown type) is listed too: the
    // analysis reports it as not analysed, with the error (ast/ClangErrors.h).
    // So is an instantiation clang gave up on (it has no body).
    if (!FD->hasAttr<CUDAGlobalAttr>() || FD->isDependentContext() ||
        !(FD->doesThisDeclarationHaveABody() || failedInstantiation(FD)))
      return true;
    if (Ctx.getSourceManager().isInSystemHeader(FD->getLocation()))
      return true;
    kernel(FD);
    return true;
  }

  bool VisitCallExpr(CallExpr *E) {
    if (isa<CUDAKernelCallExpr>(E) || Stack.empty() || E->isValueDependent())
      return true;
    if (const FunctionDecl *Callee = E->getDirectCallee())
      if (!isa<CXXMethodDecl>(Callee) || cast<CXXMethodDecl>(Callee)->isStatic())
        HE.CallSites[Callee].emplace_back(E, Stack.back());
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    if (E->isTypeDependent() || E->isValueDependent() || Stack.empty())
      return true;
    Launches.push_back({E, Stack.back()});
    return true;
  }

  /// Launches are evaluated after the traversal, when every call site of
  /// every launch helper is known.
  void evaluateLaunches() {
    for (auto &[E, Fn] : Launches)
      evaluateLaunch(E, Fn);
  }

  void evaluateLaunch(CUDAKernelCallExpr *E, const FunctionDecl *Fn) {
    if (Ctx.getSourceManager().isInSystemHeader(E->getBeginLoc()))
      return;
    const FunctionDecl *K = E->getDirectCallee();
    if (!K)
      return;
    if (const FunctionDecl *Def = K->getDefinition())
      K = Def;
    if (!K->hasAttr<CUDAGlobalAttr>())
      return;
    KernelDef &KD = kernel(K);
    KernelLaunch L;
    L.Call = E;
    SourcePos P = sourcePos(Ctx, E->getBeginLoc());
    std::string Where = P.File;
    size_t Slash = Where.rfind('/');
    if (Slash != std::string::npos)
      Where = Where.substr(Slash + 1);
    Where += ":" + std::to_string(P.Line);
    LaunchConfig &C = L.Facts.Config;
    C.Sites.push_back(P);
    const CallExpr *Cfg = E->getConfig();
    // The grid and block are the configuration call's first two dim3
    // arguments: cudaConfigureCall(grid, block, ...) for a host launch, but
    // cudaLaunchDevice(func, params, grid, block, ...) for a launch that
    // clang compiles for the device (one in a lambda, with -fgpu-rdc).
    if (Cfg && Cfg->getNumArgs() >= 2) {
      unsigned GridArg = 0;
      for (unsigned I = 0; I + 1 < Cfg->getNumArgs(); ++I)
        if (isDim3(Cfg->getArg(I)->getType())) {
          GridArg = I;
          break;
        }
      auto Grid = HE.evalDim3(Cfg->getArg(GridArg), Fn);
      auto Block = HE.evalDim3(Cfg->getArg(GridArg + 1), Fn);
      if (Grid && Grid->X > 0 && Grid->Y > 0 && Grid->Z > 0)
        C.Grid = Grid;
      if (Block) {
        std::string Bad = validateBlockShape(*Block);
        if (Bad.empty()) {
          C.Block = *Block;
          C.BlockKnown = true;
          C.Source = "the launch at " + Where;
        } else {
          L.Problem = "the launch at " + Where + " has block shape " +
                      Block->str() + ": " + Bad;
        }
      }
      if (!C.BlockKnown)
        C.Source = "the launch at " + Where +
                   " (its block shape is not known statically)";
    }
    for (unsigned I = 0; I < E->getNumArgs() && I < K->getNumParams(); ++I) {
      const ParmVarDecl *PD = K->getParamDecl(I);
      QualType T = PD->getType().getCanonicalType();
      if (T->isIntegralOrEnumerationType()) {
        if (auto V = HE.evalInt(E->getArg(I), Fn)) {
          L.Facts.IntArgs[PD] = *V;
          C.Args.emplace_back(PD->getName().str(), *V);
        }
      } else if (T->isPointerType()) {
        if (auto Off = HE.evalPtrOffset(E->getArg(I), Fn)) {
          L.Facts.PtrOffsets[PD] = *Off;
          if (*Off)
            C.PointerOffsets.emplace_back(PD->getName().str(), *Off);
        }
      } else if (const RecordDecl *RD = T->getAsRecordDecl()) {
        // Integer fields of a struct passed by value (width, pitch, ...).
        for (const FieldDecl *FD : RD->fields())
          if (auto V = HE.evalField(E->getArg(I), FD, Fn)) {
            std::string Path = "." + FD->getName().str();
            L.Facts.FieldArgs[{PD, Path}] = *V;
            C.Args.emplace_back(PD->getName().str() + Path, *V);
          }
      }
    }
    KD.Launches.push_back(std::move(L));
  }

  std::vector<KernelDef> take() { return std::move(Kernels); }

private:
  KernelDef &kernel(const FunctionDecl *FD) {
    if (const FunctionDecl *Def = FD->getDefinition())
      FD = Def;
    for (KernelDef &K : Kernels)
      if (K.FD == FD)
        return K;
    KernelDef K;
    K.FD = FD->getDefinition() ? FD->getDefinition() : FD;
    K.Name = kernelName(FD);
    if (auto *LB = FD->getAttr<CUDALaunchBoundsAttr>())
      if (auto V = HE.evalInt(LB->getMaxThreads(), nullptr))
        K.MaxThreadsHint = *V;
    Kernels.push_back(std::move(K));
    return Kernels.back();
  }

  ASTContext &Ctx;
  HostEvaluator &HE;
  std::vector<const FunctionDecl *> Stack;
  std::vector<KernelDef> Kernels;
  std::vector<std::pair<CUDAKernelCallExpr *, const FunctionDecl *>> Launches;
};

} // namespace

std::vector<KernelDef> findKernels(ASTContext &Ctx) {
  HostEvaluator HE(Ctx);
  Finder F(Ctx, HE);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  F.evaluateLaunches();
  std::vector<KernelDef> Ks = F.take();
  // Launches found before the kernel's definition was visited may point at a
  // declaration; drop kernels without a body.
  Ks.erase(std::remove_if(Ks.begin(), Ks.end(),
                          [](const KernelDef &K) {
                            return !K.FD || (!K.FD->hasBody() && !failedInstantiation(K.FD));
                          }),
           Ks.end());
  const SourceManager &SM = Ctx.getSourceManager();
  std::stable_sort(Ks.begin(), Ks.end(), [&](const KernelDef &A, const KernelDef &B) {
    // Instantiations of one template share a location and keep the order in
    // which they were instantiated.
    SourceLocation LA = A.FD->getLocation(), LB = B.FD->getLocation();
    return LA != LB && SM.isBeforeInTranslationUnit(LA, LB);
  });
  return Ks;
}

} // namespace coalesce

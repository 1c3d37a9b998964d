//===- Launches.cpp - Kernels, their launch sites and launch shapes -------===//

#include "launch/Launches.h"

#include "ast/AstUtil.h"
#include "launch/HostInterp.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;

namespace coalesce {

std::string kernelName(const FunctionDecl *FD) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintingPolicy PP(FD->getASTContext().getLangOpts());
  PP.SuppressScope = false;
  FD->getNameForDiagnostic(OS, PP, /*Qualified=*/true);
  return OS.str();
}

namespace {

/// A template instantiation with an error in its code: clang drops its body.
bool failedInstantiation(const FunctionDecl *FD) {
  return FD->isInvalidDecl() && FD->getTemplateInstantiationPattern() != nullptr;
}

const FunctionDecl *definitionOf(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = FD->getDefinition();
  return Def ? Def : FD;
}

/// Kernels, functions with a body, what refers to what (the call graph of
/// the file), and the launch sites.
class Finder : public RecursiveASTVisitor<Finder> {
public:
  explicit Finder(ASTContext &Ctx) : Ctx(Ctx) {}
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

  bool TraverseLambdaExpr(LambdaExpr *LE) {
    // The lambda's body belongs to its call operator: the enclosing function
    // refers to it.
    const FunctionDecl *Op = LE->getCallOperator();
    refer(Op);
    addFunction(Op);
    Stack.push_back(const_cast<FunctionDecl *>(Op));
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(LE);
    Stack.pop_back();
    return R;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        !Ctx.getSourceManager().isInSystemHeader(FD->getLocation()))
      addFunction(FD);
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

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (auto *FD = dyn_cast<FunctionDecl>(E->getDecl()))
      refer(FD);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (auto *FD = dyn_cast<FunctionDecl>(E->getMemberDecl()))
      refer(FD);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    refer(E->getConstructor());
    return true;
  }

  bool VisitCallExpr(CallExpr *E) {
    if (Stack.empty() || E->isTypeDependent() || E->isValueDependent() ||
        Stack.back()->isDependentContext())
      return true;
    if (!isa<CUDAKernelCallExpr>(E) && host::launchApiOf(E) == host::LaunchApi::None)
      return true;
    if (Ctx.getSourceManager().isInSystemHeader(E->getBeginLoc()))
      return true;
    Sites.push_back({E, definitionOf(Stack.back())});
    return true;
  }

  KernelDef &kernel(const FunctionDecl *FD) {
    FD = definitionOf(FD);
    for (KernelDef &K : Kernels)
      if (K.FD == FD)
        return K;
    KernelDef K;
    K.FD = FD;
    K.Name = kernelName(FD);
    if (auto *LB = FD->getAttr<CUDALaunchBoundsAttr>()) {
      Expr::EvalResult R;
      if (const Expr *E = LB->getMaxThreads();
          E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
        K.MaxThreadsHint = R.Val.getInt().getExtValue();
    }
    Kernels.push_back(std::move(K));
    return Kernels.back();
  }

  /// Functions that reach a launch and that nothing else in the file
  /// refers to: where the walks of the host code start.
  std::vector<const FunctionDecl *> roots() const {
    std::map<const FunctionDecl *, std::set<const FunctionDecl *>> ReferredBy;
    for (const auto &[From, Tos] : Refers)
      for (const FunctionDecl *To : Tos)
        if (To != From)
          ReferredBy[To].insert(From);
    std::set<const FunctionDecl *> Reach;
    std::vector<const FunctionDecl *> Work;
    for (const auto &[Site, Fn] : Sites)
      if (Reach.insert(Fn).second)
        Work.push_back(Fn);
    while (!Work.empty()) {
      const FunctionDecl *F = Work.back();
      Work.pop_back();
      auto It = ReferredBy.find(F);
      if (It == ReferredBy.end())
        continue;
      for (const FunctionDecl *C : It->second)
        if (Reach.insert(C).second)
          Work.push_back(C);
    }
    std::vector<const FunctionDecl *> Out;
    for (const FunctionDecl *F : Functions)
      if (Reach.count(F) && !ReferredBy.count(F))
        Out.push_back(F);
    return Out;
  }

  ASTContext &Ctx;
  std::vector<FunctionDecl *> Stack;
  std::vector<KernelDef> Kernels;
  std::vector<const FunctionDecl *> Functions; // with a body, in source order
  std::set<const FunctionDecl *> Known;
  std::map<const FunctionDecl *, std::set<const FunctionDecl *>> Refers;
  std::vector<std::pair<const Expr *, const FunctionDecl *>> Sites;

private:
  void addFunction(const FunctionDecl *FD) {
    FD = definitionOf(FD);
    if (Known.insert(FD).second)
      Functions.push_back(FD);
  }
  void refer(const FunctionDecl *To) {
    if (Stack.empty() || !To || Stack.back()->isDependentContext())
      return;
    Refers[definitionOf(Stack.back())].insert(definitionOf(To));
  }
};

/// The launch facts of one launch the host walk reached.
KernelLaunch factsOf(ASTContext &Ctx, const host::LaunchSeen &S) {
  KernelLaunch L;
  L.Site = S.Site;
  SourcePos P = sourcePos(Ctx, S.Site->getBeginLoc());
  const std::string Where = fileLine(Ctx, S.Site->getBeginLoc());
  LaunchConfig &C = L.Facts.Config;
  C.Sites.push_back(P);
  L.Facts.HostStated.assign(S.Stated.begin(), S.Stated.end());
  if (S.Grid && S.Grid->X > 0 && S.Grid->Y > 0 && S.Grid->Z > 0)
    C.Grid = S.Grid;
  if (S.Block) {
    std::string Bad = validateBlockShape(*S.Block);
    if (Bad.empty()) {
      C.Block = *S.Block;
      C.BlockKnown = true;
      C.Source = "the launch at " + Where;
      C.Branches = S.Choice;
    } else {
      L.Problem = "the launch at " + Where + " has block shape " + S.Block->str() + ": " + Bad;
      C.BlockUnknown = makeReason(ReasonKind::BlockShapeInvalid, {S.Block->str()}).Text;
    }
  } else {
    C.BlockUnknown = S.BlockWhy.Text;
    for (int I = 0; I < 3; ++I)
      C.KnownDims[I] = S.BlockPart[I];
  }
  if (!C.BlockKnown)
    C.Source = "the launch at " + Where + " (its block shape is not known statically)";
  const FunctionDecl *K = S.Kernel;
  for (const auto &[I, E] : S.TensorMaps)
    if (I < K->getNumParams())
      L.Facts.TensorMaps[K->getParamDecl(I)] = E;
  for (unsigned I = 0; I < K->getNumParams() && I < S.Args.size(); ++I) {
    const ParmVarDecl *PD = K->getParamDecl(I);
    const host::HVal &V = S.Args[I];
    QualType T = PD->getType().getCanonicalType();
    if (T->isIntegralOrEnumerationType()) {
      if (V.K == host::HVal::Int && V.I >= INT64_MIN && V.I <= INT64_MAX) {
        L.Facts.IntArgs[PD] = static_cast<int64_t>(V.I);
        C.Args.emplace_back(PD->getName().str(), static_cast<int64_t>(V.I));
      } else if (I < S.ArgMin.size() && S.ArgMin[I] && *S.ArgMin[I] >= INT64_MIN &&
                 *S.ArgMin[I] <= INT64_MAX && PD->getIdentifier()) {
        // A check on the way to the launch bounds it below: a fact, as if
        // stated (`if (n < 64) abort();` states n >= 64).
        StatedFact F;
        F.K = StatedFact::AtLeast;
        F.Name = PD->getName().str();
        F.Value = static_cast<int64_t>(*S.ArgMin[I]);
        F.Spelling = "the check at " + S.ArgMinAt[I] + " before the launch at " + Where;
        L.Facts.Stated.push_back(std::move(F));
      }
    } else if (T->isPointerType()) {
      if (V.K == host::HVal::Ptr && V.I >= INT64_MIN && V.I <= INT64_MAX) {
        const int64_t Off = static_cast<int64_t>(V.I);
        L.Facts.PtrOffsets[PD] = Off;
        if (Off)
          C.PointerOffsets.emplace_back(PD->getName().str(), Off);
      }
    } else if (const RecordDecl *RD = T->getAsRecordDecl()) {
      // Integer fields of a struct passed by value (width, pitch, ...).
      if (V.K != host::HVal::Agg)
        continue;
      for (const FieldDecl *FD : RD->fields()) {
        if (FD->getFieldIndex() >= V.Elems.size() ||
            !FD->getType()->isIntegralOrEnumerationType())
          continue;
        const host::HVal &F = V.Elems[FD->getFieldIndex()];
        if (F.K != host::HVal::Int || F.I < INT64_MIN || F.I > INT64_MAX)
          continue;
        std::string Path = "." + FD->getName().str();
        L.Facts.FieldArgs[{PD, Path}] = static_cast<int64_t>(F.I);
        C.Args.emplace_back(PD->getName().str() + Path, static_cast<int64_t>(F.I));
      }
    }
  }
  return L;
}

} // namespace

std::vector<KernelDef> findKernels(ASTContext &Ctx, const std::map<std::string, int64_t> &Stated) {
  Finder F(Ctx);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());

  // Walk the host code from each root; launch sites no walk reached (code
  // that nothing calls in a way the walks follow, or budgets spent) are
  // walked from their own function, then evaluated by themselves.
  host::HostLimits Limits;
  Limits.Stated = Stated;
  host::HostInterp HI(Ctx, Limits);
  std::set<const FunctionDecl *> Walked;
  // main first: the program's own entry is where launch shapes are set,
  // and the file's budget must not go to helpers nothing calls first.
  std::vector<const FunctionDecl *> Roots = F.roots();
  std::stable_partition(Roots.begin(), Roots.end(),
                        [](const FunctionDecl *R) { return R->isMain(); });
  for (const FunctionDecl *R : Roots) {
    HI.walkRoot(R);
    Walked.insert(R);
  }
  std::set<const Expr *> Reached = HI.reachedSites();
  for (const auto &[Site, Fn] : F.Sites)
    if (!Reached.count(Site) && Walked.insert(Fn).second) {
      HI.walkRoot(Fn, /*Called=*/true); // not a root: code in the file calls it
      Reached = HI.reachedSites();
    }
  for (const auto &[Site, Fn] : F.Sites)
    if (!Reached.count(Site))
      HI.evaluateAlone(Site, Fn);

  // Launches by site in source order, then in the order the walks met them.
  std::vector<host::LaunchSeen> Seen = HI.takeSeen();
  const SourceManager &SM = Ctx.getSourceManager();
  std::stable_sort(Seen.begin(), Seen.end(),
                   [&](const host::LaunchSeen &A, const host::LaunchSeen &B) {
                     SourceLocation LA = A.Site->getBeginLoc(), LB = B.Site->getBeginLoc();
                     return LA != LB && SM.isBeforeInTranslationUnit(LA, LB);
                   });
  for (const host::LaunchSeen &S : Seen) {
    if (SM.isInSystemHeader(S.Site->getBeginLoc()) || !S.Kernel ||
        SM.isInSystemHeader(S.Kernel->getLocation()))
      continue;
    F.kernel(S.Kernel).Launches.push_back(factsOf(Ctx, S));
  }

  std::vector<KernelDef> Ks = std::move(F.Kernels);
  // Launches of kernels declared but not defined here: no body to analyse.
  Ks.erase(std::remove_if(Ks.begin(), Ks.end(),
                          [](const KernelDef &K) {
                            return !K.FD || (!K.FD->hasBody() && !failedInstantiation(K.FD));
                          }),
           Ks.end());
  std::stable_sort(Ks.begin(), Ks.end(), [&](const KernelDef &A, const KernelDef &B) {
    // Instantiations of one template share a location and keep the order in
    // which they were instantiated.
    SourceLocation LA = A.FD->getLocation(), LB = B.FD->getLocation();
    return LA != LB && SM.isBeforeInTranslationUnit(LA, LB);
  });
  return Ks;
}

} // namespace coalesce

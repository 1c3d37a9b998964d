//===- Hoisting.cpp - Accesses nvcc moves out of loops and branches -------===//
//
// nvcc (LLVM's loop-invariant code motion) loads a value once before a loop
// when the load runs in every iteration, its address does not change, and
// nothing in the loop may overwrite it. Nsight Compute then counts one
// request per warp each time the loop starts, on a line before the loop
// (the kernel's first line or the statement before the loop: the compiler
// drops the load's own line), and none on the load's line.
// sample_kernels/hoisted_loads.cu measures each case on an H200.
//
// The conditions, decided from the syntax once per loop (what can only be
// known when the loop runs, that the address is the same in every
// iteration, is checked by the loop walkers in Loops.cpp):
//
//   - the loop calls nothing but math functions (a call may store or
//     synchronise: __syncthreads, atomics, user functions), and has no asm;
//   - the loop stores to no memory the load may reach (a store to shared
//     memory does not overwrite a global load, and the other way round); or
//     the load goes through a __restrict__ pointer parameter that the loop
//     neither stores through nor changes;
//   - the load runs whenever the body runs: not in a branch of the body, a
//     `?:` arm or the right of `&&`/`||`, not in an inner loop, and not
//     after a statement that may leave the iteration (break, continue,
//     return).
//
// A load whose only stores in the loop that may overwrite it write the same
// lvalue (a read-modify-write `s[t][i] -= a * b` at an address the loop does
// not change, with the other conditions above) is not hoisted: nvcc keeps the
// value in a register from one iteration to the next and loads it again
// where its unrolled copy of the loop starts over: before the unrolled loop,
// and again before the iterations left over. The stores stay when other
// loads in the loop may read the value (Rodinia lud, measured on an H200:
// loads of 15 - i lanes for trip counts i = 1..14 came to
// [i >= 4] + [i % 4 != 0] requests per loop start, unrolled by 4); with no
// such load the store, too, may move after the loop. How far nvcc unrolls
// is its own heuristic on the body's size, so the requests per warp of such
// loads and stores are not known ('kept-in-register'); each request still
// costs what the walk finds.
//
// Branches (noteBranchMerges): a load or store written alike in both sides
// of a branch whose sides both run in the warp may become one instruction
// that the lanes of both sides run (LLVM hoists a diamond's common loads
// into its head and sinks its common stores); such accesses are reported
// unknown ('may-be-merged-across-branch').
//
// Two models: Hoisting (loopRan(): after a loop's run, its buffered events
// of hoisted loads count once per start of the loop, those kept in a
// register have requests per warp that are not known) and BranchTwins
// (branchDiverges(): the accesses written alike in both sides of an if
// whose sides both run).
//===----------------------------------------------------------------------===//

#include "interp/CompilerModel.h"
#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <set>

using namespace clang;

namespace coalesce {
namespace interp {

namespace {

/// A memory lvalue: a subscript, a dereference, `->`, or a device variable.
/// Not ast/AccessSites' test of the same name: that one lists what the
/// coverage check expects the walk to reach, __constant__ scalars included;
/// here a __constant__ scalar is an instruction operand, neither a load nvcc
/// could hoist nor one that an address depending on it would wait for.
bool isMemoryLValue(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (E->getType()->isArrayType())
    return false;
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref;
  if (auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() || isMemoryLValue(ME->getBase());
  if (auto *DR = dyn_cast<DeclRefExpr>(E))
    if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      return VD->hasGlobalStorage() &&
             (VD->hasAttr<CUDASharedAttr>() || VD->hasAttr<CUDADeviceAttr>());
  return false;
}

/// The variable at the root of a memory lvalue (`in` in `in[i]`, `p->x`).
const VarDecl *memoryRoot(const Expr *E) { return rootVar(E->IgnoreParenImpCasts()); }

/// The memory an lvalue's root reaches, as far as the syntax tells: a
/// __shared__ variable is shared memory; a kernel's pointer parameter or a
/// __device__ variable is global memory; a per-thread array is the thread's
/// own; anything else (a local pointer, a device function's parameter) may
/// be any of them.
enum class Reach { Shared, Global, Local, Either };
Reach reachOf(const VarDecl *Root) {
  if (!Root)
    return Reach::Either;
  if (Root->hasLocalStorage() && Root->getType()->isArrayType())
    return Reach::Local; // a per-thread array: registers or local memory
  if (Root->hasAttr<CUDASharedAttr>())
    return Reach::Shared;
  if (Root->hasGlobalStorage() && (Root->hasAttr<CUDADeviceAttr>() || Root->hasAttr<CUDAConstantAttr>()))
    return Reach::Global;
  if (auto *PD = dyn_cast<ParmVarDecl>(Root))
    if (auto *FD = dyn_cast_or_null<FunctionDecl>(PD->getDeclContext());
        FD && FD->hasAttr<CUDAGlobalAttr>() && PD->getType()->isPointerType())
      return Reach::Global;
  return Reach::Either;
}

/// Whether a store reaching S may overwrite a load reaching L.
bool mayOverlap(Reach S, Reach L) { return S == Reach::Either || L == Reach::Either || S == L; }

bool containsExit(const Stmt *S) {
  if (!S)
    return false;
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<ReturnStmt>(S) || isa<GotoStmt>(S) ||
      isa<IndirectGotoStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (containsExit(C))
      return true;
  return false;
}

class LoopScan {
public:
  LoopScan(ASTContext &Ctx) : Ctx(Ctx) {}

  std::map<const Expr *, const Expr *> hoistable(const Stmt *Loop) {
    const Stmt *Body = nullptr;
    if (auto *F = dyn_cast<ForStmt>(Loop)) {
      Body = F->getBody();
      effects(F->getCond());
      effects(F->getInc());
    } else if (auto *W = dyn_cast<WhileStmt>(Loop)) {
      Body = W->getBody();
      effects(W->getCond());
    } else if (auto *D = dyn_cast<DoStmt>(Loop)) {
      Body = D->getBody();
      effects(D->getCond());
    }
    std::map<const Expr *, const Expr *> Out;
    if (!Body)
      return Out;
    effects(Body);
    if (Blocked)
      return Out;
    unconditional(Body);
    for (const auto &[E, Root] : Candidates) {
      if (!invariantAddress(E))
        continue;
      // Stores to the other space do not overwrite it (measured: a global
      // load is hoisted past shared stores and the other way round).
      const Reach L = reachOf(Root);
      bool Clobbered = UnknownStoreRoot;
      for (const VarDecl *S : StoreRoots)
        Clobbered |= mayOverlap(reachOf(S), L);
      if (!Clobbered) {
        Out.emplace(E, nullptr);
        continue;
      }
      // Only a __restrict__ pointer parameter's loads are known not to be
      // overwritten by stores through other pointers.
      auto *PD = dyn_cast_or_null<ParmVarDecl>(Root);
      if (PD && PD->getType()->isPointerType() && PD->getType().isRestrictQualified() &&
          !StoreRoots.count(Root) && !UnknownStoreRoot && !Assigned.count(Root)) {
        Out.emplace(E, nullptr);
        continue;
      }
      // Every store that may overwrite it writes the same lvalue back: the
      // value stays in a register between iterations.
      if (UnknownStoreRoot)
        continue;
      const Expr *Back = nullptr;
      bool Others = false;
      for (const auto &[S, SRoot] : Stores) {
        if (!mayOverlap(reachOf(SRoot), L))
          continue;
        if (sameLValue(Ctx, S, E))
          Back = Back ? Back : S;
        else
          Others = true;
      }
      if (Back && !Others)
        Out.emplace(E, Back);
    }
    return Out;
  }

private:
  ASTContext &Ctx;
  bool Blocked = false, UnknownStoreRoot = false;
  std::set<const VarDecl *> StoreRoots, Assigned;
  /// The memory lvalues stored to, with their roots.
  std::vector<std::pair<const Expr *, const VarDecl *>> Stores;
  std::vector<std::pair<const Expr *, const VarDecl *>> Candidates;

  /// The address is written with variables the loop does not change and
  /// no other load (`u[i]`, not `in[idx[k]]` nor `in[j]` with `j` set in
  /// the loop); that it is the same in every iteration is also checked
  /// when the loop runs.
  bool invariantAddress(const Stmt *S) const {
    for (const Stmt *C : S->children()) {
      if (!C || isa<PseudoObjectExpr>(C))
        continue; // threadIdx.x and friends do not change
      if (auto *DR = dyn_cast<DeclRefExpr>(C))
        if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && Assigned.count(VD))
          return false;
      if (auto *CE = dyn_cast<ImplicitCastExpr>(C);
          CE && CE->getCastKind() == CK_LValueToRValue && isMemoryLValue(CE->getSubExpr()))
        return false;
      if (isa<CallExpr>(C) || isa<StmtExpr>(C))
        return false;
      if (!invariantAddress(C))
        return false;
    }
    return true;
  }

  bool allowedCall(const CallExpr *CE) const {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || isa<CXXOperatorCallExpr>(CE) || isa<CUDAKernelCallExpr>(CE))
      return false;
    const SourceManager &SM = Ctx.getSourceManager();
    if (!FD->getBuiltinID() && !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      return false; // the user's function: it may store
    if (!FD->getIdentifier())
      return false;
    const std::string Name = FD->getName().lower();
    for (const char *Bad : {"atomic", "sync", "fence", "barrier", "__st", "store", "mem",
                            "printf", "alloc", "free", "assert", "trap", "exit", "clock",
                            "sleep", "prefetch", "ld", "red", "vote", "ballot", "shfl",
                            "match", "activemask"})
      if (Name.find(Bad) != std::string::npos)
        return false;
    return true;
  }

  void assigned(const Expr *LHS) {
    const Expr *L = LHS->IgnoreParenImpCasts();
    if (isMemoryLValue(L)) {
      if (const VarDecl *R = memoryRoot(L)) {
        StoreRoots.insert(R);
        Stores.push_back({L, R});
      } else {
        UnknownStoreRoot = true;
      }
    } else if (auto *DR = dyn_cast<DeclRefExpr>(L)) {
      if (auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
        if (VD->getType()->isReferenceType())
          UnknownStoreRoot = true; // a reference may be memory
        Assigned.insert(VD);
      }
    } else if (const VarDecl *R = memoryRoot(L);
               R && R->hasLocalStorage() && !R->getType()->isReferenceType() &&
               !R->getType()->isPointerType()) {
      Assigned.insert(R); // a field of a local object: registers
    } else {
      UnknownStoreRoot = true;
    }
  }

  /// What the loop may do besides computing: calls, asm, stores.
  void effects(const Stmt *S) {
    if (!S || Blocked)
      return;
    if (isa<AsmStmt>(S) || isa<CXXTryStmt>(S) || isa<LambdaExpr>(S)) {
      Blocked = true;
      return;
    }
    if (auto *CE = dyn_cast<CallExpr>(S); CE && !allowedCall(CE)) {
      Blocked = true;
      return;
    }
    if (isa<CXXConstructExpr>(S) || isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S)) {
      Blocked = true;
      return;
    }
    if (auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      assigned(BO->getLHS());
    if (auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
      assigned(UO->getSubExpr());
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D); VD && VD->getType()->isReferenceType()) {
          Blocked = true; // a reference into memory, written through later
          return;
        }
    for (const Stmt *C : S->children())
      effects(C);
  }

  /// Loads that run whenever the body runs.
  void unconditional(const Stmt *S) {
    if (!S)
      return;
    if (auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body()) {
        unconditional(C);
        if (containsExit(C))
          return; // what follows may not run
      }
      return;
    }
    if (auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
          loads(VD->getInit());
      return;
    }
    if (auto *If = dyn_cast<IfStmt>(S)) {
      if (!If->getInit() && !If->getConditionVariable())
        loads(If->getCond());
      return;
    }
    if (auto *E = dyn_cast<Expr>(S))
      loads(E);
  }

  void loads(const Expr *E) {
    if (!E)
      return;
    // A read-modify-write loads its lvalue too (no lvalue-to-rvalue cast).
    const Expr *RMW = nullptr;
    if (auto *CA = dyn_cast<CompoundAssignOperator>(E))
      RMW = CA->getLHS();
    else if (auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->isIncrementDecrementOp())
      RMW = UO->getSubExpr();
    if (RMW) {
      const Expr *L = RMW->IgnoreParens();
      if (isMemoryLValue(L) && !L->getType().isVolatileQualified())
        Candidates.push_back({L->IgnoreParenImpCasts(), memoryRoot(L)});
    }
    if (auto *CE = dyn_cast<ImplicitCastExpr>(E); CE && CE->getCastKind() == CK_LValueToRValue) {
      const Expr *L = CE->getSubExpr()->IgnoreParens();
      if (isMemoryLValue(L) && !L->getType().isVolatileQualified()) {
        Candidates.push_back({L->IgnoreParenImpCasts(), memoryRoot(L)});
        // Its address's own loads run too.
      }
    }
    if (auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isLogicalOp()) {
      loads(BO->getLHS()); // the right side runs on some lanes only
      return;
    }
    if (auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      loads(CO->getCond());
      return;
    }
    if (isa<StmtExpr>(E) || isa<LambdaExpr>(E))
      return;
    for (const Stmt *C : E->children())
      if (auto *CE = dyn_cast_or_null<Expr>(C))
        loads(CE);
  }
};

class Hoisting : public CompilerModel {
public:
  using CompilerModel::CompilerModel;

  void loopRan(const LoopRun &L) override {
    if (L.Walk == LoopWalk::Symbolic)
      hoistSymbolic(L.Loop, L.Mark, *L.K, L.EntryWeight, L.EntryKnown, L.EntryWhy);
    else
      hoistConcrete(L.Loop, L.Mark);
  }

private:
  /// The loads of Loop that nvcc hoists when their address does not change
  /// (mapped to null), and those it keeps in a register between iterations
  /// because the loop's only store that may overwrite them writes the same
  /// lvalue back (mapped to that store's lvalue).
  const std::map<const Expr *, const Expr *> &hoistableLoads(const Stmt *Loop);
  /// After a loop run iteration by iteration: the buffered events from Mark
  /// on of each hoistable load that kept its address become one event; a
  /// load kept in a register has requests per warp that are not known.
  void hoistConcrete(const Stmt *Loop, size_t Mark);
  /// After a loop run once for a symbolic iteration K: the events from Mark
  /// on of hoistable loads whose address does not mention K count once per
  /// start of the loop (EntryWeight); loads kept in a register, as above.
  void hoistSymbolic(const Stmt *Loop, size_t Mark, SymbolId K, double EntryWeight,
                     bool EntryKnown, const std::string &EntryWhy);
};

class BranchTwins : public CompilerModel {
public:
  using CompilerModel::CompilerModel;

  /// Both sides run, on different lanes of the warp: an access written
  /// alike in both sides may become one instruction that the lanes of both
  /// run.
  void branchDiverges(const IfStmt *If) override;
};

} // namespace

const std::map<const Expr *, const Expr *> &Hoisting::hoistableLoads(const Stmt *Loop) {
  auto It = R.Hoistable.find(Loop);
  if (It == R.Hoistable.end())
    It = R.Hoistable.try_emplace(Loop, LoopScan(Ctx).hoistable(Loop)).first;
  return It->second;
}

namespace {
/// The memory accesses of a side of a branch, outside loops: loads, the
/// loads of read-modify-writes, and stores.
void sideAccesses(const Stmt *S, std::vector<std::pair<const Expr *, AccessOp>> &Out) {
  if (!S || isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<LambdaExpr>(S))
    return;
  if (auto *CE = dyn_cast<ImplicitCastExpr>(S); CE && CE->getCastKind() == CK_LValueToRValue) {
    const Expr *L = CE->getSubExpr()->IgnoreParens();
    if (isMemoryLValue(L))
      Out.push_back({L->IgnoreParenImpCasts(), AccessOp::Load});
  }
  if (auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
    const Expr *L = BO->getLHS()->IgnoreParens();
    if (isMemoryLValue(L)) {
      Out.push_back({L->IgnoreParenImpCasts(), AccessOp::Store});
      if (isa<CompoundAssignOperator>(BO))
        Out.push_back({L->IgnoreParenImpCasts(), AccessOp::Load});
    }
  }
  for (const Stmt *C : S->children())
    sideAccesses(C, Out);
}
} // namespace

void BranchTwins::branchDiverges(const IfStmt *If) {
  auto It = R.BranchTwins.find(If);
  if (It == R.BranchTwins.end()) {
    std::vector<std::pair<const Expr *, AccessOp>> Then, Else;
    sideAccesses(If->getThen(), Then);
    sideAccesses(If->getElse(), Else);
    std::vector<std::tuple<const Expr *, AccessOp, const Expr *>> Twins;
    for (const auto &[A, OpA] : Then)
      for (const auto &[B, OpB] : Else)
        if (OpA == OpB && !A->getType().isVolatileQualified() && sameLValue(Ctx, A, B)) {
          Twins.emplace_back(A, OpA, B);
          Twins.emplace_back(B, OpB, A);
        }
    It = R.BranchTwins.try_emplace(If, std::move(Twins)).first;
  }
  const std::string At = lineOf(Ctx, If->getBeginLoc());
  for (const auto &[E, Op, Other] : It->second)
    R.Mergeable.try_emplace({E, Op}, makeReason(ReasonKind::MayBeMergedAcrossBranch,
                                                {text(Other), lineOf(Ctx, Other->getBeginLoc()), At}));
}

namespace {
Assumption keptNote(ASTContext &Ctx, const Stmt *Loop, const std::string &Back) {
  return makeAssumption(AssumptionKind::KeptInRegister, {Back, lineOf(Ctx, Loop->getBeginLoc())});
}
std::string keptWhy(ASTContext &Ctx, const Stmt *Loop) {
  return "how often nvcc loads or stores the value kept in a register through the loop at line " +
         lineOf(Ctx, Loop->getBeginLoc()) + " is not known: the cost is per request";
}

/// The lvalue kept in a register by Loop that a store event writes, if any.
const Expr *keptStore(ASTContext &Ctx, const std::map<const Expr *, const Expr *> &H,
                      const AccessEvent &E) {
  if (E.Op != AccessOp::Store || !E.UnknownWhy.empty() || !E.Region)
    return nullptr;
  for (const auto &[Load, Back] : H)
    if (Back && sameLValue(Ctx, Back, E.Site))
      return Back;
  return nullptr;
}
} // namespace

void Hoisting::hoistConcrete(const Stmt *Loop, size_t Mark) {
  const std::map<const Expr *, const Expr *> &H = hoistableLoads(Loop);
  if (H.empty())
    return;
  // The events of each hoistable load, by call context and chunk: hoisted
  // (or kept in a register) when every iteration loaded the same address.
  std::map<std::tuple<const Expr *, std::string, unsigned>, std::vector<size_t>> Groups;
  for (size_t I = Mark; I < Buffered.size(); ++I) {
    const AccessEvent &E = Buffered[I];
    if (E.Op == AccessOp::Load && E.UnknownWhy.empty() && E.Region &&
        H.count(E.Site->IgnoreParenImpCasts()))
      Groups[{E.Site->IgnoreParenImpCasts(), E.ContextKey, E.Chunk}].push_back(I);
    else if (keptStore(Ctx, H, E))
      Groups[{E.Site->IgnoreParenImpCasts(), E.ContextKey, E.Chunk}].push_back(I);
  }
  std::vector<bool> Drop(Buffered.size(), false);
  const Assumption Note =
      makeAssumption(AssumptionKind::LoadHoisted, {lineOf(Ctx, Loop->getBeginLoc())});
  for (auto &[Key, Idx] : Groups) {
    const AccessEvent &First = Buffered[Idx.front()];
    bool Same = true;
    for (size_t I : Idx) {
      const AccessEvent &E = Buffered[I];
      Same &= E.Region == First.Region && E.Width == First.Width && E.Offset == First.Offset;
    }
    if (!Same)
      continue;
    const Expr *Back = First.Op == AccessOp::Store ? keptStore(Ctx, H, First)
                                                   : H.at(std::get<0>(Key));
    if (Back) {
      const Assumption Kept = keptNote(Ctx, Loop, text(Back));
      const std::string KeptWhy = keptWhy(Ctx, Loop);
      for (size_t I : Idx) {
        Buffered[I].RequestsKnown = false;
        Buffered[I].RequestsWhy = KeptWhy;
        Buffered[I].Assumptions.push_back(Kept);
      }
      continue;
    }
    Buffered[Idx.front()].Assumptions.push_back(Note);
    for (size_t K = 1; K < Idx.size(); ++K)
      Drop[Idx[K]] = true;
  }
  dropBuffered(Mark, Drop);
}

void Hoisting::hoistSymbolic(const Stmt *Loop, size_t Mark, SymbolId K, double EntryWeight,
                             bool EntryKnown, const std::string &EntryWhy) {
  const std::map<const Expr *, const Expr *> &H = hoistableLoads(Loop);
  if (H.empty())
    return;
  const Assumption Note =
      makeAssumption(AssumptionKind::LoadHoisted, {lineOf(Ctx, Loop->getBeginLoc())});
  for (size_t I = Mark; I < Buffered.size(); ++I) {
    AccessEvent &E = Buffered[I];
    if (!E.UnknownWhy.empty() || !E.Region || E.Offset.mentions(K))
      continue;
    if (const Expr *Back = keptStore(Ctx, H, E)) {
      E.RequestsKnown = false;
      E.RequestsWhy = keptWhy(Ctx, Loop);
      E.Assumptions.push_back(keptNote(Ctx, Loop, text(Back)));
      continue;
    }
    if (E.Op != AccessOp::Load)
      continue;
    auto It = H.find(E.Site->IgnoreParenImpCasts());
    if (It == H.end())
      continue;
    if (It->second) {
      E.RequestsKnown = false;
      E.RequestsWhy = keptWhy(Ctx, Loop);
      E.Assumptions.push_back(keptNote(Ctx, Loop, text(It->second)));
      continue;
    }
    E.Weight = EntryWeight; // once each time the loop starts
    E.RequestsKnown = EntryKnown;
    E.Uncounted = !EntryKnown;
    E.RequestsWhy = EntryWhy;
    E.Assumptions.push_back(Note);
  }
}

std::unique_ptr<CompilerModel> makeHoisting(WarpInterp &I) {
  return std::make_unique<Hoisting>(I);
}

std::unique_ptr<CompilerModel> makeBranchTwins(WarpInterp &I) {
  return std::make_unique<BranchTwins>(I);
}

} // namespace interp
} // namespace coalesce

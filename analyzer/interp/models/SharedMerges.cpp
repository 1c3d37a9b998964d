//===- SharedMerges.cpp - Shared accesses ptxas merges into wider ones ----===//
//
// ptxas merges shared loads (stores) of one base at constant offsets that
// fall in one aligned 8- or 16-byte block into one LDS.64/LDS.128
// (STS.64/STS.128) when it can prove the block's alignment from the
// address's computation (read from the SASS of each case on sm_90 with
// nvcc 13; sample_kernels/merged_rows.cu, tests/lit/shared/merged_accesses.cu).
//
//   - ptxasView(): an lvalue's byte offset as ptxas sees it: constants, the
//     counters of loops nvcc unrolls completely, and terms it cannot
//     evaluate, with the factors their arithmetic proves;
//   - noteMergeable(): accesses since the last branch or barrier that could
//     be merged so are reported unknown ('may-be-merged');
//   - mergeUnrolled(): after a loop nvcc unrolls completely, the same access
//     walking a row from a proven 16-byte boundary over whole blocks becomes
//     one 16-byte access per block ('merged-by-ptxas');
//   - noteMergeableAcrossIterations(): after a loop run once for a symbolic
//     iteration, an access that moves by its width may be merged with its
//     copy in the next unrolled iteration.
//
// Hooks: access() notes each plain shared load or store (noteMergeable())
// and ends the window of accesses ptxas may merge at an atomic, a call, or
// a store that may overwrite a shared value; so do an ordering call, the
// start of an if or switch and the end of an if (a branch). loopEnter() /
// loopExit() keep, for each loop run iteration by iteration, whether nvcc
// unrolls it completely; loopRan() merges its iterations' accesses
// (mergeUnrolled(), noteMergeableAcrossIterations()).
//
// Global memory: nvcc merges adjacent loads (stores) of one pointer into
// LDG.64/LDG.128 (STG) the same way where the alignment it can prove
// allows it: that of the pointer's element type (`p[i].x` and `p[i].y` of a
// `float2 *`: one LDG.64), or one stated with __builtin_assume_aligned;
// never the alignment cudaMalloc gives at run time (four floats of a
// `const float *` stay four LDG.E). Read from the SASS of nvcc 13 for sm_90
// (tests/lit/global/merged_fields.cu). The walk does not claim these
// merges: such accesses are unknown ('may-be-merged') until the compiler
// witness decides them (EmittedCode.cpp).
//===----------------------------------------------------------------------===//

#include "interp/CompilerModel.h"
#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"
#include "model/Alignment.h"
#include "model/Spaces.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>

using namespace clang;

namespace coalesce {
namespace interp {

namespace {
/// The alignment ptxas knows shared memory's arrays to start at: it places
/// them (model/Spaces.h).
int64_t sharedPlaced() { return spaceModel(MemorySpace::Shared).PlacedAlignment; }

/// The spaces whose adjacent plain accesses the compiler merges into wider
/// instructions where it can prove the alignment.
bool mergesWhenAligned(MemorySpace S) {
  return spaceModel(S).MergedByPtxas || S == MemorySpace::Global;
}

/// A plain load or store, known, narrower than 16 bytes, in a space whose
/// accesses the compiler merges: what the loop rules below look at.
bool mergeCandidate(const AccessEvent &E) {
  return mergesWhenAligned(E.Space) && E.UnknownWhy.empty() && E.Region &&
         (E.Op == AccessOp::Load || E.Op == AccessOp::Store) && E.Chunks == 1 && E.Width < 16;
}

/// Who merges, and into what: "ptxas", "LDS.64 or LDS.128".
std::pair<std::string, std::string> mergerOf(MemorySpace S, AccessOp Op) {
  const bool Global = S == MemorySpace::Global;
  const std::string I = Global ? (Op == AccessOp::Load ? "LDG" : "STG")
                               : (Op == AccessOp::Load ? "LDS" : "STS");
  return {Global ? "nvcc" : "ptxas", I + ".64 or " + I + ".128"};
}


/// What ptxas knows of an integer expression: its value, or a factor every
/// value has. Constants, and counters of loops (each unrolled copy has its
/// own), are known; thread indices and other variables only as factors of
/// the arithmetic around them.
struct Known {
  std::optional<int64_t> Value;
  int64_t Factor = 1;
  /// What ptxas may prove, where it sees through bitwise operations: `|`
  /// and `^` keep the low zero bits both sides have, `&` those either side
  /// has. It does in some forms and not in others (nvcc 13: `(b ^ ((k & 3)
  /// << 3)) + i` with b a multiple of 8 floats is merged into LDS.128 in
  /// one loop and not in the same loop unrolled by 4:
  /// tests/lit/witness/layout_compile.cu), so this only ever makes an
  /// access "may be merged", never merged.
  int64_t MayFactor = 1;
  int64_t multiple() const { return Value ? (*Value < 0 ? -*Value : *Value) : Factor; }
  int64_t mayMultiple() const {
    return Value ? multiple()
                 : std::min<int64_t>(int64_t(1) << 30, std::lcm(Factor, MayFactor));
  }
};

/// The largest power of two dividing M (0: a multiple of everything, 2^30).
int64_t lowPowerOfTwo(int64_t M) {
  if (M == 0)
    return int64_t(1) << 30;
  const uint64_t U = M < 0 ? uint64_t(-M) : uint64_t(M);
  return std::min<int64_t>(int64_t(1) << 30, int64_t(U & (~U + 1)));
}

class SharedMerges : public CompilerModel {
public:
  using CompilerModel::CompilerModel;

  // A branch, or a barrier, fence, atomic or warp exchange, ends the block
  // within which ptxas merges accesses (nvcc inlines other device
  // functions). The end of a switch does not (as before the models).
  void branchEnter(const Stmt *) override { MergeWindow.clear(); }
  void branchJoin(const Stmt *B) override {
    if (isa<IfStmt>(B))
      MergeWindow.clear();
  }
  void orderingCall(const CallExpr *) override {
    MergeWindow.clear();
    ++Orderings;
  }

  void loopEnter(const Stmt *Loop, LoopWalk W) override {
    if (W == LoopWalk::OverList)
      UnrolledLoops.push_back(true); // a trip count known at compile time
    else if (W == LoopWalk::Iterations)
      UnrolledLoops.push_back(unrolledCompletely(Loop));
    if (W != LoopWalk::Symbolic)
      OrderingsAtEnter.push_back(Orderings);
  }
  void loopExit(const Stmt *, LoopWalk W) override {
    if (W != LoopWalk::Symbolic) {
      UnrolledLoops.pop_back();
      OrderingsAtEnter.pop_back();
    }
  }
  void loopRan(const LoopRun &L) override {
    if (L.Walk == LoopWalk::Symbolic)
      noteMergeableAcrossIterations(L.Mark, *L.K);
    else if (UnrolledLoops.back())
      mergeUnrolled(L.Mark);
    else if (OrderingsAtEnter.back() == Orderings && holdsLoop(L.Loop))
      noteMergeableAcrossNest(L.Mark);
  }

  void access(AccessEvent &E, const AccessFacts &A) override {
    if (mergesWhenAligned(E.Space) && A.Plain &&
        (A.Op == AccessOp::Load || A.Op == AccessOp::Store)) {
      if (E.UnknownWhy.empty())
        noteMergeable(E.Space, A.Op, *A.Region, A.LV.Ptr.P, A.Width, A.Site);
    } else if (A.Op == AccessOp::Atomic || A.Op == AccessOp::Call ||
               (A.Op == AccessOp::Store && E.Space != MemorySpace::Global)) {
      MergeWindow.clear(); // an atomic, or a store that may overwrite a shared value
    }
  }

private:
  /// Shared accesses since the last branch or barrier, unrolled iterations
  /// of loops included: ptxas merges accesses of one base at adjacent
  /// offsets into one wider instruction where it can prove the alignment
  /// (noteMergeable()).
  struct RecentAccess {
    RegionId Region;
    Poly Offset;
    unsigned Width;
    LaneMask Active;
    AccessOp Op;
    MemorySpace Space;
    const Expr *Site;
    int64_t Align; // what ptxas can prove of the address
    int64_t MayAlign; // ... or may prove (PtxasView::MayAlign)
    bool Syntax;   // Shape and Const come from the lvalue's syntax
    std::string Shape;
    int64_t Const;
  };
  std::vector<RecentAccess> MergeWindow;
  /// For each loop being run iteration by iteration, innermost last:
  /// whether nvcc unrolls it completely (a trip count known at compile
  /// time), so that ptxas sees its iterations' accesses side by side.
  std::vector<bool> UnrolledLoops;
  /// Barriers, fences and warp exchanges run so far, and their number when
  /// each loop of UnrolledLoops started: none in between, and ptxas may see
  /// the loop's shared accesses as one block.
  unsigned Orderings = 0;
  std::vector<unsigned> OrderingsAtEnter;
  bool unrolledCompletely(const Stmt *Loop);
  bool unrolledCompletelyUncached(const Stmt *Loop);
  llvm::DenseMap<const Stmt *, bool> UnrolledCache;
  /// ptxasView()'s key of each term it cannot evaluate (its structure).
  llvm::DenseMap<const Expr *, std::string> TermKeys;
  /// The variables each function assigns after their declaration
  /// (collectModifiedVars of its body), for ptxasView(): a pointer set once
  /// is its initializer.
  llvm::DenseMap<const FunctionDecl *, std::set<const VarDecl *>> AssignedIn;
  /// After such a loop: the same shared access in consecutive iterations,
  /// reading (writing) the row it walks whole 16-byte blocks at a time,
  /// becomes one 16-byte access per block, as ptxas merges it.
  void mergeUnrolled(size_t Mark);
  /// After a loop run once for a symbolic iteration K: a shared access
  /// whose address moves by its own width each iteration may be merged
  /// with its copy in the next iteration of the unrolled loop.
  void noteMergeableAcrossIterations(size_t Mark, SymbolId K);
  /// After a loop run iteration by iteration whose body holds another loop
  /// (so not one unrolledCompletely() knows): the same shared access, in
  /// two iterations of the nest, at addresses its width apart may be one
  /// wider instruction if nvcc unrolls the nest.
  void noteMergeableAcrossNest(size_t Mark);
  /// Whether a loop's body holds another loop.
  bool holdsLoop(const Stmt *Loop);
  llvm::DenseMap<const Stmt *, bool> HoldsLoopCache;
  /// Site may be merged with its own copy in the next unrolled iteration.
  void noteMergeableWithNextCopy(MemorySpace Space, const Expr *Site, AccessOp Op,
                                 unsigned Width);
  /// A shared lvalue's byte offset as ptxas sees it: a constant plus terms
  /// it cannot evaluate (Shape names them with their coefficients), and the
  /// alignment it can prove (Ok false: not a subscript or field chain on a
  /// shared array).
  struct PtxasView {
    bool Ok = false;
    std::string Shape;
    int64_t Const = 0;
    int64_t Align = 0;
    int64_t TermsAlign = 0; // the same without the constant part
    /// The same where ptxas may see through bitwise operations
    /// (Known::MayFactor): for "may be merged", never for "merged".
    int64_t MayAlign = 0, MayTermsAlign = 0;
  };
  /// With CountersAtStart, every loop counter takes its first value (where
  /// an unrolled copy of its loop starts); otherwise only the counters of
  /// loops nvcc unrolls completely are known, by their current value.
  PtxasView ptxasView(const Expr *Site, bool CountersAtStart = false,
                      MemorySpace Space = MemorySpace::Shared);
  /// The alignment nvcc can prove of a global pointer variable's value: its
  /// element type's, or the largest __builtin_assume_aligned states where
  /// the variable is set (the larger: a merge it may make is not missed).
  int64_t compilerAlignment(const VarDecl *VD, const FunctionDecl *FD);
  llvm::DenseMap<const VarDecl *, int64_t> CompilerAligns;
  void noteMergeable(MemorySpace Space, AccessOp Op, RegionId Rg, const Poly &Offset,
                     unsigned Width, const Expr *Site);
};
} // namespace

int64_t SharedMerges::compilerAlignment(const VarDecl *VD, const FunctionDecl *FD) {
  auto It = CompilerAligns.find(VD);
  if (It != CompilerAligns.end())
    return It->second;
  return CompilerAligns[VD] = statedAlignment(VD, FD, Ctx);
}

SharedMerges::PtxasView SharedMerges::ptxasView(const Expr *Site, bool CountersAtStart,
                                                MemorySpace Space) {
  const int64_t Placed = sharedPlaced();
  std::function<Known(const Expr *, unsigned)> Of = [&](const Expr *E, unsigned Depth) -> Known {
    Known K;
    E = E->IgnoreParenImpCasts();
    if (Depth > 16 || E->isValueDependent())
      return K;
    if (std::optional<int64_t> V = constantOf(E)) {
      K.Value = *V;
      return K;
    }
    if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
      auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD)
        return K;
      if (VD->getType().isConstQualified() && VD->hasLocalStorage() && VD->getInit())
        return Of(VD->getInit(), Depth + 1);
      // A loop's counter: each unrolled copy has its own value; one the
      // walk does not know (a symbolic iteration) is taken where the
      // unrolled loop starts, at the counter's first value.
      if (const ForStmt *For = forDeclaring(R, VD)) {
        const Expr *Start = VD->getInit();
        if (auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
            BO && BO->getOpcode() == BO_Assign)
          Start = BO->getRHS();
        // A loop nvcc does not unroll completely keeps its counter in a
        // register: a term ptxas cannot evaluate (unless the caller asks
        // where an unrolled copy of the loop starts).
        const bool Unrolled = unrolledCompletely(For);
        if (!Unrolled && !CountersAtStart)
          return K;
        if (Start)
          K.Value = constantOf(Start);
        if (Frame *F = Unrolled && !CountersAtStart ? frameOf(VD) : nullptr) {
          auto It = F->Vars.find(VD);
          if (It != F->Vars.end() && It->second.K == Value::Int &&
              It->second.P.isConcrete(Active) && It->second.P.isUniform(Active)) {
            unsigned L = 0;
            while (L < WarpSize && !(Active & (LaneMask(1) << L)))
              ++L;
            if (L < WarpSize)
              K.Value = It->second.P.laneConstants()[L];
          }
        }
      }
      return K;
    }
    auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO)
      return K;
    const Known A = Of(BO->getLHS(), Depth + 1), B = Of(BO->getRHS(), Depth + 1);
    switch (BO->getOpcode()) {
    case BO_Add:
    case BO_Sub:
      if (A.Value && B.Value)
        K.Value = BO->getOpcode() == BO_Add ? *A.Value + *B.Value : *A.Value - *B.Value;
      else {
        K.Factor = std::gcd(A.multiple(), B.multiple());
        K.MayFactor = std::gcd(A.mayMultiple(), B.mayMultiple());
      }
      return K;
    case BO_Mul:
      if (A.Value && B.Value)
        K.Value = *A.Value * *B.Value;
      else {
        K.Factor = A.multiple() * B.multiple();
        K.MayFactor = std::min<int64_t>(int64_t(1) << 30, A.mayMultiple() * B.mayMultiple());
      }
      return K;
    case BO_Shl:
      if (B.Value && *B.Value >= 0 && *B.Value < 32) {
        if (A.Value)
          K.Value = *A.Value << *B.Value;
        else {
          K.Factor = A.multiple() << *B.Value;
          K.MayFactor = std::min<int64_t>(int64_t(1) << 30, A.mayMultiple() << *B.Value);
        }
      }
      return K;
    case BO_Or:
    case BO_Xor:
    case BO_And:
      if (A.Value && B.Value)
        K.Value = BO->getOpcode() == BO_Or    ? (*A.Value | *B.Value)
                  : BO->getOpcode() == BO_Xor ? (*A.Value ^ *B.Value)
                                              : (*A.Value & *B.Value);
      else if (BO->getOpcode() == BO_And)
        K.MayFactor = std::max(lowPowerOfTwo(A.mayMultiple()), lowPowerOfTwo(B.mayMultiple()));
      else
        K.MayFactor = std::min(lowPowerOfTwo(A.mayMultiple()), lowPowerOfTwo(B.mayMultiple()));
      return K;
    default:
      return K;
    }
  };
  // The byte offset as a constant plus terms ptxas cannot evaluate, each
  // named by its structure (written alike: the same term) with its
  // coefficient; the alignment is the gcd of the constant and of each
  // term's coefficient times the factor its arithmetic proves.
  PtxasView V;
  int64_t RootAlign = Placed; // what the compiler knows of the base
  std::map<std::string, int64_t> Terms;
  std::map<std::string, int64_t> Factors, MayFactors;
  std::function<void(const Expr *, int64_t, unsigned)> Lin = [&](const Expr *E, int64_t Scale,
                                                                 unsigned Depth) {
    E = E->IgnoreParenImpCasts();
    const Known K = Of(E, 0);
    if (K.Value) {
      V.Const += *K.Value * Scale;
      return;
    }
    if (Depth < 16) {
      if (auto *BO = dyn_cast<BinaryOperator>(E)) {
        const Known A = Of(BO->getLHS(), 0), B = Of(BO->getRHS(), 0);
        switch (BO->getOpcode()) {
        case BO_Add:
          Lin(BO->getLHS(), Scale, Depth + 1);
          Lin(BO->getRHS(), Scale, Depth + 1);
          return;
        case BO_Sub:
          Lin(BO->getLHS(), Scale, Depth + 1);
          Lin(BO->getRHS(), -Scale, Depth + 1);
          return;
        case BO_Mul:
          if (A.Value)
            return Lin(BO->getRHS(), Scale * *A.Value, Depth + 1);
          if (B.Value)
            return Lin(BO->getLHS(), Scale * *B.Value, Depth + 1);
          break;
        case BO_Shl:
          if (B.Value && *B.Value >= 0 && *B.Value < 32)
            return Lin(BO->getLHS(), Scale << *B.Value, Depth + 1);
          break;
        default:
          break;
        }
      }
      if (auto *DR = dyn_cast<DeclRefExpr>(E))
        if (auto *VD = dyn_cast<VarDecl>(DR->getDecl());
            VD && VD->getType().isConstQualified() && VD->hasLocalStorage() && VD->getInit())
          return Lin(VD->getInit(), Scale, Depth + 1);
    }
    auto Cached = TermKeys.find(E);
    if (Cached == TermKeys.end()) {
      llvm::FoldingSetNodeID ID;
      E->Profile(ID, Ctx, /*Canonical=*/true); // written alike: the same term
      Cached = TermKeys.try_emplace(E, std::to_string(ID.ComputeHash())).first;
    }
    const std::string &Key = Cached->second;
    Terms[Key] += Scale;
    Factors[Key] = K.multiple();
    MayFactors[Key] = K.mayMultiple();
  };
  // The view, once the base (Root) is found.
  auto Finish = [&](const std::string &Root) -> PtxasView {
    int64_t G = 0, MayG = 0;
    V.Shape = Root + ":";
    for (const auto &[Key, C] : Terms) {
      if (C == 0)
        continue;
      G = std::gcd(G, (C < 0 ? -C : C) * Factors[Key]);
      MayG = std::gcd(MayG, (C < 0 ? -C : C) * MayFactors[Key]);
      V.Shape += Key + "*" + std::to_string(C) + ";";
    }
    auto Pow2 = [&](int64_t X) {
      int64_t A = 1;
      while (A < RootAlign && (X == 0 || X % (2 * A) == 0))
        A *= 2;
      return A;
    };
    V.TermsAlign = Pow2(G);
    V.Align = Pow2(std::gcd(G, V.Const < 0 ? -V.Const : V.Const));
    V.MayTermsAlign = Pow2(MayG);
    V.MayAlign = Pow2(std::gcd(MayG, V.Const < 0 ? -V.Const : V.Const));
    V.Ok = true;
    return V;
  };
  const Expr *L = Site->IgnoreParenImpCasts();
  for (unsigned Depth = 0;; ++Depth) {
    if (Depth >= 16)
      return V;
    // A global pointer cast from another (`reinterpret_cast<const float2
    // *>(p)[i].x`): nvcc knows the alignment of the type cast to.
    if (auto *CE = dyn_cast<ExplicitCastExpr>(L);
        CE && Space == MemorySpace::Global && CE->getType()->isPointerType()) {
      QualType PT = CE->getType()->getPointeeType();
      if (PT->isIncompleteType() || PT->isDependentType())
        return V;
      RootAlign = std::min<int64_t>(Placed, std::max<int64_t>(Ctx.getTypeAlignInChars(PT).getQuantity(),
                                                              assumedAlignment(CE->getSubExpr(), Ctx)));
      llvm::FoldingSetNodeID ID;
      CE->Profile(ID, Ctx, /*Canonical=*/true);
      return Finish("c" + std::to_string(ID.ComputeHash()));
    }
    if (auto *ME = dyn_cast<MemberExpr>(L)) {
      auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (ME->isArrow() || !FD || FD->isBitField())
        return V;
      V.Const += static_cast<int64_t>(Ctx.getFieldOffset(FD) / 8);
      L = ME->getBase()->IgnoreParenImpCasts();
      continue;
    }
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(L)) {
      QualType ET = AS->getType();
      if (ET->isIncompleteType() || ET->isDependentType())
        return V;
      Lin(AS->getIdx(), Ctx.getTypeSizeInChars(ET).getQuantity(), 0);
      L = AS->getBase()->IgnoreParenImpCasts();
      continue;
    }
    // A pointer into the array: `&tile[i]`, `tile + i`.
    if (auto *UO = dyn_cast<UnaryOperator>(L); UO && UO->getOpcode() == UO_AddrOf) {
      L = UO->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    if (auto *BO = dyn_cast<BinaryOperator>(L);
        BO && BO->getType()->isPointerType() &&
        (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
      const bool PtrLeft = BO->getLHS()->getType()->isPointerType();
      const Expr *Ptr = PtrLeft ? BO->getLHS() : BO->getRHS();
      const Expr *Int = PtrLeft ? BO->getRHS() : BO->getLHS();
      QualType ET = BO->getType()->getPointeeType();
      if (ET->isIncompleteType() || ET->isDependentType())
        return V;
      const int64_t Size = Ctx.getTypeSizeInChars(ET).getQuantity();
      Lin(Int, BO->getOpcode() == BO_Sub ? -Size : Size, 0);
      L = Ptr->IgnoreParenImpCasts();
      continue;
    }
    if (auto *DR = dyn_cast<DeclRefExpr>(L)) {
      auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (VD && VD->getType()->isReferenceType() && VD->getInit()) {
        L = VD->getInit()->IgnoreParenImpCasts(); // `P &q = s[i];`
        continue;
      }
      if (!VD)
        return V;
      std::string Root;
      if (VD->hasAttr<CUDASharedAttr>()) {
        Root = "v" + std::to_string(reinterpret_cast<uintptr_t>(VD));
      } else if (VD->getType()->isPointerType()) {
        // A pointer handed to a helper (`float *As`): nvcc inlines the
        // helper, and ptxas sees the array and the offset it was given,
        // when that is one offset for the whole warp.
        Frame *F = frameOf(VD);
        auto It = F ? F->Vars.find(VD) : decltype(F->Vars.end())();
        if (!F || It == F->Vars.end() || It->second.K != Value::Ptr)
          return V;
        const MemRegion::Kind RK = R.Regions[It->second.Region].K;
        if (RK == MemRegion::Global) {
          // A global pointer: nvcc knows only what the language says of
          // its alignment (its element type's), or what
          // __builtin_assume_aligned states where it is set.
          RootAlign = std::min<int64_t>(
              Placed, compilerAlignment(VD, F->FD));
          Root = "g" + std::to_string(reinterpret_cast<uintptr_t>(VD));
        } else if (RK != MemRegion::Shared) {
          return V;
        } else if (!It->second.P.isConcrete(Exists) || !It->second.P.isUniform(Exists)) {
          // A pointer set once, from an expression ptxas sees whole
          // (`float *Kj = &sram[tile_size];`): that expression.
          if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getInit() || !F->FD ||
              !F->FD->getBody())
            return V;
          auto Assigned = AssignedIn.find(F->FD);
          if (Assigned == AssignedIn.end()) {
            std::set<const VarDecl *> Mod;
            collectModifiedVars(F->FD->getBody(), Mod);
            Assigned = AssignedIn.try_emplace(F->FD, std::move(Mod)).first;
          }
          if (Assigned->second.count(VD))
            return V;
          L = VD->getInit()->IgnoreParenImpCasts();
          continue;
        } else {
          unsigned L0 = 0;
          while (L0 < WarpSize && !(Exists & (LaneMask(1) << L0)))
            ++L0;
          if (L0 == WarpSize)
            return V;
          V.Const += It->second.P.laneConstants()[L0];
          Root = "r" + std::to_string(It->second.Region);
        }
      } else {
        return V;
      }
      return Finish(Root);
    }
    return V;
  }
}

/// ptxas merges shared loads (or stores) of one base at constant offsets
/// that fall in one aligned 8- or 16-byte block into one LDS.64/LDS.128 (or
/// STS) when it can prove the block's alignment from the address's
/// computation: `s[ty][k]` for k = 0..15 in an unrolled loop over a row of
/// 16 floats is four LDS.128, struct fields read one after the other one
/// LDS.128; a row pitch of 17 floats proves only 4 bytes, and nothing is
/// merged (measured on sm_90 with nvcc 13). Which ones it merges, and
/// whether it reads a whole block for part of it, is its own choice: an
/// access that could be merged this way with one before it, since the last
/// branch or barrier and with no store between loads (or load between
/// stores) of the same array, is reported unknown.
void SharedMerges::noteMergeable(MemorySpace Space, AccessOp Op, RegionId Rg,
                                 const Poly &Offset, unsigned Width, const Expr *Site) {
  // ptxas does not move a shared load past a shared store to merge it, nor
  // a store past a load, even of another array (Rodinia lud_perimeter's
  // dia[i][j], read between stores to peri_row in an unrolled loop, stays
  // one LDS per iteration).
  const AccessOp Other = Op == AccessOp::Load ? AccessOp::Store : AccessOp::Load;
  MergeWindow.erase(std::remove_if(MergeWindow.begin(), MergeWindow.end(),
                                   [&](const RecentAccess &A) { return A.Op == Other; }),
                    MergeWindow.end());
  if (Width >= 16)
    return;
  unsigned First = 0;
  while (First < WarpSize && !(Active & (LaneMask(1) << First)))
    ++First;
  const int64_t Placed = sharedPlaced();
  // Where the syntax does not tell (a pointer passed to a helper), what the
  // address is on every lane of the warp, active or not: ptxas compiles one
  // instruction for all of them (a lone active lane proves nothing).
  const PtxasView View = ptxasView(Site, false, Space);
  const bool Global = Space == MemorySpace::Global;
  // Of a global address nvcc knows only what its syntax says (never where
  // cudaMalloc put the allocation).
  const int64_t Align =
      View.Ok ? View.Align
      : Global ? 1
               : provenAlignment(Offset + R.Regions[Rg].BaseOffset, Exists, Placed);
  const int64_t MayAlign = View.Ok ? std::max(View.Align, View.MayAlign) : Align;
  bool SameSeen = false; // only the latest run of the same access counts
  for (auto It = MergeWindow.rbegin(); It != MergeWindow.rend(); ++It) {
    const RecentAccess &A = *It;
    if (A.Site == Site && A.Op == Op) {
      if (SameSeen)
        continue;
      SameSeen = true;
    }
    if (A.Op != Op || A.Region != Rg || A.Width != Width || A.Active != Active ||
        A.Space != Space || (Global && (!View.Ok || !A.Syntax)))
      continue;
    // The same access in the iterations of a loop nvcc unrolls completely:
    // mergeUnrolled() decides after the loop.
    if (A.Site == Site && !UnrolledLoops.empty() && UnrolledLoops.back())
      continue;
    const Poly D = Offset - A.Offset;
    if (!D.isConcrete(Active) || !D.isUniform(Active))
      continue;
    const int64_t Dist = D.laneConstants()[First];
    if (A.Site == Site) {
      // One access in consecutive iterations of a loop nvcc unrolls by a
      // factor of its choosing: the copies are side by side when the
      // address moves by its width, aligned as where a copy starts.
      if (Dist != static_cast<int64_t>(Width) && Dist != -static_cast<int64_t>(Width))
        continue;
      const PtxasView AtStart = ptxasView(Site, /*CountersAtStart=*/true, Space);
      if (AtStart.Ok && std::max(AtStart.Align, AtStart.MayAlign) < 2 * static_cast<int64_t>(Width))
        continue;
      noteMergeableWithNextCopy(Space, Site, Op, Width);
      continue;
    }
    // The distance must be a constant to ptxas too: s[0] and s[t / 32] are
    // 4 bytes apart in the second warp only.
    if (View.Ok && A.Syntax && (View.Shape != A.Shape || View.Const - A.Const != Dist))
      continue;
    const int64_t Abs = Dist < 0 ? -Dist : Dist;
    if (Dist == 0 || Abs >= Placed || Abs % Width != 0)
      continue;
    if (Op == AccessOp::Store && Abs != static_cast<int64_t>(Width))
      continue; // a wider store would write the bytes between them
    int64_t Block = 2 * Width;
    while (Block < Abs + static_cast<int64_t>(Width))
      Block *= 2;
    if (Block > Placed)
      continue;
    if ((Dist > 0 ? A.MayAlign : MayAlign) < Block)
      continue; // the lower address is not known to start the block
    const char *Verb = Op == AccessOp::Load ? "read" : "write";
    const auto [Who, Into] = mergerOf(Space, Op);
    R.Mergeable.try_emplace({Site, Op},
                            makeReason(ReasonKind::MayBeMerged,
                                       {text(A.Site), lineOf(Ctx, A.Site->getBeginLoc()), Verb,
                                        std::to_string(Block), Who, Into}));
    R.Mergeable.try_emplace({A.Site, Op},
                            makeReason(ReasonKind::MayBeMerged,
                                       {text(Site), lineOf(Ctx, Site->getBeginLoc()), Verb,
                                        std::to_string(Block), Who, Into}));
  }
  MergeWindow.push_back({Rg, Offset, Width, Active, Op, Space, Site, Align, MayAlign, View.Ok,
                         View.Shape, View.Const});
  if (MergeWindow.size() > 32)
    MergeWindow.erase(MergeWindow.begin());
}

bool SharedMerges::unrolledCompletely(const Stmt *Loop) {
  auto It = UnrolledCache.find(Loop);
  if (It == UnrolledCache.end())
    It = UnrolledCache.try_emplace(Loop, unrolledCompletelyUncached(Loop)).first;
  return It->second;
}

namespace {
/// Whether a loop body is what nvcc unrolls completely when the trip count
/// is small: a few statements, no inner loop, no call but to math
/// functions (a barrier, an atomic or a user function stops it).
bool smallFlatBody(const Stmt *S, unsigned &Statements) {
  if (!S)
    return true;
  if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<AsmStmt>(S) ||
      isa<SwitchStmt>(S) || isa<GotoStmt>(S))
    return false;
  if (auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (ordersMemory(FD) || isa<CXXOperatorCallExpr>(CE))
      return false;
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    if (!FD->getBuiltinID() && !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      return false; // the user's function: its size is not known here
  }
  if (isa<Expr>(S) || isa<DeclStmt>(S))
    ++Statements;
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body())
      if (!smallFlatBody(C, Statements))
        return false;
    return Statements <= 4;
  }
  if (isa<Expr>(S)) {
    // Expressions are counted once; their parts only checked for calls.
    unsigned Ignored = 0;
    for (const Stmt *C : S->children())
      if (!smallFlatBody(C, Ignored))
        return false;
    return true;
  }
  for (const Stmt *C : S->children())
    if (!smallFlatBody(C, Statements))
      return false;
  return Statements <= 4;
}
} // namespace

bool SharedMerges::unrolledCompletelyUncached(const Stmt *Loop) {
  // `for (int k = C0; k < C1; ++k)` (or `k = C0` on a counter declared
  // before, `<=`, `>`, `>=`, `--`, `+= C`) with at most 64 iterations and a
  // body of a few statements with no inner loop or call: nvcc unrolls it
  // completely (read from the SASS of loops of 8, 16, 32 and 64 iterations
  // of one or two statements; a loop holding a barrier or an inner loop,
  // Rodinia lud's, stays a loop).
  auto *For = dyn_cast<ForStmt>(Loop);
  if (!For || !For->getCond() || !For->getInc())
    return false;
  const VarDecl *Counter = nullptr;
  const Expr *Start = nullptr;
  if (auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit()); DS && DS->isSingleDecl()) {
    Counter = dyn_cast<VarDecl>(DS->getSingleDecl());
    Start = Counter ? Counter->getInit() : nullptr;
  } else if (auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    if (auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
      Counter = dyn_cast<VarDecl>(DR->getDecl());
    Start = BO->getRHS();
  }
  if (!Counter || !Start || Start->isValueDependent() || !Start->isIntegerConstantExpr(Ctx))
    return false;
  auto IsCounter = [&](const Expr *E) {
    auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == Counter;
  };
  auto *Cond = dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  if (!Cond || !Cond->isRelationalOp())
    return false;
  const Expr *Bound = IsCounter(Cond->getLHS()) ? Cond->getRHS()
                      : IsCounter(Cond->getRHS()) ? Cond->getLHS()
                                                  : nullptr;
  if (!Bound || Bound->isValueDependent() || !Bound->isIntegerConstantExpr(Ctx))
    return false;
  const Expr *Inc = For->getInc()->IgnoreParenImpCasts();
  int64_t Step = 0;
  if (auto *UO = dyn_cast<UnaryOperator>(Inc); UO && UO->isIncrementDecrementOp() &&
                                                 IsCounter(UO->getSubExpr()))
    Step = 1;
  else if (auto *CA = dyn_cast<CompoundAssignOperator>(Inc);
           CA && (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign) &&
           IsCounter(CA->getLHS()) && !CA->getRHS()->isValueDependent())
    if (std::optional<llvm::APSInt> V = CA->getRHS()->getIntegerConstantExpr(Ctx))
      Step = V->getExtValue() < 0 ? -V->getExtValue() : V->getExtValue();
  if (Step <= 0)
    return false;
  const int64_t From = Start->getIntegerConstantExpr(Ctx)->getExtValue();
  const int64_t To = Bound->getIntegerConstantExpr(Ctx)->getExtValue();
  const int64_t Trips = ((From < To ? To - From : From - To) + Step - 1) / Step;
  unsigned Statements = 0;
  return Trips <= 64 && smallFlatBody(For->getBody(), Statements);
}

void SharedMerges::mergeUnrolled(size_t Mark) {
  // The events of each shared access of one width, by call context.
  std::map<std::pair<const Expr *, std::string>, std::vector<size_t>> Groups;
  for (size_t I = Mark; I < Buffered.size(); ++I) {
    const AccessEvent &E = Buffered[I];
    if (mergeCandidate(E))
      Groups[{E.Site, E.ContextKey}].push_back(I);
  }
  const int64_t Block = sharedPlaced(); // 16
  std::vector<bool> Drop(Buffered.size(), false);
  for (auto &[Key, Idx] : Groups) {
    if (Idx.size() < 2)
      continue;
    const AccessEvent &First = Buffered[Idx.front()];
    const int64_t W = First.Width;
    // Each iteration's address the width after the last one's, on every
    // lane: the unrolled copies read (write) a row.
    bool Row = true;
    for (size_t K = 1; K < Idx.size() && Row; ++K) {
      const AccessEvent &P = Buffered[Idx[K - 1]], &E = Buffered[Idx[K]];
      const Poly D = E.Offset - P.Offset;
      Row = E.Region == P.Region && E.Width == P.Width && E.Active == P.Active &&
            E.Weight == P.Weight && D.isConcrete(E.Active) && D.isUniform(E.Active);
      if (Row) {
        unsigned L = 0;
        while (L < WarpSize && !(E.Active & (LaneMask(1) << L)))
          ++L;
        Row = L < WarpSize && D.laneConstants()[L] == W;
      }
    }
    if (!Row)
      continue;
    // Whole blocks from a block boundary that ptxas can prove: one 16-byte
    // access each. Anything else (a row starting inside a block, a part of
    // a block left over, an alignment it cannot prove) it may merge in
    // pieces, or read a whole block for part of it: not known.
    const PtxasView View = ptxasView(First.Site, false, First.Space);
    const int64_t Bytes = W * static_cast<int64_t>(Idx.size());
    if (First.Space == MemorySpace::Global) {
      // nvcc's merges of global rows are not claimed: they may be merged
      // where the alignment it can prove leaves room for two copies.
      if (View.Ok && std::max(View.TermsAlign, View.MayTermsAlign) >= 2 * W)
        noteMergeableWithNextCopy(First.Space, First.Site, First.Op, First.Width);
      continue;
    }
    if (!View.Ok || View.Align < Block || Bytes % Block != 0 ||
        provenAlignment(First.Offset + R.Regions[*First.Region].BaseOffset, First.Active, Block) <
            Block) {
      if (!View.Ok || std::max(View.TermsAlign, View.MayTermsAlign) >= 2 * W)
        noteMergeableWithNextCopy(First.Space, First.Site, First.Op, First.Width);
      continue;
    }
    const size_t PerBlock = static_cast<size_t>(Block / W);
    for (size_t K = 0; K < Idx.size(); ++K) {
      if (K % PerBlock) {
        Drop[Idx[K]] = true;
        continue;
      }
      AccessEvent &E = Buffered[Idx[K]];
      E.Width = static_cast<unsigned>(Block);
      E.Assumptions.push_back(makeAssumption(
          AssumptionKind::MergedByPtxas,
          {std::to_string(PerBlock), std::to_string(Block), lineOf(Ctx, E.Site->getBeginLoc())}));
    }
  }
  dropBuffered(Mark, Drop);
}

void SharedMerges::noteMergeableAcrossIterations(size_t Mark, SymbolId K) {
  const Poly Next = Poly::symbol(K) + Poly::constant(1);
  for (size_t I = Mark; I < Buffered.size(); ++I) {
    const AccessEvent &E = Buffered[I];
    if (!mergeCandidate(E) || !E.Offset.mentions(K))
      continue;
    const Poly Step = E.Offset.substitute(K, Next) - E.Offset;
    if (!Step.isConcrete(E.Active) || !Step.isUniform(E.Active))
      continue;
    // An access in an inner loop that is not unrolled (its address moves
    // with that loop's iteration too) runs in one copy of that loop per
    // iteration of this one: no two copies side by side to merge.
    bool InInnerLoop = false;
    for (SymbolId S : E.Offset.symbols())
      InInnerLoop |= S != K && R.Syms.get(S).Kind == SymbolKind::LoopIteration;
    if (InInnerLoop)
      continue;
    unsigned L = 0;
    while (L < WarpSize && !(E.Active & (LaneMask(1) << L)))
      ++L;
    const int64_t D = L < WarpSize ? Step.laneConstants()[L] : 0;
    if (D != static_cast<int64_t>(E.Width) && D != -static_cast<int64_t>(E.Width))
      continue;
    const PtxasView View = ptxasView(E.Site, /*CountersAtStart=*/true, E.Space);
    if ((View.Ok || E.Space == MemorySpace::Global) &&
        (!View.Ok || std::max(View.Align, View.MayAlign) < 2 * static_cast<int64_t>(E.Width)))
      continue;
    noteMergeableWithNextCopy(E.Space, E.Site, E.Op, E.Width);
  }
}

bool SharedMerges::holdsLoop(const Stmt *Loop) {
  auto It = HoldsLoopCache.find(Loop);
  if (It != HoldsLoopCache.end())
    return It->second;
  std::function<bool(const Stmt *)> Holds = [&](const Stmt *S) {
    if (!S)
      return false;
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S))
      return true;
    for (const Stmt *C : S->children())
      if (Holds(C))
        return true;
    return false;
  };
  const Stmt *Body = nullptr;
  if (auto *F = dyn_cast<ForStmt>(Loop))
    Body = F->getBody();
  else if (auto *W = dyn_cast<WhileStmt>(Loop))
    Body = W->getBody();
  else if (auto *D = dyn_cast<DoStmt>(Loop))
    Body = D->getBody();
  else if (auto *RF = dyn_cast<CXXForRangeStmt>(Loop))
    Body = RF->getBody();
  return HoldsLoopCache[Loop] = Holds(Body);
}

void SharedMerges::noteMergeableAcrossNest(size_t Mark) {
  // ptxas moves neither a shared load past a shared store nor a store past
  // a load (noteMergeable()): a nest that does both merges neither.
  // (per space: [1] global, [0] shared)
  bool Loads[2] = {false, false}, Stores[2] = {false, false};
  std::map<std::pair<const Expr *, std::string>, std::vector<size_t>> Groups;
  for (size_t I = Mark; I < Buffered.size(); ++I) {
    const AccessEvent &E = Buffered[I];
    if (!mergesWhenAligned(E.Space))
      continue;
    const bool G = E.Space == MemorySpace::Global;
    Loads[G] |= E.Op != AccessOp::Store;
    Stores[G] |= E.Op != AccessOp::Load;
    if (mergeCandidate(E))
      Groups[{E.Site, E.ContextKey}].push_back(I);
  }
  for (auto &[Key, Idx] : Groups) {
    const AccessEvent &First = Buffered[Idx.front()];
    const bool G = First.Space == MemorySpace::Global;
    if (Idx.size() < 2 || (First.Op == AccessOp::Load ? Stores[G] : Loads[G]))
      continue;
    unsigned L = 0;
    while (L < WarpSize && !(First.Active & (LaneMask(1) << L)))
      ++L;
    if (L == WarpSize)
      continue;
    // Each copy's distance from the first, where it is one for all lanes.
    std::set<int64_t> Dists;
    for (size_t I : Idx) {
      const AccessEvent &E = Buffered[I];
      if (E.Region != First.Region || E.Width != First.Width || E.Active != First.Active)
        continue;
      const Poly D = E.Offset - First.Offset;
      if (D.isConcrete(E.Active) && D.isUniform(E.Active))
        Dists.insert(D.laneConstants()[L]);
    }
    const int64_t W = First.Width;
    const bool SideBySide = std::any_of(Dists.begin(), Dists.end(),
                                        [&](int64_t D) { return Dists.count(D + W) != 0; });
    if (!SideBySide)
      continue;
    // As where a copy of the unrolled nest starts: the terms ptxas cannot
    // evaluate must leave room for a block of two.
    const PtxasView View = ptxasView(First.Site, /*CountersAtStart=*/true, First.Space);
    if ((View.Ok || First.Space == MemorySpace::Global) &&
        (!View.Ok || std::max(View.TermsAlign, View.MayTermsAlign) < 2 * W))
      continue;
    noteMergeableWithNextCopy(First.Space, First.Site, First.Op, First.Width);
  }
}

void SharedMerges::noteMergeableWithNextCopy(MemorySpace Space, const Expr *Site, AccessOp Op,
                                             unsigned Width) {
  const auto [Who, Into] = mergerOf(Space, Op);
  R.Mergeable.try_emplace(
      {Site, Op},
      makeReason(ReasonKind::MayBeMerged,
                 {text(Site), lineOf(Ctx, Site->getBeginLoc()),
                  Op == AccessOp::Load ? "read, in the next iteration,"
                                       : "write, in the next iteration,",
                  std::to_string(2 * Width), Who, Into}));
}

std::unique_ptr<CompilerModel> makeSharedMerges(WarpInterp &I) {
  return std::make_unique<SharedMerges>(I);
}

} // namespace interp
} // namespace coalesce

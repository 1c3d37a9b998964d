//===- LoopSummary.cpp - Counted loops, and iterations not run ------------===//
//
// A counted loop (`for (v = a; v < b; v += s)`, with a bound and step the
// body does not change and no way out but its condition) runs a number of
// iterations per lane known when it starts. Two uses:
//
// - a loop that would run more iterations than the walker runs one by one
//   goes to the symbolic walk at once (the walk one by one would stop at
//   the limit and be thrown away);
// - a loop whose iterations are alike (ast/AffineLoop.h: nothing it decides
//   depends on the iteration, its integers are affine in it) is run for
//   three iterations; when the second and third issue the same requests
//   moved by a fixed distance and leave every variable moved by a fixed
//   amount, the iterations up to the last few are issued without being run
//   (their events are the third's, moved k times), and the last few run
//   again, so that what the compiler models remember of recent accesses is
//   what a full walk leaves. The iterations not run are charged the steps
//   they would have taken, and no summary crosses the point where the step
//   budget runs out, so the records are the same as the full walk's, byte
//   for byte, budget included (tools/bench/identical.py checks it on real
//   code; --loop-summaries=off walks every iteration, for that comparison).
//   What they save is time: a step not run costs nothing but its events.
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"

#include "ast/AffineLoop.h"
#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace coalesce {
namespace interp {

namespace {

/// Whether E computes a value from scalars alone (no memory read, no
/// change, no call but a const method or the built-in index variables),
/// none of them in Mod: the same value in every iteration of a loop that
/// changes only Mod.
bool invariantScalar(const Expr *E, const std::set<const VarDecl *> &Mod) {
  if (!E)
    return false;
  E = E->IgnoreParens();
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      return !Mod.count(V) && !V->getType()->isReferenceType() &&
             (V->getType()->isScalarType() || V->getType()->isRecordType());
    return isa<EnumConstantDecl>(DR->getDecl());
  }
  if (isa<IntegerLiteral>(E) || isa<CharacterLiteral>(E) || isa<CXXBoolLiteralExpr>(E) ||
      isa<SizeOfPackExpr>(E) || isa<SubstNonTypeTemplateParmExpr>(E) ||
      isa<UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (isa<ArraySubscriptExpr>(E) || isa<StmtExpr>(E) || isa<LambdaExpr>(E))
    return false;
  if (auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf ||
        UO->isIncrementDecrementOp())
      return false;
  if (auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAssignmentOp())
    return false;
  if (auto *ME = dyn_cast<MemberExpr>(E); ME && ME->isArrow())
    return false;
  if (auto *CE = dyn_cast<CallExpr>(E)) {
    // threadIdx.x and its kin are property reads through calls; a const
    // or static method of an object the loop does not change
    // (`warp.size()`), without arguments.
    auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
    if (!MD || !(MD->isConst() || MD->isStatic()) || CE->getNumArgs() != 0)
      return false;
  }
  if (auto *PO = dyn_cast<PseudoObjectExpr>(E))
    return invariantScalar(PO->getResultExpr(), Mod);
  if (isa<OpaqueValueExpr>(E))
    return invariantScalar(cast<OpaqueValueExpr>(E)->getSourceExpr(), Mod);
  for (const Stmt *C : E->children()) {
    auto *CE = dyn_cast_or_null<Expr>(C);
    if (!CE || !invariantScalar(CE, Mod))
      return false;
  }
  return true;
}

const VarDecl *counterOf(const Expr *E) {
  auto *DR = dyn_cast<DeclRefExpr>(skipCastsAndParens(E));
  auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return V && V->hasLocalStorage() && !V->getType()->isReferenceType() &&
                 V->getType()->isIntegerType()
             ? V
             : nullptr;
}

KernelRun::CountedLoop countedLoop(const Expr *CondE, const Stmt *Inc, const Stmt *Body) {
  KernelRun::CountedLoop L;
  auto *IncE = dyn_cast_or_null<Expr>(Inc);
  auto *BO = CondE ? dyn_cast<BinaryOperator>(skipCastsAndParens(CondE)) : nullptr;
  if (!IncE || !BO || !BO->isRelationalOp() || leavesLoopEarly(Body))
    return L;
  const VarDecl *V = nullptr;
  const Expr *Bound = nullptr;
  CmpOp Op = llvm::StringSwitch<CmpOp>(BO->getOpcodeStr())
                 .Case("<", CmpOp::LT).Case("<=", CmpOp::LE)
                 .Case(">", CmpOp::GT).Default(CmpOp::GE);
  if ((V = counterOf(BO->getLHS()))) {
    Bound = BO->getRHS();
  } else if ((V = counterOf(BO->getRHS()))) {
    Bound = BO->getLHS();
    Op = swapCmp(Op);
  } else {
    return L;
  }
  // The step: `++v`, `v++`, `v += s`, `v -= s`, `v = v + s`, `v = s + v`.
  const Expr *Step = nullptr;
  bool Down = false;
  IncE = IncE->IgnoreParens();
  if (auto *UO = dyn_cast<UnaryOperator>(IncE)) {
    if (!UO->isIncrementDecrementOp() || counterOf(UO->getSubExpr()) != V)
      return L;
    Down = UO->isDecrementOp();
  } else if (auto *CA = dyn_cast<CompoundAssignOperator>(IncE)) {
    if (counterOf(CA->getLHS()) != V ||
        (CA->getOpcode() != BO_AddAssign && CA->getOpcode() != BO_SubAssign))
      return L;
    Step = CA->getRHS();
    Down = CA->getOpcode() == BO_SubAssign;
  } else if (auto *AS = dyn_cast<BinaryOperator>(IncE); AS && AS->getOpcode() == BO_Assign) {
    auto *Sum = dyn_cast<BinaryOperator>(skipCastsAndParens(AS->getRHS()));
    if (counterOf(AS->getLHS()) != V || !Sum || Sum->getOpcode() != BO_Add)
      return L;
    if (counterOf(Sum->getLHS()) == V)
      Step = Sum->getRHS();
    else if (counterOf(Sum->getRHS()) == V)
      Step = Sum->getLHS();
    else
      return L;
  } else {
    return L;
  }
  std::set<const VarDecl *> Mod, Through;
  collectModifiedVars(Body, Mod, &Through);
  if (Mod.count(V))
    return L;
  Mod.insert(V);
  if (!invariantScalar(Bound, Mod) || (Step && !invariantScalar(Step, Mod)))
    return L;
  L.V = V;
  L.Bound = Bound;
  L.Step = Step;
  L.Down = Down;
  L.Op = Op;
  return L;
}

} // namespace


std::optional<LaneInts> WarpInterp::laneTrips(const Stmt *Loop, const Expr *CondE,
                                              const Stmt *Inc, const Stmt *Body, bool IsDo) {
  if (IsDo)
    return std::nullopt;
  auto [It, New] = R.CountedLoops.try_emplace(Loop);
  if (New)
    It->second = countedLoop(CondE, Inc, Body);
  const KernelRun::CountedLoop &L = It->second;
  if (!L.V)
    return std::nullopt;
  Frame *F = frameOf(L.V);
  if (!F)
    return std::nullopt;
  auto VIt = F->Vars.find(L.V);
  if (VIt == F->Vars.end() || VIt->second.K != Value::Int || !VIt->second.P.isConcrete(Active))
    return std::nullopt;
  const LaneInts V0 = VIt->second.P.laneConstants();
  Value B, S;
  {
    DryRun Dry(*this);
    B = eval(L.Bound);
    S = L.Step ? eval(L.Step) : Value::constant(1);
  }
  if (B.K != Value::Int || S.K != Value::Int || !B.P.isConcrete(Active) ||
      !S.P.isConcrete(Active))
    return std::nullopt;
  const LaneInts Bs = B.P.laneConstants(), Ss = S.P.laneConstants();
  constexpr int64_t Safe = int64_t(1) << 30; // no wrap-around in any type
  LaneInts Trips{};
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    if (!laneActive(Active, Lane))
      continue;
    const int64_t A = V0[Lane], Bd = Bs[Lane], St = L.Down ? -Ss[Lane] : Ss[Lane];
    if (A < 0 || A >= Safe || Bd < 0 || Bd >= Safe || St == 0 || St >= Safe || St <= -Safe)
      return std::nullopt;
    int64_t Trip;
    switch (L.Op) {
    case CmpOp::LT:
      if (St < 0)
        return std::nullopt;
      Trip = Bd > A ? (Bd - A + St - 1) / St : 0;
      break;
    case CmpOp::LE:
      if (St < 0)
        return std::nullopt;
      Trip = Bd >= A ? (Bd - A) / St + 1 : 0;
      break;
    case CmpOp::GT:
      if (St > 0)
        return std::nullopt;
      Trip = A > Bd ? (A - Bd - St - 1) / -St : 0;
      break;
    default:
      if (St > 0)
        return std::nullopt;
      Trip = A >= Bd ? (A - Bd) / -St + 1 : 0;
      break;
    }
    Trips[Lane] = Trip;
  }
  return Trips;
}

bool WarpInterp::exceedsConcreteLimit(const Stmt *Loop, const Expr *CondE, const Stmt *Inc,
                                      const Stmt *Body, bool IsDo) {
  if (!R.Limits.SummarizeLoops)
    return false;
  const std::optional<LaneInts> Trips = laneTrips(Loop, CondE, Inc, Body, IsDo);
  if (!Trips)
    return false;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (laneActive(Active, Lane) && (*Trips)[Lane] > R.Limits.MaxConcreteIterations)
      return true;
  return false;
}

namespace {

bool sameFields(const std::shared_ptr<const FieldValues> &A,
                const std::shared_ptr<const FieldValues> &B);

/// Value::sameAs, and the parts it leaves out.
bool identical(const Value &A, const Value &B) {
  return A.sameAs(B) && A.Region == B.Region && A.P == B.P && A.Why == B.Why &&
         A.Where == B.Where && A.UniformId == B.UniformId && sameFields(A.Fields, B.Fields);
}

bool sameFields(const std::shared_ptr<const FieldValues> &A,
                const std::shared_ptr<const FieldValues> &B) {
  if (A == B)
    return true;
  if (!A || !B || A->size() != B->size())
    return false;
  for (auto I = A->begin(), J = B->begin(); I != A->end(); ++I, ++J)
    if (I->first != J->first || !identical(I->second, J->second))
      return false;
  return true;
}

/// An LValue's parts but its pointer.
bool sameBesidesPtr(const LValue &A, const LValue &B) {
  return A.K == B.K && A.VarD == B.VarD && A.FrameIdx == B.FrameIdx &&
         A.FieldPath == B.FieldPath && A.UnknownRegion == B.UnknownRegion &&
         A.Param == B.Param && A.ParamPath == B.ParamPath && A.Why == B.Why &&
         A.Subscripts == B.Subscripts && A.ArrayDecl == B.ArrayDecl &&
         A.RowLength == B.RowLength;
}

/// How a value moves from the start of one iteration to the next, seen at
/// the starts of three: not at all, or by a fixed amount (an integer or a
/// pointer into one region).
struct Step {
  bool Ok = false;
  Poly Delta; // zero: unchanged
};
Step stepOf(const Value &A, const Value &B, const Value &C) {
  const bool Num = (B.K == Value::Int || B.K == Value::Ptr) && C.K == B.K;
  if (Num) {
    if (A.K != B.K || (B.K == Value::Ptr && (A.Region != B.Region || B.Region != C.Region)))
      return {};
    if (B.Where != C.Where || A.Where != B.Where)
      return {};
    const Poly D1 = B.P - A.P, D2 = C.P - B.P;
    if (D1.overflowed() || D2.overflowed() || !(D1 == D2))
      return {};
    return {true, D2};
  }
  // Anything else must not change at all (a float made opaque in the first
  // iteration stays so).
  if (!identical(B, C))
    return {};
  return {true, Poly()};
}

/// Two events of one access in consecutive iterations: the same in every
/// part but the address, which moves by one amount on every lane (and a
/// declared array's subscripts, by theirs).
struct Shift {
  Poly Offset;
  std::vector<Poly> Subscripts;
};
std::optional<Shift> shiftBetween(const AccessEvent &A, const AccessEvent &B) {
  // Instructions with a second side, a partner or a rule of their own, and
  // vector chances, are not moved: the summary stops.
  if (A.SecondSide || B.SecondSide || A.Instr != InstrKind::Plain ||
      B.Instr != InstrKind::Plain || A.PartnerRegion || B.PartnerRegion || A.Chance ||
      B.Chance || !sameBesidesAddresses(A, B))
    return std::nullopt;
  Shift S;
  S.Offset = B.Offset - A.Offset;
  if (S.Offset.overflowed())
    return std::nullopt;
  // The cost of a request depends on its lanes' distances: the move must
  // be the same on every lane.
  if (!A.UnknownWhy.empty()) {
    if (!(S.Offset == Poly()))
      return std::nullopt;
  } else if (!S.Offset.isUniform(A.Active)) {
    return std::nullopt;
  }
  for (size_t I = 0; I < A.Subscripts.size(); ++I) {
    S.Subscripts.push_back(B.Subscripts[I] - A.Subscripts[I]);
    if (S.Subscripts.back().overflowed())
      return std::nullopt;
  }
  return S;
}

/// Whether the compiler's merge of adjacent accesses (models/SharedMerges.cpp)
/// could join two accesses in iterations the summary does not run: then
/// those iterations would have mattered to it. The model compares an
/// access with the other accesses of its window (the latest 32, so within
/// Reach iterations) at a distance the same on every lane, a multiple of
/// the width (at most 64 bytes). A (iteration i) and B (iteration i + m)
/// are Delta + i * (DB - DA) + m * DB apart, DA and DB their moves per
/// iteration: when the moves are equal, a distance that is ever mergeable
/// is so in every iteration, and the iterations run see it, unless it
/// needs m of 3 or more; when they differ, any iteration i in [0, Trips)
/// where it becomes one is a reason not to summarize. A distance that
/// differs between lanes stays so (the moves are the same on every lane).
/// (An access meets its own copies only in the next iteration, the latest
/// one the model compares it with: seen in the iterations run; the copy of
/// iteration 2 is more than 8 iterations before the first run again,
/// farther than any width it merges.)
bool mayMergeAcross(const std::vector<const AccessEvent *> &Events,
                    const std::vector<Shift> &Shifts, int64_t Reach, int64_t Trips) {
  for (size_t I = 0; I < Events.size(); ++I)
    for (size_t J = 0; J < Events.size(); ++J) {
      const AccessEvent &A = *Events[I], &B = *Events[J];
      if (A.Site == B.Site || !A.UnknownWhy.empty() || !B.UnknownWhy.empty() ||
          A.Region != B.Region || A.Op != B.Op || A.Width != B.Width || A.Active != B.Active ||
          A.Space != B.Space)
        continue;
      const Poly Dist = B.Offset - A.Offset;
      if (!Dist.isUniform(A.Active))
        continue; // lanes at different distances, in every iteration
      const Poly &DA = Shifts[I].Offset, &DB = Shifts[J].Offset;
      if (!Dist.isConcrete(A.Active) || !DA.isConcrete(A.Active) || !DB.isConcrete(A.Active))
        return true;
      const unsigned F = firstLane(A.Active);
      const int64_t Delta = Dist.laneConstants()[F], SA = DA.laneConstants()[F],
                    SB = DB.laneConstants()[F];
      const int64_t W = A.Width ? A.Width : 1;
      for (int64_t S = -64; S <= 64; S += W) {
        if (S == 0)
          continue;
        for (int64_t M = -Reach; M <= Reach; ++M) {
          const int64_t Num = S - Delta - M * SB;
          if (SA == SB) {
            if (Num == 0 && (M >= 3 || M <= -3))
              return true;
            continue;
          }
          const int64_t Den = SB - SA;
          if (Num % Den == 0 && Num / Den >= 0 && Num / Den < Trips)
            return true;
        }
      }
    }
  return false;
}

} // namespace

std::vector<uint64_t> WarpInterp::walkCounters() const {
  return {Sticky.size(),  Assumptions.size(), MaskWhys.size(),       OrderingsRun,
          DivergentExits, SunkLoads.size(),   R.Mergeable.size(),    R.Cuts.size(),
          R.StatedUsed.size(), Loops.size(),  Models.Accesses};
}

WarpInterp::IterationMark WarpInterp::markIteration() const {
  IterationMark M;
  M.Frames = Frames;
  M.Events = Buffered.size();
  M.Accesses = Models.Accesses;
  M.Steps = R.Steps;
  M.Scalars = walkCounters();
  M.Scalars.pop_back(); // the accesses grow
  M.Control = ControlUnknown;
  return M;
}

bool WarpInterp::skipAlikeIterations(const IterationMark &M1, const IterationMark &M2,
                                     unsigned &Iter, int64_t AllRun, int64_t MaxRun) {
  // Nothing but the marks' own frames and events may differ: the walker's
  // other state is the same at the start of every iteration.
  IterationMark M3;
  M3.Events = Buffered.size();
  M3.Accesses = Models.Accesses;
  M3.Steps = R.Steps;
  M3.Scalars = walkCounters();
  M3.Scalars.pop_back();
  M3.Control = ControlUnknown;
  if (M1.Scalars != M2.Scalars || M2.Scalars != M3.Scalars || !(M1.Control == M2.Control) ||
      !(M2.Control == M3.Control))
    return false;
  const size_t N = M2.Events - M1.Events;
  const uint64_t PerIteration = M3.Accesses - M2.Accesses;
  if (M3.Events - M2.Events != N || M2.Accesses - M1.Accesses != PerIteration)
    return false;
  // The iterations run again at the end: enough for the 32 latest accesses
  // the merge model remembers to be theirs.
  const int64_t Tail = 33 / static_cast<int64_t>(std::max<uint64_t>(PerIteration, 1)) + 2;
  const int64_t Until = AllRun - Tail; // the first iteration run again
  if (Until < 3 + 8)
    return false;
  // The iterations not run cost the steps they would have taken, so that
  // the budget runs out where the walk of every iteration runs out (and
  // that walk is the one that says where): no summary across that point.
  const uint64_t StepsPerIteration = M3.Steps - M2.Steps;
  if (M2.Steps - M1.Steps != StepsPerIteration ||
      R.Steps + StepsPerIteration * static_cast<uint64_t>(Until - 3) > R.Limits.MaxSteps)
    return false;
  // 1. The events of iteration 2 are those of iteration 1, moved.
  std::vector<Shift> Shifts;
  std::vector<const AccessEvent *> Second;
  Shifts.reserve(N);
  for (size_t I = 0; I < N; ++I) {
    std::optional<Shift> S = shiftBetween(Buffered[M1.Events + I], Buffered[M2.Events + I]);
    if (!S)
      return false;
    Shifts.push_back(std::move(*S));
    Second.push_back(&Buffered[M2.Events + I]);
  }
  const int64_t Reach = 32 / static_cast<int64_t>(std::max<uint64_t>(PerIteration, 1)) + 2;
  if (mayMergeAcross(Second, Shifts, Reach, MaxRun))
    return false;
  // 2. Every variable moves by a fixed amount per iteration.
  if (M1.Frames.size() != Frames.size() || M2.Frames.size() != Frames.size())
    return false;
  struct Move {
    Value *Slot;
    Poly Delta;
    const VarDecl *Var; // for its range; null: a field or a reference
  };
  std::vector<Move> Moves;
  for (size_t F = 0; F < Frames.size(); ++F) {
    const Frame &A = M1.Frames[F], &B = M2.Frames[F];
    Frame &C = Frames[F];
    if (A.FD != C.FD || B.FD != C.FD || A.Returned != C.Returned || B.Returned != C.Returned ||
        A.Entry != C.Entry || A.Vars.size() != C.Vars.size() ||
        B.Vars.size() != C.Vars.size() || A.Fields.size() != C.Fields.size() ||
        B.Fields.size() != C.Fields.size() || A.Refs.size() != C.Refs.size() ||
        B.Refs.size() != C.Refs.size() || A.Groups.size() != C.Groups.size() ||
        A.RetVal.has_value() != C.RetVal.has_value() || A.RetLV || C.RetLV ||
        !A.OtherRets.empty() || !C.OtherRets.empty() || A.This.has_value() || C.This.has_value() ||
        A.ContextKey != C.ContextKey || A.Call != C.Call)
      return false;
    if (C.RetVal && !(identical(*A.RetVal, *C.RetVal) && identical(*B.RetVal, *C.RetVal)))
      return false;
    for (auto &[G, Info] : C.Groups) {
      auto GA = A.Groups.find(G), GB = B.Groups.find(G);
      if (GA == A.Groups.end() || GB == B.Groups.end())
        return false;
      for (auto [X, Y, Z] : {std::tie(GA->second.Rank, GB->second.Rank, Info.Rank),
                             std::tie(GA->second.Size, GB->second.Size, Info.Size),
                             std::tie(GA->second.Meta, GB->second.Meta, Info.Meta),
                             std::tie(GA->second.MetaSize, GB->second.MetaSize, Info.MetaSize)})
        if (!identical(X, Z) || !identical(Y, Z))
          return false;
    }
    for (auto &[VD, V] : C.Vars) {
      auto IA = A.Vars.find(VD), IB = B.Vars.find(VD);
      if (IA == A.Vars.end() || IB == B.Vars.end())
        return false;
      Step S = stepOf(IA->second, IB->second, V);
      if (!S.Ok)
        return false;
      if (!(S.Delta == Poly()))
        Moves.push_back({&V, S.Delta, VD});
    }
    for (auto &[Key, V] : C.Fields) {
      auto IA = A.Fields.find(Key), IB = B.Fields.find(Key);
      if (IA == A.Fields.end() || IB == B.Fields.end())
        return false;
      Step S = stepOf(IA->second, IB->second, V);
      if (!S.Ok)
        return false;
      if (!(S.Delta == Poly()))
        Moves.push_back({&V, S.Delta, nullptr});
    }
    for (auto &[VD, LV] : C.Refs) {
      auto IA = A.Refs.find(VD), IB = B.Refs.find(VD);
      if (IA == A.Refs.end() || IB == B.Refs.end() || !sameBesidesPtr(IA->second, LV) ||
          !sameBesidesPtr(IB->second, LV))
        return false;
      Step S = stepOf(IA->second.Ptr, IB->second.Ptr, LV.Ptr);
      if (!S.Ok)
        return false;
      if (!(S.Delta == Poly()))
        Moves.push_back({&LV.Ptr, S.Delta, nullptr});
    }
  }
  // 3. The values at the first iteration run again, within their types.
  const int64_t Skip = Until - 3; // iterations 3 .. Until-1 are not run
  std::vector<Poly> After;
  After.reserve(Moves.size());
  for (const Move &M : Moves) {
    Poly P = M.Slot->P + M.Delta.scaled(Skip);
    if (P.overflowed())
      return false;
    if (M.Var && M.Slot->K == Value::Int && P.isConcrete(Active)) {
      const uint64_t Bits = Ctx.getTypeSize(M.Var->getType());
      const int64_t Lo = Bits >= 64 ? INT64_MIN / 2 : -(int64_t(1) << (Bits - 1));
      const int64_t Hi = Bits >= 64 ? INT64_MAX / 2 : (int64_t(1) << (Bits - 1)) - 1;
      const LaneInts L = P.laneConstants();
      for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
        if (laneActive(Active, Lane) && (L[Lane] < Lo || L[Lane] > Hi))
          return false;
    }
    After.push_back(std::move(P));
  }
  // 4. The iterations skipped: iteration 2's events, moved k - 2 times.
  std::vector<AccessEvent> Made;
  Made.reserve(static_cast<size_t>(Skip) * N);
  for (int64_t K = 3; K < Until; ++K)
    for (size_t I = 0; I < N; ++I) {
      AccessEvent E = *Second[I];
      E.Offset = E.Offset + Shifts[I].Offset.scaled(K - 2);
      if (E.Offset.overflowed())
        return false;
      for (size_t S = 0; S < E.Subscripts.size(); ++S)
        E.Subscripts[S] = E.Subscripts[S] + Shifts[I].Subscripts[S].scaled(K - 2);
      Made.push_back(std::move(E));
    }
  for (AccessEvent &E : Made)
    Buffered.push_back(std::move(E));
  for (size_t I = 0; I < Moves.size(); ++I)
    Moves[I].Slot->P = std::move(After[I]);
  R.Steps += StepsPerIteration * static_cast<uint64_t>(Until - 3);
  Iter = static_cast<unsigned>(Until);
  return true;
}

bool WarpInterp::summaryWorthTrying(const Stmt *Loop, const Expr *CondE, const Stmt *Inc,
                                    const Stmt *Body, bool IsDo, LaneMask Entry,
                                    int64_t &AllRun, int64_t &MaxRun) {
  if (!R.Limits.SummarizeLoops)
    return false;
  const std::optional<LaneInts> Trips = laneTrips(Loop, CondE, Inc, Body, IsDo);
  if (!Trips)
    return false;
  AllRun = INT64_MAX;
  MaxRun = 0;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane)
    if (laneActive(Entry, Lane)) {
      AllRun = std::min(AllRun, (*Trips)[Lane]);
      MaxRun = std::max(MaxRun, (*Trips)[Lane]);
    }
  if (AllRun == INT64_MAX || AllRun < 24)
    return false;
  KernelRun::CountedLoop &L = R.CountedLoops[Loop];
  if (!L.Alike)
    L.Alike = iterationsAlike(Body, Inc, Ctx);
  return *L.Alike;
}

} // namespace interp
} // namespace coalesce

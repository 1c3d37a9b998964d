//===- Conditions.cpp - Conditions as lane masks ---------------------------===//
//
// A condition evaluates to the lanes on which it holds (Cond::Lanes), to a
// warp-uniform unknown outcome (Uniform: two worlds), to a lane-dependent
// bounds guard against an unknown bound (Guard: assumed to pass in interior
// warps, with the assumption said), or to something that depends on loaded
// data (Data). `&&` and `||` short-circuit per lane.
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"

#include <set>

using namespace clang;

namespace coalesce {
namespace interp {

Value WarpInterp::condToValue(const Cond &C, const Expr *E) {
  switch (C.K) {
  case Cond::Lanes:
  case Cond::Guard: {
    LaneInts V{};
    for (unsigned L = 0; L < WarpSize; ++L)
      V[L] = laneActive(C.True, L) ? 1 : 0;
    return Value::integer(Poly::lanes(V));
  }
  case Cond::Uniform: {
    // One unknown 0/1 for the warp, if each world is all lanes or none.
    const LaneMask A = Active;
    auto AllOrNone = [&](LaneMask M) { return (M & A) == A || (M & A) == 0; };
    if (!llvm::all_of(C.worlds(), AllOrNone))
      return Value::unknown(ReasonKind::ConditionDiffersByUnknown, {text(E)});
    return Value::integer(Poly::symbol(
        sym("cond:" + std::to_string(reinterpret_cast<uintptr_t>(E)),
            "(" + text(E) + ")", SymbolKind::Opaque)));
  }
  case Cond::Data:
    return Value::unknown(C.Why.empty() ? makeReason(ReasonKind::ConditionOnData) : C.Why);
  }
  return Value::opaque();
}

Cond WarpInterp::condFromValue(const Value &V, const Expr *E) {
  Cond C;
  C.Text = text(E);
  switch (V.K) {
  case Value::Int:
    return compare(V, Value::constant(0), CmpOp::NE, E);
  case Value::Ptr:
    C.K = Cond::Lanes;
    C.True = Active;
    return C;
  case Value::Unknown:
    C.K = Cond::Data;
    C.Why = V.Why;
    return C;
  case Value::Opaque:
    if (uniformIdOf(V)) {
      C.K = Cond::Uniform;
      C.True = Active;
      C.Worlds = {Active, 0};
      return C;
    }
    C.K = Cond::Data;
    C.Why = makeReason(ReasonKind::ConditionOnData);
    return C;
  }
  return C;
}

std::optional<LaneMask> WarpInterp::decideOverBlocks(const Poly &A, const Poly &B, CmpOp Op) {
  if (!R.Blocks && !R.SymbolicWarps)
    return std::nullopt;
  RangeCmp RC = compareOverRanges(A, B, Op, Active, [&](SymbolId S) {
    std::optional<std::pair<int64_t, int64_t>> Rg;
    if (R.BlockAxis.count(S)) {
      const SymbolInfo &I = R.Syms.get(S);
      Rg = std::make_pair(I.RangeStart, I.RangeStart + I.UniformRange - 1);
    }
    return Rg;
  });
  if (RC.K == RangeCmp::Decided)
    return RC.True;
  for (const auto &[S, V] : RC.Cuts)
    R.Cuts.push_back({R.BlockAxis[S], V});
  checkWarpCuts();
  return std::nullopt;
}

void WarpInterp::checkWarpCuts() {
  if (!R.SymbolicWarps)
    return;
  // A walk of several warps is used only when it cuts nothing but its
  // warps, and those in few places: no need to go on otherwise.
  std::set<int64_t> Between;
  for (const auto &[Axis, V] : R.Cuts) {
    if (Axis != KernelRun::WarpAxis)
      throw WarpsNotAlike{};
    Between.insert(V);
  }
  if (Between.size() > KernelRun::MaxWarpCuts)
    throw WarpsNotAlike{};
}

Cond WarpInterp::compare(const Value &L, const Value &Rv, CmpOp Op,
                         const Expr *E) {
  Cond C;
  C.Text = text(E);
  // A pointer the walk follows compared with a null pointer: not null, as
  // when it is a condition of its own (`if (p)`, condFromValue()).
  auto IsNull = [](const Value &V) {
    return (V.K == Value::Unknown && V.Why.Kind == ReasonKind::NullPointer) ||
           (V.K == Value::Int && V.P == Poly());
  };
  if ((Op == CmpOp::EQ || Op == CmpOp::NE) &&
      ((L.K == Value::Ptr && IsNull(Rv)) || (Rv.K == Value::Ptr && IsNull(L)))) {
    C.K = Cond::Lanes;
    C.True = Op == CmpOp::NE ? Active : 0;
    return C;
  }
  if (L.K == Value::Unknown || Rv.K == Value::Unknown) {
    C.K = Cond::Data;
    C.Why = L.K == Value::Unknown ? L.Why : Rv.Why;
    return C;
  }
  Poly A, B;
  if (L.K == Value::Int && Rv.K == Value::Int) {
    A = L.P;
    B = Rv.P;
  } else if (L.K == Value::Ptr && Rv.K == Value::Ptr && L.Region == Rv.Region) {
    A = L.P;
    B = Rv.P;
  } else if (L.K == Value::Ptr && Rv.K == Value::Int && Op == CmpOp::NE) {
    C.K = Cond::Lanes;
    C.True = Active;
    return C;
  } else if (uniformIdOf(L) && uniformIdOf(Rv)) {
    // Floating-point values the same on every lane (`beta != 0` with beta
    // a kernel parameter): the same outcome on every lane, either one.
    C.K = Cond::Uniform;
    C.True = Active;
    C.Worlds = {Active, 0};
    return C;
  } else {
    C.K = Cond::Data;
    C.Why = makeReason(ReasonKind::ConditionOnData);
    return C;
  }
  CmpResult Res = comparePoly(A, B, Op, Active);
  if (Res.K == CmpResult::Lanes) {
    C.K = Cond::Lanes;
    C.True = Res.True;
    return C;
  }
  // Over the blocks of a known grid this walk stands for, the outcome may
  // be the same in all of them (exact), or differ between them: then the
  // launch is walked again in parts (Analysis.cpp), and this walk's guess
  // below is thrown away.
  if (std::optional<LaneMask> M = decideOverBlocks(A, B, Op)) {
    C.K = Cond::Lanes;
    C.True = *M;
    return C;
  }
  if (Res.K == CmpResult::Uniform) {
    C.K = Cond::Uniform;
    C.True = Res.True;
    C.Worlds = {Res.True, Res.TrueOtherwise};
    return C;
  }
  // Lane-dependent and unknown: a bounds guard. In interior warps (blocks
  // far from both ends of the grid) an index lies above any fixed number and
  // below any size it is checked against: `i >= 0`, `i > 1` and `i < n` hold
  // on every lane, `i < 1024` with i counting blocks and `i >= n` on none.
  const bool LVar = !A.isUniform(Active), RVar = !B.isUniform(Active);
  C.K = Cond::Guard;
  CmpOp Norm = Op;
  if (!LVar && RVar)
    Norm = swapCmp(Op);
  bool Holds;
  if (LVar && RVar) {
    C.K = Cond::Data;
    C.Why = makeReason(ReasonKind::CompareUnknownDifference);
    return C;
  }
  // A fixed bound within reach of the lanes' own offsets is a lower edge
  // (`x >= 0`, `x > 1` with x = 16 * blockIdx.x + threadIdx.x - 1); any
  // other bound (a size parameter, or a fixed size well above the block's
  // own offsets) is an upper edge.
  const Poly &Bound = LVar ? B : A, &Index = LVar ? A : B;
  bool Fixed = Bound.isConcrete(Active);
  if (Fixed) {
    const int64_t V = Bound.laneConstants()[firstLane(Active)];
    auto Reaches = [&](const Poly &I) {
      const LaneInts IC = I.laneConstants();
      int64_t Hi = INT64_MIN;
      for (unsigned L = 0; L < WarpSize; ++L)
        if (laneActive(Active, L))
          Hi = std::max(Hi, IC[L]);
      return V <= Hi;
    };
    if (R.WarpSymbol && Index.mentions(*R.WarpSymbol)) {
      // A walk standing for several warps: the lanes' own offsets are each
      // warp's. With the warp symbol alone in its terms they move the
      // same way from warp to warp: the answer changes at most once over
      // the warps, and where it does the warps are cut (the walk is split
      // there, Analysis.cpp walkWarps()).
      const auto [Lo, Hi] = *R.SymbolicWarps;
      const SymbolId W = *R.WarpSymbol;
      if (!warpStep(Index, W, Active))
        throw WarpsNotAlike{};
      Fixed = Reaches(Index.substitute(W, Poly::constant(Lo)));
      for (int64_t Warp = Lo + 1; Warp < Hi; ++Warp)
        if (Reaches(Index.substitute(W, Poly::constant(Warp))) != Fixed) {
          R.Cuts.push_back({KernelRun::WarpAxis, Warp});
          checkWarpCuts();
          break;
        }
    } else {
      Fixed = Reaches(Index);
    }
  }
  switch (Norm) {
  case CmpOp::LT:
  case CmpOp::LE:
    Holds = !Fixed;
    break;
  case CmpOp::GT:
  case CmpOp::GE:
    Holds = Fixed;
    break;
  case CmpOp::NE:
    Holds = true;
    break;
  default:
    Holds = false;
  }
  C.True = Holds ? Active : 0;
  C.Guards.push_back("`" + C.Text + "` is " + (Holds ? "true" : "false"));
  return C;
}

Cond WarpInterp::evalCond(const Expr *E) {
  step();
  visit(E);
  visit(E->IgnoreParens());
  // A salvage walk takes every branch: it lists accesses, it predicts none.
  if (!R.Salvage.empty()) {
    eval(E);
    Cond C;
    C.K = Cond::Data;
    C.Why = makeReason(ReasonKind::BudgetExceeded, {R.Salvage});
    C.True = Active;
    return C;
  }
  DepthGuard G(*this);
  E = E->IgnoreParens();
  if (auto *FE = dyn_cast<FullExpr>(E))
    return evalCond(FE->getSubExpr());
  if (auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
    switch (IC->getCastKind()) {
    case CK_IntegralToBoolean:
    case CK_PointerToBoolean:
    case CK_NoOp:
    case CK_IntegralCast:
      return evalCond(IC->getSubExpr());
    default:
      break;
    }
  }
  if (auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot) {
    Cond C = evalCond(UO->getSubExpr());
    C.Text = text(E);
    switch (C.K) {
    case Cond::Lanes:
    case Cond::Guard:
      C.True = Active & ~C.True;
      break;
    case Cond::Uniform:
      C.True = Active & ~C.True;
      for (LaneMask &W : C.Worlds)
        W = Active & ~W;
      break;
    case Cond::Data:
      break;
    }
    return C;
  }
  if (auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isLogicalOp()) {
      const bool IsAnd = BO->getOpcode() == BO_LAnd;
      Cond A = evalCond(BO->getLHS());
      const LaneMask Save = Active;
      // Short circuit: the right side runs on the lanes that need it.
      Active = IsAnd ? (Save & A.True) : (Save & ~A.True);
      if (A.K != Cond::Lanes)
        Active = Save;
      Cond B;
      Models.sideEnter(BO); // the right side runs only on some lanes
      if (Active)
        B = evalCond(BO->getRHS());
      Active = Save;
      Models.sideExit(BO);
      Cond C;
      C.Text = text(E);
      if (A.K == Cond::Data || B.K == Cond::Data) {
        C.K = Cond::Data;
        C.Why = A.K == Cond::Data ? A.Why : B.Why;
        return C;
      }
      auto Combine = [&](LaneMask X, LaneMask Y) {
        return IsAnd ? (X & Y) : ((X | Y) & Save);
      };
      C.True = Combine(A.True, B.True);
      // Every combination of the operands' worlds is a world of the whole
      // (a side that is not uniform has one), distinct ones kept, at most
      // MaxWorlds: `y >= 0 && y < n` with two unknowns holds on all lanes
      // in one world and on none in another, and on some in others.
      constexpr size_t MaxWorlds = 16;
      for (LaneMask X : A.worlds())
        for (LaneMask Y : B.worlds()) {
          LaneMask W = Combine(X, Y);
          if (C.Worlds.size() < MaxWorlds && !llvm::is_contained(C.Worlds, W))
            C.Worlds.push_back(W);
        }
      C.Guards = A.Guards;
      C.Guards.insert(C.Guards.end(), B.Guards.begin(), B.Guards.end());
      // A warp-uniform unknown part dominates: whether it holds differs
      // between warps, so both sides of the branch run somewhere.
      if (A.K == Cond::Lanes && B.K == Cond::Lanes)
        C.K = Cond::Lanes;
      else if (A.K == Cond::Uniform || B.K == Cond::Uniform)
        C.K = Cond::Uniform;
      else
        C.K = Cond::Guard;
      return C;
    }
    if (BO->isComparisonOp()) {
      Value L = eval(BO->getLHS());
      Value Rv = eval(BO->getRHS());
      CmpOp Op = CmpOp::NE;
      switch (BO->getOpcode()) {
      case BO_LT: Op = CmpOp::LT; break;
      case BO_LE: Op = CmpOp::LE; break;
      case BO_GT: Op = CmpOp::GT; break;
      case BO_GE: Op = CmpOp::GE; break;
      case BO_EQ: Op = CmpOp::EQ; break;
      default: Op = CmpOp::NE; break;
      }
      return compare(L, Rv, Op, E);
    }
  }
  if (auto C = constantInt(E)) {
    Cond R;
    R.K = Cond::Lanes;
    R.True = *C ? Active : 0;
    R.Text = text(E);
    return R;
  }
  return condFromValue(eval(E), E);
}

} // namespace interp
} // namespace coalesce

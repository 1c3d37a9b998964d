//===- HostInterp.cpp - Host interpreter: memory, joins, roots -------------===//

#include "launch/HostInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/APValue.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;

namespace coalesce {
namespace host {

HostInterp::HostInterp(ASTContext &Ctx, HostLimits L) : Ctx(Ctx), Limits(L) {}
HostInterp::~HostInterp() = default;

bool HostInterp::State::operator==(const State &O) const {
  return Cells == O.Cells && sameUpTo(O, Cells.size());
}

bool HostInterp::State::sameUpTo(const State &O, size_t Keep) const {
  if (Cells.size() < Keep || O.Cells.size() < Keep ||
      !std::equal(Cells.begin(), Cells.begin() + Keep, O.Cells.begin()))
    return false;
  if (Live != O.Live || Globals != O.Globals || Bound != O.Bound ||
      Lower != O.Lower || AddrTaken != O.AddrTaken || ConstCells != O.ConstCells ||
      Vars.size() != O.Vars.size())
    return false;
  for (const auto &[VD, L] : Vars) {
    auto It = O.Vars.find(VD);
    if (It == O.Vars.end() || It->second != L)
      return false;
  }
  return true;
}

void HostInterp::step() {
  ++Steps;
  if (Steps > LoopLimit)
    throw GiveUp{LoopLimit};
  if (Steps - RootStart > Limits.StepsPerRoot || Steps > Limits.TotalSteps)
    throw OutOfSteps{};
}

WhyId HostInterp::why(ReasonKind K, std::vector<std::string> Args) {
  Reason R = makeReason(K, std::move(Args));
  auto It = WhyIndex.find(R.Text);
  if (It != WhyIndex.end())
    return It->second;
  WhyId W = static_cast<WhyId>(Whys.size());
  WhyIndex.emplace(R.Text, W);
  Whys.push_back(std::move(R));
  return W;
}

WhyId HostInterp::whyAt(ReasonKind K, const Stmt *S) { return why(K, {where(S)}); }

const Reason &HostInterp::whyReason(WhyId W) const {
  static const Reason None;
  return W < Whys.size() ? Whys[W] : None;
}

std::string HostInterp::where(const Stmt *S) const {
  return S ? fileLine(Ctx, S->getBeginLoc()) : std::string("?");
}

IntType HostInterp::intType(QualType T) const {
  IntType R;
  T = T.getCanonicalType();
  if (const auto *ET = T->getAs<EnumType>())
    T = ET->getDecl()->getIntegerType().getCanonicalType();
  if (T.isNull() || !T->isIntegralOrEnumerationType())
    return R;
  if (T->isBooleanType()) {
    R.Bool = true;
    R.Width = 1;
    R.Signed = false;
    return R;
  }
  R.Width = static_cast<unsigned>(Ctx.getIntWidth(T));
  R.Signed = T->isSignedIntegerOrEnumerationType();
  if (R.Width > 64)
    R.Width = 128; // __int128: wide enough to hold, not to check
  return R;
}

HVal HostInterp::withStated(const ValueDecl *VD, HVal V, State &St) {
  if (Limits.Stated.empty() || !VD || !VD->getDeclName().isIdentifier() ||
      !VD->getType()->isIntegralOrEnumerationType())
    return V;
  auto It = Limits.Stated.find(VD->getName().str());
  if (It == Limits.Stated.end())
    return V;
  V = resolve(V, St.Bound);
  if (V.K != HVal::Unknown && V.K != HVal::Sym)
    return V;
  StatedUsed.insert(It->first);
  // An unknown the code already named (`n` read twice, say): the stated
  // value binds the symbol, so what was computed from it is known too.
  if (V.K == HVal::Sym && V.Mul == 1 && V.I == 0 && It->second >= V.Lo && It->second <= V.Hi)
    bindSymbol(St, V.S, It->second);
  return HVal::integer(It->second);
}

HVal HostInterp::fresh(const IntType &T, WhyId W) {
  return HVal::symbol(NextSym++, T, W);
}

size_t HostInterp::aggregateSize(QualType T) const {
  T = T.getCanonicalType();
  if (const auto *AT = Ctx.getAsConstantArrayType(T)) {
    uint64_t N = AT->getZExtSize();
    return N <= Limits.MaxAggregate ? static_cast<size_t>(N) : 0;
  }
  if (const auto *RD = T->getAsRecordDecl()) {
    if (RD->isUnion() || !RD->getDefinition())
      return 0;
    if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD->getDefinition()))
      if (CRD->getNumBases() || CRD->isPolymorphic())
        return 0;
    size_t N = std::distance(RD->getDefinition()->field_begin(),
                             RD->getDefinition()->field_end());
    return N <= Limits.MaxFields ? N : 0;
  }
  return 0;
}

HVal HostInterp::zeroOf(QualType T, unsigned Depth) {
  T = T.getCanonicalType();
  if (T->isIntegralOrEnumerationType())
    return HVal::integer(0);
  if (T->isRealFloatingType())
    return HVal::floating(0);
  if (T->isPointerType() || T->isNullPtrType())
    return HVal::pointer(0);
  if (Depth > 4)
    return HVal::unknown();
  if (const auto *AT = Ctx.getAsConstantArrayType(T)) {
    size_t N = aggregateSize(T);
    if (!N)
      return HVal::unknown();
    HVal E = zeroOf(AT->getElementType(), Depth + 1);
    HVal R = HVal::aggregate(N);
    for (HVal &X : R.Elems)
      X = E;
    return R;
  }
  if (const auto *RD = T->getAsRecordDecl()) {
    size_t N = aggregateSize(T);
    if (!N)
      return HVal::unknown();
    HVal R = HVal::aggregate(N);
    size_t I = 0;
    for (const FieldDecl *FD : RD->getDefinition()->fields())
      R.Elems[I++] = zeroOf(FD->getType(), Depth + 1);
    return R;
  }
  return HVal::unknown();
}

uint32_t HostInterp::allocCell(State &St, HVal V) {
  St.Cells.push_back(std::move(V));
  return static_cast<uint32_t>(St.Cells.size() - 1);
}

HVal HostInterp::globalInitial(const VarDecl *VD) {
  QualType T = VD->getType();
  // Constants keep their initial value; any other global may have been
  // changed before the walk starts (by another file, an earlier call).
  if (T.isConstQualified() || VD->isConstexpr()) {
    if (const VarDecl *Def = VD->getInitializingDeclaration())
      if (const APValue *V = Def->evaluateValue())
        return fromAPValue(*V, T);
  }
  return HVal::unknown(why(ReasonKind::HostGlobalVariable, {VD->getNameAsString()}));
}

HVal HostInterp::fromAPValue(const APValue &V, QualType T, unsigned Depth) {
  if (Depth > 4)
    return HVal::unknown();
  T = T.getCanonicalType();
  switch (V.getKind()) {
  case APValue::Int: {
    const llvm::APSInt &I = V.getInt();
    if (I.getBitWidth() > 64)
      return HVal::unknown();
    return HVal::integer(I.isSigned() ? Wide(I.getSExtValue()) : Wide(I.getZExtValue()));
  }
  case APValue::Float:
    return HVal::floating(V.getFloat().convertToDouble());
  case APValue::Struct: {
    size_t N = aggregateSize(T);
    const auto *RD = T->getAsRecordDecl();
    if (!N || !RD || V.getStructNumBases() || V.getStructNumFields() != N)
      return HVal::unknown();
    HVal R = HVal::aggregate(N);
    size_t I = 0;
    for (const FieldDecl *FD : RD->getDefinition()->fields()) {
      R.Elems[I] = fromAPValue(V.getStructField(I), FD->getType(), Depth + 1);
      ++I;
    }
    return R;
  }
  case APValue::Array: {
    size_t N = aggregateSize(T);
    const auto *AT = Ctx.getAsConstantArrayType(T);
    if (!N || !AT || V.getArraySize() != N)
      return HVal::unknown();
    HVal R = HVal::aggregate(N);
    for (size_t I = 0; I < N; ++I)
      R.Elems[I] = fromAPValue(I < V.getArrayInitializedElts() ? V.getArrayInitializedElt(I)
                                                               : V.getArrayFiller(),
                               AT->getElementType(), Depth + 1);
    return R;
  }
  case APValue::LValue:
    if (V.isNullPointer())
      return HVal::pointer(0);
    if (const ValueDecl *D = V.getLValueBase().dyn_cast<const ValueDecl *>())
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        return HVal::function(FD);
    return HVal::unknown();
  default:
    return HVal::unknown();
  }
}

std::optional<Loc> HostInterp::varLoc(State &St, const VarDecl *VD) {
  auto It = St.Vars.find(VD);
  if (It != St.Vars.end())
    return It->second;
  if (VD->hasGlobalStorage()) {
    Loc L;
    L.Global = VD->getCanonicalDecl();
    return L;
  }
  return std::nullopt; // a local of a frame this walk does not have
}

HVal *HostInterp::cellOf(State &St, const Loc &L, bool ForWrite) {
  HVal *V;
  if (L.Global) {
    auto It = St.Globals.find(L.Global);
    if (It == St.Globals.end())
      It = St.Globals.emplace(L.Global, globalInitial(L.Global)).first;
    V = &It->second;
  } else {
    if (L.Cell >= St.Cells.size())
      return nullptr;
    V = &St.Cells[L.Cell];
  }
  for (const PathStep &P : L.Path) {
    if (V->K != HVal::Agg || V->Elems.size() != P.Count) {
      if (!ForWrite || !P.Count)
        return nullptr;
      // An unknown aggregate becomes element-wise unknown.
      WhyId W = V->Why;
      *V = HVal::aggregate(P.Count, W);
    }
    if (P.Index >= V->Elems.size())
      return nullptr;
    V = &V->Elems[P.Index];
  }
  return V;
}

HVal HostInterp::read(State &St, const Loc &L, QualType T) {
  HVal *V = cellOf(St, L, /*ForWrite=*/false);
  if (!V) {
    // The part of an unknown aggregate: give it an identity if it is an
    // integer, so that copies of it stay tied to it.
    if (!T.isNull() && T->isIntegralOrEnumerationType()) {
      HVal *Root = cellOf(St, Loc{L.Cell, L.Global, {}}, false);
      WhyId W = Root ? Root->Why : 0;
      if (HVal *Slot = cellOf(St, L, /*ForWrite=*/true)) {
        *Slot = fresh(intType(T), Slot->Why ? Slot->Why : W);
        return *Slot;
      }
    }
    return HVal::unknown();
  }
  HVal R = resolve(*V, St.Bound);
  if (R.K == HVal::Unknown && !T.isNull() && T->isIntegralOrEnumerationType()) {
    *V = fresh(intType(T), R.Why);
    return *V;
  }
  return R;
}

void HostInterp::write(State &St, const Loc &L, HVal V) {
  if (HVal *Slot = cellOf(St, L, /*ForWrite=*/true))
    *Slot = std::move(V);
}

void HostInterp::markAddrTaken(State &St, const Loc &L) {
  if (!L.Global)
    St.AddrTaken.insert(L.Cell);
}

void HostInterp::havocLoc(State &St, const Loc &L, QualType Pointee, WhyId W) {
  // A function that gets the address of a part may write around it: the
  // whole variable becomes unknown. A pointer written through its address
  // (cudaMalloc(&p, n)) is taken as the start of an allocation.
  Loc Root{L.Cell, L.Global, {}};
  HVal *Slot = cellOf(St, Root, /*ForWrite=*/true);
  if (!Slot)
    return;
  if (L.Path.empty() && !Pointee.isNull() && Pointee->isPointerType())
    *Slot = HVal::pointer(0);
  else
    *Slot = HVal::unknown(W);
}

void HostInterp::havocEscaped(State &St, WhyId W) {
  for (uint32_t C : St.AddrTaken)
    if (C < St.Cells.size() && !St.ConstCells.count(C))
      St.Cells[C] = HVal::unknown(W);
  for (auto It = St.Globals.begin(); It != St.Globals.end();) {
    QualType T = It->first->getType();
    if (T.isConstQualified() || It->first->isConstexpr())
      ++It;
    else
      It = St.Globals.erase(It);
  }
}

void HostInterp::bindSymbol(State &St, SymId S, Wide V) {
  St.Bound.emplace(S, V);
}

HostInterp::State HostInterp::join(const State &A, const State &B, WhyId W) {
  if (!A.Live)
    return B;
  if (!B.Live)
    return A;
  State R;
  const size_t N = std::max(A.Cells.size(), B.Cells.size());
  R.Cells.resize(N);
  for (size_t I = 0; I < N; ++I) {
    if (I >= A.Cells.size())
      R.Cells[I] = B.Cells[I];
    else if (I >= B.Cells.size())
      R.Cells[I] = A.Cells[I];
    else
      R.Cells[I] = coalesce::host::join(resolve(A.Cells[I], A.Bound),
                                        resolve(B.Cells[I], B.Bound), W);
  }
  for (const auto &[VD, V] : A.Globals) {
    auto It = B.Globals.find(VD);
    HVal Other = It != B.Globals.end() ? It->second : globalInitial(VD);
    R.Globals.emplace(VD, coalesce::host::join(resolve(V, A.Bound), resolve(Other, B.Bound), W));
  }
  for (const auto &[VD, V] : B.Globals)
    if (!A.Globals.count(VD))
      R.Globals.emplace(VD, coalesce::host::join(resolve(globalInitial(VD), A.Bound),
                                                 resolve(V, B.Bound), W));
  for (const auto &[S, V] : A.Bound) {
    auto It = B.Bound.find(S);
    if (It != B.Bound.end() && It->second == V)
      R.Bound.emplace(S, V);
  }
  // A bound that holds on both paths: the weaker one.
  for (const auto &[S, V] : A.Lower) {
    auto It = B.Lower.find(S);
    if (It != B.Lower.end())
      R.Lower.emplace(S, std::min(V, It->second));
  }
  R.Vars = A.Vars;
  for (const auto &[VD, L] : B.Vars)
    R.Vars.try_emplace(VD, L);
  R.AddrTaken = A.AddrTaken;
  R.AddrTaken.insert(B.AddrTaken.begin(), B.AddrTaken.end());
  for (uint32_t C : A.ConstCells)
    if (B.ConstCells.count(C))
      R.ConstCells.insert(C);
  return R;
}

HostInterp::State HostInterp::joinAll(std::vector<State> &States, WhyId W) {
  State R;
  R.Live = false;
  for (State &S : States)
    R = R.Live ? join(R, S, W) : std::move(S);
  return R;
}

namespace {
/// Conditions are read to learn from them, not to run them: no launch is
/// recorded while they are evaluated.
struct PauseRecording {
  bool &Flag;
  bool Saved;
  explicit PauseRecording(bool &F) : Flag(F), Saved(F) { F = false; }
  ~PauseRecording() { Flag = Saved; }
};
} // namespace

void HostInterp::refine(State &St, const Expr *Cond, bool Truth) {
  if (!Cond || !St.Live)
    return;
  Cond = skipCastsAndParens(Cond);
  // assert(c) is `static_cast<bool>(c) ? void(0) : __assert_fail(...)`.
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(Cond);
      EC && EC->getType()->isBooleanType() && EC->getSubExpr()->getType()->isBooleanType())
    return refine(St, EC->getSubExpr(), Truth);
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond); UO && UO->getOpcode() == UO_LNot)
    return refine(St, UO->getSubExpr(), !Truth);
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return;
  if ((BO->getOpcode() == BO_LAnd && Truth) || (BO->getOpcode() == BO_LOr && !Truth)) {
    refine(St, BO->getLHS(), Truth);
    refine(St, BO->getRHS(), Truth);
    return;
  }
  if (BO->isRelationalOp()) {
    refineBound(St, BO, Truth);
    return;
  }
  if (!((BO->getOpcode() == BO_EQ && Truth) || (BO->getOpcode() == BO_NE && !Truth)))
    return;
  // x == C: learn the symbol behind x. Reading has no side effects here:
  // only side-effect-free operands are looked at.
  if (BO->getLHS()->HasSideEffects(Ctx) || BO->getRHS()->HasSideEffects(Ctx))
    return;
  PauseRecording Guard(Recording);
  HVal L = eval(BO->getLHS(), St), R = eval(BO->getRHS(), St);
  if (L.K == HVal::Int)
    std::swap(L, R);
  if (R.K != HVal::Int)
    return;
  if (auto S = solveEquals(L, R.I))
    bindSymbol(St, S->first, S->second);
}

void HostInterp::refineBound(State &St, const BinaryOperator *BO, bool Truth) {
  // x > C, x >= C (or C < x, C <= x) on the path where it holds, and the
  // negation of x < C, x <= C: a lower bound of the symbol behind x.
  if (BO->getLHS()->HasSideEffects(Ctx) || BO->getRHS()->HasSideEffects(Ctx))
    return;
  PauseRecording Guard(Recording);
  HVal L = resolve(eval(BO->getLHS(), St), St.Bound);
  HVal R = resolve(eval(BO->getRHS(), St), St.Bound);
  BinaryOperatorKind Op = BO->getOpcode();
  if (L.K == HVal::Int && R.K == HVal::Sym) {
    std::swap(L, R);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (L.K != HVal::Sym || R.K != HVal::Int || L.Mul <= 0)
    return;
  if (!Truth)
    Op = BinaryOperator::negateComparisonOp(Op);
  // L = Mul * S + I, valid in [Lo, Hi]: L >= Least.
  Wide Least;
  if (Op == BO_GE)
    Least = R.I;
  else if (Op == BO_GT)
    Least = R.I + 1;
  else
    return;
  if (Least < L.Lo || Least > L.Hi)
    return;
  const Wide D = Least - L.I;
  const Wide SMin = D >= 0 ? (D + L.Mul - 1) / L.Mul : -((-D) / L.Mul);
  auto [It, New] = St.Lower.emplace(L.S, SMin);
  if (!New)
    It->second = std::max(It->second, SMin);
  LowerAt[L.S] = fileLine(Ctx, BO->getBeginLoc());
}

void HostInterp::walkRoot(const FunctionDecl *Fn, bool Called) {
  if (!Fn || !Fn->hasBody())
    return;
  const size_t From = Seen.size();
  walkOnce(Fn, Called);
  splitOnBranches(Fn, Called, From, 0);
}

std::optional<bool> HostInterp::forcedSide(const Stmt *S) const {
  for (const auto &[At, Side] : Forced)
    if (At == S)
      return Side;
  return std::nullopt;
}

std::string HostInterp::forcedText() const {
  std::string Out;
  for (const auto &[S, Side] : Forced) {
    const Expr *Cond = nullptr;
    if (const auto *If = dyn_cast<IfStmt>(S))
      Cond = If->getCond();
    else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
      Cond = CO->getCond();
    if (!Cond)
      continue;
    Out += Out.empty() ? "when " : " and ";
    Out += "`" + exprText(Ctx, Cond) + "` at " + where(Cond) + " is " + (Side ? "true" : "false");
  }
  return Out;
}

void HostInterp::splitOnBranches(const FunctionDecl *Fn, bool Called, size_t From,
                                 unsigned Depth) {
  if (Depth >= Limits.MaxSplits)
    return;
  // The branches behind this walk's unknown block shapes, in the order met;
  // each costs two walks of the root, so a few, and only while most of the
  // file's budget is left for the walks of other roots.
  std::vector<const Stmt *> Points;
  for (size_t I = From; I < Seen.size(); ++I)
    if (const Stmt *P = Seen[I].SplitAt;
        P && !forcedSide(P) && llvm::find(Points, P) == Points.end())
      Points.push_back(P);
  if (Points.size() > Limits.MaxSplitPoints)
    Points.resize(Limits.MaxSplitPoints);
  for (const Stmt *P : Points) {
    if (Steps > Limits.TotalSteps / 2)
      return;
    std::set<const Expr *> Sites;
    // A placeholder (a kernel that differs between the sides): what a side
    // finds is worth keeping even where the block shape stays unknown.
    bool CalleeSplit = false;
    for (size_t I = From; I < Seen.size(); ++I)
      if (Seen[I].SplitAt == P) {
        Sites.insert(Seen[I].Site);
        CalleeSplit |= !Seen[I].Kernel;
      }
    std::vector<LaunchSeen> Found;
    bool Complete = true, Known = false;
    for (bool Side : {true, false}) {
      std::vector<LaunchSeen> Kept = std::move(Seen);
      Seen.clear();
      Forced.emplace_back(P, Side);
      const bool RanOutBefore = RanOut;
      walkOnce(Fn, Called);
      splitOnBranches(Fn, Called, 0, Depth + 1);
      Forced.pop_back();
      if (RanOut && !RanOutBefore)
        Complete = false; // a side cut short: its launches are not all there
      for (LaunchSeen &L : Seen)
        if (Sites.count(L.Site)) {
          Known |= L.Block.has_value() || (CalleeSplit && L.Kernel);
          Found.push_back(std::move(L));
        }
      Seen = std::move(Kept);
    }
    // Each side's launches replace the launch that joined them, when the
    // split taught something: a side may be infeasible (no launch), but
    // not every side.
    if (!Complete || !Known)
      continue;
    Seen.erase(std::remove_if(Seen.begin() + static_cast<std::ptrdiff_t>(From), Seen.end(),
                              [&](const LaunchSeen &L) { return L.SplitAt == P; }),
               Seen.end());
    for (LaunchSeen &L : Found) {
      const bool Dup =
          llvm::any_of(Seen, [&](const LaunchSeen &S) { return sameLaunch(S, L); });
      if (!Dup)
        Seen.push_back(std::move(L));
    }
  }
}

void HostInterp::walkOnce(const FunctionDecl *Fn, bool Called) {
  if (Steps > Limits.TotalSteps) {
    RanOut = true;
    return;
  }
  RootStart = Steps;
  FailedLoops.clear();
  StatedUsed.clear();
  State St;
  std::vector<HVal> Args;
  std::vector<std::optional<Loc>> Locs;
  for (const ParmVarDecl *P : Fn->parameters()) {
    // A function other files can call: their calls are not followed (the
    // walk sees one translation unit), so say so.
    const bool External = Fn->isExternallyVisible() && !Fn->isMain();
    const ReasonKind Callers = !Called  ? External ? ReasonKind::HostParamExternal
                                                   : ReasonKind::HostParamNotCalled
                               : RanOut ? ReasonKind::HostParamNotReached
                                        : ReasonKind::HostParamNotFollowed;
    WhyId W = why(Callers, {P->getNameAsString(), Fn->getNameAsString()});
    if (P->getType()->isReferenceType()) {
      uint32_t C = allocCell(St, HVal::unknown(W));
      Locs.push_back(Loc{C, nullptr, {}});
      Args.push_back(HVal::unknown(W));
    } else {
      Locs.push_back(std::nullopt);
      Args.push_back(withStated(P, HVal::unknown(W), St));
    }
  }
  std::optional<Loc> This;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Fn); MD && MD->isInstance()) {
    QualType T = MD->getThisType()->getPointeeType();
    size_t N = aggregateSize(T);
    uint32_t C = allocCell(
        St, N ? HVal::aggregate(N, why(ReasonKind::HostObjectCalledOn, {MD->getNameAsString()}))
              : HVal::unknown());
    This = Loc{C, nullptr, {}};
  }
  try {
    enter(Fn, std::move(Args), std::move(Locs), This, nullptr, nullptr, St);
  } catch (const OutOfSteps &) {
    RanOut = true;
    // Launches recorded so far stand; the rest get evaluateAlone().
  } catch (const GiveUp &) {
  }
  Frames.clear();
  JumpStack.clear();
  LoopLimit = ~uint64_t(0);
  Recording = true;
}

void HostInterp::evaluateAlone(const Expr *Site, const FunctionDecl *Fn) {
  // A small budget of its own: every launch gets at least this.
  const HostLimits Saved = Limits;
  Limits.StepsPerRoot = 2000;
  Limits.TotalSteps = Steps + 2000;
  RootStart = Steps;
  State St;
  Frame F;
  F.Fn = Fn;
  Frames.push_back(F);
  try {
    launch(Site, St);
  } catch (const OutOfSteps &) {
  } catch (const GiveUp &) {
  }
  Frames.clear();
  JumpStack.clear();
  LoopLimit = ~uint64_t(0);
  Recording = true;
  Limits = Saved;
}

std::set<const Expr *> HostInterp::reachedSites() const {
  std::set<const Expr *> Out;
  for (const LaunchSeen &L : Seen)
    Out.insert(L.Site);
  return Out;
}

std::vector<LaunchSeen> HostInterp::takeSeen() {
  // More launch configurations at one site than MaxSeenPerSite: one, with
  // what they all share.
  std::map<std::pair<const Expr *, const FunctionDecl *>, std::vector<size_t>> BySite;
  for (size_t I = 0; I < Seen.size(); ++I)
    BySite[{Seen[I].Site, Seen[I].Kernel}].push_back(I);
  std::vector<bool> Drop(Seen.size(), false);
  for (auto &[Key, Idx] : BySite) {
    if (Idx.size() <= Limits.MaxSeenPerSite)
      continue;
    LaunchSeen &First = Seen[Idx.front()];
    const Reason Many =
        makeReason(ReasonKind::BlockManyValues, {std::to_string(Limits.MaxSeenPerSite)});
    for (size_t K = 1; K < Idx.size(); ++K) {
      const LaunchSeen &O = Seen[Idx[K]];
      if (First.Grid != O.Grid)
        First.Grid.reset();
      if (First.Block != O.Block) {
        First.Block.reset();
        First.BlockWhy = Many;
      }
      for (size_t A = 0; A < First.Args.size() && A < O.Args.size(); ++A)
        First.Args[A] = coalesce::host::join(First.Args[A], O.Args[A], 0);
      for (size_t A = 0; A < First.ArgMin.size(); ++A)
        if (First.ArgMin[A] && (A >= O.ArgMin.size() || !O.ArgMin[A]))
          First.ArgMin[A].reset();
        else if (First.ArgMin[A])
          First.ArgMin[A] = std::min(*First.ArgMin[A], *O.ArgMin[A]);
      Drop[Idx[K]] = true;
    }
  }
  std::vector<LaunchSeen> Out;
  for (size_t I = 0; I < Seen.size(); ++I)
    if (!Drop[I])
      Out.push_back(std::move(Seen[I]));
  Seen.clear();
  return Out;
}

} // namespace host
} // namespace coalesce

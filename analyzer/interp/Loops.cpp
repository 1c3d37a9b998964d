//===- Loops.cpp - Loops, concrete and symbolic ----------------------------===//
//
// A loop is first run iteration by iteration while its condition is known
// on every lane (unrolled tiles, reductions), up to a limit. Otherwise it is
// run once with a symbolic iteration counter k: a probe iteration finds the
// variables that change by a fixed amount per iteration (induction
// variables), which then become v0 + k * step, exact for every iteration;
// the trip count, when known, weights the requests. Anything else the loop
// changes becomes unknown with the loop named.
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>

using namespace clang;

namespace coalesce {
namespace interp {

namespace {

/// Whether E reads no variable but VD (constants and VD itself).
bool readsOnly(const Stmt *E, const VarDecl *VD) {
  if (auto *DR = dyn_cast<DeclRefExpr>(E))
    if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (V != VD && !V->isUsableInConstantExpressions(V->getASTContext()))
        return false;
  if (isa<CallExpr>(E) || isa<StmtExpr>(E) || isa<ArraySubscriptExpr>(E) ||
      isa<MemberExpr>(E) || isa<PseudoObjectExpr>(E))
    return false;
  if (auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
    return false;
  for (const Stmt *C : E->children())
    if (C && !readsOnly(C, VD))
      return false;
  return true;
}

} // namespace

const Expr *WarpInterp::selfUpdate(const Stmt *Body, const VarDecl *VD) {
  // The one statement of the body (at its top level: it runs in every
  // iteration) that changes VD, from VD and constants only.
  std::set<const VarDecl *> Mod;
  const Expr *Found = nullptr;
  auto Stmts = isa<CompoundStmt>(Body) ? llvm::ArrayRef<Stmt *>(
                                             cast<CompoundStmt>(Body)->body().begin(),
                                             cast<CompoundStmt>(Body)->body().end())
                                       : llvm::ArrayRef<Stmt *>();
  std::vector<const Stmt *> All(Stmts.begin(), Stmts.end());
  if (!isa<CompoundStmt>(Body))
    All.push_back(Body);
  for (const Stmt *S : All) {
    Mod.clear();
    collectModifiedVars(S, Mod);
    if (!Mod.count(VD))
      continue;
    if (Found)
      return nullptr; // changed twice
    auto *E = dyn_cast<Expr>(S);
    if (!E)
      return nullptr; // inside a branch or an inner loop
    E = E->IgnoreParens();
    auto RefersTo = [&](const Expr *X) {
      auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
      return DR && DR->getDecl() == VD;
    };
    if (auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->isAssignmentOp() && RefersTo(BO->getLHS()) && readsOnly(BO->getRHS(), VD))
      Found = E;
    else if (auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->isIncrementDecrementOp() && RefersTo(UO->getSubExpr()))
      Found = E;
    else
      return nullptr;
  }
  return Found;
}

void WarpInterp::runBody(const Stmt *Body, const Stmt *Inc, bool IsSwitch) {
  Models.iterationBegin();
  Loops.push_back(LoopCtl{0, 0, IsSwitch});
  exec(Body);
  Active |= Loops.back().Continued;
  Loops.pop_back();
  if (Inc && Active) {
    if (auto *E = dyn_cast<Expr>(Inc))
      eval(E);
    else
      exec(Inc);
  }
}

bool WarpInterp::execRangeOverList(const CXXForRangeStmt *RF) {
  const InitListExpr *IL = rangeOverBracedList(RF);
  const VarDecl *Var = RF->getLoopVariable();
  if (!IL || !Var || IL->getNumInits() > R.Limits.MaxConcreteIterations ||
      Var->getType()->isReferenceType())
    return false;
  const LaneMask Entry = Active;
  const size_t Mark = Buffered.size();
  CompilerModels::LoopScope Walk(Models, RF, LoopWalk::OverList);
  ++BufferDepth;
  try {
    LaneMask Running = Entry;
    for (const Expr *E : IL->inits()) {
      if (!Running)
        break;
      Active = Running;
      Models.iterationBegin();
      const Value V = eval(E);
      frame().Vars[Var] = isIntegral(Var->getType()) || Var->getType()->isPointerType()
                              ? V
                              : Value::opaque();
      Loops.push_back(LoopCtl{});
      exec(RF->getBody());
      Active |= Loops.back().Continued;
      Loops.pop_back();
      Running = Active;
    }
  } catch (...) {
    --BufferDepth;
    throw;
  }
  --BufferDepth;
  Active = Entry & ~frameReturnedAll();
  Models.loopRan({RF, LoopWalk::OverList, Mark, std::nullopt});
  flushBuffered();
  return true;
}

void WarpInterp::releaseSunkLoads(const Stmt *Loop, const Expr *CondE, bool IsDo) {
  if (SunkLoads.empty())
    return;
  std::vector<AccessEvent> Held;
  for (AccessEvent &E : SunkLoads)
    if (E.SinkLoop == Loop)
      Held.push_back(std::move(E));
  SunkLoads.erase(std::remove_if(SunkLoads.begin(), SunkLoads.end(),
                                 [&](const AccessEvent &E) { return E.SinkLoop == Loop; }),
                  SunkLoads.end());
  if (Held.empty())
    return;
  // The lanes that pass the loop's first test (no access is recorded while
  // it is evaluated again here).
  std::optional<LaneMask> Enter = Active;
  if (CondE && !IsDo && Active) {
    DryRun Dry(*this);
    Cond C = evalCond(CondE);
    Enter = C.K == Cond::Lanes ? std::optional<LaneMask>(Dry.Saved & C.True) : std::nullopt;
  }
  for (AccessEvent &E : Held) {
    E.SinkLoop = nullptr;
    if (Enter) {
      E.Active &= *Enter;
      if (!E.Active)
        continue; // no lane enters: nvcc issues no load
    } else if (E.RequestsKnown) {
      E.RequestsKnown = false;
      E.RequestsWhy = "nvcc loads it after the first test of the loop at line " +
                      lineOf(Ctx, Loop->getBeginLoc()) +
                      " that alone uses it, in warps with a lane that enters the loop, "
                      "which is not known";
    }
    emit(std::move(E));
  }
}

void WarpInterp::execLoop(const Stmt *Loop, const Stmt *Init, const Expr *CondE,
                          const Stmt *Inc, const Stmt *Body, bool IsDo) {
  exec(Init);
  releaseSunkLoads(Loop, CondE, IsDo);
  if (Active == 0)
    return;
  const LaneMask Entry = Active;
  struct InLoop {
    std::vector<const Stmt *> &S;
    InLoop(std::vector<const Stmt *> &S, const Stmt *L) : S(S) { S.push_back(L); }
    ~InLoop() { S.pop_back(); }
  } Running(LoopStack, Loop);
  if (!exceedsConcreteLimit(Loop, CondE, Inc, Body, IsDo) &&
      tryConcreteLoop(Loop, CondE, Inc, Body, IsDo, Entry))
    return;
  symbolicLoop(Loop, CondE, Inc, Body, IsDo, Entry);
}

Reason WarpInterp::stepBudget() const {
  const std::string Steps = std::to_string(R.Limits.MaxSteps);
  if (LoopStack.empty())
    return makeReason(ReasonKind::StepBudget, {Steps});
  auto At = [&](const Stmt *S) { return fileLine(Ctx, S->getBeginLoc()); };
  if (LoopStack.size() == 1)
    return makeReason(ReasonKind::StepBudgetInLoop, {Steps, At(LoopStack.front())});
  return makeReason(ReasonKind::StepBudgetInLoops,
                    {Steps, At(LoopStack.front()), At(LoopStack.back())});
}

bool WarpInterp::tryConcreteLoop(const Stmt *Loop, const Expr *CondE, const Stmt *Inc,
                                 const Stmt *Body, bool IsDo, LaneMask Entry) {
  std::deque<Frame> SavedFrames = Frames;
  const size_t Mark = Buffered.size();
  const size_t ExplainedMark = ExplainedOrder.size();
  const Reason SavedControl = ControlUnknown;
  CompilerModels::LoopScope Walk(Models, Loop, LoopWalk::Iterations);
  ++BufferDepth;
  LaneMask Running = Entry;
  bool Ok = true;
  unsigned Iter = 0;
  LaneMask Exited = 0;
  // Alike iterations need not all run (LoopSummary.cpp): the starts of
  // iterations 1 and 2 are kept, and at the start of iteration 3 the rest
  // may be issued from them.
  int64_t AllRun = 0, MaxRun = 0;
  bool Summary = summaryWorthTrying(Loop, CondE, Inc, Body, IsDo, Entry, AllRun, MaxRun);
  std::vector<IterationMark> Marks;
  try {
    while (true) {
      Active = Running;
      if (CondE && !(IsDo && Iter == 0)) {
        Cond C = evalCond(CondE);
        if (C.K != Cond::Lanes) {
          Ok = false;
          break;
        }
        Running &= C.True;
      }
      if (!Running)
        break;
      if (Summary && Iter >= 1) {
        if (Running != Entry) {
          Summary = false;
        } else if (Iter < 3) {
          Marks.push_back(markIteration());
        } else {
          Summary = false;
          skipAlikeIterations(Marks[0], Marks[1], Iter, AllRun, MaxRun);
          Marks.clear();
        }
      }
      if (++Iter > R.Limits.MaxConcreteIterations) {
        Ok = false;
        break;
      }
      Active = Running;
      Models.iterationBegin();
      Loops.push_back(LoopCtl{});
      const unsigned ExitsBefore = DivergentExits;
      exec(Body);
      // Lanes leave on data the interpreter does not know: every iteration
      // would run on all of them, to the iteration limit. The symbolic loop
      // says what is not known instead.
      if (DivergentExits != ExitsBefore) {
        Loops.pop_back();
        Ok = false;
        break;
      }
      Active |= Loops.back().Continued;
      Exited |= Loops.back().Broken;
      Loops.pop_back();
      if (Inc && Active) {
        if (auto *E = dyn_cast<Expr>(Inc))
          eval(E);
        else
          exec(Inc);
      }
      Running = Active;
    }
  } catch (...) {
    --BufferDepth;
    throw;
  }
  --BufferDepth;
  if (!Ok) {
    Frames = SavedFrames; // assigned in place: frames keep their addresses
    Buffered.resize(Mark);
    for (size_t I = ExplainedMark; I < ExplainedOrder.size(); ++I)
      Explained.erase(ExplainedOrder[I]);
    ExplainedOrder.resize(ExplainedMark);
    ControlUnknown = SavedControl;
    Active = Entry;
    return false;
  }
  (void)Exited;
  Active = Entry & ~frameReturnedAll();
  Models.loopRan({Loop, LoopWalk::Iterations, Mark, std::nullopt});
  flushBuffered();
  return true;
}

void WarpInterp::symbolicLoop(const Stmt *Loop, const Expr *CondE,
                              const Stmt *Inc, const Stmt *Body, bool IsDo,
                              LaneMask Entry) {
  CompilerModels::LoopScope Walk(Models, Loop, LoopWalk::Symbolic);
  const std::string Line = lineOf(Ctx, Loop->getBeginLoc());
  // 1. Which outer variables does the loop change, and by how much per
  //    iteration? Probe one iteration with each value offset by a fresh symbol.
  std::set<const VarDecl *> Mod, Through;
  collectModifiedVars(Body, Mod, &Through);
  collectModifiedVars(Inc, Mod, &Through);
  collectModifiedVars(CondE, Mod, &Through);
  // A store through a pointer changes what it points to: a variable of the
  // kernel's own when the pointer holds its address (`p = &x; *p = v`),
  // else memory no variable names.
  for (const VarDecl *P : Through) {
    Frame *F = frameOf(P);
    if (!F)
      continue;
    auto It = F->Vars.find(P);
    if (It == F->Vars.end() || It->second.K != Value::Ptr)
      continue;
    const MemRegion &M = R.Regions[It->second.Region];
    if (M.K == MemRegion::Local)
      if (auto *VD = dyn_cast_or_null<VarDecl>(M.Decl))
        Mod.insert(VD);
  }
  struct Ind {
    const VarDecl *VD;
    unsigned FrameIdx;
    Value V0;
    /// A field of a local struct the loop changes (".x"), or "" for VD.
    std::string Path = "";
    bool Inductive = false;
    Poly Delta = Poly();
    /// v -> Sum - v each iteration (`buf = 1 - buf`, double buffering):
    /// v0 in even iterations, Sum - v0 in odd ones.
    bool Toggle = false;
    Poly Sum = Poly();
    /// Changed in another way, but the same on every lane in every
    /// iteration (ggml's stream-K `kb0_start`): a warp-uniform unknown.
    bool Uniform = false;
  };
  std::vector<Ind> Vars;
  for (const VarDecl *VD : Mod) {
    unsigned Idx;
    Frame *F = frameOf(VD, &Idx);
    if (!F || !F->Vars.count(VD))
      continue;
    Vars.push_back(Ind{VD, Idx, F->Vars[VD]});
    // A struct the loop changes: each field the walk knows is a
    // loop-carried value of its own (`s.x += 32`, an iterator's pointer).
    if (VD->getType().getNonReferenceType()->isRecordType() || VD->getType()->isArrayType())
      for (auto It = F->Fields.lower_bound({VD, ""}); It != F->Fields.end() && It->first.first == VD;
           ++It)
        Vars.push_back(Ind{VD, Idx, It->second, It->first.second});
  }
  // The value each entry stands for.
  auto Slot = [&](const Ind &I) -> Value & {
    Frame &F = Frames[I.FrameIdx];
    return I.Path.empty() ? F.Vars[I.VD] : F.Fields[{I.VD, I.Path}];
  };
  auto NameOf = [](const Ind &I) { return I.VD->getName().str() + I.Path; };
  std::stable_sort(Vars.begin(), Vars.end(), [](const Ind &A, const Ind &B) {
    return A.VD->getBeginLoc() < B.VD->getBeginLoc();
  });
  // A variable the body sets back to its value at the start, whatever that
  // was (a flag cleared in every iteration: CUTLASS's `is_residue_tile_ =
  // false` after the first tile), is the same in every iteration: the probe
  // runs again with it at that value, so that the branches on it take one
  // side. The run that draws the conclusions checks that it still holds.
  std::set<size_t> Fixed;
  constexpr int Passes = 4;
  for (int Pass = 0; Pass < Passes; ++Pass) {
    for (Ind &I : Vars) {
      I.Inductive = I.Toggle = I.Uniform = false;
      I.Delta = I.Sum = Poly();
    }
    std::deque<Frame> Saved = Frames;
    std::vector<Assumption> SavedAssume = Assumptions;
    std::vector<Reason> SavedMask = MaskWhys;
    const Reason SavedControl = ControlUnknown;
    std::vector<SymbolId> Probes(Vars.size(), SymbolId());
    std::vector<SymbolId> AllProbes;
    auto Probed = [&](size_t J) {
      const Ind &I = Vars[J];
      return (I.V0.K == Value::Int || I.V0.K == Value::Ptr) && !Fixed.count(J);
    };
    for (size_t J = 0; J < Vars.size(); ++J) {
      if (!Probed(J))
        continue;
      SymbolInfo Probe;
      Probe.Name = "probe";
      Probe.Kind = SymbolKind::Opaque;
      SymbolId T = R.Syms.add(std::move(Probe));
      Probes[J] = T;
      AllProbes.push_back(T);
      Slot(Vars[J]).P = Vars[J].V0.P + Poly::symbol(T);
    }
    ++DryDepth;
    Active = Entry;
    try {
      if (CondE && !IsDo) {
        Cond C = evalCond(CondE);
        if (C.K == Cond::Lanes)
          Active &= C.True;
      }
      if (Active)
        runBody(Body, Inc);
    } catch (...) {
      --DryDepth;
      throw;
    }
    --DryDepth;
    bool FixedHolds = true;
    std::set<size_t> NewFixed;
    for (size_t J = 0; J < Vars.size(); ++J) {
      Ind &I = Vars[J];
      if (I.V0.K != Value::Int && I.V0.K != Value::Ptr)
        continue;
      const Value V1 = Slot(I);
      const bool Same = V1.K == I.V0.K && (V1.K != Value::Ptr || V1.Region == I.V0.Region) &&
                        V1.P == I.V0.P;
      if (Fixed.count(J)) {
        FixedHolds &= Same;
        I.Inductive = Same;
        I.Delta = Poly();
        continue;
      }
      const SymbolId T = Probes[J];
      // Uniform at the start of an iteration (the probe) and at its end:
      // uniform in every iteration, since every other variable the body
      // reads is probed the same way.
      if (V1.K == Value::Int && I.V0.K == Value::Int && I.V0.P.isUniform(Entry) &&
          V1.P.isUniform(Entry))
        I.Uniform = true;
      if (V1.K != I.V0.K || (V1.K == Value::Ptr && V1.Region != I.V0.Region))
        continue;
      if (V1.P == I.V0.P) {
        NewFixed.insert(J);
        I.Inductive = true;
        I.Delta = Poly();
        continue;
      }
      Poly D = V1.P - (I.V0.P + Poly::symbol(T));
      if (D == Poly())
        NewFixed.insert(J); // unchanged by the body: the same in every iteration
      bool MentionsProbe = false;
      for (SymbolId S : AllProbes)
        MentionsProbe |= D.mentions(S);
      if (D.overflowed() || MentionsProbe) {
        Poly Sum = V1.P + (I.V0.P + Poly::symbol(T));
        bool SumProbe = false;
        for (SymbolId S : AllProbes)
          SumProbe |= Sum.mentions(S);
        if (V1.K == Value::Int && !Sum.overflowed() && !SumProbe) {
          I.Toggle = true;
          I.Sum = Sum;
        }
        continue;
      }
      I.Inductive = true;
      I.Delta = D;
    }
    Frames = Saved; // assigned in place: frames keep their addresses
    Assumptions = std::move(SavedAssume);
    MaskWhys = std::move(SavedMask);
    ControlUnknown = SavedControl;
    if (!FixedHolds) {
      // Not the same in every iteration after all: probe everything, once.
      if (Fixed.empty() || Pass == Passes - 1)
        break;
      Fixed.clear();
      Pass = Passes - 2;
      continue;
    }
    if (NewFixed.empty() || Pass == Passes - 1)
      break;
    Fixed.insert(NewFixed.begin(), NewFixed.end());
  }
  // 1b. A variable that the body sets once, unconditionally, from itself and
  //     constants only (`buf ^= 1`, `buf = !buf`), starting from a known
  //     value: apply that update twice; back to the start, it toggles.
  for (Ind &I : Vars) {
    if (I.Inductive || I.Toggle || I.V0.K != Value::Int || !I.V0.P.isConcrete(Entry) ||
        !I.Path.empty())
      continue;
    const Expr *Update = selfUpdate(Body, I.VD);
    if (!Update)
      continue;
    Value &V = Frames[I.FrameIdx].Vars[I.VD];
    const Value Start = V;
    ++DryDepth;
    Active = Entry;
    try {
      eval(Update);
      const Value V1 = Frames[I.FrameIdx].Vars[I.VD];
      eval(Update);
      const Value V2 = Frames[I.FrameIdx].Vars[I.VD];
      if (V1.K == Value::Int && V2.K == Value::Int && V1.P.isConcrete(Entry) &&
          V2.P == I.V0.P && V1.P != I.V0.P) {
        I.Toggle = true;
        I.Sum = I.V0.P + V1.P;
      }
    } catch (...) {
      --DryDepth;
      Frames[I.FrameIdx].Vars[I.VD] = Start;
      throw;
    }
    --DryDepth;
    Frames[I.FrameIdx].Vars[I.VD] = Start;
  }

  // 2. The trip count, when the loop is `v op bound` with v an induction
  //    variable starting and stepping by known warp-uniform constants.
  int64_t Trip = 0;
  if (CondE) {
    if (auto *BO = dyn_cast<BinaryOperator>(skipCastsAndParens(CondE)))
      if (BO->isComparisonOp()) {
        const Expr *L = skipCastsAndParens(BO->getLHS());
        const Expr *Rt = skipCastsAndParens(BO->getRHS());
        CmpOp Op = llvm::StringSwitch<CmpOp>(BO->getOpcodeStr())
                       .Case("<", CmpOp::LT).Case("<=", CmpOp::LE)
                       .Case(">", CmpOp::GT).Case(">=", CmpOp::GE)
                       .Case("==", CmpOp::EQ).Default(CmpOp::NE);
        const Ind *IV = nullptr;
        const Expr *BoundE = nullptr;
        for (const Ind &I : Vars) {
          if (!I.Inductive || I.V0.K != Value::Int)
            continue;
          if (!I.Path.empty())
            continue;
          if (auto *DR = dyn_cast<DeclRefExpr>(L); DR && DR->getDecl() == I.VD) {
            IV = &I;
            BoundE = BO->getRHS();
          } else if (auto *DR2 = dyn_cast<DeclRefExpr>(Rt);
                     DR2 && DR2->getDecl() == I.VD) {
            IV = &I;
            BoundE = BO->getLHS();
            Op = swapCmp(Op);
          }
        }
        if (IV && IV->V0.P.isConcrete(Entry) && IV->V0.P.isUniform(Entry) &&
            IV->Delta.isConcrete(Entry) && IV->Delta.isUniform(Entry)) {
          ++DryDepth;
          Active = Entry;
          Value B = eval(BoundE);
          --DryDepth;
          unsigned F = firstLane(Entry);
          if (B.K == Value::Int && B.P.isConcrete(Entry) && B.P.isUniform(Entry)) {
            int64_t A0 = IV->V0.P.laneConstants()[F];
            int64_t S = IV->Delta.laneConstants()[F];
            int64_t Bd = B.P.laneConstants()[F];
            if (S > 0 && (Op == CmpOp::LT || Op == CmpOp::LE)) {
              int64_t Lim = Op == CmpOp::LT ? Bd - 1 : Bd;
              Trip = Lim < A0 ? 0 : (Lim - A0) / S + 1;
            } else if (S < 0 && (Op == CmpOp::GT || Op == CmpOp::GE)) {
              int64_t Lim = Op == CmpOp::GT ? Bd + 1 : Bd;
              Trip = Lim > A0 ? 0 : (A0 - Lim) / (-S) + 1;
            } else if (Op == CmpOp::NE && S != 0 && (Bd - A0) % S == 0 &&
                       (Bd - A0) / S >= 0) {
              Trip = (Bd - A0) / S;
            }
            if (IsDo && Trip == 0)
              Trip = 1;
          }
        }
      }
  }

  // 3. One iteration with a symbolic counter k: v = v0 + k * delta.
  std::string CtxKey = frame().ContextKey;
  // Messages name the counter by the loop and the variables it steps, as
  // the user wrote them: "the iteration of the loop at line 5 (which steps
  // 'j')".
  std::vector<std::string> Stepped;
  for (const Ind &I : Vars)
    if (I.Inductive && !I.VD->getName().empty())
      Stepped.push_back("'" + NameOf(I) + "'");
  std::string Spelling;
  for (size_t I = 0; I < Stepped.size(); ++I)
    Spelling += (I == 0 ? "" : I + 1 == Stepped.size() ? " and " : ", ") + Stepped[I];
  Spelling = "the iteration of the loop at line " + Line +
             (Stepped.empty() ? "" : " (which steps " + Spelling + ")");
  SymbolId K = sym("loop:" + std::to_string(reinterpret_cast<uintptr_t>(Loop)) +
                       ":" + CtxKey,
                   "k@L" + Line, SymbolKind::LoopIteration, Trip > 0 ? Trip : 0,
                   Spelling);
  if (Trip > 0)
    R.Syms.get(K).UniformRange = Trip;
  // The parity of the iteration, for the variables that toggle: over an
  // even trip count it is 0 and 1 equally often.
  std::optional<SymbolId> Parity;
  if (std::any_of(Vars.begin(), Vars.end(), [](const Ind &I) { return I.Toggle; }))
    Parity = sym("parity:" + std::to_string(reinterpret_cast<uintptr_t>(Loop)) + ":" + CtxKey,
                 "k@L" + Line + "%2", SymbolKind::Derived,
                 Trip > 0 && Trip % 2 == 0 ? 2 : 0,
                 "the parity of the iteration of the loop at line " + Line);
  // A warp-uniform unknown standing for a variable's value (Ind::Uniform).
  auto UniformValue = [&](const Ind &I, const char *Kind, const char *Suffix,
                          const std::string &Spelling) {
    const std::string Name = NameOf(I);
    return Value::integer(Poly::symbol(
        sym(std::string(Kind) + ":" + std::to_string(reinterpret_cast<uintptr_t>(Loop)) + ":" +
                Name + ":" + CtxKey,
            Name + Suffix + Line, SymbolKind::Opaque, 0, Spelling)));
  };
  if (Parity) { // interned: another warp's trip count may differ
    R.Syms.get(*Parity).UniformRange = Trip > 0 && Trip % 2 == 0 ? 2 : 0;
    R.Syms.get(*Parity).Binary = true;
  }
  for (Ind &I : Vars) {
    Value &V = Slot(I);
    // An address code the loop changes (a descriptor stepped each
    // iteration): not followed through the loop.
    if (I.V0.Code || V.Code) {
      V = Value::unknown(ReasonKind::NotFixedStep, {NameOf(I), Line});
      continue;
    }
    if (I.Inductive) {
      V = I.V0;
      V.P = I.V0.P + Poly::symbol(K) * I.Delta;
    } else if (I.Toggle) {
      V = I.V0;
      V.P = I.V0.P + Poly::symbol(*Parity) * (I.Sum - I.V0.P.scaled(2));
    } else if (I.Uniform) {
      V = UniformValue(I, "loopvar", "@L",
                       "the value of '" + NameOf(I) + "' in an iteration of the loop at line " +
                           Line);
    } else if (I.V0.K == Value::Int || I.V0.K == Value::Ptr) {
      V = Value::unknown(ReasonKind::NotFixedStep, {NameOf(I), Line});
    }
  }
  const double SavedWeight = Weight;
  const bool SavedKnown = RequestsKnown;
  const std::string SavedWhy = RequestsWhy;
  // A break or return in the body can end the loop before its condition
  // does: the condition's trip count is then only a bound.
  if (Trip > 0 && !leavesLoopEarly(Body)) {
    Weight *= static_cast<double>(Trip);
  } else {
    RequestsKnown = false;
    RequestsWhy = "the loop at line " + Line +
                  " runs a number of iterations not known: the cost is per iteration";
  }
  Active = Entry;
  size_t PushedAssume = 0, PushedMask = 0;
  // Whether every lane leaves the loop in the same iteration: its
  // condition is the same on every lane (then so are the values it leaves).
  bool ExitsTogether = !CondE;
  if (CondE && !IsDo) {
    Cond C = evalCond(CondE);
    ExitsTogether = C.K == Cond::Uniform ||
                    (C.K == Cond::Lanes && ((C.True & Entry) == Entry || (C.True & Entry) == 0));
    switch (C.K) {
    case Cond::Lanes:
      Active &= C.True;
      break;
    case Cond::Guard:
    case Cond::Uniform:
      Active &= C.True;
      for (const std::string &G : C.Guards) {
        Assumptions.push_back(makeAssumption(AssumptionKind::InteriorGuard, {G, Line}));
        ++PushedAssume;
      }
      break;
    case Cond::Data:
      MaskWhys.push_back(wrapReason(ReasonKind::LoopLanesOnData, {C.Text, Line}, C.Why));
      ++PushedMask;
      break;
    }
  }
  if (Active) {
    // Buffered, so that the loads nvcc hoists count once per start.
    const size_t Mark = Buffered.size();
    ++BufferDepth;
    try {
      runBody(Body, Inc);
    } catch (...) {
      --BufferDepth;
      throw;
    }
    --BufferDepth;
    Models.loopRan({Loop, LoopWalk::Symbolic, Mark, K, SavedWeight, SavedKnown, SavedWhy});
    flushBuffered();
  }
  for (; PushedAssume; --PushedAssume)
    Assumptions.pop_back();
  for (; PushedMask; --PushedMask)
    MaskWhys.pop_back();
  Weight = SavedWeight;
  RequestsKnown = SavedKnown;
  RequestsWhy = SavedWhy;

  // 4. After the loop.
  for (Ind &I : Vars) {
    Value &V = Slot(I);
    if (I.V0.Code || V.Code) {
      V = Value::unknown(ReasonKind::LoopExitValue, {NameOf(I), Line});
      continue;
    }
    if (I.Inductive && Trip > 0) {
      V = I.V0;
      V.P = I.V0.P + I.Delta.scaled(Trip);
    } else if (I.Toggle && Trip > 0 && !leavesLoopEarly(Body)) {
      V = I.V0;
      V.P = Trip % 2 ? I.Sum - I.V0.P : I.V0.P;
    } else if (I.Uniform && ExitsTogether && !leavesLoopEarly(Body)) {
      V = UniformValue(I, "loopexit", "@exit",
                       "the value '" + NameOf(I) + "' has after the loop at line " + Line);
    } else if (I.V0.K == Value::Int || I.V0.K == Value::Ptr ||
               V.K == Value::Int || V.K == Value::Ptr) {
      V = Value::unknown(ReasonKind::LoopExitValue, {NameOf(I), Line});
    }
  }
  // Fields of a struct the loop changes that were not known when it began
  // were set by the one iteration run: not known after the loop.
  for (const VarDecl *VD : Mod) {
    if (!VD->getType()->isRecordType() && !VD->getType()->isArrayType())
      continue;
    unsigned Idx;
    Frame *F = frameOf(VD, &Idx);
    if (!F)
      continue;
    for (auto It = F->Fields.lower_bound({VD, ""}); It != F->Fields.end() && It->first.first == VD;
         ++It)
      if (!std::any_of(Vars.begin(), Vars.end(), [&](const Ind &I) {
            return I.VD == VD && I.Path == It->first.second;
          }))
        It->second = Value::unknown(ReasonKind::LoopExitValue,
                                    {VD->getName().str() + It->first.second, Line});
  }
  Active = Entry & ~frameReturnedAll();
}

} // namespace interp
} // namespace coalesce

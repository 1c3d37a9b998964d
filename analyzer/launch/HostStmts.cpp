//===- HostStmts.cpp - Host interpreter: statements and loops --------------===//

#include "launch/HostInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace coalesce {
namespace host {

namespace {

/// Pushes a break/continue target for the length of a scope (exceptions of
/// the walk unwind through it).
template <class J> class JumpScope {
public:
  JumpScope(std::vector<J *> &Stack, J &Target) : Stack(Stack) { Stack.push_back(&Target); }
  ~JumpScope() { Stack.pop_back(); }
  JumpScope(const JumpScope &) = delete;
  JumpScope &operator=(const JumpScope &) = delete;

private:
  std::vector<J *> &Stack;
};

} // namespace

void HostInterp::havocStmt(const Stmt *S, State &St, WhyId W) {
  // A pointer stored through is taken as changed too: the host evaluator
  // does not follow where it points.
  std::set<const VarDecl *> Changed;
  collectModifiedVars(S, Changed, &Changed);
  for (const VarDecl *VD : Changed)
    if (std::optional<Loc> L = varLoc(St, VD))
      havocLoc(St, *L, QualType(), W);
}

void HostInterp::execDecl(const VarDecl *VD, State &St) {
  step();
  if (VD->hasGlobalStorage()) // static locals: as globals, changed by earlier calls
    return;
  QualType T = VD->getType();
  const Expr *Init = VD->getInit();
  if (T->isReferenceType()) {
    if (!Init)
      return;
    LValue LV = lvalue(Init, St);
    if (LV.L) {
      St.Vars[VD] = *LV.L;
      markAddrTaken(St, *LV.L);
    } else {
      // A reference to memory we do not track: a cell of its own, unknown.
      St.Vars[VD] = Loc{allocCell(St, HVal::unknown(LV.Target.Why)), nullptr, {}};
    }
    return;
  }
  HVal V;
  if (Init) {
    V = eval(Init, St);
    if (!isa<CXXConstructExpr>(skipCastsAndParens(Init)) && !isa<InitListExpr>(Init))
      V = convert(V, Init->getType(), T);
  } else {
    V = HVal::unknown(why(ReasonKind::HostUninitialisedVariable, {VD->getNameAsString()}));
  }
  V = withStated(VD, std::move(V), St);
  auto It = St.Vars.find(VD);
  if (It != St.Vars.end() && !It->second.Global && It->second.Path.empty() &&
      It->second.Cell < St.Cells.size() && It->second.Cell >= Frames.back().Base) {
    // Declared again (a loop body): the same cell.
    St.Cells[It->second.Cell] = std::move(V);
    return;
  }
  const uint32_t Cell = allocCell(St, std::move(V));
  St.Vars[VD] = Loc{Cell, nullptr, {}};
  // A const object keeps its value: nothing may change it (not through an
  // address that escaped either), unless it has a mutable member.
  const auto *RD = T->getAsCXXRecordDecl();
  if (T.isConstQualified() && (!RD || (RD->hasDefinition() && !RD->hasMutableFields())))
    St.ConstCells.insert(Cell);
}

void HostInterp::exec(const Stmt *S, State &St) {
  if (!S || !St.Live)
    return;
  step();
  if (const auto *E = dyn_cast<Expr>(S)) {
    (void)eval(E, St);
    return;
  }
  switch (S->getStmtClass()) {
  case Stmt::CompoundStmtClass:
    for (const Stmt *C : cast<CompoundStmt>(S)->body()) {
      if (!St.Live)
        break;
      exec(C, St);
    }
    return;
  case Stmt::DeclStmtClass:
    for (const Decl *D : cast<DeclStmt>(S)->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        execDecl(VD, St);
    return;
  case Stmt::NullStmtClass:
    return;
  case Stmt::IfStmtClass:
    return execIf(cast<IfStmt>(S), St);
  case Stmt::SwitchStmtClass:
    return execSwitch(cast<SwitchStmt>(S), St);
  case Stmt::ForStmtClass: {
    const auto *F = cast<ForStmt>(S);
    exec(F->getInit(), St);
    return execLoop(F, F->getCond(), F->getConditionVariableDeclStmt(), nullptr, F->getBody(),
                    F->getInc(), false, St);
  }
  case Stmt::WhileStmtClass: {
    const auto *W = cast<WhileStmt>(S);
    return execLoop(W, W->getCond(), W->getConditionVariableDeclStmt(), nullptr, W->getBody(),
                    nullptr, false, St);
  }
  case Stmt::DoStmtClass: {
    const auto *D = cast<DoStmt>(S);
    return execLoop(D, D->getCond(), nullptr, nullptr, D->getBody(), nullptr, true, St);
  }
  case Stmt::CXXForRangeStmtClass: {
    const auto *F = cast<CXXForRangeStmt>(S);
    exec(F->getInit(), St);
    exec(F->getRangeStmt(), St);
    exec(F->getBeginStmt(), St);
    exec(F->getEndStmt(), St);
    return execLoop(F, F->getCond(), nullptr, F->getLoopVarStmt(), F->getBody(), F->getInc(),
                    false, St);
  }
  case Stmt::BreakStmtClass:
  case Stmt::ContinueStmtClass: {
    const bool Break = isa<BreakStmt>(S);
    for (auto It = JumpStack.rbegin(); It != JumpStack.rend(); ++It) {
      if (!Break && !(*It)->Loop)
        continue;
      (Break ? (*It)->Breaks : (*It)->Continues).push_back(St);
      break;
    }
    St.Live = false;
    return;
  }
  case Stmt::ReturnStmtClass: {
    const auto *R = cast<ReturnStmt>(S);
    HVal V;
    if (const Expr *E = R->getRetValue()) {
      const FunctionDecl *Fn = Frames.back().Fn;
      if (Fn && Fn->getReturnType()->isReferenceType()) {
        (void)lvalue(E, St); // references returned: not followed
        V = HVal::unknown(whyAt(ReasonKind::HostReferenceReturned, R));
      } else {
        V = eval(E, St);
        if (Fn && !isa<CXXConstructExpr>(skipCastsAndParens(E)))
          V = convert(V, E->getType(), Fn->getReturnType());
      }
    }
    if (!St.Live)
      return;
    Frames.back().Returns.push_back(St);
    Frames.back().ReturnValues.push_back(resolve(V, St.Bound));
    St.Live = false;
    return;
  }
  case Stmt::LabelStmtClass:
    return exec(cast<LabelStmt>(S)->getSubStmt(), St);
  case Stmt::AttributedStmtClass:
    return exec(cast<AttributedStmt>(S)->getSubStmt(), St);
  case Stmt::CaseStmtClass:
    return exec(cast<CaseStmt>(S)->getSubStmt(), St);
  case Stmt::DefaultStmtClass:
    return exec(cast<DefaultStmt>(S)->getSubStmt(), St);
  case Stmt::GotoStmtClass:
  case Stmt::IndirectGotoStmtClass:
    // Functions with goto are walked with every variable they change
    // unknown (Frame::Volatile): the jump itself changes nothing more.
    return;
  case Stmt::CXXTryStmtClass: {
    const auto *T = cast<CXXTryStmt>(S);
    State Entry = St;
    exec(T->getTryBlock(), St);
    std::vector<State> Outs{St};
    for (unsigned I = 0; I < T->getNumHandlers(); ++I) {
      State H = Entry;
      havocStmt(T->getTryBlock(), H, whyAt(ReasonKind::HostChangedInTry, T));
      exec(T->getHandler(I)->getHandlerBlock(), H);
      Outs.push_back(std::move(H));
    }
    St = joinAll(Outs, whyAt(ReasonKind::HostDiffersAfterTry, T));
    return;
  }
  default:
    // Statements the walk does not follow (asm, coroutines): whatever they
    // change becomes unknown.
    havocStmt(S, St, whyAt(ReasonKind::HostStatement, S));
    return;
  }
}

void HostInterp::execIf(const IfStmt *S, State &St) {
  exec(S->getInit(), St);
  if (const DeclStmt *CV = S->getConditionVariableDeclStmt())
    exec(CV, St);
  HVal C = eval(S->getCond(), St);
  if (!St.Live)
    return;
  std::optional<bool> T = truth(C);
  if (T) {
    exec(*T ? S->getThen() : S->getElse(), St);
    return;
  }
  if (std::optional<bool> Side = forcedSide(S)) {
    refine(St, S->getCond(), *Side);
    exec(*Side ? S->getThen() : S->getElse(), St);
    return;
  }
  State Else = St;
  refine(St, S->getCond(), true);
  refine(Else, S->getCond(), false);
  exec(S->getThen(), St);
  exec(S->getElse(), Else);
  const WhyId W = whyAt(ReasonKind::HostBranchesDiffer, S);
  BranchOf.emplace(W, S);
  St = join(St, Else, W);
}

void HostInterp::execSwitch(const SwitchStmt *S, State &St) {
  exec(S->getInit(), St);
  if (const DeclStmt *CV = S->getConditionVariableDeclStmt())
    exec(CV, St);
  HVal C = resolve(eval(S->getCond(), St), St.Bound);
  if (!St.Live)
    return;
  const WhyId Differs = whyAt(ReasonKind::HostCasesDiffer, S);
  // The body's top-level statements, each with the case labels in front of
  // it (`case 1: case 2: stmt` is nested CaseStmts).
  struct Entry {
    const Stmt *S;
    std::vector<const SwitchCase *> Labels;
  };
  std::vector<Entry> Entries;
  bool Nested = false;
  if (const auto *Body = dyn_cast_or_null<CompoundStmt>(S->getBody())) {
    for (const Stmt *X : Body->body()) {
      Entry E;
      while (const auto *SC = dyn_cast<SwitchCase>(X)) {
        E.Labels.push_back(SC);
        X = SC->getSubStmt();
      }
      E.S = X;
      Entries.push_back(std::move(E));
    }
    size_t Labelled = 0;
    for (const Entry &E : Entries)
      Labelled += E.Labels.size();
    size_t All = 0;
    for (const SwitchCase *SC = S->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase())
      ++All;
    Nested = Labelled != All;
  } else {
    Nested = true;
  }
  if (Nested) {
    // Case labels inside nested statements: not followed; the body is
    // walked once with what it changes unknown.
    havocStmt(S->getBody(), St, Differs);
    Jumps J;
    JumpScope Scope(JumpStack, J);
    exec(S->getBody(), St);
    J.Breaks.push_back(St);
    St = joinAll(J.Breaks, Differs);
    return;
  }

  auto CaseValue = [&](const SwitchCase *SC) -> std::optional<Wide> {
    const auto *CS = dyn_cast<CaseStmt>(SC);
    if (!CS || CS->caseStmtIsGNURange())
      return std::nullopt;
    Expr::EvalResult R;
    if (!CS->getLHS()->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    const llvm::APSInt &V = R.Val.getInt();
    return V.isSigned() ? Wide(V.getSExtValue()) : Wide(V.getZExtValue());
  };
  // Runs the body from entry I until a break or its end.
  auto RunFrom = [&](size_t I, State From, std::vector<State> &Outs) {
    Jumps J;
    JumpScope Scope(JumpStack, J);
    for (; I < Entries.size() && From.Live; ++I)
      exec(Entries[I].S, From);
    Outs.insert(Outs.end(), J.Breaks.begin(), J.Breaks.end());
    if (From.Live)
      Outs.push_back(std::move(From));
  };

  std::optional<size_t> Default;
  for (size_t I = 0; I < Entries.size(); ++I)
    for (const SwitchCase *SC : Entries[I].Labels)
      if (isa<DefaultStmt>(SC))
        Default = I;

  std::vector<State> Outs;
  if (C.K == HVal::Int) {
    std::optional<size_t> Target;
    bool Unsure = false;
    for (size_t I = 0; I < Entries.size() && !Target; ++I)
      for (const SwitchCase *SC : Entries[I].Labels) {
        if (isa<DefaultStmt>(SC))
          continue;
        std::optional<Wide> V = CaseValue(SC);
        if (!V)
          Unsure = true;
        else if (*V == C.I)
          Target = I;
      }
    if (!Unsure) {
      if (!Target)
        Target = Default;
      if (Target)
        RunFrom(*Target, St, Outs);
      else
        Outs.push_back(St);
      St = joinAll(Outs, Differs);
      return;
    }
  }
  // Unknown: every case, each knowing the condition's value.
  for (size_t I = 0; I < Entries.size(); ++I) {
    if (Entries[I].Labels.empty())
      continue;
    State From = St;
    if (Entries[I].Labels.size() == 1)
      if (std::optional<Wide> V = CaseValue(Entries[I].Labels.front()))
        if (auto Sol = solveEquals(C, *V))
          bindSymbol(From, Sol->first, Sol->second);
    RunFrom(I, std::move(From), Outs);
  }
  if (!Default)
    Outs.push_back(St);
  St = joinAll(Outs, Differs);
}

std::optional<bool> HostInterp::loopCondition(const Expr *Cond, const DeclStmt *CondVar,
                                              State &St) {
  if (CondVar)
    exec(CondVar, St);
  if (!Cond)
    return true;
  HVal C = eval(Cond, St);
  return truth(resolve(C, St.Bound));
}

/// Whether running S may launch a kernel: it holds a launch, or names a
/// function (called, or passed as a function pointer or lambda) that does.
bool HostInterp::reachesLaunch(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (isa<CUDAKernelCallExpr>(CE) || launchApiOf(CE) != LaunchApi::None)
      return true;
  const FunctionDecl *Named = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    Named = dyn_cast<FunctionDecl>(DRE->getDecl());
  else if (const auto *ME = dyn_cast<MemberExpr>(S))
    Named = dyn_cast<FunctionDecl>(ME->getMemberDecl());
  else if (const auto *CCE = dyn_cast<CXXConstructExpr>(S))
    Named = CCE->getConstructor();
  const FunctionDecl *Def = nullptr;
  if (Named && Named->hasBody(Def) && Def &&
      !Ctx.getSourceManager().isInSystemHeader(Def->getLocation())) {
    auto [It, New] = ReachesLaunch.try_emplace(Def, false); // recursion: false
    if (New) {
      const bool R = reachesLaunch(Def->getBody());
      ReachesLaunch[Def] = R;
      if (R)
        return true;
    } else if (It->second) {
      return true;
    }
  }
  for (const Stmt *C : S->children())
    if (reachesLaunch(C))
      return true;
  return false;
}

bool HostInterp::runLoopConcretely(const Stmt *Loop, const Expr *Cond, const DeclStmt *CondVar,
                                   const Stmt *PreBody, const Stmt *Body, const Expr *Inc,
                                   bool BodyFirst, State &St) {
  // Its budget: LoopSteps (more for a loop that reaches a launch: a sweep
  // over block sizes that also runs and checks each), and inside another
  // loop's run at most a quarter of what that run has left, so that an
  // inner loop too long to run this way (a CPU reference over millions of
  // elements) gives up by itself and leaves the run around it most of its
  // budget. A loop that ran out of a budget at least as large is not tried
  // again.
  const uint64_t Saved = LoopLimit;
  uint64_t Budget = reachesLaunch(Loop) ? Limits.LaunchLoopSteps : Limits.LoopSteps;
  if (Saved != ~uint64_t(0))
    Budget = std::min<uint64_t>(Budget, Saved > Steps ? (Saved - Steps) / 4 : 0);
  auto Failed = FailedLoops.find(Loop);
  if (Budget == 0 || (Failed != FailedLoops.end() && Budget <= Failed->second))
    return false;
  const uint64_t Mine = Steps + Budget; // below Saved: GiveUp{Mine} is this loop's
  const size_t SeenMark = Seen.size();
  const size_t RetMark = Frames.back().Returns.size();
  LoopLimit = Mine;
  try {
    State S = St;
    std::vector<State> Exits;
    for (bool First = true;; First = false) {
      if (!(BodyFirst && First)) {
        std::optional<bool> C = loopCondition(Cond, CondVar, S);
        if (!S.Live)
          break;
        if (!C)
          throw GiveUp{Mine};
        if (!*C) {
          Exits.push_back(std::move(S));
          break;
        }
      }
      Jumps J;
      J.Loop = true;
      {
        JumpScope Scope(JumpStack, J);
        exec(PreBody, S);
        exec(Body, S);
      }
      Exits.insert(Exits.end(), J.Breaks.begin(), J.Breaks.end());
      J.Continues.push_back(std::move(S));
      S = joinAll(J.Continues, whyAt(ReasonKind::HostIterationsDiffer, Loop));
      if (!S.Live)
        break;
      if (Inc)
        (void)eval(Inc, S);
    }
    LoopLimit = Saved;
    St = joinAll(Exits, whyAt(ReasonKind::HostLoopEndDiffers, Loop));
    return true;
  } catch (const GiveUp &G) {
    LoopLimit = Saved;
    if (G.Limit != Mine)
      throw;
    uint64_t &Worst = FailedLoops[Loop];
    Worst = std::max(Worst, Budget);
    Seen.resize(SeenMark);
    Frames.back().Returns.resize(RetMark);
    Frames.back().ReturnValues.resize(RetMark);
    return false;
  }
}

void HostInterp::execLoop(const Stmt *Loop, const Expr *Cond, const DeclStmt *CondVar,
                          const Stmt *PreBody, const Stmt *Body, const Expr *Inc,
                          bool BodyFirst, State &St) {
  if (runLoopConcretely(Loop, Cond, CondVar, PreBody, Body, Inc, BodyFirst, St))
    return;
  // To a fixpoint: each round starts from the head state and joins the state
  // at the back edge into it; what differs becomes unknown. The round whose
  // head does not change is the one whose launches and returns count.
  const WhyId Changes = whyAt(ReasonKind::HostChangesInLoop, Loop);
  const size_t SeenMark = Seen.size();
  const size_t RetMark = Frames.back().Returns.size();
  State Head = St;
  const size_t EntryCells = St.Cells.size();
  for (unsigned Round = 0;; ++Round) {
    if (Round > 16) {
      // Does not settle: give up the innermost run with a budget of its own
      // (a loop run iteration by iteration, a call that reaches no launch),
      // else the walk.
      if (LoopLimit != ~uint64_t(0))
        throw GiveUp{LoopLimit};
      throw OutOfSteps{};
    }
    State S = Head;
    std::vector<State> Exits;
    std::optional<bool> C = true;
    if (!BodyFirst) {
      C = loopCondition(Cond, CondVar, S);
      if (S.Live && C != true) {
        State Out = S;
        refine(Out, Cond, false);
        Exits.push_back(std::move(Out));
      }
      refine(S, Cond, true);
    }
    Jumps J;
    J.Loop = true;
    if (S.Live && C != false) {
      JumpScope Scope(JumpStack, J);
      exec(PreBody, S);
      exec(Body, S);
    } else {
      S.Live = false;
    }
    Exits.insert(Exits.end(), J.Breaks.begin(), J.Breaks.end());
    J.Continues.push_back(std::move(S));
    State Back = joinAll(J.Continues, Changes);
    if (Back.Live && Inc)
      (void)eval(Inc, Back);
    if (BodyFirst && Back.Live) {
      std::optional<bool> BC = loopCondition(Cond, CondVar, Back);
      if (Back.Live && BC != true) {
        State Out = Back;
        refine(Out, Cond, false);
        Exits.push_back(std::move(Out));
      }
      if (BC == false)
        Back.Live = false;
      else
        refine(Back, Cond, true);
    }
    State Next = Back.Live ? join(Head, Back, Changes) : Head;
    // Cells the body declared are not part of the head: each round
    // allocates its locals and temporaries anew.
    if (Next.sameUpTo(Head, EntryCells)) {
      St = joinAll(Exits, whyAt(ReasonKind::HostLoopEndDiffers, Loop));
      return;
    }
    Head = std::move(Next);
    Seen.resize(SeenMark);
    Frames.back().Returns.resize(RetMark);
    Frames.back().ReturnValues.resize(RetMark);
  }
}

} // namespace host
} // namespace coalesce

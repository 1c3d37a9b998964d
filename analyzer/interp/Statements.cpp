//===- Statements.cpp - Blocks, declarations, branches, switches -----------===//
//
// SIMT control flow: a branch on a lane-dependent condition runs each side
// with its own lanes; one on a warp-uniform unknown (a kernel parameter, a
// loaded value all lanes share) runs both sides, each on the lanes of the
// world in which it runs, and joins the variables afterwards (a new uniform
// symbol where both sides give uniform integers). `return`, `break` and
// `continue` retire lanes until the end of the function, loop or iteration.
//===----------------------------------------------------------------------===//

#include "llvm/Support/SaveAndRestore.h"
#include "interp/WarpInterp.h"

#include "llvm/ADT/Hashing.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include <algorithm>
#include <functional>

using namespace clang;

namespace coalesce {
namespace interp {

void WarpInterp::exec(const Stmt *S) {
  if (!S || Active == 0)
    return;
  // A statement that is not straight-line code (a block, branch, loop,
  // jump): the compiler models see it begin and end, also when one of them
  // skips it.
  const bool StraightLine = isa<Expr>(S) || isa<DeclStmt>(S);
  if (Models.skip(S)) {
    if (!StraightLine) {
      Models.blockEnter(S);
      Models.blockExit(S);
    }
    return;
  }
  std::optional<CompilerModels::Scope<const Stmt *>> Block;
  if (!StraightLine)
    Block.emplace(Models, &CompilerModels::blockEnter, &CompilerModels::blockExit, S);
  // The statement each access belongs to (AccessEvent::Statement).
  llvm::SaveAndRestore<const Stmt *> Current(CurrentStmt, S);
  step();
  visit(S);
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body()) {
      if (Active == 0)
        break;
      exec(C);
    }
    return;
  }
  if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (auto *VD = dyn_cast<VarDecl>(D)) {
        execDecl(VD);
        // A structured binding of a tuple-like object (`auto [q, r] =
        // divmod(a, b)`): each name is a variable of its own, initialized
        // with `get<I>(e)`; of a struct or an array, a part of the object.
        if (auto *DD = dyn_cast<DecompositionDecl>(VD))
          for (const BindingDecl *B : DD->bindings())
            if (const VarDecl *Holding = B->getHoldingVar())
              execDecl(Holding);
      }
    return;
  }
  if (auto *E = dyn_cast<Expr>(S)) {
    eval(E);
    Models.ran(S);
    return;
  }
  if (auto *If = dyn_cast<IfStmt>(S))
    return execIf(If);
  if (auto *FS = dyn_cast<ForStmt>(S)) {
    execLoop(FS, FS->getInit(), FS->getCond(), FS->getInc(), FS->getBody(), false);
    Models.ran(FS);
    return;
  }
  if (auto *WS = dyn_cast<WhileStmt>(S))
    return execLoop(WS, nullptr, WS->getCond(), nullptr, WS->getBody(), false);
  if (auto *DS = dyn_cast<DoStmt>(S))
    return execLoop(DS, nullptr, DS->getCond(), nullptr, DS->getBody(), true);
  if (auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
    exec(RF->getInit());
    // Over a braced list (`for (int s : {32, 16, 8})`): each element in
    // turn, as nvcc unrolls it.
    if (execRangeOverList(RF))
      return;
    exec(RF->getRangeStmt());
    exec(RF->getBeginStmt());
    exec(RF->getEndStmt());
    // The element variable is not modelled: analyse the body once.
    frame().Vars[RF->getLoopVariable()] = Value::unknown(
        ReasonKind::RangeForElement, {lineOf(Ctx, RF->getBeginLoc())});
    symbolicLoop(RF, nullptr, nullptr, RF->getBody(), false, Active);
    return;
  }
  if (auto *SW = dyn_cast<SwitchStmt>(S))
    return execSwitch(SW);
  if (auto *RS = dyn_cast<ReturnStmt>(S)) {
    if (const Expr *RV = RS->getRetValue()) {
      if (Frames.size() > 1 && frame().FD->getReturnType()->isReferenceType()) {
        LValue LV = evalLValue(RV);
        Frame &F = frame(); // after the evaluation (see execDecl)
        if (LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr) {
          if (F.RetLV && F.RetLV->K == LValue::Mem &&
              F.RetLV->Ptr.K == Value::Ptr &&
              F.RetLV->Ptr.Region == LV.Ptr.Region)
            LV.Ptr.P = LV.Ptr.P.select(Active, F.RetLV->Ptr.P);
          F.RetLV = LV;
        } else {
          F.RetLV = LV;
        }
      } else {
        Value V = eval(RV);
        Frame &F = frame();
        F.RetVal = F.RetVal ? merge(Active, V, *F.RetVal) : V;
      }
    }
    frame().Returned |= Active;
    Active = 0;
    return;
  }
  if (isa<BreakStmt>(S)) {
    if (!Loops.empty())
      Loops.back().Broken |= Active;
    Active = 0;
    return;
  }
  if (isa<ContinueStmt>(S)) {
    for (size_t I = Loops.size(); I-- > 0;)
      if (!Loops[I].IsSwitch) {
        Loops[I].Continued |= Active;
        break;
      }
    Active = 0;
    return;
  }
  if (auto *AS = dyn_cast<AttributedStmt>(S))
    return exec(AS->getSubStmt());
  if (auto *LS = dyn_cast<LabelStmt>(S))
    return exec(LS->getSubStmt());
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S)) {
    ControlUnknown = makeReason(ReasonKind::Goto, {lineOf(Ctx, S->getBeginLoc())});
    return;
  }
  if (auto *Asm = dyn_cast<AsmStmt>(S))
    return execAsm(Asm);
  if (isa<NullStmt>(S))
    return;
  // Anything else: look inside for memory accesses.
  evalChildren(S);
}

void WarpInterp::evalChildren(const Stmt *S) {
  for (const Stmt *C : S->children()) {
    if (!C)
      continue;
    if (auto *E = dyn_cast<Expr>(C))
      eval(E);
    else
      exec(C);
  }
}

void WarpInterp::execDecl(const VarDecl *VD) {
  // The frame is looked up after each evaluation: a callee's branches
  // copy and restore Frames, so a reference held across eval() may dangle.
  unsigned Idx = static_cast<unsigned>(Frames.size() - 1);
  auto F = [&]() -> Frame & { return Frames[Idx]; };
  if (VD->hasGlobalStorage())
    return; // shared / static variables: regions are made on first use
  QualType T = VD->getType().getCanonicalType();
  const Expr *Init = VD->getInit();
  if (T->isReferenceType()) {
    // A const reference to a compile-time constant is its value.
    if (Init && T->getPointeeType().isConstQualified())
      if (std::optional<Value> C = compileTimeValue(Init)) {
        F().Vars[VD] = *C;
        bindGroup(Idx, VD, Init);
        return;
      }
    // A temporary bound to a const reference: its value.
    if (auto *MT = dyn_cast_or_null<MaterializeTemporaryExpr>(Init ? skipCastsAndParens(Init) : nullptr);
        MT && (isIntegral(T->getPointeeType()) || T->getPointeeType()->isPointerType())) {
      const Value V = eval(MT->getSubExpr());
      F().Vars[VD] = V;
      bindGroup(Idx, VD, Init);
      return;
    }
    if (Init)
      F().Refs[VD] = evalLValue(Init);
    bindGroup(Idx, VD, Init);
    return;
  }
  if (T->isArrayType()) {
    // The elements the initializer gives (`int idx[4] = {0, 1, 2, 3}`,
    // `= {}`); a fresh array has none known.
    setFields(F(), VD, "", Init ? structValue(Init) : Value::opaque());
    MemRegion Rg;
    Rg.K = MemRegion::Local;
    Rg.Name = VD->getName().str();
    Rg.Decl = VD;
    R.regionFor(VD, Rg);
    F().Vars[VD] = Value::opaque();
    return;
  }
  if (T->isRecordType()) {
    if (isGroupType(T)) {
      // A cooperative group: what it is matters, not its bytes.
      if (Init)
        eval(Init);
      bindGroup(Idx, VD, Init);
      F().Vars[VD] = Value::opaque();
      return;
    }
    // A copy of a by-value kernel parameter struct is an alias of it.
    if (Init) {
      const Expr *Src = skipCastsAndParens(Init);
      if (auto *CE = dyn_cast<CXXConstructExpr>(Src))
        if (CE->getNumArgs() == 1 && CE->getConstructor()->isCopyOrMoveConstructor()) {
          const Expr *Arg = CE->getArg(0);
          if (skipToValue(Arg)->isGLValue() && !isCompileTimeConstant(Ctx, Arg)) {
            LValue LV = evalLValue(Arg);
            if (LV.K == LValue::ParamField) {
              F().Refs[VD] = LV;
              return;
            }
            setFields(F(), VD, "", recordAt(LV, Arg->getType(), Arg));
            F().Vars[VD] = Value::opaque();
            return;
          }
          const Value V = structValue(Arg);
          setFields(F(), VD, "", V);
          F().Vars[VD] = Value::opaque();
          return;
        }
      // A constexpr struct: its fields as clang evaluates them.
      if (VD->isConstexpr() && !Init->isValueDependent())
        if (const APValue *AV = VD->evaluateValue()) {
          setFields(F(), VD, "", valueOfConstant(*AV, T));
          F().Vars[VD] = Value::opaque();
          return;
        }
      const Value V = eval(Init);
      setFields(F(), VD, "", V);
      F().Vars[VD] = Value::opaque();
      return;
    }
    setFields(F(), VD, "", Value::opaque()); // a fresh object: nothing known
    F().Vars[VD] = Value::opaque();
    return;
  }
  // A constant (constexpr, or const with an initializer clang evaluates at
  // compile time: `constexpr int nwarps = get_nthreads(type) / warp_size;`)
  // is its value, whatever the functions it calls do at run time.
  if (Init && isIntegral(T) && (VD->isConstexpr() || T.isConstQualified()) &&
      !Init->isValueDependent())
    if (std::optional<int64_t> C = constantOf(Init)) {
      if (F().Vars.count(VD))
        assignVar(VD, Value::constant(*C), Idx);
      else
        F().Vars[VD] = Value::constant(*C);
      return;
    }
  Value V = Init ? eval(Init)
                 : Value::unknown(ReasonKind::UsedBeforeAssigned, {VD->getName().str()});
  if (Init && V.K == Value::Int && !isIntegral(T) && !T->isPointerType())
    V = Value::opaque();
  if (F().Vars.count(VD))
    assignVar(VD, V, Idx);
  else
    F().Vars[VD] = V;
}

void WarpInterp::execIf(const IfStmt *If) {
  CompilerModels::Scope<const Stmt *> Branch(Models, &CompilerModels::branchEnter,
                                             &CompilerModels::branchJoin, If);
  exec(If->getInit());
  if (const VarDecl *CV = If->getConditionVariable())
    execDecl(CV);
  if (If->isConsteval())
    return;
  Cond C = evalCond(If->getCond());
  const LaneMask Save = Active;
  const size_t AssumeMark = Assumptions.size();
  for (const std::string &G : C.Guards)
    Assumptions.push_back(makeAssumption(AssumptionKind::InteriorGuard,
                                         {G, lineOf(Ctx, If->getCond()->getBeginLoc())}));
  // A guard around an early return (`if (i >= n) return;`) is assumed for
  // the rest of the function; other guards only inside their branch.
  const bool Sticky = retiresLanes(If->getThen()) || retiresLanes(If->getElse());
  struct Restore {
    std::vector<Assumption> &A;
    size_t N;
    bool Keep;
    ~Restore() {
      if (!Keep)
        A.resize(std::min(A.size(), N));
    }
  } AssumeRestore{Assumptions, AssumeMark, Sticky};
  switch (C.K) {
  case Cond::Lanes:
  case Cond::Guard: { // a guard's lanes are the ones assumed to pass
    // A side that a guard leaves without lanes in interior warps still runs
    // in warps at the edge of the grid: its accesses are listed, with lanes
    // that are not known.
    if (C.K == Cond::Guard)
      runEdgeSides(C, If, Save);
    else
      runEdgeSidesOn(C, If, Save);
    if ((Save & C.True) && (Save & ~C.True))
      Models.branchDiverges(If); // both sides run, on different lanes of the warp
    Active = Save & C.True;
    exec(If->getThen());
    LaneMask AThen = Active;
    Active = Save & ~C.True;
    exec(If->getElse());
    Active = AThen | Active;
    return;
  }
  case Cond::Uniform:
  case Cond::Data: {
    if (C.K == Cond::Uniform)
      runEdgeSides(C, If, Save);
    // Both sides run (in different warps, or on lanes we cannot tell apart).
    if (C.K == Cond::Data)
      MaskWhys.push_back(wrapReason(ReasonKind::ActiveLanesOnData,
                                    {C.Text, lineOf(Ctx, If->getCond()->getBeginLoc())},
                                    C.Why));
    if (retiresLanes(If->getThen()) || retiresLanes(If->getElse()))
      ++DivergentExits;
    // Both sides run on copies of the state: its size counts towards the
    // step budget, so that state growing with each branch cannot run on
    // without bound.
    for (const Frame &F : Frames)
      R.Steps += F.Vars.size() + F.Fields.size() + F.Refs.size() + F.OtherRets.size();
    step();
    const std::deque<Frame> Before = Frames;
    const std::vector<LoopCtl> LoopsBefore = Loops;
    const size_t SideMark = Assumptions.size();
    // A warp-uniform outcome that is not known: each side runs in the warps
    // that take it, and how many those are is not known (with a known grid,
    // a condition on blockIdx is decided per part of the grid instead).
    const bool RequestsBefore = RequestsKnown;
    const std::string WhyBefore = RequestsWhy;
    if (C.K == Cond::Uniform && RequestsKnown) {
      RequestsKnown = false;
      RequestsWhy = "how many warps take each side of the branch at line " +
                    lineOf(Ctx, If->getCond()->getBeginLoc()) +
                    " is not known: the cost is per request of the warps that do";
    }
    Active = C.K == Cond::Uniform ? uniformSide(C, Save, true, If->getCond()) : Save;
    exec(If->getThen());
    Assumptions.resize(std::min(Assumptions.size(), SideMark));
    const LaneMask AThen = Active;
    std::deque<Frame> AfterThen = Frames; // a copy: Frames keeps its storage
    std::vector<LoopCtl> LoopsThen = std::move(Loops);
    Frames = Before;
    Loops = LoopsBefore;
    Active = C.K == Cond::Uniform ? uniformSide(C, Save, false, If->getCond()) : Save;
    exec(If->getElse());
    Assumptions.resize(std::min(Assumptions.size(), SideMark));
    RequestsKnown = RequestsBefore;
    RequestsWhy = WhyBefore;
    const LaneMask AElse = Active;
    mergeBranches(AfterThen, If, C.K == Cond::Uniform, Save);
    // A lane has left (returned, broken, continued) only if it left on both
    // sides; otherwise the warps that took the other side still run it.
    for (size_t I = 0; I < Loops.size() && I < LoopsThen.size(); ++I) {
      Loops[I].Broken &= LoopsThen[I].Broken;
      Loops[I].Continued &= LoopsThen[I].Continued;
    }
    if (C.K == Cond::Data)
      MaskWhys.pop_back();
    Active = (AThen | AElse) & ~frameReturnedAll();
    return;
  }
  }
}

void WarpInterp::runEdgeSides(const Cond &C, const IfStmt *If, LaneMask Save) {
  for (bool Then : {true, false}) {
    bool Runs = false;
    for (LaneMask W : C.worlds())
      Runs |= (Save & (Then ? W : ~W)) != 0;
    if (!Runs)
      runEdgeSide(Then ? If->getThen() : If->getElse(), Save,
                  makeReason(ReasonKind::OtherWarpsOnly,
                             {C.Text, lineOf(Ctx, If->getCond()->getBeginLoc()),
                              Then ? "false" : "true"}));
  }
}

void WarpInterp::runEdgeSidesOn(const Cond &C, const IfStmt *If, LaneMask Save) {
  if (EdgeChanged.empty() || !Save)
    return;
  bool Reads = false;
  std::function<void(const Stmt *)> Find = [&](const Stmt *S) {
    if (!S || Reads)
      return;
    if (auto *DR = dyn_cast<DeclRefExpr>(S))
      if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        Reads |= EdgeChanged.count(VD) > 0;
    for (const Stmt *Ch : S->children())
      Find(Ch);
  };
  Find(If->getCond());
  if (!Reads)
    return;
  for (bool Then : {true, false})
    if (!(Save & (Then ? C.True : ~C.True)))
      runEdgeSide(Then ? If->getThen() : If->getElse(), Save,
                  makeReason(ReasonKind::OtherWarpsOnly,
                             {C.Text, lineOf(Ctx, If->getCond()->getBeginLoc()),
                              Then ? "false" : "true"}));
}

void WarpInterp::runEdgeSide(const Stmt *Side, LaneMask Lanes, const Reason &Why) {
  if (!Side || !Lanes)
    return;
  // On copies: what it changes is not the state of interior warps.
  const std::deque<Frame> SavedFrames = Frames;
  const std::vector<LoopCtl> SavedLoops = Loops;
  const std::vector<Assumption> SavedAssume = Assumptions;
  const LaneMask SavedActive = Active;
  MaskWhys.push_back(wrapReason(ReasonKind::ActiveLanesUnknown, {}, Why));
  Active = Lanes;
  try {
    exec(Side);
  } catch (...) {
    MaskWhys.pop_back();
    throw;
  }
  MaskWhys.pop_back();
  // What it assigns may differ in the warps that run it.
  std::set<const VarDecl *> Changed;
  collectModifiedVars(Side, Changed);
  EdgeChanged.insert(Changed.begin(), Changed.end());
  Frames = SavedFrames; // assigned in place: frames keep their addresses
  Loops = SavedLoops;
  Assumptions = SavedAssume;
  Active = SavedActive;
}

Value WarpInterp::joinOpaque(const Value &A, const Value &B, const IfStmt *If, bool Uniform) {
  // Values the same on every lane on each side (Value::UniformId): one of
  // them after a uniform branch, the same on every lane; otherwise lanes
  // may differ.
  if (Uniform && A.UniformId && B.UniformId)
    return Value::uniformOpaque(llvm::hash_combine(
        std::string("phi"), reinterpret_cast<uintptr_t>(If), A.UniformId, B.UniformId));
  return Value::opaque();
}

void WarpInterp::mergeBranches(std::deque<Frame> &Other, const IfStmt *If,
                               bool Uniform, LaneMask Save) {
  for (size_t I = 0; I < Frames.size() && I < Other.size(); ++I) {
    Frame &F = Frames[I];
    Frame &T = Other[I];
    for (auto &KV : F.Vars) {
      auto It = T.Vars.find(KV.first);
      if (It == T.Vars.end() || It->second.sameAs(KV.second))
        continue;
      const Value &A = It->second, &B = KV.second;
      if (Uniform && A.K == Value::Int && B.K == Value::Int &&
          A.P.isUniform(Save) && B.P.isUniform(Save)) {
        const std::string IfLine = lineOf(Ctx, If->getBeginLoc());
        std::string Name = KV.first->getName().str() + "@L" + IfLine;
        KV.second = Value::integer(Poly::symbol(
            sym("phi:" + std::to_string(reinterpret_cast<uintptr_t>(If)) + ":" +
                    KV.first->getName().str(),
                Name, SymbolKind::Opaque, 0,
                "'" + KV.first->getName().str() + "' after the branch at line " +
                    IfLine)));
      } else if (A.K == Value::Opaque && B.K == Value::Opaque) {
        if (A.UniformId || B.UniformId || A.Code || B.Code)
          KV.second = joinOpaque(A, B, If, Uniform);
        continue;
      } else {
        KV.second = Value::unknown(ReasonKind::BranchDependent,
                                   {KV.first->getName().str(), lineOf(Ctx, If->getBeginLoc())});
      }
    }
    for (auto &KV : T.Vars)
      if (!F.Vars.count(KV.first))
        F.Vars[KV.first] = KV.second;
    // Fields of local structs: the same on both sides, a uniform value of
    // the branch when both are uniform, else not known.
    for (auto &KV : F.Fields) {
      auto It = T.Fields.find(KV.first);
      if (It != T.Fields.end() && It->second.sameAs(KV.second))
        continue;
      const std::string Name = KV.first.first->getName().str() + KV.first.second;
      const std::string IfLine = lineOf(Ctx, If->getBeginLoc());
      if (It != T.Fields.end() && Uniform && It->second.K == Value::Int &&
          KV.second.K == Value::Int && It->second.P.isUniform(Save) &&
          KV.second.P.isUniform(Save))
        KV.second = Value::integer(Poly::symbol(
            sym("phi:" + std::to_string(reinterpret_cast<uintptr_t>(If)) + ":" + Name,
                Name + "@L" + IfLine, SymbolKind::Opaque, 0,
                "'" + Name + "' after the branch at line " + IfLine)));
      else if (It != T.Fields.end() && It->second.K == Value::Opaque &&
               KV.second.K == Value::Opaque) {
        if (It->second.UniformId || KV.second.UniformId || It->second.Code || KV.second.Code)
          KV.second = joinOpaque(It->second, KV.second, If, Uniform);
        continue;
      }
      else
        KV.second = Value::unknown(ReasonKind::BranchDependent, {Name, IfLine});
    }
    for (auto &KV : T.Fields)
      if (!F.Fields.count(KV.first))
        F.Fields[KV.first] = Value::unknown(
            ReasonKind::BranchDependent,
            {KV.first.first->getName().str() + KV.first.second, lineOf(Ctx, If->getBeginLoc())});
    for (auto &KV : T.Refs)
      if (!F.Refs.count(KV.first))
        F.Refs[KV.first] = KV.second;
    F.Returned &= T.Returned;
    // What the then-side returned is one of the function's possible results.
    if (T.RetVal) {
      if (!F.RetVal)
        F.OtherRets.push_back({*T.RetVal, If, Uniform});
      else if (!T.RetVal->sameAs(*F.RetVal))
        F.RetVal = joinReturns(*F.RetVal, *T.RetVal, If, Uniform, Save, F.FD);
    }
    for (auto &O : T.OtherRets)
      if (std::find_if(F.OtherRets.begin(), F.OtherRets.end(), [&](const auto &X) {
            return X.If == O.If && X.V.sameAs(O.V);
          }) == F.OtherRets.end())
        F.OtherRets.push_back(O);
    const bool SameRef = T.RetLV && F.RetLV && T.RetLV->K == LValue::Mem &&
                         F.RetLV->K == LValue::Mem && T.RetLV->Ptr.K == Value::Ptr &&
                         F.RetLV->Ptr.K == Value::Ptr &&
                         T.RetLV->Ptr.Region == F.RetLV->Ptr.Region &&
                         T.RetLV->Ptr.P == F.RetLV->Ptr.P;
    if ((T.RetLV || F.RetLV) && !SameRef && F.RetLVAmbiguous.empty())
      F.RetLVAmbiguous = lineOf(Ctx, If->getBeginLoc());
    if (F.RetLVAmbiguous.empty() && !T.RetLVAmbiguous.empty())
      F.RetLVAmbiguous = T.RetLVAmbiguous;
  }
}

/// The lanes that run one side of a branch on a uniform condition: the
/// lanes of the worlds in which that side runs at all. When it runs in
/// several worlds on different lanes, those of the first such world, with
/// the assumption said.
LaneMask WarpInterp::uniformSide(const Cond &C, LaneMask Save, bool ThenSide,
                                 const Expr *CondE) {
  std::vector<LaneMask> Runs;
  for (LaneMask W : C.worlds()) {
    const LaneMask M = Save & (ThenSide ? W : ~W);
    if (M && !llvm::is_contained(Runs, M))
      Runs.push_back(M);
  }
  if (Runs.size() <= 1)
    return Runs.empty() ? 0 : Runs.front();
  std::string Others;
  for (size_t I = 1; I < Runs.size(); ++I)
    Others += (I > 1 ? (I + 1 == Runs.size() ? " or " : ", ") : "") +
              std::to_string(__builtin_popcount(Runs[I]));
  Assumptions.push_back(makeAssumption(
      AssumptionKind::UniformBranch,
      {text(CondE), ThenSide ? "true" : "false",
       std::to_string(__builtin_popcount(Runs.front())), lineOf(Ctx, CondE->getBeginLoc()),
       Others}));
  return Runs.front();
}

/// The result of a function that returned A in one world and B in the other
/// (the two sides of the branch If both ran): a fresh uniform symbol when
/// both are uniform integers and the condition is uniform (like a variable
/// assigned on both sides), otherwise not known.
Value WarpInterp::joinReturns(const Value &A, const Value &B, const IfStmt *If, bool Uniform,
                              LaneMask Save, const FunctionDecl *FD) {
  if (A.sameAs(B))
    return A;
  const std::string Fn = FD ? FD->getNameAsString() : "the function";
  if (Uniform && A.K == Value::Int && B.K == Value::Int && A.P.isUniform(Save) &&
      B.P.isUniform(Save))
    return Value::integer(Poly::symbol(
        sym("ret:" + std::to_string(reinterpret_cast<uintptr_t>(If)) + ":" + Fn,
            Fn + "()@L" + lineOf(Ctx, If->getBeginLoc()), SymbolKind::Opaque, 0,
            "the value '" + Fn + "' returns (branch at line " +
                lineOf(Ctx, If->getBeginLoc()) + ")")));
  if (A.K == Value::Opaque && B.K == Value::Opaque)
    return A.Code || B.Code ? Value::opaque() : A; // different address codes
  return Value::unknown(ReasonKind::ReturnBranchDependent,
                        {Fn, lineOf(Ctx, If->getBeginLoc())});
}

void WarpInterp::execSwitch(const SwitchStmt *SW) {
  CompilerModels::Scope<const Stmt *> Branch(Models, &CompilerModels::branchEnter,
                                             &CompilerModels::branchJoin, SW);
  exec(SW->getInit());
  if (const VarDecl *CV = SW->getConditionVariable())
    execDecl(CV);
  Value V = eval(SW->getCond());
  const LaneMask Entry = Active;
  const bool Known = V.K == Value::Int && V.P.isConcrete(Entry);
  LaneInts Vals = Known ? V.P.laneConstants() : LaneInts{};
  if (!Known)
    Assumptions.push_back(makeAssumption(AssumptionKind::EverySwitchCase,
                                         {lineOf(Ctx, SW->getBeginLoc())}));
  Loops.push_back(LoopCtl{0, 0, true});
  Active = 0;
  LaneMask Matched = 0;
  // Lanes entering at each label, in order.
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *CS = dyn_cast<CaseStmt>(S)) {
      LaneMask Enter = 0;
      if (!Known) {
        Enter = Entry;
      } else if (auto C = constantInt(CS->getLHS())) {
        for (unsigned L = 0; L < WarpSize; ++L)
          if (laneActive(Entry, L) && Vals[L] == *C)
            Enter |= 1u << L;
      }
      Matched |= Enter;
      Active |= Enter;
      return Walk(CS->getSubStmt());
    }
    if (auto *DS = dyn_cast<DefaultStmt>(S)) {
      Active |= Known ? (Entry & ~Matched) : Entry;
      return Walk(DS->getSubStmt());
    }
    exec(S);
  };
  // Default may appear before later cases: compute all matches first.
  if (Known) {
    std::function<void(const Stmt *)> Pre = [&](const Stmt *S) {
      if (!S)
        return;
      if (auto *CS = dyn_cast<CaseStmt>(S)) {
        if (auto C = constantInt(CS->getLHS()))
          for (unsigned L = 0; L < WarpSize; ++L)
            if (laneActive(Entry, L) && Vals[L] == *C)
              Matched |= 1u << L;
        Pre(CS->getSubStmt());
      }
    };
    if (auto *Body = dyn_cast<CompoundStmt>(SW->getBody()))
      for (const Stmt *S : Body->body())
        Pre(S);
  }
  if (auto *Body = dyn_cast<CompoundStmt>(SW->getBody())) {
    for (const Stmt *S : Body->body())
      Walk(S);
  } else {
    Walk(SW->getBody());
  }
  Active |= Loops.back().Broken;
  Loops.pop_back();
  Active &= ~frameReturnedAll();
  if (!Known)
    Assumptions.pop_back();
}

} // namespace interp
} // namespace coalesce

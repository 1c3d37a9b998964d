//===- Interpreter.cpp - Executes a kernel for one warp, symbolically -----===//

#include "Interpreter.h"

#include "support/IntOps.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <set>
#include <sstream>

using namespace clang;

namespace coalesce {

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

bool Value::sameAs(const Value &O) const {
  if (K != O.K)
    return false;
  switch (K) {
  case Int:
    return P == O.P;
  case Ptr:
    return Region == O.Region && P == O.P;
  case Unknown:
    return Why == O.Why;
  case Opaque:
    return true;
  }
  return false;
}

RegionId KernelRun::addRegion(MemRegion Rg) {
  Regions.push_back(std::move(Rg));
  return static_cast<RegionId>(Regions.size() - 1);
}

RegionId KernelRun::regionFor(const void *Key, MemRegion Rg) {
  auto It = RegionByKey.find(Key);
  if (It != RegionByKey.end())
    return It->second;
  RegionId Id = addRegion(std::move(Rg));
  RegionByKey.emplace(Key, Id);
  return Id;
}

std::string exprText(const ASTContext &Ctx, const Expr *E) {
  if (!E)
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  R = Lexer::makeFileCharRange(R, SM, Ctx.getLangOpts());
  std::string S;
  if (R.isValid())
    S = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  if (S.empty()) {
    // Fall back to printing the expression.
    llvm::raw_string_ostream OS(S);
    E->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
  }
  // Collapse whitespace runs (multi-line expressions).
  std::string Out;
  bool Space = false;
  for (char C : S) {
    if (C == '\n' || C == '\t' || C == ' ' || C == '\r') {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

SourcePos sourcePos(const ASTContext &Ctx, SourceLocation Begin,
                    SourceLocation End) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourcePos P;
  if (Begin.isInvalid())
    return P;
  SourceLocation B = SM.getFileLoc(Begin);
  PresumedLoc PL = SM.getPresumedLoc(B);
  if (PL.isInvalid())
    return P;
  P.File = PL.getFilename();
  P.Line = PL.getLine();
  P.Column = PL.getColumn();
  P.RawLoc = B.getRawEncoding();
  bool Invalid = false;
  std::pair<FileID, unsigned> Dec = SM.getDecomposedLoc(B);
  llvm::StringRef Buf = SM.getBufferData(Dec.first, &Invalid);
  if (!Invalid) {
    size_t Start = Buf.rfind('\n', Dec.second == 0 ? 0 : Dec.second - 1);
    Start = (Start == llvm::StringRef::npos || Dec.second == 0) ? 0 : Start + 1;
    if (Dec.second == 0)
      Start = 0;
    size_t Stop = Buf.find('\n', Dec.second);
    if (Stop == llvm::StringRef::npos)
      Stop = Buf.size();
    P.LineText = Buf.substr(Start, Stop - Start).str();
    if (!P.LineText.empty() && P.LineText.back() == '\r')
      P.LineText.pop_back();
  }
  if (End.isValid()) {
    SourceLocation E = SM.getFileLoc(End);
    E = Lexer::getLocForEndOfToken(E, 0, SM, Ctx.getLangOpts());
    if (E.isValid() && SM.getFileID(E) == SM.getFileID(B)) {
      PresumedLoc EL = SM.getPresumedLoc(E);
      if (EL.isValid() && EL.getLine() == P.Line && EL.getColumn() > P.Column)
        P.EndColumn = EL.getColumn();
    }
  }
  return P;
}

namespace {

struct Cond {
  enum Kind {
    Lanes,   // exact per lane
    Uniform, // same unknown outcome for all lanes; True = lanes if it holds
    Guard,   // lane-dependent but unknown: True = lanes assumed to pass
    Data     // depends on loaded data
  } K = Lanes;
  LaneMask True = 0;
  /// Uniform: the outcome is one of two worlds, the same for every lane of
  /// the warp: True holds the lanes where the condition holds in the first,
  /// TrueElse those in the second (for a plain uniform condition, all lanes
  /// and none).
  LaneMask TrueElse = 0;
  std::string Text, Why;
  /// Bounds guards inside the condition, assumed to pass in interior warps.
  std::vector<std::string> Guards;
};

struct Frame {
  const FunctionDecl *FD = nullptr;
  llvm::DenseMap<const VarDecl *, Value> Vars;
  std::map<std::pair<const VarDecl *, std::string>, Value> Fields;
  llvm::DenseMap<const VarDecl *, LValue> Refs;
  LaneMask Returned = 0;
  LaneMask Entry = 0;
  std::optional<Value> RetVal;
  std::optional<LValue> RetLV;
  /// Values returned on one side of a branch whose two sides both ran (a
  /// uniform or data-dependent condition), joined with RetVal at the end.
  struct OtherRet {
    Value V;
    const IfStmt *If;
    bool Uniform; // the branch's condition was uniform (not data-dependent)
  };
  std::vector<OtherRet> OtherRets;
  /// A reference returned on one side of such a branch only: at line ...
  std::string RetLVAmbiguous;
  std::optional<LValue> This;
  std::string ContextKey, ContextText;
};

struct LoopCtl {
  LaneMask Broken = 0, Continued = 0;
  bool IsSwitch = false;
};

/// True if S contains a statement that retires lanes from what follows.
bool retiresLanes(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  for (const Stmt *C : S->children())
    if (retiresLanes(C))
      return true;
  return false;
}

bool isIntegral(QualType T) {
  T = T.getCanonicalType();
  return T->isIntegralOrEnumerationType();
}

std::string lineOf(const ASTContext &Ctx, SourceLocation L) {
  SourcePos P = sourcePos(Ctx, L);
  return std::to_string(P.Line);
}

std::string fileLine(const ASTContext &Ctx, SourceLocation L) {
  SourcePos P = sourcePos(Ctx, L);
  std::string F = P.File;
  size_t Slash = F.rfind('/');
  if (Slash != std::string::npos)
    F = F.substr(Slash + 1);
  return F + ":" + std::to_string(P.Line);
}

const Expr *skipCastsAndParens(const Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      E = IC->getSubExpr();
      continue;
    }
    if (auto *FE = dyn_cast<FullExpr>(E)) {
      E = FE->getSubExpr();
      continue;
    }
    return E;
  }
}

/// Variables assigned anywhere inside S (for loop induction analysis).
void collectModified(const Stmt *S, std::set<const VarDecl *> &Out) {
  if (!S)
    return;
  auto Note = [&](const Expr *LHS) {
    LHS = skipCastsAndParens(LHS);
    if (auto *DR = dyn_cast<DeclRefExpr>(LHS))
      if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        Out.insert(VD);
  };
  if (auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      Note(BO->getLHS());
  } else if (auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      Note(UO->getSubExpr());
  } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (OC->isAssignmentOp() && OC->getNumArgs() > 0)
      Note(OC->getArg(0));
  }
  for (const Stmt *C : S->children())
    collectModified(C, Out);
}

class WarpInterp {
public:
  WarpInterp(KernelRun &Run, unsigned Warp)
      : R(Run), Ctx(Run.Ctx), Warp(Warp),
        ShapeKnown(Run.Launch.Config.BlockKnown) {
    if (ShapeKnown) {
      Threads = threadsOfWarp(R.Launch.Config.Block, Warp);
      Exists = Threads.Exists;
    } else {
      Exists = AllLanes;
    }
  }

  void run();

private:
  KernelRun &R;
  ASTContext &Ctx;
  unsigned Warp;
  bool ShapeKnown;
  WarpThreads Threads;
  LaneMask Exists = 0;
  LaneMask Active = 0;
  std::deque<Frame> Frames;
  std::vector<LoopCtl> Loops;
  std::vector<std::string> Assumptions;
  std::vector<std::string> MaskWhys;
  /// Assumptions about values that flow on (clamps), kept for the warp run.
  std::vector<std::string> Sticky;
  std::string ControlUnknown;
  double Weight = 1;
  bool RequestsKnown = true;
  unsigned DryDepth = 0;
  unsigned ExprDepth = 0;
  unsigned BufferDepth = 0;
  std::vector<AccessEvent> Buffered;
  std::set<std::pair<const Expr *, std::string>> Explained;

  // Budget ------------------------------------------------------------------
  void step() {
    if (++R.Steps > R.Limits.MaxSteps)
      throw BudgetExceeded{"more than " + std::to_string(R.Limits.MaxSteps) +
                           " interpretation steps"};
  }
  struct DepthGuard {
    WarpInterp &I;
    explicit DepthGuard(WarpInterp &I) : I(I) {
      if (++I.ExprDepth > I.R.Limits.MaxExprDepth)
        throw BudgetExceeded{"expression nesting deeper than " +
                             std::to_string(I.R.Limits.MaxExprDepth)};
    }
    ~DepthGuard() { --I.ExprDepth; }
  };
  /// In a salvage walk, nesting at the limit gives up on the value only.
  bool salvageTooDeep() const {
    return !R.Salvage.empty() && ExprDepth >= R.Limits.MaxExprDepth;
  }

  Frame &frame() { return Frames.back(); }

  /// The memory a pointer value designates.
  static LValue memAt(const Value &P) {
    LValue LV;
    if (P.K == Value::Ptr) {
      LV.K = LValue::Mem;
      LV.Ptr = P;
      return LV;
    }
    LV.K = LValue::Unknown;
    LV.Why = P.K == Value::Unknown && !P.Why.empty() ? P.Why : "the pointer is not known";
    if (P.K == Value::Unknown)
      LV.UnknownRegion = P.Where;
    return LV;
  }

  // Symbols -----------------------------------------------------------------
  SymbolId sym(const std::string &Key, const std::string &Name, SymbolKind K,
               int64_t Range = 0) {
    SymbolInfo Info;
    Info.Name = Name;
    Info.Kind = K;
    Info.UniformRange = Range;
    return R.Syms.intern(Key, Info);
  }

  // Events ------------------------------------------------------------------
  void emit(AccessEvent E) {
    if (BufferDepth)
      Buffered.push_back(std::move(E));
    else
      R.Sink->record(E);
  }

  // Values of variables -------------------------------------------------------
  Frame *frameOf(const VarDecl *VD, unsigned *Idx = nullptr) {
    for (size_t I = Frames.size(); I-- > 0;)
      if (Frames[I].Vars.count(VD) || Frames[I].Refs.count(VD)) {
        if (Idx)
          *Idx = static_cast<unsigned>(I);
        return &Frames[I];
      }
    return nullptr;
  }

  Value merge(LaneMask M, const Value &New, const Value &Old) const {
    LaneMask Live = Exists & ~frameReturnedAll();
    if ((M & Live) == Live || Old.K == Value::Unknown)
      return New;
    if (New.K == Value::Int && Old.K == Value::Int)
      return Value::integer(New.P.select(M, Old.P));
    if (New.K == Value::Ptr && Old.K == Value::Ptr && New.Region == Old.Region) {
      Value V = New;
      V.P = New.P.select(M, Old.P);
      return V;
    }
    if (New.sameAs(Old))
      return New;
    if (New.K == Value::Opaque && Old.K == Value::Opaque)
      return New;
    if (New.K == Value::Unknown)
      return New;
    return Value::unknown("takes values of different kinds on different lanes");
  }

  LaneMask frameReturnedAll() const {
    LaneMask M = 0;
    for (const Frame &F : Frames)
      M |= F.Returned;
    return M;
  }

  void assignVar(const VarDecl *VD, const Value &V, unsigned FrameIdx) {
    Frame &F = Frames[FrameIdx];
    auto It = F.Vars.find(VD);
    if (It == F.Vars.end()) {
      F.Vars[VD] = V;
      return;
    }
    It->second = merge(Active, V, It->second);
  }

  // The thread-index builtins ------------------------------------------------
  std::optional<Value> builtinVar(const PseudoObjectExpr *POE) {
    const Expr *Syn = POE->getSyntacticForm()->IgnoreParens();
    auto *MS = dyn_cast<MSPropertyRefExpr>(Syn);
    if (!MS)
      return std::nullopt;
    const Expr *Base = MS->getBaseExpr()->IgnoreParenImpCasts();
    if (auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
      Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
    auto *DR = dyn_cast<DeclRefExpr>(Base);
    if (!DR)
      return std::nullopt;
    std::string Var = DR->getDecl()->getName().str();
    std::string Prop = MS->getPropertyDecl()->getName().str();
    int Axis = Prop == "x" ? 0 : Prop == "y" ? 1 : Prop == "z" ? 2 : -1;
    if (Axis < 0)
      return std::nullopt;
    const Dim3 &B = R.Launch.Config.Block;
    const std::string Name = Var + "." + Prop;
    if (Var == "threadIdx") {
      if (ShapeKnown)
        return Value::integer(
            Poly::lanes(Axis == 0 ? Threads.Tx : Axis == 1 ? Threads.Ty : Threads.Tz));
      if (Axis == 0)
        return Value::integer(
            Poly::symbol(sym("tx32", "threadIdx.x/32", SymbolKind::ThreadBase), 32) +
            Poly::lanes(laneIota()));
      return Value::integer(Poly::symbol(sym(Name, Name, SymbolKind::ThreadBase)));
    }
    if (Var == "blockDim") {
      if (ShapeKnown)
        return Value::constant(Axis == 0 ? B.X : Axis == 1 ? B.Y : B.Z);
      if (Axis == 0)
        return Value::integer(Poly::symbol(
            sym("bdx32", "blockDim.x/32", SymbolKind::BlockDim), 32));
      return Value::integer(Poly::symbol(sym(Name, Name, SymbolKind::BlockDim)));
    }
    const std::optional<Dim3> &G = R.Launch.Config.Grid;
    if (Var == "gridDim") {
      if (G)
        return Value::constant(Axis == 0 ? G->X : Axis == 1 ? G->Y : G->Z);
      return Value::integer(Poly::symbol(sym(Name, Name, SymbolKind::GridDim)));
    }
    if (Var == "blockIdx") {
      int64_t Range = G ? (Axis == 0 ? G->X : Axis == 1 ? G->Y : G->Z) : 0;
      if (Range == 1)
        return Value::constant(0);
      return Value::integer(
          Poly::symbol(sym(Name, Name, SymbolKind::BlockIdx, Range)));
    }
    return std::nullopt;
  }

  // Regions ------------------------------------------------------------------
  RegionId regionForVar(const VarDecl *VD) {
    MemRegion Rg;
    Rg.Decl = VD;
    Rg.Name = VD->getName().str();
    Rg.Align = std::max<int64_t>(1, Ctx.getDeclAlign(VD).getQuantity());
    if (VD->hasAttr<CUDASharedAttr>()) {
      Rg.K = MemRegion::Shared;
      Rg.Dynamic = VD->hasExternalStorage();
      Rg.Align = std::max<int64_t>(Rg.Align, 16);
      Rg.AlignNote = "shared arrays start at least 16-byte aligned";
    } else if (VD->hasAttr<CUDAConstantAttr>()) {
      Rg.K = MemRegion::Constant;
    } else if (VD->hasGlobalStorage() && VD->hasAttr<CUDADeviceAttr>()) {
      Rg.K = MemRegion::Global;
      Rg.AlignNote = Rg.Align >= 32
                         ? "'" + Rg.Name + "' is a __device__ variable aligned to " +
                               std::to_string(Rg.Align) + " bytes"
                         : "assuming the __device__ variable '" + Rg.Name +
                               "' is 32-byte aligned (only " + std::to_string(Rg.Align) +
                               "-byte alignment is declared)";
    } else {
      Rg.K = MemRegion::Local;
    }
    return R.regionFor(VD, Rg);
  }

  RegionId paramRegion(const ParmVarDecl *PD, const std::string &Path) {
    MemRegion Rg;
    Rg.K = MemRegion::Global;
    Rg.Decl = PD;
    Rg.Name = PD->getName().str() + Path;
    Rg.Align = 256;
    auto Off = R.Launch.PtrOffsets.find(PD);
    if (Path.empty() && Off != R.Launch.PtrOffsets.end() && Off->second != 0) {
      Rg.BaseOffset = Poly::constant(Off->second);
      Rg.AlignNote = "'" + Rg.Name + "' is passed as an allocation plus " +
                     std::to_string(Off->second) + " bytes";
    } else {
      Rg.AlignNote = "assuming '" + Rg.Name +
                     "' points to the start of a cudaMalloc allocation "
                     "(256-byte aligned)";
    }
    std::string Key = "param:" + std::to_string(reinterpret_cast<uintptr_t>(PD)) + Path;
    return regionKeyed(Key, Rg);
  }

  RegionId regionKeyed(const std::string &Key, MemRegion Rg) {
    // Regions keyed by strings are shared across warps through RegionByKey
    // with an interned symbol id as the key.
    SymbolId S = R.Syms.intern("region:" + Key, SymbolInfo{Key, SymbolKind::Opaque});
    return R.regionFor(reinterpret_cast<const void *>(uintptr_t(S) + 1), Rg);
  }

  // Kernel parameters ----------------------------------------------------------
  Value paramValue(const ParmVarDecl *PD) {
    QualType T = PD->getType().getCanonicalType();
    if (T->isPointerType())
      return Value::pointer(paramRegion(PD, ""), Poly());
    if (isIntegral(T)) {
      auto It = R.Launch.IntArgs.find(PD);
      if (It != R.Launch.IntArgs.end())
        return Value::constant(It->second);
      std::string Name = PD->getName().str();
      return Value::integer(Poly::symbol(
          sym("param:" + Name, Name, SymbolKind::Param)));
    }
    return Value::opaque();
  }

  Value paramFieldValue(const ParmVarDecl *PD, const std::string &Path,
                        QualType T) {
    T = T.getCanonicalType();
    if (T->isPointerType())
      return Value::pointer(paramRegion(PD, Path), Poly());
    if (isIntegral(T)) {
      auto Known = R.Launch.FieldArgs.find({PD, Path});
      if (Known != R.Launch.FieldArgs.end())
        return Value::constant(Known->second);
      std::string Name = PD->getName().str() + Path;
      return Value::integer(
          Poly::symbol(sym("param:" + Name, Name, SymbolKind::Param)));
    }
    return Value::opaque();
  }

  // Statements -----------------------------------------------------------------
  void exec(const Stmt *S);
  void execDecl(const VarDecl *VD);
  void execIf(const IfStmt *If);
  LaneMask uniformSide(const Cond &C, LaneMask Save, bool ThenSide, const Expr *CondE);
  Value joinReturns(const Value &A, const Value &B, const IfStmt *If, bool Uniform,
                    LaneMask Save, const FunctionDecl *FD);
  void mergeBranches(std::deque<Frame> &Other, const IfStmt *If, bool Uniform,
                     LaneMask Save);
  void execSwitch(const SwitchStmt *SW);
  void execLoop(const Stmt *Loop, const Stmt *Init, const Expr *CondE,
                const Stmt *Inc, const Stmt *Body, bool IsDo);
  bool tryConcreteLoop(const Expr *CondE, const Stmt *Inc, const Stmt *Body,
                       bool IsDo, LaneMask Entry);
  void symbolicLoop(const Stmt *Loop, const Expr *CondE, const Stmt *Inc,
                    const Stmt *Body, bool IsDo, LaneMask Entry);
  void runBody(const Stmt *Body, const Stmt *Inc, bool IsSwitch = false);

  // Expressions ------------------------------------------------------------------
  Value eval(const Expr *E);
  Value evalCast(const CastExpr *CE);
  Value evalBinary(const BinaryOperator *BO);
  Value evalArith(BinaryOperatorKind Op, const Value &L, const Value &Rv,
                  const Expr *LE, const Expr *RE, QualType ResultTy);
  Value evalUnary(const UnaryOperator *UO);
  /// A ?: expression's value; ToRValue: its operands are lvalues to read.
  Value evalConditional(const AbstractConditionalOperator *CO, bool ToRValue = false);
  Value evalCall(const CallExpr *CE, LValue *RetLV = nullptr);
  Value evalBuiltinCall(const CallExpr *CE, const FunctionDecl *FD, bool &Handled);
  Value callFunction(const FunctionDecl *FD, const CallExpr *CE,
                     llvm::ArrayRef<const Expr *> Args,
                     std::optional<LValue> This, LValue *RetLV);
  LValue evalLValue(const Expr *E);
  LValue memberLValue(const MemberExpr *ME);
  Value load(const LValue &LV, QualType T, const Expr *Site);
  void store(const LValue &LV, const Value &V, QualType T, const Expr *Site);
  void access(AccessOp Op, const LValue &LV, QualType T, const Expr *Site);
  Value loadedValue(const LValue &LV, QualType T, const Expr *Site);
  Cond evalCond(const Expr *E);
  Cond condFromValue(const Value &V, const Expr *E);
  Cond compare(const Value &L, const Value &Rv, CmpOp Op, const Expr *E);
  Value condToValue(const Cond &C, const Expr *E);
  std::optional<int64_t> constantInt(const Expr *E);
  int64_t fieldOffset(const FieldDecl *FD);
  std::string because(const Expr *Site);
  void evalChildren(const Stmt *S);
};

//===----------------------------------------------------------------------===//
// Kernel entry
//===----------------------------------------------------------------------===//

void WarpInterp::run() {
  Frames.emplace_back();
  Frame &F = frame();
  F.FD = R.Kernel;
  for (const ParmVarDecl *PD : R.Kernel->parameters())
    F.Vars[PD] = paramValue(PD);
  Active = Exists;
  F.Entry = Active;
  exec(R.Kernel->getBody());
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void WarpInterp::exec(const Stmt *S) {
  if (!S || Active == 0)
    return;
  step();
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
      if (auto *VD = dyn_cast<VarDecl>(D))
        execDecl(VD);
    return;
  }
  if (auto *E = dyn_cast<Expr>(S)) {
    eval(E);
    return;
  }
  if (auto *If = dyn_cast<IfStmt>(S))
    return execIf(If);
  if (auto *FS = dyn_cast<ForStmt>(S))
    return execLoop(FS, FS->getInit(), FS->getCond(), FS->getInc(),
                    FS->getBody(), false);
  if (auto *WS = dyn_cast<WhileStmt>(S))
    return execLoop(WS, nullptr, WS->getCond(), nullptr, WS->getBody(), false);
  if (auto *DS = dyn_cast<DoStmt>(S))
    return execLoop(DS, nullptr, DS->getCond(), nullptr, DS->getBody(), true);
  if (auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
    exec(RF->getInit());
    exec(RF->getRangeStmt());
    exec(RF->getBeginStmt());
    exec(RF->getEndStmt());
    // The element variable is not modelled: analyse the body once.
    frame().Vars[RF->getLoopVariable()] = Value::unknown(
        "element of the range-based for loop at line " +
        lineOf(Ctx, RF->getBeginLoc()));
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
    ControlUnknown = "control flow through goto (line " +
                     lineOf(Ctx, S->getBeginLoc()) + ") is not modelled";
    return;
  }
  if (isa<NullStmt>(S) || isa<AsmStmt>(S))
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
    if (Init)
      F().Refs[VD] = evalLValue(Init);
    return;
  }
  if (T->isArrayType()) {
    if (Init)
      eval(Init);
    MemRegion Rg;
    Rg.K = MemRegion::Local;
    Rg.Name = VD->getName().str();
    Rg.Decl = VD;
    R.regionFor(VD, Rg);
    F().Vars[VD] = Value::opaque();
    return;
  }
  if (T->isRecordType()) {
    // A copy of a by-value kernel parameter struct is an alias of it.
    if (Init) {
      const Expr *Src = skipCastsAndParens(Init);
      if (auto *CE = dyn_cast<CXXConstructExpr>(Src))
        if (CE->getNumArgs() == 1 && CE->getConstructor()->isCopyOrMoveConstructor()) {
          LValue LV = evalLValue(CE->getArg(0));
          if (LV.K == LValue::ParamField) {
            F().Refs[VD] = LV;
            return;
          }
          if (LV.K == LValue::Mem || LV.K == LValue::Unknown)
            access(AccessOp::Load, LV, CE->getArg(0)->getType(), CE->getArg(0));
          F().Vars[VD] = Value::opaque();
          return;
        }
      eval(Init);
    }
    F().Vars[VD] = Value::opaque();
    return;
  }
  Value V = Init ? eval(Init)
                 : Value::unknown("'" + VD->getName().str() +
                                  "' is used before it is assigned");
  if (Init && V.K == Value::Int && !isIntegral(T) && !T->isPointerType())
    V = Value::opaque();
  if (F().Vars.count(VD))
    assignVar(VD, V, Idx);
  else
    F().Vars[VD] = V;
}

void WarpInterp::execIf(const IfStmt *If) {
  exec(If->getInit());
  if (const VarDecl *CV = If->getConditionVariable())
    execDecl(CV);
  if (If->isConsteval())
    return;
  Cond C = evalCond(If->getCond());
  const LaneMask Save = Active;
  const size_t AssumeMark = Assumptions.size();
  for (const std::string &G : C.Guards)
    Assumptions.push_back("assuming " + G + " on every lane of interior warps (line " +
                          lineOf(Ctx, If->getCond()->getBeginLoc()) + ")");
  // A guard around an early return (`if (i >= n) return;`) is assumed for
  // the rest of the function; other guards only inside their branch.
  const bool Sticky = retiresLanes(If->getThen()) || retiresLanes(If->getElse());
  struct Restore {
    std::vector<std::string> &A;
    size_t N;
    bool Keep;
    ~Restore() {
      if (!Keep)
        A.resize(std::min(A.size(), N));
    }
  } AssumeRestore{Assumptions, AssumeMark, Sticky};
  switch (C.K) {
  case Cond::Lanes: {
    Active = Save & C.True;
    exec(If->getThen());
    LaneMask AThen = Active;
    Active = Save & ~C.True;
    exec(If->getElse());
    Active = AThen | Active;
    return;
  }
  case Cond::Guard: {
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
    // Both sides run (in different warps, or on lanes we cannot tell apart).
    if (C.K == Cond::Data)
      MaskWhys.push_back("which lanes are active depends on `" + C.Text +
                         "` (line " + lineOf(Ctx, If->getCond()->getBeginLoc()) +
                         "): " + C.Why);
    const std::deque<Frame> Before = Frames;
    const std::vector<LoopCtl> LoopsBefore = Loops;
    const size_t SideMark = Assumptions.size();
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
        std::string Name = KV.first->getName().str() + "@L" +
                           lineOf(Ctx, If->getBeginLoc());
        KV.second = Value::integer(Poly::symbol(
            sym("phi:" + std::to_string(reinterpret_cast<uintptr_t>(If)) + ":" +
                    KV.first->getName().str(),
                Name, SymbolKind::Opaque)));
      } else if (A.K == Value::Opaque && B.K == Value::Opaque) {
        continue;
      } else {
        KV.second = Value::unknown(
            "'" + KV.first->getName().str() +
            "' depends on which side of the branch at line " +
            lineOf(Ctx, If->getBeginLoc()) + " was taken");
      }
    }
    for (auto &KV : T.Vars)
      if (!F.Vars.count(KV.first))
        F.Vars[KV.first] = KV.second;
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
/// lanes of the world(s) in which that side runs at all. When it runs in
/// both worlds on different lanes, the first world's lanes, with the
/// assumption said.
LaneMask WarpInterp::uniformSide(const Cond &C, LaneMask Save, bool ThenSide,
                                 const Expr *CondE) {
  const LaneMask World1 = Save & (ThenSide ? C.True : ~C.True);
  const LaneMask World2 = Save & (ThenSide ? C.TrueElse : ~C.TrueElse);
  if (!World1 || World1 == World2)
    return World2 ? World2 : World1;
  if (!World2)
    return World1;
  Assumptions.push_back("assuming `" + exprText(Ctx, CondE) + "` is " +
                        (ThenSide ? "true" : "false") + " on " +
                        std::to_string(__builtin_popcount(World1)) +
                        " lanes of the warp (line " + lineOf(Ctx, CondE->getBeginLoc()) +
                        "; for other values of its unknown part, on " +
                        std::to_string(__builtin_popcount(World2)) + ")");
  return World1;
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
            Fn + "()@L" + lineOf(Ctx, If->getBeginLoc()), SymbolKind::Opaque)));
  if (A.K == Value::Opaque && B.K == Value::Opaque)
    return A;
  return Value::unknown("the value returned by '" + Fn + "' depends on which side of the " +
                        "branch at line " + lineOf(Ctx, If->getBeginLoc()) + " was taken");
}

void WarpInterp::execSwitch(const SwitchStmt *SW) {
  exec(SW->getInit());
  if (const VarDecl *CV = SW->getConditionVariable())
    execDecl(CV);
  Value V = eval(SW->getCond());
  const LaneMask Entry = Active;
  const bool Known = V.K == Value::Int && V.P.isConcrete(Entry);
  LaneInts Vals = Known ? V.P.laneConstants() : LaneInts{};
  if (!Known)
    Assumptions.push_back("every case of the switch at line " +
                          lineOf(Ctx, SW->getBeginLoc()) + " analysed");
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

void WarpInterp::runBody(const Stmt *Body, const Stmt *Inc, bool IsSwitch) {
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

void WarpInterp::execLoop(const Stmt *Loop, const Stmt *Init, const Expr *CondE,
                          const Stmt *Inc, const Stmt *Body, bool IsDo) {
  exec(Init);
  if (Active == 0)
    return;
  const LaneMask Entry = Active;
  if (tryConcreteLoop(CondE, Inc, Body, IsDo, Entry))
    return;
  symbolicLoop(Loop, CondE, Inc, Body, IsDo, Entry);
}

bool WarpInterp::tryConcreteLoop(const Expr *CondE, const Stmt *Inc,
                                 const Stmt *Body, bool IsDo, LaneMask Entry) {
  std::deque<Frame> SavedFrames = Frames;
  const size_t Mark = Buffered.size();
  const std::string SavedControl = ControlUnknown;
  ++BufferDepth;
  LaneMask Running = Entry;
  bool Ok = true;
  unsigned Iter = 0;
  LaneMask Exited = 0;
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
      if (++Iter > R.Limits.MaxConcreteIterations) {
        Ok = false;
        break;
      }
      Active = Running;
      Loops.push_back(LoopCtl{});
      exec(Body);
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
    ControlUnknown = SavedControl;
    Active = Entry;
    return false;
  }
  (void)Exited;
  Active = Entry & ~frameReturnedAll();
  if (!BufferDepth) {
    for (AccessEvent &E : Buffered)
      R.Sink->record(E);
    Buffered.clear();
  }
  return true;
}

void WarpInterp::symbolicLoop(const Stmt *Loop, const Expr *CondE,
                              const Stmt *Inc, const Stmt *Body, bool IsDo,
                              LaneMask Entry) {
  const std::string Line = lineOf(Ctx, Loop->getBeginLoc());
  // 1. Which outer variables does the loop change, and by how much per
  //    iteration? Probe one iteration with each value offset by a fresh symbol.
  std::set<const VarDecl *> Mod;
  collectModified(Body, Mod);
  collectModified(Inc, Mod);
  collectModified(CondE, Mod);
  struct Ind {
    const VarDecl *VD;
    unsigned FrameIdx;
    Value V0;
    bool Inductive = false;
    Poly Delta;
  };
  std::vector<Ind> Vars;
  for (const VarDecl *VD : Mod) {
    unsigned Idx;
    Frame *F = frameOf(VD, &Idx);
    if (!F || !F->Vars.count(VD))
      continue;
    Vars.push_back(Ind{VD, Idx, F->Vars[VD]});
  }
  std::sort(Vars.begin(), Vars.end(), [](const Ind &A, const Ind &B) {
    return A.VD->getBeginLoc() < B.VD->getBeginLoc();
  });
  {
    std::deque<Frame> Saved = Frames;
    std::vector<std::string> SavedAssume = Assumptions, SavedMask = MaskWhys;
    const std::string SavedControl = ControlUnknown;
    std::vector<SymbolId> Probes;
    for (Ind &I : Vars) {
      if (I.V0.K != Value::Int && I.V0.K != Value::Ptr)
        continue;
      SymbolId T = R.Syms.add(SymbolInfo{"probe", SymbolKind::Opaque});
      Probes.push_back(T);
      Frames[I.FrameIdx].Vars[I.VD].P = I.V0.P + Poly::symbol(T);
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
    size_t P = 0;
    for (Ind &I : Vars) {
      if (I.V0.K != Value::Int && I.V0.K != Value::Ptr)
        continue;
      SymbolId T = Probes[P++];
      const Value &V1 = Frames[I.FrameIdx].Vars[I.VD];
      if (V1.K != I.V0.K || (V1.K == Value::Ptr && V1.Region != I.V0.Region))
        continue;
      Poly D = V1.P - (I.V0.P + Poly::symbol(T));
      bool MentionsProbe = false;
      for (SymbolId S : Probes)
        MentionsProbe |= D.mentions(S);
      if (D.overflowed() || MentionsProbe)
        continue;
      I.Inductive = true;
      I.Delta = D;
    }
    Frames = Saved; // assigned in place: frames keep their addresses
    Assumptions = std::move(SavedAssume);
    MaskWhys = std::move(SavedMask);
    ControlUnknown = SavedControl;
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
  SymbolId K = sym("loop:" + std::to_string(reinterpret_cast<uintptr_t>(Loop)) +
                       ":" + CtxKey,
                   "k@L" + Line, SymbolKind::LoopIteration, Trip > 0 ? Trip : 0);
  if (Trip > 0)
    R.Syms.get(K).UniformRange = Trip;
  for (Ind &I : Vars) {
    Value &V = Frames[I.FrameIdx].Vars[I.VD];
    if (I.Inductive) {
      V = I.V0;
      V.P = I.V0.P + Poly::symbol(K) * I.Delta;
    } else if (I.V0.K == Value::Int || I.V0.K == Value::Ptr) {
      V = Value::unknown("'" + I.VD->getName().str() +
                         "' changes in a way that is not a fixed step per "
                         "iteration of the loop at line " + Line);
    }
  }
  const double SavedWeight = Weight;
  const bool SavedKnown = RequestsKnown;
  if (Trip > 0)
    Weight *= static_cast<double>(Trip);
  else
    RequestsKnown = false;
  Active = Entry;
  size_t PushedAssume = 0, PushedMask = 0;
  if (CondE && !IsDo) {
    Cond C = evalCond(CondE);
    switch (C.K) {
    case Cond::Lanes:
      Active &= C.True;
      break;
    case Cond::Guard:
    case Cond::Uniform:
      Active &= C.True;
      for (const std::string &G : C.Guards) {
        Assumptions.push_back("assuming " + G + " on every lane of interior warps (line " +
                              Line + ")");
        ++PushedAssume;
      }
      break;
    case Cond::Data:
      MaskWhys.push_back("which lanes keep looping depends on `" + C.Text +
                         "` (line " + Line + "): " + C.Why);
      ++PushedMask;
      break;
    }
  }
  if (Active)
    runBody(Body, Inc);
  for (; PushedAssume; --PushedAssume)
    Assumptions.pop_back();
  for (; PushedMask; --PushedMask)
    MaskWhys.pop_back();
  Weight = SavedWeight;
  RequestsKnown = SavedKnown;

  // 4. After the loop.
  for (Ind &I : Vars) {
    Value &V = Frames[I.FrameIdx].Vars[I.VD];
    if (I.Inductive && Trip > 0) {
      V = I.V0;
      V.P = I.V0.P + I.Delta.scaled(Trip);
    } else if (I.V0.K == Value::Int || I.V0.K == Value::Ptr ||
               V.K == Value::Int || V.K == Value::Ptr) {
      V = Value::unknown("'" + I.VD->getName().str() +
                         "' is the value left by the loop at line " + Line);
    }
  }
  Active = Entry & ~frameReturnedAll();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

std::optional<int64_t> WarpInterp::constantInt(const Expr *E) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult Res;
  if (E->EvaluateAsInt(Res, Ctx, Expr::SE_NoSideEffects) && Res.Val.isInt())
    return Res.Val.getInt().getExtValue();
  return std::nullopt;
}

int64_t WarpInterp::fieldOffset(const FieldDecl *FD) {
  const ASTRecordLayout &L = Ctx.getASTRecordLayout(FD->getParent());
  return static_cast<int64_t>(L.getFieldOffset(FD->getFieldIndex()) / 8);
}

Value WarpInterp::eval(const Expr *E) {
  if (!E)
    return Value::opaque();
  step();
  if (salvageTooDeep())
    return Value::unknown(R.Salvage);
  DepthGuard G(*this);
  E = E->IgnoreParens();

  if (auto *IL = dyn_cast<IntegerLiteral>(E))
    return Value::constant(static_cast<int64_t>(IL->getValue().getSExtValue()));
  if (auto *CL = dyn_cast<CharacterLiteral>(E))
    return Value::constant(CL->getValue());
  if (auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return Value::constant(BL->getValue() ? 1 : 0);
  if (isa<FloatingLiteral>(E) || isa<StringLiteral>(E))
    return Value::opaque();
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return Value::unknown("null pointer");
  if (auto *CE = dyn_cast<ConstantExpr>(E)) {
    if (CE->hasAPValueResult() && CE->getAPValueResult().isInt())
      return Value::constant(CE->getAPValueResult().getInt().getExtValue());
    return eval(CE->getSubExpr());
  }
  if (auto *FE = dyn_cast<FullExpr>(E))
    return eval(FE->getSubExpr());
  if (auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(MT->getSubExpr());
  if (auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
    return eval(BT->getSubExpr());
  if (auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return eval(DA->getExpr());
  if (auto *DI = dyn_cast<CXXDefaultInitExpr>(E))
    return eval(DI->getExpr());
  if (auto *ST = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return eval(ST->getReplacement());
  if (auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return OV->getSourceExpr() ? eval(OV->getSourceExpr()) : Value::opaque();
  if (isa<UnaryExprOrTypeTraitExpr>(E)) {
    if (auto C = constantInt(E))
      return Value::constant(*C);
    return Value::unknown("size of a type that is not known");
  }
  if (auto *POE = dyn_cast<PseudoObjectExpr>(E)) {
    if (auto V = builtinVar(POE))
      return *V;
    return POE->getResultExpr() ? eval(POE->getResultExpr()) : Value::opaque();
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DR->getDecl();
    if (auto *EC = dyn_cast<EnumConstantDecl>(D))
      return Value::constant(EC->getInitVal().getExtValue());
    if (auto *VD = dyn_cast<VarDecl>(D)) {
      if (VD->getName() == "warpSize" && VD->hasGlobalStorage())
        return Value::constant(WarpSize);
      if (Frame *F = frameOf(VD)) {
        auto RI = F->Refs.find(VD);
        if (RI != F->Refs.end())
          return load(RI->second, VD->getType().getNonReferenceType(), E);
        return F->Vars[VD];
      }
      if (auto C = constantInt(E))
        return Value::constant(*C);
      if (VD->getType()->isArrayType())
        return Value::opaque();
      // Global memory variables read as values.
      LValue LV = evalLValue(E);
      if (LV.K == LValue::Mem)
        return load(LV, VD->getType(), E);
      return Value::unknown("value of '" + VD->getName().str() +
                            "' is not known");
    }
    if (auto C = constantInt(E))
      return Value::constant(*C);
    return Value::opaque();
  }
  if (auto *CE = dyn_cast<CastExpr>(E))
    return evalCast(CE);
  if (auto *BO = dyn_cast<BinaryOperator>(E))
    return evalBinary(BO);
  if (auto *UO = dyn_cast<UnaryOperator>(E))
    return evalUnary(UO);
  if (auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return evalConditional(CO);
  if (auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  if (auto *ME = dyn_cast<MemberExpr>(E)) {
    // Reading a member as an rvalue (a field of a by-value parameter).
    LValue LV = memberLValue(ME);
    return load(LV, ME->getType(), E);
  }
  if (auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    // A copy of an object in memory is a load of all of it.
    if (CE->getNumArgs() == 1 && CE->getConstructor()->isCopyOrMoveConstructor()) {
      LValue LV = evalLValue(CE->getArg(0));
      if (LV.K == LValue::Mem || LV.K == LValue::Unknown)
        access(AccessOp::Load, LV, CE->getArg(0)->getType(), CE->getArg(0));
      return Value::opaque();
    }
    for (const Expr *A : CE->arguments())
      eval(A);
    return Value::opaque();
  }
  if (auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *I : IL->inits())
      eval(I);
    if (IL->getNumInits() == 1 && isIntegral(IL->getType()))
      return eval(IL->getInit(0));
    return Value::opaque();
  }
  if (isa<ArraySubscriptExpr>(E)) {
    LValue LV = evalLValue(E);
    return load(LV, E->getType(), E);
  }
  if (isa<CXXThisExpr>(E)) {
    const Frame &F = frame();
    if (F.This && F.This->K == LValue::Mem)
      return F.This->Ptr;
    return Value::unknown("'this' of an object we do not track");
  }
  if (isa<LambdaExpr>(E) || isa<CXXScalarValueInitExpr>(E)) {
    if (isa<CXXScalarValueInitExpr>(E))
      return Value::constant(0);
    return Value::opaque();
  }
  // Anything else: evaluate its children for their memory accesses.
  evalChildren(E);
  if (isIntegral(E->getType()) || E->getType()->isPointerType())
    return Value::unknown(std::string("unsupported expression (") +
                          E->getStmtClassName() + ")");
  return Value::opaque();
}

Value WarpInterp::evalCast(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  switch (CE->getCastKind()) {
  case CK_LValueToRValue: {
    // `c ? x : y` over lvalues: each side is read under its own lanes.
    if (auto *CO = dyn_cast<AbstractConditionalOperator>(Sub->IgnoreParens()))
      return evalConditional(CO, /*ToRValue=*/true);
    // A constant (constexpr, static const with a constant initializer) is a
    // value, not memory.
    if (auto *DR = dyn_cast<DeclRefExpr>(Sub->IgnoreParens()))
      if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        if (!frameOf(VD) && VD->getType().isConstQualified() &&
            !VD->hasAttr<CUDASharedAttr>() && isIntegral(VD->getType()))
          if (auto C = constantInt(CE))
            return Value::constant(*C);
    LValue LV = evalLValue(Sub);
    return load(LV, CE->getType(), Sub);
  }
  case CK_ArrayToPointerDecay: {
    LValue LV = evalLValue(Sub);
    if (LV.K == LValue::Mem)
      return LV.Ptr;
    if (LV.K == LValue::Unknown)
      return Value::unknown(LV.Why);
    if (LV.K == LValue::ParamField)
      return Value::unknown("array inside a kernel parameter");
    return Value::unknown("address of a local array");
  }
  case CK_NoOp:
  case CK_IntegralCast:
  case CK_BitCast:
  case CK_AddressSpaceConversion:
  case CK_ConstructorConversion:
  case CK_UserDefinedConversion:
  case CK_BooleanToSignedIntegral: {
    Value V = eval(Sub);
    if (V.K == Value::Int && CE->getType()->isBooleanType())
      return condToValue(condFromValue(V, Sub), Sub);
    if (V.K == Value::Ptr && CE->getCastKind() == CK_BitCast &&
        CE->getType()->isIntegralOrEnumerationType())
      return Value::unknown("pointer converted to an integer");
    return V;
  }
  case CK_IntegralToBoolean:
  case CK_PointerToBoolean:
    return condToValue(evalCond(Sub), Sub);
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase: {
    Value V = eval(Sub);
    return V.K == Value::Ptr ? V : Value::opaque();
  }
  case CK_FloatingToIntegral:
    eval(Sub);
    return Value::unknown("index computed from a floating-point value `" +
                          exprText(Ctx, Sub) + "`");
  case CK_PointerToIntegral:
    eval(Sub);
    return Value::unknown("pointer converted to an integer");
  case CK_IntegralToPointer:
    eval(Sub);
    return Value::unknown("integer converted to a pointer");
  case CK_NullToPointer:
    return Value::unknown("null pointer");
  case CK_FunctionToPointerDecay:
    return Value::opaque();
  default:
    eval(Sub);
    if (isIntegral(CE->getType()) || CE->getType()->isPointerType())
      return Value::unknown(std::string("unsupported conversion (") +
                            CE->getCastKindName() + ")");
    return Value::opaque();
  }
}

Value WarpInterp::evalArith(BinaryOperatorKind Op, const Value &L,
                            const Value &Rv, const Expr *LE, const Expr *RE,
                            QualType ResultTy) {
  // Pointer arithmetic.
  if (L.K == Value::Ptr || Rv.K == Value::Ptr) {
    if ((Op == BO_Add || Op == BO_Sub) && L.K == Value::Ptr && Rv.K == Value::Int) {
      QualType Pointee = LE->getType()->getPointeeType();
      int64_t Size = Pointee.isNull() || Pointee->isIncompleteType()
                         ? 1
                         : Ctx.getTypeSizeInChars(Pointee).getQuantity();
      Value V = L;
      Poly D = Rv.P.scaled(Size);
      V.P = Op == BO_Add ? L.P + D : L.P - D;
      return V;
    }
    if (Op == BO_Add && Rv.K == Value::Ptr && L.K == Value::Int)
      return evalArith(Op, Rv, L, RE, LE, ResultTy);
    if (Op == BO_Sub && L.K == Value::Ptr && Rv.K == Value::Ptr &&
        L.Region == Rv.Region) {
      QualType Pointee = LE->getType()->getPointeeType();
      int64_t Size = Ctx.getTypeSizeInChars(Pointee).getQuantity();
      IntResult Q = divConst(L.P - Rv.P, Size, Active, R.Syms);
      return Q.Ok ? Value::integer(Q.P) : Value::unknown(Q.Why);
    }
    if (L.K == Value::Unknown || Rv.K == Value::Unknown) {
      Value U = L.K == Value::Unknown ? L : Rv;
      if (!U.Where)
        U.Where = L.K == Value::Ptr ? std::optional<RegionId>(L.Region)
                  : Rv.K == Value::Ptr ? std::optional<RegionId>(Rv.Region)
                                       : std::nullopt;
      return U;
    }
    return Value::unknown("pointer arithmetic that is not modelled");
  }
  if (L.K == Value::Unknown)
    return L;
  if (Rv.K == Value::Unknown)
    return Rv;
  if (L.K != Value::Int || Rv.K != Value::Int)
    return Value::opaque();
  IntResult Res;
  switch (Op) {
  case BO_Add: Res = IntResult::ok(L.P + Rv.P); break;
  case BO_Sub: Res = IntResult::ok(L.P - Rv.P); break;
  case BO_Mul: Res = IntResult::ok(L.P * Rv.P); break;
  case BO_Div: Res = divPoly(L.P, Rv.P, Active, R.Syms); break;
  case BO_Rem: Res = remPoly(L.P, Rv.P, Active, R.Syms); break;
  case BO_Shl: Res = shlPoly(L.P, Rv.P, Active); break;
  case BO_Shr: Res = shrPoly(L.P, Rv.P, Active, R.Syms); break;
  case BO_And: Res = andPoly(L.P, Rv.P, Active, R.Syms); break;
  case BO_Or: Res = orPoly(L.P, Rv.P, Active, R.Syms); break;
  case BO_Xor: Res = xorPoly(L.P, Rv.P, Active, R.Syms); break;
  default:
    return Value::opaque();
  }
  if (!Res.Ok)
    return Value::unknown(Res.Why);
  if (Res.P.overflowed())
    return Value::unknown("integer overflow in the index arithmetic");
  return Value::integer(Res.P);
}

Value WarpInterp::evalBinary(const BinaryOperator *BO) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Comma) {
    eval(BO->getLHS());
    return eval(BO->getRHS());
  }
  if (BO->isComparisonOp() || BO->isLogicalOp())
    return condToValue(evalCond(BO), BO);
  if (Op == BO_Assign) {
    Value V = eval(BO->getRHS());
    LValue LV = evalLValue(BO->getLHS());
    store(LV, V, BO->getLHS()->getType(), BO->getLHS());
    return V;
  }
  if (auto *CAO = dyn_cast<CompoundAssignOperator>(BO)) {
    LValue LV = evalLValue(BO->getLHS());
    Value Old = load(LV, BO->getLHS()->getType(), BO->getLHS());
    Value Rv = eval(BO->getRHS());
    Value New = evalArith(BinaryOperator::getOpForCompoundAssignment(Op), Old, Rv,
                          BO->getLHS(), BO->getRHS(), CAO->getComputationResultType());
    if (!isIntegral(BO->getLHS()->getType()) &&
        !BO->getLHS()->getType()->isPointerType())
      New = Value::opaque();
    store(LV, New, BO->getLHS()->getType(), BO->getLHS());
    return New;
  }
  Value L = eval(BO->getLHS());
  Value Rv = eval(BO->getRHS());
  if (!isIntegral(BO->getType()) && !BO->getType()->isPointerType())
    return Value::opaque();
  return evalArith(Op, L, Rv, BO->getLHS(), BO->getRHS(), BO->getType());
}

Value WarpInterp::evalUnary(const UnaryOperator *UO) {
  const Expr *Sub = UO->getSubExpr();
  switch (UO->getOpcode()) {
  case UO_Plus:
  case UO_Extension:
    return eval(Sub);
  case UO_Minus: {
    Value V = eval(Sub);
    if (V.K == Value::Int)
      return Value::integer(-V.P);
    return V.K == Value::Unknown ? V : Value::opaque();
  }
  case UO_Not: {
    Value V = eval(Sub);
    if (V.K == Value::Int)
      return Value::integer(notPoly(V.P, Active).P);
    return V.K == Value::Unknown ? V : Value::opaque();
  }
  case UO_LNot:
    return condToValue(evalCond(UO), UO);
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    LValue LV = evalLValue(Sub);
    Value Old = load(LV, Sub->getType(), Sub);
    Value One = Value::constant(1);
    Value New = evalArith(UO->isIncrementOp() ? BO_Add : BO_Sub, Old, One, Sub,
                          Sub, Sub->getType());
    if (!isIntegral(Sub->getType()) && !Sub->getType()->isPointerType())
      New = Value::opaque();
    store(LV, New, Sub->getType(), Sub);
    return UO->isPrefix() ? New : Old;
  }
  case UO_AddrOf: {
    LValue LV = evalLValue(Sub);
    if (LV.K == LValue::Mem)
      return LV.Ptr;
    if (LV.K == LValue::Unknown) {
      Value U = Value::unknown(LV.Why);
      U.Where = LV.UnknownRegion;
      return U;
    }
    return Value::unknown("address of a local variable");
  }
  case UO_Deref: {
    LValue LV = evalLValue(UO);
    return load(LV, UO->getType(), UO);
  }
  default:
    return eval(Sub);
  }
}

Value WarpInterp::evalConditional(const AbstractConditionalOperator *CO,
                                  bool ToRValue) {
  Cond C = evalCond(CO->getCond());
  const LaneMask Save = Active;
  auto Side = [&](const Expr *E, LaneMask M) {
    Active = M;
    Value V = !M ? Value::opaque()
               : ToRValue ? load(evalLValue(E), E->getType(), E)
                          : eval(E);
    Active = Save;
    return V;
  };
  switch (C.K) {
  case Cond::Lanes: {
    LaneMask T = Save & C.True, F = Save & ~C.True;
    Value A = Side(CO->getTrueExpr(), T), B = Side(CO->getFalseExpr(), F);
    if (!T)
      return B;
    if (!F)
      return A;
    if (A.K == Value::Int && B.K == Value::Int)
      return Value::integer(A.P.select(T, B.P));
    if (A.K == Value::Ptr && B.K == Value::Ptr && A.Region == B.Region) {
      Value V = A;
      V.P = A.P.select(T, B.P);
      return V;
    }
    if (A.K == Value::Unknown)
      return A;
    if (B.K == Value::Unknown)
      return B;
    if (A.K == Value::Opaque && B.K == Value::Opaque)
      return A;
    return Value::unknown("the lanes take different pointers");
  }
  case Cond::Guard: {
    Assumptions.push_back("assuming " + (C.Guards.empty() ? "`" + C.Text + "`" : C.Guards[0]) +
                          " on every lane of interior warps (line " +
                          lineOf(Ctx, CO->getBeginLoc()) + ")");
    LaneMask T = Save & C.True, F = Save & ~C.True;
    Value A = Side(CO->getTrueExpr(), T), B = Side(CO->getFalseExpr(), F);
    Assumptions.pop_back();
    if (!F)
      return A;
    if (!T)
      return B;
    if (A.K == Value::Int && B.K == Value::Int)
      return Value::integer(A.P.select(T, B.P));
    return Value::unknown("depends on `" + C.Text + "`");
  }
  case Cond::Uniform:
  case Cond::Data: {
    const size_t SideMark = Assumptions.size();
    Value A = Side(CO->getTrueExpr(),
                   C.K == Cond::Uniform ? uniformSide(C, Save, true, CO->getCond()) : Save);
    Assumptions.resize(std::min(Assumptions.size(), SideMark));
    Value B = Side(CO->getFalseExpr(),
                   C.K == Cond::Uniform ? uniformSide(C, Save, false, CO->getCond()) : Save);
    Assumptions.resize(std::min(Assumptions.size(), SideMark));
    if (A.sameAs(B))
      return A;
    if (C.K == Cond::Uniform && A.K == Value::Int && B.K == Value::Int &&
        A.P.isUniform(Save) && B.P.isUniform(Save))
      return Value::integer(Poly::symbol(sym(
          "sel:" + std::to_string(reinterpret_cast<uintptr_t>(CO)),
          "(" + exprText(Ctx, CO) + ")", SymbolKind::Opaque)));
    if (A.K == Value::Opaque && B.K == Value::Opaque)
      return A;
    return Value::unknown(C.K == Cond::Data
                              ? "depends on `" + C.Text + "`: " + C.Why
                              : "depends on the unknown condition `" + C.Text + "`");
  }
  }
  return Value::opaque();
}

//===----------------------------------------------------------------------===//
// Conditions
//===----------------------------------------------------------------------===//

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
    if (!AllOrNone(C.True) || !AllOrNone(C.TrueElse))
      return Value::unknown("`" + exprText(Ctx, E) +
                            "` differs between lanes by an unknown value");
    return Value::integer(Poly::symbol(
        sym("cond:" + std::to_string(reinterpret_cast<uintptr_t>(E)),
            "(" + exprText(Ctx, E) + ")", SymbolKind::Opaque)));
  }
  case Cond::Data:
    return Value::unknown(C.Why.empty() ? "depends on loaded data" : C.Why);
  }
  return Value::opaque();
}

Cond WarpInterp::condFromValue(const Value &V, const Expr *E) {
  Cond C;
  C.Text = exprText(Ctx, E);
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
    C.K = Cond::Data;
    C.Why = "the condition depends on floating-point or other data";
    return C;
  }
  return C;
}

Cond WarpInterp::compare(const Value &L, const Value &Rv, CmpOp Op,
                         const Expr *E) {
  Cond C;
  C.Text = exprText(Ctx, E);
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
  } else {
    C.K = Cond::Data;
    C.Why = "the condition depends on floating-point or other data";
    return C;
  }
  CmpResult Res = comparePoly(A, B, Op, Active);
  if (Res.K == CmpResult::Lanes) {
    C.K = Cond::Lanes;
    C.True = Res.True;
    return C;
  }
  if (Res.K == CmpResult::Uniform) {
    C.K = Cond::Uniform;
    C.True = Res.True;
    C.TrueElse = Res.TrueOtherwise;
    return C;
  }
  // Lane-dependent and unknown: a bounds guard. Indices count up from 0 to
  // a bound, so in interior warps `index < bound` holds on every lane.
  const bool LVar = !A.isUniform(Active), RVar = !B.isUniform(Active);
  C.K = Cond::Guard;
  CmpOp Norm = Op;
  if (!LVar && RVar)
    Norm = swapCmp(Op);
  bool Holds;
  if (LVar && RVar) {
    C.K = Cond::Data;
    C.Why = "compares two lane-dependent values whose difference is not known";
    return C;
  }
  switch (Norm) {
  case CmpOp::LT:
  case CmpOp::LE:
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
  // A salvage walk takes every branch: it lists accesses, it predicts none.
  if (!R.Salvage.empty()) {
    eval(E);
    Cond C;
    C.K = Cond::Data;
    C.Why = R.Salvage;
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
    C.Text = exprText(Ctx, E);
    switch (C.K) {
    case Cond::Lanes:
    case Cond::Guard:
      C.True = Active & ~C.True;
      break;
    case Cond::Uniform:
      C.True = Active & ~C.True;
      C.TrueElse = Active & ~C.TrueElse;
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
      Cond B = Active ? evalCond(BO->getRHS()) : Cond{Cond::Lanes, 0, 0, "", ""};
      Active = Save;
      Cond C;
      C.Text = exprText(Ctx, E);
      if (A.K == Cond::Data || B.K == Cond::Data) {
        C.K = Cond::Data;
        C.Why = A.K == Cond::Data ? A.Why : B.Why;
        return C;
      }
      C.True = IsAnd ? (A.True & B.True) : ((A.True | B.True) & Save);
      // Per world of the uniform side(s): a side that is not uniform holds
      // on the same lanes in both. (Two uniform sides have four worlds;
      // their "both hold" and "both fail" ones stand for all.)
      const LaneMask AElse = A.K == Cond::Uniform ? A.TrueElse : A.True;
      const LaneMask BElse = B.K == Cond::Uniform ? B.TrueElse : B.True;
      C.TrueElse = IsAnd ? (AElse & BElse) : ((AElse | BElse) & Save);
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
    R.Text = exprText(Ctx, E);
    return R;
  }
  return condFromValue(eval(E), E);
}

//===----------------------------------------------------------------------===//
// Lvalues, loads and stores
//===----------------------------------------------------------------------===//

LValue WarpInterp::memberLValue(const MemberExpr *ME) {
  const ValueDecl *MD = ME->getMemberDecl();
  LValue Base;
  if (ME->isArrow()) {
    const Expr *BE = ME->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(BE)) {
      const Frame &F = frame();
      if (F.This)
        Base = *F.This;
      else {
        Base.K = LValue::None;
        return Base;
      }
    } else {
      Base = memAt(eval(ME->getBase()));
    }
  } else {
    Base = evalLValue(ME->getBase());
  }
  int64_t Off = 0;
  std::string Name = MD->getName().str();
  if (auto *FD = dyn_cast<FieldDecl>(MD)) {
    if (FD->isBitField()) {
      LValue U;
      U.K = LValue::Unknown;
      U.Why = "bit-field access";
      return U;
    }
    Off = fieldOffset(FD);
  } else if (auto *IFD = dyn_cast<IndirectFieldDecl>(MD)) {
    for (const NamedDecl *ND : IFD->chain())
      if (auto *F = dyn_cast<FieldDecl>(ND))
        Off += fieldOffset(F);
  } else if (auto *VD = dyn_cast<VarDecl>(MD)) {
    // A static data member is a variable of its own.
    LValue LV;
    if (VD->hasGlobalStorage() && (VD->hasAttr<CUDASharedAttr>() ||
                                   VD->hasAttr<CUDADeviceAttr>())) {
      LV.K = LValue::Mem;
      LV.Ptr = Value::pointer(regionForVar(VD), Poly());
    }
    return LV;
  } else {
    LValue LV;
    LV.K = LValue::None;
    return LV;
  }
  switch (Base.K) {
  case LValue::Mem:
    if (Base.Ptr.K == Value::Ptr)
      Base.Ptr.P = Base.Ptr.P + Poly::constant(Off);
    Base.Subscripts.clear();
    Base.ArrayDecl = nullptr;
    return Base;
  case LValue::ParamField:
    Base.ParamPath += "." + Name;
    return Base;
  case LValue::Var:
    Base.FieldPath += "." + Name;
    return Base;
  default:
    return Base;
  }
}

LValue WarpInterp::evalLValue(const Expr *E) {
  step();
  if (salvageTooDeep()) {
    LValue LV;
    LV.K = LValue::Unknown;
    LV.Why = R.Salvage;
    return LV;
  }
  DepthGuard G(*this);
  E = E->IgnoreParens();
  LValue LV;
  if (auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
    if (IC->getCastKind() == CK_NoOp || IC->getCastKind() == CK_LValueBitCast ||
        IC->getCastKind() == CK_UncheckedDerivedToBase ||
        IC->getCastKind() == CK_DerivedToBase)
      return evalLValue(IC->getSubExpr());
  }
  if (auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
    if (CE->getCastKind() == CK_LValueBitCast || CE->getCastKind() == CK_NoOp) {
      LValue Sub = evalLValue(CE->getSubExpr());
      Sub.Subscripts.clear();
      Sub.ArrayDecl = nullptr;
      return Sub;
    }
  }
  if (auto *FE = dyn_cast<FullExpr>(E))
    return evalLValue(FE->getSubExpr());
  if (auto *MT = dyn_cast<MaterializeTemporaryExpr>(E)) {
    const Expr *Sub = MT->getSubExpr();
    // A temporary bound to a const reference: its value only.
    eval(Sub);
    LV.K = LValue::None;
    return LV;
  }
  if (auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return OV->getSourceExpr() ? evalLValue(OV->getSourceExpr()) : LV;
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD)
      return LV;
    unsigned Idx;
    if (Frame *F = frameOf(VD, &Idx)) {
      auto RI = F->Refs.find(VD);
      if (RI != F->Refs.end())
        return RI->second;
    }
    if (VD->hasGlobalStorage()) {
      RegionId Rg = regionForVar(VD);
      LV.K = LValue::Mem;
      LV.Ptr = Value::pointer(Rg, Poly());
      if (VD->getType()->isArrayType())
        LV.ArrayDecl = VD;
      return LV;
    }
    if (auto *PD = dyn_cast<ParmVarDecl>(VD);
        PD && Frames.size() >= 1 && PD->getDeclContext() == R.Kernel &&
        PD->getType()->isRecordType()) {
      LV.K = LValue::ParamField;
      LV.Param = PD;
      return LV;
    }
    if (VD->getType()->isArrayType()) {
      RegionId Rg = R.regionFor(VD, MemRegion{MemRegion::Local, VD->getName().str(), VD});
      LV.K = LValue::Mem;
      LV.Ptr = Value::pointer(Rg, Poly());
      return LV;
    }
    LV.K = LValue::Var;
    LV.VarD = VD;
    if (frameOf(VD, &Idx))
      LV.FrameIdx = Idx;
    else
      LV.FrameIdx = static_cast<unsigned>(Frames.size() - 1);
    return LV;
  }
  if (auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *BaseE = AS->getBase();
    // Subscripts of a declared array keep their per-dimension indices.
    LValue ArrayLV;
    bool FromArray = false;
    if (auto *IC = dyn_cast<ImplicitCastExpr>(BaseE->IgnoreParens());
        IC && IC->getCastKind() == CK_ArrayToPointerDecay) {
      ArrayLV = evalLValue(IC->getSubExpr());
      FromArray = true;
    }
    Value Base;
    if (FromArray) {
      if (ArrayLV.K == LValue::Mem)
        Base = ArrayLV.Ptr;
      else if (ArrayLV.K == LValue::Unknown)
        Base = Value::unknown(ArrayLV.Why);
      else if (ArrayLV.K == LValue::ParamField) {
        eval(AS->getIdx());
        LV.K = LValue::None;
        return LV;
      } else
        Base = Value::unknown("array that is not in memory we track");
    } else {
      Base = eval(BaseE);
    }
    Value Idx = eval(AS->getIdx());
    QualType ElemT = AS->getType();
    int64_t Size = ElemT->isIncompleteType()
                       ? 1
                       : Ctx.getTypeSizeInChars(ElemT).getQuantity();
    if (Base.K == Value::Ptr) {
      LV.K = LValue::Mem;
      LV.Ptr = Base;
      if (Idx.K == Value::Int) {
        LV.Ptr.P = Base.P + Idx.P.scaled(Size);
        if (LV.Ptr.P.overflowed())
          LV.Ptr = Value::unknown("integer overflow in the address");
      } else {
        LV.Ptr = Value::unknown(
            Idx.K == Value::Unknown
                ? Idx.Why
                : "index `" + exprText(Ctx, AS->getIdx()) + "` is not an integer we track");
        LV.UnknownRegion = Base.Region;
        LV.K = LValue::Unknown;
        LV.Why = LV.Ptr.Why;
      }
      if (FromArray && LV.K == LValue::Mem && Idx.K == Value::Int) {
        LV.ArrayDecl = ArrayLV.ArrayDecl;
        LV.Subscripts = ArrayLV.Subscripts;
        LV.Subscripts.push_back(Idx.P);
      }
      return LV;
    }
    eval(AS->getIdx());
    return memAt(Base);
  }
  if (auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref) {
      return memAt(eval(UO->getSubExpr()));
    }
    if (UO->isIncrementDecrementOp() && UO->isPrefix()) {
      eval(UO);
      return evalLValue(UO->getSubExpr());
    }
  }
  if (auto *ME = dyn_cast<MemberExpr>(E))
    return memberLValue(ME);
  if (auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp()) {
      eval(BO);
      return evalLValue(BO->getLHS());
    }
    if (BO->getOpcode() == BO_Comma) {
      eval(BO->getLHS());
      return evalLValue(BO->getRHS());
    }
  }
  if (auto *Call = dyn_cast<CallExpr>(E)) {
    LValue Ret;
    evalCall(Call, &Ret);
    return Ret;
  }
  if (isa<CXXThisExpr>(E)) {
    const Frame &F = frame();
    if (F.This)
      return *F.This;
    return LV;
  }
  if (auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Cond C = evalCond(CO->getCond());
    if (C.K == Cond::Lanes && (C.True & Active) == Active)
      return evalLValue(CO->getTrueExpr());
    if (C.K == Cond::Lanes && (C.True & Active) == 0)
      return evalLValue(CO->getFalseExpr());
    LV.K = LValue::Unknown;
    LV.Why = "the lanes select different objects in `" + exprText(Ctx, CO) + "`";
    return LV;
  }
  if (isa<StringLiteral>(E) || isa<CompoundLiteralExpr>(E))
    return LV;
  eval(E);
  return LV;
}

Value WarpInterp::loadedValue(const LValue &LV, QualType T, const Expr *Site) {
  T = T.getCanonicalType();
  const bool Tracked = isIntegral(T) || T->isPointerType();
  if (!Tracked)
    return Value::opaque();
  const std::string Text = exprText(Ctx, Site);
  if (LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr &&
      LV.Ptr.P.isUniform(Active)) {
    // Every lane reads the same address: the value is warp-uniform.
    unsigned F = firstLane(Active);
    std::string Key = "load:" + std::to_string(LV.Ptr.Region) + ":" +
                      LV.Ptr.P.atLane(F == WarpSize ? 0 : F).key() + ":" +
                      T.getAsString();
    if (T->isPointerType()) {
      MemRegion Rg;
      Rg.K = R.Regions[LV.Ptr.Region].K == MemRegion::Shared ? MemRegion::Global
                                                               : MemRegion::Global;
      Rg.Name = Text;
      QualType Pointee = T->getPointeeType();
      Rg.Align = Pointee->isIncompleteType()
                     ? 1
                     : std::max<int64_t>(1, Ctx.getTypeAlignInChars(Pointee).getQuantity());
      Rg.AlignNote = "assuming the pointer loaded by `" + Text +
                     "` is 32-byte aligned (only " + std::to_string(Rg.Align) +
                     "-byte alignment is known)";
      return Value::pointer(regionKeyed(Key, Rg), Poly());
    }
    return Value::integer(Poly::symbol(sym(Key, Text, SymbolKind::UniformLoad)));
  }
  return Value::unknown("depends on data loaded by `" + Text + "`");
}

Value WarpInterp::load(const LValue &LV, QualType T, const Expr *Site) {
  switch (LV.K) {
  case LValue::Var: {
    Frame &F = Frames[std::min<size_t>(LV.FrameIdx, Frames.size() - 1)];
    if (!LV.FieldPath.empty()) {
      auto It = F.Fields.find({LV.VarD, LV.FieldPath});
      if (It != F.Fields.end())
        return It->second;
      if (isIntegral(T) || T->isPointerType())
        return Value::unknown("field `" + LV.VarD->getName().str() +
                              LV.FieldPath + "` of a local struct is not tracked");
      return Value::opaque();
    }
    auto It = F.Vars.find(LV.VarD);
    if (It != F.Vars.end())
      return It->second;
    if (auto C = constantInt(Site))
      return Value::constant(*C);
    return Value::unknown("value of '" + LV.VarD->getName().str() +
                          "' is not known");
  }
  case LValue::ParamField:
    return paramFieldValue(LV.Param, LV.ParamPath, T);
  case LValue::Mem:
  case LValue::Unknown:
    access(AccessOp::Load, LV, T, Site);
    if (LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr &&
        R.Regions[LV.Ptr.Region].K == MemRegion::Local)
      return isIntegral(T) || T->isPointerType()
                 ? Value::unknown("value kept in a local array")
                 : Value::opaque();
    return loadedValue(LV, T, Site);
  case LValue::None:
    if (isIntegral(T) || T->isPointerType())
      return Value::unknown("value of `" + exprText(Ctx, Site) +
                            "` is not tracked");
    return Value::opaque();
  }
  return Value::opaque();
}

void WarpInterp::store(const LValue &LV, const Value &V, QualType T,
                       const Expr *Site) {
  switch (LV.K) {
  case LValue::Var: {
    Value Stored = V;
    if (!isIntegral(T) && !T->isPointerType() && V.K == Value::Int)
      Stored = Value::opaque();
    if (!LV.FieldPath.empty()) {
      Frame &F = Frames[std::min<size_t>(LV.FrameIdx, Frames.size() - 1)];
      auto Key = std::make_pair(LV.VarD, LV.FieldPath);
      auto It = F.Fields.find(Key);
      F.Fields[Key] = It == F.Fields.end() ? Stored : merge(Active, Stored, It->second);
      return;
    }
    assignVar(LV.VarD, Stored, std::min<size_t>(LV.FrameIdx, Frames.size() - 1));
    return;
  }
  case LValue::Mem:
  case LValue::Unknown:
    access(AccessOp::Store, LV, T, Site);
    return;
  default:
    return;
  }
}

void WarpInterp::access(AccessOp Op, const LValue &LV, QualType T,
                        const Expr *Site) {
  if (DryDepth || Active == 0)
    return;
  AccessEvent E;
  E.Site = Site;
  E.Op = Op;
  E.ContextKey = frame().ContextKey;
  E.ContextText = frame().ContextText;
  std::optional<RegionId> Rg;
  if (LV.K == LValue::Mem && LV.Ptr.K == Value::Ptr)
    Rg = LV.Ptr.Region;
  else if (LV.K == LValue::Unknown)
    Rg = LV.UnknownRegion;
  if (Rg) {
    const MemRegion &M = R.Regions[*Rg];
    if (M.K == MemRegion::Local || M.K == MemRegion::Constant ||
        M.K == MemRegion::Param)
      return;
    E.Space = M.K == MemRegion::Shared ? MemorySpace::Shared : MemorySpace::Global;
  }
  E.Region = Rg;
  if (LV.K == LValue::Unknown)
    E.UnknownWhy = LV.Why.empty() ? "the address is not known" : LV.Why;
  else if (LV.Ptr.K != Value::Ptr)
    E.UnknownWhy = LV.Ptr.Why.empty() ? "the address is not known" : LV.Ptr.Why;
  if (!ControlUnknown.empty() && E.UnknownWhy.empty())
    E.UnknownWhy = ControlUnknown;
  if (!R.Salvage.empty()) {
    E.UnknownWhy = R.Salvage;
    E.ContextKey.clear(); // one record per access, not one per call chain
    E.ContextText.clear();
  }
  E.AccessType = T;
  E.Active = Active;
  E.Weight = Weight;
  E.RequestsKnown = RequestsKnown;
  E.Assumptions = Assumptions;
  for (const std::string &A : Sticky)
    if (std::find(E.Assumptions.begin(), E.Assumptions.end(), A) == E.Assumptions.end())
      E.Assumptions.push_back(A);
  if (!MaskWhys.empty())
    E.MaskWhy = MaskWhys.back();
  E.Subscripts = LV.Subscripts;
  E.ArrayDecl = LV.ArrayDecl;
  if (auto *ME = dyn_cast<MemberExpr>(Site->IgnoreParenImpCasts())) {
    QualType BT = ME->isArrow() ? ME->getBase()->getType()->getPointeeType()
                                : ME->getBase()->getType();
    if (!BT.isNull() && BT->isRecordType() && !BT->isIncompleteType())
      E.StructSize = Ctx.getTypeSizeInChars(BT).getQuantity();
  }

  // Width of each instruction: scalars in one; aggregates in pieces of their
  // alignment (at most 16 bytes, the widest LDG/STG/LDS/STS).
  QualType CT = T.getCanonicalType().getNonReferenceType();
  int64_t Size = CT->isIncompleteType() ? 0 : Ctx.getTypeSizeInChars(CT).getQuantity();
  int64_t Align = CT->isIncompleteType() ? 1 : Ctx.getTypeAlignInChars(CT).getQuantity();
  if (Size <= 0)
    Size = Align = 1;
  int64_t W = Size;
  if (!CT->isScalarType()) {
    W = std::min<int64_t>({Align, 16, Size});
    while (W > 1 && (Size % W) != 0)
      W /= 2;
  }
  unsigned Chunks = static_cast<unsigned>(Size / W);
  if (E.UnknownWhy.empty() && Explained.insert({Site, E.ContextKey}).second)
    E.Because = because(Site);
  for (unsigned C = 0; C < Chunks; ++C) {
    AccessEvent EC = E;
    EC.Width = static_cast<unsigned>(W);
    EC.Chunk = C;
    EC.Chunks = Chunks;
    if (E.UnknownWhy.empty())
      EC.Offset = LV.Ptr.P + Poly::constant(C * W);
    if (C)
      EC.Because.clear();
    emit(std::move(EC));
  }
}

/// The term of the address that spreads the lanes the most: an additive term
/// of any subscript (scaled by its dimension's stride) or of the base pointer.
std::string WarpInterp::because(const Expr *Site) {
  struct Term {
    const Expr *E;
    int64_t Scale; // bytes per unit (0: the term is a pointer)
  };
  std::vector<Term> Terms;
  std::function<void(const Expr *, int64_t)> Split = [&](const Expr *E, int64_t Scale) {
    E = skipCastsAndParens(E);
    if (auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
      if (BO->getLHS()->getType()->isPointerType()) {
        QualType P = BO->getLHS()->getType()->getPointeeType();
        int64_t Size = P->isIncompleteType() ? 1 : Ctx.getTypeSizeInChars(P).getQuantity();
        Split(BO->getLHS(), 0);
        Split(BO->getRHS(), Size);
        return;
      }
      Split(BO->getLHS(), Scale);
      Split(BO->getRHS(), Scale);
      return;
    }
    if (auto *CE = dyn_cast<ExplicitCastExpr>(E))
      return Split(CE->getSubExpr(), Scale);
    Terms.push_back({E, Scale});
  };
  // Walk from the access down to its base: fields, subscripts, a dereference.
  const Expr *S = Site->IgnoreParenImpCasts();
  while (true) {
    if (auto *ME = dyn_cast<MemberExpr>(S)) {
      S = ME->getBase()->IgnoreParenImpCasts();
      continue;
    }
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
      QualType T = AS->getType();
      Split(AS->getIdx(),
            T->isIncompleteType() ? 1 : Ctx.getTypeSizeInChars(T).getQuantity());
      S = AS->getBase()->IgnoreParenImpCasts();
      continue;
    }
    if (auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_Deref) {
      S = UO->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    break;
  }
  if (!isa<DeclRefExpr>(S))
    Split(S, 0); // a computed base pointer (p + off, a call) may spread the lanes
  for (const Term &T : Terms)
    if (T.E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
      return "";
  auto SpreadOf = [&](const Term &T) -> int64_t {
    Value V;
    const LaneMask Save = Active;
    ++DryDepth;
    try {
      V = eval(T.E);
    } catch (...) {
      --DryDepth;
      Active = Save;
      throw;
    }
    --DryDepth;
    Active = Save;
    if (V.K != Value::Int && V.K != Value::Ptr)
      return 0;
    if (!V.P.hasUniformSymbolicPart(Save))
      return INT64_MAX;
    LaneInts C = V.P.laneConstants();
    int64_t Lo = INT64_MAX, Hi = INT64_MIN;
    for (unsigned L = 0; L < WarpSize; ++L)
      if (laneActive(Save, L)) {
        Lo = std::min(Lo, C[L]);
        Hi = std::max(Hi, C[L]);
      }
    if (Hi < Lo)
      return 0;
    int64_t Spread = Hi - Lo, Scale = T.Scale ? T.Scale : 1;
    return Spread > INT64_MAX / Scale ? INT64_MAX : Spread * Scale;
  };
  const Term *Best = nullptr;
  int64_t BestSpread = 0;
  for (const Term &T : Terms) {
    int64_t Sp = SpreadOf(T);
    if (Sp > BestSpread) {
      BestSpread = Sp;
      Best = &T;
    }
  }
  if (!Best)
    return "";
  std::string Out = "`" + exprText(Ctx, Best->E) + "`";
  // A variable: show how it was computed.
  if (auto *DR = dyn_cast<DeclRefExpr>(Best->E))
    if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      if (VD->getInit() && !isa<ParmVarDecl>(VD) && !VD->getType()->isReferenceType())
        Out += " (`" + VD->getName().str() + " = " + exprText(Ctx, VD->getInit()) + "`)";
  return Out;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

Value WarpInterp::evalBuiltinCall(const CallExpr *CE, const FunctionDecl *FD,
                                  bool &Handled) {
  Handled = true;
  std::string Name = FD->getName().str();
  auto Arg = [&](unsigned I) { return CE->getArg(I); };
  const unsigned N = CE->getNumArgs();

  static const std::set<std::string> NoOps = {
      "__syncthreads", "__syncwarp", "__threadfence", "__threadfence_block",
      "__threadfence_system", "__nanosleep", "__trap", "__brkpt", "printf",
      "__assertfail", "__assert_fail", "__prof_trigger"};
  if (NoOps.count(Name)) {
    for (unsigned I = 0; I < N; ++I)
      eval(Arg(I));
    return Value::opaque();
  }
  static const std::set<std::string> Loads = {"__ldg", "__ldcg", "__ldca",
                                              "__ldcs", "__ldlu", "__ldcv"};
  if (Loads.count(Name) && N == 1) {
    Value P = eval(Arg(0));
    LValue LV = memAt(P);
    return load(LV, Arg(0)->getType()->getPointeeType(), CE);
  }
  static const std::set<std::string> Stores = {"__stcg", "__stcs", "__stwb",
                                               "__stwt"};
  if (Stores.count(Name) && N == 2) {
    Value P = eval(Arg(0));
    eval(Arg(1));
    LValue LV = memAt(P);
    store(LV, Value::opaque(), Arg(0)->getType()->getPointeeType(), CE);
    return Value::opaque();
  }
  static const std::set<std::string> MinMax = {
      "min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax"};
  if (MinMax.count(Name) && N == 2 && isIntegral(CE->getType())) {
    Value A = eval(Arg(0)), B = eval(Arg(1));
    if (A.K == Value::Unknown)
      return A;
    if (B.K == Value::Unknown)
      return B;
    if (A.K != Value::Int || B.K != Value::Int)
      return Value::opaque();
    const bool IsMax = Name.find("max") != std::string::npos;
    IntResult Res = minMaxPoly(A.P, B.P, IsMax, Active, R.Syms);
    if (Res.Ok && A.P.isConcrete(Active) == B.P.isConcrete(Active) &&
        (A.P.isConcrete(Active) || !A.P.isUniform(Active) || !B.P.isUniform(Active)))
      return Value::integer(Res.P);
    // An index clamped to a bound we do not know: like a bounds guard, the
    // clamp does not bite in interior warps. The index is the operand that
    // moves with the thread, block or loop; the bound is made of constants and
    // kernel parameters.
    auto IndexLike = [&](const Poly &P) {
      if (!P.isUniform(Active))
        return true;
      for (SymbolId S : P.symbols()) {
        SymbolKind K = R.Syms.get(S).Kind;
        if (K == SymbolKind::BlockIdx || K == SymbolKind::ThreadBase ||
            K == SymbolKind::LoopIteration)
          return true;
      }
      return false;
    };
    const bool AIdx = IndexLike(A.P), BIdx = IndexLike(B.P);
    if (AIdx != BIdx) {
      Sticky.push_back("assuming `" + exprText(Ctx, CE) +
                       "` does not clamp in interior warps (line " +
                       lineOf(Ctx, CE->getBeginLoc()) + ")");
      return AIdx ? A : B;
    }
    if (Res.Ok)
      return Value::integer(Res.P);
    return Value::unknown(Res.Why);
  }
  if ((Name == "abs" || Name == "llabs") && N == 1 && isIntegral(CE->getType())) {
    Value A = eval(Arg(0));
    if (A.K == Value::Int && A.P.isConcrete(Active)) {
      LaneInts C = A.P.laneConstants();
      for (auto &V : C)
        V = V < 0 ? -V : V;
      return Value::integer(Poly::lanes(C));
    }
    return A.K == Value::Unknown ? A : Value::unknown("absolute value of a value not known per lane");
  }
  if ((Name == "__mul24" || Name == "__umul24") && N == 2) {
    Value A = eval(Arg(0)), B = eval(Arg(1));
    return evalArith(BO_Mul, A, B, Arg(0), Arg(1), CE->getType());
  }
  static const std::set<std::string> Shuffles = {
      "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync"};
  if (Shuffles.count(Name) && N >= 3) {
    eval(Arg(0));
    Value V = eval(Arg(1));
    Value S = eval(Arg(2));
    int64_t Width = WarpSize;
    if (N >= 4) {
      Value Wv = eval(Arg(3));
      if (Wv.K != Value::Int || !Wv.P.isConcrete(Active) || !Wv.P.isUniform(Active))
        return Value::unknown("shuffle with an unknown width");
      Width = Wv.P.laneConstants()[firstLane(Active)];
      if (Width <= 0 || Width > 32 || (Width & (Width - 1)))
        return Value::unknown("shuffle with an unsupported width");
    }
    if (V.K != Value::Int)
      return V.K == Value::Unknown ? V : Value::opaque();
    if (S.K != Value::Int || !S.P.isConcrete(Active))
      return Value::unknown("shuffle with a source lane not known per lane");
    LaneInts Sv = S.P.laneConstants();
    std::array<unsigned, WarpSize> Src;
    for (unsigned L = 0; L < WarpSize; ++L) {
      int64_t Base = L & ~(Width - 1), Sub = L & (Width - 1), T = L;
      if (Name == "__shfl_sync")
        T = Base + (Sv[L] & (Width - 1));
      else if (Name == "__shfl_up_sync")
        T = (Sub - Sv[L] >= 0) ? L - Sv[L] : L;
      else if (Name == "__shfl_down_sync")
        T = (Sub + Sv[L] < Width) ? L + Sv[L] : L;
      else
        T = Base + ((Sub ^ Sv[L]) & (Width - 1));
      Src[L] = static_cast<unsigned>(T);
    }
    return Value::integer(V.P.permuted(Src));
  }
  static const std::set<std::string> LaneIntrinsics = {"__popc", "__popcll",
                                                       "__ffs", "__ffsll",
                                                       "__clz", "__clzll",
                                                       "__brev"};
  if (LaneIntrinsics.count(Name) && N == 1) {
    Value A = eval(Arg(0));
    if (A.K != Value::Int || !A.P.isConcrete(Active))
      return A.K == Value::Unknown ? A : Value::unknown("'" + Name + "' of a value not known per lane");
    LaneInts C = A.P.laneConstants();
    const bool Is64 = Name.find("ll") != std::string::npos;
    for (auto &V : C) {
      uint64_t U = Is64 ? static_cast<uint64_t>(V) : static_cast<uint32_t>(V);
      if (Name.rfind("__popc", 0) == 0)
        V = __builtin_popcountll(U);
      else if (Name.rfind("__ffs", 0) == 0)
        V = U ? __builtin_ctzll(U) + 1 : 0;
      else if (Name.rfind("__clz", 0) == 0)
        V = U ? (__builtin_clzll(U) - (Is64 ? 0 : 32)) : (Is64 ? 64 : 32);
      else {
        uint32_t X = static_cast<uint32_t>(U), Rv = 0;
        for (int B = 0; B < 32; ++B)
          if (X & (1u << B))
            Rv |= 1u << (31 - B);
        V = Rv;
      }
    }
    return Value::integer(Poly::lanes(C));
  }
  if ((Name.rfind("atomic", 0) == 0 || Name.rfind("__nv_atomic", 0) == 0) &&
      N >= 1 && Arg(0)->getType()->isPointerType()) {
    // A read-modify-write of memory: one request per warp (RED/ATOM).
    Value P = eval(Arg(0));
    for (unsigned I = 1; I < N; ++I)
      eval(Arg(I));
    LValue LV = memAt(P);
    access(AccessOp::Atomic, LV, Arg(0)->getType()->getPointeeType(), CE);
    return isIntegral(CE->getType()) || CE->getType()->isPointerType()
               ? Value::unknown("value returned by `" + Name + "`")
               : Value::opaque();
  }
  if (Name == "__activemask" || Name.rfind("__ballot", 0) == 0 ||
      Name.rfind("__any", 0) == 0 || Name.rfind("__all", 0) == 0 ||
      Name.rfind("__match", 0) == 0 || Name.rfind("__reduce", 0) == 0) {
    for (unsigned I = 0; I < N; ++I)
      eval(Arg(I));
    return Value::unknown("value of warp-level intrinsic `" + Name + "`");
  }
  Handled = false;
  return Value::opaque();
}

Value WarpInterp::evalCall(const CallExpr *CE, LValue *RetLV) {
  if (RetLV)
    RetLV->K = LValue::None;
  if (isa<CUDAKernelCallExpr>(CE))
    return Value::unknown("dynamic parallelism is not modelled");
  const FunctionDecl *FD = CE->getDirectCallee();
  // Calls through lambdas and functors: operator().
  if (!FD) {
    for (const Expr *A : CE->arguments())
      eval(A);
    return Value::unknown("call through a function pointer");
  }
  bool Handled = false;
  Value B = evalBuiltinCall(CE, FD, Handled);
  if (Handled)
    return B;

  llvm::SmallVector<const Expr *, 8> Args(CE->arguments().begin(),
                                          CE->arguments().end());
  std::optional<LValue> This;
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (Obj) {
      if (Obj->getType()->isPointerType()) {
        This = memAt(eval(Obj));
      } else {
        This = evalLValue(Obj);
      }
    }
  } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic() &&
        !Args.empty()) {
      // Trivial copy/move assignment of a struct: a load and a store.
      auto *MD = cast<CXXMethodDecl>(FD);
      if (OC->getOperator() == OO_Equal && MD->isTrivial() &&
          (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator())) {
        LValue Src = evalLValue(Args[1]);
        if (Src.K == LValue::Mem || Src.K == LValue::Unknown)
          access(AccessOp::Load, Src, Args[1]->getType(), Args[1]);
        else
          eval(Args[1]);
        LValue Dst = evalLValue(Args[0]);
        if (Dst.K == LValue::Mem || Dst.K == LValue::Unknown)
          access(AccessOp::Store, Dst, Args[0]->getType(), Args[0]);
        if (RetLV)
          *RetLV = Dst;
        return Value::opaque();
      }
      This = evalLValue(Args[0]);
      Args.erase(Args.begin());
    }
  }
  return callFunction(FD, CE, Args, This, RetLV);
}

Value WarpInterp::callFunction(const FunctionDecl *FD, const CallExpr *CE,
                               llvm::ArrayRef<const Expr *> Args,
                               std::optional<LValue> This, LValue *RetLV) {
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = FD->getBody(Def);
  const bool ReturnsRef = FD->getReturnType()->isReferenceType();
  const bool Tracked =
      isIntegral(FD->getReturnType()) || FD->getReturnType()->isPointerType();
  if (!Body || !Def || Frames.size() >= R.Limits.MaxCallDepth) {
    for (const Expr *A : Args) {
      Value V = eval(A);
      // Memory handed to code we cannot see: say so, once per argument.
      if (!Body && (V.K == Value::Ptr || (V.K == Value::Unknown && V.Where))) {
        LValue LV = memAt(V);
        LV.Why = "it is passed to '" + FD->getNameAsString() +
                 "', whose body is not visible";
        LV.K = LValue::Unknown;
        LV.UnknownRegion = V.K == Value::Ptr ? std::optional<RegionId>(V.Region) : V.Where;
        QualType PT = A->getType()->isPointerType() ? A->getType()->getPointeeType()
                                                    : Ctx.CharTy;
        if (PT->isVoidType() || PT->isIncompleteType())
          PT = Ctx.CharTy;
        access(AccessOp::Call, LV, PT, A);
      }
    }
    std::string Why = !Body ? "result of a call to '" + FD->getNameAsString() +
                                  "', whose body is not visible"
                            : "call nesting deeper than " +
                                  std::to_string(R.Limits.MaxCallDepth);
    if (RetLV && ReturnsRef) {
      RetLV->K = LValue::Unknown;
      RetLV->Why = Why;
    }
    return Tracked ? Value::unknown(Why) : Value::opaque();
  }
  // Bind the arguments in the caller's frame, then enter the callee.
  Frame NF;
  NF.FD = Def;
  NF.This = This;
  NF.Entry = Active;
  const Frame &Caller = frame();
  const std::string Site = fileLine(Ctx, CE->getBeginLoc());
  NF.ContextKey = Caller.ContextKey + "/" +
                  std::to_string(reinterpret_cast<uintptr_t>(CE));
  NF.ContextText = "in '" + Def->getNameAsString() + "' called at " + Site +
                   (Caller.ContextText.empty() ? "" : ", " + Caller.ContextText);
  const unsigned NP = Def->getNumParams();
  for (unsigned I = 0; I < NP; ++I) {
    const ParmVarDecl *PD = Def->getParamDecl(I);
    const Expr *A = I < Args.size() ? Args[I] : nullptr;
    if (!A) {
      NF.Vars[PD] = PD->hasDefaultArg() ? eval(PD->getDefaultArg())
                                        : Value::unknown("missing argument");
      continue;
    }
    if (PD->getType()->isReferenceType()) {
      NF.Refs[PD] = evalLValue(A);
      continue;
    }
    if (PD->getType()->isRecordType()) {
      const Expr *Src = skipCastsAndParens(A);
      if (auto *CC = dyn_cast<CXXConstructExpr>(Src);
          CC && CC->getNumArgs() == 1 && CC->getConstructor()->isCopyOrMoveConstructor()) {
        LValue LV = evalLValue(CC->getArg(0));
        if (LV.K == LValue::ParamField) {
          NF.Refs[PD] = LV;
          continue;
        }
        if (LV.K == LValue::Mem || LV.K == LValue::Unknown)
          access(AccessOp::Load, LV, CC->getArg(0)->getType(), CC->getArg(0));
        NF.Vars[PD] = Value::opaque();
        continue;
      }
    }
    Value V = eval(A);
    NF.Vars[PD] = V;
  }
  const LaneMask EntryActive = Active;
  const size_t AssumeMark = Assumptions.size();
  Frames.push_back(std::move(NF));
  exec(Body);
  Assumptions.resize(std::min(Assumptions.size(), AssumeMark));
  Frame Done = std::move(Frames.back());
  Frames.pop_back();
  Active = EntryActive;
  for (const auto &O : Done.OtherRets)
    Done.RetVal = Done.RetVal ? joinReturns(*Done.RetVal, O.V, O.If, O.Uniform, EntryActive, Def)
                              : O.V;
  if (RetLV && ReturnsRef && !Done.RetLVAmbiguous.empty()) {
    RetLV->K = LValue::Unknown;
    RetLV->Why = "the reference returned by '" + Def->getNameAsString() +
                 "' depends on which side of the branch at line " + Done.RetLVAmbiguous +
                 " was taken";
  } else if (RetLV && ReturnsRef) {
    if (Done.RetLV)
      *RetLV = *Done.RetLV;
    else {
      RetLV->K = LValue::Unknown;
      RetLV->Why = "reference returned by '" + Def->getNameAsString() +
                   "' is not known";
    }
  }
  if (ReturnsRef)
    return Value::opaque(); // read through the lvalue by the caller
  if (Done.RetVal)
    return *Done.RetVal;
  return Tracked ? Value::unknown("'" + Def->getNameAsString() +
                                  "' returns no value we could follow")
                 : Value::opaque();
}

} // namespace

void interpretWarp(KernelRun &Run, unsigned Warp) {
  WarpInterp I(Run, Warp);
  I.run();
}

InterpreterLimits salvageLimits(const InterpreterLimits &L) {
  InterpreterLimits S = L;
  S.MaxConcreteIterations = 0;
  S.MaxCallDepth = std::min(L.MaxCallDepth, 8u);
  return S;
}

} // namespace coalesce

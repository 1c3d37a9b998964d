//===- WarpInterp.h - The interpreter of one warp, inside interp/ ---------===//
//
// Private to interp/: the state of the abstract interpreter while it runs a
// kernel for one warp (Interpreter.h is the interface the rest of the
// analyzer sees). The state is split by concern over the files of this
// folder, one transfer file per kind of AST node, the way clang's
// FlowSensitive analyses are laid out:
//
//   State.cpp        frames, variables, symbols, regions, kernel parameters,
//                    the thread-index builtins, the kernel entry
//   Statements.cpp   blocks, declarations, if/switch with SIMT lane masks,
//                    return/break/continue, joining the two sides of a branch
//   Loops.cpp        loops run iteration by iteration, or once with a
//                    symbolic counter
//   CompilerModel.h  what nvcc and ptxas do, as models called at fixed
//                    hooks of the walk, one per file of models/ (registered
//                    in models/Models.def): inert register code, local
//                    arrays in registers, load reuse, hoisting, shared
//                    merges, branch twins
//   Expressions.cpp  rvalues: arithmetic, casts, ?:, literals
//   Conditions.cpp   conditions as lane masks (exact, uniform, guard, data)
//   Memory.cpp       lvalues, loads and stores, the access events
//   Calls.cpp        device functions entered with their arguments bound
//   Builtins.cpp     CUDA intrinsics: __ldg, shuffles, atomics, min/max...
//   InlineAsm.cpp    inline PTX: cp.async, ldmatrix/stmatrix, ld/st, and the
//                    address arithmetic around them (PtxAsm.h splits the text)
//
// Values live in the domain of model/Poly.h (per-lane polynomials over
// warp-uniform symbols); the walker here only decides which lanes run what.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_INTERP_WARPINTERP_H
#define COALESCE_ANALYZER_INTERP_WARPINTERP_H

#include "interp/CompilerModel.h"
#include "interp/Interpreter.h"
#include "interp/PtxAsm.h"
#include "model/IntOps.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace coalesce {
namespace interp {

/// A condition, evaluated for the lanes of the warp.
struct Cond {
  enum Kind {
    Lanes,   // exact per lane
    Uniform, // same unknown outcome for all lanes; True = lanes if it holds
    Guard,   // lane-dependent but unknown: True = lanes assumed to pass
    Data     // depends on loaded data
  } K = Lanes;
  LaneMask True = 0;
  /// Uniform: the outcome depends on warp-uniform unknowns; each world is one
  /// possible outcome, the lanes on which the condition holds (a plain
  /// uniform condition: all lanes, or none). True is the first world.
  /// Conditions combined with && and || have the combinations of their
  /// operands' worlds, so that no side of a branch that runs for some value
  /// of the unknowns is left out.
  std::vector<LaneMask> Worlds;
  /// The worlds of any kind of condition (one, True, when it is not uniform).
  std::vector<LaneMask> worlds() const {
    return K == Uniform && !Worlds.empty() ? Worlds : std::vector<LaneMask>{True};
  }
  std::string Text;
  Reason Why;
  /// Bounds guards inside the condition, assumed to pass in interior warps.
  std::vector<std::string> Guards;
};

/// The variables of one function activation.
/// A cooperative group (Groups.cpp): the calling thread's rank in it, its
/// size, and for a tile its index among the tiles of its parent.
struct GroupInfo {
  Value Rank, Size, Meta, MetaSize;
};

struct Frame {
  const clang::FunctionDecl *FD = nullptr;
  llvm::DenseMap<const clang::VarDecl *, GroupInfo> Groups;
  llvm::DenseMap<const clang::VarDecl *, Value> Vars;
  std::map<std::pair<const clang::VarDecl *, std::string>, Value> Fields;
  llvm::DenseMap<const clang::VarDecl *, LValue> Refs;
  LaneMask Returned = 0;
  LaneMask Entry = 0;
  std::optional<Value> RetVal;
  std::optional<LValue> RetLV;
  /// Values returned on one side of a branch whose two sides both ran (a
  /// uniform or data-dependent condition), joined with RetVal at the end.
  struct OtherRet {
    Value V;
    const clang::IfStmt *If;
    bool Uniform; // the branch's condition was uniform (not data-dependent)
  };
  std::vector<OtherRet> OtherRets;
  /// A reference returned on one side of such a branch only: at line ...
  std::string RetLVAmbiguous;
  std::optional<LValue> This;
  std::string ContextKey, ContextText;
  /// The call (or construction) that entered this frame; none for the
  /// kernel's own frame.
  const clang::Expr *Call = nullptr;
};

/// Lanes that left the innermost loop (or switch) by break or continue.
struct LoopCtl {
  LaneMask Broken = 0, Continued = 0;
  bool IsSwitch = false;
};

class WarpInterp {
public:
  WarpInterp(KernelRun &Run, unsigned Warp);
  void run();

private:
  /// The compiler models reach the walker through their base class's
  /// services only (CompilerModel.h).
  friend class CompilerModel;
  KernelRun &R;
  clang::ASTContext &Ctx;
  unsigned Warp;
  bool ShapeKnown;
  /// A block shape known in part whose warps lie within its known leading
  /// dimensions (LaunchConfig::KnownDims): Threads are those of Partial->Sub;
  /// the other dimensions' indices are uniform symbols, as with no shape.
  std::optional<PartialWarps> Partial;
  /// Known in part, but a warp spans an unknown dimension: every access is
  /// unknown for this reason.
  Reason ShapeWhy;
  WarpThreads Threads;
  LaneMask Exists = 0;
  LaneMask Active = 0;
  std::deque<Frame> Frames;
  std::vector<LoopCtl> Loops;
  std::vector<Assumption> Assumptions;
  std::vector<Reason> MaskWhys;
  /// Assumptions about values that flow on (clamps), kept for the warp run.
  std::vector<Assumption> Sticky;
  Reason ControlUnknown;
  double Weight = 1;
  bool RequestsKnown = true;
  std::string RequestsWhy; // why not: which loop or branch
  unsigned DryDepth = 0;
  /// A dry evaluation (no access recorded) whose changes to the active lanes
  /// are undone when it ends, however it ends.
  struct DryRun {
    WarpInterp &W;
    const LaneMask Saved;
    explicit DryRun(WarpInterp &W) : W(W), Saved(W.Active) { ++W.DryDepth; }
    ~DryRun() {
      --W.DryDepth;
      W.Active = Saved;
    }
  };
  /// Loads nvcc moves after their loop's first test (models/LoadSinking.cpp),
  /// held until that loop starts.
  std::vector<AccessEvent> SunkLoads;
  /// Issues (or drops) the held loads of Loop with the lanes whose first
  /// test of CondE holds.
  void releaseSunkLoads(const clang::Stmt *Loop, const clang::Expr *CondE, bool IsDo);
  unsigned ExprDepth = 0;
  unsigned BufferDepth = 0;
  /// The statement exec() is running (innermost), for AccessEvent::Statement.
  const clang::Stmt *CurrentStmt = nullptr;
  /// Barriers, fences and warp exchanges run so far (AccessEvent::Epoch).
  unsigned OrderingsRun = 0;
  /// Branches on an unknown condition whose sides retire lanes (a return
  /// on loaded data): a loop containing one cannot be run iteration by
  /// iteration to its end (Loops.cpp).
  unsigned DivergentExits = 0;
  std::vector<AccessEvent> Buffered;
  std::set<std::pair<const clang::Expr *, std::string>> Explained;
  /// Explained's entries in the order they were added: a walk that is
  /// abandoned (a loop run iteration by iteration past the limit) takes its
  /// own back, since the events that carried them are dropped.
  std::vector<std::pair<const clang::Expr *, std::string>> ExplainedOrder;
  /// A call of record type that clang evaluates as a constant: its value
  /// (evaluated once per call).
  const std::optional<Value> &constantRecord(const clang::CallExpr *CE);
  llvm::DenseMap<const clang::CallExpr *, std::optional<Value>> ConstantRecords;
  /// The loops being run, outermost first, for the message of a budget
  /// that runs out (step()).
  std::vector<const clang::Stmt *> LoopStack;
  /// The step budget ran out: "more than N interpretation steps, spent in
  /// the loop at f.cu:12 (innermost: the loop at g.h:40)".
  Reason stepBudget() const;
  /// An integer constant expression's value, evaluated once.
  llvm::DenseMap<const clang::Expr *, std::optional<int64_t>> Constants;
  std::optional<int64_t> constantOf(const clang::Expr *E);
  // Budget (State.cpp) --------------------------------------------------------
  void step() {
    if (++R.Steps > R.Limits.MaxSteps)
      throw BudgetExceeded{stepBudget().Text};
  }
  /// The walk evaluates S (or understood the lvalue E) for the coverage
  /// check (KernelRun::Coverage); dry runs and runs without lanes do not count.
  void visit(const clang::Stmt *S) {
    if (R.Coverage && !DryDepth && Active)
      R.Coverage->Visited.insert(S);
    if (Recording && Active)
      Recording->Visited.push_back(S);
  }
  void reached(const clang::Expr *E) {
    if (R.Coverage && !DryDepth && Active)
      R.Coverage->Reached.insert(E->IgnoreParenImpCasts());
    if (Recording && Active)
      Recording->Reached.push_back(E->IgnoreParenImpCasts());
  }
  // Calls evaluated once per argument values (CallMemo.cpp) ------------------
  /// What a call's walk added to the coverage log, kept with its result so
  /// that a call answered from the memo marks the same statements.
  struct CallCoverage {
    std::vector<const clang::Stmt *> Visited;
    std::vector<const clang::Expr *> Reached;
    /// The callbacks that outlast the call (CompilerModels::Lasting).
    std::vector<CompilerModels::Lasting> Models;
    /// O's statements and expressions after these (its model callbacks are
    /// recorded again where they are replayed).
    void addStatements(const CallCoverage &O);
    void dedupe();
  };
  struct MemoEntry {
    Value Result;
    /// What a reference the call returns designates.
    std::optional<LValue> Returned;
    /// Frames the walk went below the call's own: the call is answered
    /// from the memo only where as many more fit under MaxCallDepth.
    size_t Below = 0;
    /// Barriers and other orderings the walk ran (OrderingsRun).
    unsigned Orderings = 0;
    CallCoverage Covered;
    /// The coverage log the entry's statements were last marked in.
    const CoverageLog *MarkedIn = nullptr;
  };
  std::unordered_map<std::string, MemoEntry> CallMemo;
  static constexpr size_t MaxMemoEntries = 1 << 14;
  CallCoverage *Recording = nullptr;
  /// Attempts at memory accesses, dry or not (a call that makes one reads
  /// or writes more than its arguments).
  uint64_t AccessAttempts = 0;
  /// The most frames on the stack since the counter was last read.
  size_t DeepestFrames = 0;
  /// The memo's key for the call about to enter NF (its callee, lanes and
  /// every value it can read), or none where it may read or change more.
  std::optional<std::string> callMemoKey(const Frame &NF,
                                         std::vector<std::pair<LValue, std::string>> &Changeable);
  bool appendKey(const Value &V, std::string &K) const;
  bool appendObjectKey(const LValue &LV, std::string &K) const;
  /// Answers the call from the memo (true) or walks it, keeping its result
  /// when the walk read nothing beyond Key and changed nothing.
  struct MemoWalk {
    WarpInterp &I;
    std::string Key;
    /// The objects the callee may change, with their keys before the walk.
    std::vector<std::pair<LValue, std::string>> Changeable;
    CallCoverage Covered;
    CallCoverage *Outer;
    std::vector<CompilerModels::Lasting> *OuterTrace;
    bool OuterOverflowed;
    std::vector<uint64_t> Counters;
    uint64_t Accesses;
    size_t Syms, Regions, Explained, Frames0, OuterDeepest = 0;
    Reason Control;
    MemoWalk(WarpInterp &I, std::string Key,
             std::vector<std::pair<LValue, std::string>> Changeable);
    ~MemoWalk();
    void keep(const Value &Result, const LValue *Returned);
  };
  std::optional<Value> memoHit(const std::string &Key, LValue *RetLV);
  struct DepthGuard {
    WarpInterp &I;
    explicit DepthGuard(WarpInterp &I) : I(I) {
      if (++I.ExprDepth > I.R.Limits.MaxExprDepth)
        throw BudgetExceeded{
            makeReason(ReasonKind::NestingBudget, {std::to_string(I.R.Limits.MaxExprDepth)})
                .Text};
    }
    ~DepthGuard() { --I.ExprDepth; }
  };
  /// In a salvage walk, nesting at the limit gives up on the value only.
  bool salvageTooDeep() const {
    return !R.Salvage.empty() && ExprDepth >= R.Limits.MaxExprDepth;
  }

  Frame &frame() { return Frames.back(); }
  /// exprText(Ctx, E), memoized in the KernelRun.
  std::string text(const clang::Expr *E);

  /// The memory a pointer value designates.
  static LValue memAt(const Value &P);

  // Symbols, events, variables (State.cpp) -----------------------------------
  SymbolId sym(const std::string &Key, const std::string &Name, SymbolKind K,
               int64_t Range = 0, std::string Spelling = "", int64_t Start = 0);
  void emit(AccessEvent E);
  /// Outside every buffering loop walker: hands the buffered events on.
  void flushBuffered();
  /// Removes the buffered events from Mark on whose Drop entry is set.
  void dropBuffered(size_t Mark, const std::vector<bool> &Drop);
  Frame *frameOf(const clang::VarDecl *VD, unsigned *Idx = nullptr);
  /// V on the lanes of M, Old on the others.
  Value merge(LaneMask M, const Value &New, const Value &Old) const;
  /// The value of the local struct VD (its part at Prefix, ".lo"): the
  /// fields the walk knows of it (Frame::Fields).
  Value fieldsOf(const Frame &F, const clang::VarDecl *VD, const std::string &Prefix) const;
  /// The fields of the object of type T at LV: a local variable's (or a
  /// part of it, also through a pointer into it) as the walk knows them;
  /// memory elsewhere is read (a load at Site) and its fields are opaque.
  Value recordAt(const LValue &LV, clang::QualType T, const clang::Expr *Site);
  /// VD's part at Prefix takes the struct value V: its known fields
  /// replace the old ones, the others become unknown.
  void setFields(Frame &F, const clang::VarDecl *VD, const std::string &Prefix, const Value &V);
  /// The byte offset and type of the part at Path (".x", "[2].lo") of an
  /// object of type T.
  std::optional<std::pair<int64_t, clang::QualType>> partAt(clang::QualType T,
                                                            llvm::StringRef Path) const;
  /// The path of the part of an object of type T at byte offset Off that a
  /// read of type Want designates (a field, an array element, a base's
  /// field named as the object's own); nothing when no part of that type
  /// starts there.
  std::optional<std::string> pathAt(clang::QualType T, int64_t Off, clang::QualType Want) const;
  /// Memory of a local variable (a per-thread array, a struct whose address
  /// was taken): the variable, its frame, and the path of the part LV
  /// designates as a value of type T when all lanes designate the same one.
  struct LocalPart {
    const clang::VarDecl *VD;
    unsigned FrameIdx;
    std::optional<std::string> Path;
  };
  std::optional<LocalPart> localPart(const LValue &LV, clang::QualType T);
  /// The known parts of VD that bytes [Off, Off + Size) overlap are no
  /// longer known (Size < 0: all of VD).
  void forgetOverlapping(Frame &F, const clang::VarDecl *VD, int64_t Off, int64_t Size);
  /// Whether an object of type T has overlapping parts (a union inside).
  bool hasUnion(clang::QualType T);
  llvm::DenseMap<const clang::RecordDecl *, bool> UnionInside;
  /// Before a store of type T to VD's part at Path: the other parts it
  /// overlaps (members of a union) are no longer known.
  void forgetOverlappingPart(Frame &F, const clang::VarDecl *VD, const std::string &Path,
                             clang::QualType T);
  /// A value-initialized object of type T (`= {}`): integers are zero.
  Value zeroValue(clang::QualType T) const;
  /// Elements of an array kept as values at most (per declaration).
  static constexpr unsigned MaxTrackedElements = 1024;
  /// A struct value from a constant (a constexpr object): its integer
  /// fields, nested structs included.
  Value valueOfConstant(const clang::APValue &AV, clang::QualType T) const;
  /// The value of a struct-typed expression: a prvalue is evaluated (a
  /// call, an initializer list); an lvalue that is a local struct gives
  /// its fields, one in memory is loaded (the access is reported).
  Value structValue(const clang::Expr *E);
  LaneMask frameReturnedAll() const;
  void assignVar(const clang::VarDecl *VD, const Value &V, unsigned FrameIdx);
  /// threadIdx.x and friends.
  std::optional<Value> builtinVar(const clang::PseudoObjectExpr *POE);
  /// threadIdx, blockIdx, blockDim or gridDim along axis 0, 1 or 2.
  std::optional<Value> builtinIndex(const std::string &Var, int Axis);

  // Regions and kernel parameters (State.cpp) -----------------------------------
  RegionId regionForVar(const clang::VarDecl *VD);
  RegionId paramRegion(const clang::ParmVarDecl *PD, const std::string &Path);
  RegionId regionKeyed(const std::string &Key, MemRegion Rg);
  Value paramValue(const clang::ParmVarDecl *PD);
  /// An integer parameter or field (Path "" or ".cols") the launch leaves
  /// unknown: a symbol, shaped by the facts stated about it.
  Value unknownParam(const clang::ParmVarDecl *PD, const std::string &Path);
  Value paramFieldValue(const clang::ParmVarDecl *PD, const std::string &Path,
                        clang::QualType T);
  /// The struct at Path of a by-value kernel parameter, as a value: its
  /// integer and pointer fields (a copy into a local object).
  Value paramAggregate(const clang::ParmVarDecl *PD, const std::string &Path, clang::QualType T);

  // Statements (Statements.cpp) --------------------------------------------------
  void exec(const clang::Stmt *S);
  void execAsm(const clang::AsmStmt *Asm);

  // Inline PTX (InlineAsm.cpp) -------------------------------------------------
  /// What an inline-assembly memory instruction adds to the access access()
  /// emits next: its kind, its second side, the space its opcode states.
  struct AsmInstruction {
    InstrKind Kind = InstrKind::Plain;
    unsigned Matrices = 0;
    std::optional<AccessSide> Second;
    std::optional<MemorySpace> Space;
    Reason Why; // the instruction cannot be costed (a partial warp, ...)
    unsigned Line = 0; // where the statement's last operand ends
    std::vector<ContractBreak> Contract; // a TMA copy's
  };
  std::optional<AsmInstruction> PendingAsm;
  unsigned LastOperandLine = 0; // of the asm statement being run
  struct AsmValue {
    Value V;
    const clang::Expr *Site = nullptr; // the operand it comes from
    bool Assigned = false;             // an output the PTX sets
  };
  /// Runs the PTX of a GCC-style asm statement; false when the text cannot
  /// be read (then only its operands are evaluated).
  bool execPtx(const clang::GCCAsmStmt *Asm, std::vector<AsmValue> &Operands);
  void asmAccess(AccessOp Op, const AsmValue &Base, int64_t Offset, unsigned Width,
                 AsmInstruction Instr);
  clang::QualType asmType(unsigned Width);
  /// Bit operations on a shared-window address held in an integer, or on
  /// an AddressCode (a wgmma descriptor being built); nullopt when neither
  /// operand is one.
  std::optional<Value> encodeAddress(clang::BinaryOperatorKind Op, const Value &L,
                                     const Value &Rv, const clang::Expr *LE,
                                     const clang::Expr *RE);
  // wgmma (MatrixMultiply.cpp) ----------------------------------------------------
  /// A `wgmma.mma_async` statement: one record of the shared bytes its
  /// warpgroup reads, and the contract of its descriptors with the TMA
  /// boxes they point into.
  void matrixMultiply(const PtxStatement &St,
                      const std::function<AsmValue(const std::string &)> &Get,
                      const std::string &Line, const clang::Expr *AnySite);
  // TMA copies (TensorCopies.cpp) -------------------------------------------------
  /// A `cp.async.bulk.tensor` statement: its record (what the copy moves,
  /// the contract of its map and destination) and the layout of the box it
  /// writes into shared memory.
  void tensorCopy(const PtxStatement &St,
                  const std::function<AsmValue(const std::string &)> &Get,
                  const std::string &Line, const clang::Expr *AnySite);
  /// A shared load of a box a TMA copy swizzled: whether its address
  /// applies the swizzle (E.Contract gets the rule it breaks).
  void checkTensorCopyReader(AccessEvent &E, const LValue &LV);
  /// A reader whose address has one `a ^ b` on its way: whether that XOR
  /// is the copy's swizzle (E.Contract gets reader-wrong-swizzle if not).
  void checkXorReader(AccessEvent &E, const TensorCopyLayout &C, const LaneInts &Offs,
                      const clang::BinaryOperator *Xor);
  /// The operands of each `a ^ b` as the walk last evaluated it, per lane.
  struct XorOperands {
    LaneInts A{}, B{};
    LaneMask Lanes = 0;
  };
  llvm::DenseMap<const clang::BinaryOperator *, XorOperands> LastXor;
  /// A store into the bytes of a box a TMA copy wrote: its layout is gone
  /// (Off not known per lane: every box of the region).
  void forgetTensorCopies(RegionId Rg, const Poly *Off, int64_t Width);

  // Cooperative groups (Groups.cpp) ---------------------------------------------
  bool isGroupType(clang::QualType T) const;
  std::optional<GroupInfo> groupOf(const clang::Expr *E, unsigned Depth = 0);
  GroupInfo threadBlockGroup();
  Value evalGroupCall(const clang::CallExpr *CE, const clang::FunctionDecl *FD,
                      bool &Handled);
  void bindGroup(unsigned FrameIdx, const clang::VarDecl *VD, const clang::Expr *Init);
  Value arith(clang::BinaryOperatorKind Op, const Value &A, const Value &B);

  void evalChildren(const clang::Stmt *S);
  void execDecl(const clang::VarDecl *VD);
  void execIf(const clang::IfStmt *If);
  LaneMask uniformSide(const Cond &C, LaneMask Save, bool ThenSide,
                       const clang::Expr *CondE);
  Value joinReturns(const Value &A, const Value &B, const clang::IfStmt *If,
                    bool Uniform, LaneMask Save, const clang::FunctionDecl *FD);
  /// Two opaque values the sides of If leave in one variable or field.
  Value joinOpaque(const Value &A, const Value &B, const clang::IfStmt *If, bool Uniform);
  void mergeBranches(std::deque<Frame> &Other, const clang::IfStmt *If,
                     bool Uniform, LaneMask Save);
  /// Runs a side of a branch that a bounds guard leaves without lanes in
  /// interior warps, on copies of the state, its accesses marked as having
  /// active lanes that are not known (Why).
  void runEdgeSide(const clang::Stmt *Side, LaneMask Lanes, const Reason &Why);
  /// runEdgeSide for each side of If that C (a guard or uniform condition)
  /// leaves without lanes in every world.
  void runEdgeSides(const Cond &C, const clang::IfStmt *If, LaneMask Save);
  /// Variables an edge side assigns (runEdgeSide): in the warps that run
  /// it they may hold other values than the interior warps' state says, so
  /// a later branch on one of them that leaves a side without lanes here
  /// may take that side there (runEdgeSidesOn).
  std::set<const clang::VarDecl *> EdgeChanged;
  /// For If with lanes-exact condition C: each side it leaves without lanes
  /// is run as an edge side when the condition reads a variable an edge side
  /// changed, so that its accesses are listed (unknown), not dropped.
  void runEdgeSidesOn(const Cond &C, const clang::IfStmt *If, LaneMask Save);
  void execSwitch(const clang::SwitchStmt *SW);

  // Loops (Loops.cpp) --------------------------------------------------------------
  /// A range-for over a braced list, run element by element; false (and
  /// nothing run) when the range is something else.
  bool execRangeOverList(const clang::CXXForRangeStmt *RF);
  void execLoop(const clang::Stmt *Loop, const clang::Stmt *Init,
                const clang::Expr *CondE, const clang::Stmt *Inc,
                const clang::Stmt *Body, bool IsDo);
  // Counted loops and summaries (LoopSummary.cpp) ---------------------------------
  /// Per active lane, the iterations a counted loop runs from here, when
  /// its shape is one (KernelRun::CountedLoop) and the values are known.
  std::optional<LaneInts> laneTrips(const clang::Stmt *Loop, const clang::Expr *CondE,
                                    const clang::Stmt *Inc, const clang::Stmt *Body, bool IsDo);
  /// Whether a loop's iterations may be summarized: counted, every entering
  /// lane running at least a few dozen of them (AllRun; MaxRun the most),
  /// and alike by its syntax (ast/AffineLoop.h).
  bool summaryWorthTrying(const clang::Stmt *Loop, const clang::Expr *CondE,
                          const clang::Stmt *Inc, const clang::Stmt *Body, bool IsDo,
                          LaneMask Entry, int64_t &AllRun, int64_t &MaxRun);
  /// The walker's state at the start of an iteration run one by one.
  struct IterationMark {
    std::deque<Frame> Frames;
    size_t Events = 0;
    uint64_t Accesses = 0;
    uint64_t Steps = 0; // KernelRun::Steps
    std::vector<uint64_t> Scalars; // sizes and counters that must not change
    Reason Control;
  };
  IterationMark markIteration() const;
  /// Sizes and counters of the walk's state (the models' accesses last).
  std::vector<uint64_t> walkCounters() const;
  /// walkCounters()'s index of OrderingsRun.
  static constexpr size_t OrderingsCounter = 3;
  /// At the start of iteration 3 of a loop whose iterations 1 and 2 began
  /// at M1 and M2: if they are alike (same events moved, every variable
  /// moved by a fixed amount), issues iterations 3 .. AllRun - a few without
  /// running them, moves the variables there and sets Iter to the next
  /// iteration to run. False: nothing changed.
  bool skipAlikeIterations(const IterationMark &M1, const IterationMark &M2, unsigned &Iter,
                           int64_t AllRun, int64_t MaxRun);
  /// Whether the walk iteration by iteration would stop at the limit of
  /// concrete iterations anyway: a counted loop (no early exit, a bound
  /// and step the body does not change) in which an active lane runs more
  /// iterations than the limit. Then the symbolic walk runs at once.
  bool exceedsConcreteLimit(const clang::Stmt *Loop, const clang::Expr *CondE,
                            const clang::Stmt *Inc, const clang::Stmt *Body, bool IsDo);
  bool tryConcreteLoop(const clang::Stmt *Loop, const clang::Expr *CondE, const clang::Stmt *Inc,
                       const clang::Stmt *Body, bool IsDo, LaneMask Entry);
  void symbolicLoop(const clang::Stmt *Loop, const clang::Expr *CondE,
                    const clang::Stmt *Inc, const clang::Stmt *Body, bool IsDo,
                    LaneMask Entry);
  /// The one top-level statement of Body that changes VD, when it computes
  /// VD from VD and constants only (`buf ^= 1`); null otherwise.
  const clang::Expr *selfUpdate(const clang::Stmt *Body, const clang::VarDecl *VD);
  void runBody(const clang::Stmt *Body, const clang::Stmt *Inc,
               bool IsSwitch = false);

  // Expressions (Expressions.cpp) ------------------------------------------------
  Value eval(const clang::Expr *E);
  Value evalCast(const clang::CastExpr *CE);
  /// Nonzero when V is the same on every active lane: its identity as an
  /// opaque value (Value::UniformId).
  uint64_t uniformIdOf(const Value &V) const;
  Value evalBinary(const clang::BinaryOperator *BO);
  /// `(__umulhi(n, M) + n) >> L` where M and L are the magic numbers of a
  /// divisor d (ggml's fastdiv): n / d. Nothing when BO is not of that
  /// form or M, L are not known.
  std::optional<Value> magicDivision(const clang::BinaryOperator *BO);
  Value evalArith(clang::BinaryOperatorKind Op, const Value &L, const Value &Rv,
                  const clang::Expr *LE, const clang::Expr *RE,
                  clang::QualType ResultTy);
  /// An integer operation of two values (IntOps.h), for isIntegerOp(Op).
  IntResult intOp(clang::BinaryOperatorKind Op, const Poly &A, const Poly &B);
  static bool isIntegerOp(clang::BinaryOperatorKind Op);
  Value evalUnary(const clang::UnaryOperator *UO);
  /// A ?: expression's value; ToRValue: its operands are lvalues to read.
  Value evalConditional(const clang::AbstractConditionalOperator *CO,
                        bool ToRValue = false);
  std::optional<int64_t> constantInt(const clang::Expr *E);
  /// The value of an lvalue that names a compile-time constant
  /// (ast/AstUtil.h isCompileTimeConstant): its integer, or opaque for
  /// other types; never a memory access. Nothing when E is no such lvalue.
  std::optional<Value> compileTimeValue(const clang::Expr *E);
  int64_t fieldOffset(const clang::FieldDecl *FD);

  // Conditions (Conditions.cpp) ---------------------------------------------------
  Cond evalCond(const clang::Expr *E);
  Cond condFromValue(const Value &V, const clang::Expr *E);
  /// A comparison over the blocks of this walk (KernelRun::Blocks): the
  /// lanes where it holds in every one of them, or none (cuts recorded).
  std::optional<LaneMask> decideOverBlocks(const Poly &A, const Poly &B, CmpOp Op);
  /// In a walk standing for several warps: gives it up (WarpsNotAlike) when
  /// it asked for a cut between blocks, or for too many between warps.
  void checkWarpCuts();
  Cond compare(const Value &L, const Value &Rv, CmpOp Op, const clang::Expr *E);
  Value condToValue(const Cond &C, const clang::Expr *E);

  // Memory (Memory.cpp) -----------------------------------------------------------
  LValue evalLValue(const clang::Expr *E);
  LValue memberLValue(const clang::MemberExpr *ME);
  Value load(const LValue &LV, clang::QualType T, const clang::Expr *Site);
  void store(const LValue &LV, const Value &V, clang::QualType T,
             const clang::Expr *Site);
  /// A store of V through LV into a local variable's memory (a per-thread
  /// array's element, a field through a pointer): the part's value, or the
  /// parts it overwrites forgotten.
  void storeLocal(const LValue &LV, const Value &V, clang::QualType T);
  void access(AccessOp Op, const LValue &LV, clang::QualType T,
              const clang::Expr *Site);
  Value loadedValue(const LValue &LV, clang::QualType T, const clang::Expr *Site);
  std::string because(const clang::Expr *Site);
  /// The address of an lvalue (`&x`, `this`, an array's decay): a local
  /// variable, a temporary or a kernel parameter's field is not memory a
  /// load or store instruction reaches, so its pointer points into a local
  /// region, whose accesses are not reported.
  Value addressOf(const LValue &LV);
  /// The local variable LV designates, when it is all of it (`*p` with
  /// p = &x, of x's type): reads and writes through p are x's.
  const clang::VarDecl *pointedVar(const LValue &LV, clang::QualType T) const;

  // Calls (Calls.cpp, Builtins.cpp) ---------------------------------------------
  Value evalCall(const clang::CallExpr *CE, LValue *RetLV = nullptr);
  Value evalBuiltinCall(const clang::CallExpr *CE, const clang::FunctionDecl *FD,
                        bool &Handled);
  /// Enters FD for the call or construction CE. Done, when given, receives
  /// the callee's frame as it ended (a constructor's object).
  Value callFunction(const clang::FunctionDecl *FD, const clang::Expr *CE,
                     llvm::ArrayRef<const clang::Expr *> Args,
                     std::optional<LValue> This, LValue *RetLV, Frame *Done = nullptr);
  /// The value of a constructed object: its constructor is entered (member
  /// initializers, base constructors, body) on an object of its own, whose
  /// known fields are the result; a copy is its source's fields.
  Value construct(const clang::CXXConstructExpr *CE);
  /// A constructor's member and base initializers, run on This.
  void initializeMembers(const clang::CXXConstructorDecl *Ctor, const LValue &This);
  /// The variable that stands for an object under construction of type T
  /// (Frame::Fields are keyed by variable), one per type.
  const clang::VarDecl *objectVar(clang::QualType T);
  /// A variable of no declaration of the program's, for objectVar() and
  /// temporaryVar().
  const clang::VarDecl *syntheticVar(llvm::StringRef Name, clang::QualType T);
  /// The variable that stands for a temporary object, one per expression.
  const clang::VarDecl *temporaryVar(const clang::MaterializeTemporaryExpr *MT);
  /// An access inside a system header, reached through calls from the
  /// user's code, is reported there: at the user's expression that the
  /// accessed object comes from (an argument bound to a reference or
  /// pointer parameter, the object of a method), else at the user's call;
  /// with the context of the user's code.
  void attributeToUserCode(AccessEvent &E);
  /// E.BlameAt: the argument of the innermost caller that chose E's
  /// address, when the helpers between only dereference what they are
  /// given.
  void blameCallerChosenAddress(AccessEvent &E);

  /// What nvcc and ptxas make of the code (CompilerModel.h), called at the
  /// hooks. Last: the models refer to the members above.
  CompilerModels Models{*this};
};

/// The `for` loop whose init declares or assigns VD, if any (Memory.cpp).
const clang::ForStmt *forDeclaring(KernelRun &R, const clang::VarDecl *VD);

} // namespace interp
} // namespace coalesce

#endif // COALESCE_ANALYZER_INTERP_WARPINTERP_H

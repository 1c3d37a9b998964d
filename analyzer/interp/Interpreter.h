//===- Interpreter.h - Executes a kernel for one warp, symbolically -------===//
//
// Design note: the index evaluator is an abstract interpreter over the
// kernel's AST. It executes the body once per warp of the block (the lanes'
// threadIdx values are known numbers once the block shape is known; blockIdx,
// unknown parameters and loop counters are warp-uniform symbols), keeping
// every integer and pointer as a per-lane polynomial (support/Poly.h) and the
// set of active lanes as a 32-bit mask. SIMT control flow is followed lane by
// lane: a branch on a lane-dependent condition runs each side with its lanes,
// `return`/`break`/`continue` retire lanes, loops run iteration by iteration
// while their conditions are known per lane (reductions, unrolled tiles) and
// otherwise once with a symbolic iteration counter (grid-stride loops, loops to
// an unknown bound), which is exact for induction variables. `__device__`
// helpers are entered with their arguments bound (references as aliases).
//
// Every global, shared or constant load and store becomes an AccessEvent: the region
// (which array), the per-lane byte offsets, the bytes per lane, the active
// mask, and anything assumed on the way (a bounds guard taken as true for all
// lanes, a data-dependent branch). What cannot be known is carried as an
// Unknown value with the reason, never as a number.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_INTERP_INTERPRETER_H
#define COALESCE_ANALYZER_INTERP_INTERPRETER_H

#include "launch/LaunchFacts.h"
#include "model/Instructions.h"
#include "model/IntOps.h"
#include "model/Poly.h"
#include "model/TensorMap.h"
#include "model/WarpModel.h"
#include "report/Report.h"
#include "witness/Sass.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Stmt;
class ForStmt;
class CallExpr;
class ParentMap;
} // namespace clang

namespace coalesce {

/// A piece of memory that accesses are made to.
struct MemRegion {
  enum Kind { Global, Shared, Local, Constant, Param } K = Global;
  std::string Name;
  const clang::ValueDecl *Decl = nullptr;
  int64_t Align = 1;     // alignment of the base that is known or assumed
  std::optional<Assumption> AlignNote; // the alignment assumed
  Poly BaseOffset;       // bytes added to the base at the launch (`in + 1`)
  bool Dynamic = false;  // extern __shared__
  /// The memory space whose cost model applies to accesses of this region;
  /// none for local and parameter memory, which are not costed.
  std::optional<MemorySpace> space() const;
};
using RegionId = unsigned;

/// The value of an expression in one warp.
struct Value;
/// The fields of a struct value whose values the walk knows, by path
/// (".x", ".lo.y"): a local struct, a struct returned by a helper
/// (`make_uint2(q, r)`), an initializer list.
using FieldValues = std::map<std::string, Value>;

/// An integer made of a shared-memory address by bit operations, as a
/// wgmma matrix descriptor is (`((addr & 0x3FFFF) >> 4) | 1ull << 62`):
/// ((address >> Shift) | High), the address being Offset bytes into Region
/// in the shared window (below 2^SharedWindowBits), High holding no bit the
/// shifted address reaches. Only the instructions that read such an integer
/// decode it (interp/MatrixMultiply.cpp); to everything else it is opaque.
/// Without an address (HasAddress false) it is a 64-bit constant beyond
/// INT64_MAX (`3ull << 62`), which the per-lane integers cannot hold.
struct AddressCode {
  RegionId Region = 0;
  Poly Offset;
  unsigned Shift = 0;
  uint64_t High = 0;
  bool HasAddress = true;
  bool operator==(const AddressCode &O) const {
    return HasAddress == O.HasAddress && Region == O.Region && Offset == O.Offset &&
           Shift == O.Shift && High == O.High;
  }
};

struct Value {
  enum Kind { Int, Ptr, Unknown, Opaque } K = Opaque;
  Poly P;          // Int: the value; Ptr: byte offset into the region
  RegionId Region = 0;
  Reason Why; // Unknown: why it is not known
  /// Unknown pointers: the region, when only the offset is not known.
  std::optional<RegionId> Where;
  /// Opaque values of struct type: the fields known (none: null).
  std::shared_ptr<const FieldValues> Fields;
  /// Opaque integers made of a shared address by bit operations.
  std::shared_ptr<const AddressCode> Code;
  /// Opaque values the same on every lane (a float kernel parameter, a
  /// literal, arithmetic of such values): nonzero, and equal for values
  /// computed alike from the same inputs (a hash of how).
  uint64_t UniformId = 0;

  static Value integer(Poly P) { Value V; V.K = Int; V.P = std::move(P); return V; }
  static Value constant(int64_t C) { return integer(Poly::constant(C)); }
  static Value pointer(RegionId R, Poly Off) {
    Value V; V.K = Ptr; V.Region = R; V.P = std::move(Off); return V;
  }
  static Value unknown(Reason Why) { Value V; V.K = Unknown; V.Why = std::move(Why); return V; }
  static Value unknown(ReasonKind K, std::initializer_list<std::string> Args = {}) {
    return unknown(makeReason(K, Args));
  }
  static Value opaque() { return Value(); }
  static Value uniformOpaque(uint64_t Id) {
    Value V;
    V.UniformId = Id ? Id : 1;
    return V;
  }
  static Value encoded(AddressCode C, uint64_t UniformId) {
    Value V;
    V.UniformId = UniformId;
    V.Code = std::make_shared<const AddressCode>(std::move(C));
    return V;
  }
  static Value aggregate(FieldValues F) {
    Value V;
    if (!F.empty())
      V.Fields = std::make_shared<const FieldValues>(std::move(F));
    return V;
  }
  bool isInt() const { return K == Int; }
  bool isPtr() const { return K == Ptr; }
  bool sameAs(const Value &O) const;
};

/// What an lvalue expression designates.
struct LValue {
  enum Kind {
    None,       // nothing we track (a temporary, a local struct field)
    Var,        // a local variable or parameter of frame FrameIdx
    Mem,        // memory: region + byte offset (Offset may be unknown)
    ParamField, // a (sub-)field of a kernel parameter passed by value
    Unknown     // memory at an address we cannot know
  } K = None;
  const clang::VarDecl *VarD = nullptr;
  unsigned FrameIdx = 0;
  std::string FieldPath;  // Var: ".x.y" for fields of a local struct
  Value Ptr;              // Mem: pointer value (Unknown if the offset is not known)
  std::optional<RegionId> UnknownRegion; // Unknown: region if known
  const clang::ParmVarDecl *Param = nullptr;
  std::string ParamPath;  // ParamField: ".x"
  Reason Why;
  /// Subscripts applied to a declared array (shared-memory padding what-ifs):
  /// the index of each dimension, outermost first.
  std::vector<Poly> Subscripts;
  const clang::VarDecl *ArrayDecl = nullptr;
  /// A one-dimensional array indexed `row * K + column` (ast/AstUtil.h,
  /// splitRowIndex): K, and Subscripts are the row and the column.
  int64_t RowLength = 0;
};

/// One warp-level memory instruction, as the interpreter saw it.
/// One side of an instruction: the memory it reads or writes there. Most
/// instructions have one side, the event's own fields; an instruction that
/// reads one space and writes another (an asynchronous copy from global to
/// shared memory, cp.async / LDGSTS) has a second (AccessEvent::SecondSide),
/// with its own space, region, per-lane offsets and width, on the same lanes.
struct AccessSide {
  AccessOp Op;
  MemorySpace Space;
  std::optional<RegionId> Region;
  Poly Offset;
  unsigned Width = 0;
  std::vector<Poly> Subscripts; // for declared shared arrays
  const clang::VarDecl *ArrayDecl = nullptr;
  /// The operand that gives this side's address, when not the event's Site
  /// (an asynchronous copy's destination), and the term of it that spreads
  /// the lanes.
  const clang::Expr *Site = nullptr;
  std::string Because;
};

/// Accesses of one thread that read (write) the adjacent pieces of an
/// aligned block, each emitted as its own narrower instruction where one
/// instruction of the block's width would do (interp/models/EmittedCode.cpp,
/// noteVectorChances()); carried by the first of them.
struct VectorChanceEvent {
  unsigned Width = 0;            // bytes one instruction would take per lane
  std::vector<int64_t> Members;  // the accesses' offsets from this one's (0 first)
  int64_t Start = 0;             // the block's offset from this one's
  unsigned FirstLine = 0, LastLine = 0;
  std::string Emitted;           // "4 LDG.E"
  std::string Pointer;           // `p`, or empty (not one named pointer)
  std::string PointerType;       // "const float *"
  int64_t ProvenAlign = 0;       // what the compiler can prove of the pointer
};

struct AccessEvent {
  const clang::Expr *Site = nullptr;
  /// Where the access is reported, when not at Site: an access inside a
  /// system header (the CUDA toolkit, the standard library) is reported in
  /// the user's code that leads to it (Calls.cpp, attributeToUserCode).
  const clang::Expr *ReportAt = nullptr;
  /// Where the finding is shown, when the access is in a helper that only
  /// dereferences the address (or reference) its caller gives it (llm.c's
  /// load128/store128): that argument, in the caller (Calls.cpp,
  /// callerChosenAddress). The access itself stays at Site (the line
  /// Nsight Compute attributes it to).
  const clang::Expr *BlameAt = nullptr;
  /// The helper whose parameter it is ("load128").
  std::string BlameHelper;
  AccessOp Op = AccessOp::Load;
  std::string ContextKey;  // call chain identity
  std::string ContextText; // "in 'helper' called at f.cu:30"
  MemorySpace Space = MemorySpace::Global;
  std::optional<RegionId> Region;
  Poly Offset;             // bytes from the region base (incl. chunk offset)
  unsigned Width = 0;      // bytes per lane of this instruction
  unsigned Chunk = 0, Chunks = 1;
  clang::QualType AccessType;
  LaneMask Active = 0;
  double Weight = 1;       // requests this event stands for
  bool RequestsKnown = true;
  std::string RequestsWhy; // why not: "the loop at line 6 runs ..."
  /// Weight stands for one iteration of a loop whose trip count is not
  /// known, or one warp of those taking a branch, not a count of requests
  /// (the walker's RequestsKnown when it emitted the event; a model that
  /// does not know how often nvcc issues the access leaves it as it is).
  bool Uncounted = false;
  Reason UnknownWhy;       // address not known
  Reason MaskWhy;          // active lanes depend on data
  std::vector<Assumption> Assumptions;
  std::string Because;     // index term that spreads the lanes
  int64_t StructSize = 0;  // the access is a field of a struct this big
  std::vector<Poly> Subscripts; // for declared shared arrays
  const clang::VarDecl *ArrayDecl = nullptr;
  int64_t RowLength = 0;        // LValue::RowLength
  /// The instruction's other side, if it has two (AccessSide): each side is
  /// costed in its own space and reported as its own record at Site (an
  /// asynchronous copy is a global load and a shared store).
  std::optional<AccessSide> SecondSide;
  /// The instruction, when its cost is not a plain load's or store's
  /// (model/Instructions.h): an asynchronous copy (LDGSTS, two sides) or a
  /// matrix load or store (LDSM/STSM, of Matrices matrices), from inline PTX
  /// (interp/InlineAsm.cpp).
  InstrKind Instr = InstrKind::Plain;
  unsigned Matrices = 0;
  /// Rules of a contract the access breaks (a TMA copy's map or
  /// destination, a reader of a tile a TMA copy swizzled): model/TensorMap.h.
  std::vector<ContractBreak> Contract;
  /// An asynchronous copy's other side, once the sides are split for their
  /// costs (cost/Aggregate.cpp): each side's cost depends on both.
  std::optional<RegionId> PartnerRegion;
  Poly PartnerOffset;
  /// The compiler witness (interp/models/EmittedCode.cpp): which witness
  /// decided the event, the line nvcc put its instruction on when not the
  /// site's own (0: the site's), and what the join changed.
  Witnessed Witness = Witnessed::SourceOnly;
  unsigned ReportLine = 0;
  /// The statement the walker was running when it emitted the access, and
  /// the function (for the witness's search of lines, without clang's
  /// parent map).
  const clang::Stmt *Statement = nullptr;
  const clang::FunctionDecl *Function = nullptr;
  std::string WitnessNote;
  std::optional<VectorChanceEvent> Chance;
  bool ChanceMember = false; // another access's Chance counts this one
  /// A load nvcc moves after the first test of this loop (a `for` or
  /// `while` statement; models/LoadSinking.cpp): issued when the loop
  /// starts, by the lanes that enter it.
  const clang::Stmt *SinkLoop = nullptr;
  /// Barriers, fences and warp exchanges the warp ran before the access:
  /// the compiler moves no access across one.
  unsigned Epoch = 0;
  /// The event of the second side alone, with the first's lanes, weight,
  /// site, context and assumptions.
  AccessEvent secondSide() const;
};

class EventSink {
public:
  virtual ~EventSink() = default;
  virtual void record(const AccessEvent &E) = 0;
  /// The same, for an event the walker no longer needs (a sink that keeps
  /// events moves it instead of copying).
  virtual void take(AccessEvent &&E) { record(E); }
};

struct InterpreterLimits {
  uint64_t MaxSteps = 20'000'000;    // per kernel and launch, all warps
  unsigned MaxConcreteIterations = 1024; // per loop, before going symbolic
  /// Counted loops: issue alike iterations without running them, and go
  /// symbolic at once past MaxConcreteIterations (interp/LoopSummary.cpp).
  /// Off: every iteration is walked (the records are the same).
  bool SummarizeLoops = true;
  /// Warps of a 1-D block walked as one where their walks are alike
  /// (Analysis.cpp, walkWarps()). Off: every warp is walked (the records
  /// are the same).
  bool AlikeWarps = true;
  /// A call that reads only its arguments and changes nothing is answered
  /// from an earlier one with the same values (interp/CallMemo.cpp). Off:
  /// every call is walked (the records are the same; only the steps
  /// counted differ, so a walk may run out of steps only with it off).
  bool CallMemo = true;
  unsigned MaxCallDepth = 48;
  unsigned MaxExprDepth = 1500;
};

struct BudgetExceeded {
  std::string What;
};

/// A walk standing for several warps (KernelRun::SymbolicWarps) that cannot
/// be used, given up before its end: it asked for a cut between blocks,
/// for more cuts between its warps than are worth walking apart, or read a
/// warp's offsets as the first warp's.
struct WarpsNotAlike {};

/// State shared by the warps of one kernel launch.
/// Where the walk went, for the check that no access vanishes
/// (ast/AccessSites.h): statements and expressions evaluated with at least
/// one active lane, and the lvalues the walk understood (memory accesses,
/// registers, parameters), without parentheses and implicit casts.
struct CoverageLog {
  llvm::DenseSet<const clang::Stmt *> Visited;
  llvm::DenseSet<const clang::Expr *> Reached;
  /// Inert regions (InertRegion) whose statements were all visited: later
  /// runs may skip them.
  llvm::DenseSet<const clang::Stmt *> InertCovered;
};

/// A statement or loop that only computes floating-point registers
/// (interp/models/InertCode.cpp): running it changes nothing the analysis reports
/// beyond making its float targets opaque.
struct InertRegion {
  bool Ok = false;
  /// Subscripted arrays or pointers, with the access: each must designate
  /// a per-thread array kept in registers when the region runs.
  std::vector<std::pair<const clang::VarDecl *, const clang::Expr *>> Bases;
  /// Local scalars and struct fields outside the region it assigns.
  std::vector<const clang::Expr *> Targets;
  /// The statements of the region (for the coverage log).
  std::vector<const clang::Stmt *> Stmts;
};
InertRegion inertRegion(clang::ASTContext &Ctx, const clang::Stmt *S);

/// A box of blocks of a known grid: blockIdx.{x,y,z} in [Lo, Hi) per axis.
struct BlockBox {
  int64_t Lo[3] = {0, 0, 0}, Hi[3] = {1, 1, 1};
  int64_t blocks() const { return (Hi[0] - Lo[0]) * (Hi[1] - Lo[1]) * (Hi[2] - Lo[2]); }
  std::string str() const; // "blockIdx.x in [3, 4)"
};

/// A box a TMA copy wrote into shared memory (interp/TensorCopies.cpp): its
/// readers are checked against its swizzle.
struct TensorCopyLayout {
  RegionId Region = 0;
  int64_t Offset = 0; // of the box in the region
  int64_t Bytes = 0;
  unsigned Span = 0;  // the swizzle's span (0: none)
  std::string Swizzle, MapAt, CopyAt; // the mode's name, "f.cu:12", "f.cu:30"
};

struct KernelRun {
  clang::ASTContext &Ctx;
  const clang::FunctionDecl *Kernel;
  LaunchFacts Launch;
  InterpreterLimits Limits;
  SymbolTable Syms;
  std::vector<MemRegion> Regions;
  /// The boxes TMA copies wrote, for all warps' walks.
  std::vector<TensorCopyLayout> TensorCopies;
  EventSink *Sink = nullptr;
  uint64_t Steps = 0;
  /// Walks of a warp made (interpretWarp()), one standing for several
  /// warps included.
  unsigned Walks = 0;
  /// Warps formed threadIdx.y fastest: the kernel as it would run with the
  /// roles of x and y exchanged (model/WarpModel.h, cost/ThreadSwap.h).
  bool WarpsYFirst = false;
  /// Non-empty after a budget ran out: the kernel is walked again only to
  /// list its accesses, each reported unknown for this reason; nesting past
  /// MaxExprDepth then yields unknown values instead of stopping the walk.
  std::string Salvage;
  /// Non-null: the walk logs where it went.
  CoverageLog *Coverage = nullptr;
  /// With a known grid: the blocks this walk stands for. blockIdx is a
  /// symbol ranging over them (a constant when the box is one block wide),
  /// and a comparison whose outcome differs between those blocks asks for
  /// the box to be cut (Cuts: axis and first value of the upper part).
  std::optional<BlockBox> Blocks;
  std::vector<std::pair<int, int64_t>> Cuts;
  std::map<SymbolId, int> BlockAxis;
  /// Set: the walk stands for warps [first, second) of a 1-D block at
  /// once, threadIdx.x = 32 * w + lane with w the symbol WarpSymbol
  /// ranging over them. A comparison whose outcome differs between those
  /// warps asks for a cut on axis WarpAxis; a decision that would read w
  /// as if it were warp `first` (a heuristic on constants) gives the walk
  /// up (WarpsNotAlike; Analysis.cpp, walkWarps()).
  std::optional<std::pair<int64_t, int64_t>> SymbolicWarps;
  std::optional<SymbolId> WarpSymbol;
  static constexpr int WarpAxis = 3;
  /// A walk standing for several warps is given up (WarpsNotAlike) when it
  /// asks for more distinct cuts between them than this.
  static constexpr size_t MaxWarpCuts = 7;
  /// Source text of expressions (exprText), computed once for all warps:
  /// reasons and symbol names quote it at every evaluation.
  llvm::DenseMap<const clang::Expr *, std::string> Texts;
  /// The stated facts (LaunchFacts::Stated) the walk used, as given.
  std::set<std::string> StatedUsed;
  /// Accesses of per-thread arrays whose subscripts the compiler knows (no
  /// local-memory record), decided once for all warps and iterations.
  llvm::DenseMap<const clang::Expr *, bool> StaticSubscripts;
  /// The `for` loop declaring each counter, listed per function on demand.
  llvm::DenseSet<const clang::FunctionDecl *> ForInitScanned;
  llvm::DenseMap<const clang::VarDecl *, const clang::ForStmt *> ForInitOf;
  /// A counted loop's shape (`for (v = a; v < b; v += s)`, interp/Loops.cpp
  /// countedLoop()), read once per loop for all warps; V null: not one.
  struct CountedLoop {
    const clang::VarDecl *V = nullptr;
    const clang::Expr *Bound = nullptr;
    const clang::Expr *Step = nullptr; // null: 1
    bool Down = false;                 // `v -= s`, `--v`
    CmpOp Op = CmpOp::LT;              // v Op Bound
    /// ast/AffineLoop.h's iterationsAlike(), asked once when needed.
    std::optional<bool> Alike;
  };
  llvm::DenseMap<const clang::Stmt *, CountedLoop> CountedLoops;
  /// The loop each plain load moves into (interp/models/LoadSinking.cpp;
  /// null: none), decided once per load for all warps, and the parents of
  /// the statements of each function it searched.
  llvm::DenseMap<const clang::Expr *, const clang::Stmt *> SinkTargets;
  llvm::DenseMap<const clang::FunctionDecl *, std::shared_ptr<clang::ParentMap>> BodyParents;
  /// Which statements are inert regions, decided once (interp/models/InertCode.cpp).
  llvm::DenseMap<const clang::Stmt *, InertRegion> Inert;
  /// Accesses ptxas may merge with an adjacent one into a wider
  /// instruction, by site and operation: each is reported unknown, with
  /// this reason (interp/models/SharedMerges.cpp noteMergeable()).
  std::map<std::pair<const clang::Expr *, AccessOp>, Reason> Mergeable;
  /// Each branch's accesses written alike in both of its sides, with the
  /// other side's (interp/models/Hoisting.cpp), listed once.
  llvm::DenseMap<const clang::IfStmt *,
                 std::vector<std::tuple<const clang::Expr *, AccessOp, const clang::Expr *>>>
      BranchTwins;
  /// Each loop's loads that nvcc may hoist (mapped to null) or keep in a
  /// register between iterations (mapped to the store that writes the
  /// value back), interp/models/Hoisting.cpp.
  llvm::DenseMap<const clang::Stmt *, std::map<const clang::Expr *, const clang::Expr *>>
      Hoistable;

  /// The memory instructions nvcc emitted for this kernel, by source line
  /// (driver/Witness.h); null: the source analysis alone.
  const witness::LineInventory *Emitted = nullptr;

  KernelRun(clang::ASTContext &Ctx, const clang::FunctionDecl *Kernel,
            LaunchFacts Launch, InterpreterLimits Limits)
      : Ctx(Ctx), Kernel(Kernel), Launch(std::move(Launch)), Limits(Limits) {}

  RegionId addRegion(MemRegion R);
  /// Region for a declaration (shared array, kernel parameter...), created once.
  RegionId regionFor(const void *Key, MemRegion R);
  std::map<const void *, RegionId> RegionByKey;
  /// The variables standing for objects under construction, by type
  /// (WarpInterp::objectVar).
  llvm::DenseMap<const clang::Type *, const clang::VarDecl *> ObjectVars;
  /// The variables standing for temporary objects, by expression.
  llvm::DenseMap<const clang::Expr *, const clang::VarDecl *> TemporaryVars;
};

/// Runs the kernel of `Run` for warp `Warp` of the block (or, with an unknown
/// block shape, for a generic warp).
void interpretWarp(KernelRun &Run, unsigned Warp);

/// An event of a walk standing for several warps (KernelRun::SymbolicWarps,
/// threadIdx.x = 32 * W + lane) as warp Warp issues it: W replaced by Warp
/// in its addresses (interp/AlikeWarps.cpp).
AccessEvent eventAtWarp(const AccessEvent &E, SymbolId W, int64_t Warp);
/// How far P moves from one warp to the next in a walk standing for
/// several (its warp symbol W), when by the same amount on every lane of
/// Active and at every warp; none otherwise.
std::optional<int64_t> warpStep(const Poly &P, SymbolId W, LaneMask Active);
/// Whether two events are the same in every part but their addresses (the
/// offset, the subscripts' values, the second side's and the partner's),
/// which the two compare below.
bool sameBesidesAddresses(const AccessEvent &A, const AccessEvent &B);
/// Whether two events are the same in every part.
bool sameEvent(const AccessEvent &A, const AccessEvent &B);

/// The limits of a salvage walk (KernelRun::Salvage): loops are not run
/// concretely and calls nest at most a few deep, so the walk is short.
InterpreterLimits salvageLimits(const InterpreterLimits &L);

} // namespace coalesce

#endif // COALESCE_ANALYZER_INTERP_INTERPRETER_H

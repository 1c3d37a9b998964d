//===- HostInterp.h - An abstract interpreter for host code ----------------===//
//
// What a kernel launch passes (grid, block, arguments) is computed by running
// the host code that leads to it, abstractly, over the values of HostValue.h.
// The walk starts at the roots of the file's call graph (functions that reach
// a launch and that nothing in the file calls: main, a wrapper called from
// another file) with unknown parameters, and follows the code as it runs:
//
//   - statements in order; `if` and `?:` take the known side, or both sides
//     and join them; a condition `x == C` or a `case C:` teaches x == C on
//     that path (so `switch (threads) { case 512: k<512><<<g, b>>>` knows
//     b = dim3(threads) = 512 there);
//   - loops: run iteration by iteration while the condition is known (a
//     bounded number of steps), else to a fixpoint where every value the
//     loop changes is unknown, and a launch in the body sees that state;
//     an inner loop too long for its share of the budget (a quarter of what
//     the run around it has left) goes to a fixpoint by itself;
//   - calls to functions with a body in the file are entered with their
//     arguments bound (references and pointers to locals write back), so
//     wrappers and helpers that compute a shape are followed, once per
//     calling context: several values reaching a launch give several
//     launch configurations;
//   - calls to functions without a body may change what they are given the
//     address of (cudaMalloc(&p) gives p the start of an allocation;
//     fscanf(f, "%d", &n) makes n unknown); a few have known results
//     (min, max, ceil, cudaGetDeviceProperties' fields that are the same on
//     every GPU CUDA 13 supports: maxThreadsPerBlock 1024, warpSize 32, ...).
//
// Each launch reached records what is known there (LaunchSeen). Budgets on
// steps, loop lengths and call depth keep the walk cheap; where they run
// out, values become unknown, never wrong.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_LAUNCH_HOSTINTERP_H
#define COALESCE_ANALYZER_LAUNCH_HOSTINTERP_H

#include "launch/HostValue.h"
#include "model/TensorMap.h"
#include "model/WarpModel.h"
#include "report/Reasons.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace coalesce {
namespace host {

/// One launch as a walk of the host code reached it.
struct LaunchSeen {
  const clang::Expr *Site = nullptr; // the <<<...>>> call or cudaLaunchKernel(...)
  /// Null on a placeholder: a launch whose kernel differs between the
  /// sides of the branch SplitAt, until the walk is run once per side.
  const clang::FunctionDecl *Kernel = nullptr;
  std::optional<Dim3> Grid, Block; // when every component is known
  Reason BlockWhy;                 // why the block shape is not known
  /// Without Block: the dimensions that are known (0: not known).
  int64_t BlockPart[3] = {0, 0, 0};
  std::vector<HVal> Args;          // one per kernel parameter (unknown: not known)
  std::set<std::string> Stated;    // host variables given a stated value on the way
  /// Per kernel parameter: the least value the path's checks allow, where
  /// the value is not known but bounded below (`if (n < 64) abort();`).
  std::vector<std::optional<Wide>> ArgMin;
  /// Where each bound was checked, for notes ("f.cu:12").
  std::vector<std::string> ArgMinAt;
  /// The branch (`?:` or if/else) whose sides differ in the block shape,
  /// when that is why it is not known: the walk is run again once per side.
  const clang::Stmt *SplitAt = nullptr;
  /// The sides taken on a walk run again that way, for notes: "when
  /// `c` at f.cu:12 is true".
  std::string Choice;
  /// Per parameter index: the tensor map (CUtensorMap) an encode call of
  /// the walk made (tensorMapEncode()).
  std::map<unsigned, TensorMapEncoding> TensorMaps;
};

/// The same launch configuration, as far as the walk tells them apart.
bool sameLaunch(const LaunchSeen &A, const LaunchSeen &B);

struct HostLimits {
  unsigned StepsPerRoot = 300000;  // expressions and statements per root walk
  unsigned TotalSteps = 1500000;  // for the whole file (about 1 µs each)
  unsigned LoopSteps = 20000;     // running one loop iteration by iteration
  unsigned LaunchLoopSteps = 100000; // the same, for a loop that reaches a launch
  unsigned MaxCallDepth = 12;
  unsigned MaxSeenPerSite = 64;    // beyond: one launch with what they share
  unsigned MaxAggregate = 64;      // larger arrays are not tracked element-wise
  unsigned MaxSplits = 2;          // branches a block shape is split on (walkRoot)
  unsigned MaxSplitPoints = 8;     // branches split on per walk
  unsigned MaxFields = 512;        // nor structs with more fields
  /// Values the user stated (`--assume NAME=V`, launch/StatedFacts.h) for
  /// host variables the code cannot know: a variable or parameter of that
  /// name that is given an unknown value (from argv, a file) takes V
  /// instead. A value the code computes is kept.
  std::map<std::string, int64_t> Stated;
};

/// The launch API calls understood, by callee name: cudaLaunchKernel,
/// cudaLaunchCooperativeKernel (func, grid, block, args, ...),
/// cudaLaunchKernelExC (config, func, args) and the variadic
/// cudaLaunchKernelEx (config, kernel, args...).
enum class LaunchApi { None, Kernel, Cooperative, ExC, ExVariadic };
LaunchApi launchApiOf(const clang::CallExpr *E);
/// std::forward and std::move, which give their argument as it is.
bool isStdForwardOrMove(const clang::FunctionDecl *FD);
/// The kernel a launch names directly (`k<<<...>>>`, `(void *)k`), if any.
const clang::FunctionDecl *directKernel(const clang::Expr *Site);

class HostInterp {
public:
  explicit HostInterp(clang::ASTContext &Ctx, HostLimits L = {});
  ~HostInterp();

  /// Runs Fn from its entry with unknown parameters. Called: code in the
  /// file calls Fn, but no walk reached it (the notes say why the
  /// parameters are unknown accordingly).
  ///
  /// A launch whose block shape is unknown only because the sides of a `?:`
  /// or an if/else give it different values (`bs = big ? 1024 : 768`) is
  /// walked again once per side, the branch taking that side every time it
  /// runs: each side's launch is a launch the program can make, with
  /// everything computed after the branch consistent with it. Up to
  /// MaxSplits branches deep.
  void walkRoot(const clang::FunctionDecl *Fn, bool Called = false);
  /// Evaluates one launch by itself (one no walk reached), in a state where
  /// only constants are known.
  void evaluateAlone(const clang::Expr *Site, const clang::FunctionDecl *Fn);

  /// Launch sites some walk recorded a launch at.
  std::set<const clang::Expr *> reachedSites() const;
  std::vector<LaunchSeen> takeSeen();

  // Implementation: the state of a walk and the transfer functions, split
  // over HostInterp.cpp (memory, frames, joins), HostStmts.cpp (statements,
  // loops), HostExprs.cpp (expressions) and HostCalls.cpp (calls, known
  // functions, launches).
  struct State {
    std::vector<HVal> Cells;
    std::map<const clang::VarDecl *, HVal> Globals;
    Bindings Bound;
    /// Lower bounds of symbols the path checked (`if (n < 64) abort();`,
    /// `assert(n >= 64)`): passed on to the kernels it launches as facts.
    std::map<SymId, Wide> Lower;
    llvm::DenseMap<const clang::VarDecl *, Loc> Vars; // the current frame's
    std::set<uint32_t> AddrTaken;                     // cells whose address escaped
    /// Cells of const objects (no mutable member): code the walk does not
    /// see cannot change them through an escaped address (that would be
    /// undefined behaviour).
    std::set<uint32_t> ConstCells;
    bool Live = true;
    bool operator==(const State &O) const;
    /// The same but for the cells from Keep on (those a loop's body
    /// allocated: its locals, its temporaries).
    bool sameUpTo(const State &O, size_t Keep) const;
  };

private:
  struct Frame {
    const clang::FunctionDecl *Fn = nullptr;
    std::optional<Loc> This;
    uint32_t Base = 0;
    std::set<const clang::VarDecl *> Volatile; // functions with goto: changed anywhere
    std::vector<State> Returns;
    std::vector<HVal> ReturnValues;
  };
  struct Jumps {
    bool Loop = false;
    std::vector<State> Breaks, Continues;
  };
  struct OutOfSteps {};
  struct GiveUp {
    uint64_t Limit;
  };
  /// Values an expression leaves behind that a caller may want (lvalues).
  struct LValue {
    std::optional<Loc> L;
    HVal Target; // when L is unknown: the pointer that was dereferenced
  };

  // HostInterp.cpp: steps, reasons, memory, joins.
  void walkOnce(const clang::FunctionDecl *Fn, bool Called);
  /// The walks again per side of the branches behind unknown block shapes
  /// of the launches Seen[From...] (walkRoot).
  void splitOnBranches(const clang::FunctionDecl *Fn, bool Called, size_t From, unsigned Depth);
  /// The side a split walk takes at branch S, if any.
  std::optional<bool> forcedSide(const clang::Stmt *S) const;
  /// "when `c` at f.cu:12 is true" for the sides a split walk takes.
  std::string forcedText() const;
  void step();
  /// The reason of kind K (a HOST_REASON of report/Reasons.def) with Args,
  /// kept once: equal reasons get the same id.
  WhyId why(ReasonKind K, std::vector<std::string> Args = {});
  /// why(K, {where(S)}): the kinds whose text ends "at {0}".
  WhyId whyAt(ReasonKind K, const clang::Stmt *S);
  const Reason &whyReason(WhyId W) const;
  std::string where(const clang::Stmt *S) const;
  IntType intType(clang::QualType T) const;
  HVal zeroOf(clang::QualType T, unsigned Depth = 0);
  /// V, or the value stated for the variable VD when V is not known.
  HVal withStated(const clang::ValueDecl *VD, HVal V, State &St);
  std::set<std::string> StatedUsed; // names withStated() applied in this walk
  size_t aggregateSize(clang::QualType T) const;
  uint32_t allocCell(State &St, HVal V);
  HVal *cellOf(State &St, const Loc &L, bool ForWrite);
  HVal read(State &St, const Loc &L, clang::QualType T);
  void write(State &St, const Loc &L, HVal V);
  void havocLoc(State &St, const Loc &L, clang::QualType Pointee, WhyId W);
  void havocEscaped(State &St, WhyId W);
  void markAddrTaken(State &St, const Loc &L);
  HVal globalInitial(const clang::VarDecl *VD);
  std::optional<Loc> varLoc(State &St, const clang::VarDecl *VD);
  State join(const State &A, const State &B, WhyId W);
  State joinAll(std::vector<State> &States, WhyId W);
  void bindSymbol(State &St, SymId S, Wide V);
  void refine(State &St, const clang::Expr *Cond, bool Truth);
  void refineBound(State &St, const clang::BinaryOperator *BO, bool Truth);
  /// Where each symbol's lower bound was last checked.
  std::map<SymId, std::string> LowerAt;
  HVal fromAPValue(const clang::APValue &V, clang::QualType T, unsigned Depth = 0);
  HVal fresh(const IntType &T, WhyId W);

  // HostStmts.cpp
  void exec(const clang::Stmt *S, State &St);
  void execDecl(const clang::VarDecl *VD, State &St);
  void execIf(const clang::IfStmt *S, State &St);
  void execSwitch(const clang::SwitchStmt *S, State &St);
  void execLoop(const clang::Stmt *Loop, const clang::Expr *Cond,
                const clang::DeclStmt *CondVar, const clang::Stmt *PreBody,
                const clang::Stmt *Body, const clang::Expr *Inc, bool BodyFirst,
                State &St);
  bool runLoopConcretely(const clang::Stmt *Loop, const clang::Expr *Cond,
                         const clang::DeclStmt *CondVar, const clang::Stmt *PreBody,
                         const clang::Stmt *Body, const clang::Expr *Inc, bool BodyFirst,
                         State &St);
  std::optional<bool> loopCondition(const clang::Expr *Cond, const clang::DeclStmt *CondVar,
                                    State &St);
  void havocStmt(const clang::Stmt *S, State &St, WhyId W);
  bool reachesLaunch(const clang::Stmt *S);

  // HostExprs.cpp
  HVal eval(const clang::Expr *E, State &St);
  HVal evalCast(const clang::CastExpr *E, State &St);
  HVal evalBinary(const clang::BinaryOperator *E, State &St);
  HVal evalUnary(const clang::UnaryOperator *E, State &St);
  HVal evalConditional(const clang::AbstractConditionalOperator *E, State &St);
  HVal evalInitList(const clang::InitListExpr *E, State &St);
  HVal evalLambda(const clang::LambdaExpr *E, State &St);
  HVal arith(clang::BinaryOperatorKind Op, const HVal &L, const HVal &R,
             clang::QualType OperandType, clang::QualType ResultType, WhyId W);
  HVal pointerAdd(const HVal &P, const HVal &N, clang::QualType Pointee, bool Subtract);
  LValue lvalue(const clang::Expr *E, State &St);
  HVal readLValue(const LValue &LV, State &St, clang::QualType T, const clang::Expr *E);
  void assign(const LValue &LV, HVal V, State &St, const clang::Expr *E);
  std::optional<bool> truth(const HVal &V) const;
  HVal convert(HVal V, clang::QualType From, clang::QualType To);

  // HostCalls.cpp
  HVal evalCall(const clang::CallExpr *E, State &St);
  HVal evalConstruct(const clang::CXXConstructExpr *E, State &St);
  HVal callFunction(const clang::FunctionDecl *FD, const clang::CallExpr *Call,
                    std::vector<const clang::Expr *> Args, std::optional<Loc> This,
                    const HVal *Closure, State &St, bool ObjectInAllocation = false);
  HVal enter(const clang::FunctionDecl *FD, std::vector<HVal> ArgVals,
             std::vector<std::optional<Loc>> ArgLocs, std::optional<Loc> This,
             const HVal *Closure, const clang::CXXConstructorDecl *Ctor, State &St);
  /// cuTensorMapEncodeTiled, called by name or through a pointer of its
  /// type (cudaGetDriverEntryPointByVersion): the map it writes holds, in
  /// the walk, which encode call made it (its first two opaque words: a
  /// mark and an index into EncodedMaps), the call's arguments there.
  std::optional<HVal> tensorMapEncode(const clang::CallExpr *Call, const std::vector<HVal> &Vals,
                                      State &St);
  /// The encoding a CUtensorMap value holds, if the walk made it.
  std::optional<TensorMapEncoding> encodingOf(const HVal &Map) const;
  std::vector<TensorMapEncoding> EncodedMaps;
  std::optional<HVal> knownFunction(const clang::FunctionDecl *FD, const clang::CallExpr *Call,
                                    const std::vector<HVal> &Vals, State &St);
  /// enter(), within a share of the budget left for a function that
  /// reaches no launch; nothing (and St as it was) when the share runs out.
  std::optional<HVal> enterWithinShare(const clang::FunctionDecl *FD,
                                       const std::vector<HVal> &ArgVals,
                                       const std::vector<std::optional<Loc>> &ArgLocs,
                                       std::optional<Loc> This, const HVal *Closure, State &St);
  bool canEnter(const clang::FunctionDecl *FD) const;
  HVal launch(const clang::Expr *Site, State &St);
  /// A launch whose kernel is not known because a branch's sides hold
  /// different ones: a placeholder that makes the walk split on it.
  void recordCalleeSplit(const clang::Expr *Site, const HVal &Callee, State &St);
  void record(const clang::Expr *Site, const HVal &Callee, const HVal &Grid,
              const HVal &Block, std::vector<HVal> Args, State &St);
  std::optional<Dim3> dim3Of(const HVal &V) const;

  clang::ASTContext &Ctx;
  HostLimits Limits;
  uint64_t Steps = 0, RootStart = 0, LoopLimit = ~uint64_t(0);
  bool Recording = true;
  bool RanOut = false; // some walk ran out of its budget of steps
  SymId NextSym = 1;
  std::vector<Reason> Whys{Reason()};
  std::map<std::string, WhyId> WhyIndex;
  std::vector<Frame> Frames;
  std::vector<Jumps *> JumpStack;
  std::vector<LaunchSeen> Seen;
  std::map<const clang::FunctionDecl *, bool> HasGoto;
  /// Loops that ran out of their budget running iteration by iteration in
  /// this walk, with the largest budget they had.
  std::map<const clang::Stmt *, uint64_t> FailedLoops;
  std::map<const clang::FunctionDecl *, bool> ReachesLaunch; // by definition
  /// Branches whose joins made a value unknown (HostConditionalDiffers,
  /// HostBranchesDiffer), by the reason's id.
  std::map<WhyId, const clang::Stmt *> BranchOf;
  /// The side each branch takes on a split walk, and the text of those
  /// choices for the launches it records.
  std::vector<std::pair<const clang::Stmt *, bool>> Forced;
};

} // namespace host
} // namespace coalesce

#endif // COALESCE_ANALYZER_LAUNCH_HOSTINTERP_H

//===- CompilerModel.h - What nvcc and ptxas do, as plug-ins of the walker ===//
//
// Private to interp/. The walker (Statements.cpp, Loops.cpp, Conditions.cpp,
// Expressions.cpp, Calls.cpp, Memory.cpp) runs the kernel as written; what
// the compiler makes of it (a load it does not issue again, loads it moves
// out of a loop, shared accesses it merges into wider instructions...) is
// known by compiler models, one class per piece of knowledge, each owning its
// state (interp/models/). The walker calls every model at fixed points, the
// hooks below, in the order of models/Models.def; a model acts on the hooks
// it needs (all are no-ops by default), in the manner of the checker
// callbacks of clang's Static Analyzer.
//
// A model sees the walker through the services of this base class only (the
// active lanes, the buffered events of the loop being run, text()...), not
// through WarpInterp's members.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_INTERP_COMPILERMODEL_H
#define COALESCE_ANALYZER_INTERP_COMPILERMODEL_H

#include "interp/Interpreter.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {
namespace interp {

class WarpInterp;
struct Frame;

/// How the walker runs a loop (Loops.cpp).
enum class LoopWalk {
  OverList,   // a range-for over a braced list, element by element
  Iterations, // iteration by iteration, with concrete values
  Symbolic    // once, for a symbolic iteration
};

/// A loop that ran: its events from Mark on are still buffered (Buffered),
/// to be handed on after the hook. K: the symbolic iteration (Symbolic);
/// EntryWeight, EntryKnown: the requests of one start of the loop.
struct LoopRun {
  const clang::Stmt *Loop;
  LoopWalk Walk;
  size_t Mark;
  std::optional<SymbolId> K;
  double EntryWeight = 1;
  bool EntryKnown = true;
  std::string EntryWhy; // why the requests at the loop's start are not known
};

/// What the walker knows of an access it is about to emit, besides the
/// event (Memory.cpp access()).
struct AccessFacts {
  AccessOp Op;
  std::optional<RegionId> Region;
  const LValue &LV;
  unsigned Width;     // bytes per instruction
  bool Plain;         // one instruction at a known address, not volatile
  const clang::Expr *Site;
};

class CompilerModel {
public:
  explicit CompilerModel(WarpInterp &I);
  virtual ~CompilerModel();
  CompilerModel(const CompilerModel &) = delete;
  CompilerModel &operator=(const CompilerModel &) = delete;

  // Statements (Statements.cpp exec()) -----------------------------------------
  /// Before S runs: true if the model accounts for S itself (nothing runs).
  virtual bool skip(const clang::Stmt *S) { return false; }
  /// A statement that is not straight-line code (a block, branch, loop,
  /// jump) begins / ends; also one that skip() left out.
  virtual void blockEnter(const clang::Stmt *S) {}
  virtual void blockExit(const clang::Stmt *S) {}
  /// After an expression statement or a `for` statement ran in full.
  virtual void ran(const clang::Stmt *S) {}

  // Branches (Statements.cpp, Expressions.cpp, Conditions.cpp) -----------------
  /// An if or switch statement begins (before its condition) / ends.
  virtual void branchEnter(const clang::Stmt *B) {}
  virtual void branchJoin(const clang::Stmt *B) {}
  /// An if statement whose two sides both run, on different lanes of the
  /// warp (before its sides run).
  virtual void branchDiverges(const clang::IfStmt *If) {}
  /// A side of a branch inside an expression (an arm of ?:, the right
  /// operand of && or ||) begins / ends.
  virtual void sideEnter(const clang::Expr *B) {}
  virtual void sideExit(const clang::Expr *B) {}

  // Calls (Calls.cpp) ----------------------------------------------------------
  /// A call begins (before its arguments) / ends.
  virtual void callEnter(const clang::CallExpr *CE) {}
  virtual void callExit(const clang::CallExpr *CE) {}
  /// A call that orders memory (a barrier, fence, atomic, warp exchange).
  virtual void orderingCall(const clang::CallExpr *CE) {}

  // Loops (Loops.cpp) ----------------------------------------------------------
  /// A loop walk begins / ends (also a walk given up, or left by an
  /// exception).
  virtual void loopEnter(const clang::Stmt *Loop, LoopWalk W) {}
  virtual void loopExit(const clang::Stmt *Loop, LoopWalk W) {}
  /// An iteration begins (an element of a list, a symbolic iteration).
  virtual void iterationBegin() {}
  /// A loop walk completed, its events still buffered.
  virtual void loopRan(const LoopRun &L) {}

  // Accesses (Memory.cpp access()) ---------------------------------------------
  /// An access to a per-thread array: true if it stays in registers (no
  /// event).
  virtual bool inRegisters(const clang::VarDecl *Array, const clang::Expr *Site) {
    return false;
  }
  /// An access about to be emitted (as one event per chunk): the model may
  /// mark it (E.UnknownWhy) or note it.
  virtual void access(AccessEvent &E, const AccessFacts &A) {}

  // The warp ------------------------------------------------------------------
  /// The warp's walk completed. With KernelRun::Emitted set, the walker
  /// holds every event of the warp back (Buffered, from 0) until after this
  /// hook: the compiler witness joins them with the instructions nvcc
  /// emitted (models/EmittedCode.cpp).
  virtual void warpRan() {}

protected:
  // The walker's services a model may use.
  clang::ASTContext &Ctx;
  KernelRun &R;
  const LaneMask &Active; // the lanes now running
  const LaneMask &Exists; // the lanes of the warp
  /// Events held back while loops run (LoopRun::Mark).
  std::vector<AccessEvent> &Buffered;
  /// Removes the buffered events from Mark on whose Drop entry is set.
  void dropBuffered(size_t Mark, const std::vector<bool> &Drop);
  /// exprText, memoized.
  std::string text(const clang::Expr *E);
  Frame *frameOf(const clang::VarDecl *VD);
  const std::deque<Frame> &frames() const;
  std::optional<int64_t> constantOf(const clang::Expr *E);
  /// A dry run (values only, no events).
  bool dry() const;
  void step();
  LValue evalLValue(const clang::Expr *E);
  void store(const LValue &LV, const Value &V, clang::QualType T, const clang::Expr *Site);
  /// Whether some model keeps this access to a per-thread array in registers.
  bool inRegistersByAnyModel(const clang::VarDecl *Array, const clang::Expr *Site);

private:
  WarpInterp &I;
};

/// The models of one warp's walk, in registration order (models/Models.def),
/// and the walker's calls to all of them.
class CompilerModels {
public:
  explicit CompilerModels(WarpInterp &I);
  ~CompilerModels();

  bool skip(const clang::Stmt *S) {
    for (auto &M : All)
      if (M->skip(S))
        return true;
    return false;
  }
  void blockEnter(const clang::Stmt *S) { each(&CompilerModel::blockEnter, S); }
  void blockExit(const clang::Stmt *S) { each(&CompilerModel::blockExit, S); }
  void ran(const clang::Stmt *S) { each(&CompilerModel::ran, S); }
  void branchEnter(const clang::Stmt *B) {
    record(Lasting::BranchEnter, B);
    each(&CompilerModel::branchEnter, B);
  }
  void branchJoin(const clang::Stmt *B) {
    record(Lasting::BranchJoin, B);
    each(&CompilerModel::branchJoin, B);
  }
  void branchDiverges(const clang::IfStmt *If) { each(&CompilerModel::branchDiverges, If); }
  void sideEnter(const clang::Expr *B) { each(&CompilerModel::sideEnter, B); }
  void sideExit(const clang::Expr *B) { each(&CompilerModel::sideExit, B); }
  void callEnter(const clang::CallExpr *CE) { each(&CompilerModel::callEnter, CE); }
  void callExit(const clang::CallExpr *CE) { each(&CompilerModel::callExit, CE); }
  void orderingCall(const clang::CallExpr *CE) {
    record(Lasting::Ordering, CE);
    each(&CompilerModel::orderingCall, CE);
  }

  /// The callbacks of a call's walk whose effect on the models outlasts the
  /// call when it makes no access (interp/CallMemo.cpp replays them where
  /// the memo answers the call): a branch ends SharedMerges' window, an
  /// ordering ends it and counts. The others leave nothing behind such a
  /// call: block, side and call boundaries and iterations only empty
  /// LoadReuse's loads (none are made, and the call's own boundaries run
  /// anyway), loops' enter and exit are pairs, a loop without events notes
  /// nothing, ran() marks inert code covered (a cache), and what
  /// branchDiverges() adds is counted (KernelRun::Mergeable). A model whose
  /// callback leaves more must be recorded here.
  struct Lasting {
    enum Kind : uint8_t { BranchEnter, BranchJoin, Ordering } K;
    const clang::Stmt *S;
  };
  /// Where they are recorded now (none: nowhere); Overflowed when more
  /// than MaxLasting were.
  std::vector<Lasting> *Trace = nullptr;
  bool Overflowed = false;
  static constexpr size_t MaxLasting = 256;
  void replay(const std::vector<Lasting> &T);
  void loopEnter(const clang::Stmt *L, LoopWalk W) { each(&CompilerModel::loopEnter, L, W); }
  void loopExit(const clang::Stmt *L, LoopWalk W) { each(&CompilerModel::loopExit, L, W); }
  void iterationBegin() { each(&CompilerModel::iterationBegin); }
  void loopRan(const LoopRun &L) { each(&CompilerModel::loopRan, L); }
  bool inRegisters(const clang::VarDecl *Array, const clang::Expr *Site) {
    for (auto &M : All)
      if (M->inRegisters(Array, Site))
        return true;
    return false;
  }
  void access(AccessEvent &E, const AccessFacts &A) {
    ++Accesses;
    for (auto &M : All)
      M->access(E, A);
  }
  /// Accesses handed to the models so far (interp/LoopSummary.cpp: the
  /// iterations run after a summary refill what the models remember).
  uint64_t Accesses = 0;
  void warpRan() { each(&CompilerModel::warpRan); }

  void record(Lasting::Kind K, const clang::Stmt *S) {
    if (!Trace)
      return;
    if (Trace->size() >= MaxLasting)
      Overflowed = true;
    else
      Trace->push_back({K, S});
  }

  /// Enter(X) now, Exit(X) when the scope ends (an exception included).
  template <typename T> struct Scope {
    CompilerModels &Ms;
    void (CompilerModels::*Exit)(T);
    T X;
    Scope(CompilerModels &Ms, void (CompilerModels::*Enter)(T), void (CompilerModels::*Exit)(T),
          T X)
        : Ms(Ms), Exit(Exit), X(X) {
      (Ms.*Enter)(X);
    }
    ~Scope() { (Ms.*Exit)(X); }
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;
  };
  /// loopEnter now, loopExit when the scope ends.
  struct LoopScope {
    CompilerModels &Ms;
    const clang::Stmt *Loop;
    LoopWalk W;
    LoopScope(CompilerModels &Ms, const clang::Stmt *Loop, LoopWalk W)
        : Ms(Ms), Loop(Loop), W(W) {
      Ms.loopEnter(Loop, W);
    }
    ~LoopScope() { Ms.loopExit(Loop, W); }
    LoopScope(const LoopScope &) = delete;
    LoopScope &operator=(const LoopScope &) = delete;
  };

private:
  std::vector<std::unique_ptr<CompilerModel>> All;
  template <typename F, typename... A> void each(F Hook, A &&...Args) {
    for (auto &M : All)
      ((*M).*Hook)(Args...);
  }
};

// One factory per model (models/Models.def).
#define COMPILER_MODEL(Name) std::unique_ptr<CompilerModel> make##Name(WarpInterp &I);
#include "interp/models/Models.def"
#undef COMPILER_MODEL

} // namespace interp
} // namespace coalesce

#endif // COALESCE_ANALYZER_INTERP_COMPILERMODEL_H

//===- CallMemo.cpp - Calls evaluated once per argument values ------------===//
//
// Template libraries compute an address through dozens of nested calls
// (CuTe's `tensor(m, k)`: a layout's operator(), crd2idx, tuple transforms,
// getters), and the same calls recur with the same arguments: every (m, k)
// of a register tile is indexed again for each n, each pass of a loop's
// probe walks its body again. A call that reads nothing but its arguments
// and changes nothing gives the same result for the same argument values;
// the walker keeps it and answers the next such call without walking the
// callee (a step, not thousands).
//
// What the callee can read is its key: the callee, the active lanes, the
// value of each by-value parameter (a struct's known fields included), and
// for a `const&` parameter or the object of a const method, the whole
// object it designates (a local object's value and fields; a kernel
// parameter, which the walk never changes, by name). A call is not kept
// when it might see more: a non-const reference or method, a constructor,
// a pointer into a local object, an unknown value, cooperative groups. What
// it did is checked after its walk, not assumed: it is kept only when it
// attempted no memory access (a load through any pointer, dry or not), ran
// no barrier, made no symbol, region, assumption or explanation the walk
// keeps, left the control state as it was, and went no deeper than the call
// depth allows. The statements it visited are kept with it, for the check
// that no access site vanishes (ast/AccessSites.h), and marked again where
// the memo answers a call in a walk that counts.
//
// The memo belongs to one warp's walk: the lanes' indices are part of every
// value. It changes no answer, only the steps counted: a walk that runs out
// of steps without it may finish with it.
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"

#include "clang/AST/DeclCXX.h"

#include <algorithm>
#include <charconv>

using namespace clang;

namespace coalesce {
namespace interp {

namespace {

void appendNumber(std::string &K, uint64_t V) {
  char Buf[24];
  auto R = std::to_chars(Buf, Buf + sizeof Buf, V);
  K.append(Buf, R.ptr);
}

void appendPointer(std::string &K, const void *P) {
  appendNumber(K, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(P)));
}

} // namespace

void WarpInterp::CallCoverage::addStatements(const CallCoverage &O) {
  Visited.insert(Visited.end(), O.Visited.begin(), O.Visited.end());
  Reached.insert(Reached.end(), O.Reached.begin(), O.Reached.end());
}

void WarpInterp::CallCoverage::dedupe() {
  std::sort(Visited.begin(), Visited.end());
  Visited.erase(std::unique(Visited.begin(), Visited.end()), Visited.end());
  std::sort(Reached.begin(), Reached.end());
  Reached.erase(std::unique(Reached.begin(), Reached.end()), Reached.end());
}

bool WarpInterp::appendKey(const Value &V, std::string &K) const {
  // Whatever else a value carries, in case a reader looks at it.
  if (!V.Why.empty()) {
    K += 'w';
    K += V.Why.Text;
    K += '\0';
  }
  if (V.Where) {
    K += 'r';
    appendNumber(K, *V.Where);
  }
  switch (V.K) {
  case Value::Unknown:
    return false; // its reason may name where it came from
  case Value::Int:
    K += 'i';
    K += V.P.key();
    return true;
  case Value::Ptr:
    // (A pointer into a local object: reading the object through it is an
    // access, which a walk that is kept did not make.)
    K += 'p';
    appendNumber(K, V.Region);
    K += ':';
    K += V.P.key();
    return true;
  case Value::Opaque:
    if (V.Code)
      return false;
    K += 'o';
    appendNumber(K, V.UniformId);
    if (V.Fields) {
      K += '{';
      for (const auto &[Path, F] : *V.Fields) {
        K += Path;
        K += '=';
        if (!appendKey(F, K))
          return false;
      }
      K += '}';
    }
    return true;
  }
  return false;
}

bool WarpInterp::appendObjectKey(const LValue &LV, std::string &K) const {
  switch (LV.K) {
  case LValue::Mem:
    // An object in memory: its address. Reading or writing it is an access,
    // which a walk that is kept did not make (a method that only computes
    // the address of a member, `data()`, is kept).
    if (!LV.Subscripts.empty() || LV.ArrayDecl)
      return false;
    K += 'M';
    return appendKey(LV.Ptr, K);
  case LValue::ParamField:
    // A kernel parameter's parts: the launch's values, never changed.
    K += 'P';
    appendPointer(K, LV.Param);
    K += LV.ParamPath;
    return true;
  case LValue::None:
    // A temporary the walk does not track: whatever is read of it, the
    // walk reads the same.
    K += 'N';
    return true;
  case LValue::Var: {
    if (LV.FrameIdx >= Frames.size())
      return false;
    const Frame &F = Frames[LV.FrameIdx];
    if (F.Refs.count(LV.VarD) || F.Groups.count(LV.VarD))
      return false;
    // Which object (a reference the call returns may designate it), and
    // all of its value.
    K += 'V';
    appendNumber(K, LV.FrameIdx);
    K += '.';
    appendPointer(K, LV.VarD);
    K += LV.FieldPath;
    K += '{';
    if (LV.FieldPath.empty()) {
      if (auto It = F.Vars.find(LV.VarD); It != F.Vars.end()) {
        if (!appendKey(It->second, K))
          return false;
      } else {
        K += '-';
      }
    }
    // Every part of the object the walk knows: fields, elements, nested.
    for (auto It = F.Fields.lower_bound({LV.VarD, LV.FieldPath});
         It != F.Fields.end() && It->first.first == LV.VarD; ++It) {
      const std::string &Path = It->first.second;
      if (Path.compare(0, LV.FieldPath.size(), LV.FieldPath) != 0)
        break;
      if (Path.size() > LV.FieldPath.size() && Path[LV.FieldPath.size()] != '.' &&
          Path[LV.FieldPath.size()] != '[')
        continue; // ".ab" after ".a": another field
      K += Path;
      K += '=';
      if (!appendKey(It->second, K))
        return false;
    }
    K += '}';
    return true;
  }
  default:
    return false;
  }
}

std::optional<std::string> WarpInterp::callMemoKey(const Frame &NF,
                                                   std::vector<std::pair<LValue, std::string>> &Changeable) {
  const FunctionDecl *Def = NF.FD;
  if (!R.Limits.CallMemo || !Def || isa<CXXConstructorDecl>(Def) || isa<CXXDestructorDecl>(Def) ||
      Def->getReturnType()->isVoidType() ||
      !NF.Groups.empty() || CallMemo.size() >= MaxMemoEntries)
    return std::nullopt;
  // The objects the callee may change (a non-const method's, a non-const
  // reference's): each one's key again after the walk must be the same.
  auto *MD = dyn_cast<CXXMethodDecl>(Def);
  const bool ThisChangeable = MD && !MD->isStatic() && !MD->isConst();
  std::string K;
  K.reserve(256);
  appendPointer(K, Def);
  K += '@';
  appendNumber(K, Active);
  if (NF.This) {
    K += 'T';
    const size_t From = K.size();
    if (!appendObjectKey(*NF.This, K))
      return std::nullopt;
    if (ThisChangeable)
      Changeable.push_back({*NF.This, K.substr(From)});
  }
  for (const ParmVarDecl *PD : Def->parameters()) {
    K += '|';
    if (auto It = NF.Refs.find(PD); It != NF.Refs.end()) {
      const size_t From = K.size();
      if (!appendObjectKey(It->second, K))
        return std::nullopt;
      // (A struct passed by value may be bound to the kernel parameter it
      // copies, which is never changed.)
      const QualType T = PD->getType();
      if (T->isReferenceType() && !T->getPointeeType().isConstQualified())
        Changeable.push_back({It->second, K.substr(From)});
      continue;
    }
    auto It = NF.Vars.find(PD);
    if (It == NF.Vars.end() || !appendKey(It->second, K))
      return std::nullopt;
    for (auto F = NF.Fields.lower_bound({PD, ""}); F != NF.Fields.end() && F->first.first == PD;
         ++F) {
      K += F->first.second;
      K += '=';
      if (!appendKey(F->second, K))
        return std::nullopt;
    }
  }
  // Every frame's variables are reachable by name from no callee but
  // through the parameters above; nothing else enters the key.
  return K;
}

std::optional<Value> WarpInterp::memoHit(const std::string &Key, LValue *RetLV) {
  auto It = CallMemo.find(Key);
  if (It == CallMemo.end() || Frames.size() + It->second.Below >= R.Limits.MaxCallDepth)
    return std::nullopt;
  MemoEntry &E = It->second;
  step();
  DeepestFrames = std::max(DeepestFrames, Frames.size() + E.Below);
  if (R.Coverage && !DryDepth && Active && E.MarkedIn != R.Coverage) {
    for (const Stmt *S : E.Covered.Visited)
      R.Coverage->Visited.insert(S);
    for (const Expr *X : E.Covered.Reached)
      R.Coverage->Reached.insert(X);
    E.MarkedIn = R.Coverage;
  }
  if (Recording && Active) {
    Recording->addStatements(E.Covered);
  }
  // What the models saw of the walk (recorded again for a call around
  // this one, if it is being kept).
  Models.replay(E.Covered.Models);
  OrderingsRun += E.Orderings;
  if (RetLV && E.Returned)
    *RetLV = *E.Returned;
  return E.Result;
}

WarpInterp::MemoWalk::MemoWalk(WarpInterp &I, std::string Key,
                               std::vector<std::pair<LValue, std::string>> Changeable)
    : I(I), Key(std::move(Key)), Changeable(std::move(Changeable)), Outer(I.Recording), Counters(I.walkCounters()),
      Accesses(I.AccessAttempts), Syms(I.R.Syms.size()), Regions(I.R.Regions.size()),
      Explained(I.ExplainedOrder.size()), Frames0(I.Frames.size()), Control(I.ControlUnknown) {
  I.Recording = &Covered;
  OuterDeepest = I.DeepestFrames;
  I.DeepestFrames = I.Frames.size();
  OuterTrace = I.Models.Trace;
  OuterOverflowed = I.Models.Overflowed;
  I.Models.Trace = &Covered.Models;
  I.Models.Overflowed = false;
}

WarpInterp::MemoWalk::~MemoWalk() {
  // The walk's statements and depth count for the calls around it too,
  // kept or not.
  I.Recording = Outer;
  I.DeepestFrames = std::max(I.DeepestFrames, OuterDeepest);
  const bool Overflowed = I.Models.Overflowed;
  I.Models.Trace = OuterTrace;
  I.Models.Overflowed = OuterOverflowed || Overflowed;
  if (OuterTrace) {
    for (const CompilerModels::Lasting &L : Covered.Models)
      I.Models.record(L.K, L.S);
  }
  if (Outer) {
    Covered.dedupe();
    Outer->addStatements(Covered);
  }
}

void WarpInterp::MemoWalk::keep(const Value &Result, const LValue *Returned) {
  // Called after the callee's frame is gone and its assumptions dropped:
  // the walker's state must be what it was before the call.
  std::string Probe;
  // The orderings it ran are replayed with the models' record; nothing
  // else the walker counts may have moved.
  std::vector<uint64_t> Now = I.walkCounters();
  const uint64_t Orderings = Now[OrderingsCounter] - Counters[OrderingsCounter];
  Now[OrderingsCounter] = Counters[OrderingsCounter];
  uint64_t Recorded = 0;
  for (const CompilerModels::Lasting &L : Covered.Models)
    Recorded += L.K == CompilerModels::Lasting::Ordering;
  if (I.Models.Overflowed || Recorded != Orderings || I.AccessAttempts != Accesses ||
      Now != Counters ||
      I.R.Syms.size() != Syms || I.R.Regions.size() != Regions ||
      I.ExplainedOrder.size() != Explained || !(I.ControlUnknown == Control) ||
      I.DeepestFrames >= I.R.Limits.MaxCallDepth || !I.appendKey(Result, Probe))
    return;
  // The objects it could change are as they were.
  for (const auto &[LV, Before] : Changeable) {
    std::string After;
    if (!I.appendObjectKey(LV, After) || After != Before)
      return;
  }
  // A returned reference into the callee's own frame, or to memory at an
  // address the key does not hold, is not kept.
  if (Returned && ((Returned->K == LValue::Var && Returned->FrameIdx >= Frames0) ||
                   (Returned->K == LValue::Mem && Returned->Ptr.K == Value::Ptr &&
                    !I.appendKey(Returned->Ptr, Probe))))
    return;
  Covered.dedupe();
  MemoEntry E;
  E.Result = Result;
  if (Returned)
    E.Returned = *Returned;
  E.Below = I.DeepestFrames - Frames0;
  E.Orderings = static_cast<unsigned>(Orderings);
  E.Covered = Covered;
  I.CallMemo.emplace(std::move(Key), std::move(E));
}

} // namespace interp
} // namespace coalesce

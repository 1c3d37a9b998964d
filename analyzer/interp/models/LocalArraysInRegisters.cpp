//===- LocalArraysInRegisters.cpp - Per-thread arrays nvcc keeps in registers ===//
//
// An element whose index the compiler knows (a constant, the counter of a
// loop it unrolls) may be a register even when the array is in local memory:
// only subscripts computed at run time are recorded, and the array's place is
// the compiler's choice (docs/model.md). Small arrays stay in registers even
// when indexed at run time (measured on sm_90 with nvcc 13: 8, 32 and 64
// floats read at a lane-varying or run-time index had no stack frame; 128
// floats had).
//
// Hook: inRegisters(), asked by the walker for each access to a per-thread
// array (Memory.cpp access()), and by the inert-code model.
//===----------------------------------------------------------------------===//

#include "interp/CompilerModel.h"
#include "interp/WarpInterp.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace coalesce {
namespace interp {

namespace {

/// The largest per-thread array the compiler was seen to keep in registers
/// when indexed at run time (64 floats; 128 floats went to local memory).
constexpr int64_t RegisterArrayBytes = 256;

/// Whether the compiler knows index E at compile time once it has unrolled
/// the loops with constant trip counts: an integer constant expression, the
/// counter of a `for` loop whose start and bound are constants, a const
/// variable initialised with such a value, or arithmetic of those. An array
/// indexed only so is kept in registers.
bool compileTimeIndex(KernelRun &R, const Expr *E, unsigned Depth = 0) {
  ASTContext &Ctx = R.Ctx;
  if (Depth > 16)
    return false;
  E = E->IgnoreParenImpCasts();
  if (E->isValueDependent() || E->isIntegerConstantExpr(Ctx))
    return !E->isValueDependent();
  if (auto *BO = dyn_cast<BinaryOperator>(E))
    return (BO->isAdditiveOp() || BO->isMultiplicativeOp() || BO->isShiftOp()) &&
           compileTimeIndex(R, BO->getLHS(), Depth + 1) &&
           compileTimeIndex(R, BO->getRHS(), Depth + 1);
  auto *DR = dyn_cast<DeclRefExpr>(E);
  auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !VD->getInit())
    return false;
  // `const int i = (row * TM + m) * TN + n;` inside unrolled loops.
  if (VD->getType().isConstQualified() && VD->hasLocalStorage())
    return compileTimeIndex(R, VD->getInit(), Depth + 1);
  if (!VD->getInit()->isIntegerConstantExpr(Ctx))
    return false;
  const ForStmt *For = forDeclaring(R, VD);
  if (!For || !isa_and_nonnull<DeclStmt>(For->getInit()))
    return false; // not the loop that declares it: VD's value is not its start
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || !Cond->isRelationalOp())
    return false;
  const Expr *L = Cond->getLHS()->IgnoreParenImpCasts();
  const Expr *Rt = Cond->getRHS()->IgnoreParenImpCasts();
  auto IsVar = [&](const Expr *X) {
    auto *D = dyn_cast<DeclRefExpr>(X);
    return D && D->getDecl() == VD;
  };
  return (IsVar(L) && Rt->isIntegerConstantExpr(Ctx)) ||
         (IsVar(Rt) && L->isIntegerConstantExpr(Ctx));
}

/// Whether every subscript of the access Site into a local array is known
/// at compile time (`t[3]`, `t[i][j]` in constant-trip loops).
bool staticSubscripts(KernelRun &R, const Expr *Site) {
  const Expr *S = Site->IgnoreParenImpCasts();
  bool Any = false;
  while (true) {
    if (auto *ME = dyn_cast<MemberExpr>(S)) {
      S = ME->getBase()->IgnoreParenImpCasts();
      continue;
    }
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
      if (!compileTimeIndex(R, AS->getIdx()))
        return false;
      Any = true;
      S = AS->getBase()->IgnoreParenImpCasts();
      continue;
    }
    break;
  }
  return Any && isa<DeclRefExpr>(S);
}


class LocalArraysInRegisters : public CompilerModel {
public:
  using CompilerModel::CompilerModel;

  /// An access at Site into the per-thread array Array stays in registers
  /// (no local-memory record): the array is small, or the subscripts are
  /// known at compile time.
  bool inRegisters(const VarDecl *Array, const Expr *Site) override;
};

} // namespace

bool LocalArraysInRegisters::inRegisters(const VarDecl *Array, const Expr *Site) {
  if (Array && !Array->getType()->isIncompleteType() &&
      Ctx.getTypeSizeInChars(Array->getType()).getQuantity() <= RegisterArrayBytes)
    return true;
  auto Known = R.StaticSubscripts.find(Site);
  if (Known == R.StaticSubscripts.end())
    Known = R.StaticSubscripts.try_emplace(Site, staticSubscripts(R, Site)).first;
  return Known->second;
}

std::unique_ptr<CompilerModel> makeLocalArraysInRegisters(WarpInterp &I) {
  return std::make_unique<LocalArraysInRegisters>(I);
}

} // namespace interp
} // namespace coalesce

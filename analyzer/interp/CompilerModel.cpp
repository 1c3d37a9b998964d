//===- CompilerModel.cpp - The walker's services to the compiler models ---===//

#include "interp/CompilerModel.h"
#include "interp/WarpInterp.h"

namespace coalesce {
namespace interp {

CompilerModel::CompilerModel(WarpInterp &I)
    : Ctx(I.Ctx), R(I.R), Active(I.Active), Exists(I.Exists), Buffered(I.Buffered), I(I) {}

CompilerModel::~CompilerModel() = default;

void CompilerModel::dropBuffered(size_t Mark, const std::vector<bool> &Drop) {
  I.dropBuffered(Mark, Drop);
}
std::string CompilerModel::text(const clang::Expr *E) { return I.text(E); }
Frame *CompilerModel::frameOf(const clang::VarDecl *VD) { return I.frameOf(VD); }
const std::deque<Frame> &CompilerModel::frames() const { return I.Frames; }
std::optional<int64_t> CompilerModel::constantOf(const clang::Expr *E) { return I.constantOf(E); }
bool CompilerModel::dry() const { return I.DryDepth != 0; }
void CompilerModel::step() { I.step(); }
LValue CompilerModel::evalLValue(const clang::Expr *E) { return I.evalLValue(E); }
void CompilerModel::store(const LValue &LV, const Value &V, clang::QualType T,
                          const clang::Expr *Site) {
  I.store(LV, V, T, Site);
}
bool CompilerModel::inRegistersByAnyModel(const clang::VarDecl *Array, const clang::Expr *Site) {
  return I.Models.inRegisters(Array, Site);
}

void CompilerModels::replay(const std::vector<Lasting> &T) {
  for (const Lasting &L : T)
    switch (L.K) {
    case Lasting::BranchEnter:
      branchEnter(L.S);
      break;
    case Lasting::BranchJoin:
      branchJoin(L.S);
      break;
    case Lasting::Ordering:
      orderingCall(clang::cast<clang::CallExpr>(L.S));
      break;
    }
}

CompilerModels::CompilerModels(WarpInterp &I) {
#define COMPILER_MODEL(Name) All.push_back(make##Name(I));
#include "interp/models/Models.def"
#undef COMPILER_MODEL
}

CompilerModels::~CompilerModels() = default;

} // namespace interp
} // namespace coalesce

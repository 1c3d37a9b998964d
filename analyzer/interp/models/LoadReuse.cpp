//===- LoadReuse.cpp - Loads nvcc does not issue again --------------------===//
//
// A load of an address loaded earlier in straight-line code, on the same
// lanes, with no store, call or branch in between, is not issued again:
// nvcc reuses the value (value numbering, common subexpressions). A store
// makes its value available the same way (store-to-load forwarding): the
// store ends what was available, then a later load of the lvalue it wrote,
// written alike, uses the stored value. Such a load is reported unknown
// ('load-reused', 'load-forwarded').
//
// Hooks: access() looks up and records loads and stores; what is available
// ends at every other access that is not a load, at statements that are not
// straight-line code (before and after), at calls (before and after), at
// each side of a branch inside an expression (before and after), and at
// each iteration of a loop (an iteration's loads are not reused by the next;
// loads nvcc moves out of loops: models/Hoisting.cpp).
//===----------------------------------------------------------------------===//

#include "interp/CompilerModel.h"
#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"

namespace coalesce {
namespace interp {

namespace {

class LoadReuse : public CompilerModel {
public:
  using CompilerModel::CompilerModel;

  void blockEnter(const clang::Stmt *) override { Avail.clear(); }
  void blockExit(const clang::Stmt *) override { Avail.clear(); }
  // A side's loads do not dominate the other side's, nor what follows
  // (the right of && runs only on some lanes).
  void sideEnter(const clang::Expr *) override { Avail.clear(); }
  void sideExit(const clang::Expr *) override { Avail.clear(); }
  // A call may store or synchronise: loads before it are not reused after
  // it (nor across its arguments, conservatively).
  void callEnter(const clang::CallExpr *) override { Avail.clear(); }
  void callExit(const clang::CallExpr *) override { Avail.clear(); }
  void iterationBegin() override { Avail.clear(); }

  void access(AccessEvent &E, const AccessFacts &A) override {
    const unsigned W = A.Width;
    if (A.Op != AccessOp::Load || !A.Plain) {
      if (A.Op != AccessOp::Load)
        Avail.clear();
      if (A.Op == AccessOp::Store && A.Plain)
        Avail.push_back({*A.Region, A.LV.Ptr.P, W, Active, A.Site, true});
      return;
    }
    const AvailLoad *Prev = nullptr;
    // The same address in this warp is not enough: the compiler reuses a
    // value only where it can tell at compile time that the address is the
    // same, so the two lvalues must also be written alike (`s[t / 32]` is
    // `s[0]` in warp 0, but another load).
    for (const AvailLoad &L : Avail)
      if (L.Region == *A.Region && L.Width == W && L.Active == Active && L.Offset == A.LV.Ptr.P &&
          sameLValue(Ctx, L.Site, A.Site))
        Prev = &L;
    if (Prev)
      E.UnknownWhy = makeReason(Prev->Stored ? ReasonKind::LoadForwarded : ReasonKind::LoadReused,
                                {text(Prev->Site), lineOf(Ctx, Prev->Site->getBeginLoc())});
    else
      Avail.push_back({*A.Region, A.LV.Ptr.P, W, Active, A.Site, false});
  }

private:
  /// Loads issued earlier in the straight-line code being run, on the
  /// lanes now active, and the last store (its value).
  struct AvailLoad {
    RegionId Region;
    Poly Offset;
    unsigned Width;
    LaneMask Active;
    const clang::Expr *Site;
    bool Stored; // the value a store wrote
  };
  std::vector<AvailLoad> Avail;
};

} // namespace

std::unique_ptr<CompilerModel> makeLoadReuse(WarpInterp &I) {
  return std::make_unique<LoadReuse>(I);
}

} // namespace interp
} // namespace coalesce

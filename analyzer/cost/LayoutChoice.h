//===- LayoutChoice.h - One layout fix per shared array -------------------===//
//
// Each launch's aggregation re-costs every access of a declared shared array
// under the candidate layouts (model/SharedLayout.h, cost/Aggregate.cpp).
// Once every kernel and launch of the translation unit is in, the choice is
// made per array over all of them:
//
//  - a layout is offered only if every access of the array, in every launch
//    analysed, was re-costed exactly and none gets dearer, and the array's
//    wavefronts go down; padding only within 48 KiB of static shared memory;
//  - the best is the one with the fewest wavefronts (per warp, summed over
//    the accesses); between equals, one that can be written as an edit, then
//    for an array accessed only element by element padding (one edit of the
//    declaration) and for one with wider accesses a swizzle (no memory, the
//    vector widths kept), then the least memory;
//  - the best of the other family, when it is as good, is named as the
//    alternative.
//
// Every access of the array gets the chosen fix (its own before and after);
// the conflicted ones carry it to the rule's note and fix-it.
//
// A swizzle over accesses nvcc merges into wider instructions is costed with
// the merged widths; whether nvcc keeps them is ptxas's decision (it must
// prove the alignment through the XOR, and does in some forms, not in
// others). Such a layout is offered only when a compile of the edited code
// shows the same shared-memory instructions on the array's lines; without a
// compiler, the choice is made among the others.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_COST_LAYOUTCHOICE_H
#define COALESCE_ANALYZER_COST_LAYOUTCHOICE_H

#include "report/Report.h"

#include <functional>
#include <optional>
#include <vector>

namespace coalesce {

/// Static shared memory a kernel may declare (48 KiB).
constexpr int64_t StaticSharedLimit = 48 * 1024;

/// Compiles the code with each check's edits applied and says, per check,
/// whether nvcc emits the same shared-memory instructions on its lines as
/// for the code as it is: 1 yes, 0 no, -1 not compiled (driver/FixCompile.h);
/// one call per translation unit.
using LayoutCompiler =
    std::function<std::vector<int>(const std::vector<LayoutCompileCheck> &)>;

/// Compile: for the layouts whose gain rests on what nvcc emits
/// (LayoutSearch::NeedsCompile); null: none of those is offered.
void chooseLayoutFixes(std::vector<AccessRecord> &Records,
                       const LayoutCompiler &Compile = nullptr);

/// The edits that write layout L of the array Plan describes, with the
/// declaration (padding) or the access (swizzle) as it reads after them;
/// empty, with Why, when L cannot be written.
std::vector<SourceEdit> layoutEdits(const ArrayEditPlan &Plan, const SharedLayout &L,
                                    std::string &Written, std::string &Why);

/// A column whose terms split as B + R, with every term of B a multiple of
/// UnitElems and the terms of R between 0 and a sum below UnitElems:
/// (B + R) ^ X == (B ^ X) + R for every X that is a multiple of UnitElems.
/// A swizzle of such units written `(B ^ bits) + R` shows the compiler that
/// R's values stay adjacent (nvcc keeps merging them into one wider access:
/// rules/docs/fix-swizzle.md); `(B + R) ^ bits` hides it. Empty when the
/// column has no such split with R non-empty.
struct SwizzleSplit {
  std::string Base, Rest; // "" for an empty B
  bool BaseSimple = false;
};
std::optional<SwizzleSplit> swizzleSplit(const ArrayEditPlan::Use &U, int64_t UnitElems);

} // namespace coalesce

#endif // COALESCE_ANALYZER_COST_LAYOUTCHOICE_H

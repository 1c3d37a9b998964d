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
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_COST_LAYOUTCHOICE_H
#define COALESCE_ANALYZER_COST_LAYOUTCHOICE_H

#include "report/Report.h"

#include <vector>

namespace coalesce {

/// Static shared memory a kernel may declare (48 KiB).
constexpr int64_t StaticSharedLimit = 48 * 1024;

void chooseLayoutFixes(std::vector<AccessRecord> &Records);

/// The edits that write layout L of the array Plan describes, with the
/// declaration (padding) or the access (swizzle) as it reads after them;
/// empty, with Why, when L cannot be written.
std::vector<SourceEdit> layoutEdits(const ArrayEditPlan &Plan, const SharedLayout &L,
                                    std::string &Written, std::string &Why);

} // namespace coalesce

#endif // COALESCE_ANALYZER_COST_LAYOUTCHOICE_H

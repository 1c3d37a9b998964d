//===- LayoutEdits.h - Where a shared array's layout is written -----------===//
//
// A layout fix (model/SharedLayout.h) is an edit of the source: padding
// rewrites the declaration's innermost size (`tile[32][32]` ->
// `tile[32][33]`, `tile[T][T]` -> `tile[T][T + 1]`); a swizzle rewrites the
// innermost subscript of every use (`tile[r][c]` -> `tile[r][c ^ ((r & 7) <<
// 2)]`). Either is only correct when every use of the array goes through
// those subscripts, so the plan says so or says why not:
//
//  - every use in the translation unit is a full subscript (no pointer to a
//    row, no passing the array to a function, no sizeof);
//  - an element whose address is taken (`reinterpret_cast<float4 *>(&t[r][c])`)
//    is reached only at that address (`*p`, `p[0]`, `p->x`): an index into
//    the pointer (`(...)[tx]`) would not move with the layout;
//  - the edited text is the user's (not a macro's body), and a rewritten
//    subscript's row expression has no side effects;
//  - padding keeps the kernel's static shared memory within 48 KiB (checked
//    per amount by the choice).
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_COST_LAYOUTEDITS_H
#define COALESCE_ANALYZER_COST_LAYOUTEDITS_H

#include "report/LayoutFix.h"

#include <memory>

namespace clang {
class ASTContext;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace coalesce {

/// A declared shared array of constant dimensions (any rank): its accesses
/// are kept for the layout search.
bool layoutSearchable(clang::ASTContext &Ctx, const clang::VarDecl *Array);

/// The shape of a declared shared array of constant dimensions: rank >= 2
/// as declared, or a one-dimensional one seen as [Size / RowLength]
/// [RowLength] (RowLength > 0, dividing its size); none otherwise.
std::optional<ArrayShape> sharedArrayShape(clang::ASTContext &Ctx, const clang::VarDecl *Array,
                                           int64_t RowLength = 0);

/// Where layouts of Array would be written; Kernel is the kernel analysed
/// (for its static shared memory); RowLength as for sharedArrayShape. Null
/// when Array has no shape.
std::shared_ptr<const ArrayEditPlan> planLayoutEdits(clang::ASTContext &Ctx,
                                                     const clang::VarDecl *Array,
                                                     const clang::FunctionDecl *Kernel,
                                                     int64_t RowLength = 0);

} // namespace coalesce

#endif // COALESCE_ANALYZER_COST_LAYOUTEDITS_H

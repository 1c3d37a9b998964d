//===- Padding.h - Padding a shared tile's innermost dimension ------------===//
//
// The classic fix for a bank-conflicted tile: `float tile[32][32]` read down a
// column is 32-way; `float tile[32][33]` is conflict-free, because rows then
// start one bank apart. Padding changes the address of every access to the
// array, so the analysis re-costs all of them with the new row length and
// offers the edit only when it is safe:
//
//  - the array is declared with constant dimensions, rank >= 2, and every use
//    in the translation unit is a full subscript (no pointer taken into it,
//    no sizeof, no passing it to a function), so no code depends on the row
//    length except through the subscripts we re-cost;
//  - the padded static shared memory of the kernel still fits in 48 KiB;
//  - the innermost size is written in the file (not produced by a macro's
//    body), so " + N" can be inserted after it.
//
// The pad is one element, or one 4-byte word's worth of narrower elements.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_PADDING_H
#define COALESCE_ANALYZER_PADDING_H

#include "report/Report.h"
#include "model/Poly.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace coalesce {

struct PaddingPlan {
  bool Possible = false;   // the layout can be re-costed with padding
  bool Editable = false;   // ... and the fix-it can be offered
  std::string WhyNot;      // when !Editable
  std::vector<int64_t> Dims;
  int64_t ElemSize = 0;
  int64_t Pad = 0;         // elements added to the innermost dimension
  SourcePos InsertPos;     // where the edit starts
  unsigned RemoveLength = 0; // characters replaced (a literal size)
  std::string InsertText;  // " + 1" after an expression, or "33" for "32"
  std::string Declaration; // "tile[TILE_DIM][TILE_DIM + 1]"
};

PaddingPlan planPadding(clang::ASTContext &Ctx, const clang::VarDecl *Array,
                        const clang::FunctionDecl *Kernel);

/// Byte offset of an element given per-dimension subscripts, with the
/// innermost dimension padded as the plan says.
Poly paddedOffset(const std::vector<Poly> &Subscripts, const PaddingPlan &Plan);

} // namespace coalesce

#endif // COALESCE_ANALYZER_PADDING_H

//===- LayoutFix.h - A shared array's layout fix, as the report carries it -===//
//
// The layout search (cost/LayoutChoice.h) re-costs every access of a
// conflicted shared array under other layouts (model/SharedLayout.h) in each
// launch the analysis walked, then chooses, over all of them, the layout that
// makes no access dearer and wastes the fewest wavefronts. What it needs from
// the source (where the edits go) and what it concludes travel with each
// access record; no clang types here.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_REPORT_LAYOUTFIX_H
#define COALESCE_ANALYZER_REPORT_LAYOUTFIX_H

#include "report/SourceEdit.h"
#include "report/SourcePos.h"
#include "model/SharedLayout.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// Where a layout change of one declared shared array is written in the
/// source, and why it cannot be, per family (cost/LayoutEdits.h).
struct ArrayEditPlan {
  std::string Name;
  /// "file:line:col" of the declaration: the array's identity across the
  /// launches and kernels of one translation unit.
  std::string Key;
  SourcePos DeclPos;
  ArrayShape Shape;
  /// The dimensions as written ("TILE", "32"), outermost first.
  std::vector<std::string> DimTexts;
  /// Padding: the innermost size, rewritten ("32" -> "33") when it is a
  /// literal, else followed by " + N".
  bool PadEditable = false;
  std::string PadWhyNot;
  SourcePos SizePos, SizeEnd; // the innermost size's first character, and after its last
  unsigned SizeLength = 0;
  bool SizeLiteral = false;
  /// Static shared memory of the kernel that declares the array, before
  /// padding (a padding past 48 KiB is not offered).
  int64_t StaticSharedBytes = 0;
  /// Swizzles: the innermost subscript of every use is rewritten
  /// (`c` -> `c ^ ((r & 7) << 2)`), r being the subscript before it.
  bool SwizzleEditable = false;
  std::string SwizzleWhyNot;
  struct Use {
    SourcePos ColPos;
    unsigned ColLength = 0;
    std::string ColText, RowText;
    bool ColSimple = false, RowSimple = false; // no parentheses needed
    /// A one-dimensional array (RowLength): the whole index (rewritten by a
    /// swizzle as `row * K + ((rest) ^ ...)`), its `row * K` term, and the
    /// factor K (rewritten by a padding as `(K + N)`).
    SourcePos IndexPos, FactorPos;
    unsigned IndexLength = 0, FactorLength = 0;
    std::string RowTermText, FactorText;
    /// The column's terms (its chain of `+`): the text of each, the power
    /// of two its values are proven multiples of, and Max >= 0 when it
    /// only takes values in [0, Max] (a constant, the counter of a loop
    /// with constant bounds), else -1. A swizzle of units of U elements
    /// writes `(B ^ bits) + R` when the terms split so (cost/LayoutChoice.h,
    /// swizzleSplit()).
    struct Term {
      std::string Text;
      int64_t Align = 1;
      int64_t Max = -1;
    };
    std::vector<Term> ColTerms;
  };
  std::vector<Use> Uses;
  /// A one-dimensional array indexed `row * K + column` everywhere
  /// (ast/AstUtil.h, splitRowIndex): K, the row length of the shape the
  /// search gives it ([Size / K][K]); 0 for a declared multi-dimensional
  /// array. Its padding rewrites K in every index and the factor K of the
  /// declared size (SizePos: `BM * BK` -> `(BM + 4) * BK`), or a literal
  /// size.
  int64_t RowLength = 0;
  /// One dimension: the declared size as written, and where in it the
  /// factor K starts (SizePos is the factor's own position).
  std::string DeclSizeText;
  size_t FactorOffset = 0;
  /// The translation unit uses CuTe: swizzles are also named as CuTe's
  /// Swizzle<B, M, S>.
  bool UsesCute = false;
};

/// The layouts tried for one array in one launch, and the plan for edits.
struct LayoutSearch {
  std::shared_ptr<const ArrayEditPlan> Plan;
  std::vector<SharedLayout> Candidates;
  /// Non-empty: the array's accesses could not all be re-costed (an access
  /// whose address is not known, an asynchronous copy), so nothing is
  /// offered; why.
  std::string WhyNot;
  /// The array has no conflict in this launch, and its accesses were not
  /// re-costed (cost/Aggregate.cpp).
  bool NotSearched = false;
  /// Per candidate: a swizzle over accesses nvcc merges into wider
  /// instructions, costed with the merged widths kept. Whether nvcc keeps
  /// them is its decision (ptxas must prove the alignment through the XOR):
  /// the choice offers such a layout only once a compile of the edited code
  /// shows the same instructions on those lines (cost/LayoutChoice.h).
  std::vector<bool> NeedsCompile;
};

/// A layout whose gain rests on what nvcc emits for the edited code: the
/// edits, and the lines (the array's accesses) whose shared-memory
/// instructions must stay what they are.
struct LayoutCompileCheck {
  std::string ArrayKey;
  std::vector<SourceEdit> Edits;
  std::vector<SourcePos> Lines;
};

/// The layout chosen for an array, as one of its accesses reports it.
struct LayoutFix {
  SharedLayout Layout;
  /// "padding the innermost dimension by 4 elements (tile[32][36])",
  /// "XOR-swizzling the 16-byte chunks of 'tile' by row
  /// (tile[r][c ^ ((r & 7) << 2)])".
  std::string What;
  /// The code action's title: "pad 'tile' to tile[32][36]".
  std::string Title;
  double Before = 0, After = 0;           // this access, per request
  double ArrayBefore = 0, ArrayAfter = 0; // all accesses, per warp
  unsigned Accesses = 0;                  // accesses re-costed
  int64_t ExtraBytes = 0;
  /// What the gain rests on: the launches analysed, an alignment.
  std::string Condition;
  /// The other family's best, when it is as good ("XOR-swizzling ...
  /// gives the same with no extra memory").
  std::string Alternative;
  /// The edits (empty when WhyNot says why none is offered).
  std::vector<SourceEdit> Edits;
  std::string WhyNot;
};

} // namespace coalesce

#endif // COALESCE_ANALYZER_REPORT_LAYOUTFIX_H

//===- SourceEdit.h - An edit of the source, and applying edits to a text ---===//
//
// The layout fixes (report/LayoutFix.h) and the rules' fix-its (rules/Rule.h)
// are edits of the source: replace RemoveLength bytes at a position by a
// text. applyEditsToText() makes them on a file's text in memory, for
// `--fix` (tools/output/ApplyFixes.h), the language server's code actions
// and the compile of a layout fix's edited code (driver/FixCompile.h).
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_REPORT_SOURCEEDIT_H
#define COALESCE_ANALYZER_REPORT_SOURCEEDIT_H

#include "report/SourcePos.h"

#include <string>
#include <vector>

namespace coalesce {

/// One edit of the source: replace RemoveLength bytes at Pos by Insert.
struct SourceEdit {
  SourcePos Pos;
  unsigned RemoveLength = 0;
  std::string Insert;
};

/// Edits a file's text in memory; the positions are 1-based (line, byte
/// column) as in SourcePos. Identical edits are made once; an edit outside
/// the text, on a line that no longer reads Pos.LineText, or overlapping
/// another one is skipped ("file:line:col: why" in Skipped). Returns the new
/// text.
std::string applyEditsToText(const std::string &Text, std::vector<SourceEdit> Edits,
                             unsigned &Applied, std::vector<std::string> &Skipped);

} // namespace coalesce

#endif // COALESCE_ANALYZER_REPORT_SOURCEEDIT_H

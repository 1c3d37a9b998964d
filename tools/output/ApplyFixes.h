//===- ApplyFixes.h - Apply the findings' fix-its to the source files ----===//
//
// `coalesce-lint --fix`: the edits the rules attach to findings (today: the
// padding of a shared tile's inner dimension) written back to the files.
// Identical edits from several findings (one tile read on several lines) are
// applied once; an edit overlapping another one in the same file, or one
// whose text no longer matches the file, is skipped with a reason, so a
// partial or stale run never corrupts a file. Each file is written to a
// temporary name and renamed.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_APPLYFIXES_H
#define COALESCE_TOOLS_OUTPUT_APPLYFIXES_H

#include "Rule.h"
#include "report/SourceEdit.h" // applyEditsToText

#include <string>
#include <vector>

namespace coalesce {

struct FixOutcome {
  std::string File;
  unsigned Applied = 0;
  std::vector<std::string> Skipped; // "file:line:col: why"
  std::string Error;                // the file could not be read or written
};

/// Applies the fix-its of Findings to their files (paths relative to the
/// working directory or absolute), one outcome per file touched.
std::vector<FixOutcome> applyFixes(const std::vector<Finding> &Findings);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_APPLYFIXES_H

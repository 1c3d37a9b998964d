//===- Baseline.h - Adopting coalesce-lint on an existing code base -------===//
//
// `--write-baseline FILE` records the current findings; `--baseline FILE`
// then reports (and fails on) only the findings that are not recorded. A
// finding is recorded by a key that survives unrelated edits:
//
//   file    relative to the baseline file's directory ('/' separators)
//   kernel  "transpose<float>"
//   rule    "uncoalesced-global"
//   source  the finding's source line, normalised (SourceKey.h): comments and
//           indentation do not matter, line numbers are not part of it
//
// with a count, since one line can hold the same finding several times (one
// per launch shape). The file is JSON, sorted, so it diffs well in review.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_BASELINE_H
#define COALESCE_TOOLS_OUTPUT_BASELINE_H

#include "Rule.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace coalesce {

struct BaselineKey {
  std::string File, Kernel, Rule, Source;
  bool operator<(const BaselineKey &O) const {
    return std::tie(File, Kernel, Rule, Source) <
           std::tie(O.File, O.Kernel, O.Rule, O.Source);
  }
};

class Baseline {
public:
  /// Reads a baseline written by write(); paths in it are relative to its directory.
  static llvm::Expected<Baseline> load(const std::string &Path);

  /// The key of F in a baseline stored at Path.
  static BaselineKey keyOf(const Finding &F, const std::string &Path);

  /// Writes the findings as a baseline to Path.
  static llvm::Error write(const std::string &Path, const std::vector<Finding> &Findings);

  /// True if F is recorded (and not yet used up by an earlier finding with
  /// the same key): then it is not new.
  bool consume(const Finding &F);

  size_t size() const;

private:
  std::string Path;
  std::map<BaselineKey, unsigned> Counts;
};

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_BASELINE_H

//===- Suppressions.h - Inline comments that silence a finding ------------===//
//
// The CLI honours two kinds of comment, so that code annotated for the
// clang-tidy plugin and code annotated for coalesce-lint behave the same:
//
//   out[i] = in[i * 32]; // coalesce-lint: ignore
//   out[i] = in[i * 32]; // coalesce-lint: ignore[uncoalesced-global]
//   out[i] = in[i * 32]; // NOLINT(coalesce-uncoalesced-global)
//   // NOLINTNEXTLINE(coalesce-*)
//   // NOLINTBEGIN(coalesce-shared-bank-conflict) ... // NOLINTEND(coalesce-shared-bank-conflict)
//
// `coalesce-lint: ignore` without a list and a bare `NOLINT` silence every
// rule on their line. Rule lists are comma-separated; `coalesce-` is optional
// in `ignore[...]`, and `*` globs and `-` exclusions work as in clang-tidy
// (the last matching entry decides). A finding is matched by the line it is
// reported on.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_SUPPRESSIONS_H
#define COALESCE_TOOLS_OUTPUT_SUPPRESSIONS_H

#include "Rule.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace coalesce {

/// What the comments of one file suppress.
class FileSuppressions {
public:
  explicit FileSuppressions(const std::vector<std::string> &Lines);

  /// The comment that silences check CheckName ("coalesce-...") on the
  /// 1-based line Line ("NOLINT", "coalesce-lint: ignore", ...), or "".
  std::string suppressedBy(unsigned Line, llvm::StringRef CheckName) const;

private:
  struct Entry {
    unsigned First, Last; // lines it covers
    std::vector<std::string> Globs; // empty: all checks
    std::string Kind;
  };
  std::vector<Entry> Entries;
};

/// Reads files on demand (by the path a finding names) and caches what their
/// comments suppress.
class SuppressionIndex {
public:
  /// Why F is suppressed, or "" when it is not.
  std::string suppressedBy(const Finding &F);

private:
  std::map<std::string, FileSuppressions> Files;
};

/// True if CheckName is selected by a comma-separated clang-tidy glob list
/// ("coalesce-*,-coalesce-shared-bank-conflict"); the last match decides.
bool matchesGlobList(const std::vector<std::string> &Globs, llvm::StringRef CheckName);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_SUPPRESSIONS_H

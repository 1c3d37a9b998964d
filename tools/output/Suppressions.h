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
// reported on. A rule name in `ignore[...]` that is no rule (a misspelling,
// which would silence nothing) is a problem the front-ends report: an error
// in the CLI, a diagnostic in the clang-tidy plugin. (NOLINT lists may name
// any clang-tidy check, so they are not checked.)
//
// The clang-tidy plugin reads the `coalesce-lint:` form with this class and
// leaves the NOLINT forms to clang-tidy, which handles them for every check.
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
  /// Nolint: read the NOLINT forms too (the CLI); without, only
  /// `coalesce-lint: ignore` (the clang-tidy plugin).
  explicit FileSuppressions(const std::vector<std::string> &Lines, bool Nolint = true);
  /// The same, from the text of a file.
  static FileSuppressions fromText(llvm::StringRef Text, bool Nolint = true);

  /// The comment that silences check CheckName ("coalesce-...") on the
  /// 1-based line Line ("NOLINT", "coalesce-lint: ignore", ...), or "".
  std::string suppressedBy(unsigned Line, llvm::StringRef CheckName) const;

  /// A rule name in an `ignore[...]` list that names no rule.
  struct Problem {
    unsigned Line, Column; // 1-based, of the name
    std::string Message;   // "unknown rule 'x' in 'coalesce-lint: ignore[x]' (...)"
    std::string Nearest;   // the rule it is likely a typo of ("uncoalesced-global"), or ""
  };
  const std::vector<Problem> &problems() const { return Problems; }

private:
  struct Entry {
    unsigned First, Last; // lines it covers
    std::vector<std::string> Globs; // empty: all checks
    std::string Kind;
  };
  std::vector<Entry> Entries;
  std::vector<Problem> Problems;
};

/// Reads files on demand (by the path a finding names) and caches what their
/// comments suppress.
class SuppressionIndex {
public:
  /// Why F is suppressed, or "" when it is not.
  std::string suppressedBy(const Finding &F);
  /// Reads File's comments (for their problems) even if no finding is there.
  void scan(const std::string &File);
  /// The problems of the files read so far: "file:line:col: message", in
  /// file and line order.
  std::vector<std::string> problems() const;

private:
  const FileSuppressions *load(const std::string &File);
  std::map<std::string, FileSuppressions> Files;
};

/// True if CheckName is selected by a comma-separated clang-tidy glob list
/// ("coalesce-*,-coalesce-shared-bank-conflict"); the last match decides.
bool matchesGlobList(const std::vector<std::string> &Globs, llvm::StringRef CheckName);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_SUPPRESSIONS_H

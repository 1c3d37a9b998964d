//===- HeaderFilter.h - Which files findings are shown from ---------------===//
//
// clang-tidy's --header-filter and --system-headers, for the CLI (the
// clang-tidy plugin gets clang-tidy's own). A finding is kept or not by the
// position it is reported at:
//
//  - in the main file of its translation unit (an input file): always shown;
//  - in a system header (-isystem, the CUDA toolkit, the standard library):
//    only with --system-headers, and then, when a --header-filter is given,
//    only if it matches;
//  - in another header: if the --header-filter REGEX matches its path (the
//    path as printed, or its absolute path; searched, not anchored, as in
//    clang-tidy); without --header-filter, if it lies under the source root
//    (--source-root, default the working directory): the user's own headers.
//
// So by default a user sees findings in their own files only; third-party
// headers outside the project and the toolkit's headers stay quiet.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_HEADERFILTER_H
#define COALESCE_TOOLS_OUTPUT_HEADERFILTER_H

#include "report/Report.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <optional>
#include <string>

namespace coalesce {

class HeaderFilter {
public:
  enum class Where { Shown, SystemHeader, OtherHeader };

  /// Regex: --header-filter (none: the source root decides); an invalid
  /// regular expression is an error. SourceRoot "" is the working directory.
  static llvm::Expected<HeaderFilter> create(const std::optional<std::string> &Regex,
                                             bool SystemHeaders, const std::string &SourceRoot);

  /// Whether a finding at P is shown, or why not.
  Where classify(const SourcePos &P) const;
  bool shows(const SourcePos &P) const { return classify(P) == Where::Shown; }

private:
  std::shared_ptr<llvm::Regex> Regex; // shared: llvm::Regex cannot be copied
  bool SystemHeaders = false;
  std::string Root;
};

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_HEADERFILTER_H

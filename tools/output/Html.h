//===- Html.h - A self-contained HTML report with warp maps ---------------===//
//
// One page, no external resources (inline CSS, one inline script, nothing
// to fetch), so it opens offline and can be attached to a CI run
// (docs/html-report.md):
//
//  - a header with one line, the run's summary (the CLI's last line);
//  - the findings, worst first (Waste.h: the traffic each wastes), in one
//    table the script sorts by any column and filters by rule, level and
//    text; the state is kept in the URL's fragment (#sort=loc&rule=...);
//  - per file and kernel, every access: those with a finding, an unknown
//    cost or a silenced finding in full (source line, message, numbers,
//    evidence, assumptions, suggestions), the fine ones as one folded row;
//    assumptions every access of a kernel shares are said once per kernel;
//  - warp maps (WarpMap.h), stored once per distinct picture, deflated, and
//    drawn by the script when an access is open: the page stays small on
//    large runs.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_HTML_H
#define COALESCE_TOOLS_OUTPUT_HTML_H

#include "report/Report.h"
#include "Rule.h"

#include <map>
#include <string>
#include <vector>

namespace coalesce {

struct HtmlReportInput {
  const std::vector<TUReport> *Reports = nullptr;
  const std::vector<Finding> *Findings = nullptr; // the reported ones
  /// Findings not reported, by record: why ("suppressed by NOLINT", "in the baseline").
  std::map<const AccessRecord *, std::string> Silenced;
  std::vector<std::string> Errors;
  std::string SourceRoot; // file names are shown relative to it
  /// The run's summary (Selection.h: what is shown and what was left out),
  /// the page's one summary line; "" for the same line made of Reports and
  /// Findings alone (runSummary() without what was left out) and the
  /// number of Silenced records.
  std::string Summary;
};

std::string renderHtmlReport(const HtmlReportInput &In);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_HTML_H

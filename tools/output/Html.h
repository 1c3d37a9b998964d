//===- Html.h - A self-contained HTML report with warp maps ---------------===//
//
// One page, no external resources (inline CSS and SVG, no scripts, fonts or
// images to fetch), so it opens offline and can be attached to a CI run. Per
// file and kernel, every access with its numbers, verdict, the finding's
// message and evidence, the assumptions and a warp map (WarpMap.h). Accesses
// with a finding are open; the others are folded.
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
  /// The run's summary (Selection.h: what is shown and what was left out);
  /// "" for counts of Findings and Silenced only.
  std::string Summary;
};

std::string renderHtmlReport(const HtmlReportInput &In);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_HTML_H

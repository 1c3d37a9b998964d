//===- Selection.h - Which findings a run reports, and the summary --------===//
//
// The CLI's policy between the rules and the emitters, in order:
//
//   rules         each report's enabled rules with its options (--rules,
//                 --min-ratio, --no-unknown, .coalesce-lint.yaml)
//   header filter where a finding is reported (HeaderFilter.h)
//   comments      `// coalesce-lint: ignore[...]`, NOLINT (Suppressions.h)
//   baseline      --baseline (Baseline.h)
//   grouping      identical findings of several instantiations or launches
//                 as one (Grouping.h)
//
// and the summary line, which counts what was printed and what was left out
// at each step (grouped as printed), so that it agrees with the output.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_SELECTION_H
#define COALESCE_TOOLS_OUTPUT_SELECTION_H

#include "Baseline.h"
#include "Findings.h"
#include "HeaderFilter.h"
#include "Rule.h"

#include <map>
#include <string>
#include <vector>

namespace coalesce {

/// The rules one report is checked with.
using RulesFor = FindingsPolicy;

struct Selection {
  std::vector<Finding> All;      // after the header filter and comments (what a baseline records)
  std::vector<Finding> Reported; // after the baseline too (what --fix applies)
  std::vector<Finding> Shown;    // Reported, grouped per report: what is printed
  std::vector<size_t> ShownOf;   // Shown[i] is about Reports[ShownOf[i]]
  /// Records whose finding is not shown, and why (the HTML report marks them).
  std::map<const AccessRecord *, std::string> Silenced;
  /// What was left out, counted as it would have been printed (grouped).
  unsigned Suppressed = 0, InBaseline = 0, InSystemHeaders = 0, InOtherHeaders = 0;
  /// Suppression comments that name no rule: "file:line:col: message".
  std::vector<std::string> Problems;

  unsigned warnings() const;
};

/// Rules[i] applies to Reports[i]; Base may be null. Findings point into
/// Reports, which must not change afterwards.
Selection selectFindings(const std::vector<TUReport> &Reports, const std::vector<RulesFor> &Rules,
                         const HeaderFilter &Filter, Baseline *Base);

/// "24 accesses in 9 kernels: 5 warnings (4 uncoalesced-global, 1
/// shared-bank-conflict), 2 remarks (1 of them unknown that a stated value may
/// settle: ...); not shown: 3 suppressed by comments, 1 in
/// the baseline, 85 in system headers (--system-headers shows them)". With a
/// baseline, the shown findings are called new and its count is given even
/// when 0.
std::string runSummary(const std::vector<TUReport> &Reports, const Selection &S,
                       bool WithBaseline);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_SELECTION_H

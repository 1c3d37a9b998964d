//===- Findings.h - The one findings policy of every front-end ------------===//
//
// Between the rules and what a front-end prints, every front-end (the CLI,
// the language server, the clang-tidy plugin) applies the same steps:
//
//   rules      the enabled rules of the settings in force, with their
//              options (threshold, unknown remarks): runRules() decides which
//              records each rule speaks about (rules/Rule.h)
//   silencing  the front-end's reasons to leave a finding out, in its order:
//              comments (`// coalesce-lint: ignore[...]`, NOLINT), and for
//              the CLI the header filter and the baseline; each reason is a
//              bucket, so that what was left out can be counted
//   grouping   identical findings of several instantiations or launches as
//              one (Grouping.h), in every bucket alike
//
// The front-ends differ only in how they find the comments of a file (the
// CLI and the language server read text, the plugin asks clang's source
// manager) and in the extra buckets they have.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_FINDINGS_H
#define COALESCE_TOOLS_OUTPUT_FINDINGS_H

#include "Rule.h"

#include <functional>
#include <string>
#include <vector>

namespace coalesce {

/// Which rules speak, with which options.
struct FindingsPolicy {
  RuleOptions Options;
  std::vector<std::string> Enabled; // empty: all
};

/// Why a finding is left out: the bucket it is counted in ("suppressed",
/// "baseline", ...) and the words for it ("suppressed by ...").
struct Silence {
  std::string Bucket, Why;
  bool silenced() const { return !Bucket.empty(); }
};

/// The findings of one translation unit after the policy.
struct PolicyFindings {
  std::vector<Finding> Shown; // grouped, in order
  /// The findings left out, ungrouped, in order, each with its silence.
  std::vector<std::pair<Finding, Silence>> Silenced;
  /// How many findings a bucket holds, grouped as they would have been shown.
  unsigned count(const std::string &Bucket) const;
};

/// Runs the policy over the records of one translation unit. SilenceOf is
/// asked about each finding in turn (it may keep state: a baseline consumes
/// the findings it matches); an empty bucket means the finding is shown.
PolicyFindings applyPolicy(const std::vector<AccessRecord> &Records, const FindingsPolicy &P,
                           const std::function<Silence(const Finding &)> &SilenceOf);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_FINDINGS_H

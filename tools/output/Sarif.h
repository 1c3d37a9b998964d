//===- Sarif.h - Findings as SARIF 2.1.0 for GitHub code scanning ---------===//
//
// One run, one tool.driver with every rule (id "coalesce-<id>", the summary
// from Rules.def as shortDescription, the doc page rules/docs/<id>.md as
// fullDescription and help), one result per finding:
//
//  - level "warning" for findings, "note" for unknown-access remarks;
//  - message: the finding's message, then its notes (the evidence);
//  - locations: the access, with a URI relative to the source root
//    (uriBaseId %SRCROOT%) and a region (line, start and end column, in
//    Unicode code points: run.columnKind);
//  - relatedLocations: the notes that have a position of their own;
//  - partialFingerprints.primaryLocationLineHash (see lineHash);
//  - properties: the numbers (sectors or wavefronts per request, or
//    constant-cache requests per instruction, ideal,
//    kernel, launch block, ...);
//  - fixes: the fix-its, when the finding has any.
//
// Written with nlohmann::json: clang's SarifDocumentWriter cannot write a
// rule's help or fullDescription, which GitHub wants.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_SARIF_H
#define COALESCE_TOOLS_OUTPUT_SARIF_H

#include "Rule.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

#include <string>
#include <vector>

namespace coalesce {

struct SarifOptions {
  /// URIs are relative to this directory (default: the current one).
  std::string SourceRoot;
  /// Findings were filtered by a baseline: mark results as new.
  bool Baseline = false;
  /// What the run could not do besides errors, as tool execution
  /// notifications: kernels not analysed, a budget that ran out ("warning"),
  /// a compiler witness not used ("note").
  struct Notification {
    std::string Level; // "warning", "note"
    std::string Text;
    std::optional<SourcePos> Pos;
  };
  std::vector<Notification> Notifications;
};

/// The notifications of the reports (SarifOptions::Notifications).
std::vector<SarifOptions::Notification> runNotifications(const std::vector<TUReport> &Reports);

nlohmann::json findingsToSarif(const std::vector<Finding> &Findings,
                               const std::vector<std::string> &Errors,
                               const SarifOptions &Opts);

/// The fingerprint of a finding, without its occurrence suffix: the first 16
/// hex digits of SHA-256("coalesce-<rule>", kernel, normalised source line).
/// Moving the line, re-indenting it or editing its comment keeps it; editing
/// the code on the line, renaming the kernel or the rule changes it. SARIF
/// appends ":N" for the N-th finding with the same hash in the same file (in
/// line order), as GitHub's own line hashes do.
std::string lineHash(const Finding &F);

/// Percent-encodes a path for a URI ('/' kept).
std::string uriPath(const std::string &Path);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_SARIF_H

//===- Emit.h - Turning records and findings into text and JSON ----------===//
//
// Presentation only: these functions format what the analysis and the rules
// concluded; they compute nothing.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_EMIT_H
#define COALESCE_TOOLS_OUTPUT_EMIT_H

#include "report/Report.h"
#include "Rule.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace coalesce {

struct TextStyle {
  bool Color = false;
};

/// One finding in clang's diagnostic style, with the source line and caret.
std::string renderFinding(const Finding &F, const TextStyle &Style);

/// The JSON document (schema version 1, docs/json-schema.md).
nlohmann::json reportToJson(const std::vector<TUReport> &Reports,
                            const std::vector<std::string> &Errors);
nlohmann::json accessToJson(const AccessRecord &R);
/// A cost that depends on a run-time size (model/Parametric.h): its size,
/// cases and, WithTable, the value-by-value table (docs/json-schema.md).
nlohmann::json parametricToJson(const ParametricCost &P, bool WithTable);
/// A cost as JSON: rounded to 6 decimals, an integer when it is one.
nlohmann::json jsonNumber(double V);
/// The table of memory spaces (model/Spaces.h) as `--list-spaces
/// --format=json` prints it: for each space its unit, verdict, what its
/// cost is counted per, its JSON and SARIF keys, and the Nsight Compute
/// source-page columns verify mode compares with.
nlohmann::json spacesToJson();
/// The same as text, one line per space.
std::string spacesText();

/// "24 accesses in 9 kernels: 5 uncoalesced, 1 bank-conflicted, 2 unknown"
/// ("..., 1 serialised, 2 unknown" when constant reads are serialised)
std::string summaryLine(const std::vector<TUReport> &Reports);
/// "kernel 'k' is not analysed: clang reports an error in its code at
/// f.cu:5:3: ..." for a kernel a clang error touches ("" otherwise).
std::string notAnalysedNote(const KernelSummary &K);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_EMIT_H

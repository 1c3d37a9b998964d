//===- Grouping.h - One finding for identical findings of several kernels -===//
//
// The analysis produces one record per access, per template instantiation of
// its kernel and per launch configuration; the rules one finding per record.
// Several of them can say the same thing about the same access: copy<char>,
// copy<short> and copy<int> all reading `in[i * 32]` at 32 sectors per
// request, or one kernel launched with two block shapes that cost the same.
// The front-ends that print messages (text, SARIF, HTML, the clang-tidy
// plugin) report such findings once:
//
//   k.cu:9:12: warning: copy<char>, <short>, <int>: global load from 'in' uses 32 sectors ...
//
// Findings are the same when their rule, level, position and message are;
// the merged finding keeps the first one's record (Also lists the others),
// every distinct note (so each launch's assumption note stays; notes are kept
// in the order of their kind: evidence, assumptions, suggestions; a note that
// differs between the kernels of the group starts with "in KERNEL: ") and the
// fix-its (another member's only where none is at its place yet). First,
// the findings of one kernel's access that differ between its launch
// configurations become one (mergeConfigurations()): a line is never
// printed twice for one kernel. Findings of different kernels with different
// costs stay apart, each naming its own instantiations. A message names the kernels when one of them is a
// template instantiation (a name with template arguments); the names of
// several instantiations of one template are shortened to their arguments
// after the first ("copy<char>, <short>"). The JSON output is data and keeps
// one record per instantiation.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_GROUPING_H
#define COALESCE_TOOLS_OUTPUT_GROUPING_H

#include "Rule.h"

#include <string>
#include <vector>

namespace coalesce {

/// One finding per rule, position and kernel: the findings of one kernel's
/// access that differ between its launch configurations (block sizes,
/// argument values) or calls become the dearest of them (a warning before a
/// remark, then by waste: Waste.h), which keeps the others' records in Also
/// and gains a note with every configuration's cost ("one finding for the 6
/// launch configurations of this kernel; their costs: 4.862 sectors per
/// request (ideal 3.99) with blockDim = (128, 1, 1) from ...; ..."). Findings
/// that read the same are left for groupFindings() to join.
std::vector<Finding> mergeConfigurations(std::vector<Finding> Findings);

/// The load and the store of one read-modify-write (`out[i] /= s`: one
/// expression, one position, one kernel) that cost the same are one finding:
/// "global load and store of 'out' each use 32 sectors per request ...",
/// with both records (the store's in Also) and the notes of both, once.
std::vector<Finding> mergeReadModifyWrite(std::vector<Finding> Findings);

/// The findings of one translation unit, grouped, in the order of their first
/// member; messages name their kernels' instantiations.
std::vector<Finding> groupFindings(std::vector<Finding> Findings);

/// The distinct kernels F stands for (its record's and Also's), in order.
std::vector<std::string> kernelsOf(const Finding &F);

/// "copy<char>, <short>, <int>": names in order, each instantiation of the
/// template before it shortened to its template arguments.
std::string kernelList(const std::vector<std::string> &Names);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_GROUPING_H

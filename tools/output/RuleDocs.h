//===- RuleDocs.h - The rules' doc pages, embedded --------------------------===//
//
// rules/docs/<id>.md is each rule's documentation (summary sentence, example,
// how the number is computed, limits, options, fix). The pages are embedded
// at build time so that SARIF can carry them as rule help without the source
// tree at hand.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_RULEDOCS_H
#define COALESCE_TOOLS_OUTPUT_RULEDOCS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace coalesce {

/// The Markdown of rules/docs/<Id>.md; empty if the rule has no page.
llvm::StringRef ruleDocMarkdown(llvm::StringRef Id);

/// The page's introduction: its paragraphs before the first "## " heading,
/// without the title, joined into one line each ("" without a page).
std::string ruleDocIntroduction(llvm::StringRef Id);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_RULEDOCS_H

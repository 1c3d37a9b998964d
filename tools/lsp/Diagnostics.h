//===- Diagnostics.h - Findings as LSP diagnostics and code actions ------===//
//
// The same findings as the CLI prints, for one document: the rules' message,
// the rule's check name as the diagnostic's code (`coalesce-...`), warnings
// as warnings and remarks (accesses that cannot be predicted) as
// information, the notes (per-lane evidence, assumptions, the suggested fix)
// as related information, or appended to the message for clients that do
// not show related information. A finding's fix-it (the padding of a shared
// tile) is a quick-fix code action whose edit is the fix-it itself, offered
// only while the line it edits still reads as when it was analysed.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_LSP_DIAGNOSTICS_H
#define COALESCE_TOOLS_LSP_DIAGNOSTICS_H

#include "Document.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace coalesce {
namespace lsp {

/// llvm::lsp::Diagnostic has no `code`: this adds it.
struct Diagnostic {
  llvm::lsp::Diagnostic Base;
  std::string Code; // "coalesce-uncoalesced-global"; "" for none
};
llvm::json::Value toJSON(const Diagnostic &D);

/// The document's diagnostics: its findings, or the one problem that kept
/// it from being analysed.
std::vector<Diagnostic> diagnostics(const AnalysedDocument &Doc, const ClientSupport &Client);

struct CodeAction {
  std::string Title;
  std::vector<Diagnostic> Diagnostics; // the findings it fixes
  llvm::lsp::WorkspaceEdit Edit;
};
llvm::json::Value toJSON(const CodeAction &A);

/// The quick fixes for the findings on the lines of Range (inclusive).
std::vector<CodeAction> codeActions(const AnalysedDocument &Doc, const llvm::lsp::Range &Range,
                                    const ClientSupport &Client);

} // namespace lsp
} // namespace coalesce

#endif // COALESCE_TOOLS_LSP_DIAGNOSTICS_H

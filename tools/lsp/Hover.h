//===- Hover.h - The warp map of the accesses under the cursor ------------===//
//
// Hovering over an access line shows, for each access on it (or only the one
// under the cursor), what `coalesce-lint --explain` draws: the access, its
// cost per request, the kernel and launch it was analysed for, and the warp
// map (lane -> sector or bank) in a code block. An access that cannot be
// predicted shows why.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_LSP_HOVER_H
#define COALESCE_TOOLS_LSP_HOVER_H

#include "Document.h"

#include <optional>

namespace coalesce {
namespace lsp {

/// The hover at P; nullopt when its line has no access.
std::optional<llvm::lsp::Hover> hover(const AnalysedDocument &Doc, const llvm::lsp::Position &P,
                                      const ClientSupport &Client);

} // namespace lsp
} // namespace coalesce

#endif // COALESCE_TOOLS_LSP_HOVER_H

//===- LspServer.h - coalesce-lint as a language server ------------------===//
//
// `coalesce-lint lsp` speaks the Language Server Protocol on stdin/stdout,
// beside clangd (it does not replace it): for each open .cu/.cuh document it
// publishes the findings as diagnostics and answers inlay hints (the numbers
// of every access line), hovers (warp maps) and code actions (the padding
// fix-its). See docs/lsp.md.
//
// The protocol layer is LLVM's own (llvm/Support/LSP: JSON-RPC framing over
// stdio, message dispatch, URIs and most protocol types, the layer MLIR's
// language servers use), linked from the shared libLLVM like the rest of
// LLVM. What it lacks is added here: `code` on diagnostics, tooltips on inlay
// hints, UTF-16/UTF-8 positions, and $/cancelRequest (its dispatcher neither
// handles it nor tells a handler its request's id, so the input stream is
// tapped to learn both).
//
// Threads: the main thread reads messages and answers what is ready; one
// worker analyses documents, newest version first. A request about a document
// whose current version is not analysed yet waits for that analysis (or its
// cancellation); the results of an analysis that a newer version overtook are
// dropped; edits are debounced. Analyses are cached in memory by the text and
// the exact command, options and settings they ran with, so reopening an
// unchanged file answers from the cache (a save always re-analyses, since a
// header may have changed); the precompiled-header cache on disk is shared
// with the CLI.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_LSP_LSPSERVER_H
#define COALESCE_TOOLS_LSP_LSPSERVER_H

namespace coalesce {
namespace lsp {

/// `coalesce-lint lsp [options]` (Argv[1] is "lsp"): serves until the
/// client's exit notification. Returns the process's exit status: 0 after
/// shutdown and exit, 1 when the input ended or exit came without shutdown,
/// 2 for a usage error.
int lspMain(int Argc, char **Argv);

} // namespace lsp
} // namespace coalesce

#endif // COALESCE_TOOLS_LSP_LSPSERVER_H

//===- Document.h - One analysed version of an open document -------------===//
//
// What the language server answers from: the text of one version of a
// document, the analysis of that text (shared with the server's result
// cache) and the rules' findings after the document's own suppression
// comments. The features (diagnostics, inlay hints, hover, code actions)
// only convert this to LSP; they compute nothing.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_LSP_DOCUMENT_H
#define COALESCE_TOOLS_LSP_DOCUMENT_H

#include "Positions.h"
#include "Rule.h"
#include "driver/Runner.h"

#include "llvm/Support/LSP/Protocol.h"

#include <memory>
#include <string>
#include <vector>

namespace coalesce {
namespace lsp {

/// What the client said it supports (initialize), where it changes answers.
struct ClientSupport {
  Encoding Positions = Encoding::UTF16;
  /// Diagnostic.relatedInformation is shown; otherwise the notes go into
  /// the message, as clangd does.
  bool RelatedInformation = false;
  /// Hover text may be markdown.
  bool MarkdownHover = false;
};

struct AnalysedDocument {
  std::string Path; // absolute; the records of this file name it so
  llvm::lsp::URIForFile Uri;
  int64_t Version = 0;
  std::string Text; // the text that was analysed
  /// The analysis; null when it could not run (Problem says why).
  std::shared_ptr<const RunResult> Result;
  /// The rules' findings about this file, suppressed ones removed; they
  /// point into *Result.
  std::vector<Finding> Findings;
  /// Why there are no results (a configuration error, a parse failure), as
  /// one diagnostic at ProblemLine:ProblemColumn (1-based; 0 = the start).
  std::string Problem;
  unsigned ProblemLine = 0, ProblemColumn = 0;

  AnalysedDocument() = default;
  AnalysedDocument(const AnalysedDocument &) = delete;
  AnalysedDocument &operator=(const AnalysedDocument &) = delete;

  /// One access in the source: its records (one per call context and
  /// launch configuration of its kernel), in the analysis' order.
  struct Site {
    const AccessRecord *First; // where it is, what it touches
    std::vector<const AccessRecord *> Records;
  };
  /// The accesses on 1-based Line of this document (not of the headers it
  /// includes), by column.
  std::vector<Site> sitesOnLine(unsigned Line) const;
  /// The 1-based lines of this document that have accesses, ascending.
  std::vector<unsigned> accessLines() const;
};

} // namespace lsp
} // namespace coalesce

#endif // COALESCE_TOOLS_LSP_DOCUMENT_H

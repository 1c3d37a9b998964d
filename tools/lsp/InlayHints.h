//===- InlayHints.h - The numbers at the end of each access line ----------===//
//
// Every line with a global, shared or constant access gets one hint at its
// end, the record's numbers as Nsight Compute counts them, per access:
//
//   out[i] = in[i * 32];             in 32/4 sectors, out 4/4 sectors
//   v = tile[threadIdx.x][k];        tile 32/1 wavefronts (32-way)
//   out[i] = in[i * cols];           in ? sectors (cols), out 4/4 sectors
//   v = table[threadIdx.x / 8];      table 4/1 requests (of the constant cache)
//
// "cost/ideal" per request; shared accesses with a bank conflict add the
// n-way; an access that cannot be predicted shows "?" and the code its
// reason names (the full reason is the hint's tooltip). An access analysed
// in several contexts (launches, template instances, callers) with
// different numbers lists each ("in 4/4 sectors or 8/4 sectors").
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_LSP_INLAYHINTS_H
#define COALESCE_TOOLS_LSP_INLAYHINTS_H

#include "Document.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace coalesce {
namespace lsp {

struct InlayHint {
  llvm::lsp::Position Position;
  std::string Label;
  std::string Tooltip; // "" for none
};
llvm::json::Value toJSON(const InlayHint &H);

/// The hints of the lines in Range (inclusive of its end line).
std::vector<InlayHint> inlayHints(const AnalysedDocument &Doc, const llvm::lsp::Range &Range,
                                  const ClientSupport &Client);

/// One access's numbers without its name: "32/4 sectors", "2/1 wavefronts
/// (2-way)", "? sectors (cols)".
std::string costLabel(const AccessRecord &R);

/// The code an unknown access's reason is about (AccessRecord::ReasonSubject,
/// "cols", "idx[i]"), cut to fit a hint.
std::string shortSubject(const std::string &Subject);

} // namespace lsp
} // namespace coalesce

#endif // COALESCE_TOOLS_LSP_INLAYHINTS_H

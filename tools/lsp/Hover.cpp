//===- Hover.cpp - The warp map of the accesses under the cursor ----------===//

#include "Hover.h"

#include "WarpMap.h"

namespace coalesce {
namespace lsp {

namespace {

constexpr size_t MaxRecords = 6; // maps in one hover; the rest are counted

/// One record: its cost line, where it was analysed, and its map.
std::string describe(const AccessRecord &R, bool Markdown) {
  std::string S = Markdown ? "**" + accessPhrase(R) + "**" : accessPhrase(R);
  if (!R.Ans.known())
    S += ":" + unknownPhrase(R);
  else
    S += ": " + warpMapCaption(R);
  S += "\n\n";
  std::string Where = "kernel " + (Markdown ? "`" + R.Kernel + "`" : "'" + R.Kernel + "'");
  if (!R.Context.empty())
    Where += ", " + R.Context;
  S += Where + "; " + R.Launch.describe() + "\n";
  const std::string Map = renderWarpMapText(R, "");
  if (!Map.empty())
    S += Markdown ? "\n```text\n" + Map + "```\n" : "\n" + Map;
  return S;
}

} // namespace

std::optional<llvm::lsp::Hover> hover(const AnalysedDocument &Doc, const llvm::lsp::Position &P,
                                      const ClientSupport &Client) {
  if (P.line < 0)
    return std::nullopt;
  const unsigned Line = static_cast<unsigned>(P.line) + 1;
  std::vector<AnalysedDocument::Site> Sites = Doc.sitesOnLine(Line);
  if (Sites.empty())
    return std::nullopt;
  LineTable Lines(Doc.Text);
  // The access under the cursor alone, when there is one.
  std::optional<llvm::lsp::Range> Under;
  for (const AnalysedDocument::Site &S : Sites) {
    const SourcePos &Pos = shownAt(*S.First);
    llvm::lsp::Range R(Lines.position(Pos.Line, Pos.Column, Client.Positions),
                       Lines.position(Pos.Line, std::max(Pos.EndColumn, Pos.Column + 1),
                                      Client.Positions));
    if (R.contains(P)) {
      Sites = {S};
      Under = R;
      break;
    }
  }
  std::vector<const AccessRecord *> Records;
  for (const AnalysedDocument::Site &S : Sites)
    Records.insert(Records.end(), S.Records.begin(), S.Records.end());

  const bool Md = Client.MarkdownHover;
  llvm::lsp::Hover H(Under ? *Under
                           : llvm::lsp::Range(llvm::lsp::Position(P.line, 0),
                                              Lines.endOfLine(Line - 1, Client.Positions)));
  H.contents.kind = Md ? llvm::lsp::MarkupKind::Markdown : llvm::lsp::MarkupKind::PlainText;
  std::string &Text = H.contents.value;
  for (size_t I = 0; I < Records.size() && I < MaxRecords; ++I) {
    if (I)
      Text += Md ? "\n---\n\n" : "\n";
    Text += describe(*Records[I], Md);
  }
  if (Records.size() > MaxRecords)
    Text += "\n(" + std::to_string(Records.size() - MaxRecords) +
            " more analyses of this line not shown)\n";
  return H;
}

} // namespace lsp
} // namespace coalesce

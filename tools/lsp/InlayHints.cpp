//===- InlayHints.cpp - The numbers at the end of each access line --------===//

#include "InlayHints.h"

#include <algorithm>

namespace coalesce {
namespace lsp {

namespace {

constexpr size_t MaxSubject = 24; // bytes of a reason's subject in a label

/// The last word of the space's unit, short enough for a hint: "sectors",
/// "wavefronts", "requests" (of the constant cache).
std::string unit(const AccessRecord &R) {
  const std::string U = costUnits(R.Space);
  return U.substr(U.rfind(' ') + 1);
}

} // namespace

std::string shortSubject(const std::string &Subject) {
  std::string S = Subject;
  if (S.size() > MaxSubject) {
    size_t Cut = MaxSubject - 3;
    while (Cut > 0 && (static_cast<unsigned char>(S[Cut]) & 0xC0) == 0x80)
      --Cut; // not inside a UTF-8 character
    S = S.substr(0, Cut) + "...";
  }
  return S;
}

std::string costLabel(const AccessRecord &R) {
  const Answer &A = R.Ans;
  if (!A.known()) {
    std::string S = "? " + unit(R);
    std::string Subject = shortSubject(A.why().Subject);
    if (!Subject.empty())
      S += " (" + Subject + ")";
    return S;
  }
  std::string S = formatNumber(A.cost()) + "/" + formatNumber(A.ideal()) + " " + unit(R);
  if (spaceModel(R.Space).ReportsConflictWays && A.excessOver(1))
    S += " (" + formatNumber(A.ratio()) + "-way)";
  return S;
}

llvm::json::Value toJSON(const InlayHint &H) {
  llvm::json::Object O{{"position", H.Position},
                       {"label", H.Label},
                       {"kind", 1}, // Type: a value the code computes
                       {"paddingLeft", true}};
  if (!H.Tooltip.empty())
    O["tooltip"] = H.Tooltip;
  return O;
}

std::vector<InlayHint> inlayHints(const AnalysedDocument &Doc, const llvm::lsp::Range &Range,
                                  const ClientSupport &Client) {
  std::vector<InlayHint> Out;
  LineTable Lines(Doc.Text);
  for (unsigned Line : Doc.accessLines()) {
    const int L0 = static_cast<int>(Line) - 1;
    if (L0 < Range.start.line || L0 > Range.end.line)
      continue;
    std::string Label, Tooltip;
    for (const AnalysedDocument::Site &S : Doc.sitesOnLine(Line)) {
      std::vector<std::string> Values;
      for (const AccessRecord *R : S.Records) {
        std::string V = costLabel(*R);
        if (std::find(Values.begin(), Values.end(), V) == Values.end())
          Values.push_back(V);
        if (!R->Ans.known()) {
          std::string T = S.First->Array + ": " + R->Ans.why().Text;
          if (Tooltip.find(T) == std::string::npos)
            Tooltip += (Tooltip.empty() ? "" : "\n") + T;
        }
      }
      std::string Part = S.First->Array + " ";
      for (size_t I = 0; I < Values.size(); ++I)
        Part += (I ? " or " : "") + Values[I];
      Label += (Label.empty() ? "" : ", ") + Part;
    }
    if (!Label.empty())
      Out.push_back({Lines.endOfLine(static_cast<unsigned>(L0), Client.Positions), Label,
                     Tooltip});
  }
  return Out;
}

} // namespace lsp
} // namespace coalesce

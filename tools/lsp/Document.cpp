//===- Document.cpp - One analysed version of an open document -----------===//

#include "Document.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace coalesce {
namespace lsp {

std::vector<AnalysedDocument::Site> AnalysedDocument::sitesOnLine(unsigned Line) const {
  std::vector<Site> Out;
  if (!Result)
    return Out;
  auto SameSite = [](const AccessRecord &A, const AccessRecord &B) {
    return A.Pos.Column == B.Pos.Column && A.Pos.EndColumn == B.Pos.EndColumn &&
           A.Space == B.Space && A.Op == B.Op && A.Array == B.Array;
  };
  for (const AccessRecord &R : Result->Report.Accesses) {
    if (R.Pos.Line != Line || R.Pos.File != Path)
      continue;
    auto It = std::find_if(Out.begin(), Out.end(),
                           [&](const Site &S) { return SameSite(*S.First, R); });
    if (It == Out.end())
      Out.push_back(Site{&R, {&R}});
    else
      It->Records.push_back(&R);
  }
  std::stable_sort(Out.begin(), Out.end(), [](const Site &A, const Site &B) {
    return A.First->Pos.Column < B.First->Pos.Column;
  });
  return Out;
}

std::vector<unsigned> AnalysedDocument::accessLines() const {
  std::set<unsigned> Lines;
  if (Result)
    for (const AccessRecord &R : Result->Report.Accesses)
      if (R.Pos.File == Path && R.Pos.Line > 0)
        Lines.insert(R.Pos.Line);
  return std::vector<unsigned>(Lines.begin(), Lines.end());
}

} // namespace lsp
} // namespace coalesce

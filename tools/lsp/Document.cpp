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
  // Where the records are shown (shownAt(): an access in a helper that
  // only dereferences what it is given is shown at the caller's argument).
  auto SameSite = [](const AccessRecord &A, const AccessRecord &B) {
    const SourcePos &PA = shownAt(A), &PB = shownAt(B);
    return PA.Column == PB.Column && PA.EndColumn == PB.EndColumn && A.Space == B.Space &&
           A.Op == B.Op && A.Array == B.Array;
  };
  for (const AccessRecord &R : Result->Report.Accesses) {
    if (shownAt(R).Line != Line || shownAt(R).File != Path)
      continue;
    auto It = std::find_if(Out.begin(), Out.end(),
                           [&](const Site &S) { return SameSite(*S.First, R); });
    if (It == Out.end())
      Out.push_back(Site{&R, {&R}});
    else
      It->Records.push_back(&R);
  }
  std::stable_sort(Out.begin(), Out.end(), [](const Site &A, const Site &B) {
    return shownAt(*A.First).Column < shownAt(*B.First).Column;
  });
  return Out;
}

std::vector<unsigned> AnalysedDocument::accessLines() const {
  std::set<unsigned> Lines;
  if (Result)
    for (const AccessRecord &R : Result->Report.Accesses)
      if (shownAt(R).File == Path && shownAt(R).Line > 0)
        Lines.insert(shownAt(R).Line);
  return std::vector<unsigned>(Lines.begin(), Lines.end());
}

} // namespace lsp
} // namespace coalesce

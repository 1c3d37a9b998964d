//===- SourceEdit.cpp - Applying edits to a text ----------------------------===//

#include "report/SourceEdit.h"

#include <algorithm>
#include <tuple>

namespace coalesce {

namespace {

/// Byte offset of (Line, Column) in Text, or npos when outside it.
size_t offsetOf(const std::string &Text, unsigned Line, unsigned Column) {
  if (Line == 0 || Column == 0)
    return std::string::npos;
  size_t Off = 0;
  for (unsigned L = 1; L < Line; ++L) {
    Off = Text.find('\n', Off);
    if (Off == std::string::npos)
      return std::string::npos;
    ++Off;
  }
  size_t LineEnd = Text.find('\n', Off);
  if (LineEnd == std::string::npos)
    LineEnd = Text.size();
  if (Off + Column - 1 > LineEnd)
    return std::string::npos;
  return Off + Column - 1;
}

std::string where(const SourceEdit &X) {
  return X.Pos.File + ":" + std::to_string(X.Pos.Line) + ":" + std::to_string(X.Pos.Column);
}

} // namespace

std::string applyEditsToText(const std::string &Text, std::vector<SourceEdit> Edits,
                             unsigned &Applied, std::vector<std::string> &Skipped) {
  Applied = 0;
  // Same edit from several findings: once.
  auto Key = [](const SourceEdit &X) {
    return std::make_tuple(X.Pos.Line, X.Pos.Column, X.RemoveLength, X.Insert);
  };
  std::sort(Edits.begin(), Edits.end(), [&](const SourceEdit &A, const SourceEdit &B) { return Key(A) < Key(B); });
  Edits.erase(std::unique(Edits.begin(), Edits.end(),
                          [&](const SourceEdit &A, const SourceEdit &B) { return Key(A) == Key(B); }),
              Edits.end());
  struct Located {
    size_t Begin, End;
    const SourceEdit *X;
  };
  std::vector<Located> Ok;
  for (const SourceEdit &X : Edits) {
    size_t B = offsetOf(Text, X.Pos.Line, X.Pos.Column);
    if (B == std::string::npos || B + X.RemoveLength > Text.size()) {
      Skipped.push_back(where(X) + ": not in the file (it changed since the analysis?)");
      continue;
    }
    // The edit was computed against Pos.LineText: the line must still read so.
    if (!X.Pos.LineText.empty()) {
      size_t LineBegin = B - (X.Pos.Column - 1);
      if (Text.compare(LineBegin, X.Pos.LineText.size(), X.Pos.LineText) != 0) {
        Skipped.push_back(where(X) + ": the line changed since the analysis");
        continue;
      }
    }
    Ok.push_back({B, B + X.RemoveLength, &X});
  }
  // Overlapping or touching edits (two different paddings of one dimension,
  // "32" -> "33" and an insertion after it): keep the first, skip the others.
  std::sort(Ok.begin(), Ok.end(), [](const Located &A, const Located &B) {
    return std::tie(A.Begin, A.End) < std::tie(B.Begin, B.End);
  });
  std::vector<Located> Kept;
  for (const Located &L : Ok) {
    if (!Kept.empty() && L.Begin <= Kept.back().End) {
      Skipped.push_back(where(*L.X) + ": overlaps another fix at " + where(*Kept.back().X));
      continue;
    }
    Kept.push_back(L);
  }
  std::string Out = Text;
  for (auto It = Kept.rbegin(); It != Kept.rend(); ++It) {
    Out.replace(It->Begin, It->End - It->Begin, It->X->Insert);
    ++Applied;
  }
  return Out;
}

} // namespace coalesce

//===- Positions.cpp - LSP positions in a document's text ----------------===//

#include "Positions.h"

#include <algorithm>

namespace coalesce {
namespace lsp {

namespace {

/// Length in bytes of the UTF-8 sequence starting with byte B (1 for bytes
/// that cannot start one, so malformed text still advances).
size_t sequenceLength(unsigned char B) {
  if (B >= 0xF0 && B <= 0xF7)
    return 4;
  if (B >= 0xE0)
    return B <= 0xEF ? 3 : 1;
  if (B >= 0xC0)
    return 2;
  return 1;
}

/// Code units of E that the character of UTF-8 length N takes.
size_t unitsOf(size_t N, Encoding E) {
  switch (E) {
  case Encoding::UTF8:
    return N;
  case Encoding::UTF16:
    return N == 4 ? 2 : 1;
  case Encoding::UTF32:
    return 1;
  }
  return N;
}

/// Code units in the first Bytes bytes of Line.
size_t unitsBefore(llvm::StringRef Line, size_t Bytes, Encoding E) {
  Bytes = std::min(Bytes, Line.size());
  if (E == Encoding::UTF8)
    return Bytes;
  size_t Units = 0;
  for (size_t I = 0; I < Bytes;) {
    size_t N = std::min(sequenceLength(static_cast<unsigned char>(Line[I])), Line.size() - I);
    Units += unitsOf(N, E);
    I += N;
  }
  return Units;
}

/// Bytes of Line covered by its first Units code units (a position inside a
/// character moves to the character's end).
size_t bytesBefore(llvm::StringRef Line, size_t Units, Encoding E) {
  if (E == Encoding::UTF8)
    return std::min(Units, Line.size());
  size_t I = 0, U = 0;
  while (I < Line.size() && U < Units) {
    size_t N = std::min(sequenceLength(static_cast<unsigned char>(Line[I])), Line.size() - I);
    U += unitsOf(N, E);
    I += N;
  }
  return I;
}

} // namespace

const char *encodingName(Encoding E) {
  switch (E) {
  case Encoding::UTF8:
    return "utf-8";
  case Encoding::UTF16:
    return "utf-16";
  case Encoding::UTF32:
    return "utf-32";
  }
  return "utf-16";
}

LineTable::LineTable(llvm::StringRef Text) : Text(Text) {
  Starts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
}

llvm::StringRef LineTable::line(unsigned L) const {
  if (L >= Starts.size())
    return "";
  size_t B = Starts[L];
  size_t E = L + 1 < Starts.size() ? Starts[L + 1] - 1 : Text.size();
  llvm::StringRef S = Text.slice(B, E);
  if (S.ends_with("\r"))
    S = S.drop_back();
  return S;
}

size_t LineTable::lineStart(unsigned L) const {
  return L < Starts.size() ? Starts[L] : Text.size();
}

llvm::lsp::Position LineTable::position(size_t Offset, Encoding E) const {
  Offset = std::min(Offset, Text.size());
  auto It = std::upper_bound(Starts.begin(), Starts.end(), Offset);
  unsigned L = static_cast<unsigned>(It - Starts.begin()) - 1;
  return llvm::lsp::Position(static_cast<int>(L),
                             static_cast<int>(unitsBefore(line(L), Offset - Starts[L], E)));
}

llvm::lsp::Position LineTable::position(unsigned Line, unsigned Column, Encoding E) const {
  if (Line == 0)
    return llvm::lsp::Position(0, 0);
  if (Line > Starts.size())
    return position(Text.size(), E);
  const unsigned L = Line - 1;
  return llvm::lsp::Position(
      static_cast<int>(L),
      static_cast<int>(unitsBefore(line(L), Column > 0 ? Column - 1 : 0, E)));
}

llvm::lsp::Position LineTable::endOfLine(unsigned L, Encoding E) const {
  if (L >= Starts.size())
    return position(Text.size(), E);
  llvm::StringRef S = line(L);
  return llvm::lsp::Position(static_cast<int>(L), static_cast<int>(unitsBefore(S, S.size(), E)));
}

long long LineTable::offset(const llvm::lsp::Position &P, Encoding E) const {
  if (P.line < 0 || P.character < 0)
    return -1;
  const unsigned L = static_cast<unsigned>(P.line);
  if (L >= Starts.size())
    return static_cast<long long>(Text.size());
  return static_cast<long long>(Starts[L] +
                                bytesBefore(line(L), static_cast<size_t>(P.character), E));
}

bool applyChange(std::string &Text, const llvm::lsp::TextDocumentContentChangeEvent &C,
                 Encoding E) {
  if (!C.range) {
    Text = C.text;
    return true;
  }
  LineTable T(Text);
  long long B = T.offset(C.range->start, E), End = T.offset(C.range->end, E);
  if (B < 0 || End < B)
    return false;
  Text.replace(static_cast<size_t>(B), static_cast<size_t>(End - B), C.text);
  return true;
}

} // namespace lsp
} // namespace coalesce

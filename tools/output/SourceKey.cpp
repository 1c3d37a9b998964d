//===- SourceKey.cpp - Stable names for findings --------------------------===//

#include "SourceKey.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

namespace coalesce {

std::string absolutePath(llvm::StringRef File) {
  llvm::SmallString<256> P(File);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::optional<std::string> relativePath(llvm::StringRef File, llvm::StringRef Root) {
  std::string F = absolutePath(File), R = absolutePath(Root);
  while (R.size() > 1 && llvm::sys::path::is_separator(R.back()))
    R.pop_back();
  if (F == R)
    return std::nullopt;
  if (F.size() <= R.size() || F.compare(0, R.size(), R) != 0)
    return std::nullopt;
  // Root "/a/b" is a prefix of "/a/bc/x.cu" too: the next character must be
  // a separator (or Root is "/").
  size_t Start = R.size();
  if (!llvm::sys::path::is_separator(R.back())) {
    if (!llvm::sys::path::is_separator(F[Start]))
      return std::nullopt;
    ++Start;
  }
  llvm::SmallString<256> Rel(llvm::StringRef(F).substr(Start));
  llvm::sys::path::native(Rel, llvm::sys::path::Style::posix);
  return std::string(Rel);
}

std::string displayPath(llvm::StringRef File, llvm::StringRef Root) {
  if (auto Rel = relativePath(File, Root))
    return *Rel;
  return absolutePath(File);
}

std::string normaliseLineText(llvm::StringRef Line) {
  std::string Out;
  char Quote = 0;
  bool PendingSpace = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (Quote) {
      Out += C;
      if (C == '\\' && I + 1 < Line.size())
        Out += Line[++I];
      else if (C == Quote)
        Quote = 0;
      continue;
    }
    if (C == '/' && I + 1 < Line.size() && Line[I + 1] == '/')
      break;
    if (C == ' ' || C == '\t' || C == '\r' || C == '\n' || C == '\v' || C == '\f') {
      PendingSpace = !Out.empty();
      continue;
    }
    if (PendingSpace)
      Out += ' ';
    PendingSpace = false;
    if (C == '"' || C == '\'')
      Quote = C;
    Out += C;
  }
  return Out;
}

std::string stableHash(llvm::ArrayRef<std::string> Parts) {
  llvm::SHA256 H;
  for (const std::string &P : Parts) {
    H.update(llvm::StringRef(P));
    const uint8_t Nul = 0;
    H.update(llvm::ArrayRef<uint8_t>(&Nul, 1));
  }
  auto Digest = H.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(Digest.data(), 8), /*LowerCase=*/true);
}

} // namespace coalesce

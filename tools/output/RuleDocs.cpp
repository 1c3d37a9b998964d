//===- RuleDocs.cpp - The rules' doc pages, embedded ------------------------===//

#include "RuleDocs.h"

#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace coalesce {

namespace {
#include "RuleDocs.inc"
} // namespace

llvm::StringRef ruleDocMarkdown(llvm::StringRef Id) {
  for (const auto *D = kRuleDocs; D->first; ++D)
    if (Id == D->first)
      return D->second;
  return "";
}

std::string ruleDocIntroduction(llvm::StringRef Id) {
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  ruleDocMarkdown(Id).split(Lines, '\n');
  std::string Out, Para;
  auto Flush = [&] {
    if (Para.empty())
      return;
    Out += (Out.empty() ? "" : "\n\n") + Para;
    Para.clear();
  };
  for (llvm::StringRef L : Lines) {
    L = L.rtrim();
    if (L.starts_with("## "))
      break;
    if (L.starts_with("# ")) // the title
      continue;
    if (L.trim().empty()) {
      Flush();
      continue;
    }
    Para += (Para.empty() ? "" : " ") + L.trim().str();
  }
  Flush();
  return Out;
}

} // namespace coalesce

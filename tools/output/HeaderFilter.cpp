//===- HeaderFilter.cpp - Which files findings are shown from -------------===//

#include "HeaderFilter.h"

#include "SourceKey.h"

namespace coalesce {

llvm::Expected<HeaderFilter> HeaderFilter::create(const std::optional<std::string> &Regex,
                                                  bool SystemHeaders,
                                                  const std::string &SourceRoot) {
  HeaderFilter F;
  F.SystemHeaders = SystemHeaders;
  F.Root = absolutePath(SourceRoot.empty() ? "." : SourceRoot);
  if (Regex) {
    F.Regex = std::make_shared<llvm::Regex>(*Regex);
    std::string Why;
    if (!F.Regex->isValid(Why))
      return llvm::createStringError(std::errc::invalid_argument,
                                     "--header-filter='%s': %s", Regex->c_str(), Why.c_str());
  }
  return F;
}

HeaderFilter::Where HeaderFilter::classify(const SourcePos &P) const {
  if (P.InMainFile || P.File.empty())
    return Where::Shown;
  if (P.InSystemHeader && !SystemHeaders)
    return Where::SystemHeader;
  bool Matches;
  if (Regex)
    Matches = Regex->match(P.File) || Regex->match(absolutePath(P.File));
  else
    Matches = P.InSystemHeader || relativePath(P.File, Root).has_value();
  if (Matches)
    return Where::Shown;
  return P.InSystemHeader ? Where::SystemHeader : Where::OtherHeader;
}

} // namespace coalesce

//===- Baseline.cpp - Adopting coalesce-lint on an existing code base -----===//

#include "Baseline.h"

#include "SourceKey.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace coalesce {

namespace {

constexpr int BaselineVersion = 1;

std::string directoryOf(const std::string &Path) {
  return std::string(llvm::sys::path::parent_path(absolutePath(Path)));
}

llvm::Error error(const std::string &Path, const std::string &Msg) {
  return llvm::createStringError(std::errc::invalid_argument, "%s: %s", Path.c_str(),
                                 Msg.c_str());
}

} // namespace

BaselineKey Baseline::keyOf(const Finding &F, const std::string &Path) {
  BaselineKey K;
  K.File = displayPath(F.Pos.File, directoryOf(Path));
  K.Kernel = F.Record ? F.Record->Kernel : "";
  K.Rule = F.RuleId;
  K.Source = normaliseLineText(F.Pos.LineText);
  return K;
}

llvm::Expected<Baseline> Baseline::load(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return error(Path, "cannot read the baseline: " + Buf.getError().message());
  nlohmann::json J = nlohmann::json::parse((*Buf)->getBuffer().begin(),
                                           (*Buf)->getBuffer().end(), nullptr,
                                           /*allow_exceptions=*/false);
  if (J.is_discarded() || !J.is_object())
    return error(Path, "not a coalesce-lint baseline (invalid JSON)");
  if (!J.contains("version") || J["version"] != BaselineVersion ||
      !J.contains("findings") || !J["findings"].is_array())
    return error(Path, "not a coalesce-lint baseline (expected \"version\": " +
                           std::to_string(BaselineVersion) + " and \"findings\")");
  Baseline B;
  B.Path = Path;
  for (const nlohmann::json &E : J["findings"]) {
    auto Str = [&](const char *Key) -> std::optional<std::string> {
      if (!E.is_object() || !E.contains(Key) || !E[Key].is_string())
        return std::nullopt;
      return E[Key].get<std::string>();
    };
    auto File = Str("file"), Kernel = Str("kernel"), Rule = Str("rule"), Source = Str("source");
    if (!File || !Kernel || !Rule || !Source)
      return error(Path, "a finding needs the strings \"file\", \"kernel\", \"rule\" "
                         "and \"source\": " + E.dump());
    unsigned Count = 1;
    if (E.contains("count")) {
      if (!E["count"].is_number_unsigned() || E["count"].get<unsigned>() == 0)
        return error(Path, "\"count\" must be a positive integer: " + E.dump());
      Count = E["count"].get<unsigned>();
    }
    B.Counts[{*File, *Kernel, *Rule, *Source}] += Count;
  }
  return B;
}

llvm::Error Baseline::write(const std::string &Path, const std::vector<Finding> &Findings) {
  std::map<BaselineKey, unsigned> Counts;
  for (const Finding &F : Findings)
    ++Counts[keyOf(F, Path)];
  nlohmann::json J;
  J["version"] = BaselineVersion;
  J["tool"] = "coalesce-lint";
  J["comment"] = "Findings accepted when this baseline was written "
                 "(coalesce-lint --write-baseline); coalesce-lint --baseline "
                 "reports only the others. Paths are relative to this file.";
  J["findings"] = nlohmann::json::array();
  for (const auto &[K, N] : Counts)
    J["findings"].push_back({{"file", K.File},
                             {"kernel", K.Kernel},
                             {"rule", K.Rule},
                             {"source", K.Source},
                             {"count", N}});
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return error(Path, "cannot write the baseline: " + EC.message());
  OS << J.dump(2) << "\n";
  OS.close();
  if (OS.has_error())
    return error(Path, "cannot write the baseline: " + OS.error().message());
  return llvm::Error::success();
}

bool Baseline::consume(const Finding &F) {
  auto It = Counts.find(keyOf(F, Path));
  if (It == Counts.end() || It->second == 0)
    return false;
  --It->second;
  return true;
}

size_t Baseline::size() const {
  size_t N = 0;
  for (const auto &KV : Counts)
    N += KV.second;
  return N;
}

} // namespace coalesce

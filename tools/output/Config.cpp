//===- Config.cpp - .coalesce-lint.yaml: per-project settings -------------===//

#include "Config.h"

#include "Rule.h"
#include "SourceKey.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

namespace coalesce {

namespace {

const char *KnownKeys = "rules, min-ratio, block, gpu-arch, report-unknown";

/// Collects the first error of a YAML stream as "name:line:col: message".
struct ErrorSink {
  std::string First;
  static void handle(const llvm::SMDiagnostic &D, void *Ctx) {
    auto *Self = static_cast<ErrorSink *>(Ctx);
    if (!Self->First.empty())
      return;
    Self->First = D.getFilename().str() + ":" + std::to_string(D.getLineNo()) +
                  ":" + std::to_string(D.getColumnNo() + 1) + ": " + D.getMessage().str();
  }
};

std::optional<std::string> scalar(llvm::yaml::Node *N) {
  auto *S = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(N);
  if (!S)
    return std::nullopt;
  llvm::SmallString<32> Storage;
  return S->getValue(Storage).str();
}

} // namespace

std::optional<Dim3> parseBlockShape(llvm::StringRef S, std::string &Why) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  S.split(Parts, ',');
  Dim3 D;
  int64_t *F[3] = {&D.X, &D.Y, &D.Z};
  if (S.trim().empty() || Parts.size() > 3) {
    Why = "expects X[,Y[,Z]] with positive integers, got '" + S.str() + "'";
    return std::nullopt;
  }
  for (size_t I = 0; I < Parts.size(); ++I) {
    llvm::StringRef P = Parts[I].trim();
    if (P.empty() || P.size() > 9 || P.find_first_not_of("0123456789") != llvm::StringRef::npos) {
      Why = "expects X[,Y[,Z]] with positive integers, got '" + S.str() + "'";
      return std::nullopt;
    }
    P.getAsInteger(10, *F[I]);
  }
  Why = validateBlockShape(D);
  if (!Why.empty())
    return std::nullopt;
  return D;
}

llvm::Expected<LintConfig> parseConfig(llvm::StringRef Text, llvm::StringRef Name) {
  LintConfig C;
  C.Path = Name.str();
  llvm::SourceMgr SM;
  ErrorSink Sink;
  SM.setDiagHandler(&ErrorSink::handle, &Sink);
  llvm::yaml::Stream Stream(llvm::MemoryBufferRef(Text, Name), SM);
  auto Fail = [&](llvm::yaml::Node *N, const std::string &Msg) {
    Stream.printError(N, Msg);
    return llvm::createStringError(std::errc::invalid_argument, "%s", Sink.First.c_str());
  };

  auto Doc = Stream.begin();
  if (Doc == Stream.end())
    return C;
  llvm::yaml::Node *Root = Doc->getRoot();
  if (!Sink.First.empty())
    return llvm::createStringError(std::errc::invalid_argument, "%s", Sink.First.c_str());
  if (!Root || llvm::isa<llvm::yaml::NullNode>(Root))
    return C;
  auto *Map = llvm::dyn_cast<llvm::yaml::MappingNode>(Root);
  if (!Map)
    return Fail(Root, "expected a mapping of settings (" + std::string(KnownKeys) + ")");

  for (llvm::yaml::KeyValueNode &KV : *Map) {
    if (!Sink.First.empty())
      break;
    auto Key = scalar(KV.getKey());
    llvm::yaml::Node *V = KV.getValue();
    if (!Key)
      return Fail(KV.getKey(), "expected a setting name");
    if (!V || !Sink.First.empty())
      break;
    if (*Key == "rules") {
      std::vector<std::string> Ids;
      std::vector<llvm::yaml::Node *> Items;
      if (auto *Seq = llvm::dyn_cast<llvm::yaml::SequenceNode>(V)) {
        for (llvm::yaml::Node &Item : *Seq)
          Items.push_back(&Item);
      } else if (scalar(V)) {
        Items.push_back(V); // "rules: uncoalesced-global"
      } else {
        return Fail(V, "'rules' expects a list of rule ids");
      }
      for (llvm::yaml::Node *Item : Items) {
        auto Id = scalar(Item);
        if (!Id)
          return Fail(Item, "'rules' expects a list of rule ids");
        llvm::StringRef R(*Id);
        R.consume_front("coalesce-");
        if (!findRule(R.str()))
          return Fail(Item, "unknown rule '" + *Id + "' (see coalesce-lint --list-rules)");
        Ids.push_back(R.str());
      }
      if (Ids.empty())
        return Fail(V, "'rules' lists no rule (leave it out to run them all)");
      C.Rules = Ids;
    } else if (*Key == "min-ratio") {
      auto S = scalar(V);
      double R;
      if (!S || llvm::StringRef(*S).getAsDouble(R) || R < 1.0)
        return Fail(V, "'min-ratio' expects a number >= 1");
      C.MinRatio = R;
    } else if (*Key == "block") {
      std::string Text;
      if (auto *Seq = llvm::dyn_cast<llvm::yaml::SequenceNode>(V)) {
        for (llvm::yaml::Node &Item : *Seq) {
          auto S = scalar(&Item);
          if (!S)
            return Fail(&Item, "'block' expects [X, Y, Z] with positive integers");
          Text += (Text.empty() ? "" : ",") + *S;
        }
      } else if (auto S = scalar(V)) {
        Text = *S;
      } else {
        return Fail(V, "'block' expects [X, Y, Z] with positive integers");
      }
      std::string Why;
      C.Block = parseBlockShape(Text, Why);
      if (!C.Block)
        return Fail(V, llvm::StringRef(Why).starts_with("expects") ? "'block' " + Why
                                                                   : "'block': " + Why);
    } else if (*Key == "gpu-arch") {
      auto S = scalar(V);
      if (!S || !llvm::Regex("^sm_[0-9]+[af]?$").match(*S))
        return Fail(V, "'gpu-arch' expects sm_XX (e.g. sm_90)");
      C.GpuArch = *S;
    } else if (*Key == "report-unknown") {
      auto S = scalar(V);
      std::optional<bool> B = S ? llvm::yaml::parseBool(*S) : std::nullopt;
      if (!B)
        return Fail(V, "'report-unknown' expects true or false");
      C.ReportUnknown = *B;
    } else {
      return Fail(KV.getKey(), "unknown setting '" + *Key + "' (known: " + KnownKeys + ")");
    }
  }
  if (!Sink.First.empty() || Stream.failed())
    return llvm::createStringError(std::errc::invalid_argument, "%s",
                                   Sink.First.empty() ? (Name.str() + ": invalid YAML").c_str()
                                                      : Sink.First.c_str());
  return C;
}

llvm::Expected<LintConfig> loadConfigFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "%s: cannot read: %s", Path.c_str(),
                                   Buf.getError().message().c_str());
  return parseConfig((*Buf)->getBuffer(), Path);
}

std::string findConfigFile(llvm::StringRef File) {
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(absolutePath(File)));
  while (!Dir.empty()) {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, ConfigFileName);
    if (llvm::sys::fs::is_regular_file(Candidate))
      return std::string(Candidate);
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  return "";
}

llvm::Expected<const LintConfig *> ConfigCache::fromFile(const std::string &Path) {
  auto It = Loaded.find(Path);
  if (It != Loaded.end())
    return It->second.get();
  auto C = loadConfigFile(Path);
  if (!C)
    return C.takeError();
  auto &Slot = Loaded[Path];
  Slot = std::make_unique<LintConfig>(std::move(*C));
  return Slot.get();
}

llvm::Expected<const LintConfig *> ConfigCache::forFile(llvm::StringRef File) {
  std::string Path = findConfigFile(File);
  if (Path.empty())
    return &None;
  return fromFile(Path);
}

} // namespace coalesce

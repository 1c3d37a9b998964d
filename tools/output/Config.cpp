//===- Config.cpp - .coalesce-lint.yaml: per-project settings -------------===//

#include "Config.h"

#include "Rule.h"
#include "Settings.h"
#include "SourceKey.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

namespace coalesce {

namespace {

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

  // "'min-ratio' expects a number >= 1".
  auto Expects = [](SettingId Id) {
    const SettingSpec &S = settingSpec(Id);
    return "'" + std::string(S.ConfigKey) + "' expects " + S.Expects;
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
    return Fail(Root, "expected a mapping of settings (" + knownConfigKeys() + ")");

  for (llvm::yaml::KeyValueNode &KV : *Map) {
    if (!Sink.First.empty())
      break;
    auto Key = scalar(KV.getKey());
    llvm::yaml::Node *V = KV.getValue();
    if (!Key)
      return Fail(KV.getKey(), "expected a setting name");
    if (!V || !Sink.First.empty())
      break;
    if (*Key == settingSpec(SettingId::Rules).ConfigKey) {
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
        std::string Why;
        std::optional<std::string> R = parseRuleId(*Id, Why);
        if (!R)
          return Fail(Item, Why);
        Ids.push_back(*R);
      }
      if (Ids.empty())
        return Fail(V, "'rules' lists no rule (leave it out to run them all)");
      C.Rules = Ids;
    } else if (*Key == settingSpec(SettingId::MinRatio).ConfigKey) {
      auto S = scalar(V);
      if (!S || !(C.MinRatio = parseMinRatio(*S)))
        return Fail(V, Expects(SettingId::MinRatio));
    } else if (*Key == settingSpec(SettingId::Block).ConfigKey) {
      // [X, Y, Z], "X,Y,Z", or a map from kernel names to those
      // ("default": every other kernel).
      auto Shape = [&](llvm::yaml::Node *N, const std::string &Kernel,
                       std::optional<Dim3> &Out) -> llvm::Error {
        const std::string What = Kernel.empty() ? "'block'" : "'block' for '" + Kernel + "'";
        std::string Text;
        if (auto *Seq = llvm::dyn_cast<llvm::yaml::SequenceNode>(N)) {
          for (llvm::yaml::Node &Item : *Seq) {
            auto S = scalar(&Item);
            if (!S)
              return Fail(&Item, What + " expects [X, Y, Z] with positive integers");
            Text += (Text.empty() ? "" : ",") + *S;
          }
        } else if (auto S = scalar(N)) {
          Text = *S;
        } else {
          return Fail(N, What + " expects [X, Y, Z] with positive integers");
        }
        std::string Why;
        Out = parseBlockShape(Text, Why);
        if (!Out)
          return Fail(N, llvm::StringRef(Why).starts_with("expects") ? What + " " + Why
                                                                     : What + ": " + Why);
        return llvm::Error::success();
      };
      const std::string Where = "the 'block' setting of " + Name.str();
      if (auto *M = llvm::dyn_cast<llvm::yaml::MappingNode>(V)) {
        for (llvm::yaml::KeyValueNode &Item : *M) {
          auto Kernel = scalar(Item.getKey());
          if (!Kernel || Kernel->empty())
            return Fail(Item.getKey(), "'block' expects kernel names as keys");
          if (!Item.getValue())
            return Fail(Item.getKey(), "'block' for '" + *Kernel + "' has no shape");
          const bool Default = *Kernel == "default";
          std::optional<Dim3> D;
          if (llvm::Error E = Shape(Item.getValue(), Default ? "" : *Kernel, D))
            return std::move(E);
          C.Blocks.push_back({Default ? "" : *Kernel, *D,
                              Default ? Where : Where + " for '" + *Kernel + "'"});
        }
        if (C.Blocks.empty())
          return Fail(V, "'block' lists no kernel (leave it out for none)");
      } else {
        std::optional<Dim3> D;
        if (llvm::Error E = Shape(V, "", D))
          return std::move(E);
        C.Blocks.push_back({"", *D, Where});
      }
    } else if (*Key == settingSpec(SettingId::Assume).ConfigKey) {
      // A list of facts, or one string ("cols % 32 == 0, rows >= 16").
      std::vector<llvm::yaml::Node *> Items;
      if (auto *Seq = llvm::dyn_cast<llvm::yaml::SequenceNode>(V)) {
        for (llvm::yaml::Node &Item : *Seq)
          Items.push_back(&Item);
      } else {
        Items.push_back(V);
      }
      for (llvm::yaml::Node *Item : Items) {
        auto S = scalar(Item);
        std::string Why;
        std::optional<std::vector<StatedFact>> Fs =
            S ? parseFacts(*S, Why) : std::nullopt;
        if (!Fs)
          return Fail(Item, "'assume' " + (S ? Why : std::string("expects a list of facts such "
                                                                 "as 'cols % 32 == 0'")));
        for (StatedFact &F : *Fs) {
          F.Spelling = "'" + F.str() + "' from the 'assume' setting of " + Name.str();
          C.Facts.push_back(std::move(F));
        }
      }
      if (C.Facts.empty())
        return Fail(V, "'assume' lists no fact (leave it out for none)");
    } else if (*Key == settingSpec(SettingId::GpuArch).ConfigKey) {
      auto S = scalar(V);
      if (!S || !(C.GpuArch = parseGpuArch(*S)))
        return Fail(V, Expects(SettingId::GpuArch));
    } else if (*Key == settingSpec(SettingId::ReportUnknown).ConfigKey) {
      auto S = scalar(V);
      if (!S || !(C.ReportUnknown = parseSwitch(*S)))
        return Fail(V, Expects(SettingId::ReportUnknown));
    } else if (*Key == settingSpec(SettingId::MisalignedWarnings).ConfigKey) {
      auto S = scalar(V);
      if (!S || !(C.MisalignedWarnings = parseSwitch(*S)))
        return Fail(V, Expects(SettingId::MisalignedWarnings));
    } else {
      return Fail(KV.getKey(), "unknown setting '" + *Key + "' (known: " + knownConfigKeys() + ")");
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

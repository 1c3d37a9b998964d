//===- Settings.cpp - The settings every front-end shares -----------------===//

#include "Settings.h"

#include "Rule.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/YAMLParser.h"

#include <cmath>

namespace coalesce {

namespace {

const SettingSpec Specs[] = {
#define SETTING(Id, Flag, Argument, ConfigKey, TidyOption, Expects, Help)                    \
  {SettingId::Id, Flag, Argument, ConfigKey, TidyOption, Expects, Help},
#include "Settings.def"
};

/// Words of Text wrapped to lines of at most Width columns, each after
/// Indent spaces (the first line's indent is the caller's).
std::string wrap(llvm::StringRef Text, size_t Indent, size_t Width) {
  std::string Out, Line;
  llvm::SmallVector<llvm::StringRef, 32> Words;
  Text.split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef W : Words) {
    if (!Line.empty() && Indent + Line.size() + 1 + W.size() > Width) {
      Out += Line + "\n" + std::string(Indent, ' ');
      Line.clear();
    }
    Line += (Line.empty() ? "" : " ") + W.str();
  }
  return Out + Line + "\n";
}

} // namespace

llvm::ArrayRef<SettingSpec> settingSpecs() { return Specs; }

const SettingSpec &settingSpec(SettingId Id) { return Specs[static_cast<size_t>(Id)]; }

std::string knownConfigKeys() {
  std::string Out;
  for (const SettingSpec &S : Specs)
    Out += (Out.empty() ? "" : ", ") + std::string(S.ConfigKey);
  return Out;
}

std::string settingsHelp() {
  constexpr size_t Column = 26, Width = 78;
  std::string Out;
  for (const SettingSpec &S : Specs) {
    std::string Head = "  " + std::string(S.Flag);
    if (*S.Argument)
      Head += "=" + std::string(S.Argument);
    if (Head.size() + 2 > Column)
      Head += "\n" + std::string(Column, ' ');
    else
      Head += std::string(Column - Head.size(), ' ');
    Out += Head + wrap(S.Help, Column, Width);
  }
  return Out;
}

std::optional<double> parseMinRatio(llvm::StringRef Text) {
  double R = 0;
  if (Text.trim().getAsDouble(R) || !std::isfinite(R) || !(R >= 1.0))
    return std::nullopt;
  return R;
}

std::optional<std::string> parseGpuArch(llvm::StringRef Text) {
  if (!llvm::Regex("^sm_[0-9]+[af]?$").match(Text))
    return std::nullopt;
  return Text.str();
}

std::optional<bool> parseSwitch(llvm::StringRef Text) {
  return llvm::yaml::parseBool(Text.trim());
}

std::optional<std::string> parseRuleId(llvm::StringRef Text, std::string &Why) {
  llvm::StringRef R = Text.trim();
  R.consume_front("coalesce-");
  if (!findRule(R.str())) {
    Why = "unknown rule '" + Text.trim().str() + "' (see coalesce-lint --list-rules)";
    return std::nullopt;
  }
  return R.str();
}

std::optional<std::vector<std::string>> parseRuleList(llvm::StringRef Text, std::string &Why) {
  llvm::SmallVector<llvm::StringRef, 4> Items;
  Text.split(Items, ',', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Ids;
  for (llvm::StringRef Item : Items) {
    if (Item.trim().empty())
      continue;
    std::optional<std::string> Id = parseRuleId(Item, Why);
    if (!Id)
      return std::nullopt;
    Ids.push_back(*Id);
  }
  if (Ids.empty()) {
    Why = "lists no rule (leave it out to run them all)";
    return std::nullopt;
  }
  return Ids;
}

FlagParse parseSettingFlag(llvm::StringRef Arg,
                           llvm::function_ref<std::optional<std::string>()> NextArg,
                           SettingOverrides &Over, std::string &Err) {
  // --config and --no-config choose the file the settings come from.
  if (Arg == "--no-config") {
    Over.NoConfig = true;
    return FlagParse::Parsed;
  }
  const SettingSpec *Spec = nullptr;
  std::optional<std::string> Value;
  for (const SettingSpec &S : Specs) {
    llvm::StringRef Flag = S.Flag;
    if (!*S.Argument) { // a switch
      if (Arg == Flag) {
        Spec = &S;
        break;
      }
    } else if (Arg == Flag) { // --flag VALUE
      Spec = &S;
      Value = NextArg();
      break;
    } else if (Arg.starts_with(Flag) && Arg.substr(Flag.size()).starts_with("=")) {
      Spec = &S;
      Value = Arg.substr(Flag.size() + 1).str();
      break;
    }
  }
  if (!Spec) {
    if (Arg == "--config" || Arg.starts_with("--config=")) {
      std::optional<std::string> File =
          Arg == "--config" ? NextArg() : std::optional<std::string>(Arg.substr(9).str());
      if (!File || File->empty()) {
        Err = "--config needs a file";
        return FlagParse::Error;
      }
      Over.ConfigFile = *File;
      return FlagParse::Parsed;
    }
    return FlagParse::NotASetting;
  }
  const std::string Flag = Spec->Flag;
  if (*Spec->Argument && !Value) {
    Err = Spec->Id == SettingId::Assume
              ? "--assume needs a fact, e.g. --assume cols=2048 or --assume 'cols % 32 == 0'"
              : Flag + " needs a value";
    return FlagParse::Error;
  }
  auto Refuse = [&] {
    Err = Flag + " expects " + Spec->Expects + ", got '" + *Value + "'";
    return FlagParse::Error;
  };
  std::string Why;
  switch (Spec->Id) {
  case SettingId::Rules: {
    std::optional<std::vector<std::string>> Ids = parseRuleList(*Value, Why);
    if (!Ids) {
      Err = llvm::StringRef(Why).starts_with("unknown") ? Why : Flag + " " + Why;
      return FlagParse::Error;
    }
    Over.Rules = std::move(*Ids);
    return FlagParse::Parsed;
  }
  case SettingId::MinRatio:
    if (!(Over.MinRatio = parseMinRatio(*Value)))
      return Refuse();
    return FlagParse::Parsed;
  case SettingId::Block: {
    std::optional<BlockChoice> B = parseBlockChoice(*Value, Why);
    if (!B) {
      Err = llvm::StringRef(Why).starts_with("expects") ? Flag + " " + Why
                                                        : Flag + "=" + *Value + ": " + Why;
      return FlagParse::Error;
    }
    B->Spelling = Flag + "=" + *Value;
    Over.Blocks.push_back(std::move(*B));
    return FlagParse::Parsed;
  }
  case SettingId::Assume: {
    std::optional<std::vector<StatedFact>> Fs = parseFacts(*Value, Why);
    if (!Fs) {
      Err = Flag + " " + Why;
      return FlagParse::Error;
    }
    for (StatedFact &F : *Fs) {
      F.Spelling = Flag + " '" + F.str() + "'";
      Over.Facts.push_back(std::move(F));
    }
    return FlagParse::Parsed;
  }
  case SettingId::GpuArch:
    if (!(Over.GpuArch = parseGpuArch(*Value)))
      return Refuse();
    return FlagParse::Parsed;
  case SettingId::ReportUnknown:
    Over.ReportUnknown = false; // the flag is --no-unknown
    return FlagParse::Parsed;
  case SettingId::MisalignedWarnings:
    Over.MisalignedWarnings = true;
    return FlagParse::Parsed;
  }
  return FlagParse::NotASetting;
}

} // namespace coalesce

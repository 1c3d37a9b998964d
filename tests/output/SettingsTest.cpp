//===- SettingsTest.cpp - One table and one parser per setting -------------===//

#include "Settings.h"

#include "llvm/ADT/SmallVector.h"

#include <gtest/gtest.h>

#include <set>

using namespace coalesce;

namespace {

/// Parses Args as the CLI and the language server do; returns the error.
std::string parseFlags(std::vector<std::string> Args, SettingOverrides &Over) {
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string Err;
    FlagParse R = parseSettingFlag(
        Args[I],
        [&]() -> std::optional<std::string> {
          if (I + 1 >= Args.size())
            return std::nullopt;
          return Args[++I];
        },
        Over, Err);
    if (R == FlagParse::Error)
      return Err;
    if (R == FlagParse::NotASetting)
      return "not a setting: " + Args[I];
  }
  return "";
}

} // namespace

TEST(Settings, OneRowPerSettingWithDistinctNames) {
  std::set<std::string> Flags, Keys, Tidy;
  for (const SettingSpec &S : settingSpecs()) {
    EXPECT_TRUE(llvm::StringRef(S.Flag).starts_with("--")) << S.Flag;
    EXPECT_TRUE(Flags.insert(S.Flag).second) << S.Flag;
    EXPECT_TRUE(Keys.insert(S.ConfigKey).second) << S.ConfigKey;
    if (*S.TidyOption)
      EXPECT_TRUE(Tidy.insert(S.TidyOption).second) << S.TidyOption;
    EXPECT_EQ(&settingSpec(S.Id), &S);
    EXPECT_NE(settingsHelp().find(S.Flag), std::string::npos) << S.Flag;
  }
  EXPECT_EQ(knownConfigKeys(), "rules, min-ratio, block, assume, gpu-arch, report-unknown, warn-misaligned");
  EXPECT_EQ(Tidy, (std::set<std::string>{"MinRatio", "Block", "Assume", "ReportUnknown", "WarnMisaligned"}));
}

TEST(Settings, HelpLinesAreWrappedInTheirColumn) {
  std::string H = settingsHelp();
  EXPECT_EQ(H.find("  --rules=ID[,ID...]      run only these rules"), 0u);
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  llvm::StringRef(H).rtrim('\n').split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    EXPECT_LE(L.size(), 78u) << L.str();
    EXPECT_TRUE(L.starts_with("  --") || L.starts_with(std::string(26, ' '))) << L.str();
  }
}

TEST(Settings, ValueParsers) {
  EXPECT_EQ(parseMinRatio("2"), 2.0);
  EXPECT_EQ(parseMinRatio(" 1.5 "), 1.5);
  EXPECT_EQ(parseMinRatio("0.5"), std::nullopt);
  EXPECT_EQ(parseMinRatio("fast"), std::nullopt);
  EXPECT_EQ(parseMinRatio("inf"), std::nullopt);
  EXPECT_EQ(parseMinRatio(""), std::nullopt);
  EXPECT_EQ(parseGpuArch("sm_90"), "sm_90");
  EXPECT_EQ(parseGpuArch("sm_90a"), "sm_90a");
  EXPECT_EQ(parseGpuArch("sm_100f"), "sm_100f");
  EXPECT_EQ(parseGpuArch("sm_foo"), std::nullopt);
  EXPECT_EQ(parseGpuArch("sm90"), std::nullopt);
  EXPECT_EQ(parseSwitch("false"), false);
  EXPECT_EQ(parseSwitch("true"), true);
  EXPECT_EQ(parseSwitch("maybe"), std::nullopt);
  std::string Why;
  EXPECT_EQ(parseRuleList("coalesce-uncoalesced-global, shared-bank-conflict", Why),
            (std::vector<std::string>{"uncoalesced-global", "shared-bank-conflict"}));
  EXPECT_EQ(parseRuleList("bogus", Why), std::nullopt);
  EXPECT_EQ(Why, "unknown rule 'bogus' (see coalesce-lint --list-rules)");
  EXPECT_EQ(parseRuleList(",", Why), std::nullopt);
  EXPECT_EQ(Why, "lists no rule (leave it out to run them all)");
}

TEST(Settings, FlagsInBothForms) {
  SettingOverrides O;
  EXPECT_EQ(parseFlags({"--min-ratio=2", "--rules", "uncoalesced-global", "--no-unknown",
                        "--block=k=64", "--assume", "cols=2049", "--cuda-gpu-arch=sm_80",
                        "--config", "c.yaml"},
                       O),
            "");
  EXPECT_EQ(O.MinRatio, 2.0);
  EXPECT_EQ(O.Rules, (std::vector<std::string>{"uncoalesced-global"}));
  EXPECT_EQ(O.ReportUnknown, false);
  ASSERT_EQ(O.Blocks.size(), 1u);
  EXPECT_EQ(O.Blocks[0].Spelling, "--block=k=64");
  ASSERT_EQ(O.Facts.size(), 1u);
  EXPECT_EQ(O.Facts[0].Spelling, "--assume 'cols = 2049'");
  EXPECT_EQ(O.GpuArch, "sm_80");
  EXPECT_EQ(O.ConfigFile, "c.yaml");
  SettingOverrides P;
  EXPECT_EQ(parseFlags({"--no-config"}, P), "");
  EXPECT_TRUE(P.NoConfig);
  // Not settings: left to the front-end.
  EXPECT_EQ(parseFlags({"--min-ratios=2"}, P), "not a setting: --min-ratios=2");
  EXPECT_EQ(parseFlags({"--no-unknown=1"}, P), "not a setting: --no-unknown=1");
}

// The CLI and the language server used to check these themselves, and
// differently from the settings file: `--cuda-gpu-arch=sm_foo` was taken,
// `--rules=` ran every rule, and the language server had no --assume.
TEST(Settings, FlagErrorsAreTheSettingsFileErrors) {
  SettingOverrides O;
  EXPECT_EQ(parseFlags({"--cuda-gpu-arch=sm_foo"}, O),
            "--cuda-gpu-arch expects sm_XX (e.g. sm_90), got 'sm_foo'");
  EXPECT_EQ(parseFlags({"--min-ratio=0.5"}, O), "--min-ratio expects a number >= 1, got '0.5'");
  EXPECT_EQ(parseFlags({"--rules="}, O), "--rules lists no rule (leave it out to run them all)");
  EXPECT_EQ(parseFlags({"--rules=bogus"}, O),
            "unknown rule 'bogus' (see coalesce-lint --list-rules)");
  EXPECT_EQ(parseFlags({"--min-ratio"}, O), "--min-ratio needs a value");
  EXPECT_EQ(parseFlags({"--assume"}, O),
            "--assume needs a fact, e.g. --assume cols=2048 or --assume 'cols % 32 == 0'");
  EXPECT_EQ(parseFlags({"--block=0"}, O).rfind("--block", 0), 0u);
  EXPECT_EQ(parseFlags({"--config="}, O), "--config needs a file");
}

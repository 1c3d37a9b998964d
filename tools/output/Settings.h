//===- Settings.h - The settings every front-end shares -------------------===//
//
// A project's settings (the rules to run, the ratio worth reporting, block
// shapes, stated facts, the architecture, whether to report unpredictable
// accesses) can be given four ways: .coalesce-lint.yaml, the CLI's flags, the
// language server's flags and clang-tidy check options. Settings.def lists
// them once with their name in each; the value parsers here are the only
// ones, so a value means the same and is refused with the same words
// everywhere. Front-end policy only: nothing here changes how a cost is
// computed.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_SETTINGS_H
#define COALESCE_TOOLS_OUTPUT_SETTINGS_H

#include "launch/BlockChoice.h"
#include "launch/StatedFacts.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace coalesce {

enum class SettingId {
#define SETTING(Id, Flag, Argument, ConfigKey, TidyOption, Expects, Help) Id,
#include "Settings.def"
};

struct SettingSpec {
  SettingId Id;
  const char *Flag, *Argument, *ConfigKey, *TidyOption, *Expects, *Help;
};

/// Every setting, in Settings.def's order.
llvm::ArrayRef<SettingSpec> settingSpecs();
const SettingSpec &settingSpec(SettingId Id);
/// "rules, min-ratio, block, assume, gpu-arch, report-unknown".
std::string knownConfigKeys();
/// The settings' lines of a --help text: the flag and its argument in the
/// first 24 columns, the help wrapped at 78 (as the rest of the text).
std::string settingsHelp();

/// What the command line (CLI or language server) says about the settings
/// (unset: the configuration file's, or the default), and which
/// configuration file applies.
struct SettingOverrides {
  std::optional<std::string> GpuArch;
  std::vector<BlockChoice> Blocks; // --block, in order
  std::vector<StatedFact> Facts;   // --assume, in order
  std::optional<std::vector<std::string>> Rules;
  std::optional<double> MinRatio;
  std::optional<bool> ReportUnknown;
  std::optional<bool> MisalignedWarnings;
  std::string ConfigFile; // --config
  bool NoConfig = false;  // --no-config
};

// The value parsers. Each returns nullopt for a value it refuses; the
// setting's Expects says what it wants.

/// A number >= 1 ("2", "1.5").
std::optional<double> parseMinRatio(llvm::StringRef Text);
/// sm_XX, optionally with the a/f suffix of the architecture-specific
/// targets (sm_90a, sm_100f).
std::optional<std::string> parseGpuArch(llvm::StringRef Text);
/// true/false (and YAML's yes/no, on/off).
std::optional<bool> parseSwitch(llvm::StringRef Text);
/// One rule id, with or without "coalesce-"; Why: "unknown rule 'x' (see
/// coalesce-lint --list-rules)".
std::optional<std::string> parseRuleId(llvm::StringRef Text, std::string &Why);
/// Rule ids separated by commas; at least one.
std::optional<std::vector<std::string>> parseRuleList(llvm::StringRef Text, std::string &Why);

enum class FlagParse { NotASetting, Parsed, Error };
/// Parses one command-line argument if it is a setting's flag
/// (`--min-ratio=2`, `--min-ratio 2`, `--no-unknown`) or --config /
/// --no-config, into Over. NextArg gives (and consumes) the next argument,
/// for a value given separately. On Error, Err is the usage error.
FlagParse parseSettingFlag(llvm::StringRef Arg,
                           llvm::function_ref<std::optional<std::string>()> NextArg,
                           SettingOverrides &Over, std::string &Err);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_SETTINGS_H

//===- Config.h - .coalesce-lint.yaml: per-project settings ---------------===//
//
// A project keeps its coalesce-lint settings in `.coalesce-lint.yaml`; each
// input file uses the one in its directory or the nearest parent (or the file
// given with --config). Options on the command line override it.
//
//   rules: [uncoalesced-global]   # enabled rules (default: all; see --list-rules)
//   min-ratio: 2                  # report only accesses costing > 2 x ideal
//   block: [32, 8]                # block shape for kernels whose shape is not known
//   block: {reduce6: [256], default: [32, 8]}   # per kernel (default: any other)
//   gpu-arch: sm_90               # architecture to parse for
//   report-unknown: false         # remarks for accesses that cannot be predicted
//
// Every key is optional; an unknown key or a bad value is an error (with its
// line), so a misspelt setting is not silently ignored. Front-end policy
// only: nothing here changes how the analysis computes a cost.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_CONFIG_H
#define COALESCE_TOOLS_OUTPUT_CONFIG_H

#include "launch/BlockChoice.h"
#include "launch/StatedFacts.h"
#include "model/WarpModel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

constexpr const char *ConfigFileName = ".coalesce-lint.yaml";

struct LintConfig {
  std::string Path; // where it was read from ("" for none)
  std::optional<std::vector<std::string>> Rules; // rule ids, without "coalesce-"
  std::optional<double> MinRatio;
  /// `block:`: one shape for every kernel whose shape is not known, or one
  /// per kernel name (BlockChoice.h). Empty: not set.
  std::vector<BlockChoice> Blocks;
  std::optional<std::string> GpuArch;
  std::optional<bool> ReportUnknown;
  std::optional<bool> MisalignedWarnings;
  /// `assume:`: facts about kernel parameters (StatedFacts.h). Empty: none.
  std::vector<StatedFact> Facts;
};

/// Parses a configuration; Name is used in error messages ("name:line:col: ...").
llvm::Expected<LintConfig> parseConfig(llvm::StringRef Text, llvm::StringRef Name);
llvm::Expected<LintConfig> loadConfigFile(const std::string &Path);

/// The nearest .coalesce-lint.yaml in File's directory or its parents, or "".
std::string findConfigFile(llvm::StringRef File);

/// Finds and loads the configuration of each input file, once per file found.
class ConfigCache {
public:
  /// The configuration that applies to File (an empty one when there is none).
  llvm::Expected<const LintConfig *> forFile(llvm::StringRef File);
  /// The configuration in Path, for --config.
  llvm::Expected<const LintConfig *> fromFile(const std::string &Path);

private:
  std::map<std::string, std::unique_ptr<LintConfig>> Loaded; // by path
  LintConfig None;
};

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_CONFIG_H

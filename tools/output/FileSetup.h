//===- FileSetup.h - How each input file is parsed and reported ----------===//
//
// Front-end policy shared by the CLI and the language server: the settings a
// file is analysed and reported with (built-in defaults, then the nearest
// .coalesce-lint.yaml or --config, then the command line), and the clang
// command it is parsed with (its entry in compile_commands.json, translated
// for the device-side parse, or the default command for its architecture).
// Nothing here changes how the analysis computes a cost.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_FILESETUP_H
#define COALESCE_TOOLS_OUTPUT_FILESETUP_H

#include "Config.h"
#include "Rule.h"
#include "Settings.h"
#include "driver/CompileDb.h"
#include "driver/Invocation.h"
#include "driver/Runner.h"

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace coalesce {

/// The settings one input file is analysed and reported with.
struct FileSettings {
  std::string GpuArch = "sm_90";
  std::vector<BlockChoice> Blocks;
  std::vector<StatedFact> Facts; // the configuration's, then --assume
  RuleOptions Rules;
  std::vector<std::string> EnabledRules; // empty: all
};

/// File's settings: the defaults, then its configuration file (found through
/// Configs, or O.ConfigFile), then O.
llvm::Expected<FileSettings> settingsForFile(const std::string &File, const SettingOverrides &O,
                                             ConfigCache &Configs);

/// compile_commands.json files, each loaded once, by directory.
class CompileDbs {
public:
  /// The entries of Dir's database; Err says why there are none.
  const std::vector<DbEntry> &entries(const std::string &Dir, std::string &Err);
  /// File's entry (File absolute, dots removed) in Dir's database, or null.
  const DbEntry *find(const std::string &Dir, const std::string &File, std::string &Err);

private:
  struct Db {
    std::vector<DbEntry> Entries;
    std::map<std::string, size_t> ByFile; // the first command of each file
    std::string Err;
  };
  Db &load(const std::string &Dir);
  std::map<std::string, Db> Loaded;
};

/// How files are parsed, from the command line.
struct CommandSetup {
  InvocationOptions Inv;    // --cuda-path, --resource-dir, extra arguments
  std::string CompileDb;    // -p BUILD_DIR ("" = the nearest database of each file)
  bool NoCompileDb = false; // --no-compile-db
  bool ArchFromCommandLine = false; // --cuda-gpu-arch was given: it beats the database's
};

/// The command one file is parsed with, or why it cannot be.
struct JobPlan {
  std::optional<FileJob> Job;
  bool FromDb = false;             // the command came from a compile database
  std::vector<std::string> Notes;  // where the command came from, how it was translated
  std::vector<std::string> Warnings; // for the user, once each
  std::string Error;               // no job: why
  bool Fatal = false;              // ... and it concerns every file (a usage error)
};

/// Plans the FileJobs of input files, loading each compile database and
/// building each default command once.
class JobPlanner {
public:
  explicit JobPlanner(CommandSetup Setup) : Setup(std::move(Setup)) {}
  /// File as the user named it (relative to the working directory, or
  /// absolute), analysed for GpuArch unless its compile command names one.
  JobPlan plan(const std::string &File, const std::string &GpuArch);
  CompileDbs &dbs() { return Dbs; }
  const CommandSetup &setup() const { return Setup; }

private:
  CommandSetup Setup;
  CompileDbs Dbs;
  std::map<std::string, Invocation> Invocations; // by GPU arch
  std::set<std::string> WarnedDbs;
};

/// Why a file may have failed to parse when the set-up is the likely cause
/// (no compile command, no CUDA toolkit, a toolkit clang does not know), as
/// "; ..." to append to the error; "" when nothing points to the set-up.
/// CudaPath is --cuda-path ("" when not given).
/// A file (e.g. Rodinia's kernel .cu files) that does not compile alone
/// because another source file #includes it: that file, found in File's
/// directory or up to two levels above it; "" if none.
std::string includingFile(const std::string &File);

std::string parseFailureHint(const std::string &CudaPath, const std::string &Diags, bool FromDb,
                             bool Builtin);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_FILESETUP_H

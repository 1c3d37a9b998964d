//===- ServerOptions.h - The command line of coalesce-lint lsp -----------===//
//
// `coalesce-lint lsp` takes the CLI's options that choose how files are
// parsed and reported (each file still uses its compile_commands.json and
// .coalesce-lint.yaml, which these override), and the server's own.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_LSP_SERVEROPTIONS_H
#define COALESCE_TOOLS_LSP_SERVEROPTIONS_H

#include "FileSetup.h"

#include "llvm/Support/LSP/Logging.h"

#include "driver/Witness.h"

#include <optional>
#include <string>

namespace coalesce {
namespace lsp {

struct ServerOptions {
  SettingOverrides Over;
  CommandSetup Setup;
  std::string CacheDir; // precompiled headers; "" = none
  WitnessOptions Witness; // the compiler witness (docs/witness.md)
  unsigned DebounceMs = 200; // after an edit, before its analysis
  bool NotesInMessage = false; // even for clients that take related information
  llvm::lsp::Logger::Level LogLevel = llvm::lsp::Logger::Level::Error;
};

/// Fills O from `coalesce-lint lsp ...` (Argv[1] is "lsp"); an exit status
/// when the program must stop (--help, a usage error, with its message on
/// stderr).
std::optional<int> parseServerOptions(int Argc, char **Argv, ServerOptions &O);

} // namespace lsp
} // namespace coalesce

#endif // COALESCE_TOOLS_LSP_SERVEROPTIONS_H

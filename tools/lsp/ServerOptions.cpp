//===- ServerOptions.cpp - The command line of coalesce-lint lsp ---------===//

#include "ServerOptions.h"

#include "Settings.h"
#include "SourceKey.h"
#include "driver/Preamble.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <iostream>

namespace coalesce {
namespace lsp {

namespace {

const char *Usage = R"(usage: coalesce-lint lsp [options] [-- extra clang arguments]

Serves the Language Server Protocol on stdin/stdout for editors, beside
clangd: diagnostics for the findings, inlay hints with the numbers of every
access line, hovers with warp maps, and the padding fix-its as code actions.
Each file uses its compile_commands.json and .coalesce-lint.yaml as on the
command line. Editor set-ups: docs/lsp.md.

options (as for `coalesce-lint FILE...`):
  --cuda-path=PATH|none   CUDA toolkit to parse with (none: built-in header)
  --resource-dir=PATH     clang resource directory
  -p BUILD_DIR            take every file's command from this database
  --no-compile-db         ignore compile_commands.json files
  --config=FILE           settings file instead of the nearest .coalesce-lint.yaml
  --no-config             ignore .coalesce-lint.yaml files
  --cache-dir=DIR         precompiled headers (default: as the CLI's)
  --no-cache              no precompiled headers
  --witness=auto|off|FILE the compiler witness (docs/witness.md): for a
                          saved file, what nvcc emitted decides (default: auto)
)";

const char *UsageTail = R"(server options:
  --debounce=MS           wait this long after an edit before analysing
                          (default: 200)
  --notes-in-message      put the notes (evidence, assumptions, the fix)
                          into the diagnostic's message, not its related
                          information (for editors that do not show it)
  --log=error|info|verbose  protocol log on stderr (default: error)
  --help                  print this help and exit
)";

bool startsWith(const std::string &S, const std::string &P) {
  return S.compare(0, P.size(), P) == 0;
}

/// Fills O from the command line; an exit status when the program must stop.
} // namespace

std::optional<int> parseServerOptions(int Argc, char **Argv, ServerOptions &O) {
  auto Fail = [](const std::string &Msg) {
    std::cerr << "coalesce-lint lsp: error: " << Msg << "\n"
              << "run 'coalesce-lint lsp --help' for usage\n";
    return 2;
  };
  std::optional<std::string> CacheDir;
  bool NoCache = false;
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--") {
      for (++I; I < Argc; ++I)
        O.Setup.Inv.ExtraArgs.push_back(Argv[I]);
      break;
    }
    std::string V;
    // --flag=VALUE or --flag VALUE.
    auto Value = [&](const std::string &Flag) -> std::optional<bool> {
      if (startsWith(A, Flag + "=")) {
        V = A.substr(Flag.size() + 1);
        return true;
      }
      if (A != Flag)
        return std::nullopt;
      if (I + 1 >= Argc)
        return false;
      V = Argv[++I];
      return true;
    };
    // The settings a .coalesce-lint.yaml can also give (Settings.def).
    std::string Err;
    FlagParse Setting = parseSettingFlag(
        A,
        [&]() -> std::optional<std::string> {
          if (I + 1 >= Argc)
            return std::nullopt;
          return std::string(Argv[++I]);
        },
        O.Over, Err);
    if (Setting == FlagParse::Error)
      return Fail(Err);
    if (Setting == FlagParse::Parsed) {
      if (A == "--cuda-gpu-arch" || startsWith(A, "--cuda-gpu-arch="))
        O.Setup.ArchFromCommandLine = true;
      continue;
    }
    std::optional<bool> Got;
    if (A == "--help" || A == "-h") {
      std::cout << Usage << settingsHelp() << UsageTail;
      return 0;
    } else if ((Got = Value("--cuda-path"))) {
      if (!*Got || V.empty())
        return Fail("--cuda-path needs a value");
      O.Setup.Inv.CudaPath = V;
    } else if ((Got = Value("--resource-dir"))) {
      if (!*Got)
        return Fail("--resource-dir needs a value");
      O.Setup.Inv.ResourceDir = V;
    } else if ((Got = Value("-p")) || (Got = Value("--compile-commands"))) {
      if (!*Got || V.empty())
        return Fail("-p needs a build directory");
      if (llvm::sys::path::filename(V) == "compile_commands.json")
        V = std::string(llvm::sys::path::parent_path(V));
      if (V.empty())
        V = ".";
      if (!llvm::sys::fs::is_directory(V))
        return Fail("-p " + V + ": not a directory");
      O.Setup.CompileDb = absolutePath(V);
    } else if (A == "--no-compile-db") {
      O.Setup.NoCompileDb = true;
    } else if ((Got = Value("--cache-dir"))) {
      if (!*Got || V.empty())
        return Fail("--cache-dir needs a directory");
      CacheDir = V;
    } else if (A == "--no-cache") {
      NoCache = true;
    } else if ((Got = Value("--witness"))) {
      std::string Err;
      if (!*Got || V.empty())
        return Fail("--witness needs auto, off or a file");
      if (!parseWitnessMode(V, O.Witness, Err))
        return Fail(Err);
    } else if ((Got = Value("--debounce"))) {
      if (!*Got || V.empty() || V.size() > 6 ||
          V.find_first_not_of("0123456789") != std::string::npos)
        return Fail("--debounce expects milliseconds, got '" + V + "'");
      O.DebounceMs = static_cast<unsigned>(std::stoul(V));
    } else if (A == "--notes-in-message") {
      O.NotesInMessage = true;
    } else if ((Got = Value("--log"))) {
      if (*Got && V == "error")
        O.LogLevel = llvm::lsp::Logger::Level::Error;
      else if (*Got && V == "info")
        O.LogLevel = llvm::lsp::Logger::Level::Info;
      else if (*Got && V == "verbose")
        O.LogLevel = llvm::lsp::Logger::Level::Debug;
      else
        return Fail("--log expects error, info or verbose");
    } else {
      return Fail(startsWith(A, "-") ? "unknown option '" + A + "'"
                                     : "unexpected argument '" + A +
                                           "' (the editor sends the files)");
    }
  }
  if (O.Over.NoConfig && !O.Over.ConfigFile.empty())
    return Fail("--config and --no-config contradict each other");
  if (O.Setup.NoCompileDb && !O.Setup.CompileDb.empty())
    return Fail("-p and --no-compile-db contradict each other");
  if (NoCache && CacheDir)
    return Fail("--cache-dir and --no-cache contradict each other");
  O.CacheDir = NoCache ? "" : CacheDir ? absolutePath(*CacheDir) : defaultCacheDir();
  // The server's working directory is the editor's choice: check the set-up
  // once here, as the CLI would, rather than on every file.
  Invocation Inv = makeInvocation(O.Setup.Inv);
  if (!Inv.Problem.empty())
    return Fail(Inv.Problem);
  return std::nullopt;
}

} // namespace lsp
} // namespace coalesce

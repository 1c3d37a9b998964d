//===- Launch.cpp - coalesce-lint as the build's compiler launcher --------===//

#include "Launch.h"

#include "nlohmann/json.hpp"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace coalesce {
namespace {

bool isCudaSource(llvm::StringRef F) {
  return F.ends_with(".cu") || F.ends_with(".cuh");
}

/// The source file a compile command compiles: the argument of -c, else the
/// last argument naming an existing CUDA file; "" for none (a link step).
std::string sourceOf(const std::vector<std::string> &Cmd) {
  for (size_t I = 1; I + 1 < Cmd.size(); ++I)
    if (Cmd[I] == "-c" && isCudaSource(Cmd[I + 1]) && llvm::sys::fs::exists(Cmd[I + 1]))
      return Cmd[I + 1];
  for (size_t I = Cmd.size(); I-- > 1;)
    if (isCudaSource(Cmd[I]) && llvm::sys::fs::exists(Cmd[I]) &&
        !(I > 1 && (Cmd[I - 1] == "-o" || Cmd[I - 1] == "-MF")))
      return Cmd[I];
  return "";
}

int runCompiler(const std::vector<std::string> &Cmd) {
  llvm::ErrorOr<std::string> Exe = llvm::sys::findProgramByName(Cmd.front());
  if (!Exe && llvm::sys::fs::can_execute(Cmd.front()))
    Exe = Cmd.front();
  if (!Exe) {
    std::cerr << "coalesce-lint: error: launch: compiler '" << Cmd.front()
              << "' not found\n";
    return 2;
  }
  std::vector<llvm::StringRef> Args(Cmd.begin(), Cmd.end());
  std::string Err;
  const int Status = llvm::sys::ExecuteAndWait(*Exe, Args, std::nullopt, {}, 0, 0, &Err);
  if (Status < 0) {
    std::cerr << "coalesce-lint: error: launch: " << Cmd.front() << ": " << Err << "\n";
    return 2;
  }
  return Status;
}

} // namespace

int launchMain(int Argc, char **Argv, int (*Cli)(int, char **)) {
  std::vector<std::string> Options, Cmd;
  bool Dash = false;
  for (int I = 2; I < Argc; ++I) {
    if (!Dash && std::string(Argv[I]) == "--") {
      Dash = true;
      continue;
    }
    (Dash ? Cmd : Options).push_back(Argv[I]);
  }
  if (!Dash || Cmd.empty()) {
    std::cerr << "coalesce-lint: error: usage: coalesce-lint launch [OPTIONS] -- COMPILER "
                 "ARGS... (CMake: -DCMAKE_CUDA_COMPILER_LAUNCHER=\"coalesce-lint;launch;--\")\n";
    return 2;
  }
  const std::string Source = sourceOf(Cmd);
  if (Source.empty())
    return runCompiler(Cmd);

  // The command as a one-entry compile database: translated exactly as a
  // build's compile_commands.json is (nvcc's options for clang).
  llvm::SmallString<256> Cwd, Dir;
  llvm::sys::fs::current_path(Cwd);
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("coalesce-launch", Dir)) {
    std::cerr << "coalesce-lint: error: launch: no temporary directory: " << EC.message()
              << "\n";
    return 2;
  }
  {
    nlohmann::json Db = nlohmann::json::array();
    Db.push_back({{"directory", std::string(Cwd)}, {"file", Source}, {"arguments", Cmd}});
    std::ofstream Out(std::string(Dir) + "/compile_commands.json");
    Out << Db.dump();
  }
  bool Witness = false;
  for (const std::string &O : Options)
    Witness |= llvm::StringRef(O).starts_with("--witness");
  std::vector<std::string> Args{Argv[0], "-p", std::string(Dir)};
  if (!Witness)
    Args.push_back("--witness=off");
  Args.insert(Args.end(), Options.begin(), Options.end());
  Args.push_back(Source);
  std::vector<char *> CArgs;
  for (std::string &A : Args)
    CArgs.push_back(A.data());
  CArgs.push_back(nullptr);
  const int Analysis = Cli(static_cast<int>(Args.size()), CArgs.data());
  llvm::sys::fs::remove_directories(Dir);
  // Findings (1) or an analysis that failed (2) stop the step; --exit-zero
  // lets findings through.
  if (Analysis != 0)
    return Analysis;
  return runCompiler(Cmd);
}

} // namespace coalesce

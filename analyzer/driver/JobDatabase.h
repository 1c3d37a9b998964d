//===- JobDatabase.h - The compilation database of one FileJob ------------===//
//
// ClangTool takes its command lines from a CompilationDatabase. A FileJob
// already holds the one command line for its file (from compile_commands.json,
// the CLI or the editor); this database gives it, with the file to parse
// appended: the job's own file, or the virtual main file of its precompiled
// preamble (Preamble.h). One class for both, so that the parse and the
// preamble build cannot drift apart in how they call clang.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_DRIVER_JOBDATABASE_H
#define COALESCE_ANALYZER_DRIVER_JOBDATABASE_H

#include "driver/Runner.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <string>
#include <vector>

namespace coalesce {

class JobDatabase : public clang::tooling::CompilationDatabase {
public:
  /// Main: the file clang is asked to parse ("" = the job's file).
  explicit JobDatabase(const FileJob &J, std::string Main = "")
      : Job(J), Main(Main.empty() ? J.File : std::move(Main)) {}

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<std::string> Cmd = Job.Args;
    Cmd.push_back(File.str());
    return {clang::tooling::CompileCommand(Job.Directory, File, Cmd, "")};
  }
  std::vector<std::string> getAllFiles() const override { return {Main}; }

private:
  const FileJob &Job;
  std::string Main;
};

} // namespace coalesce

#endif // COALESCE_ANALYZER_DRIVER_JOBDATABASE_H

//===- Launch.h - coalesce-lint as the build's compiler launcher ----------===//
//
//   coalesce-lint launch [OPTIONS] -- COMPILER ARGS...
//
// The form build systems call a compiler launcher with (CMake's
// CMAKE_CUDA_COMPILER_LAUNCHER, as ccache is used): the source file of the
// compile command is analysed with that very command (translated for clang
// as a compile_commands.json entry would be), then the compiler runs. A
// finding stops the build step before it compiles (exit 1, the findings on
// stdout for the build log); a clean file compiles and the compiler's exit
// status is the step's. So a project's own parallel (or distributed) build
// runs one analysis per translation unit, only for the files it rebuilds.
// OPTIONS are the CLI's (--min-ratio, --format, --exit-zero, ...); the
// compiler witness is off unless --witness is given (it would compile the
// file a second time). A command without a CUDA source (a link) just runs.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_LAUNCH_H
#define COALESCE_TOOLS_LAUNCH_H

namespace coalesce {

/// Argv[1] is "launch". Cli runs the CLI on an argument vector.
int launchMain(int Argc, char **Argv, int (*Cli)(int, char **));

} // namespace coalesce

#endif // COALESCE_TOOLS_LAUNCH_H

//===- FixCompile.h - Compile a layout fix's edited code with nvcc ---------===//
//
// A swizzle over shared accesses that nvcc merges into wider instructions
// (a register tile's row read element by element, emitted as LDS.128) keeps
// its predicted cost only if nvcc still merges them in the edited code,
// which is ptxas's decision: it must prove the alignment through the XOR,
// and does in some forms, not in others (tools/probes/swizzled_tile_reads).
// So the choice of layouts (cost/LayoutChoice.h) asks for a compile.
//
// The edited files are written into a mirror of the main file's directory
// (every other source file there a symbolic link to the original, so that
// relative #includes find the edited headers), compiled as the witness
// compiles the file (driver/Witness.h), and, for each check, the
// shared-memory instructions nvcc emits on each of its lines (opcode and
// count, over all functions) compared with those of the unedited build.
// Results are cached by the compile's command line, the main file's and the
// edited files' texts and the edits.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_DRIVER_FIXCOMPILE_H
#define COALESCE_ANALYZER_DRIVER_FIXCOMPILE_H

#include "driver/Witness.h"
#include "report/LayoutFix.h"

#include <vector>

namespace coalesce {

struct FileJob;

/// For each check: 1 when nvcc, compiling Job's code with all the checks'
/// edits applied, emits on every line of the check the shared-memory
/// instructions it emits there in Original, else 0. All -1 when the edited
/// code is not compiled (no nvcc, an edit outside the main file's
/// directory, a compile error) or, with O.CacheOnly, not cached.
std::vector<int> layoutCompilesAlike(const FileJob &Job, const WitnessOptions &O,
                                      const witness::SassModule &Original,
                                      const std::vector<LayoutCompileCheck> &Checks);

} // namespace coalesce

#endif // COALESCE_ANALYZER_DRIVER_FIXCOMPILE_H

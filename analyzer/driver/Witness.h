//===- Witness.h - Compile a file's device code and read what nvcc emitted -===//
//
// The compiler as a second witness (docs/witness.md): for a file the runner
// analyses, compile its device code with nvcc for the target architecture
// with line information (`nvcc -cubin -lineinfo`), disassemble it
// (`nvdisasm -gi`) and read the memory instructions of each kernel
// (witness/Sass.h). Or read a cubin or binary the build already made
// (--witness=FILE; built with -lineinfo).
//
// Results are cached by the compile's command line, the file's text and the
// headers nvcc read (their sizes and modification times, from its -MD
// dependency list): a warm run costs reading the cached disassembly.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_DRIVER_WITNESS_H
#define COALESCE_ANALYZER_DRIVER_WITNESS_H

#include "witness/Sass.h"

#include <memory>
#include <string>
#include <vector>

namespace coalesce {

struct FileJob;

struct WitnessOptions {
  enum class Mode {
    Auto,  // use nvcc and nvdisasm when found; say once when not
    Off,   // the source analysis alone
    Given  // read Given: a cubin, or an executable or object holding cubins
  };
  Mode M = Mode::Auto;
  std::string Given;
  std::string Nvcc;     // "" = the toolkit's, else PATH
  std::string Nvdisasm; // "" = $COALESCE_NVDISASM, the toolkit's, PATH, the one found at build time
  std::string CacheDir; // "" = no cache
  /// Answer from the cache only: a compile not done yet is Deferred (the
  /// language server compiles in the background and analyses again).
  bool CacheOnly = false;
};

/// Parses --witness=VALUE: "auto", "off", or a file. False with Error set
/// when the file does not exist.
bool parseWitnessMode(const std::string &Value, WitnessOptions &O, std::string &Error);

struct WitnessResult {
  std::shared_ptr<const witness::SassModule> Module; // null: not used
  /// Why it was not used (no nvcc, nvcc failed...), or "".
  std::string NotUsed;
  /// What it was: "nvcc 13.0 -arch=sm_90 (/usr/local/cuda/bin/nvcc), nvdisasm 13.2".
  std::string Source;
  bool Cached = false;
  /// Not in the cache, and CacheOnly: not compiled.
  bool Deferred = false;
  double Seconds = 0;
};

/// Compiles (or reads the cache of, or the given file of) Job's device code.
WitnessResult runWitness(const FileJob &Job, const WitnessOptions &O);

/// The nvcc command line runWitness uses for Job (without -o and the
/// dependency file): the include directories, macros, forced includes and
/// language standard of its clang command line, and the architecture.
std::vector<std::string> witnessCompileArgs(const FileJob &Job, std::string &Arch);

/// The nvdisasm the witness would use, or "".
std::string findNvdisasm(const WitnessOptions &O, const std::string &Nvcc);

} // namespace coalesce

#endif // COALESCE_ANALYZER_DRIVER_WITNESS_H

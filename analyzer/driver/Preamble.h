//===- Preamble.h - A persistent cache of precompiled preambles ----------===//
//
// Clang spends most of the time of a CUDA parse in headers: the CUDA runtime
// wrapper the driver includes implicitly, and the file's own leading
// #includes. Both are the same for many files of a project, and from one run
// to the next. The preamble cache precompiles them once:
//
//   key = hash(clang version, the clang arguments, the file's directory,
//              the command's directory, the file's preamble: its leading
//              directives up to the last #include (Lexer::ComputePreamble),
//              without comments, so files including the same headers share)
//   <cache dir>/<key>.pch = GeneratePCHAction over a virtual file that holds
//                           only the preamble, in the file's directory
//
// and each parse then loads it with -include-pch and starts reading the file
// after the directives the preamble holds. Clang validates the
// PCH's input files when it loads it: if a header changed, the parse fails,
// the stale entry is deleted and the file is parsed without it. Entries are
// written to a temporary name and renamed, so concurrent runs are safe. A
// preamble whose headers have an error cannot be precompiled; the attempt
// (as long as a parse) is remembered in <key>.nopch with the size and time of
// every file it read, and not repeated until one of them changes. The
// cache stays under $COALESCE_CACHE_MAX_MB (default 1024): when an entry is
// added, those used longest ago are deleted.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_PREAMBLE_H
#define COALESCE_ANALYZER_PREAMBLE_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace coalesce {

struct FileJob;

struct PreamblePlan {
  std::string PchPath;       // "" when no preamble applies
  std::string VirtualFile;   // the preamble's virtual main file
  std::string VirtualText;
  /// For each line of VirtualText, the line of the file it was taken from
  /// (0: none that clang would name, such as a directive continued over
  /// several lines).
  std::vector<unsigned> SourceLines;
  /// The bytes of the file that the preamble stands for: the parse with it
  /// starts after them (clang's PrecompiledPreambleBytes), so that a header
  /// without an include guard is not included a second time.
  unsigned SkipBytes = 0;
  bool Built = false;        // built in this call (not found in the cache)
  std::string Problem;       // why none could be built
  bool CacheUnusable = false; // ... because the cache directory is unusable
};

/// The default cache directory: $COALESCE_CACHE_DIR, $XDG_CACHE_HOME/coalesce-lint
/// or $HOME/.cache/coalesce-lint.
std::string defaultCacheDir();

/// Finds or builds the precompiled preamble for Job in CacheDir.
PreamblePlan preambleFor(const FileJob &Job, const std::string &CacheDir);

/// Rewrites clang's messages from a parse with Plan's preamble into those of
/// a parse without it: "In file included from <virtual file>:N:" names the
/// line of the file instead (MainFile: the file's name as clang prints it).
/// Returns false, leaving Text as it was, when the messages name the
/// virtual file otherwise (a location in the preamble's own text, such as a
/// macro it defines): only a parse without the preamble prints those as the
/// user's own command does.
bool mapPreambleDiagnostics(std::string &Text, const PreamblePlan &Plan,
                            llvm::StringRef MainFile);

/// Forgets an entry that clang rejected.
void discardPreamble(const PreamblePlan &Plan);

} // namespace coalesce

#endif // COALESCE_ANALYZER_PREAMBLE_H

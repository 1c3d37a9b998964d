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
// and each parse then loads it with -include-pch; the file's own #include
// lines are re-read but skipped by their include guards. Clang validates the
// PCH's input files when it loads it: if a header changed, the parse fails,
// the stale entry is deleted and the file is parsed without it. Entries are
// written to a temporary name and renamed, so concurrent runs are safe. The
// cache stays under $COALESCE_CACHE_MAX_MB (default 1024): when an entry is
// added, those used longest ago are deleted.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_PREAMBLE_H
#define COALESCE_ANALYZER_PREAMBLE_H

#include <string>
#include <utility>
#include <vector>

namespace coalesce {

struct FileJob;

struct PreamblePlan {
  std::string PchPath;       // "" when no preamble applies
  std::string VirtualFile;   // the preamble's virtual main file
  std::string VirtualText;
  bool Built = false;        // built in this call (not found in the cache)
  std::string Problem;       // why none could be built
  bool CacheUnusable = false; // ... because the cache directory is unusable
};

/// The default cache directory: $COALESCE_CACHE_DIR, $XDG_CACHE_HOME/coalesce-lint
/// or $HOME/.cache/coalesce-lint.
std::string defaultCacheDir();

/// Finds or builds the precompiled preamble for Job in CacheDir.
PreamblePlan preambleFor(const FileJob &Job, const std::string &CacheDir);

/// Forgets an entry that clang rejected.
void discardPreamble(const PreamblePlan &Plan);

} // namespace coalesce

#endif // COALESCE_ANALYZER_PREAMBLE_H

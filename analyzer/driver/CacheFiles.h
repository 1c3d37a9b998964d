//===- CacheFiles.h - What the caches of the driver key and check with ----===//
//
// The precompiled-preamble cache (Preamble.h) and the compiler witness's
// cache (Witness.h) name their entries by a hash of what made them, and check
// an entry against the files it was made from: one line "size mtime path"
// per file, still true when none of them changed.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_ANALYZER_DRIVER_CACHEFILES_H
#define COALESCE_ANALYZER_DRIVER_CACHEFILES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace coalesce {

/// A 64-bit hash as 16 hexadecimal digits (a cache entry's name).
std::string hexDigest(uint64_t V);
/// "size mtime path\n" for a file on disk, or "" when there is none (a
/// virtual file, a file that went away).
std::string fileStamp(llvm::StringRef Path);
/// Whether every line of Stamps (fileStamp()s) still describes its file;
/// false for no lines.
bool stampsHold(llvm::StringRef Stamps);

} // namespace coalesce

#endif // COALESCE_ANALYZER_DRIVER_CACHEFILES_H

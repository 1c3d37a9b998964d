//===- SourceKey.h - Stable names for findings: paths, line text, hashes --===//
//
// SARIF fingerprints and baseline entries must survive edits that move code
// (new lines above, re-indentation), so they name a finding by its file, its
// kernel, its rule and the text of its source line, never by line number.
// This file holds the pieces they share: paths relative to a root, the
// normalised line text and a stable hash.
//===----------------------------------------------------------------------===//

#ifndef COALESCE_TOOLS_OUTPUT_SOURCEKEY_H
#define COALESCE_TOOLS_OUTPUT_SOURCEKEY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace coalesce {

/// File as an absolute path without `.`/`..` (relative paths are taken from
/// the current directory); symbolic links are not resolved.
std::string absolutePath(llvm::StringRef File);

/// File relative to the directory Root, with '/' separators; nullopt when
/// File is not under Root.
std::optional<std::string> relativePath(llvm::StringRef File, llvm::StringRef Root);

/// File relative to Root when it is under it, else its absolute path.
std::string displayPath(llvm::StringRef File, llvm::StringRef Root);

/// The source line as a key: `//` comments removed (outside string and
/// character literals), leading and trailing blanks dropped and every run of
/// blanks made one space. "  out[i]  =  in[2*i];  // slow" -> "out[i] = in[2*i];"
std::string normaliseLineText(llvm::StringRef Line);

/// The first 16 hex digits of the SHA-256 of the parts, each followed by a
/// NUL byte (so ("ab", "c") and ("a", "bc") differ). Stable across runs,
/// machines and versions of LLVM.
std::string stableHash(llvm::ArrayRef<std::string> Parts);

} // namespace coalesce

#endif // COALESCE_TOOLS_OUTPUT_SOURCEKEY_H

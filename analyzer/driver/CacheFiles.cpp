//===- CacheFiles.cpp - What the caches of the driver key and check with --===//

#include "driver/CacheFiles.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"

#include <cstdio>

namespace coalesce {

std::string hexDigest(uint64_t V) {
  char B[17];
  snprintf(B, sizeof B, "%016llx", static_cast<unsigned long long>(V));
  return B;
}

std::string fileStamp(llvm::StringRef Path) {
  llvm::sys::fs::file_status St;
  if (Path.empty() || llvm::sys::fs::status(Path, St))
    return "";
  return std::to_string(St.getSize()) + ' ' +
         std::to_string(llvm::sys::toTimeT(St.getLastModificationTime())) + ' ' + Path.str() +
         '\n';
}

bool stampsHold(llvm::StringRef Stamps) {
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Stamps.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty())
    return false;
  for (llvm::StringRef L : Lines) {
    const llvm::StringRef Path = L.split(' ').second.split(' ').second;
    if (fileStamp(Path) != (L + "\n").str())
      return false;
  }
  return true;
}

} // namespace coalesce

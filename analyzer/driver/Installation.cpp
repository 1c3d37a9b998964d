//===- Installation.cpp - The files an installed coalesce-lint carries ----===//

#include "driver/Installation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace coalesce {

std::string executableDir() {
  // On Linux this reads /proc/self/exe; the address only serves platforms
  // that look the executable up by a symbol in it.
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, &Anchor);
  if (Exe.empty())
    return "";
  return std::string(llvm::sys::path::parent_path(Exe));
}

namespace {

/// <directory of the executable>/<FromBin>/<Relative>, normalised, if it
/// exists.
std::string besideExecutable(llvm::StringRef FromBin, llvm::StringRef Relative) {
  std::string Dir = executableDir();
  if (Dir.empty())
    return "";
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, FromBin, Relative);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  if (!llvm::sys::fs::exists(P))
    return "";
  return std::string(P);
}

} // namespace

std::string installedResourceDir() {
  // A resource directory is usable when it has the builtin headers.
  std::string Include = besideExecutable(COALESCE_RESOURCE_DIR_FROM_BIN, "include");
  return Include.empty() ? "" : std::string(llvm::sys::path::parent_path(Include));
}

std::string installedDataFile(const std::string &Relative) {
  return besideExecutable(COALESCE_DATA_DIR_FROM_BIN, Relative);
}

} // namespace coalesce

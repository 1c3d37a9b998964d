//===- Inputs.cpp - The files a command line names ------------------------===//

#include "Inputs.h"

#include "SourceKey.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

namespace coalesce {

namespace {

bool isCudaFile(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".cuh";
}

/// A directory not to enter: hidden, or a CMake build tree.
bool skipDirectory(llvm::StringRef Path) {
  if (llvm::sys::path::filename(Path).starts_with("."))
    return true;
  llvm::SmallString<256> Cache(Path);
  llvm::sys::path::append(Cache, "CMakeCache.txt");
  return llvm::sys::fs::exists(Cache);
}

/// The CUDA files under Dir, as Dir/relative paths, sorted.
std::vector<std::string> cudaFilesUnder(const std::string &Dir, std::string &Problem) {
  std::vector<std::string> Found;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC)) {
    const std::string Path = It->path();
    llvm::sys::fs::file_status Own, St;
    if (llvm::sys::fs::status(Path, Own, /*follow=*/false))
      continue;
    if (llvm::sys::fs::is_directory(Own)) {
      if (skipDirectory(Path))
        It.no_push();
      continue;
    }
    // A link to a file counts as the file; a broken link is skipped.
    if (llvm::sys::fs::status(Path, St))
      continue;
    if (llvm::sys::fs::is_regular_file(St) && isCudaFile(Path)) {
      llvm::SmallString<256> P(Path);
      llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/false);
      Found.push_back(std::string(P));
    }
  }
  if (EC)
    Problem = Dir + ": cannot be read: " + EC.message();
  std::sort(Found.begin(), Found.end());
  return Found;
}

} // namespace

std::vector<std::string> expandInputs(const std::vector<std::string> &Args,
                                      std::vector<std::string> &Errors) {
  std::vector<std::string> Out;
  std::set<std::string> Seen; // absolute paths
  auto Add = [&](const std::string &F) {
    if (Seen.insert(absolutePath(F)).second)
      Out.push_back(F);
  };
  for (const std::string &A : Args) {
    if (!llvm::sys::fs::is_directory(A)) {
      Add(A);
      continue;
    }
    std::string Problem;
    std::vector<std::string> Found = cudaFilesUnder(A, Problem);
    if (!Problem.empty())
      Errors.push_back(Problem);
    else if (Found.empty())
      Errors.push_back(A + ": a directory without .cu or .cuh files (hidden directories and CMake "
                           "build trees are not searched)");
    for (const std::string &F : Found)
      Add(F);
  }
  return Out;
}

} // namespace coalesce

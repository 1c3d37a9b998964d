//===- ApplyFixes.cpp - Apply the findings' fix-its to the source files --===//

#include "ApplyFixes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace coalesce {

std::vector<FixOutcome> applyFixes(const std::vector<Finding> &Findings) {
  std::map<std::string, std::vector<FixIt>> ByFile;
  for (const Finding &F : Findings)
    for (const FixIt &X : F.Fixes)
      if (!X.Pos.File.empty())
        ByFile[X.Pos.File].push_back(X);
  std::vector<FixOutcome> Out;
  for (auto &[File, Edits] : ByFile) {
    FixOutcome O;
    O.File = File;
    auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buf) {
      O.Error = File + ": cannot read it to apply fixes: " + Buf.getError().message();
      Out.push_back(std::move(O));
      continue;
    }
    std::string Text = (*Buf)->getBuffer().str();
    std::string New = applyEditsToText(Text, Edits, O.Applied, O.Skipped);
    if (O.Applied) {
      llvm::SmallString<256> Tmp(File);
      Tmp += ".coalesce-fix.tmp";
      std::error_code EC;
      {
        llvm::raw_fd_ostream OS(Tmp, EC);
        if (!EC)
          OS << New;
        OS.close();
        if (!EC && OS.has_error())
          EC = OS.error();
      }
      if (!EC) {
        // Keep the file's permissions.
        llvm::sys::fs::file_status St;
        if (!llvm::sys::fs::status(File, St))
          llvm::sys::fs::setPermissions(Tmp, St.permissions());
        EC = llvm::sys::fs::rename(Tmp, File);
      }
      if (EC) {
        llvm::sys::fs::remove(Tmp);
        O.Error = File + ": cannot write the fixes: " + EC.message();
        O.Applied = 0;
      }
    }
    Out.push_back(std::move(O));
  }
  return Out;
}

} // namespace coalesce

//===- ApplyFixesTest.cpp - --fix edits on file text ----------------------===//

#include "ApplyFixes.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

FixIt insertAt(unsigned Line, unsigned Col, std::string Text, std::string LineText = "") {
  FixIt X;
  X.Pos.File = "t.cu";
  X.Pos.Line = Line;
  X.Pos.Column = Col;
  X.Pos.LineText = std::move(LineText);
  X.Insert = std::move(Text);
  return X;
}

const std::string Src = "__global__ void k() {\n"
                        "  __shared__ float t[32][32];\n"
                        "}\n";

TEST(ApplyFixes, InsertsAtLineAndByteColumn) {
  unsigned Applied;
  std::vector<std::string> Skipped;
  std::string Out = applyEditsToText(Src, {insertAt(2, 28, " + 1", "  __shared__ float t[32][32];")},
                                     Applied, Skipped);
  EXPECT_EQ(Applied, 1u);
  EXPECT_TRUE(Skipped.empty());
  EXPECT_EQ(Out, "__global__ void k() {\n  __shared__ float t[32][32 + 1];\n}\n");
}

TEST(ApplyFixes, SameEditFromSeveralFindingsOnce) {
  unsigned Applied;
  std::vector<std::string> Skipped;
  std::string Out = applyEditsToText(Src, {insertAt(2, 28, " + 1"), insertAt(2, 28, " + 1")},
                                     Applied, Skipped);
  EXPECT_EQ(Applied, 1u);
  EXPECT_TRUE(Skipped.empty());
  EXPECT_EQ(Out, "__global__ void k() {\n  __shared__ float t[32][32 + 1];\n}\n");
}

TEST(ApplyFixes, ConflictingEditsKeepTheFirst) {
  unsigned Applied;
  std::vector<std::string> Skipped;
  FixIt Replace = insertAt(2, 26, "33");
  Replace.RemoveLength = 2; // "32" -> "33"
  std::string Out =
      applyEditsToText(Src, {insertAt(2, 28, " + 1"), Replace, insertAt(2, 28, " + 2")}, Applied,
                       Skipped);
  EXPECT_EQ(Applied, 1u);
  ASSERT_EQ(Skipped.size(), 2u);
  EXPECT_NE(Skipped[0].find("overlaps another fix"), std::string::npos);
  EXPECT_EQ(Out, "__global__ void k() {\n  __shared__ float t[32][33];\n}\n");
}

TEST(ApplyFixes, StaleEditsAreSkipped) {
  unsigned Applied;
  std::vector<std::string> Skipped;
  std::string Out = applyEditsToText(
      Src, {insertAt(2, 28, " + 1", "  __shared__ double t[32][32];"), insertAt(9, 1, "x"),
            insertAt(1, 200, "x")},
      Applied, Skipped);
  EXPECT_EQ(Applied, 0u);
  ASSERT_EQ(Skipped.size(), 3u);
  EXPECT_EQ(Out, Src);
  EXPECT_NE(Skipped[0].find("changed since the analysis"), std::string::npos);
}

TEST(ApplyFixes, WritesTheFileAndKeepsItsMode) {
  llvm::SmallString<128> Path;
  int FD;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("fix", "cu", FD, Path));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Src;
  }
  llvm::sys::fs::setPermissions(Path, llvm::sys::fs::perms(0640));
  Finding F;
  FixIt X = insertAt(2, 28, " + 1");
  X.Pos.File = std::string(Path);
  F.Fixes.push_back(X);
  std::vector<FixOutcome> R = applyFixes({F, F});
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Applied, 1u);
  EXPECT_TRUE(R[0].Error.empty()) << R[0].Error;
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  ASSERT_TRUE(bool(Buf));
  EXPECT_EQ((*Buf)->getBuffer().str(), "__global__ void k() {\n  __shared__ float t[32][32 + 1];\n}\n");
  llvm::sys::fs::file_status St;
  ASSERT_FALSE(llvm::sys::fs::status(Path, St));
  EXPECT_EQ(St.permissions(), llvm::sys::fs::perms(0640));
  llvm::sys::fs::remove(Path);
}

TEST(ApplyFixes, MissingFileIsAnError) {
  Finding F;
  FixIt X = insertAt(1, 1, "x");
  X.Pos.File = "/nonexistent/dir/t.cu";
  F.Fixes.push_back(X);
  std::vector<FixOutcome> R = applyFixes({F});
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Applied, 0u);
  EXPECT_NE(R[0].Error.find("cannot read it"), std::string::npos);
}

} // namespace

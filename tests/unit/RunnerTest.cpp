// The runner parses an editor's unsaved buffer (FileJob::Contents) instead of
// the file on disk, with and without the preamble cache, and a buffer whose
// file does not exist yet.
#include "driver/Invocation.h"
#include "driver/Runner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

struct TempDir {
  llvm::SmallString<128> Path;
  TempDir() { EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("coalesce-runner", Path)); }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string path(const std::string &Name) const {
    llvm::SmallString<128> P(Path);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  std::string file(const std::string &Name, const std::string &Text) const {
    std::string P = path(Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    OS << Text;
    return P;
  }
};

// in[STRIDE * i] for floats: 4 sectors per request for a stride of 1, 8 for 2.
std::string kernel(const std::string &Include, int Stride) {
  return Include + "__global__ void k(const float *in, float *out) {\n"
                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "  out[i] = in[" + std::to_string(Stride) + " * i];\n"
                   "}\n"
                   "int main() { float *a, *b; k<<<8, 256>>>(a, b); }\n";
}

FileJob job(const std::string &File) {
  InvocationOptions IO;
  IO.CudaPath = "none";
  Invocation Inv = makeInvocation(IO);
  return FileJob{File, "/", Inv.Args, Inv.BuiltinHeaders, ""};
}

double firstLoadCost(const RunResult &R) {
  for (const AccessRecord &A : R.Report.Accesses)
    if (A.Op == AccessOp::Load)
      return A.Ans.cost();
  ADD_FAILURE() << "no load in the report";
  return -1;
}

void buffersOverDisk(bool WithCache) {
  TempDir D, Cache;
  D.file("stride.cuh", "#pragma once\n#define STRIDE 2\n");
  const std::string File = D.file("a.cu", kernel("", 1));
  RunOptions O;
  if (WithCache)
    O.CacheDir = std::string(Cache.Path);

  std::vector<RunResult> Disk = runAnalysis({job(File)}, O);
  ASSERT_FALSE(Disk[0].Failed) << Disk[0].ClangDiagnostics;
  EXPECT_EQ(firstLoadCost(Disk[0]), 4.0);

  // The buffer differs from the file: its text is analysed, its own
  // #include (absent on disk) resolved beside the file.
  FileJob J = job(File);
  J.Contents = kernel("#include \"stride.cuh\"\n", 2);
  std::vector<RunResult> Buf = runAnalysis({J}, O);
  ASSERT_FALSE(Buf[0].Failed) << Buf[0].ClangDiagnostics;
  EXPECT_EQ(firstLoadCost(Buf[0]), 8.0);
  EXPECT_EQ(Buf[0].Report.Accesses[0].Pos.Line, 4u) << "lines of the buffer";
  EXPECT_EQ(Buf[0].Report.Accesses[0].Pos.LineText, "  out[i] = in[2 * i];");
  EXPECT_EQ(Buf[0].UsedPreamble, WithCache);

  // The file on disk is unchanged and still analysed as it is.
  std::vector<RunResult> Again = runAnalysis({job(File)}, O);
  EXPECT_EQ(firstLoadCost(Again[0]), 4.0);
}

TEST(Runner, BufferInsteadOfTheFile) { buffersOverDisk(false); }

TEST(Runner, BufferInsteadOfTheFileWithThePreambleCache) { buffersOverDisk(true); }

TEST(Runner, BufferSharingThePreambleOfTheFile) {
  // The file and the buffer include the same header, so they share one
  // precompiled preamble; the buffer's own code is what is analysed, and
  // its syntax error what is reported.
  TempDir D, Cache;
  D.file("stride.cuh", "#pragma once\n#define STRIDE 2\n");
  const std::string Include = "#include \"stride.cuh\"\n";
  const std::string File = D.file("a.cu", kernel(Include, 1));
  RunOptions O;
  O.CacheDir = std::string(Cache.Path);
  EXPECT_EQ(firstLoadCost(runAnalysis({job(File)}, O)[0]), 4.0);
  FileJob J = job(File);
  J.Contents = kernel(Include, 2);
  std::vector<RunResult> Buf = runAnalysis({J}, O);
  ASSERT_FALSE(Buf[0].Failed) << Buf[0].ClangDiagnostics;
  EXPECT_TRUE(Buf[0].UsedPreamble);
  EXPECT_EQ(firstLoadCost(Buf[0]), 8.0);
  J.Contents = Include + "__global__ void k( {\n";
  std::vector<RunResult> Bad = runAnalysis({J}, O);
  EXPECT_TRUE(Bad[0].Failed);
  EXPECT_NE(Bad[0].ClangDiagnostics.find("a.cu:2:"), std::string::npos) << Bad[0].ClangDiagnostics;
}

TEST(Runner, BufferOfTheSameSizeAsTheFile) {
  // An edit that keeps the size (an editor's "32" -> "33"): the buffer is
  // still what is analysed, with the cache as without.
  for (bool WithCache : {false, true}) {
    TempDir D, Cache;
    const std::string File = D.file("a.cu", kernel("", 1));
    RunOptions O;
    if (WithCache)
      O.CacheDir = std::string(Cache.Path);
    EXPECT_EQ(firstLoadCost(runAnalysis({job(File)}, O)[0]), 4.0);
    FileJob J = job(File);
    J.Contents = kernel("", 2);
    ASSERT_EQ(J.Contents->size(), kernel("", 1).size());
    EXPECT_EQ(firstLoadCost(runAnalysis({J}, O)[0]), 8.0) << "cache " << WithCache;
  }
}

TEST(Runner, BufferOfAFileNotOnDisk) {
  TempDir D;
  FileJob J = job(D.path("new.cu"));
  J.Contents = kernel("", 2);
  std::vector<RunResult> R = runAnalysis({J}, RunOptions());
  ASSERT_FALSE(R[0].Failed) << R[0].ClangDiagnostics;
  EXPECT_EQ(firstLoadCost(R[0]), 8.0);
}

TEST(Runner, BufferWithASyntaxErrorFails) {
  TempDir D;
  FileJob J = job(D.file("a.cu", kernel("", 1)));
  J.Contents = "__global__ void k( {\n";
  std::vector<RunResult> R = runAnalysis({J}, RunOptions());
  EXPECT_TRUE(R[0].Failed);
  EXPECT_NE(R[0].ClangDiagnostics.find("a.cu:1:"), std::string::npos) << R[0].ClangDiagnostics;
}

} // namespace

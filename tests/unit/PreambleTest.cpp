// The preamble cache: files with the same leading includes share one
// precompiled preamble; results equal those of a plain parse; a header that
// changes after the preamble was built makes clang reject it, and the file is
// parsed from scratch (and the entry rebuilt on the next run); errors in the
// file's own code leave the entry in place, and clang's messages about them
// are those of a parse without the cache.
#include "driver/Invocation.h"
#include "driver/Preamble.h"
#include "driver/Runner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

struct TempDir {
  llvm::SmallString<128> Path;
  TempDir() { EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("coalesce-pch", Path)); }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string file(const std::string &Name, const std::string &Text) const {
    llvm::SmallString<128> P(Path);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    OS << Text;
    return std::string(P);
  }
};

const char *Header = "#pragma once\n#define STRIDE 2\n"
                     "__device__ inline int twice(int v) { return v * STRIDE; }\n";

std::string kernel(const std::string &Name) {
  return "#include \"common.cuh\"\n"
         "__global__ void " + Name + "(const float *in, float *out) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  out[i] = in[twice(i)];\n"
         "}\n"
         "int main() { float *a, *b; " + Name + "<<<8, 256>>>(a, b); }\n";
}

std::vector<FileJob> jobs(const std::vector<std::string> &Files, bool Toolkit) {
  InvocationOptions IO;
  IO.CudaPath = Toolkit ? "" : "none";
  Invocation Inv = makeInvocation(IO);
  std::vector<FileJob> J;
  for (const std::string &F : Files)
    J.push_back(FileJob{F, "/", Inv.Args, Inv.BuiltinHeaders, ""});
  return J;
}

void runAndCompare(bool Toolkit) {
  TempDir D, Cache;
  D.file("common.cuh", Header);
  std::vector<std::string> Files = {D.file("a.cu", kernel("ka")), D.file("b.cu", kernel("kb"))};
  RunOptions Plain;
  std::vector<RunResult> Want = runAnalysis(jobs(Files, Toolkit), Plain);
  RunOptions Cached;
  Cached.CacheDir = std::string(Cache.Path);
  std::vector<RunResult> Got = runAnalysis(jobs(Files, Toolkit), Cached);
  ASSERT_EQ(Got.size(), 2u);
  EXPECT_TRUE(Got[0].UsedPreamble);
  EXPECT_TRUE(Got[0].BuiltPreamble);
  EXPECT_TRUE(Got[1].UsedPreamble);
  EXPECT_FALSE(Got[1].BuiltPreamble) << "same prefix and directory: shared";
  for (size_t I = 0; I < 2; ++I) {
    ASSERT_FALSE(Got[I].Failed) << Got[I].ClangDiagnostics;
    ASSERT_EQ(Got[I].Report.Accesses.size(), Want[I].Report.Accesses.size());
    for (size_t A = 0; A < Want[I].Report.Accesses.size(); ++A) {
      EXPECT_EQ(Got[I].Report.Accesses[A].Ans.cost(), Want[I].Report.Accesses[A].Ans.cost());
      EXPECT_EQ(Got[I].Report.Accesses[A].Kernel, Want[I].Report.Accesses[A].Kernel);
    }
  }
  EXPECT_EQ(Got[0].Report.Accesses[0].Ans.cost(), 8.0); // in[2 * i]

  // A second run finds the entry on disk.
  std::vector<RunResult> Again = runAnalysis(jobs({Files[0]}, Toolkit), Cached);
  EXPECT_TRUE(Again[0].UsedPreamble);
  EXPECT_FALSE(Again[0].BuiltPreamble);

  // The header changes: the stale preamble is rejected, the file is parsed
  // from scratch with the new stride.
  D.file("common.cuh", "#pragma once\n// a longer header\n#define STRIDE 4\n"
                      "__device__ inline int twice(int v) { return v * STRIDE; }\n");
  std::vector<RunResult> After = runAnalysis(jobs({Files[0]}, Toolkit), Cached);
  ASSERT_FALSE(After[0].Failed) << After[0].ClangDiagnostics;
  EXPECT_FALSE(After[0].UsedPreamble);
  EXPECT_EQ(After[0].Report.Accesses[0].Ans.cost(), 16.0); // in[4 * i]
  std::vector<RunResult> Rebuilt = runAnalysis(jobs({Files[0]}, Toolkit), Cached);
  EXPECT_TRUE(Rebuilt[0].UsedPreamble);
  EXPECT_TRUE(Rebuilt[0].BuiltPreamble);
  EXPECT_EQ(Rebuilt[0].Report.Accesses[0].Ans.cost(), 16.0);
}

TEST(Preamble, BuiltinHeaders) { runAndCompare(false); }

TEST(Preamble, CudaToolkit) {
  if (findCudaToolkit().empty())
    GTEST_SKIP() << "no CUDA toolkit on this machine";
  runAndCompare(true);
}

TEST(Preamble, NoCacheDirMeansNoPreamble) {
  TempDir D;
  D.file("common.cuh", Header);
  std::vector<RunResult> R = runAnalysis(jobs({D.file("a.cu", kernel("ka"))}, false), RunOptions());
  EXPECT_FALSE(R[0].UsedPreamble);
  EXPECT_TRUE(preambleFor(jobs({"x.cu"}, false)[0], "").PchPath.empty());
}

size_t countPch(const std::string &Dir) {
  size_t N = 0;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    N += llvm::StringRef(It->path()).ends_with(".pch");
  return N;
}

TEST(Preamble, FilesIncludingTheSameHeadersShareOneEntry) {
  TempDir D, Cache;
  D.file("common.cuh", Header);
  // Different comments, a define after the include, an include inside a
  // conditional: the same precompiled part, and each file's own results.
  std::string K = kernel("ka");
  std::string A = D.file("a.cu", "// File a: one comment\n" + K);
  std::string B = D.file("b.cu", "/* File b:\n   another */\n" +
                                      K.substr(0, K.find('\n') + 1) +
                                      "#define UNUSED_B 1\n" + K.substr(K.find('\n') + 1));
  std::string C = D.file("c.cu", "#if 1\n" + K.substr(0, K.find('\n') + 1) + "#endif\n" +
                                      K.substr(K.find('\n') + 1));
  RunOptions O;
  O.CacheDir = std::string(Cache.Path);
  std::vector<RunResult> R = runAnalysis(jobs({A, B, C}, false), O);
  ASSERT_EQ(R.size(), 3u);
  for (const RunResult &X : R) {
    ASSERT_FALSE(X.Failed) << X.ClangDiagnostics;
    EXPECT_TRUE(X.UsedPreamble);
    EXPECT_EQ(X.Report.Accesses[0].Ans.cost(), 8.0);
  }
  EXPECT_TRUE(R[0].BuiltPreamble);
  EXPECT_FALSE(R[1].BuiltPreamble) << "comments and a trailing #define do not matter";
  EXPECT_TRUE(R[2].BuiltPreamble) << "the #if is part of the precompiled text";
  EXPECT_EQ(countPch(O.CacheDir), 2u);
}

TEST(Preamble, UnusableCacheDirIsReportedAndTheFileStillParses) {
  TempDir D;
  D.file("common.cuh", Header);
  std::string NotADir = D.file("plain-file", "x");
  RunOptions O;
  O.CacheDir = NotADir + "/cache";
  std::vector<RunResult> R = runAnalysis(jobs({D.file("a.cu", kernel("ka"))}, false), O);
  ASSERT_FALSE(R[0].Failed) << R[0].ClangDiagnostics;
  EXPECT_FALSE(R[0].UsedPreamble);
  EXPECT_NE(R[0].CacheProblem.find("cannot create the cache directory"), std::string::npos)
      << R[0].CacheProblem;
  EXPECT_EQ(R[0].Report.Accesses[0].Ans.cost(), 8.0);
}

TEST(Preamble, ErrorsInTheCodeKeepTheEntry) {
  // An error in one kernel (not in the preamble): the parse with the
  // preamble stands, with clang's messages and results as without the
  // cache, and the entry stays valid for the next run instead of being
  // deleted and rebuilt every time.
  TempDir D, Cache;
  D.file("common.cuh", Header);
  std::string Text = kernel("ka");
  Text += "__global__ void broken(float *out) { out[threadIdx.x] = undeclared; }\n";
  std::string A = D.file("a.cu", Text);
  std::vector<RunResult> Want = runAnalysis(jobs({A}, false), RunOptions());
  RunOptions O;
  O.CacheDir = std::string(Cache.Path);
  for (int Run = 0; Run < 2; ++Run) {
    std::vector<RunResult> R = runAnalysis(jobs({A}, false), O);
    EXPECT_EQ(R[0].ClangErrors, 1u);
    EXPECT_FALSE(R[0].Failed);
    EXPECT_TRUE(R[0].UsedPreamble) << "run " << Run;
    EXPECT_EQ(R[0].ClangDiagnostics, Want[0].ClangDiagnostics);
    ASSERT_EQ(R[0].Report.Accesses.size(), Want[0].Report.Accesses.size());
    EXPECT_EQ(R[0].Report.Accesses[0].Ans.cost(), 8.0);
    EXPECT_EQ(countPch(O.CacheDir), 1u) << "run " << Run;
    EXPECT_TRUE(preambleFor(jobs({A}, false)[0], O.CacheDir).PchPath.size());
    EXPECT_FALSE(preambleFor(jobs({A}, false)[0], O.CacheDir).Built) << "run " << Run;
  }
}

/// Runs File without and with the cache (twice: building the entry, then
/// finding it) and checks that clang's messages and the kernels' verdicts
/// are the same; returns the last run's result.
RunResult sameWithAndWithoutCache(const std::string &File, const std::string &CacheDir) {
  RunResult Want = runAnalysis(jobs({File}, false), RunOptions())[0];
  RunOptions O;
  O.CacheDir = CacheDir;
  RunResult Got;
  for (int Run = 0; Run < 2; ++Run) {
    Got = runAnalysis(jobs({File}, false), O)[0];
    EXPECT_EQ(Got.ClangDiagnostics, Want.ClangDiagnostics) << "run " << Run;
    EXPECT_EQ(Got.ClangErrors, Want.ClangErrors);
    EXPECT_EQ(Got.Failed, Want.Failed);
    EXPECT_EQ(Got.Report.Accesses.size(), Want.Report.Accesses.size());
    EXPECT_EQ(Got.Report.Kernels.size(), Want.Report.Kernels.size());
    for (size_t K = 0; K < Want.Report.Kernels.size() && K < Got.Report.Kernels.size(); ++K)
      EXPECT_EQ(Got.Report.Kernels[K].NotAnalysed, Want.Report.Kernels[K].NotAnalysed);
  }
  return Got;
}

const char *TemplateHeader =
    "#pragma once\n"
    "template <int N> __global__ void tiled(float *out) {\n"
    "  char scratch[N - 4];\n"
    "  out[threadIdx.x] = scratch[0];\n"
    "}\n";

TEST(Preamble, ErrorInAPrecompiledHeaderNamesTheFilesOwnLine) {
  // The error is in a header of the preamble, found when the file
  // instantiates its template: clang's include stack names the file's own
  // line 4 (the virtual preamble file has it on line 2), as without the cache.
  TempDir D, Cache;
  D.file("common.cuh", Header);
  D.file("tiled.cuh", TemplateHeader);
  std::string A = D.file("a.cu", "// Two comment lines that the\n"
                                 "// precompiled preamble drops.\n"
                                 "#include \"common.cuh\"\n"
                                 "#include \"tiled.cuh\"\n" +
                                     kernel("ka").substr(22) +
                                     "template __global__ void tiled<3>(float *);\n"
                                     "template __global__ void tiled<8>(float *);\n");
  RunResult R = sameWithAndWithoutCache(A, std::string(Cache.Path));
  EXPECT_TRUE(R.UsedPreamble);
  EXPECT_EQ(R.ClangErrors, 1u);
  EXPECT_NE(R.ClangDiagnostics.find("In file included from " + A + ":4:\n"), std::string::npos)
      << R.ClangDiagnostics;
  EXPECT_EQ(R.ClangDiagnostics.find(".coalesce-preamble-"), std::string::npos)
      << R.ClangDiagnostics;
  // The error is in the template's body: both of its instances are left
  // out, the file's own kernel is analysed.
  ASSERT_EQ(R.Report.Kernels.size(), 3u);
  for (const KernelSummary &K : R.Report.Kernels)
    EXPECT_EQ(K.NotAnalysed.empty(), K.Name == "ka") << K.Name << ": " << K.NotAnalysed;
}

TEST(Preamble, AnErrorInTheHeadersIsRememberedUntilAHeaderChanges) {
  // The preamble's own header does not compile (a host API whose signature
  // changed in the toolkit, say): it cannot be precompiled. The next runs do
  // not try again while the files it read are unchanged; results are those
  // of a parse without the cache.
  TempDir D, Cache;
  std::string H = D.file("common.cuh", std::string(Header) + "void host() { undeclared(); }\n");
  std::string A = D.file("a.cu", kernel("ka"));
  auto Markers = [&] {
    unsigned N = 0;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Cache.Path, EC), End; It != End && !EC;
         It.increment(EC))
      N += llvm::StringRef(It->path()).ends_with(".nopch");
    return N;
  };
  for (int Run = 0; Run < 2; ++Run) {
    PreamblePlan P = preambleFor(jobs({A}, false)[0], std::string(Cache.Path));
    EXPECT_TRUE(P.PchPath.empty()) << "run " << Run;
    EXPECT_FALSE(P.Problem.empty());
    EXPECT_EQ(Markers(), 1u) << "run " << Run;
  }
  RunResult R = sameWithAndWithoutCache(A, std::string(Cache.Path));
  EXPECT_FALSE(R.UsedPreamble);
  EXPECT_EQ(R.ClangErrors, 1u);
  // Fixed: the header changed, so the next run precompiles it.
  D.file("common.cuh", Header);
  PreamblePlan Fixed = preambleFor(jobs({A}, false)[0], std::string(Cache.Path));
  EXPECT_FALSE(Fixed.PchPath.empty()) << Fixed.Problem;
  EXPECT_TRUE(Fixed.Built);
  EXPECT_EQ(Markers(), 0u);
  (void)H;
}

TEST(Preamble, HeaderWithoutIncludeGuardIsReadOnce) {
  // The parse with the preamble starts after the directives it holds: a
  // header without a guard is not defined twice.
  TempDir D, Cache;
  D.file("common.cuh", "#define STRIDE 2\n"
                       "__device__ inline int twice(int v) { return v * STRIDE; }\n");
  RunResult R = sameWithAndWithoutCache(D.file("a.cu", kernel("ka")), std::string(Cache.Path));
  EXPECT_TRUE(R.UsedPreamble);
  EXPECT_EQ(R.ClangErrors, 0u) << R.ClangDiagnostics;
  EXPECT_EQ(R.Report.Accesses[0].Ans.cost(), 8.0);
}

TEST(Preamble, MessagesAboutThePreamblesOwnTextComeFromAParseWithoutIt) {
  // A macro the preamble defines, expanded in an error: its location is in
  // the precompiled text, which only a parse without it names as the user's
  // own command does. So do an #include continued over two lines and one
  // after a #line directive, whose line the preamble does not keep.
  TempDir D, Cache;
  D.file("common.cuh", Header);
  D.file("tiled.cuh", TemplateHeader);
  const std::string Launch = "template __global__ void tiled<3>(float *);\n";
  const std::string Files[] = {
      D.file("macro.cu", "#define BAD undeclared_name\n#include \"common.cuh\"\n"
                         "__global__ void k(float *out) { out[threadIdx.x] = BAD; }\n"),
      D.file("continued.cu", "#include \\\n  \"tiled.cuh\"\n" + Launch),
      D.file("line.cu", "#line 40\n#include \"tiled.cuh\"\n" + Launch)};
  for (const std::string &F : Files) {
    SCOPED_TRACE(F);
    RunResult R = sameWithAndWithoutCache(F, std::string(Cache.Path));
    EXPECT_FALSE(R.UsedPreamble);
    EXPECT_EQ(R.ClangErrors, 1u) << R.ClangDiagnostics;
    EXPECT_EQ(R.ClangDiagnostics.find(".coalesce-preamble-"), std::string::npos)
        << R.ClangDiagnostics;
  }
}

TEST(Preamble, CacheIsPrunedToItsLimit) {
  TempDir D, Cache;
  D.file("common.cuh", Header);
  D.file("other.cuh", "#pragma once\n#define STRIDE 4\n"
                      "__device__ inline int twice(int v) { return v * STRIDE; }\n");
  std::string A = D.file("a.cu", kernel("ka"));
  std::string BText = kernel("kb");
  BText.replace(BText.find("common.cuh"), 10, "other.cuh");
  std::string B = D.file("b.cu", BText);
  RunOptions O;
  O.CacheDir = std::string(Cache.Path);
  ASSERT_TRUE(runAnalysis(jobs({A}, false), O)[0].BuiltPreamble);
  EXPECT_EQ(countPch(O.CacheDir), 1u);
  // A limit of 0 MB keeps only the entry just built.
  ::setenv("COALESCE_CACHE_MAX_MB", "0", 1);
  std::vector<RunResult> R = runAnalysis(jobs({B}, false), O);
  ::unsetenv("COALESCE_CACHE_MAX_MB");
  EXPECT_TRUE(R[0].BuiltPreamble);
  EXPECT_EQ(R[0].Report.Accesses[0].Ans.cost(), 16.0);
  EXPECT_EQ(countPch(O.CacheDir), 1u);
  // a.cu's entry was the one deleted: it is built again.
  EXPECT_TRUE(runAnalysis(jobs({A}, false), O)[0].BuiltPreamble);
}

} // namespace

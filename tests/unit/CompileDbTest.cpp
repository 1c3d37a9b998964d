// Translation of compile-database entries (nvcc as CMake writes it, clang,
// options files) into the device-side clang arguments of the analysis.
#include "driver/CompileDb.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace coalesce;

namespace {

bool has(const std::vector<std::string> &V, const std::string &S) {
  return std::find(V.begin(), V.end(), S) != V.end();
}

bool hasPair(const std::vector<std::string> &V, const std::string &A,
             const std::string &B) {
  for (size_t I = 0; I + 1 < V.size(); ++I)
    if (V[I] == A && V[I + 1] == B)
      return true;
  return false;
}

InvocationOptions builtin() {
  InvocationOptions O;
  O.CudaPath = "none";
  return O;
}

std::vector<std::string> split(const std::string &S) {
  std::vector<std::string> V;
  size_t P = 0;
  while (P < S.size()) {
    size_t Q = S.find(' ', P);
    if (Q == std::string::npos)
      Q = S.size();
    if (Q > P)
      V.push_back(S.substr(P, Q - P));
    P = Q + 1;
  }
  return V;
}

TEST(CompileDb, CMakeNvccCommand) {
  auto CL = split("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DFOO=1 "
                  "-I/src/inc --generate-code=arch=compute_80,code=[compute_80,sm_80] "
                  "--expt-relaxed-constexpr --extended-lambda -Xcompiler=-fopenmp,-Wall,-DBAR "
                  "-std=c++17 -x cu -rdc=true -c /src/k.cu -o CMakeFiles/k.dir/k.cu.o");
  TranslatedCommand T = translateCommand(CL, "/src/k.cu", "/src/build", builtin());
  EXPECT_EQ(T.Problem, "");
  EXPECT_EQ(T.GpuArch, "sm_80");
  EXPECT_TRUE(has(T.Args, "--cuda-gpu-arch=sm_80"));
  EXPECT_TRUE(has(T.Args, "-DFOO=1"));
  EXPECT_TRUE(has(T.Args, "-I/src/inc"));
  EXPECT_TRUE(has(T.Args, "-D__CUDACC_RELAXED_CONSTEXPR__"));
  EXPECT_TRUE(has(T.Args, "-D__CUDACC_EXTENDED_LAMBDA__"));
  EXPECT_TRUE(has(T.Args, "-fopenmp"));
  EXPECT_TRUE(has(T.Args, "-DBAR"));
  EXPECT_FALSE(has(T.Args, "-Wall"));
  EXPECT_TRUE(has(T.Args, "-std=c++17"));
  EXPECT_TRUE(has(T.Args, "-fgpu-rdc"));
  EXPECT_TRUE(hasPair(T.Args, "-x", "cuda"));
  EXPECT_TRUE(has(T.Args, "--cuda-device-only"));
  for (const char *Gone : {"-c", "-o", "/src/k.cu", "-forward-unknown-to-host-compiler",
                           "cu", "-rdc=true", "CMakeFiles/k.dir/k.cu.o"})
    EXPECT_FALSE(has(T.Args, Gone)) << Gone;
}

TEST(CompileDb, ArchSpellings) {
  struct {
    const char *Cmd;
    const char *Arch;
  } Cases[] = {
      {"nvcc -arch=sm_90 -c k.cu", "sm_90"},
      {"nvcc -arch sm_75 -c k.cu", "sm_75"},
      {"nvcc --gpu-architecture=compute_86 -code=sm_86 -c k.cu", "sm_86"},
      {"nvcc -gencode arch=compute_70,code=sm_70 -gencode arch=compute_90,code=sm_90a -c k.cu", "sm_70"},
      {"nvcc -gencode=arch=compute_89,code=\"sm_89,compute_89\" -c k.cu", "sm_89"},
      {"nvcc -arch=native -c k.cu", "sm_90"},
      {"clang++ -x cuda --cuda-gpu-arch=sm_80 -c k.cu", "sm_80"},
      {"clang++ --offload-arch=sm_61 -c k.cu", "sm_61"},
  };
  for (auto &C : Cases) {
    TranslatedCommand T = translateCommand(split(C.Cmd), "k.cu", "/b", builtin());
    EXPECT_EQ(T.GpuArch, C.Arch) << C.Cmd;
    EXPECT_EQ(T.Problem, "") << C.Cmd;
  }
}

TEST(CompileDb, TwoTokenOptionsAreNotInputs) {
  auto CL = split("nvcc -ccbin g++-12 -Xptxas -v -Xcompiler -fPIC -maxrregcount 64 "
                  "--default-stream per-thread -t 4 -c k.cu -o k.o");
  TranslatedCommand T = translateCommand(CL, "k.cu", "/b", builtin());
  EXPECT_TRUE(has(T.Args, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"));
  for (const char *Gone : {"g++-12", "-v", "-fPIC", "64", "4", "k.o", "-ccbin", "-Xptxas"})
    EXPECT_FALSE(has(T.Args, Gone)) << Gone;
  for (const std::string &N : T.Notes)
    EXPECT_EQ(N.find("another input"), std::string::npos) << N;
}

TEST(CompileDb, OptionsFilesAreSpliced) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("coalesce-db", Dir));
  llvm::SmallString<128> Opt(Dir);
  llvm::sys::path::append(Opt, "includes.rsp");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Opt, EC);
    OS << "-I/deep/include \"-DNAME=with space\"\n";
  }
  auto CL = split("nvcc --options-file includes.rsp -c k.cu");
  TranslatedCommand T = translateCommand(CL, "k.cu", std::string(Dir), builtin());
  EXPECT_TRUE(has(T.Args, "-I/deep/include"));
  EXPECT_TRUE(has(T.Args, "-DNAME=with space"));
  auto Bad = translateCommand(split("nvcc --options-file missing.rsp -c k.cu"), "k.cu",
                              std::string(Dir), builtin());
  EXPECT_NE(Bad.Problem, "");
  llvm::sys::fs::remove_directories(Dir);
}

TEST(CompileDb, RecognisesCudaCommands) {
  EXPECT_TRUE(isCudaCommand(split("/usr/local/cuda/bin/nvcc -c a.cpp"), "a.cpp"));
  EXPECT_TRUE(isCudaCommand(split("clang++ -x cuda -c a.cpp"), "a.cpp"));
  EXPECT_TRUE(isCudaCommand(split("g++ -c a.cu"), "a.cu"));
  EXPECT_FALSE(isCudaCommand(split("g++ -c a.cpp"), "a.cpp"));
}

} // namespace

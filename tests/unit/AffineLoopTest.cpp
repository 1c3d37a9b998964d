// Which loops have alike iterations (ast/AffineLoop.h): the syntactic half
// of the loop summaries of interp/LoopSummary.cpp. Each kernel holds one
// loop; the test asks about its body and increment.
#include "ast/AffineLoop.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using namespace clang;
using namespace coalesce;

namespace {

const char *Prelude = R"(
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
struct thread_index {
  static __device__ unsigned get_x();
  __declspec(property(get = get_x)) unsigned x;
};
extern const __device__ thread_index threadIdx;
__device__ int min(int a, int b);
__device__ float load(const float *p) { return *p; }
__device__ float pick(const float *p, int i) { if (i > 3) return p[0]; return p[i]; }
__device__ float at(const float *p, int i) { return p[2 * i + 1]; }
)";

struct FirstLoop : RecursiveASTVisitor<FirstLoop> {
  const ForStmt *Found = nullptr;
  bool VisitForStmt(ForStmt *F) {
    if (!Found)
      Found = F;
    return true;
  }
};

/// iterationsAlike() of the first `for` loop of Code, with the reason.
std::pair<bool, std::string> alike(const std::string &Code) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      std::string(Prelude) + Code,
      {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_90",
       "-std=c++17", "-fdeclspec", "-Wno-unused-value"},
      "input.cu");
  EXPECT_TRUE(AST);
  FirstLoop V;
  V.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
  EXPECT_TRUE(V.Found);
  if (!V.Found)
    return {false, "no loop"};
  std::string Why;
  const bool Ok = iterationsAlike(V.Found->getBody(), V.Found->getInc(), AST->getASTContext(), &Why);
  return {Ok, Why};
}

TEST(AffineLoop, SumsAndProductsByInvariantsAreAlike) {
  EXPECT_TRUE(alike(R"(__global__ void k(const float *x, float *o, int C) {
      float m = 0; int t = threadIdx.x;
      for (int i = 0; i < C; i++) m += x[t * C + i] + x[(i << 2) - 1];
      o[t] = m; })").first);
  // A pointer stepped with the counter, a helper that only dereferences.
  EXPECT_TRUE(alike(R"(__global__ void k(const float *x, float *o, int C) {
      const float *p = x; float m = 0;
      for (int i = 0; i < C; i++) { m += load(p + i) + at(x, i); p += 4; }
      o[0] = m; })").first);
  // A condition on something the loop does not change; an inner loop of
  // fixed length.
  EXPECT_TRUE(alike(R"(__global__ void k(const float *x, float *o, int C, int f) {
      for (int i = 0; i < C; i++) {
        if (f > 2) o[i] = x[i];
        for (int l = 0; l < 4; l++) o[4 * i + l] = 0;
      } })").first);
}

TEST(AffineLoop, ConditionsOnTheIterationAreNot) {
  auto [Ok, Why] = alike(R"(__global__ void k(const float *x, float *o, int C) {
      for (int i = 0; i < C; i++) if (i == 500) o[0] = x[i]; })");
  EXPECT_FALSE(Ok);
  EXPECT_NE(Why.find("condition"), std::string::npos) << Why;
  // Through a variable computed from the counter.
  EXPECT_FALSE(alike(R"(__global__ void k(const float *x, float *o, int C) {
      for (int i = 0; i < C; i++) { int last = i + 1; if (last < C) o[i] = x[i]; } })").first);
  // In a helper the counter is passed to.
  EXPECT_FALSE(alike(R"(__global__ void k(const float *x, float *o, int C) {
      for (int i = 0; i < C; i++) o[i] = pick(x, i); })").first);
  // An inner loop whose length follows the counter (a triangle).
  EXPECT_FALSE(alike(R"(__global__ void k(const float *x, float *o, int C) {
      for (int i = 0; i < C; i++) for (int l = 0; l < i; l++) o[l] = x[i]; })").first);
}

TEST(AffineLoop, ValuesNotAffineInTheIterationAreNot) {
  for (const char *Index : {"i % 4", "i / 2", "i & 7", "i >> 1", "i * i", "min(i, 100)",
                            "(short)i", "i ^ 1", "(i > 3)"}) {
    auto [Ok, Why] = alike(std::string(R"(__global__ void k(const float *x, float *o, int C) {
      for (int i = 0; i < C; i++) o[i] = x[)") + Index + "]; }");
    EXPECT_FALSE(Ok) << Index;
    EXPECT_FALSE(Why.empty()) << Index;
  }
  // A local table read at the counter: its values need not follow it.
  EXPECT_FALSE(alike(R"(__global__ void k(const float *x, float *o, int C) {
      int tab[4] = {3, 1, 0, 2};
      for (int i = 0; i < 4; i++) o[i] = x[tab[i]]; })").first);
  // Floating-point arithmetic is not followed: any of it is alike.
  EXPECT_TRUE(alike(R"(__global__ void k(const float *x, float *o, int C) {
      float s = 1;
      for (int i = 0; i < C; i++) s = s / x[i] * (float)i; o[0] = s; })").first);
}

TEST(AffineLoop, StateOutsideTheLocalsIsNot) {
  EXPECT_FALSE(alike(R"(__device__ int counter;
      __global__ void k(const float *x, float *o, int C) {
      for (int i = 0; i < C; i++) { counter += 1; o[i] = x[i]; } })").first);
  EXPECT_FALSE(alike(R"(__global__ void k(const float *x, float *o, int C) {
      for (int i = 0; i < C; i++) { goto out; } out: o[0] = 0; })").first);
}

} // namespace

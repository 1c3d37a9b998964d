// The memory accesses of a kernel as the source spells them
// (ast/AccessSites.h), and when one the walk did not reach is a miss: the
// list the analysis checks its records against, so that no access of an
// analysed kernel vanishes from the output.
#include "ast/AccessSites.h"
#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

#include <set>

using namespace clang;
using namespace coalesce;

namespace {

const char *Prelude = R"(
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
struct thread_index {
  static __device__ unsigned get_x();
  __declspec(property(get = get_x)) unsigned x; // as clang's CUDA headers
};
extern const __device__ thread_index threadIdx;
)";

struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *Kernel = nullptr;
};

Parsed parse(const std::string &Code) {
  Parsed P;
  P.AST = tooling::buildASTFromCodeWithArgs(
      std::string(Prelude) + Code,
      {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
       "--cuda-gpu-arch=sm_90", "-std=c++17", "-fdeclspec", "-Wno-unused-value"},
      "input.cu");
  for (const Decl *D : P.AST->getASTContext().getTranslationUnitDecl()->decls())
    if (auto *FD = dyn_cast<FunctionDecl>(D))
      if (FD->hasAttr<CUDAGlobalAttr>() && FD->hasBody())
        P.Kernel = FD;
  return P;
}

/// "load in[2 * i]" for each site, in the order of the list.
std::vector<std::string> describe(const Parsed &P, const KernelSites &S) {
  std::vector<std::string> Out;
  for (const AccessSite &A : S.sites())
    Out.push_back(std::string(A.Store ? "store " : "load ") +
                  (A.Space == MemorySpace::Global ? "" : std::string(spaceName(A.Space)) + " ") +
                  exprText(P.AST->getASTContext(), A.E) + " in " +
                  A.In->getNameAsString());
  return Out;
}

/// Every statement of a function body, for a walk that "visited" them.
struct AllStmts : RecursiveASTVisitor<AllStmts> {
  std::set<const Stmt *> Seen;
  bool VisitStmt(Stmt *S) {
    Seen.insert(S);
    return true;
  }
};

const Stmt *findStmt(const Stmt *Root, Stmt::StmtClass Class) {
  if (!Root)
    return nullptr;
  if (Root->getStmtClass() == Class)
    return Root;
  for (const Stmt *C : Root->children())
    if (const Stmt *S = findStmt(C, Class))
      return S;
  return nullptr;
}

const CallExpr *findCallTo(const Stmt *Root, const std::string &Name) {
  if (!Root)
    return nullptr;
  if (auto *CE = dyn_cast<CallExpr>(Root))
    if (CE->getDirectCallee() && CE->getDirectCallee()->getNameAsString() == Name)
      return CE;
  for (const Stmt *C : Root->children())
    if (const CallExpr *CE = findCallTo(C, Name))
      return CE;
  return nullptr;
}

TEST(AccessSites, ListsLoadsAndStoresNotAddressesOrRegisters) {
  Parsed P = parse(R"(
const int Scale = 4;
struct Pair { float a, b; };
__device__ float twice(const float *q, int i) { return 2 * q[i]; }
__global__ void k(float *out, const float *in, Pair *pairs, int *count) {
  __shared__ float tile[8][33];
  int i = threadIdx.x;           // a register
  Pair local = {1, 2};           // registers
  const float *p = &in[3];       // an address, no access
  unsigned bytes = sizeof(in[0]); // not evaluated
  tile[i % 8][i / 8] = in[Scale * i] + local.a;
  out[i] = tile[i / 8][i % 8] + pairs[i].b + pairs->a + *p + twice(in, i);
  ++count[i];
}
)");
  ASSERT_TRUE(P.Kernel);
  KernelSites S(P.AST->getASTContext(), P.Kernel);
  EXPECT_EQ(describe(P, S), (std::vector<std::string>{
                                "store shared tile[i % 8][i / 8] in k",
                                "load in[Scale * i] in k",
                                "store out[i] in k",
                                "load shared tile[i / 8][i % 8] in k",
                                "load pairs[i].b in k",
                                "load pairs->a in k",
                                "load *p in k",
                                "store count[i] in k",
                                "load q[i] in twice",
                            }));
}

TEST(AccessSites, AStructCopyAndAPointerToMemberAreAccesses) {
  Parsed P = parse(R"(
struct Pair { float a, b; };
__global__ void k(Pair *out, const Pair *in, float Pair::*m) {
  Pair v = in[threadIdx.x];
  out[threadIdx.x] = v;
  out[0].*m = in->*m;
}
)");
  ASSERT_TRUE(P.Kernel);
  KernelSites S(P.AST->getASTContext(), P.Kernel);
  EXPECT_EQ(describe(P, S), (std::vector<std::string>{
                                "load in[threadIdx.x] in k",
                                "store out[threadIdx.x] in k",
                                "store out[0].*m in k",
                                "load in->*m in k",
                            }));
}

TEST(AccessSites, AConstantVariableIsAnAccessInConstantMemory) {
  // A site the walk misses keeps its space: a __constant__ table's read is
  // a constant access, not a global one.
  Parsed P = parse(R"(
#define __constant__ __attribute__((constant))
__constant__ float table[64];
struct Params { int n; float scale; };
__constant__ Params params;
__global__ void k(float *out) {
  out[threadIdx.x] = table[threadIdx.x % 64] * params.scale;
}
)");
  ASSERT_TRUE(P.Kernel);
  KernelSites S(P.AST->getASTContext(), P.Kernel);
  EXPECT_EQ(describe(P, S), (std::vector<std::string>{
                                "store out[threadIdx.x] in k",
                                "load constant table[threadIdx.x % 64] in k",
                                "load constant params.scale in k",
                            }));
}

struct Walk {
  std::set<const Stmt *> Visited;
  std::set<const Expr *> Reached;
  std::function<bool(const Stmt *)> V = [this](const Stmt *S) { return Visited.count(S) > 0; };
  std::function<bool(const Expr *)> R = [this](const Expr *E) { return Reached.count(E) > 0; };
  CoverageQuery query() const { return CoverageQuery{V, R}; }
};

const AccessSite &siteNamed(const Parsed &P, const KernelSites &S, const std::string &Text) {
  for (const AccessSite &A : S.sites())
    if (exprText(P.AST->getASTContext(), A.E) == Text)
      return A;
  ADD_FAILURE() << "no site " << Text;
  return S.sites().front();
}

const char *Branchy = R"(
__device__ float load(const float *q) { return q[threadIdx.x]; }
__global__ void k(float *out, const float *in, int n) {
  if (in[0] > 0)
    out[threadIdx.x] = in[1];
  out[n] = load(in);
}
)";

TEST(AccessSites, ABranchNoLaneTakesIsNoMiss) {
  Parsed P = parse(Branchy);
  ASSERT_TRUE(P.Kernel);
  KernelSites S(P.AST->getASTContext(), P.Kernel);
  // The walk ran the body and the `if`, not its then-branch, and reached
  // the condition's load.
  Walk W;
  W.Visited.insert(P.Kernel->getBody());
  const Stmt *If = findStmt(P.Kernel->getBody(), Stmt::IfStmtClass);
  W.Visited.insert(If);
  W.Reached.insert(siteNamed(P, S, "in[0]").E);
  EXPECT_EQ(S.missedWhy(siteNamed(P, S, "in[1]"), W.query()), "");
  EXPECT_EQ(S.missedWhy(siteNamed(P, S, "out[threadIdx.x]"), W.query()), "");
}

TEST(AccessSites, AnEvaluatedStatementWhosePartWasSkippedIsAMiss) {
  Parsed P = parse(Branchy);
  ASSERT_TRUE(P.Kernel);
  KernelSites S(P.AST->getASTContext(), P.Kernel);
  // The `if` ran but its condition's load was never evaluated.
  Walk W;
  W.Visited.insert(P.Kernel->getBody());
  W.Visited.insert(findStmt(P.Kernel->getBody(), Stmt::IfStmtClass));
  EXPECT_EQ(S.missedWhy(siteNamed(P, S, "in[0]"), W.query()),
            "it evaluated `IfStmt` at line 13 but not its part holding `in[0]`");
  // Evaluated, but the walk did not know which memory it names.
  AllStmts All;
  All.TraverseStmt(const_cast<Stmt *>(P.Kernel->getBody()));
  W.Visited.insert(All.Seen.begin(), All.Seen.end());
  EXPECT_EQ(S.missedWhy(siteNamed(P, S, "out[n]"), W.query()),
            "it evaluated `out[n]` without knowing which memory it names");
}

TEST(AccessSites, ACallThatRanWithoutEnteringItsFunctionIsAMiss) {
  Parsed P = parse(Branchy);
  ASSERT_TRUE(P.Kernel);
  KernelSites S(P.AST->getASTContext(), P.Kernel);
  const AccessSite &InCallee = siteNamed(P, S, "q[threadIdx.x]");
  Walk W;
  W.Visited.insert(P.Kernel->getBody());
  // No call to load() ran: its access is on no lane's path.
  EXPECT_EQ(S.missedWhy(InCallee, W.query()), "");
  // The call ran, the function's body did not.
  W.Visited.insert(findCallTo(P.Kernel->getBody(), "load"));
  EXPECT_EQ(S.missedWhy(InCallee, W.query()), "the call at line 15 ran without entering 'load'");
}

} // namespace

// The alignment the compiler can prove of a pointer variable
// (ast/AstUtil.h statedAlignment): its element type's, or the largest
// __builtin_assume_aligned states where it is initialised or assigned; the
// merge models read it (interp/models/SharedMerges.cpp, EmittedCode.cpp).
TEST(AstUtil, StatedAlignmentOfPointers) {
  Parsed P = parse(R"(
struct alignas(8) float2 { float x, y; }; // as the CUDA headers declare it
struct alignas(16) Body { float x, y, z, w; };
struct Pair { float a, b; };
__global__ void k(const float *p, const float2 *q, const Body *b, const Pair *r, float *o,
                  const void *v) {
  const float *s = static_cast<const float *>(__builtin_assume_aligned(p, 16));
  o = static_cast<float *>(__builtin_assume_aligned(o, 8));
  const float *t = p + 1;
  o[0] = s[0] + t[0] + q[0].x + b[0].x + r[0].a;
}
)");
  ASSERT_TRUE(P.Kernel);
  ASTContext &Ctx = P.AST->getASTContext();
  std::map<std::string, const VarDecl *> Vars;
  for (const ParmVarDecl *PD : P.Kernel->parameters())
    Vars[PD->getNameAsString()] = PD;
  struct Locals : RecursiveASTVisitor<Locals> {
    std::map<std::string, const VarDecl *> &Out;
    explicit Locals(std::map<std::string, const VarDecl *> &Out) : Out(Out) {}
    bool VisitVarDecl(VarDecl *V) {
      Out[V->getNameAsString()] = V;
      return true;
    }
  } L(Vars);
  L.TraverseStmt(P.Kernel->getBody());
  auto Align = [&](const char *N) { return statedAlignment(Vars.at(N), P.Kernel, Ctx); };
  EXPECT_EQ(Align("p"), 4);  // a `const float *`, whatever cudaMalloc gives
  EXPECT_EQ(Align("q"), 8);  // float2
  EXPECT_EQ(Align("b"), 16); // alignas(16)
  EXPECT_EQ(Align("r"), 4);  // a struct of two floats
  EXPECT_EQ(Align("s"), 16); // initialised from __builtin_assume_aligned(p, 16)
  EXPECT_EQ(Align("o"), 8);  // restated in an assignment
  EXPECT_EQ(Align("t"), 4);  // computed from p: its type's only
  EXPECT_EQ(Align("v"), 1);  // void: nothing
}
